"""What a sink's output did at a barrier, and a sink into a table applying it (I/O free: SQL).

A sink keeps what it delivered so far in ``rwsink."s<id>"`` (its state, in the barrier's
transaction).  At a barrier whose epoch wrote a table its query reads, the query runs again;
the rows gone since (``rwsink_g<id>``) and the rows new (``rwsink_c<id>``) are the epoch's
changes, as the sink executor sees them compacted (``src/stream/src/executor/sink.rs``: per
barrier, deletes before inserts).  The state then takes the new rows.

Into a table (``src/frontend/src/handler/create_sink.rs`` derive_default_column_project_for_sink,
``src/frontend/src/optimizer/plan_node/stream_sink.rs:334-362``; the table's Materialize applies
them with its conflict behaviour, as a DML's rows):

- an upsert sink deletes the target's rows whose key a gone row had, then inserts the new
  rows with the table's ON CONFLICT behaviour (rwshim.dataplane.plan.dml.upsert_clause);
- an append-only sink, or one with ``ignore_delete`` (``force_append_only``: its deletes
  dropped, its updates inserts) only inserts (a table with a key still resolves a conflict by
  its behaviour);
- a key both gone and new in one epoch is an update (UpdateDelete, UpdateInsert): the target's
  Materialize skips the UpdateDelete when its conflict behaviour is OVERWRITE or DO UPDATE IF
  NOT NULL and applies the UpdateInsert as a conflicting insert, so a wide table's columns
  other sinks filled stay (``src/stream/src/executor/mview/cache.rs:306-322``); with IGNORE it
  deletes the row first, or the row could not change at all;
- the target's columns the sink does not fill take their DEFAULT; generated ones are computed.
"""

from __future__ import annotations

from collections.abc import Sequence

from rwshim.binder.relations import Relation
from rwshim.dataplane.plan import dml, names
from rwshim.dataplane.plan.names import quote_ident as qi
from rwshim.dataplane.sinks.spec import SinkSpec, column

SCHEMA = "rwsink"


def state(sink_id: int) -> str:
    return f'{SCHEMA}."s{sink_id}"'


def outbox(sink_id: int) -> str:
    return f'{SCHEMA}."o{sink_id}"'


def _new(sink_id: int) -> str:
    return f"rwsink_n{sink_id}"


def gone(sink_id: int) -> str:
    return f"rwsink_g{sink_id}"


def came(sink_id: int) -> str:
    return f"rwsink_c{sink_id}"


def column_mapping(
    target: Relation, sink_columns: Sequence[str], into_columns: Sequence[str]
) -> list[tuple[str, int]]:
    """derive_default_column_project_for_sink (create_sink.rs:980-1038): (target column,
    index of the sink column filling it).  With a column list, by name (the sink's columns
    renamed to the list: set_out_names); without one, the target's column at position ``i``
    (counted over all of the table's columns, generated ones included) takes the sink's
    ``i``-th column."""
    out: list[tuple[str, int]] = []
    named = list(into_columns) + list(sink_columns[len(into_columns) :])
    by_name = {n: i for i, n in enumerate(named)}
    for idx, col in enumerate(target.columns):
        if col.generated_expr is not None:
            continue
        if into_columns:
            if col.name in by_name:
                out.append((col.name, by_name[col.name]))
        elif idx < len(sink_columns) and not col.hidden:
            out.append((col.name, idx))
    return out


def changes(sink_id: int, query: str) -> list[str]:
    """The statements leaving the epoch's changes in ``gone()`` and ``came()`` (temporary
    tables, dropped at the commit)."""
    n, g, c, s = _new(sink_id), gone(sink_id), came(sink_id), state(sink_id)
    return [
        f"DROP TABLE IF EXISTS pg_temp.{n}, pg_temp.{g}, pg_temp.{c}",
        f"CREATE TEMP TABLE {n} ON COMMIT DROP AS {query}",
        f"CREATE TEMP TABLE {g} ON COMMIT DROP AS SELECT * FROM {s} EXCEPT ALL SELECT * FROM {n}",
        f"CREATE TEMP TABLE {c} ON COMMIT DROP AS SELECT * FROM {n} EXCEPT ALL SELECT * FROM {s}",
    ]


def keep(sink_id: int) -> list[str]:
    """The state takes the new rows."""
    s = state(sink_id)
    return [f"DELETE FROM {s}", f"INSERT INTO {s} SELECT * FROM {_new(sink_id)}"]


