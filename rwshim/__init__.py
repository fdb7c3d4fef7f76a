"""rwshim: a RisingWave look-alike that speaks the PostgreSQL wire protocol.

Public API: ``Config`` and ``Server`` (``await Server(Config(port=0)).start()``), ``serve``
(run until SIGINT/SIGTERM), ``Instance`` (the catalog, engine and read path one server
shares, for driving barriers by hand), and the ``RwError`` family in ``rwshim.errors``.
The pytest plugin lives in ``rwshim.testing``.
"""

from rwshim.config import Config
from rwshim.errors import RwError
from rwshim.instance import Instance
from rwshim.server import Server, serve

__version__ = "0.1.0"

__all__ = ["Config", "Instance", "RwError", "Server", "__version__", "serve"]
