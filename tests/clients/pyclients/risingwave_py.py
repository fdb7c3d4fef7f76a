"""risingwave-py (RisingWave's Python SDK) against a server: ``python risingwave_py.py <host>
<port>``.  Connect (it creates and fills its own ``_risingwave_py_version`` table and reads
``version()``), DDL and queries through ``execute``/``fetch``/``fetchone``, its row and
DataFrame inserts, ``check_exist`` and its materialized-view helper, ``on_change`` of a table
and of a materialized view (a subscription and a subscription cursor: the handler gets the rows that
changed, with their ``op`` and ``rw_timestamp``), also one whose cursor's name is over 63 bytes;
prints JSON lines."""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable
from contextlib import redirect_stdout
from typing import Any

import pandas as pd
from emit import attempt, dsn_args, emit
from risingwave import OutputFormat, RisingWave, RisingWaveConnOptions


def rows(result: Any) -> list[list[Any]]:
    return [list(r) for r in result]


class _Enough(Exception):
    """Raised by a handler to leave on_change, whose loop only ends on KeyboardInterrupt."""


def watch(
    host: str,
    port: int,
    start: Callable[[Callable[[Any], None]], None],
    cursor: str,
    dml: list[str],
    want: int,
) -> tuple[str, list[list[Any]]]:
    """Run ``start(handler)`` (an on_change) until ``want`` rows came; another connection
    runs ``dml`` (then FLUSH) once the SDK's cursor exists.  (The cursor name the SDK prints,
    the rows.)"""
    writer = RisingWave(
        RisingWaveConnOptions.from_connection_info(
            host=host, port=port, user="root", password="", database="dev"
        )
    )

    def act() -> None:
        # DML after the cursor is declared (SINCE now()): wait until SHOW lists it
        for _ in range(1200):
            if any(r[5] == cursor for r in writer.fetch("SHOW SUBSCRIPTION CURSORS")):
                break
            time.sleep(0.05)
        for sql in dml:
            writer.execute(sql)
        writer.execute("FLUSH")

    got: list[list[Any]] = []

    def handler(data: Any) -> None:
        got.extend(list(r) for r in data)
        if len(got) >= want:
            raise _Enough

    thread = threading.Thread(target=act)
    thread.start()
    printed = io.StringIO()
    try:
        with redirect_stdout(printed):
            start(handler)
    except _Enough:
        pass
    thread.join()
    writer.close()
    return printed.getvalue().strip(), got


def main() -> None:
    host, port = dsn_args()
    rw = RisingWave(
        RisingWaveConnOptions.from_connection_info(
            host=host, port=port, user="root", password="", database="dev"
        )
    )
    emit("version", str(rw.rw_version))
    # the SDK's INSERT into its version table was not flushed: on RisingWave it is seen once a
    # barrier commits it, so read it the way a RisingWave user must
    rw.execute("FLUSH")
    emit("version table", rows(rw.fetch("SELECT version FROM _risingwave_py_version")))
    rw.execute("CREATE TABLE orders (id int PRIMARY KEY, item varchar, qty int)")
    emit("exists", rw.check_exist("orders"), rw.check_exist("nosuch"))
    # buffered (flushed every 5 rows), then one sent at once: risingwave-py looks its buffer up
    # by table name but keeps it under the schema-qualified name, so each call starts a new
    # buffer and the first row is never sent (core.py insert_row)
    rw.insert_row("orders", id=1, item="apple", qty=3)
    rw.insert_row("orders", id=2, item="pear", qty=5, force_flush=True)
    rw.insert(pd.DataFrame({"id": [3, 4], "item": ["fig", "kiwi"], "qty": [7, 9]}), "orders")
    rw.execute("FLUSH")
    emit("rows", rows(rw.fetch("SELECT id, item, qty FROM orders ORDER BY id")))
    df = rw.fetch("SELECT item, qty FROM orders WHERE qty > 4 ORDER BY id", OutputFormat.DATAFRAME)
    emit("dataframe", list(df.columns), df.values.tolist())
    emit("fetchone", list(rw.fetchone("SELECT count(*), sum(qty) FROM orders")))
    mv = rw.mv(name="big_orders", stmt="SELECT item, qty FROM orders WHERE qty > 4")
    emit("mv", mv.name, rows(rw.fetch("SELECT item, qty FROM big_orders ORDER BY qty")))
    attempt("bad sql", lambda: rw.fetch("SELECT * FROM nosuch"))
    # on_change of the table: an insert, an update, a delete
    name, got = watch(
        host,
        port,
        lambda h: rw.on_change("orders", h, max_batch_size=10),
        "risingwave_py_cursor_default_public_orders_sub",
        [
            "INSERT INTO orders VALUES (5, 'plum', 11)",
            "UPDATE orders SET qty = 6 WHERE id = 2",
            "DELETE FROM orders WHERE id = 3",
        ],
        4,
    )
    emit("on_change table cursor", name)
    emit("on_change table rows", [r[:-1] for r in got])
    stamps = [r[-1] for r in got]
    emit(
        "on_change table rw_timestamp",
        all(isinstance(t, int) for t in stamps),
        stamps == sorted(stamps),
    )
    emit("subscriptions", rows(rw.fetch("SHOW SUBSCRIPTIONS")))
    # on_change of the materialized view: a row enters it, another leaves it
    name, got = watch(
        host,
        port,
        lambda h: mv.on_change(h, max_batch_size=10),
        "risingwave_py_cursor_default_public_big_orders_sub",
        ["INSERT INTO orders VALUES (6, 'lime', 30)", "DELETE FROM orders WHERE id = 4"],
        2,
    )
    emit("on_change mv cursor", name)
    emit("on_change mv rows", sorted(r[:-1] for r in got))
    # a view's name makes the cursor's: here 73 bytes, over PostgreSQL's 63 (issue 27)
    long_mv = rw.mv(
        name="test_product_avg_price_mv_by_item",
        stmt="SELECT item, sum(qty) AS total_qty FROM orders GROUP BY item",
    )
    name, got = watch(
        host,
        port,
        lambda h: long_mv.on_change(h, max_batch_size=10),
        "risingwave_py_cursor_default_public_test_product_avg_price_mv_by_item_sub",
        ["INSERT INTO orders VALUES (7, 'date', 4)"],
        1,
    )
    emit("on_change long name cursor", name)
    emit("on_change long name rows", sorted(r[:-1] for r in got))
    rw.close()


if __name__ == "__main__":
    main()
