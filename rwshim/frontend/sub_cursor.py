"""A subscription cursor: where it reads (a snapshot, then the upstream's change log epoch by
epoch), what one FETCH returns, and its state as SHOW SUBSCRIPTION CURSORS prints it.

The rows are the upstream's visible columns, then ``op`` (varchar) and ``rw_timestamp``
(bigint: the epoch's unix milliseconds; NULL for a FULL cursor's snapshot rows, whose op is
``Insert``).  A FETCH takes up to ``count`` rows across epochs; with none available it returns
at once, or with ``WITH (timeout = ...)`` waits for the next barrier (never holding anything
another session needs) until a row comes or the timeout passes.

RisingWave: ``src/frontend/src/session/cursor_manager.rs`` (FieldsManager :289-420,
SubscriptionCursor::new :422-498, next_row :500-631, next :633-743, get_next_rw_timestamp
:745-779, build_row :885-914, State's Display :257-285), ``handler/declare_cursor.rs``
(check_cursor_unix_millis :106-122).
"""

from __future__ import annotations

import time
from collections import deque
from typing import TYPE_CHECKING

from msgspec import field

from rwshim.dataplane import changes
from rwshim.dataplane.changes import epoch_to_ms
from rwshim.engine.subscriptions import Subscription
from rwshim.errors import CatalogNotFound, InternalError, RwError
from rwshim.frontend.common import Cursor

if TYPE_CHECKING:
    from rwshim.dataplane.changelog import ChangeLog, Upstream
    from rwshim.frontend.frontend import Frontend


def catalog_error(message: str) -> RwError:
    """ErrorCode::CatalogError of a plain message (no SQLSTATE of its own)."""
    return RwError("Catalog error", message)


class SubscriptionCursor(Cursor, eq=False):
    """One DECLAREd subscription cursor (``rows`` unused: FETCH reads through ``fetch``)."""

    name: str = ""
    subscription: Subscription | None = None
    upstream: Upstream | None = None
    seek: int = 0  # the next epoch to read is at or after this one
    expected: int | None = None  # the epoch the listing said comes next
    from_snapshot: bool = False
    current: int = 0  # the epoch of the buffered rows
    buffer: deque[tuple[str, changes.Row, int | None]] = field(default_factory=deque)
    invalid: bool = False
    need_drop_at: float = 0.0
    last_fetch: float = field(default_factory=time.monotonic)
    init_at: float = field(default_factory=time.monotonic)

    # --- SHOW SUBSCRIPTION CURSORS ------------------------------------------------------

    def state_text(self) -> str:
        if self.invalid:
            return "Invalid"
        if self.buffer or self.from_snapshot:
            return (
                f"Fetch {{ from_snapshot: {str(self.from_snapshot).lower()}, rw_timestamp: "
                f"{self.current}, expected_timestamp: {_opt(self.expected)}, cached rows: "
                f"{len(self.buffer)}, query init at "
                f"{int((time.monotonic() - self.init_at) * 1000)}ms before }}"
            )
        return (
            f"InitLogStoreQuery {{ seek_timestamp: {self.seek}, expected_timestamp: "
            f"{_opt(self.expected)} }}"
        )

    def idle_seconds(self) -> int:
        return int(time.monotonic() - self.last_fetch)

    # --- reading -------------------------------------------------------------------------

    async def _next_row(
        self, fe: Frontend, log: ChangeLog
    ) -> tuple[str, changes.Row, int | None] | None:
        while True:
            if self.invalid:
                raise InternalError(
                    "Cursor is in invalid state. Please close and re-create the cursor."
                )
            if self.buffer:
                return self.buffer.popleft()
            if self.from_snapshot:
                # the snapshot is read: the log from the epoch after it
                self.from_snapshot = False
                self.seek = self.current + 1
            loaded = await self._load_next(fe, log)
            if not loaded:
                return None

    async def _load_next(self, fe: Frontend, log: ChangeLog) -> bool:
        """get_next_rw_timestamp, then the rows of that epoch (InitLogStoreQuery -> Fetch)."""
        sub, up = self.subscription, self.upstream
        assert sub is not None and up is not None
        try:
            if fe.instance.engine.subscriptions.by_id(sub.id) is None:
                raise CatalogNotFound("subscription", sub.name)
            if log.upstream(up.id) is None:
                raise RwError(f"table id {up.id} has been dropped")
            epochs = await log.epochs(up, self.seek)
            if self.expected is not None and (not epochs or epochs[0] != self.expected):
                raise catalog_error(
                    f" No data found for rw_timestamp {epoch_to_ms(self.expected)}, data may"
                    " have been recycled, please recreate cursor"
                )
        except RwError:
            self.invalid = True
            raise
        if not epochs:
            return False
        epoch = epochs[0]
        self.expected = epochs[1] if len(epochs) > 1 else None
        self.need_drop_at = time.monotonic() + sub.retention_seconds
        self.current = epoch
        self.init_at = time.monotonic()
        self.seek = epoch + 1
        for op, row in await log.changes_at(up, epoch):
            self.buffer.append((op, row, epoch_to_ms(epoch)))
        return True

    async def fetch(
        self, fe: Frontend, log: ChangeLog, count: int | None, timeout: int | None
    ) -> list[tuple[str, changes.Row, int | None]]:
        """SubscriptionCursor::next: up to ``count`` rows (None: what is there)."""
        sub = self.subscription
        assert sub is not None
        if time.monotonic() > self.need_drop_at:
            raise InternalError(
                "The cursor has exceeded its maximum lifetime, please recreate it (close then"
                " declare cursor)."
            )
        deadline = None if timeout is None else time.monotonic() + timeout
        out: list[tuple[str, changes.Row, int | None]] = []
        while count is None or len(out) < count:
            row = await self._next_row(fe, log)
            if row is not None:
                out.append(row)
            else:
                if out or not timeout or deadline is None:
                    break
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                # wait_table_change_log_notification: the next barrier after our position
                assert self.upstream is not None
                db = self.upstream.database_id
                await log.wait(db, max(self.seek - 1, log.last_sealed(db)), left)
            if deadline is not None and time.monotonic() > deadline:
                break
        self.last_fetch = time.monotonic()
        return out


def _opt(v: int | None) -> str:
    return "None" if v is None else f"Some({v})"
