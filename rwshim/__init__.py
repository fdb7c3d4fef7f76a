"""rwshim: a RisingWave look-alike that speaks the PostgreSQL wire protocol.

Public API: ``Config`` and ``Server`` (``await Server(Config(port=0)).start()``), ``serve``
(run until SIGINT/SIGTERM), ``Instance`` (the catalog, engine and read path one server
shares, for driving barriers by hand), and the ``RwError`` family in ``rwshim.errors``.
The pytest plugin lives in ``rwshim.testing``.

The names load on first use (PEP 562): importing any ``rwshim.x`` runs this file first, and
``rwshim ctl`` or a tool importing one module should not pay for the whole server.
"""

from typing import TYPE_CHECKING

__version__ = "0.1.0"

__all__ = ["Config", "Instance", "RwError", "Server", "__version__", "serve"]

if TYPE_CHECKING:
    from rwshim.config import Config
    from rwshim.errors import RwError
    from rwshim.instance import Instance
    from rwshim.server.listener import Server, serve
else:
    from rwshim.lazy import lazy_attributes

    __getattr__ = lazy_attributes(
        __name__,
        {
            "Config": "rwshim.config",
            "RwError": "rwshim.errors",
            "Instance": "rwshim.instance",
            "Server": "rwshim.server.listener",
            "serve": "rwshim.server.listener",
        },
    )
