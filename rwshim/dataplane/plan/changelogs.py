"""Changelog CTEs (``WITH p AS changelog FROM t``) on the data plane: the log a materialized
view reads them from, and the batch refusal (no I/O).

RisingWave (448c657): the CTE binds as the table's or source's columns plus ``changelog_op``
and the hidden ``_changelog_row_id`` (binder/relation/share.rs:41-84; here
rwshim.binder.resolve.changelog_of).  Its stream plan scans the table (the snapshot at the
job's creation, then every change) and the ChangeLog executor turns each change into an
Insert of the row with its op's code: Insert 1, Delete 2, UpdateInsert 3, UpdateDelete 4
(src/common/src/array/stream_chunk.rs:84-91 ``Op::to_i16``;
src/stream/src/executor/changelog.rs:73-100), each with a new ``_changelog_row_id``
(ChangelogRowIdGenerator, src/common/src/util/row_id.rs:271-330), the stream key.  A batch
query cannot read it: ``With changelog cte only support with create mv/sink``
(optimizer/plan_node/logical_changelog.rs:139-143).

Here a materialized view keeps, per changelog CTE's upstream ``t<id>``, a log
``rw."c<view>_<id>"``: the upstream's columns, ``changelog_op`` and ``_changelog_row_id``
(RisingWave's row ids at rwshim's clock, rising in the order the changes came in:
dataplane/plan/row_ids.py).  It is made with the upstream's rows as inserts (the
backfill's snapshot), and an AFTER ROW trigger on the upstream appends each change in the
epoch's transaction (an UPDATE as its UpdateDelete then its UpdateInsert; an UPDATE that
changes nothing writes nothing: src/batch/executors/src/executor/update.rs:184-190), so the
barrier that commits a change computes the view again over the log with it.  Every row of the
log is an insert and stays, so computing the view's query over the log gives what
RisingWave's executors maintain incrementally over the same stream.

A changelog over a materialized view ``X`` (RisingWave binds it as a table: share.rs:41-84)
reads the view's output stream.  rwshim computes a view's state again at each barrier
(dataplane/epochs.py), so its log is written there: the barrier that refreshes ``X`` keeps its
state before the refresh (the rows its DELETE returns) and appends to each log over ``X`` the
difference
(``diff_sql``), keyed by ``X``'s stream key: a key present before and after with other values
an UpdateDelete then an UpdateInsert, a new key an Insert, a key gone a Delete; a row left as
it was writes nothing, as RisingWave's dispatcher drops an update that changes nothing after
its projection (src/stream/src/executor/dispatch/output_mapping.rs:59-69 ``OutputMapping::
apply``, called at dispatch.rs:1013-1015; ``eliminate_adjacent_noop_update``,
src/common/src/array/stream_chunk.rs:331; e2e_test/streaming/noop_update_elimination.slt).  The
log starts with ``X``'s state at the job's creation as inserts.  Only a view whose changelog
something reads pays this (``PgObject.refresh`` of its log holds the diff).

Differs: an UPDATE or DELETE that reads a table its epoch already wrote is applied by key
(dataplane/epochs.py FromSnapshot), which a table keyed by its hidden row id logs as a Delete
and an Insert.  Over a materialized view: the log holds the net change of each barrier, where
RisingWave's stream may carry the intermediate ones an operator emits (a LEFT JOIN's update of
its right side: -old +null -null +new per matched row); a view whose stream key rwshim does not
know (a join, a projection of a hidden ``_row_id``: dataplane/changes.py stream_key) is diffed
as a multiset of rows, a changed row a Delete and an Insert.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import msgspec.structs

from rwshim.binder.relations import Relation, RelKind
from rwshim.dataplane.plan import names, row_ids, typemap
from rwshim.dataplane.plan.names import pg_ident
from rwshim.dataplane.plan.names import quote_ident as qi
from rwshim.errors import BindError

if TYPE_CHECKING:
    from rwshim.dataplane.plan.ddl import PgObject
    from rwshim.dataplane.plan.rewrite import PgStatement

_VIEW = "@view@"
OP = "changelog_op"
ROW_ID = "_changelog_row_id"


def batch_refusal() -> BindError:
    """logical_changelog.rs:139-143 (ToBatch for LogicalChangeLog)."""
    return BindError("With changelog cte only support with create mv/sink")


def store_name(view_id: int, upstream_id: int) -> str:
    return f"c{view_id}_{upstream_id}"


def placeholder(upstream_id: int) -> str:
    """The log's name in a query until the view's id is known (``for_view``)."""
    return f"{names.DATA_SCHEMA}.{qi(f'c{_VIEW}_{upstream_id}')}"


def guard_names(upstreams: tuple[int, ...]) -> set[tuple[str, str]]:
    """The logs a query reads, for the guard (their placeholder names)."""
    return {(names.DATA_SCHEMA, f"c{_VIEW}_{u}") for u in upstreams}


def check_batch(st: PgStatement) -> None:
    if st.changelogs:
        raise batch_refusal()


def for_view(st: PgStatement, rel: Relation) -> PgStatement:
    """A materialized view's statement reads its own logs; any other is a batch query."""
    if not st.changelogs:
        return st
    if rel.kind != RelKind.MATERIALIZED_VIEW:
        raise batch_refusal()
    text = st.text
    for u in st.changelogs:
        real = f"{names.DATA_SCHEMA}.{qi(store_name(rel.id, u))}"
        text = text.replace(placeholder(u), real)
    return dataclasses.replace(st, text=text)


