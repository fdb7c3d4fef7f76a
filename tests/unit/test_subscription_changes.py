"""The I/O-free cores of subscriptions: what one epoch shows (rwshim.dataplane.changes), the
retention and timeout intervals (rwshim.engine.retention), and the cursor statements' parser
(rwshim.sql.subcursor)."""

from __future__ import annotations

import pytest

from rwshim.dataplane import changes as c
from rwshim.engine.retention import interval_seconds
from rwshim.errors import InternalError, SqlParserError
from rwshim.sql import parse
from rwshim.sql import statements as st

KEY = c.key_of(["id"])


def r(i: int, v: str) -> dict[str, object]:
    return {"id": i, "v": v}


def test_net_changes_merge_the_ops_of_one_key() -> None:
    events = [
        ("Insert", r(3, "c")),
        ("UpdateDelete", r(1, "a")),
        ("UpdateInsert", r(1, "aa")),
        ("Insert", r(5, "e")),
        ("UpdateDelete", r(5, "e")),
        ("UpdateInsert", r(5, "ee")),
        ("Insert", r(6, "f")),
        ("Delete", r(6, "f")),  # inserted and deleted in one epoch: nothing
        ("Delete", r(2, "b")),
        ("Insert", r(2, "bb")),  # deleted then inserted again: an update
        ("Insert", r(10, "j")),
    ]
    assert c.net_changes(events, KEY) == [
        ("UpdateDelete", r(1, "a")),
        ("UpdateInsert", r(1, "aa")),
        ("UpdateDelete", r(2, "b")),
        ("UpdateInsert", r(2, "bb")),
        ("Insert", r(3, "c")),
        ("Insert", r(5, "ee")),
        ("Insert", r(10, "j")),  # numbers in numeric order, not as text
    ]


def test_diff_keyed_and_as_a_multiset() -> None:
    old = [{"k": 1, "s": 10}, {"k": 2, "s": 20}, {"k": 4, "s": 4}]
    new = [{"k": 1, "s": 15}, {"k": 3, "s": 30}, {"k": 4, "s": 4}]
    assert c.diff(old, new, ["k"]) == [
        ("UpdateDelete", {"k": 1, "s": 10}),
        ("UpdateInsert", {"k": 1, "s": 15}),
        ("Delete", {"k": 2, "s": 20}),
        ("Insert", {"k": 3, "s": 30}),
    ]
    # no key: a repeated row counts twice
    dup_old = [{"a": 1}, {"a": 1}, {"a": 2}]
    dup_new = [{"a": 1}, {"a": 3}]
    assert c.diff(dup_old, dup_new, None) == [
        ("Delete", {"a": 1}),
        ("Delete", {"a": 2}),
        ("Insert", {"a": 3}),
    ]
    # a key that repeats is no key
    assert c.diff(dup_old, dup_new, ["a"]) == c.diff(dup_old, dup_new, None)


def test_before_undoes_what_no_barrier_committed_yet() -> None:
    now = [r(1, "aa"), r(3, "c")]
    pending = [("UpdateDelete", r(1, "a")), ("UpdateInsert", r(1, "aa")),
               ("Delete", r(2, "b")), ("Insert", r(3, "c"))]  # fmt: skip
    assert c.before(now, pending, KEY) == [r(1, "a"), r(2, "b")]


def test_epochs_and_unix_milliseconds() -> None:
    ms = 1_796_143_550_929
    assert c.epoch_to_ms(c.ms_to_epoch(ms)) == ms
    assert c.epoch_to_ms(c.ms_to_epoch(ms) + 5) == ms  # the low 16 bits are a sequence


def key_of(name: str, schema: str | None) -> tuple[str, ...] | None:
    return {"t": ("id",), "u": None}.get(name)


@pytest.mark.parametrize(
    ("definition", "key"),
    [
        ("CREATE MATERIALIZED VIEW m AS SELECT k, sum(v) AS s FROM t GROUP BY k", ("k",)),
        ("CREATE MATERIALIZED VIEW m AS SELECT k AS kk, count(*) FROM t GROUP BY k", ("kk",)),
        ("CREATE MATERIALIZED VIEW m AS SELECT sum(v) FROM t GROUP BY k", None),
        ("CREATE MATERIALIZED VIEW m AS SELECT id AS i, v FROM t WHERE v > 1", ("i",)),
        ("CREATE MATERIALIZED VIEW m AS SELECT v FROM t", None),
        ("CREATE MATERIALIZED VIEW m AS SELECT id, v FROM u", None),
        ("CREATE MATERIALIZED VIEW m AS SELECT DISTINCT a, b FROM u", ("a", "b")),
        ("CREATE MATERIALIZED VIEW m AS SELECT t.id FROM t JOIN u ON true", None),
        ("CREATE MATERIALIZED VIEW m AS SELECT id FROM t UNION SELECT id FROM t", None),
    ],
)
def test_stream_key_from_the_definition(definition: str, key: tuple[str, ...] | None) -> None:
    assert c.stream_key(definition, key_of) == key


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("1D", 86400), ("2D", 172800), ("3H", 10800), ("1 day 02:00:00", 93600), ("10", 10),
     ("90s", 90), ("1 year", 31557600), ("1 mon", 2592000), ("00:01:00", 60)],
)  # fmt: skip
def test_interval_seconds(text: str, seconds: int) -> None:
    assert interval_seconds(text) == seconds


@pytest.mark.parametrize(
    ("text", "error"),
    [("abc", "Invalid unit: abc"), ("1.5 hours", "Invalid interval: 1.5"),
     ("1 x", "Invalid unit: x")],
)  # fmt: skip
def test_interval_errors(text: str, error: str) -> None:
    with pytest.raises(InternalError) as info:
        interval_seconds(text)
    assert str(info.value) == (
        f'internal error: Convert interval to u64 error, please check format, error: "{error}"'
    )


def test_parse_subscription_cursor_statements() -> None:
    assert parse("declare c subscription cursor for s1.sub since begin()") == [
        st.DeclareSubscriptionCursor(
            "declare c subscription cursor for s1.sub since begin()", "c",
            st.ObjectName(("s1", "sub")), "begin", None,
        )
    ]  # fmt: skip
    (d,) = parse("DECLARE c SUBSCRIPTION CURSOR FOR s SINCE 1700000000000")
    assert isinstance(d, st.DeclareSubscriptionCursor) and (d.since, d.since_ms) == (
        "ms",
        1700000000000,
    )
    (d,) = parse("declare c subscription cursor for s full")
    assert isinstance(d, st.DeclareSubscriptionCursor) and d.since == "full"
    (d,) = parse("declare c subscription cursor for s since proctime()")
    assert isinstance(d, st.DeclareSubscriptionCursor) and d.since == "now"
    (f,) = parse("fetch 10 from c with (timeout = '2s')")
    assert f == st.FetchCursor(
        "fetch 10 from c with (timeout = '2s')", "c", 10, (("timeout", "2s"),)
    )
    with pytest.raises(SqlParserError) as info:
        parse("declare c subscription cursor for s since asd")
    assert str(info.value).startswith(
        "sql parser error: Expected proctime(), begin() or now(), found: asd"
    )
