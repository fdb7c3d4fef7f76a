"""The protocol session over the real Frontend, driven with bytes (no sockets)."""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Iterator, Sequence

import pytest

from rwshim.common import pgtypes
from rwshim.common.outcome import Column, Outcome
from rwshim.errors import RwError
from rwshim.frontend import Description, Frontend, Statement
from rwshim.instance import Instance
from rwshim.server.registry import SessionRegistry
from rwshim.server.session import ProcessInfo, Session
from rwshim.wire.connection import ServerConnection
from tests import wirekit as fe
from tests.wirekit import Msg, split, tags

ENVELOPE_RUN = "Failed to run the query\n\nCaused by:\n  "
ENVELOPE_PREPARE = "Failed to prepare the statement\n\nCaused by:\n  "
ENVELOPE_EXECUTE = "Failed to execute the statement\n\nCaused by:\n  "


def make_session(frontend: Frontend | None = None) -> Session:
    conn = ServerConnection()
    conn.receive_data(fe.startup({"user": "root"}))
    conn.next_event()
    conn.authenticated()
    registry = SessionRegistry()
    process = registry.new_process("root", "dev", "test", "")
    return Session(conn, frontend or Frontend(Instance(), "root", "dev"), process)


async def run(session: Session, data: bytes) -> list[Msg]:
    session.conn.receive_data(data)
    while (e := session.conn.next_event()) is not None:
        if not await session.handle(e):
            break
    return split(session.take_output())


def error(m: Msg) -> dict[str, str]:
    assert m.tag == "E", m
    return m.fields()


async def test_simple_query_several_statements() -> None:
    s = make_session()
    msgs = await run(s, fe.query("select 1 as a; select 'x' as b, 2.5 as c"))
    assert tags(msgs) == "TDCTDCZ"
    assert [c[0] for c in msgs[0].columns()] == ["a"]
    assert msgs[0].columns()[0][1:] == (0, 0, pgtypes.INT4, 4, -1, 0) or msgs[0].columns()[0][
        1:3
    ] == (0, 0)
    assert msgs[1].row() == [b"1"]
    assert msgs[2].text() == "SELECT 1"
    assert msgs[4].row() == [b"x", b"2.5"]
    assert msgs[-1].body == b"I"


async def test_empty_query() -> None:
    s = make_session()
    assert tags(await run(s, fe.query("  ;  "))) == "IZ"


async def test_syntax_error_is_risingwaves_envelope_and_stops_the_rest() -> None:
    s = make_session()
    msgs = await run(s, fe.query("selet 1"))
    assert tags(msgs) == "EZ"
    assert error(msgs[0]) == {
        "S": "ERROR",
        "C": "XX000",
        "M": ENVELOPE_RUN
        + "sql parser error: expected statement, found: selet\nLINE 1: selet 1\n        ^\n",
    }
    msgs = await run(s, fe.query("select 1; select nosuchcolumn; select 3"))
    assert tags(msgs) == "TDCEZ"
    assert error(msgs[3])["M"] == (
        "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Failed to bind expression: nosuchcolumn\n"
        "  2: Item not found: Invalid column: nosuchcolumn\n"
    )


async def test_begin_sends_risingwaves_notice_and_stays_idle() -> None:
    s = make_session()
    msgs = await run(s, fe.query("BEGIN"))
    assert tags(msgs) == "NCZ"
    assert msgs[0].fields() == {
        "S": "NOTICE",
        "C": "00000",
        "M": "Read-write transaction is not supported yet. Please specify `READ ONLY` to start "
        "a read-only transaction.\nFor compatibility, this statement will still succeed but no "
        "transaction is actually started.",
    }
    assert msgs[1].text() == "BEGIN"
    assert msgs[2].body == b"I"
    msgs = await run(s, fe.query("begin read only"))
    assert msgs[-1].body == b"T"
    msgs = await run(s, fe.query("commit"))
    assert (msgs[0].text(), msgs[-1].body) == ("COMMIT", b"I")


