"""CREATE TABLE ... AS under ``implicit_flush``, over a real socket on a manual clock: the
insert that fills the table is a DML run as RisingWave runs it (create_table_as.rs hands it
to handle_query), so it flushes, and the rows are read at once, a parenthesised query too.

After RisingWave's e2e_test/batch/duckdb/join/test_complex_range_join.slt.part.
"""

from __future__ import annotations

from tests.scenarios.drivers import Client


async def test_ctas_rows_are_flushed(client: Client) -> None:
    await client.run("SET RW_IMPLICIT_FLUSH TO true")
    await client.run(
        "CREATE TABLE wide AS (SELECT i, 10 * i AS c0 FROM range(1::INT, 4::INT, 1::INT) tbl(i))"
    )
    assert sorted(await client.rows("SELECT * FROM wide")) == [(1, 10), (2, 20), (3, 30)]
    await client.run("CREATE TABLE one AS SELECT 1 AS i")
    assert await client.rows("SELECT * FROM one") == [(1,)]
