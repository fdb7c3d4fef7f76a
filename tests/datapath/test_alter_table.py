"""ALTER TABLE ... ADD / DROP COLUMN across a restart (``--data-dir``): the catalog change is
durable, the data plane's table is migrated by column when next used (rows kept, the new
column filled with its DEFAULT), a column dropped and added again under the same name before
the data plane saw either is a new column, and a materialized view over the table keeps the
columns it was made with."""

from __future__ import annotations

from pathlib import Path

import psycopg

from tests.scenarios.test_durability import rwshim_process


def test_columns_change_durably_and_rows_are_kept(tmp_path: Path) -> None:
    with rwshim_process(tmp_path) as (proc, dsn):
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("create table t (k int primary key, a int, b varchar)")
            conn.execute("insert into t values (1, 10, 'x'), (2, 20, 'y')")
            conn.execute("create materialized view m as select * from t")
            conn.execute("set rw_implicit_flush = true")
            # nothing reads the data plane between these: it sees them all at once
            conn.execute("alter table t add column c int default 7")
            conn.execute("drop materialized view m")
            conn.execute("alter table t drop column b")
            conn.execute("alter table t add column b varchar default 'fresh'")
            conn.execute("create materialized view m2 as select * from t")
        proc.terminate()
        proc.wait(20)
    with rwshim_process(tmp_path) as (proc, dsn):
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("set rw_implicit_flush = true")
            show = conn.execute("show create table t").fetchall()
            assert show == [
                (
                    "public.t",
                    "CREATE TABLE t (k INT PRIMARY KEY, a INT, c INT DEFAULT 7, "
                    "b CHARACTER VARYING DEFAULT 'fresh')",
                )
            ]
            # the old b's values are gone: the new b is another column
            assert conn.execute("select * from t order by k").fetchall() == [
                (1, 10, 7, "fresh"),
                (2, 20, 7, "fresh"),
            ]
            assert conn.execute("select * from m2 order by k").fetchall() == [
                (1, 10, 7, "fresh"),
                (2, 20, 7, "fresh"),
            ]
            conn.execute("alter table t add column d int default 1")
            conn.execute("insert into t values (3, 30, 8, 'z', 2)")
            assert conn.execute("select * from m2 order by k").fetchall() == [
                (1, 10, 7, "fresh"),
                (2, 20, 7, "fresh"),
                (3, 30, 8, "z"),
            ]
            assert conn.execute("select k, d from t order by k").fetchall() == [
                (1, 1),
                (2, 1),
                (3, 2),
            ]
        proc.terminate()
        proc.wait(20)
