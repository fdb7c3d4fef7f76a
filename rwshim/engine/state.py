"""What every part of the engine shares: the meta store, the clock, the backfill model's
inputs, the fault switches, and the actions that run once a transaction has committed.

RisingWave's parts share its ``MetaSrvEnv`` (src/meta/src/manager/env.rs: the meta store, the
system parameters, the notification manager); this is that environment, and nothing else.
No part keeps another part's state here: each part owns its own and exposes named functions.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from msgspec import Struct

from rwshim.common.releases import HEAD, Release
from rwshim.engine.types import Clock, ManualClock
from rwshim.errors import FeatureNotAvailable
from rwshim.store.store import Store


class Faults(Struct):
    """Documented fault switches for tests and ``rwshim ctl``.

    ``skip_batch_refresh_admission``: the barrier worker skips its admission check for
    batch-refresh creates (control.rs:1285-1300), so a batch-refresh MV created while paused
    reaches the apply-time check and fails with error 5 (state.rs:650-660) instead of error 3.
    ``crash_after_catalog_write``: a CREATE of a streaming job stops (raises
    ``SimulatedCrash``) after its INITIAL catalog row is committed and before its first
    barrier, as a meta node killed at that point; recovery then deletes the job.
    """

    skip_batch_refresh_admission: bool = False
    crash_after_catalog_write: bool = False


class SimulatedCrash(Exception):
    """Raised by the ``crash_after_catalog_write`` fault (never reaches a client)."""


class Meta:
    """The shared environment of the engine's parts."""

    def __init__(
        self,
        store: Store,
        clock: Clock | None = None,
        *,
        release: Release = HEAD,
        row_count: Callable[[int], int] | None = None,
        streaming_slots: int = 4,
        backfill_rows_per_second: int = 1_000_000,
    ) -> None:
        self.store = store
        # The RisingWave release answered as: every part reads its rules from it.
        self.release = release
        self.conn: sqlite3.Connection = store.conn
        self.clock: Clock = clock or ManualClock()
        # Rows a backfill of a relation reads (the data plane's count; none by default).
        self.custom_row_count = row_count
        self.row_count: Callable[[int], int] = (
            row_count if row_count is not None else self._default_row_count
        )
        self.streaming_slots = streaming_slots
        # Rows one unthrottled backfill actor reads per second of barrier interval.
        self.backfill_rows_per_second = backfill_rows_per_second
        self.faults = Faults()
        # Bumped whenever privileges or user attributes may have changed: the frontend's
        # snapshot of its user (rwshim.common.acl.UserAcl) is reloaded when it moves.
        self.acl_version = 0
        self._after_commit: list[Callable[[], None]] = []

    # ------------------------------------------------------------------ store reads

    def now(self) -> str:
        """The clock's time as the catalog stores timestamps."""
        ms = self.clock.now_ms()
        return datetime.fromtimestamp(ms / 1000, UTC).isoformat(sep=" ", timespec="microseconds")

    def q1(self, sql: str, args: Sequence[object] = ()) -> tuple[Any, ...] | None:
        row = self.conn.execute(sql, tuple(args)).fetchone()
        return None if row is None else tuple(row)

    def val(self, sql: str, args: Sequence[object] = ()) -> Any:
        row = self.q1(sql, args)
        return None if row is None else row[0]

    def system_param(self, name: str) -> str:
        """A system parameter's stored value ('' if unset); ``params`` owns their rules."""
        v = self.val("SELECT value FROM system_parameter WHERE name = ?", (name,))
        return "" if v is None else str(v)

    def check_feature(self, feature: str) -> None:
        """Feature::check_available (src/license/src/feature.rs:86-113): an empty license key
        is the Free tier, where no paid feature is available (manager.rs:258-266, :62-67);
        the built-in key and any key set are taken as the All tier (rwshim does not verify a
        key's signature)."""
        if self.system_param("license_key") == "":
            raise FeatureNotAvailable(feature)

    @staticmethod
    def _default_row_count(relation_id: int) -> int:
        """No data plane attached (the engine alone, in unit tests): every table is empty."""
        return 0

    # ------------------------------------------------------------------ after commit

    def after_commit(self, action: Callable[[], None]) -> None:
        """Run ``action`` once the current operation has committed (waking sessions, starting
        queued creates): never inside a transaction that may still roll back."""
        self._after_commit.append(action)

    def commit_actions(self) -> None:
        actions, self._after_commit = self._after_commit, []
        for a in actions:
            a()
