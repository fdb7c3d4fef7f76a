"""SQL fuzzing over a live connection: every statement form of the SQL front end's tables
(tests/unit/sql/cases.py) and the spec's, mutated token by token, sent to a server holding
one of each object kind.  Each gets a result or an ERROR in RisingWave's form; the
connection stays usable; no traceback or SQLite text reaches the client; the catalog
invariants (tests/rel/invariants.py) hold after every batch."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as hs

from tests import wirekit as fe
from tests.conftest import ThreadRunning, ThreadServer, _config
from tests.rel.invariants import violations
from tests.rel.leaks import internal_text
from tests.rel.liveclient import Client, errors
from tests.unit.sql import cases

SETUP = [
    "CREATE TABLE IF NOT EXISTS t (a int, b varchar)",
    "INSERT INTO t VALUES (1, 'x'), (2, 'y')",
    "CREATE MATERIALIZED VIEW IF NOT EXISTS m AS SELECT a, count(*) AS n FROM t GROUP BY a",
    "CREATE INDEX IF NOT EXISTS i ON t (b)",
    "CREATE SINK IF NOT EXISTS s FROM m WITH (connector = 'blackhole')",
    "CREATE VIEW IF NOT EXISTS v AS SELECT * FROM m",
    "CREATE SCHEMA IF NOT EXISTS s",
    "CREATE TABLE IF NOT EXISTS s.t (a int PRIMARY KEY)",
    "CREATE SOURCE IF NOT EXISTS src (a int) WITH (connector = 'datagen') FORMAT PLAIN ENCODE JSON",
]
# What a mutated statement may have changed cluster-wide, put back after each batch.
RESET = [
    "ALTER SYSTEM RESUME",
    "ALTER SYSTEM SET barrier_interval_ms TO DEFAULT",
    "ALTER DATABASE dev SET barrier_interval_ms TO DEFAULT",
]
SPEC_FORMS = [
    "ALTER MATERIALIZED VIEW m SET PARALLELISM = 2",
    "ALTER MATERIALIZED VIEW m SET BACKFILL_RATE_LIMIT = 10",
    "ALTER TABLE t SET PARALLELISM TO adaptive",
    "ALTER SINK s SET PARALLELISM = 1 DEFERRED",
    "ALTER INDEX i SET PARALLELISM = 3",
    "CANCEL JOBS 1, 2",
    "SHOW JOBS",
    "SELECT * FROM rw_catalog.rw_fragments",
    "SELECT * FROM rw_catalog.rw_ddl_progress",
    "SELECT relname FROM pg_catalog.pg_class WHERE relnamespace = 2200",
    "SELECT * FROM information_schema.tables WHERE table_schema = 'public'",
    "DESCRIBE m",
    "SHOW CREATE MATERIALIZED VIEW m",
    "ALTER TABLE t RENAME TO t",
    "ALTER MATERIALIZED VIEW m RENAME TO m2",
    "DROP MATERIALIZED VIEW IF EXISTS m2 CASCADE",
    "SELECT a, n FROM m ORDER BY a",
    "UPDATE t SET b = 'z' WHERE a = 1",
    "DELETE FROM t WHERE a > 100",
]
CORPUS = sorted(
    {text for text, _ in cases.ALL_PARSE_CASES}
    | {text for text, _ in cases.TAG_CASES}
    | {text for text, _ in cases.PARSE_ERRORS}
    | set(SETUP)
    | set(SPEC_FORMS)
)
TOKEN = re.compile(r"'(?:[^']|'')*'?|\"[^\"]*\"?|\w+|\S")
POOL = [
    "(", ")", ",", ";", "'", '"', "=", "TO", "SET", "NULL", "DEFAULT", "-1", "0", "1",
    "99999999999999999999", "1e400", "'adaptive'", "'bounded(0)'", "'ratio(2)'", "t", "m",
    "s", "i", "v", "src", "pg_catalog", "rw_catalog", "IF", "NOT", "EXISTS", "CASCADE",
    "DEFERRED", "ONLY", "$1", "::", "int", "varchar", "'\u00e9\u00df'", "'\x00'", "ALL", "*",
    "PARALLELISM", "RATE_LIMIT", "WITH", "AS", "SELECT", "FROM", "ORDER", "BY", "--", "/*",
]  # fmt: skip
# The texts a client may see: RisingWave's envelope for statement errors, plus the
# PostgreSQL-level errors a session itself gives.
ERROR_FORM = re.compile(
    r"Failed to run the query\n\n"
    r"Caused by(:\n  | these errors \(recent errors listed first\):\n  1: ).+"
    r"|canceling statement due to user request"
    r"|current transaction is aborted, commands ignored until end of transaction block",
    re.DOTALL,
)
LEAKS = ("Traceback", "sqlite", "internal error", "no such table", 'near "', "Error:")
# RisingWave's own texts that say "internal error" (ErrorCode::InternalError): not leaks
RISINGWAVE_INTERNAL = re.compile(
    r"internal error: Cannot find cursor `[^`]*`"  # session/cursor_manager.rs:1202-1210
)
COUNTS = {"statements": 0, "errors": 0, "results": 0, "cancelled": 0, "batches": 0}


@hs.composite
def mutated(draw: hs.DrawFn) -> str:
    tokens = TOKEN.findall(draw(hs.sampled_from(CORPUS)))
    for _ in range(draw(hs.integers(0, 3))):
        op = draw(hs.sampled_from(["drop", "dup", "swap", "replace", "insert", "cut", "case"]))
        if not tokens:
            tokens = [draw(hs.sampled_from(POOL))]
            continue
        k = draw(hs.integers(0, len(tokens) - 1))
        if op == "drop":
            del tokens[k]
        elif op == "dup":
            tokens.insert(k, tokens[k])
        elif op == "swap" and k + 1 < len(tokens):
            tokens[k], tokens[k + 1] = tokens[k + 1], tokens[k]
        elif op == "replace":
            tokens[k] = draw(hs.sampled_from(POOL))
        elif op == "insert":
            tokens.insert(k, draw(hs.sampled_from(POOL) | hs.text(min_size=1, max_size=3)))
        elif op == "cut":
            tokens = tokens[:k]
        elif op == "case":
            tokens[k] = tokens[k].swapcase()
    return " ".join(tokens)


@pytest.fixture(scope="module")
def live() -> Iterator[ThreadRunning]:
    config, factory = _config({})
    ts = ThreadServer(config, factory)
    yield ThreadRunning(ts.server, ts.server.host, ts.server.port, ts)
    ts.stop()


def _invariants(live: ThreadRunning) -> list[str]:
    assert live.thread is not None and live.server.instance is not None
    conn = live.server.instance.conn
    return list(live.thread.call(lambda: violations(conn)))


def _check(sql: str, msgs: list[fe.Msg]) -> None:
    assert msgs and msgs[-1].tag == "Z", (sql, fe.tags(msgs))
    for m in msgs:
        if m.tag in "EN":
            text = RISINGWAVE_INTERNAL.sub("", "\n".join(m.fields().values()))
            assert not any(leak in text for leak in LEAKS), (sql, text)
            assert internal_text(text) is None, (sql, text)
    for e in errors(msgs):
        assert e["S"] == "ERROR", (sql, e)
        assert re.fullmatch(r"[0-9A-Z]{5}", e["C"]), (sql, e)
        assert ERROR_FORM.fullmatch(e["M"]), (sql, e)


@settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(batch=hs.lists(mutated(), min_size=1, max_size=6))
def test_mutated_statements_get_risingwave_answers(live: ThreadRunning, batch: list[str]) -> None:
    c = Client(live)
    try:
        for sql in SETUP:
            c.run(sql)
        for sql in batch:
            if "\x00" in sql:
                # RisingWave reads a Query's text as a C string: an interior NUL is an io::Error
                # answered with nothing at all, and the next message is read as usual
                # (pg_message.rs:271-284, pg_protocol.rs:500-506; tests/clients/test_query_nul.py)
                c.sock.sendall(fe.query(sql))
                COUNTS["statements"] += 1
                event("no answer (NUL)")
                msgs, _ = c.run("SELECT 1")
                assert fe.tags(msgs) == "TDCZ" and msgs[1].row() == [b"1"], (sql, msgs)
                continue
            msgs, cancelled = c.run(sql, budget=3)
            COUNTS["statements"] += 1
            COUNTS["cancelled"] += cancelled
            if errors(msgs):
                COUNTS["errors"] += 1
                event("error")
            else:
                COUNTS["results"] += 1
                event("result")
            _check(sql, msgs)
            # Still usable after whatever that was.
            msgs, _ = c.run("ROLLBACK")
            assert errors(msgs) == [], msgs
            msgs, _ = c.run("SELECT 1")
            assert fe.tags(msgs) == "TDCZ" and msgs[1].row() == [b"1"], (sql, msgs)
        for sql in RESET:
            msgs, _ = c.run(sql)
            assert errors(msgs) == [], (sql, errors(msgs))
    finally:
        c.close()
    COUNTS["batches"] += 1
    assert _invariants(live) == []


def test_invariants_catch_a_broken_catalog(live: ThreadRunning) -> None:
    """The checks can fail: a relation stripped of its columns and an orphan fragment."""
    c = Client(live)
    msgs, _ = c.run("CREATE TABLE IF NOT EXISTS broken (a int)")
    assert errors(msgs) == []
    c.close()
    assert live.server.instance is not None
    conn = live.server.instance.conn

    def break_it() -> list[str]:
        conn.execute("SAVEPOINT probe")
        try:
            conn.execute(
                "DELETE FROM relation_column WHERE relation_id ="
                " (SELECT relation_id FROM relation WHERE name = 'broken')"
            )
            conn.execute("UPDATE streaming_job SET job_status = 'INITIAL' WHERE job_id ="
                         " (SELECT relation_id FROM relation WHERE name = 'broken')")  # fmt: skip
            return violations(conn)
        finally:
            conn.execute("ROLLBACK TO probe")
            conn.execute("RELEASE probe")

    assert live.thread is not None
    found = live.thread.call(break_it)
    assert [f.split(":")[0] for f in found] == ["relation without columns", "job left INITIAL"]
    assert _invariants(live) == []
