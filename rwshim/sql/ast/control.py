"""rwshim's test-control extension statements (``RWSHIM ...``, tag ``RWSHIM``).

No RisingWave counterpart: these stand in for risectl's access to the meta node (stepping
barriers, the clock, backfill holds, faults, restart); rwshim/control/statements.py executes them
and the
README lists them as extensions.
"""

from __future__ import annotations

from typing import ClassVar

from msgspec import Struct

from rwshim.sql.ast.base import ObjectName, Owner, Statement

__all__ = [
    "ControlBackfill",
    "ControlClock",
    "ControlFault",
    "ControlFaults",
    "ControlJobs",
    "ControlPush",
    "ControlRestart",
    "ControlTick",
    "PushMessage",
]


class ControlTick(Statement, frozen=True):
    """RWSHIM TICK [n] [DATABASE name]: inject n barriers now (extension)."""

    count: int = 1
    database: str | None = None
    TAG: ClassVar[str] = "RWSHIM"
    OWNER: ClassVar[Owner] = "control"


class ControlClock(Statement, frozen=True):
    """RWSHIM CLOCK {MANUAL | AUTO}: stop or restart the periodic barriers (extension)."""

    manual: bool = True
    TAG: ClassVar[str] = "RWSHIM"
    OWNER: ClassVar[Owner] = "control"


class ControlBackfill(Statement, frozen=True):
    """RWSHIM {HOLD | RELEASE} BACKFILL job_id: stop or let go a job's backfill (extension)."""

    job_id: int = 0
    hold: bool = True
    TAG: ClassVar[str] = "RWSHIM"
    OWNER: ClassVar[Owner] = "control"


class ControlFault(Statement, frozen=True):
    """RWSHIM FAULT name {ON | OFF}: switch a documented fault (extension)."""

    name: str = ""
    on: bool = True
    TAG: ClassVar[str] = "RWSHIM"
    OWNER: ClassVar[Owner] = "control"


class ControlFaults(Statement, frozen=True):
    """RWSHIM FAULTS: the fault switches and their state (extension)."""

    TAG: ClassVar[str] = "RWSHIM"
    OWNER: ClassVar[Owner] = "control"


class ControlRestart(Statement, frozen=True):
    """RWSHIM RESTART: restart the meta node, running recovery (extension)."""

    TAG: ClassVar[str] = "RWSHIM"
    OWNER: ClassVar[Owner] = "control"


class ControlJobs(Statement, frozen=True):
    """RWSHIM JOBS: every streaming job with state, parallelism and backfill (extension)."""

    TAG: ClassVar[str] = "RWSHIM"
    OWNER: ClassVar[Owner] = "control"


class PushMessage(Struct, frozen=True):
    """One message of RWSHIM PUSH: its key (None: no key) and payload (None: a tombstone)."""

    key: str | None = None
    payload: str | None = None


class ControlPush(Statement, frozen=True):
    """RWSHIM PUSH <source or table> [PARTITION 'p'] [KEY 'k'] 'payload' [, ...]: deliver
    messages as the relation's connector would (extension)."""

    target: ObjectName = ObjectName(())
    partition: str | None = None
    messages: tuple[PushMessage, ...] = ()
    TAG: ClassVar[str] = "RWSHIM"
    OWNER: ClassVar[Owner] = "control"