async def test_set_application_name_sends_no_parameter_status() -> None:
    # RisingWave's reporter compares the key with "APPLICATION_NAME" while the config reports
    # "application_name" (handler/variable.rs:62-68), so nothing is re-reported.
    s = make_session()
    msgs = await run(s, fe.query("set application_name = 'x1'; show application_name"))
    assert tags(msgs) == "CTDCZ"
    assert msgs[0].text() == "SET_VARIABLE"
    assert msgs[2].row() == [b"x1"]


async def test_extended_binary_parameters_and_results() -> None:
    s = make_session()
    data = (
        fe.parse("s1", "select $1::int4 + 1 as n, $2::text as t")
        + fe.describe("S", "s1")
        + fe.bind("", "s1", [struct.pack("!i", 41), b"hi"], [1, 0], [1])
        + fe.describe("P", "")
        + fe.execute("")
        + fe.SYNC
    )
    msgs = await run(s, data)
    assert tags(msgs) == "1tT2TDCZ"
    # RisingWave has one string type: `::text` parameters are described as varchar.
    assert msgs[1].param_oids() == [pgtypes.INT4, pgtypes.VARCHAR]
    assert [c[6] for c in msgs[2].columns()] == [0, 0]  # Describe S: text formats
    assert [c[6] for c in msgs[4].columns()] == [1, 1]  # Describe P: the Bind's formats
    assert msgs[5].row() == [struct.pack("!i", 42), b"hi"]
    assert msgs[6].text() == "SELECT 1"


async def test_describe_of_non_query_is_nodata() -> None:
    s = make_session()
    msgs = await run(s, fe.parse("", "set x = 1") + fe.describe("S", "") + fe.SYNC)
    assert tags(msgs) == "1tnZ"


class LazyFrontend(Frontend):
    """Rows come from a generator; the test checks how far it was pulled."""

    pulled: int = 0

    def describe(self, stmt: Statement, param_oids: list[int]) -> object:  # type: ignore[override]
        from rwshim.frontend import Description

        return Description([], [Column("n", pgtypes.INT8)])

    async def execute(self, stmt: Statement, params: list[object]) -> Outcome:
        def gen() -> Iterator[Sequence[object]]:
            for i in range(5):
                LazyFrontend.pulled = i + 1
                yield (i,)

        return Outcome("SELECT", [Column("n", pgtypes.INT8)], gen(), count_rows=True)


async def test_row_limited_execute_suspends_and_pulls_lazily() -> None:
    s = make_session(LazyFrontend(Instance(), "root", "dev"))
    LazyFrontend.pulled = 0
    msgs = await run(s, fe.parse("", "select n") + fe.bind("p", "") + fe.execute("p", 2) + fe.SYNC)
    assert tags(msgs) == "12DDsZ"
    assert LazyFrontend.pulled == 2
    msgs = await run(s, fe.execute("p", 2) + fe.execute("p", 2) + fe.SYNC)
    assert tags(msgs) == "DDsDCZ"
    assert [m.row() for m in msgs if m.tag == "D"] == [[b"2"], [b"3"], [b"4"]]
    # RisingWave counts the rows of the last Execute (pg_extended.rs:131-137).
    assert msgs[4].text() == "SELECT 1"
    # Exhausted: the portal stays, and a new Execute runs the statement again (RisingWave).
    msgs = await run(s, fe.execute("p", 0) + fe.SYNC)
    assert tags(msgs) == "DDDDDCZ"
    assert msgs[5].text() == "SELECT 5"


