"""Catalog and barrier engine: RisingWave's streaming-job control plane (synchronous, clock
injected, no I/O).

The lead's entry points::

    store = Store.open(data_dir)          # rwshim.store.store; None = in memory
    engine = Engine(store, SystemClock(), row_count=read_path_count)
    result = engine.ddl.create_materialized_view(ctx, ObjectName("mv"), columns,
                                                 definition=..., upstream_ids=[...])
    if result.wait: await the waiter (add_done_callback), then result.wait.result()
    engine.barrier.tick(database_id)      # from the barrier loop, see barrier.due_databases()

The parts of ``Engine`` and the RisingWave files each mirrors: ``ARCHITECTURE.md``.
"""

from rwshim.engine.catalog import Rel
from rwshim.engine.engine import Engine
from rwshim.engine.state import Faults, SimulatedCrash
from rwshim.engine.types import (
    ColumnSpec,
    Context,
    ManualClock,
    ObjectName,
    Result,
    SystemClock,
    Waiter,
)

__all__ = [
    "ColumnSpec",
    "Context",
    "Engine",
    "Faults",
    "ManualClock",
    "ObjectName",
    "Rel",
    "Result",
    "SimulatedCrash",
    "SystemClock",
    "Waiter",
]
