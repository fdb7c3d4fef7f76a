"""Where rwshim keeps what it caches per machine: the cache root.

``$RWSHIM_CACHE_DIR`` when set; for root ``/var/cache/rwshim`` (where the PostgreSQL server's
user can reach it); else ``$XDG_CACHE_HOME/rwshim`` or ``~/.cache/rwshim``.  The data plane's
template cluster (rwshim/dataplane/postgres/cluster.py) and the meta store's schema image
(rwshim/store/image.py) live under it.  A module of its own, importing nothing of rwshim's,
so that the store finds the root without importing the data plane.
"""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "RWSHIM_CACHE_DIR"


def cache_root() -> Path:
    if env := os.environ.get(CACHE_ENV):
        return Path(env)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return Path("/var/cache/rwshim")
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "rwshim"
