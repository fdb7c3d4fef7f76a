"""plan/hashkeys: which spans of a planned PostgreSQL text get ``rwfn.hk(...)`` (RisingWave's
hash aggregation normalizes its keys: src/common/src/hash/key.rs:531-535)."""

from __future__ import annotations

import pytest

from rwshim.dataplane.plan.hashkeys import normalize


def _pk(schema: str, name: str) -> tuple[str, ...]:
    return ("k",) if (schema, name) == ("rw", "t1") else ()


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # a key column, alone (its name kept) and inside an expression
        (
            "SELECT p, p + 1, sum(p) FROM rw.t2 GROUP BY p",
            'SELECT rwfn.hk(p) AS "p", rwfn.hk(p) + 1, sum(p) FROM rw.t2 GROUP BY p',
        ),
        # a cast is named after its column: the name stays
        (
            "SELECT o.p::varchar, count(*) FROM rw.t2 AS o GROUP BY o.p",
            'SELECT rwfn.hk(o.p)::varchar AS "p", count(*) FROM rw.t2 AS o GROUP BY o.p',
        ),
        # positions, GROUPING() and grouping sets
        (
            "SELECT p, grouping(p) FROM rw.t2 GROUP BY GROUPING SETS ((p), ())",
            'SELECT rwfn.hk(p) AS "p", grouping(p) FROM rw.t2 GROUP BY GROUPING SETS ((p), ())',
        ),
        (
            "SELECT q, count(*) FROM rw.t2 GROUP BY 1",
            'SELECT rwfn.hk(q) AS "q", count(*) FROM rw.t2 GROUP BY 1',
        ),
        # DISTINCT and UNION: every output column, decimal literals too; UNION ALL nothing
        (
            "SELECT DISTINCT p, q AS r FROM rw.t2 ORDER BY p",
            'SELECT DISTINCT rwfn.hk(p) AS "p", rwfn.hk(q) AS r FROM rw.t2 ORDER BY p',
        ),
        (
            "SELECT p FROM rw.t2 UNION SELECT 1.50",
            'SELECT rwfn.hk(p) AS "p" FROM rw.t2 UNION SELECT rwfn.hk(1.50) AS "?column?"',
        ),
        ("SELECT p FROM rw.t2 UNION ALL SELECT 1.50", None),
        # an arm that is a DISTINCT of its own: wrapped once
        (
            "SELECT DISTINCT p FROM rw.t2 UNION SELECT DISTINCT p FROM rw.t3 ORDER BY p",
            'SELECT DISTINCT rwfn.hk(p) AS "p" FROM rw.t2 UNION'
            ' SELECT DISTINCT rwfn.hk(p) AS "p" FROM rw.t3 ORDER BY p',
        ),
        # sort aggregation: one table grouped by a prefix of its key (batch only)
        ("SELECT k, count(*) FROM rw.t1 GROUP BY k", None),
        (
            "SELECT k, v FROM rw.t1 GROUP BY v, k",
            'SELECT rwfn.hk(k) AS "k", rwfn.hk(v) AS "v" FROM rw.t1 GROUP BY v, k',
        ),
        # left as they are: stars, expression keys, an ORDER BY a DISTINCT could not sort by
        ("SELECT * FROM rw.t2 UNION SELECT * FROM rw.t3", None),
        ("SELECT p * 2, count(*) FROM rw.t2 GROUP BY p * 2", None),
        ("SELECT DISTINCT a.p FROM rw.t2 AS a ORDER BY a.p", None),
        ("SELECT p FROM rw.t2", None),
    ],
)
def test_spans_wrapped(text: str, want: str | None) -> None:
    assert normalize(text, False, _pk) == (text if want is None else want)


def test_a_streaming_job_always_aggregates_by_hash() -> None:
    text = "SELECT k, count(*) FROM rw.t1 GROUP BY k"
    assert normalize(text, True, _pk) == (
        'SELECT rwfn.hk(k) AS "k", count(*) FROM rw.t1 GROUP BY k'
    )


def test_a_text_postgresql_cannot_parse_is_left_to_postgresql() -> None:
    text = "SELECT p FROM GROUP BY"
    assert normalize(text, False, _pk) == text
