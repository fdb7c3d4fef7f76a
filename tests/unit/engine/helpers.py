"""Shared helpers for engine tests: an in-memory engine with a manual clock and short-hands
for the statements a session would run."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rwshim.common import pgtypes
from rwshim.engine.engine import Engine
from rwshim.engine.types import ColumnSpec, Context, ManualClock, ObjectName, Result
from rwshim.store.store import Store

V = [ColumnSpec("v", pgtypes.INT4, "integer")]


def ctx(**variables: str) -> Context:
    return Context(database_id=1, user_id=1, variables=variables)


class Counts(dict[int, int]):
    """Row counts per relation, as the data plane hands them to the engine (the engine reads
    counts for its backfill model, never rows)."""

    def __call__(self, relation_id: int) -> int:
        return self.get(relation_id, 0)


def make_engine(store: Store | None = None, counts: Counts | None = None, **kw: int) -> Engine:
    """An engine; ``counts``: the data plane's counts to start from (one that outlives an
    engine, as the data plane outlives a meta-node restart)."""
    return Engine(
        store or Store.open(), ManualClock(), row_count=Counts() if counts is None else counts, **kw
    )


def counts_of(e: Engine) -> Counts:
    counts = e.meta.custom_row_count
    assert isinstance(counts, Counts)
    return counts


def set_rows(e: Engine, relation_id: int, rows: int) -> None:
    """The data plane counted ``rows`` rows in ``relation_id``."""
    counts_of(e)[relation_id] = rows


def rel_id(e: Engine, name: str, c: Context | None = None) -> int:
    rel = e.catalog.lookup(c or ctx(), ObjectName(name))
    assert rel is not None, name
    return rel.id


def table(e: Engine, name: str, rows: int = 0, c: Context | None = None) -> int:
    e.ddl.create_table(c or ctx(), ObjectName(name), V, definition=f"CREATE TABLE {name} (v INT)")
    tid = rel_id(e, name, c)
    if rows:
        set_rows(e, tid, rows)
    return tid


def mv(
    e: Engine,
    name: str,
    upstream: Sequence[int],
    c: Context | None = None,
    with_options: Sequence[tuple[str, str]] = (),
) -> Result:
    return e.ddl.create_materialized_view(
        c or ctx(),
        ObjectName(name),
        V,
        definition=f"CREATE MATERIALIZED VIEW {name} AS SELECT * FROM up",
        upstream_ids=list(upstream),
        with_options=with_options,
    )


def bg(**extra: str) -> Context:
    """A session with background_ddl on and a backfill rate limit of 1 row/s per actor."""
    variables: Mapping[str, str] = {"background_ddl": "true", "backfill_rate_limit": "1", **extra}
    return Context(variables=variables)


def run_until_created(e: Engine, job_id: int, limit: int = 1000) -> int:
    for n in range(limit):
        if e.catalog.job_status(job_id) == "CREATED":
            return n
        e.barrier.tick()
    raise AssertionError(f"job {job_id} still {e.catalog.job_status(job_id)}")
