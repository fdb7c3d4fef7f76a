"""Plain values the engine takes and returns: session context, names, columns, results, waits,
and the injected clock."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Protocol

from msgspec import Struct, field

from rwshim.common.outcome import Column
from rwshim.errors import RwError

# RisingWave epochs: physical ms since 2021-04-01T00:00:00Z, shifted left 16 bits
# (src/common/src/util/epoch.rs:23-40).
RISINGWAVE_DATE_EPOCH_MS = 1_617_235_200_000
EPOCH_SHIFT = 16


class Clock(Protocol):
    """Milliseconds since the Unix epoch."""

    def now_ms(self) -> int: ...


class SystemClock:
    """Wall time (the server's clock)."""

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000


class ManualClock:
    """A clock that only moves when told (tests, manual mode)."""

    def __init__(self, start_ms: int = 1_767_225_600_000) -> None:  # 2026-01-01T00:00:00Z
        self._ms = start_ms

    def now_ms(self) -> int:
        return self._ms

    def advance(self, ms: int) -> None:
        self._ms += ms


# Session variables the engine reads, with RisingWave's defaults
# (src/common/src/session_config/mod.rs).
VARIABLE_DEFAULTS: Mapping[str, str] = {
    "streaming_parallelism": "default",
    "streaming_parallelism_for_table": "default",
    "streaming_parallelism_for_source": "default",
    "streaming_parallelism_for_sink": "default",
    "streaming_parallelism_for_index": "default",
    "streaming_parallelism_for_materialized_view": "default",
    "streaming_parallelism_for_backfill": "default",
    "streaming_max_parallelism": "256",
    "background_ddl": "false",
    "streaming_use_snapshot_backfill": "true",
    "streaming_use_shared_source": "true",
    "backfill_rate_limit": "-1",
    "source_rate_limit": "-1",
    "dml_rate_limit": "-1",
    "sink_rate_limit": "-1",
    "search_path": '"$user", public',
    "timezone": "UTC",
}


class Context(Struct, frozen=True):
    """Who runs a statement, where, and with which session variables.

    ``variables`` maps RisingWave variable names (lower case) to their value texts as SHOW
    prints them; missing names take RisingWave's default.
    """

    database_id: int = 1
    user_id: int = 1
    variables: Mapping[str, str] = field(default_factory=dict)

    def var(self, name: str) -> str:
        v = self.variables.get(name)
        return VARIABLE_DEFAULTS.get(name, "") if v is None else v


class ObjectName(Struct, frozen=True):
    """A possibly schema-qualified name, as written (identifiers already case-folded)."""

    name: str
    schema: str | None = None

    def __str__(self) -> str:
        return f"{self.schema}.{self.name}" if self.schema else self.name


class ColumnSpec(Struct, frozen=True):
    """A column of a relation being created."""

    name: str
    type_oid: int
    rw_type: str
    is_hidden: bool = False
    is_nullable: bool = True
    default_expr: str | None = None
    generated_expr: str | None = None
    # As a key column: descending, and nulls the smallest value (RisingWave's OrderType;
    # relation_column.pk_desc / pk_nulls_smallest).
    pk_desc: bool = False
    pk_nulls_smallest: bool = False


class JobSpec(Struct):
    """A streaming job to create, as the handlers hand it to the shared create path."""

    kind: str
    name: str
    schema_id: int
    columns: list[ColumnSpec]
    primary_key: list[int]
    definition: str
    upstream_ids: list[int]
    options: dict[str, str]
    extra: dict[str, object] = field(default_factory=dict)
    has_values: bool = False
    has_temporal_join: bool = False
    if_not_exists: bool = False
    # relations the job depends on without reading them as a stream (a table on a shared CDC
    # source: DROP SOURCE is refused while it exists, RENAME rewrites its definition)
    depends_on: list[int] = field(default_factory=list)


class Waiter:
    """Completion of a foreground DDL, WAIT or FLUSH: completed by a barrier (or a failure).

    ``done`` turns true once; then ``error`` is None (success) or the RwError to report.
    """

    def __init__(self) -> None:
        self.done = False
        self.error: RwError | None = None
        self._callbacks: list[Callable[[Waiter], None]] = []

    def add_done_callback(self, fn: Callable[[Waiter], None]) -> None:
        if self.done:
            fn(self)
        else:
            self._callbacks.append(fn)

    def complete(self, error: RwError | None = None) -> None:
        if self.done:
            return
        self.done = True
        self.error = error
        callbacks, self._callbacks = self._callbacks, []
        for fn in callbacks:
            fn(self)

    def result(self) -> None:
        """Raise the error if the wait failed (call once done)."""
        if self.error is not None:
            raise self.error


class Result(Struct):
    """What an engine operation produced: notices (in order), rows for statements that return
    rows, and for a foreground create / WAIT a waiter the session awaits before replying."""

    notices: list[str] = field(default_factory=list)
    columns: list[Column] | None = None
    rows: list[tuple[object, ...]] = field(default_factory=list)
    wait: Waiter | None = None
    # The streaming job a CREATE made (to cancel it when its session is cancelled); else None.
    job_id: int | None = None
