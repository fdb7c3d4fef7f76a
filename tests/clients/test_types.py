"""Typed round trips through a table: INSERT with bound parameters, SELECT back, over real sockets.

asyncpg binds and reads in binary; psycopg 3 once in text and once in binary. asyncpg must never
need a catalog query for a type (clients.md §4.2): every OID rwshim reports for a scalar column is
one asyncpg decodes by itself. asyncpg has built-in codecs only for ``text[]`` and ``oid[]``
among arrays, so an ``int4[]`` or ``varchar[]`` column sends it to its introspection, whose first
step (``current_setting('jit')``) fails on RisingWave with an error that is not 42704; the array
columns are therefore checked through psycopg, and the asyncpg failure is checked as RisingWave
gives it.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from decimal import Decimal
from typing import ClassVar

import asyncpg  # type: ignore[import-untyped]
import psycopg
import pytest
from psycopg.types.json import Jsonb

from rwshim.common.outcome import Outcome
from rwshim.frontend import Frontend
from rwshim.instance import Instance
from rwshim.server.session import ProcessInfo
from rwshim.sql.statements import Statement
from tests.conftest import Running, ThreadRunning

DDL = (
    "CREATE TABLE ty (k int PRIMARY KEY, b boolean, i2 smallint, i4 int, i8 bigint, f4 real, "
    "f8 double precision, n numeric, s varchar, by bytea, d date, t time, ts timestamp, "
    "tz timestamptz, iv interval, j jsonb, ai int[], av varchar[], af8 double precision[])"
)
SCALARS = "k, b, i2, i4, i8, f4, f8, n, s, by, d, t, ts, tz, iv, j"
SCALAR_OIDS = [23, 16, 21, 23, 20, 700, 701, 1700, 1043, 17, 1082, 1083, 1114, 1184, 1186, 3802]
DOC = {"a": [1, 2, None], "b": "x", "c": {"d": 1.5}}

ROWS: list[tuple[object, ...]] = [
    (
        1,
        True,
        -32768,
        2147483647,
        -9223372036854775808,
        1.5,
        -2.25e-300,
        Decimal("123.456"),
        "héllo 'x' \\ \"q\"",
        b"\x00\xff'\\ab",
        dt.date(2024, 2, 29),
        dt.time(13, 14, 15, 123456),
        dt.datetime(2024, 1, 2, 3, 4, 5, 6),
        dt.datetime(2024, 1, 2, 3, 4, 5, 7, tzinfo=dt.UTC),
        dt.timedelta(days=3, hours=4, minutes=5, seconds=6, microseconds=7),
    ),
    (
        2,
        False,
        32767,
        -2147483648,
        9223372036854775807,
        -0.5,
        1e300,
        Decimal("-0.000001"),
        "",
        b"",
        dt.date(1970, 1, 1),
        dt.time(0, 0),
        dt.datetime(1999, 12, 31, 23, 59, 59),
        dt.datetime(2000, 6, 1, 12, 0, tzinfo=dt.timezone(dt.timedelta(hours=2))),
        dt.timedelta(seconds=-1),
    ),
    (3, *([None] * 14)),
]
ARRAYS: list[tuple[object, ...]] = [([1, None, 3], ["a", None, "c d"], [1.5, -0.0])]


class Recording(Frontend):
    """The real frontend, remembering the text of every statement a client parses or runs."""

    seen: ClassVar[list[str]] = []

    def parse(self, sql: str) -> list[Statement]:
        Recording.seen.append(sql)
        return Frontend.parse(self, sql)

    async def execute(self, stmt: Statement, params: list[object]) -> Outcome:
        Recording.seen.append(stmt.text)
        return await Frontend.execute(self, stmt, params)


def recording_factory() -> Callable[[str, str, dict[str, str], ProcessInfo], Frontend]:
    instance = Instance()
    Recording.seen = []

    def factory(user: str, db: str, options: dict[str, str], p: ProcessInfo) -> Frontend:
        return Recording(instance, user, db, options, p)

    return factory


def expected_tz(v: object) -> object:
    """The server sends timestamptz in UTC (its TimeZone)."""
    return v.astimezone(dt.UTC) if isinstance(v, dt.datetime) and v.tzinfo else v


async def test_asyncpg_binary_round_trip_without_introspection(
    rw_server_factory: Callable[..., object],
) -> None:
    server: Running = await rw_server_factory(frontend_factory=recording_factory())  # type: ignore[misc]
    conn = await asyncpg.connect(host=server.host, port=server.port, user="root", database="dev")
    try:
        await conn.execute(DDL)
        insert = await conn.prepare(
            f"INSERT INTO ty ({SCALARS}) VALUES "
            "($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16)"
        )
        assert [t.oid for t in insert.get_parameters()] == SCALAR_OIDS
        for row in ROWS:
            j = json.dumps(DOC) if row[0] != 3 else None
            assert await insert.fetch(*row, j) == []
        await conn.execute("FLUSH")
        select = await conn.prepare(f"SELECT {SCALARS} FROM ty ORDER BY k")
        assert [a.type.oid for a in select.get_attributes()] == SCALAR_OIDS
        got = [tuple(r) for r in await select.fetch()]
        want = [(*map(expected_tz, row), json.dumps(DOC) if row[0] != 3 else None) for row in ROWS]
        # jsonb comes back as PostgreSQL's canonical text of the document
        assert [(*g[:15], json.loads(g[15]) if g[15] else None) for g in got] == [
            (*w[:15], json.loads(str(w[15])) if w[15] else None) for w in want
        ]
        assert got[0][15] == '{"a": [1, 2, null], "b": "x", "c": {"d": 1.5}}'
        # an array column needs asyncpg's introspection, which fails at its jit probe as on
        # RisingWave (no `jit` parameter; the error carries no 42704)
        with pytest.raises(asyncpg.InternalServerError) as info:
            await conn.fetch("SELECT ai FROM ty")
        assert (info.value.sqlstate, str(info.value)) == (
            "XX000",
            "Failed to execute the statement\n\nCaused by these errors (recent errors listed "
            "first):\n  1: Failed to get or set session config\n"
            "  2: Unrecognized config entry `jit`\n",
        )
    finally:
        await conn.close()
    # Everything up to the array query ran without a single catalog lookup.
    before_jit = Recording.seen[: next(i for i, s in enumerate(Recording.seen) if "jit" in s)]
    assert not [s for s in before_jit if "pg_type" in s or "pg_catalog" in s]
    assert before_jit[-1] == "SELECT ai FROM ty"


@pytest.mark.parametrize("binary", [False, True], ids=["text", "binary"])
def test_psycopg_round_trip(rw_thread_server: ThreadRunning, binary: bool) -> None:
    with psycopg.connect(rw_thread_server.dsn(), autocommit=True) as conn:
        conn.execute(DDL)
        cur = conn.cursor(binary=binary)
        for row in ROWS:
            arrays = ARRAYS[0] if row[0] == 1 else (None, None, None)
            j = Jsonb(DOC) if row[0] != 3 else None
            cur.execute(
                f"INSERT INTO ty ({SCALARS}, ai, av, af8) VALUES "
                "(%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)",
                (*row, j, *arrays),
                binary=binary,
            )
            assert cur.statusmessage == "INSERT 0 1"
        conn.execute("FLUSH")
        cur.execute(f"SELECT {SCALARS}, ai, av, af8 FROM ty ORDER BY k", binary=binary)
        assert cur.description is not None
        assert [d.type_code for d in cur.description] == [*SCALAR_OIDS, 1007, 1015, 1022]
        got = cur.fetchall()
        want = [
            (
                *map(expected_tz, row),
                DOC if row[0] != 3 else None,
                *(ARRAYS[0] if row[0] == 1 else (None, None, None)),
            )
            for row in ROWS
        ]
        assert got == want
        # negative zero survives in the float8 array
        assert str(got[0][18][1]) == "-0.0"
