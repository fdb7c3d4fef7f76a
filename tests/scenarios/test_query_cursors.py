"""Query cursors as RisingWave's e2e_test/batch/transaction/cursor.slt writes them, over a real
socket: a DECLARE whose query starts on another line, a second DECLARE of one name
(session/cursor_manager.rs:1156-1161), FETCH NEXT, and CLOSE of a cursor that
does not exist (session/cursor_manager.rs:1166-1175: a catalog error), FETCH from a closed one
(:1197-1203)."""

from __future__ import annotations

from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause


async def test_declare_fetch_close(client: Client) -> None:
    await client.run("CREATE TABLE test (a int, b varchar)")
    await client.run("INSERT INTO test VALUES (1, 'x'), (3, 'risingwave'), (4, 'labs')")
    await client.run("FLUSH")
    await client.run("BEGIN READ ONLY")
    await client.run(
        "DECLARE\n    test_cursor CURSOR FOR\n        SELECT * FROM test WHERE a > 2 ORDER BY a;"
    )
    assert await cause(client, "DECLARE test_cursor CURSOR FOR SELECT * FROM test") == (
        "XX000",
        "\n\nCaused by these errors (recent errors listed first):\n  1: Catalog error\n"
        "  2: cursor `test_cursor` already exists\n",
    )
    assert await client.rows("FETCH NEXT FROM test_cursor") == [(3, "risingwave")]
    assert await client.rows("FETCH NEXT from test_cursor") == [(4, "labs")]
    assert await client.rows("FETCH NEXT FROM test_cursor") == []
    assert await cause(client, "CLOSE test_cursor_non_existent") == (
        "XX000",
        "\n\nCaused by these errors (recent errors listed first):\n  1: Catalog error\n"
        "  2: cursor `test_cursor_non_existent` don't exists\n",
    )
    assert await client.run("CLOSE test_cursor") == "CLOSE_CURSOR"
    assert await cause(client, "FETCH NEXT FROM test_cursor") == (
        "XX000",
        "\n\nCaused by:\n  internal error: Cannot find cursor `test_cursor`\n",
    )
    await client.run("COMMIT")
