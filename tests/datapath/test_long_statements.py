"""Long statements leave nothing large behind (issue 27's leftover): every cache keyed by a
statement's text is bounded by bytes (rwshim/sql/cache.py), not by a count of entries, so 20
distinct 2 MB statements over psycopg (a query over a table, a constant one, a catalog query;
simple and extended protocol) keep no more than each cache's budget, and a repeated short
statement is still answered from them."""

from __future__ import annotations

import psycopg

from rwshim.sql import parser, pgjson
from rwshim.testing import RwShim


def test_caches_keyed_by_text_stay_within_their_bytes(rwshim: RwShim) -> None:
    with psycopg.connect(rwshim.dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE t (a int)")
        conn.execute("INSERT INTO t VALUES (1)")
        long = "x" * 2_000_000
        for i in range(20):
            texts = [
                f"SELECT a + {i}, length('{long}') FROM t",
                f"SELECT '{i}{long}' AS s",
                f"SELECT count(*) FROM rw_catalog.rw_tables WHERE name <> '{i}{long}'",
            ]
            for text in texts:
                conn.execute(text).fetchall()  # simple protocol
                conn.execute(text, prepare=True).fetchall()  # Parse / Bind / Execute
        instance = rwshim.instance
        data = instance.data
        caches = [
            parser._PARSES,
            parser._SHARED,
            pgjson._HANDOFF,
            data._plans,
            data._shared,
            rwshim.server.replies.queries,
            rwshim.server.replies.executes,
            rwshim.server.replies.parses,
            instance.query._constants,
            instance.query.results._entries,
            instance.query.results._verdicts,
        ]
        for cache in caches:
            assert cache.bytes <= cache.max_bytes
        # a short statement is still kept
        assert conn.execute("SELECT a + 1 FROM t").fetchall() == [(2,)]
        assert conn.execute("SELECT a + 1 FROM t").fetchall() == [(2,)]
        assert any(k[0] == "SELECT a + 1 FROM t" for k in data._plans._items)
