"""``RelationSource`` over the meta store's tables (rwshim/store/schema.py).

Reads ``visible_relation`` (relations of INITIAL jobs are invisible to the frontend), its
columns and streaming-job status; rows of a user table live on the PostgreSQL data plane.
"""

from __future__ import annotations

import re
import sqlite3
from typing import TYPE_CHECKING, NamedTuple

from rwshim.binder.relations import Relation, RelColumn, RelKind
from rwshim.common.names import quoted
from rwshim.lazy import lazy_module, lazy_pattern

if TYPE_CHECKING:
    import json
else:
    json = lazy_module("json")  # on first use: start-up and SELECT 1 read and write no JSON

_KINDS = {k.value: k for k in RelKind}

# The query of a stored CREATE MATERIALIZED VIEW / VIEW definition: what follows the first AS
# that introduces a query (the definition may carry a column list or WITH options first).
_QUERY_AFTER_AS = lazy_pattern(r"\bAS\s+((?:SELECT|WITH|VALUES|TABLE|\()[\s\S]*)$", re.IGNORECASE)


# RisingWave's Display of a CREATE MATERIALIZED VIEW / SINK ends with its emit mode
# (sqlparser ast/mod.rs, Statement::CreateView: `EMIT ON WINDOW CLOSE`)
_EOWC = lazy_pattern(r"\bEMIT\s+ON\s+WINDOW\s+CLOSE\s*;?\s*$", re.IGNORECASE)
_WATERMARKS: dict[str, tuple[str, str, bool] | None] = {}


def table_watermark(definition: str | None) -> tuple[str, str, bool] | None:
    """A table's ``WATERMARK FOR col AS expr [WITH TTL]`` from its stored definition, read by
    RisingWave's parser (parse_columns_with_watermark, parser.rs:2926-2941): (column,
    expression as displayed, with TTL); None without one.  Parsed once per definition text."""
    if not definition or "WATERMARK" not in definition.upper():
        return None
    if definition in _WATERMARKS:
        return _WATERMARKS[definition]
    from rwshim.sql import unparse
    from rwshim.sql.unparse import display, nodes

    found: tuple[str, str, bool] | None = None
    try:
        node = unparse.parse_create(definition)
    except unparse.UnparseError:
        node = None
    if isinstance(node, (nodes.CreateTable, nodes.CreateSource)) and node.watermarks:
        w = node.watermarks[0]  # at most one (create_source.rs:1089-1090)
        found = (w.column.real_value(), display.expr(w.expr), w.with_ttl)
    if len(_WATERMARKS) > 4096:
        _WATERMARKS.clear()
    _WATERMARKS[definition] = found
    return found


def definition_query_text(definition: str) -> str:
    """The query part of a stored definition (the definition itself if it is a query)."""
    if not re.match(r"\s*CREATE\b", definition, re.IGNORECASE):
        return definition
    m = _QUERY_AFTER_AS.search(definition)
    return m.group(1) if m else definition


class Connector(NamedTuple):
    """A relation's connector as the store keeps it (rwshim/store/schema.py ``relation``)."""

    connector: str
    format: str | None
    encode: str | None
    options: dict[str, str]
    format_options: dict[str, str]
    definition: str


