"""No input crashes the process: a statement nested too deep for the parsers' stacks is refused
before pglast or lark sees it (rwshim/sql/limits.py), on every path that parses SQL, and
parameters nested too deep are refused by their decoders.  The server runs in a child
process: on the failure this guards against (a segmentation fault inside pglast) the server
dies, and the test must not die with it."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import psycopg
import pytest

from rwshim.sql.limits import MAX_DEPTH
from tests import wirekit as fe
from tests.rel.serverproc import ServerProcess

# 25,000 terms: past what pglast survives on the main thread's 8 MiB stack.
TERMS = 25_000
DEEP_SUM = "+".join(["1"] * TERMS)
TOO_DEEP = "stack depth limit exceeded"


def simple(envelope: str) -> str:
    return f"{envelope}\n\nCaused by:\n  {TOO_DEEP}"  # psycopg drops the last newline


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    sp = ServerProcess()
    with sp.connect() as c:
        c.execute("CREATE TABLE t (v int)")
    yield sp
    sp.kill()


def _refused(server: ServerProcess, sql: str, *, prepare: bool = False) -> psycopg.Error:
    with server.connect() as c:
        with pytest.raises(psycopg.Error) as e:
            c.execute(sql, prepare=prepare)
        # The session and the server go on.
        assert c.execute("SELECT 1").fetchone() == (1,)
    assert server.alive()
    return e.value


@pytest.mark.parametrize(
    "sql",
    [
        f"SELECT {DEEP_SUM}",
        f"SELECT {'(' * TERMS}1{')' * TERMS}",
        f"INSERT INTO t VALUES ({DEEP_SUM})",
        f"CREATE MATERIALIZED VIEW m AS SELECT {DEEP_SUM} AS s",
        # the lark grammar path: a RisingWave statement around a deep query
        f"CREATE SINK s AS SELECT {DEEP_SUM} AS s WITH (connector = 'blackhole')",
        f"ALTER TABLE t ADD COLUMN w int DEFAULT {DEEP_SUM}",
        f"SELECT {'ARRAY[' * TERMS}1{']' * TERMS}",
        f"EXPLAIN SELECT {DEEP_SUM}",
        f"{'EXPLAIN ' * 2000}SELECT 1",
    ],
    ids=["sum", "parens", "insert", "mv", "sink", "alter", "arrays", "explain", "explains"],
)
def test_too_deep_simple_query(server: ServerProcess, sql: str) -> None:
    e = _refused(server, sql)
    assert (e.sqlstate, str(e)) == ("54001", simple("Failed to run the query"))


def test_too_deep_parse_message(server: ServerProcess) -> None:
    e = _refused(server, f"SELECT {DEEP_SUM}", prepare=True)
    assert (e.sqlstate, str(e)) == ("54001", simple("Failed to prepare the statement"))


def test_depth_at_the_limit_is_parsed(server: ServerProcess) -> None:
    # Just inside the bound: parsed as usual, and the answer is the binder's (the sum has
    # no alias), not the depth error.
    terms = "+".join(["v"] * (MAX_DEPTH - 10))
    with server.connect() as c:
        with pytest.raises(psycopg.Error) as e:
            c.execute(f"CREATE MATERIALIZED VIEW m2 AS SELECT {terms} FROM t")
        assert str(e.value) == (
            "Failed to run the query\n\nCaused by:\n  Bind error: An alias must be specified "
            "for the 1st expression (counting from 1) in result relation"
        )
    assert server.alive()


def test_nested_explains_under_the_limit_are_parsed_without_recursion(
    server: ServerProcess,
) -> None:
    # 990 EXPLAINs passed Python's recursion limit in the parser (a RecursionError); now
    # they are peeled in a loop and the answer is RisingWave's for EXPLAIN of an EXPLAIN
    # (explain.rs:260, the inner statement as its Display prints it).
    e = _refused(server, f"{'EXPLAIN ' * 990}SELECT 1")
    assert str(e) == (
        "Failed to run the query\n\nCaused by:\n  Feature is not yet implemented: "
        f"unsupported statement for EXPLAIN: {'EXPLAIN ' * 989}SELECT 1\n"
        "No tracking issue yet. Feel free to submit a feature request at "
        "https://github.com/risingwavelabs/risingwave/issues/new?labels=type%2Ffeature"
        "&template=feature_request.yml"
    )


def test_long_flat_lists_are_not_deep(server: ServerProcess) -> None:
    # Lists cost no depth: 5,000 rows of VALUES, an IN list of 5,000.
    rows = ", ".join(f"({i})" for i in range(5000))
    items = ", ".join(str(i) for i in range(5000))
    with server.connect() as c:
        assert c.execute(f"INSERT INTO t VALUES {rows}").statusmessage == "INSERT 0 5000"
        c.execute("FLUSH")
        assert c.execute(f"SELECT count(*) FROM t WHERE v IN ({items})").fetchone() == (5000,)


def _bind_error(server: ServerProcess, oid: int, value: bytes) -> dict[str, str]:
    """Parse/Bind/Execute/Sync of ``SELECT $1`` with one text parameter: the ErrorResponse
    fields of the Bind, after which the session still answers."""
    s = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    buf = b""

    def until_ready() -> list[fe.Msg]:
        nonlocal buf
        while not buf.endswith(b"Z\x00\x00\x00\x05I"):
            data = s.recv(65536)
            assert data, "the server closed the connection"
            buf += data
        msgs, buf = fe.split(buf), b""
        return msgs

    s.sendall(fe.startup({"user": "root", "database": "dev"}))
    until_ready()
    s.sendall(
        fe.parse("", "SELECT $1", [oid]) + fe.bind("", "", [value]) + fe.execute("") + fe.SYNC
    )
    errors = [m.fields() for m in until_ready() if m.tag == "E"]
    s.sendall(fe.query("SELECT 1"))
    assert [m.tag for m in until_ready()] == ["T", "D", "C", "Z"]
    s.close()
    assert len(errors) == 1, errors
    return errors[0]


def test_deeply_nested_array_parameter(server: ServerProcess) -> None:
    deep = "{" * TERMS + "1" + "}" * TERMS
    err = _bind_error(server, 1007, deep.encode())  # int4[]
    # RisingWave reads an int4[] parameter as one level (DataType::from_oid), so the second
    # brace is an unexpected character (list_array.rs:836).
    assert err["M"] == 'Unexpected "{" character.'


def test_deeply_nested_json_parameter(server: ServerProcess) -> None:
    deep = "[" * TERMS + "]" * TERMS
    err = _bind_error(server, 3802, deep.encode())  # jsonb
    # serde_json's recursion limit (128), at the 128th bracket.
    assert err["M"] == "recursion limit exceeded at line 1 column 128"
    assert server.alive()