class ById(Protocol):
    def relation_by_id(self, relation_id: int) -> Relation | None: ...

    def mv_key(self, view: Relation) -> tuple[str, ...] | None:
        """A materialized view's stream key as rwshim knows it (None: diffed as a multiset
        of rows; dataplane/changes.py key_finder)."""


def objects(view: Relation, upstream_ids: tuple[int, ...], relations: ById) -> list[PgObject]:
    """The logs of a materialized view's changelog CTEs, made before its query: of the
    upstream's columns as the view was planned with them (its horizon: a column ALTER TABLE
    added since is not in its log, and the log is not made again).  A log over a materialized
    view carries, as its ``refresh``, the statement the upstream's barrier appends its
    difference with (``diff_sql``)."""
    from rwshim.dataplane.plan.ddl import PgObject

    view_id, horizon = view.id, dict(view.horizon)
    out: list[PgObject] = []
    for up_id in upstream_ids:
        up = relations.relation_by_id(up_id)
        if up is None:
            continue
        name = store_name(view_id, up.id)
        if up.kind == RelKind.MATERIALIZED_VIEW:
            key = relations.mv_key(up)
            signature = json.dumps(
                [up.id, [[c.name, c.type_oid, c.rw_type] for c in up.columns], key],
                separators=(",", ":"),
            )
            log = f"{names.DATA_SCHEMA}.{qi(name)}"
            diff = diff_sql(log, [c.name for c in up.columns], OLD, NEW, key)
            out.append(
                PgObject(name, "changelog", signature, _create_over_view(name, up), view_id, diff)
            )
            continue
        limit = horizon.get(up.id)
        if limit is not None:
            up = msgspec.structs.replace(
                up, columns=tuple(c for c in up.columns if c.column_id <= limit)
            )
        cols = up.columns
        signature = json.dumps(
            [up.id, [[c.name, c.type_oid, c.rw_type] for c in cols]], separators=(",", ":")
        )
        out.append(PgObject(name, "changelog", signature, _create(name, up), view_id))
    return out


def capture_function(name: str) -> str:
    return f"{names.DATA_SCHEMA}.{qi(name + '_capture')}"


def drop(name: str) -> str:
    """A log and its trigger (dropping the trigger's function takes the trigger along)."""
    return (
        f"DROP TABLE IF EXISTS {names.DATA_SCHEMA}.{qi(name)} CASCADE;\n"
        f"DROP FUNCTION IF EXISTS {capture_function(name)}() CASCADE"
    )


