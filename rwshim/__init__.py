"""rwshim: a RisingWave look-alike that speaks the PostgreSQL wire protocol.

Public API: ``Config`` and ``Server`` (``await Server(Config(port=0)).start()``), ``serve``
(run until SIGINT/SIGTERM), ``Instance`` (the catalog, engine and read path one server
shares, for driving barriers by hand), and the ``RwError`` family in ``rwshim.errors``.
The pytest plugin lives in ``rwshim.testing``.

The names load on first use (PEP 562): importing any ``rwshim.x`` runs this file first, and
``rwshim ctl`` or a tool importing one module should not pay for the whole server.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rwshim.config import Config
    from rwshim.errors import RwError
    from rwshim.instance import Instance
    from rwshim.server import Server, serve

__version__ = "0.1.0"

__all__ = ["Config", "Instance", "RwError", "Server", "__version__", "serve"]

_HOMES = {
    "Config": "rwshim.config",
    "RwError": "rwshim.errors",
    "Instance": "rwshim.instance",
    "Server": "rwshim.server",
    "serve": "rwshim.server",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value
