"""PostgreSQL objects generated from catalog data (never from the user's DDL text).

- a table: ``rw."t<id>"`` with its columns under their real names (hidden ``_row_id``
  included: RisingWave's row ids, dataplane/plan/row_ids.py), NOT NULL, DEFAULT, generated
  columns as ``GENERATED ALWAYS AS (...) STORED``, the system column ``_rw_timestamp`` last
  (rw_timestamp.py), and for a declared key a unique index with
  NULLS NOT DISTINCT (RisingWave accepts NULL in a key and treats it as a value; the upsert
  clause of ``dml`` infers this index); a table with version columns or DO UPDATE IF NOT
  NULL has a BEFORE UPDATE trigger (``rw."t<id>_conflict"()``) that gives an UPDATE that
  conflict behaviour;
- a view or source: ``rw."v<id>"``, the rewritten defining query (a source reads no rows:
  rwshim's sources move no data) with the catalog's column names;
- a materialized view: ``rw."q<id>"`` (the rewritten defining query), ``rw."m<id>"`` (its
  state: a table computed from the query when made and again at each barrier whose epoch
  wrote what it reads, dataplane/epochs.py) and ``rw."v<id>"`` reading the state;
- an index: ``rw."i<id>"`` on the indexed table, and ``rw."v<id>"`` reading the index's
  columns, since RisingWave can read an index as a relation.

Each object has a signature (what it was made from) that the data plane keeps next to it in
``rwfn.objects``: an object whose signature differs from the catalog's is remade (a view) or
migrated (a table gains columns), else reported.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import msgspec.structs

from rwshim.binder.relations import Relation, RelColumn, RelKind
from rwshim.dataplane.plan import (
    eowc_window,
    names,
    nonstrict,
    retention,
    row_ids,
    rw_timestamp,
    typemap,
    watermarks,
)
from rwshim.dataplane.plan.dml import IF_NOT_NULL, OVERWRITE, newer_or_equal, user_key
from rwshim.dataplane.plan.names import pg_ident as qi
from rwshim.errors import InternalError
from rwshim.sql import column_exprs

# rewrites a column expression (DEFAULT / generated) into PostgreSQL's text
ExprRewriter = Callable[[str], str]


@dataclass(frozen=True, slots=True)
class PgObject:
    """One physical object and how to make it."""

    name: str  # t<id> / v<id> / i<id>
    # "table" | "view" | "index" | "state" (a materialized view's table) | "history" (a
    # table's versions) | "arrivals" (a view's temporal joins: dataplane/plan/temporal.py) |
    # "changelog" (a view's log of a changelog CTE's upstream: dataplane/plan/changelogs.py) |
    # "reader" (a job's own rows of a datagen source)
    kind: str
    signature: str
    create: tuple[str, ...]  # run in one transaction, with the bookkeeping row
    relation_id: int
    # a state's step at a barrier whose epoch wrote what it reads (dataplane/epochs.py); None:
    # computed again from its query (an EMIT ON WINDOW CLOSE view appends: watermarks.py)
    refresh: str | None = None

    @property
    def qualified(self) -> str:
        return f"{names.DATA_SCHEMA}.{qi(self.name)}"

    def drop(self) -> str:
        if self.kind == "changelog":
            from rwshim.dataplane.plan import changelogs

            return changelogs.drop(self.name)
        kind = {"view": "VIEW", "index": "INDEX"}.get(self.kind, "TABLE")
        return f"DROP {kind} IF EXISTS {self.qualified} CASCADE"


def _column(c: RelColumn, expression: ExprRewriter, row_id_sequence: str | None = None) -> str:
    sql = f"{qi(c.name)} {typemap.column_type(c.type_oid, c.rw_type)}"
    if c.hidden and c.name == "_row_id" and row_id_sequence is not None:
        # RisingWave's row ids, stamped with rwshim's clock (dataplane/plan/row_ids.py)
        return sql + f" NOT NULL DEFAULT {row_ids.default_sql(row_id_sequence)}"
    if c.hidden and c.name == "_row_id":
        return sql + " GENERATED ALWAYS AS IDENTITY"
    if c.generated_expr is not None and column_exprs.is_impure(c.generated_expr):
        # PostgreSQL generates from immutable expressions only: proctime() is computed per
        # insert as a DEFAULT (rwshim's DML refuses a value for a generated column itself)
        return sql + f" DEFAULT ({expression(c.generated_expr)})"
    if c.generated_expr is not None:
        return sql + f" GENERATED ALWAYS AS ({expression(c.generated_expr)}) STORED"
    if c.default_expr is not None:
        sql += f" DEFAULT ({expression(c.default_expr)})"
    if not c.nullable:
        sql += " NOT NULL"
    return sql


def _table_signature(rel: Relation) -> str:
    spec: dict[str, object] = {
        "columns": [
            [c.name, c.type_oid, c.rw_type, c.hidden, c.default_expr, c.generated_expr,
             c.nullable, c.column_id]
            for c in rel.columns
        ],
        "key": list(user_key(rel)),
        "rw_timestamp": 1,  # (a table made before it gains it: table_migration)
    }  # fmt: skip
    update = _conflict_function(rel)
    if update is not None:  # (absent otherwise: the tables made before it keep their signature)
        spec["update"] = update
    if rel.watermark is not None:  # (likewise)
        spec["watermark"] = list(rel.watermark)
    return json.dumps(spec, separators=(",", ":"))


def _conflict_function_name(relation_id: int) -> str:
    return f"{names.DATA_SCHEMA}.{qi(names.table_name(relation_id) + '_conflict')}"


def _conflict_function(rel: Relation) -> str | None:
    """The trigger function giving an UPDATE the table's conflict behaviour, or None.

    In RisingWave every write to a table with a key lands on the stored row through the
    materialize executor's conflict check (stream/executor/mview/cache.rs): an UPDATE's new row
    too (its UpdateDelete is skipped for ``overwrite`` and ``if_not_null``).  So with version
    columns an update to older versions leaves the row as it was, and under DO UPDATE IF NOT
    NULL a column set to NULL keeps its value.  The INSERT upsert clause (dml.py) already
    decides so; the trigger finds its rows decided and changes nothing."""
    key = user_key(rel)
    versions = rel.version_columns if rel.conflict in (OVERWRITE, IF_NOT_NULL) else ()
    if not key or (not versions and rel.conflict != IF_NOT_NULL):
        return None
    body = []
    if versions:
        body.append(f"IF NOT ({newer_or_equal(versions, 'OLD', 'NEW')}) THEN RETURN OLD; END IF;")
    if rel.conflict == IF_NOT_NULL:
        body.extend(
            f"NEW.{qi(c.name)} := COALESCE(NEW.{qi(c.name)}, OLD.{qi(c.name)});"
            for c in rel.columns
            if c.name not in key and c.generated_expr is None and not c.hidden
        )
    body.append("RETURN NEW;")
    return (
        f"CREATE OR REPLACE FUNCTION {_conflict_function_name(rel.id)}() RETURNS trigger "
        f"LANGUAGE plpgsql AS $rw$ BEGIN {' '.join(body)} END $rw$"
    )


def _conflict_trigger(rel: Relation) -> str:
    table_name = names.qualified_table(rel.id)
    return (
        f"CREATE TRIGGER {qi('conflict')} BEFORE UPDATE ON {table_name} "
        f"FOR EACH ROW EXECUTE FUNCTION {_conflict_function_name(rel.id)}()"
    )


def drop_conflict_function(table: str) -> str:
    """What dropping the table ``t<id>`` leaves behind (DROP TABLE ... CASCADE takes the
    trigger, not its function; nor a watermark's table and function, watermarks.py); or the
    log ``c<view>_<id>``'s trigger function (changelogs.py)."""
    if table[:1] == "c":
        from rwshim.dataplane.plan import changelogs

        return changelogs.drop(table)
    return ";\n".join(
        [
            f"DROP FUNCTION IF EXISTS {names.DATA_SCHEMA}.{qi(table + '_conflict')}()",
            *watermarks.drop_leftovers(table),
        ]
    )


def row_id_sequence(relation_id: int) -> str:
    """The sequence a table's hidden ``_row_id`` is drawn from (row_ids.py)."""
    return f"{names.DATA_SCHEMA}.{qi(names.table_name(relation_id) + '_row_id')}"


def table(rel: Relation, expression: ExprRewriter) -> PgObject:
    """``rw."t<id>"`` for a user table."""
    name = names.table_name(rel.id)
    qualified = names.qualified_table(rel.id)
    sequence = row_id_sequence(rel.id)
    has_row_id = any(c.hidden and c.name == "_row_id" for c in rel.columns)
    cols = ", ".join(
        [*(_column(c, expression, sequence) for c in rel.columns), rw_timestamp.column_sql()]
    )
    # the composite types of struct columns first (typemap: idempotent)
    stmts = [*typemap.columns_ddl(c.rw_type for c in rel.columns)]
    if has_row_id:
        stmts.append(row_ids.sequence_sql(sequence))
    stmts.append(f"CREATE TABLE {qualified} ({cols})")
    if has_row_id:  # (dropped with the table)
        stmts.append(f"ALTER SEQUENCE {sequence} OWNED BY {qualified}.{qi('_row_id')}")
    key = user_key(rel)
    if key:
        stmts.append(
            f"CREATE UNIQUE INDEX {qi(name + '_key')} ON {qualified} "
            f"({', '.join(qi(k) for k in key)}) NULLS NOT DISTINCT"
        )
    update = _conflict_function(rel)
    if update is not None:
        stmts.extend([update, _conflict_trigger(rel)])
    stmts.extend(rw_timestamp.table_statements(rel))
    stmts.extend(watermarks.table_statements(rel, expression))
    return PgObject(name, "table", _table_signature(rel), tuple(stmts), rel.id)


def _same_column(old: list[object], new: list[object]) -> bool:
    """The same column: name and column id (a signature of an older rwshim has no id: the
    name alone)."""
    return old[0] == new[0] and (len(old) < 8 or old[7] == new[7])


def table_migration(old_signature: str, rel: Relation, expression: ExprRewriter) -> list[str]:
    """Statements turning the table made from ``old_signature`` into ``rel``'s, keeping its
    rows: the columns ALTER TABLE dropped go (with what reads them: a view the catalog still
    has is made again when next used), the ones it added come with their DEFAULT for the rows
    there are (as RisingWave fills them, alter_table_column.rs).  A kept column must keep its
    type, key and place among the others (RisingWave's ALTER TABLE changes neither)."""
    old = json.loads(old_signature)
    new = json.loads(_table_signature(rel))
    if old.get("key") != new["key"]:
        raise InternalError(f"the data-plane table of {rel.name} has another key")
    old_cols: list[list[object]] = old.get("columns", [])
    kept: list[int] = []
    added: list[RelColumn] = []
    for c, spec in zip(rel.columns, new["columns"], strict=True):
        match = [i for i, o in enumerate(old_cols) if _same_column(o, spec)]
        if not match:
            added.append(c)
            continue
        if old_cols[match[0]][:7] != spec[:7]:
            raise InternalError(f"the data-plane table of {rel.name} has another {c.name}")
        kept.append(match[0])
    if kept != sorted(kept):
        raise InternalError(f"the data-plane table of {rel.name} has its columns in another order")
    qualified = names.qualified_table(rel.id)
    dropped = [str(o[0]) for i, o in enumerate(old_cols) if i not in kept]
    out = [
        *(f"ALTER TABLE {qualified} DROP COLUMN {qi(n)} CASCADE" for n in dropped),
        *typemap.columns_ddl(c.rw_type for c in added),
        *(f"ALTER TABLE {qualified} ADD COLUMN {_column(c, expression)}" for c in added),
    ]
    # the update trigger's function names the columns (made by an older rwshim: none yet)
    update = new.get("update")
    if update != old.get("update"):
        if update is None:
            out.append(f"DROP TRIGGER IF EXISTS {qi('conflict')} ON {qualified}")
        else:
            out.append(update)
            if old.get("update") is None:
                out.append(_conflict_trigger(rel))
    if "rw_timestamp" not in old:
        out.extend(rw_timestamp.migration(rel))
    if new.get("watermark") != old.get("watermark"):  # ALTER WATERMARK (alter_watermark.rs)
        out.extend(watermarks.table_statements(rel, expression))
    return out


def view(rel: Relation, pg_query: str) -> PgObject:
    """``rw."v<id>"`` reading ``pg_query`` (the rewritten definition) under the catalog's
    column names."""
    name = names.view_name(rel.id)
    cols = ", ".join(qi(c.name) for c in rel.columns)
    # the search path its function names were bound under (plane._apply sets it): a view made
    # under another one is remade
    signature = json.dumps([cols, pg_query, names.SEARCH_PATH], separators=(",", ":"))
    create = f"CREATE VIEW {names.qualified_view(rel.id)} ({cols}) AS {pg_query}"
    return PgObject(name, "view", signature, (create,), rel.id)


def in_zone(time_zone: str | None, statements: tuple[str, ...]) -> tuple[str, ...]:
    """``statements`` run in a transaction under ``time_zone`` (None: as they are), the
    connection's own zone set back after them.  A streaming job evaluates its expressions in
    the time zone of the session that created it: RisingWave keeps it with the job and every
    actor runs in it (src/stream/src/executor/actor.rs:118-130 ``expr_context``, the
    ``TIME_ZONE`` that ``#[capture_context]`` functions read: make_timestamptz, casts of
    timestamptz to text, date_trunc ...)."""
    if time_zone is None or not statements:
        return statements
    # SET LOCAL (the data role may not call set_config); back to the connection's own zone,
    # the writer's and a maker's reset value (no session SET on them), after
    enter = f"SET LOCAL TimeZone = {names.quote_literal(time_zone)}"
    leave = "SET LOCAL TimeZone TO DEFAULT"
    return (enter, *statements, leave)


def materialized(
    rel: Relation,
    pg_query: str,
    requires: tuple[str, ...],
    resolve: watermarks.Resolve | None = None,
    time_zone: str | None = None,
) -> list[PgObject]:
    """A materialized view's three objects: its query, its state made from the query (as
    committed now), and ``rw."v<id>"`` reading the state.  They share one signature, so a new
    definition makes all three again.  An EMIT ON WINDOW CLOSE view's state holds the closed
    rows only and grows at barriers (watermarks.py; ``resolve`` finds its upstreams); its
    expressions give NULL where a batch query fails (nonstrict.py).  The state is computed under
    the creating session's ``time_zone`` (``in_zone``)."""
    eowc = None
    if resolve is not None and rel.emit_on_window_close:
        eowc = watermarks.eowc_state(rel, resolve)
    pg_query = nonstrict.query(pg_query)
    if eowc is not None and eowc.filter_relation is not None:  # GAP_FILL over released rows
        pg_query = eowc_window.filter_input(
            pg_query, eowc.filter_relation, eowc.column, eowc.watermark
        )
    if eowc is not None and eowc.window:  # the rows whose frames are complete (eowc_window.py)
        pg_query = eowc_window.window_query(
            pg_query, len(rel.columns), eowc.column, eowc.watermark, eowc.tie_break
        )
    query = view(rel, pg_query)
    signature = query.signature
    if eowc is not None:
        signature = json.dumps([signature, eowc.column, eowc.watermark], separators=(",", ":"))
    qname = names.query_name(rel.id)
    qualified_query = f"{names.DATA_SCHEMA}.{qi(qname)}"
    cols = ", ".join(qi(c.name) for c in rel.columns)
    sname = names.state_name(rel.id)
    qualified_state = f"{names.DATA_SCHEMA}.{qi(sname)}"
    return [
        requiring(
            PgObject(
                qname, "view", signature,
                (f"CREATE VIEW {qualified_query} ({cols}) AS {pg_query}",), rel.id,
            ),
            requires,
        ),
        PgObject(
            sname, "state", signature,
            in_zone(time_zone, (
                f"CREATE TABLE {qualified_state} AS SELECT * FROM {qualified_query}",
            )), rel.id,
            None if time_zone is None else ";".join(in_zone(time_zone, (
                f"DELETE FROM {qualified_state}",
                f"INSERT INTO {qualified_state} SELECT * FROM {qualified_query}",
            ))),
        ) if eowc is None or eowc.recomputed else PgObject(
            sname, "state", signature,
            in_zone(time_zone, watermarks.state_statements(sname, qualified_query, eowc)),
            rel.id,
            ";".join(in_zone(time_zone, (watermarks.refresh_sql(sname, qualified_query, eowc),))),
        ),
        view(rel, f"SELECT * FROM {qualified_state}"),
    ]  # fmt: skip


def requiring(obj: PgObject, statements: tuple[str, ...]) -> PgObject:
    """``obj`` made after ``statements`` (the idempotent type DDL its text needs)."""
    if not statements:
        return obj
    return PgObject(obj.name, obj.kind, obj.signature, (*statements, *obj.create), obj.relation_id)


def source(rel: Relation, expression: ExprRewriter) -> list[PgObject]:
    """A source's messages: ``rw."t<id>"`` keeps every row its connector delivered (RWSHIM
    PUSH, datagen: rwshim/dataplane/sources/), with no key, as a topic keeps its messages;
    ``rw."v<id>"`` reads them under the source's columns.  A batch read of a source reads
    what the connector holds (a Kafka topic from its earliest offset: src/batch/executors/src/
    executor/source.rs), and a materialized view over it, computed again at each barrier
    (epochs.py), reads them all, as a job starting at ``scan.startup.mode = 'earliest'``
    (Kafka's default) does; over a datagen source it reads its own reader instead
    (``reader``)."""
    store = msgspec.structs.replace(rel, primary_key=(), kind=RelKind.TABLE)
    log = table(store, expression)
    cols = ", ".join(qi(c.name) for c in rel.columns)
    obj = view(rel, f"SELECT {cols or 'NULL'} FROM {names.qualified_table(rel.id)}")
    return [log, obj]


def reader(job_id: int, upstream: Relation, expression: ExprRewriter) -> PgObject:
    """A job's own reader of a datagen source (``rw."r<job>_<source>"``): the source's columns
    (its log's), with the rows the job's split readers generated since the job was made
    (dataplane/sources/runtime.py writes them).  RisingWave gives each job over a non-shared
    source its own source executor, whose readers start from offset 0 (src/stream/src/
    executor/source/source_executor.rs; datagen/source/reader.rs:63-70: no start offset).
    Remade (emptied) when the source's columns change."""
    log = source(upstream, expression)[0]
    name = names.reader_name(job_id, upstream.id)
    create = (
        f"CREATE TABLE {names.DATA_SCHEMA}.{qi(name)}"
        f" (LIKE {names.qualified_table(upstream.id)} INCLUDING ALL)",
    )
    return PgObject(name, "reader", f"reader {log.signature}", create, upstream.id)


def index(rel: Relation, indexed: Relation) -> list[PgObject]:
    """The PostgreSQL index (on a table) and the view that reads the index as a relation."""
    base_cols = {c.name for c in indexed.columns}
    cols = [c.name for c in rel.columns if not c.hidden]
    missing = [c for c in cols if c not in base_cols]
    if missing:
        raise InternalError(f"index {rel.name} has columns its relation lacks: {missing}")
    if indexed.kind == RelKind.TABLE:
        base = names.qualified_table(indexed.id)
    else:
        base = names.qualified_view(indexed.id)
    # an index of a table with retention has the table's (create_index.rs:366, :432)
    read = f"{retention.source(indexed)} AS r" if retention.applies(indexed) else base
    out = [view(rel, f"SELECT {', '.join(qi(c) for c in cols)} FROM {read}")]
    if indexed.kind == RelKind.TABLE and rel.index_keys:
        desc = list(rel.index_desc) + [False] * len(rel.index_keys)
        keys = ", ".join(
            qi(k) + (" DESC" if d else "") for k, d in zip(rel.index_keys, desc, strict=False)
        )
        name = names.index_name(rel.id)
        create = f"CREATE INDEX {qi(name)} ON {base} ({keys})"
        signature = json.dumps([indexed.id, keys], separators=(",", ":"))
        out.insert(0, PgObject(name, "index", signature, (create,), rel.id))
    return out
