"""The connector runtime of one data plane: messages delivered to a source or a table with a
connector (RWSHIM PUSH, datagen's rows at barriers, posix_fs's files) become rows in the
epoch's transaction, so they are seen at the next barrier as any write is (epochs.py).

A table with a connector stores its rows as a table does (``rw."t<id>"``, its key's conflict
rule applied: UPSERT overwrites, a delete deletes); a source keeps every row delivered in its
``rw."t<id>"`` (plan/ddl.py ``source``), which its materialized views read; a datagen
source's materialized views each read their own readers instead (``rw."r<view>_<source>"``,
plan/ddl.py ``reader``), started when the view is made, as each RisingWave job's source
executor starts its own.

RisingWave at 448c657: ``src/connector/src/parser/chunk_builder.rs:310-420`` (the INCLUDE
columns filled from the message's meta: key, partition = the split id, offset, timestamp,
headers, payload), ``src/connector/src/source/kafka/source/message.rs`` (a Kafka message's
meta), ``src/stream/src/executor/source/source_executor.rs`` (rows reach the job at the next
barrier).  The per-partition offsets live in memory: a restart of the process starts them at
0 again (RisingWave keeps them in the source's state table).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from rwshim.binder.relations import Relation, RelKind
from rwshim.dataplane.pgio import PgConn, PgFailure
from rwshim.dataplane.plan import names, typemap
from rwshim.dataplane.plan.dml import upsert_clause, user_key
from rwshim.dataplane.plan.names import quote_ident as qi
from rwshim.dataplane.plan.names import quote_literal
from rwshim.dataplane.sources import datagen, decode, posix_fs
from rwshim.engine.types import EPOCH_SHIFT, RISINGWAVE_DATE_EPOCH_MS
from rwshim.errors import RwError

if TYPE_CHECKING:
    from rwshim.catalog_path.store_source import Connector, StoreRelations
    from rwshim.dataplane.sources.pgcdc import PgCdc


class EpochRunner(Protocol):
    """``rwshim.dataplane.epochs.Epochs``: a statement in the database's epoch, and the
    hooks that run before a barrier's commit."""

    @property
    def before_commit(self) -> list[Callable[[int, int], Awaitable[None]]]: ...

    @property
    def after_commit(self) -> list[Callable[[int, int], None]]: ...

    async def run(
        self,
        database_id: int,
        target_id: int | None,
        open_conn: Callable[[], Awaitable[PgConn]],
        setup: Callable[[PgConn], Awaitable[None]],
        statement: Callable[[PgConn], Awaitable[object]],
    ) -> object: ...


class Plane(Protocol):
    """What the runtime uses of its ``rwshim.dataplane.plane.DataPlane`` (a protocol: the
    plane makes the runtime, and imports it)."""

    @property
    def relations(self) -> StoreRelations: ...

    @property
    def epochs(self) -> EpochRunner: ...

    async def ready(self) -> None: ...

    async def ensure(self, relation_ids: Iterable[int]) -> None: ...

    def data_conninfo(self) -> str: ...

    def made_names(self) -> list[str]: ...


log = logging.getLogger("rwshim.datapath")

# Connectors whose messages a test delivers (brokers): the others produce their own rows
# (datagen, the file sources) or read an upstream database (CDC)
PUSHABLE = ("kafka", "pulsar", "kinesis", "nats", "mqtt", "google_pubsub", "redis")


def unsupported(what: str) -> RwError:
    """What rwshim's connector runtime does not do, said as such (SQLSTATE 0A000)."""
    return RwError(f"not supported by rwshim: {what}", sqlstate="0A000")


@dataclass(frozen=True, slots=True)
class Message:
    """One message as a connector delivers it."""

    key: bytes | None
    payload: bytes | None
    partition: str
    offset: str
    timestamp_ms: int | None = None


@dataclass(slots=True)
class Plan:
    """How a relation's columns are filled: the parser's payload columns, the INCLUDE
    columns by kind, the decoder (its CSV header state kept)."""

    rel: Relation
    decoder: decode.Decoder
    meta: dict[str, str]  # column name -> INCLUDE kind


