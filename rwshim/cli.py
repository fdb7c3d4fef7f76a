"""The ``rwshim`` command: ``rwshim`` / ``rwshim serve`` run a server, ``rwshim ctl ...``
controls a running one (``rwshim.ctl``)."""

from __future__ import annotations

import argparse
import gc
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from rwshim.config import AUTH_METHODS, Config
from rwshim.errors import RwError


def _add_serve_options(p: argparse.ArgumentParser) -> None:
    d = Config()
    p.add_argument("--host", default=d.host, help="listen address (default %(default)s)")
    p.add_argument("--port", type=int, default=d.port, help="listen port (default %(default)s)")
    p.add_argument("--data-dir", type=Path, help="keep state in this directory (default: memory)")
    p.add_argument("--user", default=d.user, help="default user (default %(default)s)")
    p.add_argument("--database", default=d.database, help="default database (default %(default)s)")
    p.add_argument(
        "--password",
        help="require this password from users without one of their own"
        " (CREATE USER ... PASSWORD sets a user's own, checked with md5 as RisingWave does)",
    )
    p.add_argument(
        "--auth", choices=AUTH_METHODS, default=d.auth, help="password check (default %(default)s)"
    )
    p.add_argument("--tls-cert", type=Path, help="PEM certificate: answer SSLRequest with S")
    p.add_argument("--tls-key", type=Path, help="PEM private key for --tls-cert")
    p.add_argument("--tls-required", action="store_true", help="refuse connections without TLS")
    p.add_argument("--log-level", default=d.log_level, help="DEBUG, INFO, WARNING, ERROR")
    p.add_argument("--max-connections", type=int, default=d.max_connections)
    p.add_argument(
        "--startup-timeout",
        type=float,
        default=d.startup_timeout,
        help="seconds a client has to finish startup and authentication (default %(default)s)",
    )
    p.add_argument(
        "--max-message-size", type=int, default=d.max_message_size, help="bytes per message"
    )
    p.add_argument("--no-uvloop", action="store_true", help="use the standard asyncio loop")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rwshim", description="A RisingWave look-alike speaking the PostgreSQL protocol."
    )
    _add_serve_options(parser)
    sub = parser.add_subparsers(dest="command")
    serve = sub.add_parser("serve", help="run the server (the default)")
    _add_serve_options(serve)
    from rwshim import ctl, storecmd

    ctl.add_parser(sub)
    storecmd.add_parser(sub)
    return parser


def config_from_args(args: argparse.Namespace) -> Config:
    return Config(
        host=args.host,
        port=args.port,
        user=args.user,
        database=args.database,
        data_dir=args.data_dir,
        password=args.password,
        auth=args.auth,
        tls_cert=args.tls_cert,
        tls_key=args.tls_key,
        tls_required=args.tls_required,
        log_level=args.log_level.upper(),
        max_connections=args.max_connections,
        startup_timeout=args.startup_timeout,
        max_message_size=args.max_message_size,
        use_uvloop=not args.no_uvloop,
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "ctl":
        from rwshim import ctl

        return ctl.run(args)
    if args.command == "store":
        from rwshim import storecmd

        return storecmd.run(args)
    try:
        config = config_from_args(args)
    except ValueError as e:
        parser.error(str(e))
    logging.basicConfig(
        level=config.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    # No cyclic collections while the modules, grammar and catalog are built: start-up
    # makes only long-lived objects, and collecting them repeatedly is ~10% of it.
    # ``serve`` freezes them and turns the collector back on once the port is open.
    gc.disable()
    from rwshim.server import run

    try:
        run(config)
    except KeyboardInterrupt:
        pass
    except OSError as e:
        logging.getLogger("rwshim").error("cannot serve: %s", e)
        return 1
    except RwError as e:
        # A data directory that is not (or no longer) ours: say so, touch nothing.
        logging.getLogger("rwshim").error("cannot serve: %s", e)
        return 1
    return 0