async def test_parse_errors_use_prepare_envelope_and_skip_until_sync() -> None:
    s = make_session()
    msgs = await run(
        s,
        fe.parse("a", "select 1")
        + fe.parse("a", "select 2")
        + fe.bind("", "a")
        + fe.execute("")
        + fe.SYNC
        + fe.query("select 5"),
    )
    assert tags(msgs) == "1EZTDCZ"
    assert error(msgs[1]) == {
        "S": "ERROR",
        "C": "XX000",
        "M": ENVELOPE_PREPARE + "Duplicated statement name\n",
    }
    msgs = await run(s, fe.parse("", "select $1", [2950]) + fe.SYNC)
    assert error(msgs[0])["M"] == ENVELOPE_PREPARE + "Unsupported oid 2950\n"
    msgs = await run(s, fe.parse("", "select $1", [25, 0, 1009, -1]) + fe.SYNC)
    assert error(msgs[0])["M"] == ENVELOPE_PREPARE + "Unsupported oid -1\n"
    msgs = await run(s, fe.parse("", "select 1; select 2") + fe.SYNC)
    assert error(msgs[0])["M"] == ENVELOPE_PREPARE + (
        "Only one statement is allowed in extended query mode\n"
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (fe.bind("", "nope"), "Prepare statement nope not found"),
        (fe.bind("", ""), "unnamed prepare statement not found"),
        (fe.describe("S", "nope"), "Prepare statement nope not found"),
        (fe.describe("P", "nope"), "Portal nope not found"),
        (fe.execute("nope"), "Portal nope not found"),
        (fe.execute(""), "unnamed portal not found"),
        (
            fe.parse("s", "select 1") + fe.bind("", "s", result_formats=[2]),
            "Unknown format code: 2",
        ),
        (
            fe.parse("s", "select 1") + fe.bind("p", "s") + fe.bind("p", "s"),
            "Duplicated portal name",
        ),
        (
            fe.parse("s", "select $1::int4") + fe.bind("", "s", []),
            'bind message supplies 0 parameters, but prepared statement "s" requires 1',
        ),
        # RisingWave parses a text parameter with ScalarImpl::from_text (types/mod.rs:1141):
        # Rust's i32::from_str, its error text as the whole message (bind_param.rs:77-112)
        (
            fe.parse("s", "select $1::int4") + fe.bind("", "s", [b"x"]),
            "invalid digit found in string",
        ),
        (
            fe.parse("s", "select $1::date") + fe.bind("", "s", [b"2024-07-01 +00"]),
            "Can't cast string to date (expected format is YYYY-MM-DD)",
        ),
        (
            fe.parse("s", "select $1::int4") + fe.bind("", "s", [b"xy"], [1]),
            "incorrect binary data format in bind parameter 1",
        ),
    ],
)
async def test_bind_describe_execute_errors_have_no_envelope(data: bytes, message: str) -> None:
    s = make_session()
    msgs = await run(s, data + fe.bind("", "") + fe.SYNC)
    errors = [m for m in msgs if m.tag == "E"]
    assert len(errors) == 1  # the trailing Bind was skipped
    assert errors[0].fields() == {"S": "ERROR", "C": errors[0].fields()["C"], "M": message}
    assert msgs[-1].tag == "Z"


async def test_close_statement_closes_its_portals() -> None:
    s = make_session()
    msgs = await run(
        s,
        fe.parse("s", "select 1")
        + fe.bind("p", "s")
        + fe.close("S", "s")
        + fe.close("S", "never-existed")
        + fe.execute("p")
        + fe.SYNC,
    )
    assert tags(msgs) == "1233EZ"
    assert error(msgs[4])["M"] == "Portal p not found"


class BrokenFrontend(Frontend):
    async def execute(self, stmt: Statement, params: list[object]) -> Outcome:
        if "boom" in stmt.text:
            raise KeyError("boom")
        return await Frontend.execute(self, stmt, params)


async def test_unexpected_exception_is_an_error_not_a_dropped_connection() -> None:
    s = make_session(BrokenFrontend(Instance(), "root", "dev"))
    msgs = await run(s, fe.query("select 'boom'") + fe.query("select 1"))
    assert tags(msgs) == "EZTDCZ"
    assert error(msgs[0]) == {
        "S": "ERROR",
        "C": "XX000",
        "M": ENVELOPE_RUN + "internal error: the statement could not be executed\n",
    }
    msgs = await run(s, fe.parse("", "select 'boom'") + fe.bind("", "") + fe.execute("") + fe.SYNC)
    assert tags(msgs) == "12EZ"
    # The exception's name and text go to the log, never to the client.
    assert error(msgs[2])["M"] == (
        ENVELOPE_EXECUTE + "internal error: the statement could not be executed\n"
    )