@dataclass(frozen=True, slots=True)
class Shape:
    """What the stored definition says of the connector's rows: FORMAT, ENCODE and their
    options (a table's are not columns of the store: read from its definition) and the
    INCLUDE columns by name -> kind (key, partition, offset, timestamp, header, payload, file)."""

    fmt: str
    enc: str
    options: dict[str, str]
    kinds: dict[str, str]


def _option_value(shown: str) -> str:
    """An option's value from its Display: a string literal unquoted."""
    if len(shown) >= 2 and shown[0] == shown[-1] == "'":
        return shown[1:-1].replace("''", "'")
    return shown


def shape_of(rel: Relation, conn: Connector) -> Shape:
    from rwshim.sql.unparse import nodes as n
    from rwshim.sql.unparse import parse_create
    from rwshim.sql.unparse.purify import include_column_name

    fmt, enc, options = conn.format, conn.encode, dict(conn.format_options)
    kinds: dict[str, str] = {}
    try:
        stmt = parse_create(conn.definition)
    except Exception:  # a definition the unparser does not read: the store's columns only
        stmt = None
    if isinstance(stmt, (n.CreateTable, n.CreateSource)):
        connector = "s3_v2" if conn.connector == "s3" else conn.connector
        for item in stmt.include:
            kind = item.column_type.real_value().lower()
            if kind == "header" and item.inner_field is not None:
                kind = "header_inner"
            kinds[include_column_name(connector, item)] = kind
        fe = stmt.format_encode
        if fe is not None and fmt is None:
            fmt, enc = fe.format, fe.encode
            options = {o.name.real_value(): _option_value(o.value) for o in fe.options}
    prefix = f"_rw_{conn.connector}_"
    for c in rel.columns:
        if c.hidden and c.name.startswith(prefix) and c.name not in kinds:
            kinds[c.name] = c.name[len(prefix) :]
    default_enc = "NATIVE" if conn.connector == "datagen" else "JSON"
    return Shape((fmt or "PLAIN").upper(), (enc or default_enc).upper(), options, kinds)


def plan_for(rel: Relation, conn: Connector) -> Plan:
    shape = shape_of(rel, conn)
    meta = shape.kinds
    key_col = next((name for name, kind in meta.items() if kind == "key"), None)
    columns = [
        decode.Column(c.name, c.rw_type, c.name in rel.primary_key)
        for c in rel.columns
        if not c.hidden and c.name not in meta and c.generated_expr is None
    ]
    decoder = decode.Decoder(shape.fmt, shape.enc, columns, shape.options, key_col)
    return Plan(rel, decoder, meta)


def meta_value(kind: str, msg: Message) -> object:
    """An INCLUDE column's value (chunk_builder.rs:310-420)."""
    if kind == "key":
        return msg.key
    if kind in ("partition", "file"):
        return msg.partition  # the split id
    if kind == "offset":
        return msg.offset
    if kind == "timestamp":
        if msg.timestamp_ms is None:
            return None
        return dt.datetime.fromtimestamp(msg.timestamp_ms / 1000, tz=dt.UTC).isoformat()
    if kind == "payload" and msg.payload is not None:
        import json

        try:
            return decode.JsonValue(json.dumps(json.loads(msg.payload), separators=(",", ":")))
        except ValueError:
            return None
    return None  # headers: a pushed message has none


def _pg_text(v: object) -> str:
    """A value as PostgreSQL's text input of its type; tuples (structs) and lists (arrays)
    as composite and array literals, their elements double-quoted."""
    if isinstance(v, tuple):
        return "(" + ",".join("" if x is None else _quoted(_pg_text(x)) for x in v) + ")"
    if isinstance(v, list):
        return "{" + ",".join("NULL" if x is None else _quoted(_pg_text(x)) for x in v) + "}"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    return str(v)


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def sql_value(v: object, pg_type: str) -> str:
    """A decoded value as a PostgreSQL expression of the column's type."""
    if v is None:
        return f"NULL::{pg_type}"
    if isinstance(v, (tuple, list)):
        return f"{quote_literal(_pg_text(v))}::{pg_type}"
    if isinstance(v, bool):
        text = "true" if v else "false"
    elif isinstance(v, float):
        text = {float("inf"): "Infinity", float("-inf"): "-Infinity"}.get(v, repr(v))
        if v != v:
            text = "NaN"
    elif isinstance(v, bytes):
        text = "\\x" + v.hex()
    elif isinstance(v, decode.JsonValue):
        text = v.text
    else:
        text = str(v)
    return f"{quote_literal(text)}::{pg_type}"


