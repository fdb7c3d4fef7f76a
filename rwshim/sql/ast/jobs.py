"""CANCEL JOBS, KILL, WAIT, FLUSH, RECOVER, REFRESH TABLE and BACKUP: job and cluster control.

Mirrors src/sqlparser/src/ast/mod.rs (``JobIdents``, ``WaitTarget``, ``Statement::CancelJobs``,
``Kill``, ``Wait``, ``Flush``, ``Recover``, ``Refresh``, ``Backup``) as
src/sqlparser/src/parser.rs reads them (``parse_cancel_job``, ``parse_kill_process``,
``parse_wait``, ``parse_refresh``).
"""

from __future__ import annotations

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


class CancelJobs(Statement, frozen=True):
    """CANCEL {JOBS | JOB} <id>[, ...]."""

    job_ids: tuple[int, ...]
    TAG: ClassVar[str] = "CANCEL_COMMAND"


class Kill(Statement, frozen=True):
    """KILL '<process id>'."""

    process: str  # the worker:id text or number, as written (quotes stripped)
    TAG: ClassVar[str] = "KILL"


class Wait(Statement, frozen=True):
    """WAIT [TABLE | MATERIALIZED VIEW | SINK | INDEX <name>]."""

    object_type: str | None = None  # None, "TABLE", "MATERIALIZED VIEW", "SINK", "INDEX"
    name: ObjectName | None = None
    TAG: ClassVar[str] = "WAIT"


class Flush(Statement, frozen=True):
    """FLUSH."""

    TAG: ClassVar[str] = "FLUSH"


class Recover(Statement, frozen=True):
    """RECOVER: ad-hoc recovery (superuser only)."""

    TAG: ClassVar[str] = "RECOVER"


class RefreshTable(Statement, frozen=True):
    """REFRESH TABLE <name> (refreshable tables)."""

    table: ObjectName
    TAG: ClassVar[str] = "REFRESH_TABLE"


class Backup(Statement, frozen=True):
    """BACKUP: a meta snapshot."""

    TAG: ClassVar[str] = "BACKUP"
