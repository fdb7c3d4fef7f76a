"""What start-up imports (issue 16, start-up to first answered query): a server started as
``rwshim`` starts it, that has answered a client's start-up and one ``SELECT 1`` over a real
socket (simple, then extended), has not imported the SQL parsers, the unparser, the DDL-only
modules, the data plane or the standard library modules only other statements use.

A behavioural check on ``sys.modules`` in a fresh interpreter (the time it saves is the
bench's to measure); the second half checks the deferred modules still load when a statement
needs them, over the same connection.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from rwshim.frontend.dispatch import MODULES
from rwshim.sql.statements import FAMILIES

ROOT = Path(__file__).resolve().parents[2]

# A raw-socket client (psycopg would import modules of its own): StartupMessage as psql and
# psycopg send it, then Query messages; prints sys.modules after each answer.  json is imported
# only to print them, after the last look.
SCRIPT = r"""
import asyncio, struct, sys

import rwshim.cli.main  # what ``python -m rwshim`` imports before serving
rwshim.cli.main.build_parser()  # and what its main() imports to read the command line
from rwshim.config import Config
from rwshim.server.listener import Server


def message(tag, body):
    return tag + struct.pack("!i", len(body) + 4) + body


async def answer(reader, writer, sql):
    if sql is not None:
        writer.write(message(b"Q", sql.encode() + b"\0"))
        await writer.drain()
    seen = []
    while True:
        tag = await reader.readexactly(1)
        (size,) = struct.unpack("!i", await reader.readexactly(4))
        body = await reader.readexactly(size - 4)
        seen.append((tag.decode(), body))
        if tag == b"Z":
            return seen


async def main():
    server = Server(Config(host="127.0.0.1", port=0, dashboard_port=None))
    await server.start()
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    params = b"user\0root\0database\0dev\0client_encoding\0UTF8\0application_name\0psql\0\0"
    writer.write(struct.pack("!ii", len(params) + 8, 196608) + params)
    while (await reader.readexactly(1)) != b"Z":
        (size,) = struct.unpack("!i", await reader.readexactly(4))
        await reader.readexactly(size - 4)
    await reader.readexactly(5)
    out = {}
    got = await answer(reader, writer, "SELECT 1")
    out["select1"] = [t for t, _ in got]
    out["select1_row"] = [b.decode(errors="replace") for t, b in got if t == "D"]
    # the extended protocol's SELECT 1: Parse, Bind, Describe, Execute, Sync
    writer.write(
        message(b"P", b"\0SELECT 1\0" + struct.pack("!h", 0))
        + message(b"B", b"\0\0" + struct.pack("!hhh", 0, 0, 0))
        + message(b"D", b"P\0")
        + message(b"E", b"\0" + struct.pack("!i", 0))
        + message(b"S", b"")
    )
    await writer.drain()
    got = await answer(reader, writer, None)
    out["select1_extended"] = [t for t, _ in got]
    out["after_select1"] = sorted(sys.modules)
    out["ddl"] = []
    for sql in ("CREATE TABLE t (v int)", "ALTER TABLE t ADD COLUMN w int"):
        got = await answer(reader, writer, sql)
        out["ddl"] += [t + b.decode() for t, b in got if t in "CE"]
    out["after_ddl"] = sorted(sys.modules)
    writer.close()
    await server.stop()
    import json

    print(json.dumps(out))


asyncio.run(main())
"""

# Not needed to accept a connection and answer SELECT 1.
HEAVY = (
    "sqlglot",  # the read path's binder (constant SELECTs take the fast path)
    "pglast",  # PostgreSQL-syntax statements
    "lark",  # RisingWave's own statements (grammar/)
    "rwshim.sql.rwparser",
    "rwshim.sql.unparse.nodes",  # the unparser: stored definitions, ALTER of a definition
    "rwshim.sql.unparse.display",
    "rwshim.sql.unparse.ddl",
    "rwshim.sql.unparse.ddl_display",
    "rwshim.sql.unparse.purify",
    "rwshim.sql.function_def",  # CREATE / DROP FUNCTION
    "rwshim.binder.prepare",
    "rwshim.dataplane.plane",  # user data on PostgreSQL
    "rwshim.dashboard.app",
    "rwshim.catalog_path.system_catalogs.show",  # SHOW / DESCRIBE
    "rwshim.sql.columns",  # CREATE TABLE / SOURCE's column list
    "rwshim.sql.supported",  # SUPPORTED.md
    # the engine's parts built on first use (rwshim/engine/engine.py)
    "rwshim.engine.alter_columns",
    "rwshim.engine.alter_connector",
    "rwshim.engine.alter_props",
    "rwshim.engine.functions",
    "rwshim.engine.streaming_config",
    "rwshim.dataplane.postgres",  # the data plane's PostgreSQL (``rwshim store`` loads it)
    "importlib.metadata",  # the data plane's binaries look-up (email, zipfile, ...)
    # The statement families but the query family's (rwshim/sql/statements.py FAMILY_OF)
    *(f"rwshim.sql.ast.{f}" for f in FAMILIES if f != "query"),
    # The handler modules but the query one's (rwshim/frontend/dispatch.py MODULE_OF)
    *(f"rwshim.frontend.{m}" for m in MODULES if m != "query"),
    # The standard library's, that asyncio, sqlite3 and logging do not load themselves
    "json",  # JSON values, stored options and definitions
    "hashlib",  # md5 password exchanges, CREATE USER ... PASSWORD, SQL md5()
    "hmac",  # the same, and CancelRequest's key check
    "secrets",  # (the cancel key is read from os.urandom as secrets reads it)
    "random",  # secrets'
    "zoneinfo",  # a TimeZone other than UTC, SET TimeZone's check
    "sysconfig",  # zoneinfo's
    "fractions",  # a subscription's retention
    "encodings.idna",  # resolving a --host name (an address literal is bound as it is)
)


def run() -> dict[str, list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    out: dict[str, list[str]] = json.loads(done.stdout.splitlines()[-1])
    return out


def test_select_1_imports_none_of_the_heavy_modules() -> None:
    out = run()
    # T (RowDescription), D, C, Z: SELECT 1 was answered, with its row
    assert out["select1"] == ["T", "D", "C", "Z"]
    # ParseComplete, BindComplete, RowDescription, DataRow, CommandComplete, ReadyForQuery
    assert out["select1_extended"] == ["1", "2", "T", "D", "C", "Z"]
    assert len(out["select1_row"]) == 1 and out["select1_row"][0].endswith("1")
    loaded = set(out["after_select1"])
    assert sorted(m for m in HEAVY if m in loaded) == []
    # the deferred modules load when a statement needs them: CREATE TABLE stores its
    # definition through the unparser, ADD COLUMN rewrites it; each statement loads its
    # family and its handler module, and nothing the two statements do not need
    assert out["ddl"] == ["CCREATE_TABLE\0", "CALTER_TABLE\0"]
    after = set(out["after_ddl"])
    assert {"rwshim.sql.unparse.nodes", "rwshim.sql.unparse.ddl_display", "pglast"} <= after
    assert {"rwshim.sql.ast.create", "rwshim.sql.ast.alter"} <= after
    assert {"rwshim.frontend.create", "rwshim.frontend.alter_columns"} <= after
    assert "rwshim.engine.alter_columns" in after  # ADD COLUMN's engine part
    assert "rwshim.frontend.privilege" not in after and "rwshim.sql.ast.control" not in after