def row_statements(plan: Plan, op: decode.RowOp, msg: Message) -> list[str]:
    """The SQL of one row operation on the relation's ``rw."t<id>"``."""
    rel = plan.rel
    target = names.qualified_table(rel.id)
    types = {c.name: typemap.column_type(c.type_oid, c.rw_type) for c in rel.columns}
    values = dict(op.values)
    for name, kind in plan.meta.items():
        values[name] = meta_value(kind, msg)
    key = user_key(rel) if rel.kind == RelKind.TABLE else ()

    def insert(row: dict[str, object]) -> str:
        cols = [c for c in row if c in types]
        vals = ", ".join(sql_value(row[c], types[c]) for c in cols)
        sql = f"INSERT INTO {target} AS x ({', '.join(qi(c) for c in cols)}) VALUES ({vals})"
        if key:
            sql += upsert_clause(rel, key, rel.conflict, "x", rel.version_columns)
        return sql

    def delete(row: dict[str, object]) -> str:
        match = key or tuple(c for c in row if c in types)
        # `=` where the value is not NULL: the key's index serves it (IS NOT DISTINCT FROM
        # is never an index condition)
        cond = " AND ".join(
            f"{qi(c)} {'IS NOT DISTINCT FROM' if row.get(c) is None else '='}"
            f" {sql_value(row.get(c), types[c])}"
            for c in match
        )
        if key:
            return f"DELETE FROM {target} WHERE {cond}"
        return f"DELETE FROM {target} WHERE ctid = (SELECT ctid FROM {target} WHERE {cond} LIMIT 1)"

    if op.op == "insert":
        return [insert(values)]
    if op.op == "delete":
        return [delete(values)]
    old = dict(op.old or {})
    for name, kind in plan.meta.items():
        old[name] = meta_value(kind, msg)
    return [delete(old), insert(values)]


