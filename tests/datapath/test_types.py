"""Values through the data plane: every type RisingWave and PostgreSQL share goes in as a
parameter and comes back as it was, in text (psycopg) and binary (asyncpg) form; parameter and
result types are PostgreSQL's answer to Parse/Describe, in RisingWave's OIDs."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import asyncpg

from rwshim.testing import RwShim

from .conftest import Client

COLUMNS = (
    "b boolean, i2 smallint, i4 int, i8 bigint, f4 real, f8 double precision, n numeric,"
    " s varchar, by bytea, d date, t time, ts timestamp, tz timestamptz, iv interval,"
    " j jsonb, a int[], sa varchar[]"
)
VALUES = (
    True,
    3,
    -7,
    2**40,
    0.5,
    0.25,
    Decimal("12.50"),
    "hé\tx",
    b"\x00\xff",
    dt.date(2020, 2, 29),
    dt.time(12, 30, 1, 5),
    dt.datetime(2020, 1, 1, 12, 0, 0, 123456),
    dt.datetime(2020, 1, 1, 12, 0, tzinfo=dt.UTC),
    dt.timedelta(days=1, minutes=5),
    {"k": [1, 2]},
    [1, None, 3],
    ["a", "b c"],
)


def test_every_type_round_trips_in_text(db: Client) -> None:
    from psycopg.types.json import Jsonb

    db.run(f"CREATE TABLE all_types ({COLUMNS})")
    params = list(VALUES)
    params[14] = Jsonb(VALUES[14])
    marks = ", ".join("%s" for _ in VALUES)
    assert db.tag(f"INSERT INTO all_types VALUES ({marks})", params) == "INSERT 0 1"
    cur = db.run("SELECT * FROM all_types")
    assert [d.type_code for d in cur.description or []] == [
        16, 21, 23, 20, 700, 701, 1700, 1043, 17, 1082, 1083, 1114, 1184, 1186, 3802, 1007, 1015,
    ]  # fmt: skip
    assert cur.fetchall() == [VALUES]


# asyncpg introspects array types through the catalog (its query needs `jit`, which the
# in-process catalog path does not have): the binary round trip covers the scalar types
SCALARS = COLUMNS.rsplit(", a int[]", 1)[0]


async def test_every_type_round_trips_in_binary(rwshim: RwShim) -> None:
    conn = await asyncpg.connect(rwshim.url)
    try:
        await conn.execute(f"CREATE TABLE all_types ({SCALARS})")
        marks = ", ".join(f"${i + 1}" for i in range(15))
        stmt = await conn.prepare(f"INSERT INTO all_types VALUES ({marks})")
        assert [p.name for p in stmt.get_parameters()] == [
            "bool", "int2", "int4", "int8", "float4", "float8", "numeric", "varchar", "bytea",
            "date", "time", "timestamp", "timestamptz", "interval", "jsonb",
        ]  # fmt: skip
        params = list(VALUES[:15])
        params[14] = '{"k": [1, 2]}'
        await stmt.fetch(*params)
        await conn.execute("FLUSH")
        row = await conn.fetchrow("SELECT * FROM all_types")
        assert row is not None
        assert list(row) == [*VALUES[:14], '{"k": [1, 2]}']
    finally:
        await conn.close()


async def test_describe_of_dml(rwshim: RwShim) -> None:
    conn = await asyncpg.connect(rwshim.url)
    try:
        await conn.execute("CREATE TABLE d (a int)")
        stmt = await conn.prepare("INSERT INTO d VALUES ($1)")
        assert [p.name for p in stmt.get_parameters()] == ["int4"]
        assert stmt.get_attributes() == ()
        stmt = await conn.prepare("DELETE FROM d WHERE a = $1 RETURNING a")
        assert [(a.name, a.type.name) for a in stmt.get_attributes()] == [("a", "int4")]
        text = await conn.prepare("SELECT $1::text || 'x', current_user FROM d")
        # RisingWave has one string type: text (and name) come back as varchar
        assert [a.type.name for a in text.get_attributes()] == ["varchar", "varchar"]
    finally:
        await conn.close()


def test_timestamps_cast_to_strings_in_risingwave_text(db: Client) -> None:
    # cast_with_time_zone's %Y-%m-%d %H:%M:%S%.f%:z and Timestamp's ToText: 3 or 6 digits of
    # a second (none when zero), +HH:MM, in the session's time zone; PostgreSQL's own output
    # would be '.5' and '+00'
    db.run("CREATE TABLE ts (a timestamptz, b timestamp)")
    db.run(
        "INSERT INTO ts VALUES ('2020-01-02 12:34:56.5 -11:00', '2020-01-01 00:00:00.25'),"
        " ('2020-01-02 12:34:56 +00:00', '2020-01-01 00:00:00.123456'), (NULL, NULL)"
    )
    assert db.rows("SELECT a::varchar, b::varchar, CAST(a AS text) FROM ts ORDER BY b") == [
        ("2020-01-02 12:34:56+00:00", "2020-01-01 00:00:00.123456", "2020-01-02 12:34:56+00:00"),
        (
            "2020-01-02 23:34:56.500+00:00",
            "2020-01-01 00:00:00.250",
            "2020-01-02 23:34:56.500+00:00",
        ),
        (None, None, None),
    ]
    db.run("SET TIME ZONE 'Asia/Kolkata'")
    assert db.rows("SELECT a::varchar FROM ts WHERE b = '2020-01-01 00:00:00.25'") == [
        ("2020-01-03 05:04:56.500+05:30",)
    ]
    # arg_max keeps its value as text inside: the value comes back whole
    assert db.rows("SELECT arg_max(a, b) = max(a) FROM ts") == [(True,)]
