"""The ``rwshim`` command: ``rwshim`` / ``rwshim serve`` run a server, ``rwshim ctl ...``
controls a running one (``rwshim.control.ctl``), ``rwshim store ...`` backs up or checks a data
directory (``rwshim.cli.store``).  A bad flag value is one ``rwshim: error: ...`` line and exit
status 2, before anything starts."""

from __future__ import annotations

import argparse
import gc
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from rwshim import __version__
from rwshim.cli.args import (
    LOG_LEVELS,
    Parser,
    dashboard_port,
    data_dir,
    log_level,
    pem_file,
    port,
    positive_float,
    positive_int,
)
from rwshim.common.releases import ENV as RW_VERSION_ENV
from rwshim.common.releases import RELEASES, release
from rwshim.config import AUTH_METHODS, Config
from rwshim.dashboard import DEFAULT_PORT as DASHBOARD_PORT
from rwshim.errors import RwError


def _add_serve_options(p: argparse.ArgumentParser) -> None:
    d = Config()
    p.add_argument("--host", default=d.host, help="listen address (default %(default)s)")
    p.add_argument(
        "--port", type=port, default=d.port, help="listen port, 0 for any (default %(default)s)"
    )
    p.add_argument(
        "--data-dir", type=data_dir, help="keep state in this directory (default: memory)"
    )
    p.add_argument(
        "--postgres-url",
        help="run table data on this PostgreSQL (16 or newer) instead of rwshim's own",
    )
    p.add_argument(
        "--data-pool-size",
        type=positive_int,
        default=d.data_pool_size,
        help="PostgreSQL connections the sessions' table statements share; a statement waits"
        " up to its statement_timeout (30 s when 0) for one (default %(default)s)",
    )
    p.add_argument("--user", default=d.user, help="default user (default %(default)s)")
    p.add_argument("--database", default=d.database, help="default database (default %(default)s)")
    _add_password_options(p)
    p.add_argument(
        "--auth", choices=AUTH_METHODS, default=d.auth, help="password check (default %(default)s)"
    )
    p.add_argument("--tls-cert", type=pem_file, help="PEM certificate: answer SSLRequest with S")
    p.add_argument("--tls-key", type=pem_file, help="PEM private key for --tls-cert")
    p.add_argument("--tls-required", action="store_true", help="refuse connections without TLS")
    p.add_argument("--log-level", type=log_level, default=d.log_level, help=", ".join(LOG_LEVELS))
    p.add_argument("--max-connections", type=positive_int, default=d.max_connections)
    p.add_argument(
        "--startup-timeout",
        type=positive_float,
        default=d.startup_timeout,
        help="seconds a client has to finish startup and authentication (default %(default)s)",
    )
    p.add_argument(
        "--max-message-size",
        type=positive_int,
        default=d.max_message_size,
        help="bytes per message",
    )
    p.add_argument(
        "--dashboard-port",
        type=dashboard_port,
        help=f"web dashboard port on --host, 0 for none (default {DASHBOARD_PORT}; when that"
        " port is taken the server starts without one)",
    )
    p.add_argument(
        "--dashboard-control",
        action="store_true",
        help="let the dashboard pause/resume barriers, tick, and hold backfills",
    )
    p.add_argument(
        "--max-query-size",
        type=positive_int,
        default=d.max_query_size,
        help="longest Query/Parse/Bind message served, in bytes; a longer one is answered with"
        " RisingWave's max_single_query_size_bytes error (default %(default)s)",
    )
    p.add_argument("--no-uvloop", action="store_true", help="use the standard asyncio loop")
    p.add_argument(
        "--rw-version",
        default=os.environ.get(RW_VERSION_ENV) or d.rw_version,
        help=f"the RisingWave release to answer as: {', '.join(RELEASES)} (the latest patch of"
        f" each: v2.8.5, v3.0.3, the reference commit 448c657; default %(default)s,"
        f" or ${RW_VERSION_ENV})",
    )


PASSWORD_ENV = "RWSHIM_PASSWORD"


