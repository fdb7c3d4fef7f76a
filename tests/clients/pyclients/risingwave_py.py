"""risingwave-py (RisingWave's Python SDK) against a server: ``python risingwave_py.py <host>
<port>``.  Connect (it creates and fills its own ``_risingwave_py_version`` table and reads
``version()``), DDL and queries through ``execute``/``fetch``/``fetchone``, its row and
DataFrame inserts, ``check_exist`` and its materialized-view helper; prints JSON lines.
``on_change`` needs subscriptions and subscription cursors, which rwshim does not have yet."""

from __future__ import annotations

from typing import Any

import pandas as pd
from emit import attempt, dsn_args, emit
from risingwave import OutputFormat, RisingWave, RisingWaveConnOptions


def rows(result: Any) -> list[list[Any]]:
    return [list(r) for r in result]


def main() -> None:
    host, port = dsn_args()
    rw = RisingWave(
        RisingWaveConnOptions.from_connection_info(
            host=host, port=port, user="root", password="", database="dev"
        )
    )
    emit("version", str(rw.rw_version))
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
    rw.close()


if __name__ == "__main__":
    main()