class StoreRelations:
    """User relations as the binder reads them, straight from the store's connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._version: tuple[int, tuple[object, ...]] | None = None  # (total_changes, it)

    def fingerprint(self) -> tuple[object, ...]:
        """Changes whenever anything the binder reads changes (relations, their names, kinds,
        columns, job states, schemas, databases): cached translations are checked against it.
        The store's triggers keep the counter (schema v5), so this is one row read, and none
        while the connection has written nothing since the last read (the store is this
        process's one connection; the data path asks several times per statement)."""
        changes = self.conn.total_changes
        cached = self._version
        if cached is not None and cached[0] == changes:
            return cached[1]
        row = self.conn.execute("SELECT n FROM catalog_version").fetchone()
        version = tuple(row)
        self._version = (changes, version)
        return version

    def database_id(self, name: str) -> int | None:
        row = self.conn.execute(
            "SELECT database_id FROM database WHERE name = ?", (name,)
        ).fetchone()
        return None if row is None else int(row[0])

    def schema_exists(self, database_id: int, schema: str) -> bool:
        row = self.conn.execute(
            "SELECT 1 FROM schema WHERE database_id = ? AND name = ?", (database_id, schema)
        ).fetchone()
        return row is not None

    def locate(self, relation_id: int) -> tuple[int, str, str] | None:
        """(database id, schema name, relation name) of a relation id, or None."""
        row = self.conn.execute(
            "SELECT r.database_id, s.name, r.name FROM relation r "
            "JOIN schema s ON s.schema_id = r.schema_id WHERE r.relation_id = ?",
            (relation_id,),
        ).fetchone()
        return None if row is None else (int(row[0]), str(row[1]), str(row[2]))

    def internal_table(self, database_id: int, schema: str, name: str) -> bool:
        """Whether ``schema.name`` is one of the database's internal state tables (which
        ``relation`` leaves out: rwshim lists them but holds no rows for them)."""
        row = self.conn.execute(
            "SELECT 1 FROM visible_relation r JOIN schema s ON s.schema_id = r.schema_id "
            "WHERE +r.database_id = ? AND s.name = ? AND r.name = ? AND r.kind = 'internal' "
            "LIMIT 1",
            (database_id, schema, name),
        ).fetchone()
        return row is not None

    def relation(self, database_id: int, schema: str, name: str) -> Relation | None:
        row = self.conn.execute(
            "SELECT r.relation_id, r.kind, r.definition, r.append_only, j.job_status, "
            "r.primary_table_id, r.on_conflict, r.index_key_columns, r.read_query, r.owner_id, "
            "r.column_horizon, r.version_columns, r.with_options "
            "FROM visible_relation r JOIN schema s ON s.schema_id = r.schema_id "
            "LEFT JOIN streaming_job j ON j.job_id = r.relation_id "
            # ``+r.database_id``: not the index by database, which holds every relation of
            # a one-database catalog (SQLite has no statistics to know); the name's index
            "WHERE +r.database_id = ? AND s.name = ? AND r.name = ? AND r.kind <> 'internal' "
            "ORDER BY r.relation_id LIMIT 1",
            (database_id, schema, name),
        ).fetchone()
        if row is None:
            return None
        (rid, kind_text, definition, append_only, status, primary_id, on_conflict, keys,
         read_query, owner_id, horizon, versions, with_options) = row  # fmt: skip
        kind = _KINDS.get(kind_text, RelKind.TABLE)
        cols = self.conn.execute(
            "SELECT name, type_oid, is_hidden, pk_position, default_expr, generated_expr, "
            "is_nullable, rw_type, pk_desc, column_id FROM relation_column "
            "WHERE relation_id = ? ORDER BY position",
            (rid,),
        ).fetchall()
        pk = tuple(c[0] for c in sorted((c for c in cols if c[3] is not None), key=lambda c: c[3]))
        is_view = kind in (RelKind.MATERIALIZED_VIEW, RelKind.VIEW)
        query: str | None = None
        index_keys: tuple[str, ...] = ()
        index_desc: tuple[bool, ...] = ()
        indexed_id: int | None = None
        if kind == RelKind.MATERIALIZED_VIEW and read_query:
            # bound to the relations it was created on, whatever their names now (schema v6)
            query = read_query
        elif is_view and definition:
            # a view binds its stored query by name, as RisingWave's binder does at each query
            # (binder/relation/table_or_source.rs:594-624)
            query = definition_query_text(definition)
        elif kind == RelKind.INDEX and primary_id is not None:
            # an index reads as its columns of the indexed relation
            indexed_id = int(primary_id)
            primary = self.locate(indexed_id)
            if primary is not None:
                names = ", ".join(quoted(c[0]) for c in cols if not c[2])
                query = f"SELECT {names} FROM {quoted(primary[1])}.{quoted(primary[2])}"
            base = [
                str(r[0])
                for r in self.conn.execute(
                    "SELECT name FROM relation_column WHERE relation_id = ? ORDER BY position",
                    (indexed_id,),
                )
            ]
            positions = [int(p) for p in json.loads(keys or "[]")]
            index_keys = tuple(base[p] for p in positions if p < len(base))
            by_name = {c[0]: bool(c[8]) for c in cols}
            index_desc = tuple(by_name.get(k, False) for k in index_keys)
        table_pk = pk if kind == RelKind.TABLE else ()
        return Relation(
            id=int(rid),
            schema=schema,
            name=name,
            kind=kind,
            columns=tuple(
                RelColumn(
                    c[0], int(c[1]), bool(c[2]), c[4], c[5], bool(c[6]), str(c[7] or ""), int(c[9])
                )
                for c in cols
            ),
            created=status is None or status == "CREATED",
            definition=query,
            primary_key=table_pk,
            append_only=bool(append_only),
            conflict=_conflict(on_conflict, bool(append_only), table_pk, cols),
            version_columns=tuple(json.loads(versions or "[]")),
            indexed_id=indexed_id,
            index_keys=index_keys,
            index_desc=index_desc,
            database_id=database_id,
            owner_id=int(owner_id),
            horizon=tuple((int(k), int(v)) for k, v in json.loads(horizon or "{}").items()),
            watermark=(
                table_watermark(definition) if kind in (RelKind.TABLE, RelKind.SOURCE) else None
            ),
            emit_on_window_close=(
                kind == RelKind.MATERIALIZED_VIEW
                and bool(definition)
                and _EOWC.search(definition) is not None
            ),
            retention_seconds=_retention(with_options) if kind == RelKind.TABLE else 0,
        )

    def job_time_zone(self, relation_id: int) -> str | None:
        """The TimeZone of the session that created a streaming job (its expression context,
        streaming_job.timezone as meta keeps it: src/meta/model/src/streaming_job.rs:32)."""
        row = self.conn.execute(
            "SELECT timezone FROM streaming_job WHERE job_id = ?", (relation_id,)
        ).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    def view_search_path(self, relation_id: int) -> str | None:
        """The search_path a view's or materialized view's definition was bound with."""
        row = self.conn.execute(
            "SELECT search_path FROM relation WHERE relation_id = ?", (relation_id,)
        ).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    def user_name(self, user_id: int) -> str | None:
        row = self.conn.execute("SELECT name FROM rw_user WHERE user_id = ?", (user_id,)).fetchone()
        return None if row is None else str(row[0])

    def database_name(self, database_id: int) -> str | None:
        row = self.conn.execute(
            "SELECT name FROM database WHERE database_id = ?", (database_id,)
        ).fetchone()
        return None if row is None else str(row[0])

    def relation_by_id(self, relation_id: int) -> Relation | None:
        found = self.locate(relation_id)
        return None if found is None else self.relation(*found)

    def connector(self, relation_id: int) -> Connector | None:
        """A source's or connector table's connector, FORMAT, ENCODE, options and stored
        definition (the data plane's connector runtime reads them), None without one."""
        row = self.conn.execute(
            "SELECT connector, format, row_encode, with_options, format_encode_options,"
            " definition FROM relation WHERE relation_id = ?"
            " AND kind IN ('source', 'table') AND connector IS NOT NULL",
            (relation_id,),
        ).fetchone()
        if row is None:
            return None
        return Connector(
            str(row[0]).lower(), row[1], row[2], json.loads(row[3] or "{}"),
            json.loads(row[4] or "{}"), str(row[5]),
        )  # fmt: skip

    def connector_relations(self, connector: str) -> list[tuple[int, int]]:
        """(relation id, database id) of the sources and tables with this connector."""
        return [
            (int(r[0]), int(r[1]))
            for r in self.conn.execute(
                "SELECT relation_id, database_id FROM relation WHERE kind IN ('source', 'table')"
                " AND lower(connector) = ? ORDER BY relation_id",
                (connector,),
            )
        ]

    def dependent_views(self, relation_id: int) -> list[int]:
        """The materialized views that read this relation directly or through plain views
        (their streaming jobs each read a source through their own executor: RisingWave
        binds a view into the job's plan)."""
        return [
            int(r[0])
            for r in self.conn.execute(
                "WITH RECURSIVE up(id) AS (SELECT ? UNION SELECT d.dependent_id FROM"
                " dependency d JOIN up ON d.referenced_id = up.id JOIN relation v"
                " ON v.relation_id = d.dependent_id AND v.kind = 'view')"
                " SELECT DISTINCT d.dependent_id FROM dependency d JOIN up"
                " ON d.referenced_id = up.id JOIN relation r ON r.relation_id = d.dependent_id"
                " WHERE r.kind = 'materialized view' ORDER BY 1",
                (relation_id,),
            )
        ]

    def relation_ids(self) -> set[int]:
        """Every relation id of the catalog (every database, every kind)."""
        return {int(r[0]) for r in self.conn.execute("SELECT relation_id FROM relation")}


def _conflict(
    stored: str | None, append_only: bool, pk: tuple[str, ...], cols: list[tuple[object, ...]]
) -> str:
    """The table's conflict behaviour; for a store older than version 9, as RisingWave's
    EitherOnConflict::to_behavior resolves a CREATE without ON CONFLICT."""
    if stored:
        return stored
    if append_only:
        hidden_key = any(c[0] in pk and c[2] for c in cols)
        return "no_check" if hidden_key or not pk else "ignore"
    return "overwrite"


def _retention(with_options: str | None) -> int:
    """A table's ``retention_seconds`` option: RisingWave parses it as a NonZeroU32 and
    ignores any other value (src/frontend/src/utils/with_options.rs:152-156)."""
    raw = json.loads(with_options or "{}").get("retention_seconds", "")
    text = str(raw).removeprefix("+")  # (Rust's u32 parse takes a leading +)
    return int(text) if text.isdigit() and 0 < int(text) < 2**32 else 0
