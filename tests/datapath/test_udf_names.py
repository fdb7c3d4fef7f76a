"""A SQL function's call as a select item is named after the function, as RisingWave derives
the alias from the call before it inlines the body (binder/select.rs derive_alias), in a query
and in a materialized view's columns."""

from __future__ import annotations

from .conftest import Client


def names(db: Client, sql: str) -> list[str]:
    cur = db.run(sql)
    return [d.name for d in cur.description or []]


def test_udf_call_columns_take_the_function_name(db: Client) -> None:
    db.run("CREATE FUNCTION add1(int) RETURNS int LANGUAGE sql AS 'select $1 + 1'")
    db.run(
        "CREATE FUNCTION two(int) RETURNS int LANGUAGE sql AS 'select $1 * 2 from (values (1)) v'"
    )
    sql = "SELECT add1(41), add1(1) + 1, two(3), public.add1(2), add1(0) AS z"
    assert names(db, sql) == ["add1", "?column?", "two", "add1", "z"]
    assert db.rows(sql) == [(42, 3, 6, 3, 1)]
    db.run("CREATE TABLE t (a int)")
    db.run("INSERT INTO t VALUES (1)")
    db.run("CREATE MATERIALIZED VIEW m AS SELECT add1(a), two(a) FROM t")
    assert names(db, "SELECT * FROM m") == ["add1", "two"]
    assert db.rows("SELECT * FROM m") == [(2, 2)]