def _row_id_column(name: str) -> tuple[str, str, str]:
    """A log's ``_changelog_row_id``: RisingWave's row ids (ChangelogRowIdGenerator,
    row_id.rs:271-330) stamped with rwshim's clock (dataplane/plan/row_ids.py), from a
    sequence of the log's own: its creation, the column, and the sequence's tie to it."""
    log = f"{names.DATA_SCHEMA}.{qi(name)}"
    seq = f"{names.DATA_SCHEMA}.{qi(name + '_row_id')}"
    return (
        row_ids.sequence_sql(seq),
        f"{qi(ROW_ID)} bigint NOT NULL DEFAULT {row_ids.default_sql(seq)}",
        f"ALTER SEQUENCE {seq} OWNED BY {log}.{qi(ROW_ID)}",
    )


def _create(name: str, up: Relation) -> tuple[str, ...]:
    log = f"{names.DATA_SCHEMA}.{qi(name)}"
    table = names.qualified_table(up.id)
    cols = [pg_ident(c.name) for c in up.columns]
    listed = ", ".join(cols)
    defs = ", ".join(
        f"{pg_ident(c.name)} {typemap.column_type(c.type_oid, c.rw_type)}" for c in up.columns
    )
    key = [pg_ident(c) for c in up.primary_key] or cols
    fn = capture_function(name)

    sep = ", " if cols else ""

    def values(row: str, op: str) -> str:
        vals = ", ".join(f"{row}.{c}" for c in cols)
        return f"INSERT INTO {log} ({listed}{sep}{qi(OP)}) VALUES ({vals}{sep}{op})"

    old_op = "CASE TG_OP WHEN 'DELETE' THEN 2 ELSE 4 END"
    new_op = "CASE TG_OP WHEN 'INSERT' THEN 1 ELSE 3 END"

    body = (
        "BEGIN\n"
        # update.rs:184-190: an UPDATE that leaves the row as it was writes nothing
        "  IF TG_OP = 'UPDATE' AND OLD::text IS NOT DISTINCT FROM NEW::text THEN RETURN NULL;"
        " END IF;\n"
        "  IF TG_OP <> 'INSERT' THEN "
        f"{values('OLD', old_op)}; END IF;\n"
        "  IF TG_OP <> 'DELETE' THEN "
        f"{values('NEW', new_op)}; END IF;\n"
        "  RETURN NULL;\n"
        "END"
    )
    seq, column, owned = _row_id_column(name)
    return (
        seq,
        f"CREATE TABLE {log} ({defs}{sep}{qi(OP)} smallint NOT NULL, {column})",
        owned,
        # the backfill's snapshot: every row an Insert
        f"INSERT INTO {log} ({listed}{sep}{qi(OP)}) SELECT {listed}"
        f"{sep}1 FROM {table} ORDER BY {', '.join(key) if key else '1'}",
        f"CREATE FUNCTION {fn}() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER"
        f" SET search_path = pg_catalog AS $rwcl$\n{body}\n$rwcl$",
        f"CREATE TRIGGER {qi(name)} AFTER INSERT OR UPDATE OR DELETE ON {table}"
        f" FOR EACH ROW EXECUTE FUNCTION {fn}()",
    )


# what a log's difference statement reads: the view's rows before and after the barrier's
# step, named by the WITH the barrier's statement gives them (dataplane/epochs.py)
OLD, NEW = "old__", "new__"


def before_name(view_id: int) -> str:
    """The temporary copy of a materialized view's state before a barrier's refresh
    (dataplane/epochs.py state_refresh), on the refreshing connection."""
    return f"pg_temp.{qi(f'rw_before_m{view_id}')}"