async def test_errors_carry_their_sqlstate() -> None:
    class NotFound(Frontend):
        async def execute(self, stmt: Statement, params: list[object]) -> Outcome:
            from rwshim.errors import CatalogNotFound

            raise CatalogNotFound("table", "t")

    s = make_session(NotFound(Instance(), "root", "dev"))
    msgs = await run(s, fe.query("select 1"))
    assert error(msgs[0]) == {
        "S": "ERROR",
        "C": "42704",
        "M": ENVELOPE_RUN.replace(
            "Caused by:\n  ", "Caused by these errors (recent errors listed first):\n"
        )
        + "  1: Catalog error\n  2: table not found: t\n",
    }


async def test_cancel_interrupts_the_running_statement() -> None:
    s = make_session()
    task = asyncio.create_task(run(s, fe.query("select pg_sleep(30)")))
    await asyncio.sleep(0.05)
    assert s.process.active and s.process.statement == "select pg_sleep(30)"
    assert s.cancel()
    msgs = await asyncio.wait_for(task, 5)
    assert tags(msgs) == "EZ"
    assert error(msgs[0]) == {
        "S": "ERROR",
        "C": "57014",
        "M": "canceling statement due to user request",
    }
    assert not s.cancel()  # nothing runs now
    assert tags(await run(s, fe.query("select 1"))) == "TDCZ"


async def test_registry_cancel_checks_the_key() -> None:
    registry = SessionRegistry()
    s = make_session()
    s.process = registry.new_process("root", "dev", "x", "")
    registry.add(s)
    task = asyncio.create_task(run(s, fe.query("select pg_sleep(30)")))
    await asyncio.sleep(0.05)
    assert not registry.cancel(s.process.pid, s.process.key ^ 1)
    assert not registry.cancel(s.process.pid + 1, s.process.key)
    assert registry.cancel(s.process.pid, s.process.key)
    assert tags(await asyncio.wait_for(task, 5)) == "EZ"
    assert [p.pid for p in registry.processes()] == [s.process.pid]
    task = asyncio.create_task(run(s, fe.query("select pg_sleep(30)")))
    await asyncio.sleep(0.05)
    assert registry.kill(s.process.pid)
    assert not registry.kill(s.process.pid + 1)
    assert tags(await asyncio.wait_for(task, 5)) == "EZ"
    registry.remove(s)
    assert len(registry) == 0


async def test_rows_that_cannot_be_encoded_are_errors() -> None:
    class BadRows(Frontend):
        async def execute(self, stmt: Statement, params: list[object]) -> Outcome:
            return Outcome("SELECT", [Column("n", pgtypes.INT2)], [(1,), (70000,)], count_rows=True)

    s = make_session(BadRows(Instance(), "root", "dev"))
    msgs = await run(
        s, fe.parse("", "select 1") + fe.bind("", "", result_formats=[1]) + fe.execute("") + fe.SYNC
    )
    assert tags(msgs) == "12DEZ"
    assert error(msgs[3])["M"] == ENVELOPE_EXECUTE + "smallint out of range\n"


def test_process_info_defaults() -> None:
    p = ProcessInfo(1, 2, "u", "d", "addr")
    assert (p.statement, p.active) == (None, False)


async def test_flush_and_terminate() -> None:
    s = make_session()
    msgs = await run(s, fe.parse("", "select 1") + fe.FLUSH)
    assert tags(msgs) == "1"
    assert not await s.handle(__import__("rwshim.wire.events", fromlist=["x"]).Terminate())


def test_rwerror_report_shape_for_reference() -> None:
    assert RwError("a", "b").report(None) == "a\n\nCaused by:\n  b\n"


