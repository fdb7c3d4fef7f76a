"""A statement is on disk before it is answered, also while another session's DDL holds the
store's commits at ``synchronous=NORMAL`` (``Store.deferred_sync``: one sync at the DDL's end):
a BACKUP (a store write outside any DDL) answered meanwhile left its commit unsynced until
that DDL ended, so a power cut there would have lost an acknowledged change.  Checked on a
server with a data directory, with a foreground CREATE MATERIALIZED VIEW held in its backfill
(rate limit 1) as the other session's DDL."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import psycopg

from tests.conftest import ThreadRunning


def test_a_statement_beside_a_waiting_ddl_is_synced_before_its_answer(
    rw_thread_server_factory: Callable[..., ThreadRunning], tmp_path: Path
) -> None:
    server = rw_thread_server_factory(data_dir=tmp_path / "data")
    store = server.server.instance.store  # type: ignore[union-attr]

    def unsynced() -> bool:
        got = server.call(store.unsynced)
        assert isinstance(got, bool)
        return got

    with psycopg.connect(server.dsn(), autocommit=True) as a:
        a.execute("CREATE TABLE t (v int)")
        a.execute("INSERT INTO t SELECT g FROM generate_series(1, 200) AS g")
        a.execute("FLUSH")
        a.execute("SET backfill_rate_limit = 1")
        failed: list[BaseException] = []

        def create() -> None:
            try:
                a.execute("CREATE MATERIALIZED VIEW mv AS SELECT v FROM t")
            except psycopg.Error as e:
                failed.append(e)

        worker = threading.Thread(target=create)
        worker.start()
        try:
            with psycopg.connect(server.dsn(), autocommit=True) as b:
                for _ in range(250):
                    kinds = [r[2] for r in b.execute("SHOW JOBS").fetchall()]
                    if kinds == ["FOREGROUND"]:
                        break
                    time.sleep(0.02)
                assert kinds == ["FOREGROUND"]
                (sid,) = b.execute("BACKUP").fetchone()  # type: ignore[misc]
                assert isinstance(sid, int)
                # answered: the BACKUP's commit is on disk, the CREATE still waits
                assert not unsynced()
                assert [r[2] for r in b.execute("SHOW JOBS").fetchall()] == ["FOREGROUND"]
        finally:
            a.cancel_safe()
            worker.join(10)
    assert len(failed) == 1 and isinstance(failed[0], psycopg.errors.QueryCanceled)