def log_upstream(name: str) -> int | None:
    """The upstream id of a log's physical name ``c<view>_<upstream>`` (None: not a log)."""
    if name[:1] != "c":
        return None
    view, _, upstream = name[1:].partition("_")
    return int(upstream) if view.isdigit() and upstream.isdigit() else None


def _create_over_view(name: str, up: Relation) -> tuple[str, ...]:
    """A log over a materialized view: its columns, ``changelog_op`` and the row id, made with
    the view's state as inserts (the backfill's snapshot); the barriers append the rest."""
    log = f"{names.DATA_SCHEMA}.{qi(name)}"
    cols = [pg_ident(c.name) for c in up.columns]
    listed = ", ".join(cols)
    sep = ", " if cols else ""
    defs = ", ".join(
        f"{pg_ident(c.name)} {typemap.column_type(c.type_oid, c.rw_type)}" for c in up.columns
    )
    state = f"{names.DATA_SCHEMA}.{qi(names.state_name(up.id))}"
    seq, column, owned = _row_id_column(name)
    return (
        seq,
        f"CREATE TABLE {log} ({defs}{sep}{qi(OP)} smallint NOT NULL, {column})",
        owned,
        f"INSERT INTO {log} ({listed}{sep}{qi(OP)}) SELECT {listed}{sep}1 FROM {state}",
    )


def diff_sql(
    log: str, columns: Sequence[str], before: str, after: str, key: Sequence[str] | None
) -> str:
    """The statement appending to ``log`` what changed from ``before`` to ``after`` (two
    relations of ``columns``), keyed by ``key`` (None: the rows as a multiset; rows of one key
    are told apart by their number among their equals).  Rows are compared by their text (as the
    table log's trigger compares OLD and NEW: a type without equality compares too), keys by
    the text of their values (a NULL key is a key).  Per key: the old row first, an
    UpdateDelete (4) when the key stays else a Delete (2), then the new one, an UpdateInsert
    (3) when the key was there else an Insert (1) (stream_chunk.rs:84-91); keys in the order
    of their text, so an update's pair is adjacent and the row ids it gets are in that order."""
    cols = [pg_ident(c) for c in columns]
    # the row's text by its columns (a whole-row ``x::text`` would read a column named x)
    row = "ROW(" + ", ".join(f"x.{c}" for c in cols) + ")::text"
    by = row if key is None else "ROW(" + ", ".join(f"x.{pg_ident(c)}" for c in key) + ")::text"
    # equal keys (a multiset's equal rows; a key that repeats, where the view's key was read
    # wrong) are told apart by their rank among rows of that key, so that the difference
    # still turns the old rows into the new ones
    k = f"{by} || '#' || row_number() OVER (PARTITION BY {by} ORDER BY {row})"

    def side(rel: str) -> str:
        listed = ", ".join(f"x.{c}" for c in cols)
        return f"(SELECT {listed}{', ' if cols else ''}{row} AS t__, {k} AS k__ FROM {rel} x)"

    picked = ", ".join(f"CASE WHEN s.side = 0 THEN a.{c} ELSE b.{c} END" for c in cols)
    op = (
        "CASE WHEN s.side = 0 THEN CASE WHEN b.k__ IS NULL THEN 2 ELSE 4 END"
        " ELSE CASE WHEN a.k__ IS NULL THEN 1 ELSE 3 END END"
    )
    listed = ", ".join(cols)
    sep = ", " if cols else ""
    return (
        f"INSERT INTO {log} ({listed}{sep}{qi(OP)}) SELECT {picked}{sep}{op}"
        f" FROM {side(before)} a FULL JOIN {side(after)} b ON a.k__ = b.k__"
        " CROSS JOIN (VALUES (0), (1)) s(side)"
        " WHERE a.t__ IS DISTINCT FROM b.t__"
        " AND CASE WHEN s.side = 0 THEN a.k__ IS NOT NULL ELSE b.k__ IS NOT NULL END"
        " ORDER BY COALESCE(a.k__, b.k__), s.side"
    )
