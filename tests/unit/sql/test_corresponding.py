"""rwshim.sql.corresponding: the text rewrite of CORRESPONDING set operations into marked
wrappers (precedence and WITH/ORDER BY/CREATE ... AS placement) and RisingWave's mapping with
its errors (binder/set_expr.rs:232-318)."""

from __future__ import annotations

import pytest

from rwshim.errors import InvalidInputSyntax
from rwshim.sql.corresponding import Marker, mapping, marker, rewrite


def test_plain_text_is_untouched() -> None:
    q = "select 1 union select 2"
    assert rewrite(q) is q
    assert rewrite("select corresponding from t") == "select corresponding from t"


def test_wrappers_keep_order_by_and_limit_outside() -> None:
    assert rewrite("select * from t1 union all corresponding select * from t2 order by v1") == (
        "SELECT * FROM (select * from t1) AS _rw_corr_0_union_l UNION ALL "
        "SELECT * FROM (select * from t2) AS _rw_corr_0_union_r order by v1"
    )


def test_by_list_and_chain() -> None:
    q = "select * from t1 union corresponding select * from t2 union all corresponding by (b) t3;"
    out = rewrite(q.replace(" t3", " select * from t3"))
    assert out == (
        "SELECT b FROM ((SELECT * FROM (select * from t1) AS _rw_corr_0_union_l UNION "
        "SELECT * FROM (select * from t2) AS _rw_corr_0_union_r)) AS _rw_corr_1_union_by_l "
        "UNION ALL SELECT * FROM (select * from t3) AS _rw_corr_1_union_by_r ;"
    )


def test_intersect_binds_tighter_and_with_and_create_stay_in_front() -> None:
    q = "with x as (select 1) select a from t union corresponding select a from u"
    q += " intersect select 1"
    assert rewrite(q) == (
        "with x as (select 1) SELECT * FROM (select a from t) AS _rw_corr_0_union_l UNION "
        "SELECT * FROM ((select a from u intersect select 1)) AS _rw_corr_0_union_r"
    )
    q = "create materialized view m as select a from t except corresponding select a from u"
    assert rewrite(q) == (
        "create materialized view m as SELECT * FROM (select a from t) AS _rw_corr_0_except_l "
        "EXCEPT SELECT * FROM (select a from u) AS _rw_corr_0_except_r"
    )


def test_marker() -> None:
    assert marker("_rw_corr_3_intersect_by_r") == Marker(3, "INTERSECT", True, False)
    assert marker("t") is None and marker(None) is None


def test_mapping_orders_and_errors() -> None:
    assert mapping("UNION", ["v1", "v2", "v4"], ["v4", "v1"], None) == [(0, 1), (2, 0)]
    # BY: the right side's index is the left one's (set_expr.rs:268-269)
    assert mapping("UNION", ["v1", "v2", "v4"], ["v1", "v3", "v4"], ["v4", "v1"]) == [
        (2, 2),
        (0, 0),
    ]
    with pytest.raises(InvalidInputSyntax) as e:
        mapping("EXCEPT", ["a", "a"], ["a"], None)
    assert str(e.value) == (
        "Invalid input syntax: Duplicated column name `a` in a column list of the query in a "
        'EXCEPT operation. Column list of the query: ("a", "a").'
    )
    with pytest.raises(InvalidInputSyntax) as e:
        mapping("UNION", ["?column?"], ["?column?"], None)
    assert str(e.value) == (
        "Invalid input syntax: When CORRESPONDING is specified, at least one column of the "
        "left side shall have a column name that is the column name of some column of the right "
        'side in a UNION operation. Left side query column list: ("?column?"). Right side query '
        'column list: ("?column?").'
    )
