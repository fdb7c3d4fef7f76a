"""risingwave-py 0.0.2 (RisingWave's Python SDK, ``from risingwave import RisingWave``) against a
real rwshim server: connecting (it creates ``_risingwave_py_version``, inserts into it and parses
``version()``), DDL and queries, its row and DataFrame inserts, ``check_exist`` and its
materialized-view helper, and an error.

It pins sqlalchemy-risingwave 1.1.1 (and needs psycopg2, which it does not declare), so it
lives in its own virtualenv made by ``.ci/setup``: ``RWSHIM_RWPY_PYTHON`` or
``<repo>/.venv-rwpy/bin/python``; the test fails, never skips, without it.  ``on_change`` of a
table and of a materialized view: the SDK creates a subscription, declares a subscription
cursor and FETCHes; its handler gets each changed row whole, with its op and rw_timestamp.
"""

from __future__ import annotations

from tests.clients.drivers import by_label, run_lines
from tests.clients.test_sqlalchemy_risingwave import HERE, venv_python
from tests.conftest import ThreadRunning


def test_risingwave_py(rw_thread_server: ThreadRunning) -> None:
    python = venv_python("RWSHIM_RWPY_PYTHON", ".venv-rwpy", "risingwave-py==0.0.2")
    server = rw_thread_server
    got = by_label(
        run_lines(
            [python, str(HERE / "risingwave_py.py"), server.host, str(server.port)],
            cwd=HERE,
            timeout=180,
        )
    )
    # parsed from version(): PostgreSQL 13.14.0-RisingWave-3.2.0-alpha (...)
    assert got.pop("version") == ["3.2.0"]
    assert got.pop("version table") == [[[1]]]
    assert got.pop("exists") == [True, False]
    # row 1 was buffered and never sent (the SDK's own bookkeeping: see risingwave_py.py)
    assert got.pop("rows") == [[[2, "pear", 5], [3, "fig", 7], [4, "kiwi", 9]]]
    assert got.pop("dataframe") == [["item", "qty"], [["pear", 5], ["fig", 7], ["kiwi", 9]]]
    assert got.pop("fetchone") == [[3, 21]]
    assert got.pop("mv") == ["big_orders", [["pear", 5], ["fig", 7], ["kiwi", 9]]]
    assert got.pop("bad sql") == [
        "error",
        "UndefinedObject",
        "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Catalog error\n  2: table or source not found: nosuch\n\n",
    ]
    assert got.pop("on_change table cursor") == ["risingwave_py_cursor_default_public_orders_sub"]
    # the three statements commit in one barrier (the FLUSH): one epoch, in key order
    assert got.pop("on_change table rows") == [
        [
            [2, "pear", 5, "UpdateDelete"],
            [2, "pear", 6, "UpdateInsert"],
            [3, "fig", 7, "Delete"],
            [5, "plum", 11, "Insert"],
        ]
    ]
    assert got.pop("on_change table rw_timestamp") == [True, True]
    assert got.pop("subscriptions") == [[["public.orders_sub", 86400]]]
    assert got.pop("on_change mv cursor") == ["risingwave_py_cursor_default_public_big_orders_sub"]
    assert got.pop("on_change mv rows") == [[["kiwi", 9, "Delete"], ["lime", 30, "Insert"]]]
    # a cursor name of 73 bytes, declared and fetched as written (RisingWave has no limit)
    assert got.pop("on_change long name cursor") == [
        "risingwave_py_cursor_default_public_test_product_avg_price_mv_by_item_sub"
    ]
    assert got.pop("on_change long name rows") == [[["date", 4, "Insert"]]]
    assert got == {}
