"""``rwshim ctl``: control a running rwshim server over SQL, with risectl's verbs where they
exist (``meta pause``, ``meta resume``, ``meta resume-backfill``) plus rwshim's own (``tick``,
``clock``, ``hold-backfill``, ``fault``, ``restart``) and ``jobs``, a live table of streaming
jobs with a progress bar per creating job.

Every command is one or two statements a client could send itself (``ALTER SYSTEM PAUSE``,
``RWSHIM ...``, see ``rwshim.control.statements``), sent with psycopg as a superuser.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections.abc import Sequence
from typing import IO, Any

from rwshim.common.names import quoted

DEFAULT_DSN = "host=127.0.0.1 port=4566 user=root dbname=dev"
BAR_WIDTH = 24


def _dsn_here(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Accept ``--dsn`` after a subcommand too (``rwshim ctl jobs --dsn ...``).  No default
    here, so a ``--dsn`` given before the subcommand (or the default) stands unless this one
    is given."""
    p.add_argument("--dsn", default=argparse.SUPPRESS, help="as --dsn before the subcommand")
    return p


HELP = "control a running server (risectl's verbs, barriers, faults, jobs)"


def add_parser(sub: Any) -> None:
    """Register ``ctl`` and its subcommands on the ``rwshim`` command's subparsers."""
    from rwshim.cli.args import positive_float, positive_int

    ctl = sub.add_parser(
        "ctl",
        help=HELP,
        description="Control a running rwshim server over its SQL port.",
    )
    ctl.add_argument(
        "--dsn",
        default=os.environ.get("RWSHIM_DSN", DEFAULT_DSN),
        help="libpq connection string or URL (default $RWSHIM_DSN or %(default)r)",
    )
    verbs = ctl.add_subparsers(dest="verb", required=True)

    meta = _dsn_here(verbs.add_parser("meta", help="risectl's meta verbs"))
    meta_verbs = meta.add_subparsers(dest="meta_verb", required=True)
    for name, what in (("pause", "pause"), ("resume", "resume")):
        p = _dsn_here(
            meta_verbs.add_parser(name, help=f"{what} the stream graph (like risectl meta {name})")
        )
        p.add_argument("--database", help=f"{what} only this database (rwshim extension)")
    rb = _dsn_here(meta_verbs.add_parser("resume-backfill", help="let a held backfill go on"))
    target = rb.add_mutually_exclusive_group(required=True)
    target.add_argument("--job-id", type=int)
    target.add_argument("--fragment-id", type=int)

    tick = _dsn_here(verbs.add_parser("tick", help="inject barriers now"))
    tick.add_argument("count", nargs="?", type=positive_int, default=1)
    tick.add_argument("--database", help="only this database")

    clock = _dsn_here(
        verbs.add_parser("clock", help="manual: no periodic barriers; auto: periodic again")
    )
    clock.add_argument("mode", choices=("manual", "auto"))

    hold = _dsn_here(verbs.add_parser("hold-backfill", help="stop a creating job's backfill"))
    hold.add_argument("job_id", type=int)

    fault = _dsn_here(verbs.add_parser("fault", help="switch a documented fault, or list them"))
    fault.add_argument("name", nargs="?")
    fault.add_argument("state", nargs="?", choices=("on", "off"))

    _dsn_here(
        verbs.add_parser("restart", help="restart the meta node (RisingWave's recovery runs)")
    )

    push = _dsn_here(
        verbs.add_parser("push", help="deliver messages to a source or a connector table")
    )
    push.add_argument("relation", help="the source or table ([schema.]name)")
    push.add_argument("payloads", nargs="+", help="one message payload each")
    push.add_argument("--key", help="every message's key (UPSERT, INCLUDE key)")
    push.add_argument("--partition", help="the partition (split) the messages arrive on")

    jobs = _dsn_here(verbs.add_parser("jobs", help="a live table of streaming jobs"))
    jobs.add_argument("--once", action="store_true", help="print one snapshot and exit")
    jobs.add_argument(
        "--interval", type=positive_float, default=1.0, help="seconds between refreshes (default 1)"
    )
    jobs.add_argument(
        "--until-done", action="store_true", help="exit when no job is creating any more"
    )
    jobs.add_argument("--all", action="store_true", help="include tables without backfill")


# --- rendering -------------------------------------------------------------------------------

_HEAD = ("ID", "DATABASE", "NAME", "KIND", "STATUS", "CREATE", "PARALLELISM", "MAX", "BACKFILL")


def progress_bar(consumed: int | None, total: int | None, width: int = BAR_WIDTH) -> str:
    """``[#####-----]  50.0% 500/1000``; a job without a known total shows an empty bar."""
    if total is None or consumed is None:
        return "[" + "?" * width + "]"
    frac = 1.0 if total == 0 else min(consumed / total, 1.0)
    filled = int(frac * width)
    return f"[{'#' * filled}{'-' * (width - filled)}] {frac * 100:5.1f}% {consumed}/{total}"


def backfill_cell(job: dict[str, Any]) -> str:
    status = job["status"]
    if status == "CREATED":
        return "done"
    if status == "INITIAL":
        return "waiting for its first barrier"
    cell = progress_bar(job["backfill_consumed"], job["backfill_total"])
    notes = [n for n, on in (("held", job["backfill_held"]), ("paused", job["paused"])) if on]
    return cell + (f" ({', '.join(notes)})" if notes else "")


