"""The ``rwshim`` command line: ``main`` (serve, and the dispatch to the subcommands), ``args``
(the argument types shared with ``rwshim ctl``), ``store`` (``rwshim store ...`` on a data
directory).  ``rwshim ctl`` itself is test control: ``rwshim/control/ctl.py``."""
