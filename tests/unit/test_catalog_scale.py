"""Catalog look-ups by name and id go through indexes, so their plan does not scan the jobs
(issue 6: latency flat in the number of streaming jobs)."""

from __future__ import annotations

from rwshim.binder.context import QueryContext
from rwshim.instance import Instance


def _plan(inst: Instance, sql: str) -> tuple[list[tuple[object, ...]], str]:
    ctx = QueryContext(1, "root", 1, "dev")
    out = inst.query.execute(sql, (), ctx)
    assert list(out.rows) == []
    [prepared] = [p for p in inst.query._cache.values() if "rw_streaming_jobs" in p.sql]
    plan = " | ".join(str(r[3]) for r in inst.conn.execute("EXPLAIN QUERY PLAN " + prepared.sql))
    return list(out.rows), plan


def test_rw_streaming_jobs_by_name_searches_an_index() -> None:
    inst = Instance(manual_clock=True)
    try:
        _, plan = _plan(
            inst,
            "SELECT id, name, status, parallelism FROM rw_catalog.rw_streaming_jobs"
            " WHERE name = 'nope'",
        )
        assert "SEARCH r USING COVERING INDEX relation_by_bare_name (name=?)" in plan
        assert "SCAN j" not in plan and "MATERIALIZE" not in plan
    finally:
        inst.close()


def test_rw_streaming_jobs_by_id_searches_the_primary_key() -> None:
    inst = Instance(manual_clock=True)
    try:
        _, plan = _plan(inst, "SELECT name FROM rw_catalog.rw_streaming_jobs WHERE id = 12345")
        assert "SEARCH j USING INTEGER PRIMARY KEY (rowid=?)" in plan
        assert "SCAN j" not in plan
    finally:
        inst.close()


def test_catalog_fingerprint_follows_catalog_changes_not_barriers() -> None:
    from rwshim.engine.types import Context, ObjectName
    from tests.unit.engine.helpers import V

    inst = Instance(manual_clock=True)
    try:
        before = inst.relations.fingerprint()
        inst.tick()
        assert inst.relations.fingerprint() == before  # a barrier changes no catalog row
        inst.engine.ddl.create_table(
            Context(), ObjectName("t"), V, definition="CREATE TABLE t (v INT)"
        )
        created = inst.relations.fingerprint()
        assert created != before
        inst.engine.alter.rename(Context(), "table", ObjectName("t"), "t2")
        assert inst.relations.fingerprint() not in (before, created)
    finally:
        inst.close()
