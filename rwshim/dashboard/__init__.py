"""rwshim's web dashboard: the relation graph, a job's fragment graph, the blocked set and
backfill progress in a browser, served by the rwshim process on its own event loop.  RisingWave
serves its dashboard (``dashboard/`` at the reference commit, which lays its graphs out with
dagre too) from the meta node at ``--dashboard-host`` (``src/meta/node/src/lib.rs:59``, port
5691 in ``src/cmd_all/src/single_node.rs:201``).

- ``model.py``: what the pages show, as JSON-ready values read from an ``Instance`` (no I/O);
- ``app.py``: the aiohttp application (pages, ``/api/``, the event stream, control actions);
- ``static/``: the page (plain JavaScript) and the vendored layout library (dagre, from npm:
  ``dashboard-js/`` at the repository root copies it here).

Importing this package costs nothing: the web library is imported by ``start`` only, in a
worker thread, so a server without a dashboard never loads it, and a server with one keeps
answering on its SQL port while it loads.
"""

from __future__ import annotations

import asyncio
import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rwshim.dashboard.app import Dashboard
    from rwshim.instance import Instance

# RisingWave's meta dashboard port (src/cmd_all/src/single_node.rs:201).
DEFAULT_PORT = 5691


async def start(instance: Instance, host: str, port: int, *, control: bool = False) -> Dashboard:
    """Serve the dashboard of ``instance`` on ``host``:``port`` (0: a port the OS picks) on the
    running loop; ``control`` enables the pause/resume and test-control actions."""
    app = await asyncio.to_thread(importlib.import_module, "rwshim.dashboard.app")
    dashboard: Dashboard = app.Dashboard(instance, control=control)
    await dashboard.start(host, port)
    return dashboard
