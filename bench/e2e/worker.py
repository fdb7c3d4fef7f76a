"""A worker process of the e2e runner: runs the files it is sent, one at a time, each against
a database that starts empty, and streams one JSON line per record.

Protocol (stdin/stdout, JSON lines): the parent sends `{"file": <path>}`; the worker answers
`{"result": <record result>, "index": <n>}` per judged record (n counts from 0 in file order)
and `{"done": <path>}` (with `"error"` when the file did not parse).  Targets:

- rwshim (default): a fresh in-process server per file (RisingWave's CI starts each run on an
  empty catalog), on its own event loop in a background thread, as `rwshim.testing` does;
- `--dsn`: any PostgreSQL-wire server; each file gets a database of its own
  (`CREATE DATABASE ... TEMPLATE template0`, dropped afterwards).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any, Protocol

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import psycopg
from psycopg import sql as pgsql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from bench.e2e import slt
from bench.e2e.executor import FileRun, PsycopgSession


class Target(Protocol):
    def open(self, n: int) -> tuple[str, str]:
        """A fresh database for file number n: (conninfo, database name)."""
        ...

    def close_file(self) -> None: ...

    def shutdown(self) -> None: ...


class RwshimTarget:
    """A new in-process rwshim server for every file."""

    def __init__(self) -> None:
        from rwshim.config import Config
        from rwshim.server.listener import Server

        self._config = Config
        self._server_cls = Server
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._server: Any = None

    def _call(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(60)

    def open(self, n: int) -> tuple[str, str]:
        # The release answered as: $RWSHIM_RW_VERSION (rwshim.common.releases), else head.
        release = os.environ.get("RWSHIM_RW_VERSION") or "head"
        config = self._config(host="127.0.0.1", port=0, log_level="WARNING", rw_version=release)
        self._server = self._server_cls(config)
        self._call(self._server.start())
        return f"host=127.0.0.1 port={self._server.port} user=root dbname=dev", "dev"

    def close_file(self) -> None:
        if self._server is not None:
            self._call(self._server.stop())
            self._server = None

    def shutdown(self) -> None:
        self.close_file()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)


class DsnTarget:
    """A database of its own per file on a PostgreSQL-wire server."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self.admin = psycopg.connect(dsn, autocommit=True)
        self.current: str | None = None

    def open(self, n: int) -> tuple[str, str]:
        name = f"slt_{os.getpid()}_{n}"
        self._drop(name)
        self.admin.execute(
            pgsql.SQL("CREATE DATABASE {} TEMPLATE template0").format(pgsql.Identifier(name))
        )
        self.current = name
        params = conninfo_to_dict(self.dsn)
        params["dbname"] = name
        return make_conninfo(**params), name  # type: ignore[arg-type]

    def _drop(self, name: str) -> None:
        self.admin.execute(
            pgsql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(pgsql.Identifier(name))
        )

    def close_file(self) -> None:
        if self.current is not None:
            self._drop(self.current)
            self.current = None

    def shutdown(self) -> None:
        self.close_file()
        self.admin.close()


def make_source(spec: str) -> slt.Source:
    """`git:<git dir>@<rev>` or `dir:<path>`."""
    kind, _, rest = spec.partition(":")
    if kind == "git":
        git_dir, _, rev = rest.rpartition("@")
        return slt.GitSource(Path(git_dir), rev or "HEAD")
    return slt.DirSource(Path(rest))


def emit(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def run_file(target: Target, source: slt.Source, path: str, n: int, args: Any) -> None:
    try:
        items = slt.parse_file(source, path)
    except slt.ParseError as e:
        emit({"done": path, "error": str(e)})
        return
    conninfo, database = target.open(n)
    run = FileRun(
        connect=lambda: PsycopgSession(conninfo),
        labels=frozenset(args.label),
        database=database,
        preamble=tuple(args.preamble),
    )
    try:
        for index, result in enumerate(run.run(items, via=path)):
            emit({"result": result.to_json(), "index": index})
    finally:
        run.close()
        target.close_file()
    emit({"done": path})


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--source", required=True)
    p.add_argument("--dsn")
    p.add_argument("--label", action="append", default=[])
    p.add_argument("--preamble", action="append", default=[])
    args = p.parse_args(argv)
    # The in-process server and this client hand the GIL to each other on every message; a
    # short switch interval keeps each hand-over from waiting out the default 5 ms.
    sys.setswitchinterval(0.0002)
    source = make_source(args.source)
    target: Target = DsnTarget(args.dsn) if args.dsn else RwshimTarget()
    n = 0
    try:
        for line in sys.stdin:
            task = json.loads(line)
            n += 1
            run_file(target, source, task["file"], n, args)
    finally:
        target.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
