"""A time zone named in another case (``SET timezone = "us/pacific"``) is the zone itself:
RisingWave resolves the name with chrono-tz's ``Tz::from_str_insensitive``
(src/common/src/session_config/mod.rs:569-573, src/common/src/types/timestamptz.rs:164), so a
timestamptz prints with that zone's offset, not UTC's.  Values from
e2e_test/batch/functions/session_timezone.slt, read as the server's text."""

from __future__ import annotations

import psycopg
from psycopg.types.string import TextLoader

from tests.conftest import Running


async def test_zone_name_in_lower_case(server: Running) -> None:
    conn = await psycopg.AsyncConnection.connect(server.dsn(), autocommit=True)
    conn.adapters.register_loader("timestamptz", TextLoader)
    try:
        await conn.execute('set timezone = "us/pacific"')
        cur = await conn.execute("select '2022-01-01'::date::timestamp with time zone")
        assert await cur.fetchall() == [("2022-01-01 00:00:00-08:00",)]
        await conn.execute("set timezone = 'europe/london'")
        cur = await conn.execute(
            "select '2016-10-31 11:00:00+00:00'::timestamptz - interval '24 hours'"
            " - interval '1 day',"
            " '2016-10-31 11:00:00+00:00'::timestamptz - (interval '24 hours' + interval '1 day')"
        )
        assert await cur.fetchall() == [("2016-10-29 11:00:00+01:00", "2016-10-29 12:00:00+01:00")]
    finally:
        await conn.close()
