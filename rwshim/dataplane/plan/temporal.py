"""Temporal joins (``JOIN dim FOR SYSTEM_TIME AS OF PROCTIME() ON ...``) as PostgreSQL text,
and the history tables they read (no I/O).

RisingWave (``src/stream/src/executor/temporal_join.rs``): a left row is looked up in the
right table as of the end of the epoch before the one it arrives in (right-side changes are
buffered and applied at the barrier, ``:257-313``, ``:829-852``); later right-side changes
never revise an output; a left row's update or delete retracts what it produced and an
insert does a fresh lookup (the memo table, ``:516-590``).

Here, per right table, a history ``rw."h<id>"``: its rows, their row text, and the epochs
each version was valid in (``__from`` inclusive, ``__to`` exclusive, NULL while current),
brought up to date at every barrier whose epoch wrote the table by diffing it with the open
versions.  Per materialized view, the arrivals ``rw."a<id>"``: for each temporal join ``k``
and each left row (its row text: a changed row is a new row), the epoch whose end it was
looked up at.  The view's query reads the right side as ``LATERAL`` over the versions valid at
its left row's arrival, so computing the view again at a barrier gives every old row the
dimension it was joined with and every new row the dimension of the epoch before.  What is
emulated: the left side must be one table or materialized view (no join chain, no alias
column list); two equal rows of a materialized view on the left share one arrival.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rwshim.binder.relations import Relation as Relation_
from rwshim.binder.relations import RelKind
from rwshim.dataplane.plan import names, retention, tree
from rwshim.dataplane.plan.names import quote_ident as qi
from rwshim.errors import NotSupported, Uncategorized

if TYPE_CHECKING:
    from rwshim.binder.relations import Relation
    from rwshim.dataplane.plan.ddl import PgObject
    from rwshim.dataplane.plan.rewrite import PgStatement

# the arrivals table's name in a query until the view's id is known (plane._definition)
ARRIVALS_PLACEHOLDER = 'rw."a@view@"'
# the settings a barrier's commit sets (dataplane/temporal.py): the epoch the lookups of the
# left rows it commits read at, and the epoch it stamps new versions with
EPOCH_SETTING = "rw.stream_epoch"
STAMP_SETTING = "rw.stream_stamp"
_EPOCH = f"COALESCE(NULLIF(pg_catalog.current_setting('{EPOCH_SETTING}', true), '')::bigint, 0)"
_STAMP = f"COALESCE(NULLIF(pg_catalog.current_setting('{STAMP_SETTING}', true), '')::bigint, 0)"

# optimizer/mod.rs:432-438 (gen_batch_plan)
BATCH_REFUSAL = (
    "do not support temporal join for batch queries",
    "please use temporal join in streaming queries",
)


def batch_refusal() -> NotSupported:
    return NotSupported(*BATCH_REFUSAL)


@dataclass(frozen=True, slots=True)
class TemporalJoin:
    """One temporal join of a query: its number, the left side's physical relation, the
    right table's id."""

    k: int
    left: str  # e.g. rw."t5"
    right_id: int


def left_key(exposed: str) -> str:
    """A left row's identity: its row text (a hidden ``_row_id`` or the key included)."""
    return f"ROW({qi(exposed)}.*)::text"


def lateral(k: int, right_id: int, columns: list[str], left_exposed: str) -> str:
    """The right side of temporal join ``k``: the versions of the right table valid at the
    epoch its left row arrived in."""
    h = f"{names.DATA_SCHEMA}.{qi(names.history_name(right_id))}"
    cols = ", ".join(f"__h.{qi(c)}" for c in columns)
    return (
        f"LATERAL (SELECT {cols} FROM {h} AS __h JOIN {ARRIVALS_PLACEHOLDER} AS __a"
        f" ON __a.k = {k} AND __a.sk = {left_key(left_exposed)}"
        " AND __h.__from <= __a.epoch AND (__h.__to IS NULL OR __h.__to > __a.epoch))"
    )


def history_create(table_id: int) -> tuple[str, ...]:
    """A table's history, its current rows valid from the last barrier's stamp."""
    h = f"{names.DATA_SCHEMA}.{qi(names.history_name(table_id))}"
    t = names.qualified_table(table_id)
    return (
        f"CREATE TABLE {h} AS SELECT __t.*, ROW(__t.*)::text AS __row, 0::bigint AS __from,"
        f" NULL::bigint AS __to FROM {t} AS __t",
        f"CREATE INDEX ON {h} (__row) WHERE __to IS NULL",
    )