def render_jobs(jobs: Sequence[dict[str, Any]], *, include_tables: bool = False) -> str:
    """The table ``rwshim ctl jobs`` prints (plain text, aligned columns)."""
    shown = [j for j in jobs if include_tables or j["kind"] != "table" or j["status"] != "CREATED"]
    if not shown:
        return "no streaming jobs\n"
    rows = [_HEAD] + [
        (
            str(j["id"]),
            j["database"],
            j["name"],
            j["kind"],
            j["status"],
            j["create_type"],
            f"{j['parallelism']} ({j['actors']} actors)",
            str(j["max_parallelism"]),
            backfill_cell(j),
        )
        for j in shown
    ]
    widths = [max(len(r[i]) for r in rows) for i in range(len(_HEAD) - 1)]
    lines = []
    for r in rows:
        cells = [c.ljust(w) for c, w in zip(r[:-1], widths, strict=True)]
        lines.append("  ".join([*cells, r[-1]]).rstrip())
    return "\n".join(lines) + "\n"


# --- commands --------------------------------------------------------------------------------


def _connect(dsn: str) -> Any:
    import psycopg

    return psycopg.connect(dsn, autocommit=True, connect_timeout=10)


def fetch_jobs(conn: Any) -> list[dict[str, Any]]:
    cur = conn.execute("RWSHIM JOBS")
    names = [d.name for d in cur.description]
    return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]


def _statements(args: argparse.Namespace, conn: Any) -> list[str]:
    """The statements one command sends (``jobs`` and ``fault`` listing aside)."""
    if args.verb == "meta":
        if args.meta_verb in ("pause", "resume"):
            word = args.meta_verb.upper()
            if args.database:
                return [f"ALTER DATABASE {quoted(args.database)} {word}"]
            return [f"ALTER SYSTEM {word}"]
        job_id = args.job_id
        if job_id is None:
            row = conn.execute(
                "SELECT table_id FROM rw_catalog.rw_fragments WHERE fragment_id = %s",
                (args.fragment_id,),
            ).fetchone()
            if row is None:
                raise CtlError(f"fragment {args.fragment_id} not found")
            job_id = int(row[0])
        return [f"RWSHIM RELEASE BACKFILL {int(job_id)}"]
    if args.verb == "tick":
        db = f" DATABASE {quoted(args.database)}" if args.database else ""
        return [f"RWSHIM TICK {int(args.count)}{db}"]
    if args.verb == "clock":
        return [f"RWSHIM CLOCK {args.mode.upper()}"]
    if args.verb == "hold-backfill":
        return [f"RWSHIM HOLD BACKFILL {int(args.job_id)}"]
    if args.verb == "fault":
        return [f"RWSHIM FAULT {quoted(args.name)} {args.state.upper()}"]
    if args.verb == "restart":
        return ["RWSHIM RESTART"]
    if args.verb == "push":
        return [push_statement(args.relation, args.payloads, args.key, args.partition)]
    raise CtlError(f"unknown command {args.verb}")


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def push_statement(
    relation: str, payloads: Sequence[str], key: str | None, partition: str | None
) -> str:
    """RWSHIM PUSH of ``payloads`` (each with ``key``) to ``relation``."""
    name = ".".join(quoted(p) for p in relation.split("."))
    part = "" if partition is None else f" PARTITION {_literal(partition)}"
    keyed = "" if key is None else f"KEY {_literal(key)} "
    return f"RWSHIM PUSH {name}{part} " + ", ".join(keyed + _literal(p) for p in payloads)


class CtlError(Exception):
    """A ctl usage problem (printed without a traceback)."""


def watch_jobs(
    conn: Any,
    out: IO[str],
    *,
    once: bool,
    interval: float,
    until_done: bool,
    include_tables: bool,
) -> None:
    """Print the job table; refresh it in place on a terminal (one frame after another
    otherwise) until interrupted, or until no job is creating with ``until_done``."""
    tty = out.isatty()
    while True:
        jobs = fetch_jobs(conn)
        frame = render_jobs(jobs, include_tables=include_tables)
        if tty and not once:
            out.write("\x1b[H\x1b[2J")  # home and clear: the table is redrawn in place
            out.write(f"rwshim jobs  {time.strftime('%H:%M:%S')}  (Ctrl-C to stop)\n\n")
        out.write(frame)
        if not tty and not once:
            out.write("\n")
        out.flush()
        creating = any(j["status"] != "CREATED" for j in jobs)
        if once or (until_done and not creating):
            return
        time.sleep(interval)


def run(args: argparse.Namespace, out: IO[str] | None = None) -> int:
    """Run one ``rwshim ctl`` command; returns the exit status."""
    import psycopg

    out = out or sys.stdout
    try:
        with _connect(args.dsn) as conn:
            if args.verb == "jobs":
                with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C ends the live table
                    watch_jobs(
                        conn,
                        out,
                        once=args.once,
                        interval=args.interval,
                        until_done=args.until_done,
                        include_tables=args.all,
                    )
                return 0
            if args.verb == "fault" and args.name is None:
                for name, enabled in conn.execute("RWSHIM FAULTS").fetchall():
                    out.write(f"{name}: {'on' if enabled else 'off'}\n")
                return 0
            if args.verb == "fault" and args.state is None:
                raise CtlError("fault needs a state: on or off")
            for sql in _statements(args, conn):
                conn.execute(sql)
            out.write("Done.\n")  # what risectl prints after a meta command
            return 0
    except CtlError as e:
        print(f"rwshim ctl: {e}", file=sys.stderr)
        return 2
    except psycopg.Error as e:
        print(f"rwshim ctl: {e}".rstrip(), file=sys.stderr)
        return 1