async def test_large_results_are_flushed_while_streaming() -> None:
    flushed: list[int] = []
    s = make_session()

    async def flush() -> None:
        flushed.append(len(s.take_output()))

    s._flush_cb = flush
    sql = (
        "with recursive c(x) as (select 1 union all select x + 1 from c where x < 50000) "
        "select x, 'padding-padding-padding' as p from c"
    )
    msgs = await run(s, fe.query(sql))
    assert len(flushed) >= 2 and all(n >= 256 * 1024 for n in flushed)
    assert msgs[-2].text() == "SELECT 50000"


async def test_fatal_error_from_the_frontend_ends_the_connection() -> None:
    from rwshim.errors import FatalError

    class Fatal(Frontend):
        async def execute(self, stmt: Statement, params: list[object]) -> Outcome:
            raise FatalError(
                "terminating connection due to administrator command", sqlstate="57P01"
            )

    s = make_session(Fatal(Instance(), "root", "dev"))
    s.conn.receive_data(fe.query("select 1") + fe.query("select 2"))
    event = s.conn.next_event()
    assert event is not None
    assert not await s.handle(event)
    msgs = split(s.take_output())
    assert tags(msgs) == "E"
    assert error(msgs[0]) == {
        "S": "FATAL",
        "C": "57P01",
        "M": "terminating connection due to administrator command",
    }


async def test_copy_to_stdout_as_risingwave_writes_it() -> None:
    class Copy(Frontend):
        def parse(self, sql: str) -> list[Statement]:
            return [Statement(sql)]

        def describe(self, stmt: Statement, param_oids: list[int]) -> Description:
            return Description([], [Column("a", pgtypes.INT4), Column("b", pgtypes.TEXT)])

        async def execute(self, stmt: Statement, params: list[object]) -> Outcome:
            cols = [Column("a", pgtypes.INT4), Column("b", pgtypes.TEXT)]
            rows = [(1, "x\ty"), (None, "back\\slash\nnl")]
            return Outcome("COPY", cols, rows, count_rows=True, copy_out=True)

    s = make_session(Copy(Instance(), "root", "dev"))
    msgs = await run(s, fe.query("copy t to stdout"))
    assert tags(msgs) == "HddcCZ"
    assert msgs[0].body == b"\x00\x00\x02\x00\x00\x00\x00"
    assert [m.body for m in msgs[1:3]] == [b"1\tx\\ty\n", b"\tback\\\\slash\\nnl\n"]
    assert msgs[4].text() == "COPY 2"
    msgs = await run(s, fe.parse("", "copy t to stdout") + fe.bind("", "") + fe.execute("", 1))
    assert tags(msgs) == "12HddcC"  # the row limit does not apply to COPY


async def test_cancel_while_the_client_reads_a_large_result_slowly() -> None:
    s = make_session()
    blocked = asyncio.Event()

    async def slow_client_flush() -> None:
        s.take_output()
        blocked.set()
        await asyncio.sleep(30)  # the client does not read

    s._flush_cb = slow_client_flush
    sql = (
        "with recursive c(x) as (select 1 union all select x + 1 from c where x < 100000) "
        "select x, 'padding-padding' from c"
    )
    task = asyncio.create_task(run(s, fe.query(sql)))
    await asyncio.wait_for(blocked.wait(), 5)
    assert s.cancel()
    msgs = await asyncio.wait_for(task, 5)
    assert tags(msgs)[-2:] == "EZ"
    assert error(msgs[-2])["C"] == "57014"


async def test_wrong_number_of_result_formats_fails_at_execute() -> None:
    s = make_session()
    data = fe.parse("", "select 1, 2") + fe.bind("", "", result_formats=[1, 1, 1])
    msgs = await run(s, data + fe.execute("") + fe.SYNC)
    assert tags(msgs) == "12EZ"
    assert error(msgs[2])["M"] == ENVELOPE_EXECUTE + (
        "internal error: format codes length 3 is not 0, 1 or equal to actual length 2\n"
    )
