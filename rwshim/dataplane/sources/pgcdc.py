"""postgres-cdc: the tables on a shared CDC source (``CREATE TABLE t (...) FROM s TABLE
'schema.table'``) filled from a real PostgreSQL: the upstream table's snapshot at the first
barrier after the CREATE, then its inserts, updates and deletes, read from the source's logical
replication slot at each barrier of the table's database and written in that barrier's epoch.

RisingWave reads the slot through Debezium's PostgreSQL connector (pgoutput plugin, the
options of java/connector-node/risingwave-connector-service/src/main/resources/
postgres.properties at 448c657) and backfills a new table from a snapshot merged with the
stream (src/stream/src/executor/backfill/cdc/cdc_backfill.rs).  rwshim asks the upstream over a
normal connection: ``pg_logical_slot_peek_binary_changes(slot, NULL, NULL, 'proto_version',
'1', 'publication_names', pub)`` (the messages of pgoutput.py), and once the barrier that wrote
them committed, ``pg_replication_slot_advance`` moves the slot past them (a barrier whose
commit never ran reads them again).

Why a snapshot and the stream agree: the table joins the publication when it is created
(ALTER PUBLICATION, pgcdc_validate.py), so every change committed after that is in the slot;
the snapshot is read at the first barrier, before the slot is read at that barrier.  A change
that is in both is applied again over the snapshot: each event carries the whole new row (an
upsert by the key) or the key (a delete), so replaying the stream from any point before the
snapshot ends at the same rows; the replay happens in the same epoch as the snapshot, so no
reader sees a state in between.

Values arrive as PostgreSQL's text and are cast to the RisingWave column's type; a value that
does not cast pads a non-key column with NULL and skips a row whose key does not, with a log
line, as RisingWave's parser does for Debezium's JSON (runtime._write, chunk_builder.rs:
287-305).  ``money`` loses its currency symbol and ``time with time zone`` is moved to UTC, as
Debezium converts them.  TRUNCATE is ignored (Debezium's ``skipped.operations`` default ``t``).
An UPDATE that leaves a TOASTed column unchanged keeps the stored value (RisingWave's TOAST
handling, e2e_test/source_legacy/cdc_inline/test_postgres_toast.slt).  The INCLUDE columns:
``timestamp`` the commit time (1970-01-01 for snapshot rows, snapshot.rs:132-170),
``database_name``, ``schema_name``, ``table_name``.

Neither DROP TABLE nor DROP SOURCE drops the replication slot (Debezium's ``slot.drop.on.stop``
is false, and RisingWave's e2e tests drop slots themselves: e2e_test/source_inline/cdc/postgres/
postgres_corner_schema_change.slt:17-28).
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rwshim.binder.relations import Relation, RelKind
from rwshim.dataplane.pgio import ConnectionLost, PgConn, PgFailure
from rwshim.dataplane.plan import names, typemap
from rwshim.dataplane.plan.dml import user_key
from rwshim.dataplane.plan.names import quote_ident as qi
from rwshim.dataplane.sources import decode, pgoutput
from rwshim.dataplane.sources.pgcdc_validate import conninfo
from rwshim.dataplane.sources.runtime import Message, Plan, _setup, _write, sql_value

if TYPE_CHECKING:
    from rwshim.dataplane.sources.runtime import Sources

log = logging.getLogger("rwshim.datapath")

_MONEY, _TIMETZ = 790, 1266
_PG2000 = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)
_SNAPSHOT_TS = "1970-01-01 00:00:00+00:00"  # Timestamptz::default()
_CHUNK = 200


async def create_slot(options: dict[str, str]) -> None:
    """The source's replication slot, made when the source is created (Debezium makes it when
    the source's job starts; an existing one is used as it is).  A failure is the source
    job's, logged: the source exists, its tables read nothing until the slot does."""
    try:
        conn = await PgConn.connect(conninfo(options))
    except ConnectionLost as e:
        log.error("postgres-cdc: creating slot %s: %s", options.get("slot.name"), e)
        return
    try:
        slot = options["slot.name"].encode()
        found = await conn.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = $1", [slot])
        if not found.ntuples:
            await conn.query("SELECT pg_create_logical_replication_slot($1, 'pgoutput')", [slot])
    except (PgFailure, ConnectionLost) as e:
        log.error("postgres-cdc: creating slot %s: %s", options.get("slot.name"), e)
    finally:
        await conn.close()