class Sources:
    """The connector runtime of one data plane (the module docstring)."""

    def __init__(self, plane: Plane, now_ms: Callable[[], int]) -> None:
        self.plane = plane
        self.now_ms = now_ms
        self._plans: dict[int, tuple[object, Plan]] = {}
        self._offsets: dict[tuple[int, str], int] = {}
        self.errors: dict[int, int] = {}  # relation id -> messages skipped (user_source_error)
        self._datagen: dict[int, tuple[object, datagen.Datagen | None]] = {}
        # a job's own reader of a datagen source, by its name (r<job>_<source>)
        self._reader_gens: dict[str, tuple[object, datagen.Datagen | None]] = {}
        self._dirs: dict[int, posix_fs.Directory] = {}
        self._cdc: PgCdc | None = None
        plane.epochs.before_commit.append(self.at_barrier)

    @property
    def cdc(self) -> PgCdc:
        """The postgres-cdc tables' runtime (pgcdc.py), made with the first CDC source."""
        if self._cdc is None:
            from rwshim.dataplane.sources.pgcdc import PgCdc

            self._cdc = PgCdc(self)
        return self._cdc

    # --- barriers ------------------------------------------------------------------------

    async def at_barrier(self, database_id: int, epoch: int) -> None:
        """Before the barrier's commit: the rows datagen relations generated since the last
        one go into the epoch (the source executor forwards its readers' chunks before the
        barrier that follows them, source_executor.rs)."""
        # the barrier's own time (its commit may run after later barriers moved the clock)
        at_ms = (epoch >> EPOCH_SHIFT) + RISINGWAVE_DATE_EPOCH_MS
        relations = self.plane.relations
        await self._files(database_id)
        live = relations.connector_relations("datagen")
        for gone in set(self._datagen) - {rid for rid, _ in live}:
            del self._datagen[gone]
        for rid, db in live:
            if db != database_id:
                continue
            rel = relations.relation_by_id(rid)
            conn = relations.connector(rid)
            if rel is None or conn is None or not rel.created:
                continue
            gen = self._generator(rel.id, rel, conn, at_ms)
            if gen is None:
                continue
            rows = gen.due(at_ms)
            if rows:
                await self.write_rows(rel, rows)
        await self._readers(database_id, at_ms)

    async def _readers(self, database_id: int, at_ms: int) -> None:
        """Each materialized view's own readers of the datagen sources it reads (plan/ddl.py
        ``reader``), started at the first barrier after the view was created, from offset 0,
        as RisingWave's source executor of a new job starts its split readers (the view's
        objects are made then, not at its first read: its reader runs from its creation)."""
        relations = self.plane.relations
        wanted: dict[str, Relation] = {}
        for rid, db in relations.connector_relations("datagen"):
            source = relations.relation_by_id(rid)
            if db != database_id or source is None or source.kind != RelKind.SOURCE:
                continue
            for mv in relations.dependent_views(rid):
                wanted[names.reader_name(mv, rid)] = source
        for gone in [n for n in self._reader_gens if n not in wanted]:
            del self._reader_gens[gone]
        for name, source in wanted.items():
            conn = relations.connector(source.id)
            if conn is None:
                continue
            if name not in self.plane.made_names():
                job = int(name[1:].partition("_")[0])
                try:
                    await self.plane.ensure([job])
                except Exception as e:  # a view the data plane does not run: no reader
                    log.warning("datagen reader %s: %s", name, e)
                    continue
                if name not in self.plane.made_names():
                    continue
            gen = self._generator(name, source, conn, at_ms)
            if gen is None:
                continue
            rows = gen.due(at_ms)
            if not rows:
                continue
            try:
                await self.write_rows(source, rows, f"{names.DATA_SCHEMA}.{qi(name)}")
            except PgFailure as e:  # the view was dropped meanwhile: its reader with it
                log.info("datagen reader %s: %s", name, e)

    async def _files(self, database_id: int) -> None:
        """posix_fs: the lines of the files that appeared since the last barrier (each file
        with its own parser: a CSV file's first line is its header)."""
        relations = self.plane.relations
        live = relations.connector_relations("posix_fs")
        for gone in set(self._dirs) - {rid for rid, _ in live}:
            del self._dirs[gone]
        for rid, db in live:
            rel = relations.relation_by_id(rid)
            conn = relations.connector(rid)
            if db != database_id or rel is None or conn is None or not rel.created:
                continue
            root = str(conn.options.get("posix_fs.root", ""))
            pattern = conn.options.get("match_pattern")
            known = self._dirs.get(rid)
            if known is None or (known.root, known.pattern) != (root, pattern):
                known = self._dirs[rid] = posix_fs.Directory(root, pattern)
            for name, lines in known.new_lines():
                plan = plan_for(rel, conn)
                msgs = [Message(None, ln.payload, name, str(ln.offset)) for ln in lines]
                await self.deliver(plan, msgs)

    def _generator(
        self, key: int | str, rel: Relation, conn: Connector, at_ms: int
    ) -> datagen.Datagen | None:
        """The readers of a datagen relation (``key`` its id) or of a job's own reader of a
        source (``key`` the reader's name), made again when the options or columns change."""
        sig = (conn.options, rel.columns)
        known = self._datagen.get(key) if isinstance(key, int) else self._reader_gens.get(key)
        if known is not None and known[0] == sig:
            return known[1]
        cols = [
            (c.name, c.rw_type, not c.hidden)
            for c in rel.columns
            if c.name != "_row_id" and c.generated_expr is None
        ]
        made: datagen.Datagen | None
        try:
            made = datagen.datagen(cols, conn.options, self.now_ms, at_ms)
        except datagen.GeneratorError as e:
            # RisingWave's split reader fails to build: its actor reports the error and
            # produces nothing
            log.error("datagen source %s: %s", rel.name, e)
            made = None
        if isinstance(key, int):
            self._datagen[key] = (sig, made)
        else:
            self._reader_gens[key] = (sig, made)
        return made

    async def write_rows(
        self, rel: Relation, rows: Sequence[dict[str, object]], target: str | None = None
    ) -> None:
        """Native rows (datagen) appended to the relation (or to a job's own reader of it,
        ``target``) in the open epoch: the epoch wrote the relation, so what reads it is
        computed again at the barrier."""
        types = {c.name: typemap.column_type(c.type_oid, c.rw_type) for c in rel.columns}
        target = target or names.qualified_table(rel.id)
        cols = [c for c in rows[0] if c in types]
        head = f"INSERT INTO {target} AS x ({', '.join(qi(c) for c in cols)}) VALUES "
        tuples = ["(" + ", ".join(sql_value(r.get(c), types[c]) for c in cols) + ")" for r in rows]
        key = user_key(rel) if rel.kind == RelKind.TABLE else ()
        if key:
            # the table's conflict rule; one statement may not touch a key twice: a row each
            clause = upsert_clause(rel, key, rel.conflict, "x", rel.version_columns)
            sql = ";\n".join(head + t + clause for t in tuples)
        else:
            sql = head + ",\n".join(tuples)
        await self.plane.ready()
        await self.plane.ensure([rel.id])

        async def statement(pg: PgConn) -> None:
            await pg.script(sql)

        await self.plane.epochs.run(rel.database_id, rel.id, self._open, _setup, statement)

    # --- RWSHIM PUSH ---------------------------------------------------------------------

    def plan(self, rel: Relation, conn: Connector) -> Plan:
        sig = (conn, rel.columns, rel.primary_key)
        cached = self._plans.get(rel.id)
        if cached is not None and cached[0] == sig:
            return cached[1]
        made = plan_for(rel, conn)
        self._plans[rel.id] = (sig, made)
        return made

    def next_offset(self, relation_id: int, partition: str) -> str:
        n = self._offsets.get((relation_id, partition), 0)
        self._offsets[(relation_id, partition)] = n + 1
        return str(n)

    async def push(
        self,
        relation_id: int,
        partition: str | None,
        messages: Sequence[tuple[bytes | None, bytes | None]],
        now_ms: int,
    ) -> int:
        """RWSHIM PUSH: deliver ``messages`` (key, payload) to the relation's connector; the
        number of messages skipped as unparsable is returned."""
        rel = self.plane.relations.relation_by_id(relation_id)
        conn = self.plane.relations.connector(relation_id)
        if rel is None or conn is None or rel.kind not in (RelKind.TABLE, RelKind.SOURCE):
            raise unsupported(
                "RWSHIM PUSH delivers messages to a source or a table with a connector"
            )
        if conn.connector not in PUSHABLE:
            raise unsupported(
                f"RWSHIM PUSH delivers messages of a message broker's connector"
                f" ({', '.join(PUSHABLE)}); {conn.connector} produces its own rows in rwshim"
                if conn.connector in ("datagen", "posix_fs")
                else f"RWSHIM PUSH delivers messages of a message broker's connector"
                f" ({', '.join(PUSHABLE)}), not {conn.connector}"
            )
        plan = self.plan(rel, conn)
        fmt = plan.decoder.fmt
        if rel.kind == RelKind.SOURCE and fmt != "PLAIN":
            raise unsupported(
                f"RWSHIM PUSH into a source of FORMAT {fmt}: a source keeps no rows to update"
                " or delete in rwshim (use a table with the connector)"
            )
        startup = str(conn.options.get("scan.startup.mode", "earliest")).lower()
        if rel.kind == RelKind.SOURCE and startup != "earliest":
            raise unsupported(
                f"RWSHIM PUSH into a source with scan.startup.mode = '{startup}': rwshim's"
                " materialized views over a source read it from the earliest message"
            )
        part = "0" if partition is None else partition
        delivered = [
            Message(key, payload, part, self.next_offset(rel.id, part), now_ms)
            for key, payload in messages
        ]
        return await self.deliver(plan, delivered)

    async def deliver(self, plan: Plan, messages: Sequence[Message]) -> int:
        """Decode and write ``messages`` in the epoch's transaction; the number skipped."""
        rel = plan.rel
        decoded: list[tuple[Message, list[decode.RowOp]]] = []
        skipped = 0
        for msg in messages:
            try:
                ops = plan.decoder.decode(msg.key, msg.payload)
            except decode.DecodeError as e:
                self._skip(rel, msg, str(e))
                skipped += 1
                continue
            if ops:
                decoded.append((msg, ops))
        if not decoded:
            return skipped
        await self.plane.ready()
        await self.plane.ensure([rel.id])
        failed: list[tuple[Message, str]] = []

        async def statement(pg: PgConn) -> None:
            for msg, ops in decoded:
                why = await _write(pg, plan, ops, msg)
                if why is not None:
                    failed.append((msg, why))

        await self.plane.epochs.run(rel.database_id, rel.id, self._open, _setup, statement)
        for msg, why in failed:
            self._skip(rel, msg, why)
        return skipped + len(failed)

    def _skip(self, rel: Relation, msg: Message, why: str) -> None:
        """mod.rs:449-491: logged and counted, the message skipped."""
        self.errors[rel.id] = self.errors.get(rel.id, 0) + 1
        log.error(
            "failed to parse message, skipping: source %s split %s offset %s: %s",
            rel.name, msg.partition, msg.offset, why,
        )  # fmt: skip

    async def _open(self) -> PgConn:
        try:
            return await PgConn.connect(self.plane.data_conninfo())
        except Exception as e:
            raise RwError(f"the data plane's PostgreSQL is unavailable: {e}") from None