def apply(spec: SinkSpec, target: Relation) -> list[str]:
    """The statements applying ``gone()`` and ``came()`` to the target table."""
    mapping = column_mapping(target, spec.columns, spec.into_columns)
    table = names.qualified_table(target.id)
    key = dml.user_key(target)
    by_target = dict(mapping)
    out: list[str] = []
    keyed = bool(key) and all(k in by_target for k in key)
    if not spec.append_only and not spec.ignore_delete and keyed:
        rhs = ", ".join(column(by_target[k]) for k in key)
        deleted = f"SELECT {rhs} FROM {gone(spec.id)}"
        if target.conflict in (dml.OVERWRITE, dml.IF_NOT_NULL):
            # EXCEPT compares keys NULL-safely, as the Materialize's key lookup does
            deleted += f" EXCEPT SELECT {rhs} FROM {came(spec.id)}"
        # a NULL in the key is a value like any other: the Materialize finds a row by its
        # key's memcomparable encoding (stream/executor/mview/cache.rs:127-139), a NULL
        # encoded too; a sink's gone (NULL, ...) row deletes it (bug_fixes/issue_23857.slt)
        same = " AND ".join(
            f"rw_x.{qi(k)} IS NOT DISTINCT FROM rw_g.{column(by_target[k])}" for k in key
        )
        out.append(
            f"DELETE FROM {table} AS rw_x WHERE EXISTS"
            f" (SELECT FROM ({deleted}) AS rw_g WHERE {same})"
        )
    if not mapping:
        return out
    cols = ", ".join(qi(t) for t, _ in mapping)
    values = ", ".join(column(i) for _, i in mapping)
    behaviour = target.conflict
    if keyed and behaviour != dml.NO_CHECK:
        # the rows of one key in the order the query gives them, applied one after the other
        # as the table's Materialize applies them (a sink into a table whose conflict
        # behaviour is not an overwrite keeps row-level changes, stream_sink.rs:65-71,
        # :556-563): the INSERT of a repeated key (dml.repeated_key_text).  The order is the
        # one PostgreSQL's EXCEPT ALL leaves in ``came()``: rows of one key from one epoch
        # may be applied in another order than RisingWave's
        source = f"SELECT {values} FROM {came(spec.id)} ORDER BY ctid"
        ordered = dml.repeated_key_text(
            target, key, behaviour, "rw_x", [t for t, _ in mapping], source, ""
        )
        if ordered is not None:
            return [*out, ordered]
        first = ", ".join(column(by_target[k]) for k in key)
        versions = target.version_columns if behaviour != dml.IGNORE else ()
        clause = dml.upsert_clause(target, key, behaviour, "rw_x", versions)
        return [
            *out,
            f"INSERT INTO {table} AS rw_x ({cols}) SELECT DISTINCT ON ({first}) {values}"
            f" FROM {came(spec.id)}{clause}",
        ]
    return [*out, f"INSERT INTO {table} ({cols}) SELECT {values} FROM {came(spec.id)}"]


def to_outbox(spec: SinkSpec) -> list[str]:
    """An external sink's changes into its log (``postgres.py`` delivers it after the
    barrier): deletes, then inserts; an append-only sink drops its deletes (sink.rs:81-92)."""
    box = outbox(spec.id)
    cols = ", ".join(column(i) for i in range(len(spec.columns)))
    out = []
    if not spec.append_only and not spec.ignore_delete:
        out.append(f"INSERT INTO {box} (rw_op, {cols}) SELECT 'D', * FROM {gone(spec.id)}")
    out.append(f"INSERT INTO {box} (rw_op, {cols}) SELECT 'I', * FROM {came(spec.id)}")
    return out


def create_state(spec: SinkSpec, query: str, data_role: str, *, external: bool) -> list[str]:
    """The sink's state (filled with the query's rows when it takes no snapshot: only later
    changes flow, create_sink.rs ``snapshot = 'false'``) and, for an external sink, its log."""
    s = state(spec.id)
    data = "NO DATA" if spec.snapshot else "DATA"
    out = [
        f"CREATE SCHEMA IF NOT EXISTS {SCHEMA}",
        f"GRANT USAGE ON SCHEMA {SCHEMA} TO {qi(data_role)}",
        f"DROP TABLE IF EXISTS {s}, {outbox(spec.id)}",
        f"CREATE TABLE {s} AS {query} WITH {data}",
        f"GRANT SELECT, INSERT, DELETE ON {s} TO {qi(data_role)}",
    ]
    if external:
        box = outbox(spec.id)
        out += [
            f"CREATE TABLE {box} (LIKE {s})",
            f"ALTER TABLE {box} ADD COLUMN rw_op text NOT NULL,"
            " ADD COLUMN rw_seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
            f"GRANT SELECT, INSERT, DELETE ON {box} TO {qi(data_role)}",
        ]
    return out