@dataclass(slots=True)
class CdcTable:
    """A table on a postgres-cdc source: its upstream table and INCLUDE columns by kind."""

    rel: Relation
    source_id: int
    schema: str
    table: str
    includes: dict[str, str]  # column name -> kind
    database: str = ""  # the upstream database (INCLUDE database_name)
    snapshot: bool = True


@dataclass(frozen=True, slots=True)
class _Parsed:
    """What a CDC table's definition says: its source's name parts, its upstream table, its
    INCLUDE columns by kind."""

    source: tuple[str, ...]
    schema: str
    table: str
    includes: dict[str, str]
    snapshot: bool = True  # WITH (snapshot = 'false'): no backfill (cdc_scan.rs:69-73)


@dataclass(slots=True)
class Stream:
    """One source's slot as rwshim reads it."""

    options: dict[str, str]
    conn: PgConn | None = None
    relations: dict[int, pgoutput.Relation] = field(default_factory=dict)
    confirm: int | None = None  # advance the slot to this LSN at the next barrier
    pending: dict[tuple[int, int], int] = field(default_factory=dict)  # (db, epoch) -> LSN

    async def connection(self) -> PgConn:
        if self.conn is None or self.conn.closed:
            self.conn = await PgConn.connect(conninfo(self.options))
            await self.conn.script(
                "SET DateStyle = ISO; SET TimeZone = 'UTC'; SET IntervalStyle = postgres;"
                " SET extra_float_digits = 3; SET bytea_output = hex"
            )
        return self.conn

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close_now()
            self.conn = None


def _convert(type_oid: int, text: str) -> str:
    """Debezium's conversions that PostgreSQL's cast does not make: ``money`` as a number,
    ``time with time zone`` in UTC."""
    if type_oid == _MONEY:
        neg = text.startswith("-") or text.startswith("(")
        digits = re.sub(r"[^0-9.]", "", text)
        return "-" + digits if neg else digits
    if type_oid == _TIMETZ:
        m = re.fullmatch(r"(\d+):(\d+):(\d+)(\.\d+)?([+-])(\d+)(?::(\d+))?(?::(\d+))?", text)
        if m:
            secs = int(m[1]) * 3600 + int(m[2]) * 60 + int(m[3])
            off = int(m[6]) * 3600 + int(m[7] or 0) * 60 + int(m[8] or 0)
            secs = (secs - off if m[5] == "+" else secs + off) % 86400
            return f"{secs // 3600:02}:{secs // 60 % 60:02}:{secs % 60:02}{m[4] or ''}"
    return text


_DECIMAL_MAX = 2**96  # rust_decimal's mantissa (src/common/src/types/decimal.rs)


def _fit_decimals(rel: Relation, values: dict[str, object]) -> bool:
    """A ``numeric`` text beyond RisingWave's decimal does not parse (json.rs:455-480:
    Decimal::from_str fails): NULL in a non-key column, logged; False when a key column's does
    not (the row is skipped)."""
    from decimal import Decimal, InvalidOperation

    for c in rel.columns:
        v = values.get(c.name)
        if c.rw_type != "numeric" or not isinstance(v, str):
            continue
        try:
            d = Decimal(v)
        except InvalidOperation:
            continue
        if d.is_finite() and abs(d) >= _DECIMAL_MAX:
            if c.name in rel.primary_key:
                log.error("postgres-cdc: key column %s: %s does not fit a decimal", c.name, v)
                return False
            log.warning("failed to parse non-pk column, padding with `NULL`: %s", c.name)
            values[c.name] = None
    return True