def _add_password_options(p: argparse.ArgumentParser) -> None:
    secret = p.add_mutually_exclusive_group()
    secret.add_argument(
        "--password",
        help="require this password from users without one of their own"
        " (CREATE USER ... PASSWORD sets a user's own, checked with md5 as RisingWave does);"
        " visible to every local user in the process list: prefer --password-file or"
        f" ${PASSWORD_ENV}",
    )
    secret.add_argument(
        "--password-file",
        type=Path,
        help="read that password from this file (its first line)",
    )
    p.add_argument(
        "--allow-remote-without-password",
        action="store_true",
        help="listen on a non-loopback --host with no password (anyone who reaches the port"
        " is a superuser); refused without this flag",
    )


def _password(args: argparse.Namespace) -> str | None:
    """--password, else the first line of --password-file, else $RWSHIM_PASSWORD."""
    if args.password is not None:
        return str(args.password)
    if args.password_file is not None:
        try:
            text = Path(args.password_file).read_text()
        except OSError as e:
            raise ValueError(f"cannot read --password-file: {e.strerror}: {e.filename}") from None
        line = text.splitlines()[0] if text else ""
        if not line:
            raise ValueError(f"--password-file {args.password_file} is empty")
        return line
    return os.environ.get(PASSWORD_ENV) or None


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The command line's parser; for ``argv`` (the arguments to parse) that name neither
    ``ctl`` nor ``store``, with those two registered by name and help only: their ~50
    subparsers were 9 ms of every server's start-up (issue 16), and ``rwshim --help`` lists
    the subcommands by their help alone."""
    parser = Parser(
        prog="rwshim", description="A RisingWave look-alike speaking the PostgreSQL protocol."
    )
    parser.add_argument("--version", action="version", version=f"rwshim {__version__}")
    _add_serve_options(parser)
    sub = parser.add_subparsers(dest="command")
    serve = sub.add_parser("serve", help="run the server (the default)")
    _add_serve_options(serve)
    from rwshim.cli import store as storecmd
    from rwshim.control import ctl

    if argv is None or any(a in ("ctl", "store") for a in argv):
        ctl.add_parser(sub)
        storecmd.add_parser(sub)
    else:
        sub.add_parser("ctl", help=ctl.HELP)
        sub.add_parser("store", help=storecmd.HELP)
    return parser


def config_from_args(args: argparse.Namespace) -> Config:
    release(args.rw_version)  # ValueError naming the releases: one usage line
    return Config(
        host=args.host,
        port=args.port,
        user=args.user,
        database=args.database,
        data_dir=args.data_dir,
        postgres_url=args.postgres_url,
        data_pool_size=args.data_pool_size,
        password=_password(args),
        allow_remote_without_password=args.allow_remote_without_password,
        auth=args.auth,
        tls_cert=args.tls_cert,
        tls_key=args.tls_key,
        tls_required=args.tls_required,
        log_level=args.log_level.upper(),
        max_connections=args.max_connections,
        startup_timeout=args.startup_timeout,
        max_message_size=args.max_message_size,
        max_query_size=args.max_query_size,
        use_uvloop=not args.no_uvloop,
        # Not given: RisingWave's port, and a busy one is only a warning; 0: no dashboard.
        dashboard_port=(
            DASHBOARD_PORT if args.dashboard_port is None else args.dashboard_port or None
        ),
        dashboard_optional=args.dashboard_port is None,
        dashboard_control=args.dashboard_control,
        rw_version=args.rw_version,
    )


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    if args.command in ("ctl", "store"):
        gc.enable()  # off while the modules loaded (rwshim/__main__.py): a short-lived client
    if args.command == "ctl":
        from rwshim.control import ctl

        return ctl.run(args)
    if args.command == "store":
        from rwshim.cli import store as storecmd

        return storecmd.run(args)
    try:
        config = config_from_args(args)
    except ValueError as e:
        parser.error(str(e))
    if config.exposed_without_password():
        print(
            f"rwshim: refusing to listen on {config.host!r} without a password (any client"
            " that reaches it is a superuser): give --password-file, $RWSHIM_PASSWORD or"
            " --password, or --allow-remote-without-password",
            file=sys.stderr,
        )
        return 2
    logging.basicConfig(
        level=config.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    # No cyclic collections while the modules, grammar and catalog are built: start-up
    # makes only long-lived objects, and collecting them repeatedly is ~10% of it.
    # ``serve`` freezes them and turns the collector back on once the port is open.
    gc.disable()
    from rwshim.server.listener import run

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
