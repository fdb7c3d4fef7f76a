"""Which materialized views over a changelog CTE keep its ``_changelog_row_id`` as a hidden
column, and the query text that reads it (rwshim/sql/changelog_cte.py hidden_row_id): the row
id is the view's stream key when the query is a plain projection and filter of the one
changelog CTE, and a hidden column when no output shows it (RisingWave's
optimizer/plan_node/derive.rs:27-77; planner test output/changelog.yaml:7)."""

from __future__ import annotations

import pytest

from rwshim.sql.changelog_cte import hidden_row_id, with_hidden_row_id


@pytest.mark.parametrize(
    ("query", "extended"),
    [
        (
            "with p as changelog from wide select * from p",
            "with p as changelog from wide select * , _changelog_row_id from p",
        ),
        (
            "WITH sub AS changelog FROM t1 SELECT v1, v1 IS DISTINCT FROM 2 AS d FROM sub"
            " WHERE v1 > 1",
            "WITH sub AS changelog FROM t1 SELECT v1, v1 IS DISTINCT FROM 2 AS d ,"
            " _changelog_row_id FROM sub WHERE v1 > 1",
        ),
        (
            # an expression over the row id is not the key (changelog.yaml:5-7)
            "with p as changelog from t1 select _changelog_row_id::bigint as c, * from p",
            "with p as changelog from t1 select _changelog_row_id::bigint as c, * ,"
            " _changelog_row_id from p",
        ),
        (
            "with p as changelog from t1 select extract(year from d) from p",
            "with p as changelog from t1 select extract(year from d) , _changelog_row_id from p",
        ),
    ],
)
def test_a_projection_of_one_changelog_keeps_its_row_id(query: str, extended: str) -> None:
    assert hidden_row_id(query) == extended


def test_the_hidden_name_given() -> None:
    assert hidden_row_id(
        "with p as changelog from t select 1 as _changelog_row_id from p", "_changelog_row_id#1"
    ) == (
        "with p as changelog from t select 1 as _changelog_row_id ,"
        ' _changelog_row_id AS "_changelog_row_id#1" from p'
    )


@pytest.mark.parametrize(
    "query",
    [
        "select * from t",
        # the row id shown: it is the key, no hidden column
        "with p as changelog from t select *, _changelog_row_id as row_id from p",
        "with p as changelog from t select p._changelog_row_id, v from p",
        # another key: the group key, the distinct columns, none, a join's
        "with p as changelog from t select v, count(*) from p group by v",
        "with p as changelog from t select distinct v from p",
        "with p as changelog from t select sum(v) from p",
        "with a as changelog from t, b as changelog from u select * from a join b on a.v = b.v",
        "with p as changelog from t select * from p, u",
        "with p as changelog from t select unnest(array[v]) from p",
        "with p as changelog from t select v, row_number() over (order by v) from p",
        "with p as changelog from t select * from p where v in (select v from u)",
        "with p as changelog from t select * from p limit 3",
        "with p as changelog from t select v from p union all select v from p",
        # an alias list renames the hidden row id too
        "with p(a, b) as changelog from t select * from p",
    ],
)
def test_other_queries_keep_none(query: str) -> None:
    assert hidden_row_id(query) is None


def test_the_hidden_name_after_the_outputs() -> None:
    # derive.rs:43-69: the field's name, #n after it while an output has it
    assert with_hidden_row_id("with p as changelog from t select * from p", ["v"]) == (
        "with p as changelog from t select * , _changelog_row_id from p",
        "_changelog_row_id",
    )
    got = with_hidden_row_id(
        "with p as changelog from t select v as _changelog_row_id from p",
        ["_changelog_row_id", "_changelog_row_id#1"],
    )
    assert got is not None and got[1] == "_changelog_row_id#2", got
    assert with_hidden_row_id("with p as changelog from t select sum(v) from p", ["sum"]) is None