class PgCdc:
    """The postgres-cdc part of a data plane's connector runtime (the module docstring)."""

    def __init__(self, sources: Sources) -> None:
        self.sources = sources
        self._streams: dict[int, Stream] = {}
        self._parsed: dict[int, tuple[str, _Parsed | None]] = {}
        self._loaded: dict[int, set[int]] = {}  # database -> tables whose snapshot was written
        epochs = sources.plane.epochs
        epochs.before_commit.append(self.at_barrier)
        epochs.after_commit.append(self.committed)

    # --- the catalog ---------------------------------------------------------------------

    def tables(self, database_id: int) -> list[CdcTable]:
        """The database's tables on a postgres-cdc source (read from their definitions, so a
        restart finds them again)."""
        relations = self.sources.plane.relations
        rows = relations.conn.execute(
            "SELECT r.relation_id, r.definition, s.name FROM relation r JOIN schema s ON"
            " s.schema_id = r.schema_id WHERE r.kind = 'table' AND r.database_id = ?"
            " AND r.connector IS NULL AND instr(upper(r.definition), ' TABLE ''') > 0",
            (database_id,),
        ).fetchall()
        out: list[CdcTable] = []
        for rid, definition, schema in rows:
            parsed = self._parse(int(rid), str(definition))
            if parsed is None:
                continue
            source_id = self._source_id(database_id, str(schema), parsed.source)
            rel = relations.relation_by_id(int(rid))
            if source_id is None or rel is None or not rel.created:
                continue
            conn = relations.connector(source_id)
            if conn is None or conn.connector != "postgres-cdc":
                continue
            database = str(conn.options.get("database.name", ""))
            made = CdcTable(
                rel, source_id, parsed.schema, parsed.table, parsed.includes, database,
                parsed.snapshot,
            )  # fmt: skip
            out.append(made)
        return out

    def _parse(self, rid: int, definition: str) -> _Parsed | None:
        cached = self._parsed.get(rid)
        if cached is not None and cached[0] == definition:
            return cached[1]
        from rwshim.common.names import postgres_cdc_table_name
        from rwshim.sql.unparse import nodes as n
        from rwshim.sql.unparse import parse_create
        from rwshim.sql.unparse.purify import include_column_name

        result: _Parsed | None = None
        try:
            stmt = parse_create(definition)
        except Exception:
            stmt = None
        if isinstance(stmt, n.CreateTable) and stmt.cdc is not None:
            source, external = stmt.cdc
            try:
                schema, table = postgres_cdc_table_name(external)
            except ValueError:
                schema = table = ""
            if table:
                includes = {
                    include_column_name("postgres-cdc", i): i.column_type.real_value().lower()
                    for i in stmt.include
                }
                parts = tuple(p.real_value() for p in source.parts)
                options = {o.name.real_value(): o.value.strip("'") for o in stmt.with_options}
                snapshot = options.get("snapshot", "true") != "false"
                result = _Parsed(parts, schema, table, includes, snapshot)
        self._parsed[rid] = (definition, result)
        return result

    def _source_id(self, database_id: int, table_schema: str, parts: tuple[str, ...]) -> int | None:
        name = str(parts[-1])
        schemas = [str(parts[-2])] if len(parts) > 1 else [table_schema, "public"]
        conn = self.sources.plane.relations.conn
        for schema in schemas:
            row = conn.execute(
                "SELECT r.relation_id FROM relation r JOIN schema s ON s.schema_id = r.schema_id"
                " WHERE r.kind = 'source' AND r.database_id = ? AND r.name = ? AND s.name = ?",
                (database_id, name, schema),
            ).fetchone()
            if row is not None:
                return int(row[0])
        return None

    # --- barriers ------------------------------------------------------------------------

    def committed(self, database_id: int, epoch: int) -> None:
        """After a barrier's commit: the slot may move past what that barrier wrote."""
        for stream in self._streams.values():
            lsn = stream.pending.pop((database_id, epoch), None)
            if lsn is not None:
                stream.confirm = lsn

    async def at_barrier(self, database_id: int, epoch: int) -> None:
        tables = self.tables(database_id)
        loaded = self._loaded.setdefault(database_id, set())
        loaded &= {t.rel.id for t in tables}  # a dropped table forgets its snapshot
        by_source: dict[int, list[CdcTable]] = {}
        for t in tables:
            by_source.setdefault(t.source_id, []).append(t)
        relations = self.sources.plane.relations
        for rid, db in relations.connector_relations("postgres-cdc"):
            rel = relations.relation_by_id(rid)
            if db == database_id and rel is not None and rel.kind == RelKind.SOURCE:
                by_source.setdefault(rid, [])  # a source no table reads yet: its slot moves on
        for source_id, tabs in by_source.items():
            conn = relations.connector(source_id)
            if conn is None or "slot.name" not in conn.options:
                continue
            stream = self._streams.get(source_id)
            if stream is None or stream.options != conn.options:
                if stream is not None:
                    stream.close()
                stream = self._streams[source_id] = Stream(dict(conn.options))
            try:
                await self._barrier(stream, tabs, loaded, database_id, epoch)
            except (ConnectionLost, PgFailure) as e:
                # RisingWave's source retries its upstream; the barrier goes on without it
                log.error("postgres-cdc source %d: %s", source_id, e)
                stream.close()

    async def _barrier(
        self, stream: Stream, tabs: list[CdcTable], loaded: set[int], database_id: int, epoch: int
    ) -> None:
        pg = await stream.connection()
        slot = stream.options["slot.name"]
        if not tabs:
            # nothing reads the slot yet: a table made later starts from its own snapshot
            await pg.query(
                "SELECT pg_replication_slot_advance($1, pg_current_wal_lsn())"
                " FROM pg_replication_slots WHERE slot_name = $1",
                [slot.encode()],
            )
            stream.confirm = None
            return
        if stream.confirm is not None:
            await pg.query(
                "SELECT pg_replication_slot_advance($1, $2::pg_lsn)",
                [slot.encode(), pgoutput.format_lsn(stream.confirm).encode()],
            )
            stream.confirm = None
        for t in tabs:
            if t.rel.id not in loaded:
                if t.snapshot:
                    await self._snapshot(pg, t)
                loaded.add(t.rel.id)
        res = await pg.query(
            "SELECT data FROM pg_logical_slot_peek_binary_changes($1, NULL, NULL,"
            " 'proto_version', '1', 'publication_names', $2)",
            [slot.encode(), _pub_names(stream.options["publication.name"]).encode()],
        )
        by_name = {(t.schema, t.table): t for t in tabs}
        ops: dict[int, list[decode.RowOp]] = {}
        commit_ts = _SNAPSHOT_TS
        last: int | None = None
        for r in range(res.ntuples):
            raw = res.get_value(r, 0) or b""
            msg = pgoutput.decode(bytes.fromhex(raw.decode()[2:]))
            if isinstance(msg, pgoutput.Relation):
                stream.relations[msg.oid] = msg
            elif isinstance(msg, pgoutput.Begin):
                at = _PG2000 + dt.timedelta(microseconds=msg.commit_ts_us)
                commit_ts = at.isoformat()
            elif isinstance(msg, pgoutput.Commit):
                last = msg.end_lsn
            elif isinstance(msg, pgoutput.Change):
                relation = stream.relations.get(msg.relation_oid)
                on = None if relation is None else by_name.get((relation.schema, relation.name))
                if on is not None and relation is not None:
                    op = _row_op(on, relation, msg, commit_ts)
                    if op is not None and _fit_decimals(on.rel, op.values):
                        ops.setdefault(on.rel.id, []).append(op)
        if last is not None:
            stream.pending[(database_id, epoch)] = last
        for t in tabs:
            if t.rel.id in ops:
                await self._write(t, ops[t.rel.id])

    async def _snapshot(self, pg: PgConn, t: CdcTable) -> None:
        """The upstream table's rows, as the CDC backfill reads them (snapshot.rs)."""
        cols = _payload_columns(t.rel, t.includes)
        if not cols:
            return
        target = ".".join(_pg_ident(p) for p in (t.schema, t.table))
        res = await pg.query(f"SELECT {', '.join(_pg_ident(c) for c in cols)} FROM {target}")
        oids = [res.ftype(i) for i in range(res.nfields)]
        extra = _include_values(t, _SNAPSHOT_TS)
        ops: list[decode.RowOp] = []
        for r in range(res.ntuples):
            values: dict[str, object] = {}
            for i, c in enumerate(cols):
                v = res.get_value(r, i)
                values[c] = None if v is None else _convert(oids[i], v.decode())
            values.update(extra)
            if _fit_decimals(t.rel, values):
                ops.append(decode.RowOp("insert", values))
        if ops:
            await self._write(t, ops)

    async def _write(self, t: CdcTable, ops: list[decode.RowOp]) -> None:
        rel = t.rel
        plane = self.sources.plane
        await plane.ready()
        await plane.ensure([rel.id])
        plan = Plan(rel, decode.Decoder("PLAIN", "JSON", [], {}, None), {})
        msg = Message(None, None, f"{t.schema}.{t.table}", "0")

        async def statement(pg: PgConn) -> None:
            i = 0
            while i < len(ops):
                chunk = ops[i : i + _CHUNK]
                i += _CHUNK
                toast = [op for op in chunk if op.op == "toast"]
                if toast:  # in order, one at a time
                    for op in chunk:
                        await self._one(pg, plan, op, msg)
                    continue
                if await _write(pg, plan, chunk, msg) is not None:
                    for op in chunk:
                        await self._one(pg, plan, op, msg)

        await plane.epochs.run(rel.database_id, rel.id, self.sources._open, _setup, statement)

    async def _one(self, pg: PgConn, plan: Plan, op: decode.RowOp, msg: Message) -> None:
        if op.op == "toast":
            sql = _toast_update(plan.rel, op)
            try:
                await pg.script(f"SAVEPOINT m; {sql}; RELEASE SAVEPOINT m")
            except PgFailure as e:
                await pg.script("ROLLBACK TO SAVEPOINT m; RELEASE SAVEPOINT m")
                self.sources._skip(plan.rel, msg, e.error.message)
            return
        why = await _write(pg, plan, [op], msg)
        if why is not None:
            self.sources._skip(plan.rel, msg, why)