def history_update(table_id: int) -> list[str]:
    """At a barrier whose epoch wrote the table: versions gone are closed, new ones opened
    (stamped with the barrier's epoch)."""
    h = f"{names.DATA_SCHEMA}.{qi(names.history_name(table_id))}"
    t = names.qualified_table(table_id)
    return [
        f"UPDATE {h} AS __h SET __to = {_STAMP} WHERE __h.__to IS NULL AND NOT EXISTS"
        f" (SELECT 1 FROM {t} AS __t WHERE ROW(__t.*)::text = __h.__row)",
        f"INSERT INTO {h} SELECT __t.*, ROW(__t.*)::text, {_STAMP}, NULL FROM {t} AS __t"
        f" WHERE NOT EXISTS (SELECT 1 FROM {h} AS __h WHERE __h.__to IS NULL"
        " AND __h.__row = ROW(__t.*)::text)",
    ]


# A materialized view's history (time travel on it, as RisingWave allows on any table of the
# catalog, materialized views included: binder/relation/table_or_source.rs:174-189 binds
# ``get_any_table_by_name`` with its AS OF).  Its state may hold equal rows (no hidden key), so
# a version's identity is its row text and its rank among the equal rows ("<text>#<n>"): two
# equal rows that become one close one version.
def _ranked(state: str) -> str:
    return (
        f"(SELECT __s AS __c, ROW(__s.*)::text || '#' || pg_catalog.row_number() OVER"
        f" (PARTITION BY ROW(__s.*)::text) AS __k FROM {state} AS __s)"
    )


def mv_history_create(view_id: int) -> tuple[str, ...]:
    """A materialized view's history made with its state: the rows valid from the epoch it is
    made in (a point before reads none of them)."""
    h = f"{names.DATA_SCHEMA}.{qi(names.history_name(view_id))}"
    state = f"{names.DATA_SCHEMA}.{qi(names.state_name(view_id))}"
    return (
        f"CREATE TABLE {h} AS SELECT (__r.__c).*, __r.__k AS __row, {_STAMP} AS __from,"
        f" NULL::bigint AS __to FROM {_ranked(state)} AS __r",
        f"CREATE INDEX ON {h} (__row) WHERE __to IS NULL",
        # the epoch it starts at, for the reads (``time_travel_source``)
        f"DO $$ BEGIN EXECUTE pg_catalog.format('COMMENT ON TABLE {h} IS %L', {_STAMP}); END $$",
    )


def mv_history_update(view_id: int) -> list[str]:
    """After a barrier computed the view's state again: versions gone closed, new ones opened
    (an unchanged row keeps its version)."""
    h = f"{names.DATA_SCHEMA}.{qi(names.history_name(view_id))}"
    state = f"{names.DATA_SCHEMA}.{qi(names.state_name(view_id))}"
    return [
        f"UPDATE {h} AS __h SET __to = {_STAMP} WHERE __h.__to IS NULL AND __h.__row NOT IN"
        f" (SELECT __r.__k FROM {_ranked(state)} AS __r)",
        f"INSERT INTO {h} SELECT (__r.__c).*, __r.__k, {_STAMP}, NULL FROM {_ranked(state)}"
        f" AS __r WHERE NOT EXISTS (SELECT 1 FROM {h} AS __h WHERE __h.__to IS NULL"
        " AND __h.__row = __r.__k)",
    ]


def vacuum(relation_id: int, watermark: int) -> str:
    """The versions no read at or after ``watermark`` sees (ended by then) deleted, as
    RisingWave's meta deletes the time-travel metadata of epochs below its watermark
    (src/meta/src/hummock/manager/time_travel.rs:70-200, gc.rs:478-495)."""
    h = f"{names.DATA_SCHEMA}.{qi(names.history_name(relation_id))}"
    return f"DELETE FROM {h} WHERE __to <= {int(watermark)}"


def arrivals_create(view_id: int, joins: list[TemporalJoin]) -> tuple[str, ...]:
    """A view's arrivals, its left sides' current rows looked up as of the last barrier
    (the view's creation joins the rows already there with the table as it is then)."""
    a = f"{names.DATA_SCHEMA}.{qi(names.arrivals_name(view_id))}"
    out = [f"CREATE TABLE {a} (k int NOT NULL, sk text NOT NULL, epoch bigint NOT NULL)"]
    out += [
        f"INSERT INTO {a} SELECT DISTINCT {j.k}, ROW(__l.*)::text, {_EPOCH} FROM {j.left} AS __l"
        for j in joins
    ]
    out.append(f"CREATE INDEX ON {a} (k, sk)")
    return tuple(out)


