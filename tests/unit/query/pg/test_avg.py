"""``avg(x)`` spliced to ``rwfn.avg(avg(x), sum(x), count(x))`` on the final PostgreSQL text
(dataplane/plan/avg.py: RisingWave's sum / count, logical_agg.rs:624-660)."""

from __future__ import annotations

import pytest

from rwshim.dataplane.plan import avg


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("SELECT avg(v) FROM t", "SELECT rwfn.avg(avg(v), sum(v), count(v)) FROM t"),
        (
            "SELECT k, pg_catalog.avg(DISTINCT v) FILTER (WHERE v > 1) AS a FROM t GROUP BY k",
            "SELECT k, rwfn.avg(avg(DISTINCT v) FILTER (WHERE v > 1), "
            "sum(DISTINCT v) FILTER (WHERE v > 1), count(DISTINCT v) FILTER (WHERE v > 1)) AS a "
            "FROM t GROUP BY k",
        ),
        (
            "SELECT AVG (x) /* c */ OVER (PARTITION BY k ORDER BY x) FROM t",
            "SELECT rwfn.avg(avg (x) /* c */ OVER (PARTITION BY k ORDER BY x), "
            "sum (x) /* c */ OVER (PARTITION BY k ORDER BY x), "
            "count (x) /* c */ OVER (PARTITION BY k ORDER BY x)) FROM t",
        ),
        (
            "SELECT avg(x) OVER w FROM t WINDOW w AS (ORDER BY x)",
            "SELECT rwfn.avg(avg(x) OVER w, sum(x) OVER w, count(x) OVER w) FROM t "
            "WINDOW w AS (ORDER BY x)",
        ),
        # an avg inside another's clause is rebuilt first
        (
            "SELECT avg(v) FILTER (WHERE v > (SELECT avg(w) FROM u)) FROM t",
            "SELECT rwfn.avg(avg(v) FILTER (WHERE v > (SELECT rwfn.avg(avg(w), sum(w), "
            "count(w)) FROM u)), sum(v) FILTER (WHERE v > (SELECT rwfn.avg(avg(w), sum(w), "
            "count(w)) FROM u)), count(v) FILTER (WHERE v > (SELECT rwfn.avg(avg(w), sum(w), "
            "count(w)) FROM u))) FROM t",
        ),
        # a string or a name that merely says avg, another schema's avg, avg(*): left alone
        ("SELECT 'avg(v)', \"avg\" FROM t", "SELECT 'avg(v)', \"avg\" FROM t"),
        ("SELECT s.avg(v), avg(*) FROM t", "SELECT s.avg(v), avg(*) FROM t"),
    ],
)
def test_avg_is_spliced(text: str, expected: str) -> None:
    assert avg.rewrite(text) == expected


def test_a_rewritten_text_is_not_rewritten_again() -> None:
    # an inlined view's text is already rewritten when the query around it is
    once = avg.rewrite("SELECT avg(v) FROM t")
    assert avg.rewrite(once) == once
    assert avg.rewrite(f"SELECT avg(a) FROM ({once}) AS s (a)") == (
        f"SELECT rwfn.avg(avg(a), sum(a), count(a)) FROM ({once}) AS s (a)"
    )


def test_unparsable_text_is_left_to_postgresql() -> None:
    assert avg.rewrite("SELECT avg(v FROM t") == "SELECT avg(v FROM t"
