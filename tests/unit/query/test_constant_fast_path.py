"""The constant-SELECT fast path agrees with the binder, and start-up does not import sqlglot.

``_constant_select`` answers ``SELECT 1``-style statements without sqlglot; each case here is
run through both it and the binder over the same SQLite connection, and the column names,
types, rows and errors must be the same.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from rwshim.binder.context import QueryContext
from rwshim.binder.parse import parse
from rwshim.catalog_path import engine as qe
from rwshim.catalog_path.engine import QueryEngine
from rwshim.errors import RwError

FAST = [
    "SELECT 1",
    "select 1",
    "  SELECT   1  ",
    "SELECT 1;",
    "SELECT 0",
    "SELECT -1",
    "SELECT -0",
    "SELECT 007",
    "SELECT 2147483647",
    "SELECT -2147483647",
    "SELECT -2147483648",
    "SELECT 2147483648",
    "SELECT 9223372036854775807",
    "SELECT 'x'",
    "SELECT ''",
    "SELECT 'it''s'",
    "SELECT 'a\\b'",
    "SELECT 'héllo wörld'",
    "SELECT 1, 'a', 2",
    "SELECT 1,2",
    "SELECT 1 + 1",
    "SELECT 1+1",
    "SELECT 5 - 7",
    "SELECT 6 * 7",
    "SELECT 2147483647 + 1",
    "SELECT 0 - 2147483647",
    "SELECT 65536 * 65536",
    "SELECT 1 AS a",
    "SELECT 1 as A",
    'SELECT 1 AS "A b"',
    "SELECT 'x' AS y, 2 AS z",
    "SELECT 1 + 2 AS three",
    "SELECT 1 AS _x1",
]

# Forms the fast path must leave to the binder (it would get them wrong or cannot tell).
DECLINED = [
    "SELECT 1.5",
    "SELECT 9223372036854775808",
    "SELECT -9223372036854775809",
    "SELECT 1 a",
    "SELECT 1 AS from",
    "SELECT 1 AS select",
    "SELECT 1 AS name",
    "SELECT 1 + 2 * 3",
    "SELECT 7 / 2",
    "SELECT -1 + 2",
    "SELECT $1",
    "SELECT E'x'",
    "SELECT 1,",
    "SELECT 1 -- comment",
    "SELECT 1 FROM t",
    "SELECT 2147483648 + 1",
    "SELECT true",
    "SELECT NULL",
    "SELECT 'x'::int",
    "SELECT 1; SELECT 2",
    "VALUES (1)",
]


def _run(conn: sqlite3.Connection, sql: str) -> list[tuple[object, ...]] | str:
    try:
        return [tuple(r) for r in conn.execute(sql).fetchall()]
    except sqlite3.Error as e:
        return f"{type(e).__name__}: {e}"


@pytest.mark.parametrize("sql", FAST)
def test_fast_path_agrees_with_binder(
    sql: str, engine: QueryEngine, conn: sqlite3.Connection, ctx: QueryContext
) -> None:
    fast = qe._constant_select(sql)
    assert fast is not None, sql
    engine.use_context(ctx)
    bound = engine._binder(ctx, []).bind_select(parse(sql))
    assert [(c.name, c.type_oid) for c in fast.columns] == [
        (c.name, c.type_oid) for c in bound.columns
    ]
    assert fast.param_oids == list(bound.param_oids) == []
    assert _run(conn, fast.sql) == _run(conn, bound.sql)


@pytest.mark.parametrize("sql", DECLINED)
def test_fast_path_declines(sql: str) -> None:
    assert qe._constant_select(sql) is None


def test_engine_results_match_for_fast_and_bound(
    engine: QueryEngine, conn: sqlite3.Connection, catalog: object, ctx: QueryContext
) -> None:
    """Through the public API: the answer (columns as a client sees them, decoded rows, the
    error) of each fast case equals that of the same statement forced through the binder
    (a trailing comment keeps it off the fast path)."""
    for sql in FAST:
        if sql.rstrip().endswith(";"):
            continue

        def outcome(text: str) -> object:
            try:
                out = engine.execute(text, [], ctx)
                return (out.columns, list(out.rows))
            except RwError as e:
                return (e.code, str(e))

        slow_text = sql + " -- via the binder"
        assert qe._constant_select(slow_text) is None
        assert outcome(sql) == outcome(slow_text), sql


def test_overflow_error_is_the_binders(engine: QueryEngine, ctx: QueryContext) -> None:
    with pytest.raises(RwError) as e:
        list(engine.execute("SELECT 2147483647 + 1", [], ctx).rows)
    assert str(e.value) == (
        "Expr error: error while evaluating expression "
        "`general_add('2147483647', '1')`: Numeric out of range"
    )


def test_select_1_does_not_import_sqlglot() -> None:
    """A server that has only answered ``SELECT 1`` has not paid for sqlglot, lark or scramp;
    the first statement that needs the binder imports it."""
    script = """
import sys
from rwshim.instance import Instance
from rwshim.binder.context import QueryContext
import rwshim.server.listener
inst = Instance(None)
ctx = QueryContext(1, "dev", 1, "root")
out = inst.query.execute("SELECT 1", [], ctx)
assert list(out.rows) == [(1,)], "SELECT 1"
print(sorted(m for m in ("sqlglot", "lark", "scramp") if m in sys.modules))
out = inst.query.execute("SELECT 1.5", [], ctx)
print([c.type_oid for c in out.columns], "sqlglot" in sys.modules)
"""
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=root, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["[]", "[1700] True"]