def arrivals_update(view_id: int, joins: list[TemporalJoin]) -> list[str]:
    """At a barrier whose epoch wrote a left side: rows gone are forgotten, new rows (and
    changed ones: a new row text) arrive at the epoch before the barrier's."""
    a = f"{names.DATA_SCHEMA}.{qi(names.arrivals_name(view_id))}"
    out = []
    for j in joins:
        out.append(
            f"DELETE FROM {a} AS __a WHERE __a.k = {j.k} AND NOT EXISTS"
            f" (SELECT 1 FROM {j.left} AS __l WHERE ROW(__l.*)::text = __a.sk)"
        )
        out.append(
            f"INSERT INTO {a} SELECT {j.k}, __s.sk, {_EPOCH} FROM (SELECT DISTINCT"
            f" ROW(__l.*)::text AS sk FROM {j.left} AS __l) AS __s WHERE NOT EXISTS"
            f" (SELECT 1 FROM {a} AS __a WHERE __a.k = {j.k} AND __a.sk = __s.sk)"
        )
    return out


def relations(
    joins: tuple[TemporalJoin, ...], histories: tuple[tuple[int, tuple[str, str]], ...]
) -> set[tuple[str, str]]:
    """The physical relations a query's temporal joins and time travel add (for the guard)."""
    out = {(names.DATA_SCHEMA, names.history_name(i)) for i, _ in histories}
    out |= {(names.DATA_SCHEMA, names.history_name(j.right_id)) for j in joins}
    if joins:
        out.add((names.DATA_SCHEMA, "a@view@"))
    return out


def check_batch(st: PgStatement) -> None:
    """A batch query may not use a temporal join."""
    if st.temporal:
        raise batch_refusal()


def for_view(st: PgStatement, rel: Relation) -> PgStatement:
    """A view's statement: a materialized view's reads its own arrivals; a view's query is a
    batch query."""
    if not st.temporal:
        return st
    if rel.kind != RelKind.MATERIALIZED_VIEW:
        raise batch_refusal()
    real = f"{names.DATA_SCHEMA}.{qi(names.arrivals_name(rel.id))}"
    return dataclasses.replace(st, text=st.text.replace(ARRIVALS_PLACEHOLDER, real))


def objects(
    view_id: int, joins: tuple[TemporalJoin, ...], signature: str, deps: list[PgObject]
) -> list[PgObject]:
    """The histories of a view's right tables (unless ``deps``, the objects it reads, have
    them: time travel keeps every table's) and its arrivals, before its query."""
    from rwshim.dataplane.plan.ddl import PgObject

    if not joins:
        return []
    made = {o.name: o for o in deps}
    out: list[PgObject] = []
    for j in joins:
        table = made.get(names.table_name(j.right_id))
        if table is not None and names.history_name(j.right_id) not in made:
            out.append(history_object(j.right_id, table.signature))
    out.append(
        PgObject(
            names.arrivals_name(view_id), "arrivals", signature,
            arrivals_create(view_id, list(joins)), view_id,
        )
    )  # fmt: skip
    return out


# Time travel (``SELECT ... FROM t FOR SYSTEM_TIME AS OF <point>``): the point as an epoch
# (src/frontend/src/optimizer/plan_node/utils.rs:501-575: whole seconds s read as the epoch of
# (s + 1) * 1000 ms, so the read includes what committed during second s; ``NOW() - iv`` from
# the clock truncated to seconds), checked against the retention (time_travel_retention_ms,
# 0: disabled) by rwfn.time_travel_epoch (sqlfn/datetime.py), then the table's versions valid
# at it.  The oldest epoch readable (the last barrier's time less the retention) is put in when
# the query is planned (plane.plan, dataplane/temporal.py).
FLOOR_PLACEHOLDER = "-424242424242"  # (a number: the guard parses the text)
CLOCK_PLACEHOLDER = "-434343434343"  # rwshim's clock (Unix ms) when the query is planned


def point_epoch(point: tuple[str, str]) -> str:
    """The SQL of a time-travel point's epoch."""
    f = names.FUNCTION_SCHEMA
    kind, value = point
    if kind == "num":
        return f"{f}.time_travel_epoch_of(pg_catalog.to_timestamp({int(value)}))"
    if kind == "str":
        return f"{f}.time_travel_epoch_of({names.quote_literal(value)}::timestamptz)"
    # NOW() is the frontend's clock, not the batch now() (utils.rs:557-568): rwshim's clock
    # when planned (``with_floor``)
    return (
        f"{f}.time_travel_epoch_of(pg_catalog.date_trunc('second',"
        f" pg_catalog.to_timestamp(({CLOCK_PLACEHOLDER}) / 1000.0))"
        f" - {names.quote_literal(value)}::interval)"
    )


