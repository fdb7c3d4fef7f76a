"""The I/O-free parts of a changelog CTE over a materialized view (dataplane/plan/changelogs.py,
dataplane/changes.py): the log names, the view's stream key from its read query, and the
statement a barrier appends the view's difference with.  The difference itself is computed by
PostgreSQL: tests/scenarios/test_changelog_of_mv.py runs it."""

from __future__ import annotations

import pytest

from rwshim.dataplane import changes
from rwshim.dataplane.plan import changelogs


def test_log_names() -> None:
    assert changelogs.store_name(11, 8) == "c11_8"
    assert changelogs.log_upstream("c11_8") == 8
    assert changelogs.log_upstream("m8") is None
    assert changelogs.log_upstream("cx_8") is None
    assert changelogs.before_name(8) == 'pg_temp."rw_before_m8"'


def key_of(name: str, schema: str | None) -> tuple[str, ...] | None:
    return {"t": ("id",)}.get(name)


@pytest.mark.parametrize(
    ("query", "key"),
    [
        # a view's read query (Relation.definition) is a bare SELECT with qualified names
        ('SELECT "t"."id" AS "i", "t"."v" FROM "public"."t"', ("i",)),
        ('SELECT "k", count(*) AS "n" FROM "public"."u" GROUP BY "k"', ("k",)),
        ('SELECT "v" FROM "public"."t"', None),
    ],
)
def test_stream_key_of_a_read_query(query: str, key: tuple[str, ...] | None) -> None:
    assert changes.stream_key(query, key_of) == key


def test_diff_statement_keyed() -> None:
    sql = changelogs.diff_sql('rw."c2_1"', ["k", "v"], "pg_temp.b", 'rw."m1"', ["k"])
    row = 'ROW(x."k", x."v")::text'
    # a key that repeats is told apart by the rank among its rows
    key = (
        """ROW(x."k")::text || '#' || row_number() OVER"""
        f""" (PARTITION BY ROW(x."k")::text ORDER BY {row})"""
    )
    side = f'x."k", x."v", {row} AS t__, {key} AS k__'
    assert sql == (
        'INSERT INTO rw."c2_1" ("k", "v", "changelog_op") SELECT'
        ' CASE WHEN s.side = 0 THEN a."k" ELSE b."k" END,'
        ' CASE WHEN s.side = 0 THEN a."v" ELSE b."v" END,'
        " CASE WHEN s.side = 0 THEN CASE WHEN b.k__ IS NULL THEN 2 ELSE 4 END"
        " ELSE CASE WHEN a.k__ IS NULL THEN 1 ELSE 3 END END"
        f" FROM (SELECT {side} FROM pg_temp.b x) a FULL JOIN"
        f' (SELECT {side} FROM rw."m1" x) b ON a.k__ = b.k__'
        " CROSS JOIN (VALUES (0), (1)) s(side)"
        " WHERE a.t__ IS DISTINCT FROM b.t__"
        " AND CASE WHEN s.side = 0 THEN a.k__ IS NOT NULL ELSE b.k__ IS NOT NULL END"
        " ORDER BY COALESCE(a.k__, b.k__), s.side"
    )


def test_diff_statement_without_a_key_numbers_equal_rows() -> None:
    sql = changelogs.diff_sql('rw."c2_1"', ["x"], "pg_temp.b", 'rw."m1"', None)
    assert (
        'ROW(x."x")::text || \'#\' || row_number() OVER (PARTITION BY ROW(x."x")::text'
        ' ORDER BY ROW(x."x")::text) AS k__' in sql
    ), sql
