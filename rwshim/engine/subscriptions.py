"""Subscriptions: CREATE / DROP SUBSCRIPTION, ALTER SUBSCRIPTION (SET RETENTION, RENAME,
OWNER, SET SCHEMA, SWAP), the look-ups DECLARE ... SUBSCRIPTION CURSOR makes, and the
cross-database rule a materialized view reading another database's table meets.

A subscription is a schema object in the object id space, named in the relations' namespace
(check_relation_name_duplicated has a subscription arm), reading one created table or
materialized view.  It is no streaming job (no rw_streaming_jobs row, no fragments): meta
records it and sends a barrier (ddl_controller.rs create_subscription).  A DROP of its
upstream without CASCADE is refused with meta's check_object_refer_for_drop text; CASCADE
takes it along (engine.ddl, engine.catalog.remove_relations).

RisingWave: frontend ``handler/create_subscription.rs``, ``catalog/subscription_catalog.rs``
(set_retention_seconds), ``handler/drop_subscription.rs``, ``handler/alter_subscription_
retention.rs``, the SUBSCRIPTION arms of ``alter_rename.rs`` / ``alter_owner.rs`` /
``alter_set_schema.rs`` / ``alter_swap_rename.rs``, ``session.rs`` (get_table_by_name,
check_relation_name_duplicated :1047-1105); meta ``controller/catalog/create_op.rs``
(create_subscription_catalog, validate_cross_db_snapshot_backfill :625-663),
``controller/utils.rs`` (check_object_refer_for_drop's subscription lines,
validate_subscription_deletion: the last subscription read across databases stays).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from msgspec import Struct

from rwshim.common.acl import CheckItem
from rwshim.engine.barrier import Barrier
from rwshim.engine.catalog import Catalog
from rwshim.engine.kinds import TABLE_NAMESPACE
from rwshim.engine.privileges import ObjectKind
from rwshim.engine.state import Meta
from rwshim.engine.types import Context, ObjectName, Result
from rwshim.engine.users import Users
from rwshim.errors import (
    CatalogDuplicated,
    CatalogNotFound,
    InternalError,
    InvalidInputSyntax,
    MetaPermissionDenied,
    Uncategorized,
)
from rwshim.sql import unparse

_COLS = (
    "subscription_id, name, schema_id, database_id, owner_id, dependent_table_id,"
    " retention_seconds, definition, created_epoch"
)


class Subscription(Struct, frozen=True):
    """A subscription as the handlers and cursors find it."""

    id: int
    name: str
    schema_id: int
    database_id: int
    owner_id: int
    dependent_table_id: int
    retention_seconds: int
    definition: str
    created_epoch: int


def _sub(row: Sequence[object]) -> Subscription:
    return Subscription(
        int(row[0]),  # type: ignore[call-overload]
        str(row[1]),
        int(row[2]),  # type: ignore[call-overload]
        int(row[3]),  # type: ignore[call-overload]
        int(row[4]),  # type: ignore[call-overload]
        int(row[5]),  # type: ignore[call-overload]
        int(row[6]),  # type: ignore[call-overload]
        str(row[7]),
        int(row[8]),  # type: ignore[call-overload]
    )


class Subscriptions:
    """The subscription catalog."""

    def __init__(self, meta: Meta, users: Users, catalog: Catalog, barrier: Barrier) -> None:
        self.meta = meta
        self.store = meta.store
        self.conn = meta.conn
        self.users = users
        self.catalog = catalog
        self.barrier = barrier
        catalog.privileges.register_kind("subscription", self._grant_kind())

    def _grant_kind(self) -> ObjectKind:
        def owner_of(oid: int) -> int | None:
            v = self.meta.val("SELECT owner_id FROM subscription WHERE subscription_id = ?", (oid,))
            return None if v is None else int(v)

        def resolve(ctx: Context, name: ObjectName, args: str | None) -> int:
            return self.get(ctx, name).id

        def in_schema(schema_id: int) -> list[int]:
            rows = self.conn.execute(
                "SELECT subscription_id FROM subscription WHERE schema_id = ?"
                " ORDER BY subscription_id",
                (schema_id,),
            )
            return [int(r[0]) for r in rows]

        return ObjectKind(owner_of, resolve, in_schema)

    # ------------------------------------------------------------------ look-ups

    def find(self, ctx: Context, name: ObjectName) -> Subscription | None:
        """get_subscription_by_name (root_catalog.rs): the named schema (missing: ``schema
        not found``), else the first schema of the search path that has it."""
        if name.schema is not None:
            sid = self.catalog.schema_id(ctx.database_id, name.schema)
            if sid is None:
                raise CatalogNotFound("schema", name.schema)
            schemas = [sid]
        else:
            schemas = [
                s
                for s in (self.catalog.schema_id(ctx.database_id, n) for n in
                          self.catalog.search_path(ctx))
                if s is not None
            ]  # fmt: skip
        for sid in schemas:
            row = self.meta.q1(
                f"SELECT {_COLS} FROM subscription WHERE schema_id = ? AND name = ?",
                (sid, name.name),
            )
            if row is not None:
                return _sub(row)
        return None

    def get(self, ctx: Context, name: ObjectName) -> Subscription:
        found = self.find(ctx, name)
        if found is None:
            raise CatalogNotFound("subscription", name.name)
        return found

    def by_id(self, subscription_id: int) -> Subscription | None:
        row = self.meta.q1(
            f"SELECT {_COLS} FROM subscription WHERE subscription_id = ?", (subscription_id,)
        )
        return None if row is None else _sub(row)

    def all(self) -> list[Subscription]:
        """Every subscription of every database."""
        rows = self.conn.execute(f"SELECT {_COLS} FROM subscription ORDER BY subscription_id")
        return [_sub(r) for r in rows]

    def on_relation(self, relation_id: int) -> list[Subscription]:
        rows = self.conn.execute(
            f"SELECT {_COLS} FROM subscription WHERE dependent_table_id = ?"
            " ORDER BY subscription_id",
            (relation_id,),
        )
        return [_sub(r) for r in rows]

    def drop_lines(self, relation_id: int) -> list[str]:
        """check_object_refer_for_drop's DETAIL lines for the subscriptions on a relation."""
        return [
            f"subscription {self.catalog.schema_name(s.schema_id)}.{s.name} depends on it"
            for s in self.on_relation(relation_id)
        ]

    def duplicate(self, schema_id: int, name: str) -> bool:
        return (
            self.meta.q1(
                "SELECT 1 FROM subscription WHERE schema_id = ? AND name = ?", (schema_id, name)
            )
            is not None
        )

    def refuse_unsubscribed(self, relation_ids: Sequence[int]) -> None:
        """validate_cross_db_snapshot_backfill (create_op.rs:625-663): every upstream a
        materialized view reads from another database needs a subscription."""
        for rid in relation_ids:
            if not self.on_relation(rid):
                raise MetaPermissionDenied("Some upstream tables are not subscribed")

    # ------------------------------------------------------------------ CREATE / DROP

    def create(
        self,
        ctx: Context,
        name: ObjectName,
        from_name: ObjectName,
        with_options: Sequence[tuple[str, str]],
        text: str,
        *,
        if_not_exists: bool = False,
    ) -> Result:
        """handle_create_subscription (create_subscription.rs:75-115)."""
        # check_relation_name_duplicated (session.rs:1047-1105): the subscription's schema
        # is the named one or the first valid one of the search path
        sid, _ = self.catalog.find_creation_schema(ctx, name.schema)
        existing = self.catalog.check_duplicate(sid, name.name)
        if existing is not None:
            if if_not_exists and existing.status in (None, "CREATED"):
                return Result([f'relation "{name.name}" already exists, skipping'])
            # (a job still being created: meta's own duplicate check refuses it)
            raise self.catalog.duplicate_error(existing)
        if self.duplicate(sid, name.name):
            if if_not_exists:
                return Result([f'relation "{name.name}" already exists, skipping'])
            raise CatalogDuplicated(f"subscription named {name.name} already exists")
        # create_subscription_catalog (:31-72): both schemas for create (CREATE on them),
        # then the upstream: a created table, materialized view or index in the upstream's
        # schema (get_table_by_name, session.rs:1283-1308: SELECT on it)
        table_sid, _ = self.catalog.creation_schema(ctx, from_name)
        sub_sid, _ = self.catalog.creation_schema(ctx, name)
        definition = unparse.definition(text)
        row = self.meta.q1(
            "SELECT r.relation_id, r.kind, r.owner_id, r.name FROM relation r"
            " LEFT JOIN streaming_job j ON j.job_id = r.relation_id"
            " WHERE r.schema_id = ? AND r.name = ? AND r.kind IN (?, ?, ?, 'internal')"
            " AND (j.job_status IS NULL OR j.job_status = 'CREATED') ORDER BY r.relation_id",
            (table_sid, from_name.name, *TABLE_NAMESPACE),
        )
        if row is None:
            raise Uncategorized(f'table "{from_name.name}" does not exist')
        rid, kind, owner = int(row[0]), str(row[1]), int(row[2])
        self.catalog.privileges.check(
            ctx, [CheckItem(owner, "SELECT", from_name.name, "table", rid)]
        )
        if kind == "internal":
            # reject_internal_table_dependency (util.rs:364-375)
            raise InvalidInputSyntax(
                f'CREATE SUBSCRIPTION does not support internal table "{from_name.name}"'
            )
        options = {k.lower(): v for k, v in with_options}
        if "retention" not in options:
            # set_retention_seconds (subscription_catalog.rs:74-82)
            raise InternalError("Subscription retention time not set.")
        # imported here: its Fractions bring fractions, which start-up never uses
        from rwshim.engine.retention import interval_seconds

        retention = interval_seconds(str(options["retention"]))
        with self.store.transaction():
            # a barrier carries the create (Command::CreateSubscription); its epoch is the
            # subscription's created_at_epoch
            self.barrier.barrier(ctx.database_id)
            epoch = self.barrier.epoch(ctx.database_id)
            oid = self.store.next_id("object")
            self.conn.execute(
                "INSERT INTO subscription(subscription_id, name, schema_id, database_id,"
                " owner_id, dependent_table_id, retention_seconds, definition, created_epoch,"
                " created_at, created_at_cluster_version)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (oid, name.name, sub_sid, ctx.database_id, ctx.user_id, rid, retention,
                 definition, epoch, self.meta.now(), self.meta.release.cluster_version),
            )  # fmt: skip
            self.catalog.privileges.apply_defaults(
                oid,
                "subscription",
                database_id=ctx.database_id,
                schema_id=sub_sid,
                owner_id=ctx.user_id,
            )
        self.meta.commit_actions()
        return Result()

    def drop(
        self, ctx: Context, name: ObjectName, *, if_exists: bool = False, cascade: bool = False
    ) -> Result:
        """handle_drop_subscription (drop_subscription.rs): nothing depends on a
        subscription, so CASCADE changes nothing."""
        try:
            sub = self.find(ctx, name)
        except CatalogNotFound:
            if if_exists:
                return Result([f'subscription "{name.name}" does not exist, skipping'])
            raise
        if sub is None:
            if if_exists:
                return Result([f'subscription "{name.name}" does not exist, skipping'])
            raise CatalogNotFound("subscription", name.name)
        self.catalog.check_drop_alter(ctx, _Owned(sub))
        self._refuse_last_cross_db(sub)
        with self.store.transaction():
            self.catalog.privileges.forget_objects([sub.id])
            self.conn.execute("DELETE FROM subscription WHERE subscription_id = ?", (sub.id,))
            self.barrier.barrier(sub.database_id)
        self.meta.commit_actions()
        return Result()

    def _refuse_last_cross_db(self, sub: Subscription) -> None:
        """validate_subscription_deletion (meta controller/utils.rs:2260-2319, called by
        drop_op.rs:47-50 before anything is removed): the last subscription on a relation
        that objects of other databases read keeps its log store, which those cross-database
        jobs read; dropping it is refused while any remains."""
        if len(self.on_relation(sub.dependent_table_id)) > 1:
            return
        # object_dependency rows on the upstream whose user lives in another database (the
        # subscription's own row, which utils.rs:2302 leaves out, is not kept here)
        row = self.meta.q1(
            "SELECT count(*) FROM dependency d"
            " JOIN relation up ON up.relation_id = d.referenced_id"
            " JOIN relation dep ON dep.relation_id = d.dependent_id"
            " WHERE d.referenced_id = ? AND dep.database_id <> up.database_id",
            (sub.dependent_table_id,),
        )
        count = int(row[0]) if row is not None else 0
        if count:
            raise MetaPermissionDenied(f"Referenced by {count} cross-db objects.")

    # ------------------------------------------------------------------ ALTER

    def alter_retention(self, ctx: Context, name: ObjectName, retention: str) -> Result:
        """ALTER SUBSCRIPTION ... SET RETENTION (alter_subscription_retention.rs): the
        retention and the stored definition's WITH (retention = ...)."""
        sub = self.get(ctx, name)
        self.catalog.check_drop_alter(ctx, _Owned(sub))
        from rwshim.engine.retention import interval_seconds  # see create: not at start-up

        seconds = interval_seconds(retention)
        definition = _with_retention(sub.definition, retention)
        with self.store.transaction():
            self.conn.execute(
                "UPDATE subscription SET retention_seconds = ?, definition = ?"
                " WHERE subscription_id = ?",
                (seconds, definition, sub.id),
            )
        return Result()

    def rename(self, ctx: Context, name: ObjectName, new_name: str) -> Result:
        """handle_rename_subscription (alter_rename.rs:162-191; meta alter_name)."""
        sub = self.get(ctx, name)
        self.catalog.check_drop_alter(ctx, _Owned(sub))
        self._refuse_taken(sub.schema_id, new_name)
        with self.store.transaction():
            self.conn.execute(
                "UPDATE subscription SET name = ?, definition = ? WHERE subscription_id = ?",
                (new_name, unparse.rename_relation(sub.definition, new_name), sub.id),
            )
        return Result()

    def _refuse_taken(self, schema_id: int, new_name: str) -> None:
        existing = self.catalog.check_duplicate(schema_id, new_name)
        if existing is not None:
            raise self.catalog.duplicate_error(existing)
        if self.duplicate(schema_id, new_name):
            raise CatalogDuplicated(f"subscription named {new_name} already exists")

    def alter_owner(self, ctx: Context, name: ObjectName, owner: str) -> Result:
        """ALTER SUBSCRIPTION ... OWNER TO (alter_owner.rs)."""
        uid = self.users.user_id(owner)
        if uid is None:
            raise CatalogNotFound("user", owner)
        sub = self.get(ctx, name)
        self.catalog.check_drop_alter(ctx, _Owned(sub))
        if sub.owner_id == uid:
            return Result()
        self.catalog.privileges.check_new_owner(ctx, uid, sub.schema_id)
        with self.store.transaction():
            self.conn.execute(
                "UPDATE subscription SET owner_id = ? WHERE subscription_id = ?", (uid, sub.id)
            )
        return Result()

    def set_schema(self, ctx: Context, name: ObjectName, schema: str) -> Result:
        """ALTER SUBSCRIPTION ... SET SCHEMA (alter_set_schema.rs)."""
        sub = self.get(ctx, name)
        self.catalog.check_drop_alter(ctx, _Owned(sub))
        sid = self.catalog.schema_id(ctx.database_id, schema)
        if sid is None:
            raise CatalogNotFound("schema", schema)
        if sid == sub.schema_id:
            return Result()
        self.catalog.privileges.check_create_in_schema(ctx, sid, schema)
        self._refuse_taken(sid, sub.name)
        with self.store.transaction():
            self.conn.execute(
                "UPDATE subscription SET schema_id = ? WHERE subscription_id = ?", (sid, sub.id)
            )
        return Result()

    def swap(self, ctx: Context, name: ObjectName, other: ObjectName) -> Result:
        """ALTER SUBSCRIPTION a SWAP WITH b (alter_swap_rename.rs): the two exchange names."""
        a = self.get(ctx, name)
        b = self.get(ctx, other)
        self.catalog.privileges.check_swap(ctx, a.owner_id, b.owner_id)
        with self.store.transaction():
            for s, new in ((a, b.name), (b, a.name)):
                self.conn.execute(
                    "UPDATE subscription SET name = ?, definition = ? WHERE subscription_id = ?",
                    (f"\0{new}" if s is a else new,
                     unparse.rename_relation(s.definition, new), s.id),
                )  # fmt: skip
            self.conn.execute(
                "UPDATE subscription SET name = substr(name, 2) WHERE subscription_id = ?",
                (a.id,),
            )
        return Result()

    def rename_upstream(self, relation_id: int, old: str, new: str) -> None:
        """A renamed upstream: its subscriptions' definitions name it anew (meta
        rename_relation_refer; inside the caller's transaction)."""
        for s in self.on_relation(relation_id):
            self.conn.execute(
                "UPDATE subscription SET definition = ? WHERE subscription_id = ?",
                (unparse.rename_refs(s.definition, old, new), s.id),
            )


class _Owned(Struct, frozen=True):
    """A subscription as check_drop_alter takes it."""

    sub: Subscription

    @property
    def owner_id(self) -> int:
        return self.sub.owner_id

    @property
    def schema_id(self) -> int:
        return self.sub.schema_id


def _with_retention(definition: str, retention: str) -> str:
    """update_subscription_definition (alter_subscription_retention.rs): the definition
    parsed, its WITH option ``retention`` set (appended when missing), printed again."""
    from rwshim.sql.unparse import ddl_display
    from rwshim.sql.unparse import nodes as n

    stmt = unparse.parse_create(definition)
    if not isinstance(stmt, n.CreateSubscription):
        raise InternalError("Unexpected statement in the subscription definition.")
    value = retention if re.fullmatch(r"[+-]?\d+(\.\d*)?", retention) else quote_literal(retention)
    for opt in stmt.with_options:
        if opt.name.parts and opt.name.parts[-1].real_value().lower() == "retention":
            opt.value = value
            break
    else:
        stmt.with_options.append(n.SqlOption(n.ObjectName([n.Ident("retention")]), value))
    return ddl_display.statement(stmt)


def quote_literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
