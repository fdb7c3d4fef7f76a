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

Differs: an UPDATE or DELETE that reads a table its epoch already wrote is applied by key
(dataplane/epochs.py FromSnapshot), which a table keyed by its hidden row id logs as a Delete
and an Insert.  A changelog over a materialized view (RisingWave binds it as a table) is
refused: its state is computed again at barriers, not changed row by row.
"""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING, Protocol

import msgspec.structs

from rwshim.binder.relations import Relation, RelKind
from rwshim.dataplane.plan import names, row_ids, typemap
from rwshim.dataplane.plan.names import pg_ident
from rwshim.dataplane.plan.names import quote_ident as qi
from rwshim.errors import BindError, RwError

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


def objects(view: Relation, upstream_ids: tuple[int, ...], relations: ById) -> list[PgObject]:
    """The logs of a materialized view's changelog CTEs, made before its query: of the
    upstream's columns as the view was planned with them (its horizon: a column ALTER TABLE
    added since is not in its log, and the log is not made again)."""
    from rwshim.dataplane.plan.ddl import PgObject

    view_id, horizon = view.id, dict(view.horizon)
    out: list[PgObject] = []
    for up_id in upstream_ids:
        up = relations.relation_by_id(up_id)
        if up is None:
            continue
        if up.kind == RelKind.MATERIALIZED_VIEW:
            raise RwError(
                "not supported by rwshim: a changelog CTE over a materialized view"
                f" ({up.name}): rwshim computes a view's state again at each barrier"
                " and does not keep its changes"
            )
        name = store_name(view_id, up.id)
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
    # _changelog_row_id: RisingWave's row ids (ChangelogRowIdGenerator, row_id.rs:271-330),
    # stamped with rwshim's clock (dataplane/plan/row_ids.py)
    seq = f"{names.DATA_SCHEMA}.{qi(name + '_row_id')}"
    return (
        row_ids.sequence_sql(seq),
        f"CREATE TABLE {log} ({defs}{sep}{qi(OP)} smallint NOT NULL,"
        f" {qi(ROW_ID)} bigint NOT NULL DEFAULT {row_ids.default_sql(seq)})",
        f"ALTER SEQUENCE {seq} OWNED BY {log}.{qi(ROW_ID)}",
        # the backfill's snapshot: every row an Insert
        f"INSERT INTO {log} ({listed}{sep}{qi(OP)}) SELECT {listed}"
        f"{sep}1 FROM {table} ORDER BY {', '.join(key) if key else '1'}",
        f"CREATE FUNCTION {fn}() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER"
        f" SET search_path = pg_catalog AS $rwcl$\n{body}\n$rwcl$",
        f"CREATE TRIGGER {qi(name)} AFTER INSERT OR UPDATE OR DELETE ON {table}"
        f" FOR EACH ROW EXECUTE FUNCTION {fn}()",
    )
