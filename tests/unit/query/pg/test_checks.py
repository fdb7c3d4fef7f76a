"""RisingWave's binder checks on the data plane's parse tree (dataplane/plan/checks.py): statements
PostgreSQL would run are refused with RisingWave's texts."""

from __future__ import annotations

import pytest

from rwshim.binder.relations import RelColumn
from rwshim.common import pgtypes
from rwshim.dataplane.plan import checks, tree
from rwshim.errors import RwError


def refused(sql: str, cols: list[RelColumn] | None = None) -> list[str]:
    with pytest.raises(RwError) as info:
        checks.check(tree.parse(sql), cols)
    return info.value.chain


def accepted(sql: str, cols: list[RelColumn] | None = None) -> None:
    checks.check(tree.parse(sql), cols)


def test_ordered_set_direct_arguments() -> None:
    assert refused("SELECT percentile_cont(array[0.5]) WITHIN GROUP (ORDER BY x) FROM t") == [
        "Invalid input syntax: direct arg in `percentile_cont` must be castable to float64"
    ]
    chain = refused("SELECT percentile_disc(p) WITHIN GROUP (ORDER BY x) FROM t")
    assert chain[0].startswith(
        "Feature is not yet implemented: variable as direct argument of ordered-set aggregate\n"
        "Tracking issue: https://github.com/risingwavelabs/risingwave/issues/14079"
    )
    assert refused("SELECT percentile_cont(1.5) WITHIN GROUP (ORDER BY x) FROM t") == [
        "Invalid input syntax: direct arg in `percentile_cont` must between 0.0 and 1.0"
    ]
    accepted("SELECT percentile_cont(0.2 + 0.3) WITHIN GROUP (ORDER BY x) FROM t")


def test_hop_window_arguments() -> None:
    from rwshim.wire import codec_text, codecs

    checks.use_interval_codec(codecs.parse_interval, codec_text.interval_str)
    assert refused("SELECT * FROM hop(t, ts, interval '1', interval '-1')") == [
        "Bind error: window_size -00:00:01 and window_slide 00:00:01 must be positive"
    ]
    assert refused("SELECT * FROM hop(t, ts, interval '2 seconds', interval '3 seconds')") == [
        "Bind error: Invalid arguments for HOP window function: window_size 00:00:03 cannot be "
        "divided by window_slide 00:00:02"
    ]
    accepted("SELECT * FROM hop(t, ts, interval '1 minute', interval '3 minutes')")


def test_default_inside_a_row_assignment() -> None:
    assert refused("UPDATE t SET (a, b) = (0, DEFAULT)") == [
        "Failed to bind expression: default",
        "Item not found: Invalid column: default",
    ]
    accepted("UPDATE t SET (a, b) = (0, 1)")


def test_date_literals_are_yyyy_mm_dd() -> None:
    cause = "Parse error: date Can't cast string to date (expected format is YYYY-MM-DD)"
    assert refused("SELECT '1900-1-1'::date") == [
        "Expr error",
        "error while evaluating expression `str_parse('1900-1-1')`",
        cause,
    ]
    assert refused("SELECT DATE '2013-02-30'")[2] == cause
    cols = [RelColumn("d", pgtypes.DATE), RelColumn("n", pgtypes.INT4)]
    assert refused("INSERT INTO t VALUES ('02-02-1992', 1)", cols)[2] == cause
    accepted("INSERT INTO t VALUES (' 1992-02-02 ', 1)", cols)
    accepted("INSERT INTO t (n, d) VALUES (1, '1992-02-02')", cols)


def test_lists_of_other_dimensions_do_not_cast() -> None:
    assert refused("SELECT array[array[2,3],array[4,5]]::int[]") == [
        'cannot cast type "integer[][]" to "integer[]"',
        'cannot cast type "integer[]" to "integer" in Explicit context',
    ]
    assert refused("SELECT array[2,3,4]::int[][]")[0] == (
        'cannot cast type "integer[]" to "integer[][]"'
    )
    accepted("SELECT array[array[2,3]]::int[][], array[1.5]::int[]")


def test_functions_risingwave_does_not_have() -> None:
    with pytest.raises(checks.UnknownFunction) as info:
        checks.check(tree.parse("SELECT pg_collation_for('a')"))
    assert info.value.name == "pg_collation_for"
    # RisingWave's own, PostgreSQL's grammar forms and rwshim's catalog functions pass
    accepted(
        "SELECT array_min(a), arg_max(a, b), trim(both 'x' from s), s similar to 'a%',"
        " now(), pg_typeof(a), rw_vnode(256, a) FROM t, range(1, 3) r, tumble(t, ts, interval '1')"
    )


def test_collations_other_than_c() -> None:
    assert refused('SELECT s COLLATE "de_DE" FROM t')[0].startswith(
        "Feature is not yet implemented: Collate collation other than `C` or `POSIX` is not "
        "implemented"
    )
    accepted('SELECT s COLLATE "C", s COLLATE "POSIX" FROM t')


def test_to_timestamp_shapes() -> None:
    assert refused("SELECT to_timestamp('2001-04-17 00:00:00.9', 'YYYY-MM-DD HH24:MI:SS.MS')") == [
        "Expr error",
        "error while evaluating expression "
        "`char_to_timestamptz('2001-04-17 00:00:00.9', 'YYYY-MM-DD HH24:MI:SS.MS')`",
        "Parse error: premature end of input",
    ]
    accepted("SELECT to_timestamp('2001-04-17 00:00:00.906', 'YYYY-MM-DD HH24:MI:SS.MS')")
