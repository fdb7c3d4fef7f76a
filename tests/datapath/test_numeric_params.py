"""Numeric parameters in text format read as RisingWave reads them (``Decimal::from_str``,
src/common/src/types/decimal.rs:772-785: rust_decimal's ``from_str``, then its
``from_scientific``): psycopg 3 sends some Decimals in exponent form (``Decimal('4E+8')`` is
``4E+8``), and asyncpg does when told to send numeric as text."""

from __future__ import annotations

from decimal import Decimal

import asyncpg

from rwshim.testing import RwShim

from .conftest import Client

SCALE = "Scale exceeds the maximum precision allowed: 29 > 28"


def test_psycopg_sends_exponents_in_text(db: Client) -> None:
    db.run("CREATE TABLE prices (id int PRIMARY KEY, n numeric)")
    values = [Decimal("4E+8"), Decimal("1.20E+5"), Decimal("-2.5E-3"), Decimal("1.234E+2")]
    for i, v in enumerate(values):
        assert db.tag("INSERT INTO prices VALUES (%s, %t)", (i, v)) == "INSERT 0 1"
    assert db.rows("SELECT n FROM prices ORDER BY id") == [
        (Decimal(400000000),),
        (Decimal(120000),),
        (Decimal("-0.0025"),),
        (Decimal("123.4"),),
    ]
    # in a query without a relation too
    assert db.rows("SELECT %t::numeric + 1", (Decimal("4E+8"),)) == [(Decimal(400000001),)]
    # the scale stays within rust_decimal's 28 digits, the exponent is a u32
    insert = "INSERT INTO prices VALUES (9, %t::numeric)"
    assert db.error(insert, (Decimal("1E-29"),)) == SCALE
    assert db.error(insert, ("1e+",)) == "Failed to parse"
    assert db.rows("SELECT count(*) FROM prices") == [(4,)]


async def test_asyncpg_numeric_as_text(rwshim: RwShim) -> None:
    conn = await asyncpg.connect(rwshim.url)
    try:
        await conn.set_type_codec(
            "numeric", schema="pg_catalog", encoder=str, decoder=Decimal, format="text"
        )
        await conn.execute("CREATE TABLE prices (n numeric)")
        await conn.execute("INSERT INTO prices VALUES ($1)", Decimal("4E+8"))
        await conn.execute("FLUSH")
        assert await conn.fetch("SELECT n, $1::numeric AS m FROM prices", Decimal("1.5E-3")) == [
            (Decimal(400000000), Decimal("0.0015"))
        ]
        try:
            await conn.execute("INSERT INTO prices VALUES ($1)", Decimal("1E-29"))
        except asyncpg.PostgresError as e:
            assert (e.sqlstate, e.message) == ("XX000", SCALE)
        else:
            raise AssertionError("1E-29 was accepted")
    finally:
        await conn.close()
