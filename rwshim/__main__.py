"""``python -m rwshim`` and the ``rwshim`` command (pyproject's entry point): the command line
of ``rwshim.cli.main``, with the cyclic garbage collector off while its modules load."""

from __future__ import annotations

import gc
import sys


def main() -> int:
    # Start-up makes only long-lived objects (modules, records, the grammar, the catalog):
    # collecting them while they load was ~9 ms of it (45 collections), before rwshim.cli.main's own
    # gc.disable() could run.  serve() freezes them and turns the collector back on once the
    # port is open; the other subcommands turn it back on at once (rwshim.cli.main.main).
    gc.disable()
    from rwshim.cli.main import main as cli_main

    return cli_main()


if __name__ == "__main__":
    sys.exit(main())
