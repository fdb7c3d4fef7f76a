"""The data plane's errors and the one text said when there is no PostgreSQL at all.

These are rwshim's own conditions (RisingWave has no data-plane process to lose), so no
RisingWave line is imitated; the routing layer wraps them into the statement's error.
"""

from __future__ import annotations

# Given (by later routing work) to every statement that needs table data when rwshim has
# neither the wheel's binaries nor --postgres-url; control-plane statements keep working.
UNAVAILABLE_TEXT = (
    "this rwshim has no PostgreSQL for table data: {reason}; start rwshim with"
    " --postgres-url postgresql://USER@HOST/DB (PostgreSQL 16 or newer) to run statements"
    " that read or write tables (statements on the catalog and streaming jobs work without it)"
)


class DataPlaneError(RuntimeError):
    """The data plane cannot be used: start-up failed, the server is gone, a bad URL."""


class DataPlaneUnavailable(DataPlaneError):
    """No PostgreSQL can be had: no binaries for this platform and no --postgres-url."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(UNAVAILABLE_TEXT.format(reason=reason))


class DataDirInUse(DataPlaneError):
    """Another process holds the lock of a --data-dir."""