def _pub_names(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _pg_ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _payload_columns(rel: Relation, includes: dict[str, str]) -> list[str]:
    """The table's columns read from upstream (not INCLUDE, generated or hidden ones)."""
    return [
        c.name
        for c in rel.columns
        if not c.hidden and c.name not in includes and c.generated_expr is None
    ]


def _include_values(t: CdcTable, ts: str) -> dict[str, object]:
    out: dict[str, object] = {}
    for name, kind in t.includes.items():
        if kind == "timestamp":
            out[name] = ts
        elif kind == "database_name":
            out[name] = t.database
        elif kind == "schema_name":
            out[name] = t.schema
        elif kind == "table_name":
            out[name] = t.table
        else:
            out[name] = None
    return out


def _row_op(
    t: CdcTable,
    relation: pgoutput.Relation,
    change: pgoutput.Change,
    commit_ts: str,
) -> decode.RowOp | None:
    """One change as the table's row operation (values by the table's column names)."""
    wanted = set(_payload_columns(t.rel, t.includes))

    def named(tup: pgoutput.Tuple | None) -> dict[str, object]:
        out: dict[str, object] = {}
        for (name, oid), v in zip(relation.columns, tup or (), strict=False):
            if name in wanted:
                out[name] = _convert(oid, v) if isinstance(v, str) else v
        return out

    key = user_key(t.rel)
    if change.op == "delete":
        return decode.RowOp("delete", named(change.old))
    new = named(change.new)
    new.update(_include_values(t, commit_ts))
    if change.op == "insert":
        return decode.RowOp("insert", new)
    old = None if change.old is None else named(change.old)
    if any(v is pgoutput.UNCHANGED for v in new.values()):
        return decode.RowOp("toast", new, old)
    if old is not None and any(old.get(k) != new.get(k) for k in key):
        return decode.RowOp("update", new, old)
    return decode.RowOp("insert", new)  # an upsert by the key overwrites the row


def _toast_update(rel: Relation, op: decode.RowOp) -> str:
    """An UPDATE that leaves the unchanged TOASTed columns as they are stored."""
    types = {c.name: typemap.column_type(c.type_oid, c.rw_type) for c in rel.columns}
    target = names.qualified_table(rel.id)
    sets = ", ".join(
        f"{qi(c)} = {sql_value(v, types[c])}"
        for c, v in op.values.items()
        if v is not pgoutput.UNCHANGED and c in types
    )
    where_from = op.old if op.old is not None else op.values
    cond = " AND ".join(
        f"{qi(k)} = {sql_value(where_from.get(k), types[k])}" for k in user_key(rel)
    )
    return f"UPDATE {target} SET {sets} WHERE {cond}"
