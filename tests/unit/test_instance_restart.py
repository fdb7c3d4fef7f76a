"""Instance over a data directory: reopening it (a process restart, or Instance.restart) with a
creating job runs recovery, whose first barrier reads the job's upstream row count: the data
plane's count when this process took one, else the total the meta store kept at the job's last
barrier (decision 3, rw-engine-semantics §1.1)."""

from __future__ import annotations

from pathlib import Path

from rwshim.engine.types import ObjectName
from rwshim.instance import Instance
from tests.unit.engine.helpers import V, bg, ctx


def _creating_mv_over_rows(inst: Instance) -> int:
    e = inst.engine
    e.ddl.create_table(ctx(), ObjectName("t"), V, definition="CREATE TABLE t (v INT)")
    t = e.catalog.lookup(ctx(), ObjectName("t"))
    assert t is not None
    # the data plane counted the table before the CREATE (frontend/create.py count_upstreams)
    inst.data.counts[t.id] = 50
    e.ddl.create_materialized_view(
        bg(),
        ObjectName("m"),
        V,
        definition="CREATE MATERIALIZED VIEW m AS SELECT * FROM t",
        upstream_ids=[t.id],
    )
    m = e.catalog.lookup(ctx(), ObjectName("m"))
    assert m is not None and e.catalog.job_status(m.id) == "CREATING"
    return m.id


def test_reopening_a_data_dir_with_a_creating_job(tmp_path: Path) -> None:
    inst = Instance(tmp_path, manual_clock=True)
    m = _creating_mv_over_rows(inst)
    inst.tick()
    assert inst.engine.backfill.show_jobs().rows[0][3] == "Snapshot [8.00% (4/50)]"
    inst.close()

    again = Instance(tmp_path, manual_clock=True)
    # Recovery kept the background job and its recovery barrier read 4 more rows.
    assert again.engine.catalog.job_status(m) == "CREATING"
    assert again.engine.backfill.show_jobs().rows[0][3] == "Snapshot [16.00% (8/50)]"
    again.restart()
    assert again.engine.backfill.show_jobs().rows[0][3] == "Snapshot [24.00% (12/50)]"
    # Not counted in this process: the meta store's last total.
    t = again.engine.catalog.lookup(ctx(), ObjectName("t"))
    assert t is not None and again.row_count(t.id) == 50
    again.close()