async def _write(pg: PgConn, plan: Plan, ops: list[decode.RowOp], msg: Message) -> str | None:
    """One message's row operations under a savepoint; a value PostgreSQL cannot read as its
    column's type (the texts decode.py leaves to it: dates, times, intervals, ...) is NULL
    unless it is a key column, as chunk_builder.rs:287-305 pads; the failure, else None."""
    stmts = [s for op in ops for s in row_statements(plan, op, msg)]
    try:
        await pg.script(";\n".join(["SAVEPOINT m", *stmts, "RELEASE SAVEPOINT m"]))
        return None
    except PgFailure as e:
        await pg.script("ROLLBACK TO SAVEPOINT m; RELEASE SAVEPOINT m")
        why = e.error.message
    types = {c.name: typemap.column_type(c.type_oid, c.rw_type) for c in plan.rel.columns}
    keys = set(plan.rel.primary_key)
    padded: list[decode.RowOp] = []
    for op in ops:
        values = dict(op.values)
        for name, v in op.values.items():
            if not isinstance(v, str) or name not in types:
                continue
            try:
                await pg.script(
                    f"SAVEPOINT c; SELECT {sql_value(v, types[name])}; RELEASE SAVEPOINT c"
                )
            except PgFailure:
                await pg.script("ROLLBACK TO SAVEPOINT c; RELEASE SAVEPOINT c")
                if name in keys:
                    return why  # a key column's error fails the row
                log.warning("failed to parse non-pk column, padding with `NULL`: %s", name)
                values[name] = None
        padded.append(decode.RowOp(op.op, values, op.old))
    if padded == ops:
        return why
    stmts = [s for op in padded for s in row_statements(plan, op, msg)]
    try:
        await pg.script(";\n".join(["SAVEPOINT m", *stmts, "RELEASE SAVEPOINT m"]))
        return None
    except PgFailure as e:
        await pg.script("ROLLBACK TO SAVEPOINT m; RELEASE SAVEPOINT m")
        return e.error.message


async def _setup(conn: PgConn) -> None:
    await conn.script(
        f"SET search_path = {names.SEARCH_PATH}; SET DateStyle = ISO;"
        " SET IntervalStyle = postgres; SET extra_float_digits = 1"
    )