def time_travel_source(
    table_id: int, columns: list[str], point: tuple[str, str], view: str | None = None
) -> str:
    """A table read as of a time-travel point, or a materialized view (``view``, its name).
    A view's state is made when first read (dataplane/epochs.py), its history with it: a
    point before that is refused (``time_travel_origin``), never answered with the rows of
    later."""
    h = f"{names.DATA_SCHEMA}.{qi(names.history_name(table_id))}"
    cols = ", ".join(f"__h.{qi(c)}" for c in columns)
    check = (
        f"{names.FUNCTION_SCHEMA}.time_travel_epoch({table_id}, {point_epoch(point)},"
        f" {FLOOR_PLACEHOLDER})"
    )
    if view is not None:
        check = (
            f"{names.FUNCTION_SCHEMA}.time_travel_origin({check},"
            f" {names.quote_literal(h)}::regclass, {names.quote_literal(view)})"
        )
    return (
        f"(SELECT {cols} FROM (SELECT {check} AS e) AS __e JOIN {h} AS __h"
        " ON __h.__from <= __e.e AND (__h.__to IS NULL OR __h.__to > __e.e))"
    )


def with_floor(st: PgStatement, floor_epoch: int, clock_ms: int) -> PgStatement:
    """The statement with the oldest epoch time travel may read, and the clock's time."""
    text = st.text.replace(FLOOR_PLACEHOLDER, str(floor_epoch))
    return dataclasses.replace(st, text=text.replace(CLOCK_PLACEHOLDER, str(clock_ms)))


def history_object(table_id: int, table_signature: str, view: bool = False) -> PgObject:
    """A table's history (made with the table while time travel is enabled), or a
    materialized view's (``view``: made with its state, after it)."""
    from rwshim.dataplane.plan.ddl import PgObject

    create = mv_history_create(table_id) if view else history_create(table_id)
    return PgObject(
        names.history_name(table_id), "history", f"history of {table_signature}",
        create, table_id,
    )  # fmt: skip


# --- the rewriter's part (rewrite.py calls ``source`` for every relation name) ----------


def source(rw: Any, ref: tree.RelRef, rel: Relation, end: int, phys: str) -> str:
    """What the relation named at ``ref`` (ending at byte ``end``) reads as: a temporal
    join's right side, a table as of a time-travel point, or ``phys``.  ``rw`` is the
    rewriter (rewrite._Rewriter: its text, routed statement, levels and the lists it
    fills)."""
    from rwshim.dataplane.plan.rewrite import RewriteRefused

    at = rw.routed.prepassed
    if any(a >= end and not rw.text[end:a].strip() for a in at.temporal_at):
        left = _left_of(rw.shape.levels, ref)
        if left is None or left.cte is not None or left.colnames:
            raise RewriteRefused(
                "a temporal join whose left side is not one table or materialized view"
            )
        left_rel = rw.routed.relation_of(left)
        if not isinstance(left_rel, Relation_):
            raise RewriteRefused(f"a temporal join reading {left.name}")
        k = len(rw._temporal)
        rw._temporal.append(TemporalJoin(k, rw.physical(left_rel), rel.id))
        return lateral(k, rel.id, [c.name for c in rel.columns], left.exposed)
    for a, point in at.time_travel_at.items():
        if a >= end and not rw.text[end:a].strip():
            if rel.kind == RelKind.VIEW:
                # RisingWave binds a view's query and drops its AS OF: the view reads the
                # current data (binder/relation/table_or_source.rs:193-197, resolve_view_relation
                # takes no as_of)
                return phys
            if rel.kind == RelKind.SOURCE:
                # optimizer/plan_node/logical_source.rs:91-93 (support_time_travel: Iceberg only)
                raise Uncategorized("Time travel is not supported for the source")
            if rel.kind not in (RelKind.TABLE, RelKind.MATERIALIZED_VIEW):
                raise RewriteRefused(f"time travel on {rel.kind.value} {rel.name}")
            if rel.retention_seconds:  # (plan/retention.py)
                raise retention.refusal(rel, "time travel")
            rw._histories.append((rel.id, point))
            view = rel.name if rel.kind == RelKind.MATERIALIZED_VIEW else None
            return time_travel_source(rel.id, [c.name for c in rel.columns], point, view)
    return phys


def _left_of(levels: list[tree.Level], ref: tree.RelRef) -> tree.RelRef | None:
    """The left side of the join whose right side is ``ref`` (``a JOIN b``, or ``a, b``),
    when it is one relation."""
    for level in levels:
        stack: list[tree.FromItem] = []
        for i, item in enumerate(level.items):
            if item is ref and i > 0:
                prev = level.items[i - 1]
                return prev if isinstance(prev, tree.RelRef) else None
            stack.append(item)
        while stack:
            item = stack.pop()
            if isinstance(item, tree.JoinItem):
                if item.right is ref:
                    return item.left if isinstance(item.left, tree.RelRef) else None
                stack.extend((item.left, item.right))
    return None
