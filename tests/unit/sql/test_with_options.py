"""WITH options keep their value kinds; the per-statement check gives RisingWave's errors."""

from __future__ import annotations

import pytest

from rwshim.errors import InvalidParameterValue
from rwshim.sql import parse
from rwshim.sql.with_options import ONLY_LITERALS, check_with_options


def _check(sql: str) -> None:
    [stmt] = parse(sql)
    check_with_options(stmt)


@pytest.mark.parametrize(
    "sql",
    [
        "CREATE TABLE t (a int) WITH (connector = 'kafka', n = 1, b = TRUE, e = E'\\x41')",
        "CREATE SINK s FROM m WITH (connector = 'kafka', connection = c, pw = SECRET s.pw)",
        "CREATE MATERIALIZED VIEW m WITH (backfill_order = FIXED(a -> b)) AS SELECT 1",
        "CREATE VIEW v WITH (a = 'x') AS SELECT 1",
        "EXPLAIN CREATE INDEX i ON t (a) WITH (a = 1)",
        "SELECT 1",
    ],
)
def test_accepted(sql: str) -> None:
    _check(sql)


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("CREATE TABLE t (a int) WITH (a = NULL)", ONLY_LITERALS),
        ("CREATE SOURCE s WITH (a = $$x$$) FORMAT PLAIN ENCODE JSON", ONLY_LITERALS),
        ("CREATE SINK s FROM m WITH (a = N'x')", ONLY_LITERALS),
        ("CREATE MATERIALIZED VIEW m WITH (a = 1, A = 2) AS SELECT 1", "Duplicated option: a"),
        ("CREATE SINK s FROM m WITH (p = SECRET x, p = 'y')", "Duplicated option: p"),
        ("CREATE VIEW v WITH (a = 'x', \"a\" = 'y') AS SELECT 1", "Duplicated option: a"),
    ],
)
def test_rejected(sql: str, message: str) -> None:
    with pytest.raises(InvalidParameterValue) as info:
        _check(sql)
    assert info.value.chain == [f"Invalid parameter value: {message}"]


def test_values_keep_their_kind() -> None:
    [stmt] = parse("CREATE TABLE t (a int) WITH (a = 'x', b = 2, c = false, d = E'\\n')")
    opts = stmt.with_options  # type: ignore[attr-defined]
    assert opts == (("a", "x"), ("b", "2"), ("c", "false"), ("d", "\n"))
    assert [v.kind for _, v in opts] == ["string", "number", "bool", "estring"]
