"""CANCEL JOBS, KILL, WAIT, FLUSH, RECOVER, REFRESH TABLE and BACKUP: job and cluster control.

Mirrors src/sqlparser/src/ast/mod.rs (``JobIdents``, ``WaitTarget``, ``Statement::CancelJobs``,
``Kill``, ``Wait``, ``Flush``, ``Recover``, ``Refresh``, ``Backup``) as
src/sqlparser/src/parser.rs reads them (``parse_cancel_job``, ``parse_kill_process``,
``parse_wait``, ``parse_refresh``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rwshim.sql.ast.base import ObjectName, Statement

__all__ = [
    "Backup",
    "CancelJobs",
    "Flush",
    "Kill",
    "Recover",
    "RefreshTable",
    "Wait",
]


@dataclass(frozen=True, slots=True)
class CancelJobs(Statement):
    """CANCEL {JOBS | JOB} <id>[, ...]."""

    job_ids: tuple[int, ...]
    TAG: ClassVar[str] = "CANCEL_COMMAND"


@dataclass(frozen=True, slots=True)
class Kill(Statement):
    """KILL '<process id>'."""

    process: str  # the worker:id text or number, as written (quotes stripped)
    TAG: ClassVar[str] = "KILL"


@dataclass(frozen=True, slots=True)
class Wait(Statement):
    """WAIT [TABLE | MATERIALIZED VIEW | SINK | INDEX <name>]."""

    object_type: str | None = None  # None, "TABLE", "MATERIALIZED VIEW", "SINK", "INDEX"
    name: ObjectName | None = None
    TAG: ClassVar[str] = "WAIT"


@dataclass(frozen=True, slots=True)
class Flush(Statement):
    """FLUSH."""

    TAG: ClassVar[str] = "FLUSH"


@dataclass(frozen=True, slots=True)
class Recover(Statement):
    """RECOVER: ad-hoc recovery (superuser only)."""

    TAG: ClassVar[str] = "RECOVER"


@dataclass(frozen=True, slots=True)
class RefreshTable(Statement):
    """REFRESH TABLE <name> (refreshable tables)."""

    table: ObjectName
    TAG: ClassVar[str] = "REFRESH_TABLE"


@dataclass(frozen=True, slots=True)
class Backup(Statement):
    """BACKUP: a meta snapshot."""

    TAG: ClassVar[str] = "BACKUP"
