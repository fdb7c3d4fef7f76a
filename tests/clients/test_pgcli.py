"""pgcli 4.7's start-up, completion-refresh and backslash-command queries, replayed over a socket.

The statements come from the wire captures in ``data/pgcli_*.log`` (pgcli against PostgreSQL
posing as RisingWave; clients.md §5.2). Each is sent the way pgcli's psycopg sent it: a simple
Query, or an unnamed Parse with untyped (OID 0) text parameters, through libpq. Every one must
succeed with the column names PostgreSQL gave it; for the completion queries the rows are checked
too, over objects like the capture's.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from psycopg import pq

from tests.conftest import ThreadRunning, ThreadServer, _config

DATA = Path(__file__).parent / "data"
_QUERY = re.compile(r"F> Query (.*)$")
_PARSE = re.compile(r"F> Parse stmt='' paramtypes=\[(.*?)\] query=(.*)$")
_BIND = re.compile(r"F> Bind portal='' stmt='' paramformats=\[.*?\] params=(\[.*\]) resultformats")
_ROWDESC = re.compile(r"<B RowDescription \[(.*)\]$")
_COLNAME = re.compile(r"(?:^|, )([^(),]+)\(oid=")


@dataclass(frozen=True)
class Captured:
    sql: str
    params: tuple[bytes, ...] | None  # None: simple protocol
    columns: tuple[str, ...]


def captured(log: Path) -> list[Captured]:
    """The client's statements with the column names PostgreSQL described, in order."""
    out: list[Captured] = []
    sql: str | None = None
    params: tuple[bytes, ...] | None = None
    for line in log.read_text().splitlines():
        if m := _QUERY.search(line):
            sql, params = ast.literal_eval(m.group(1)), None
        elif m := _PARSE.search(line):
            sql, params = ast.literal_eval(m.group(2)), ()
        elif (m := _BIND.search(line)) and sql is not None:
            params = tuple(ast.literal_eval(m.group(1)))
        elif (m := _ROWDESC.search(line)) and sql is not None:
            out.append(Captured(sql, params, tuple(_COLNAME.findall(m.group(1)))))
            sql = None
    return out


STATEMENTS = list(
    dict.fromkeys(captured(DATA / "pgcli_startup.log") + captured(DATA / "pgcli_cmds.log"))
)
SETUP = (
    "CREATE TABLE t1 (id int PRIMARY KEY, name varchar); "
    "CREATE INDEX idx_t1_name ON t1 (name); "
    "CREATE TABLE t2 (a int, b varchar); "
    "CREATE MATERIALIZED VIEW mv1 AS SELECT name, count(*) AS n FROM t1 GROUP BY name; "
    "CREATE VIEW v1 AS SELECT id FROM t1"
)


def run(conn: psycopg.Connection, st: Captured) -> pq.abc.PGresult:
    if st.params is None:
        res = conn.pgconn.exec_(st.sql.encode())
    else:
        res = conn.pgconn.exec_params(
            st.sql.encode(), list(st.params), [0] * len(st.params), result_format=0
        )
    return res


def rows(res: pq.abc.PGresult) -> list[tuple[str | None, ...]]:
    return [
        tuple(
            None if res.get_value(r, c) is None else bytes(res.get_value(r, c) or b"").decode()
            for c in range(res.nfields)
        )
        for r in range(res.ntuples)
    ]


@pytest.fixture(scope="module")
def pgcli_server() -> Iterator[ThreadRunning]:
    ts = ThreadServer(*_config({}))
    running = ThreadRunning(ts.server, ts.server.host, ts.server.port, ts)
    with psycopg.connect(running.dsn(), autocommit=True) as conn:
        assert conn.pgconn.exec_(SETUP.encode()).status == pq.ExecStatus.COMMAND_OK
    yield running
    ts.stop()


def test_captures_hold_the_statements() -> None:
    # the parser found pgcli's whole repertoire: start-up, refresher, backslash commands
    assert len(STATEMENTS) >= 20
    assert sum(1 for s in STATEMENTS if s.params) >= 5


# Where RisingWave answers differently from the PostgreSQL of the capture. Column names follow
# RisingWave's derive_alias (src/frontend/src/binder/select.rs:706): a CASE is "case", a scalar
# subquery "?column?". ``SHOW TIME ZONE`` is SHOW of a variable named "time zone"
# (handler/variable.rs:118), which does not exist; pgcli carries on without it.
RW_COLUMNS = {
    "CASE WHEN c.reloftype = 0": {"reloftype": "case"},
    "(SELECT substring(pg_catalog.pg_get_expr": {"substring": "?column?"},
}
_RUN = "ERROR:  Failed to run the query\n\nCaused by"
_PREPARE = "ERROR:  Failed to prepare the statement\n\nCaused by"
_NO_TRACKING = (
    "No tracking issue yet. Feel free to submit a feature request at "
    "https://github.com/risingwavelabs/risingwave/issues/new?labels=type%2Ffeature&"
    "template=feature_request.yml"
)


def _chain(envelope: str, *causes: str) -> str:
    if len(causes) == 1:
        return f"{envelope}:\n  {causes[0]}\n\n"
    listed = "".join(f"  {i}: {c}\n" for i, c in enumerate(causes, start=1))
    return f"{envelope} these errors (recent errors listed first):\n{listed}\n"


def _column(expr: str, column: str) -> str:
    return _chain(
        _RUN, f"Failed to bind expression: {expr}", f"Item not found: Invalid column: {column}"
    )


def _data_type(envelope: str, expr: str, name: str) -> str:
    return _chain(
        envelope,
        f"Failed to bind expression: {expr}",
        f"Feature is not yet implemented: unsupported data type: {name}\n{_NO_TRACKING}",
    )


# Statements RisingWave fails (by the start of their text, whitespace collapsed), with its whole
# message: a cast to a type its bind_data_type refuses (binder/expr/mod.rs), a column its
# catalogs lack (pg_class.rs, pg_proc.rs, pg_constraint.rs), the variable "time zone".
RW_ERRORS = {
    "show time zone": _chain(
        _RUN,
        "Failed to get or set session config",
        "Unrecognized config entry `time zone`",
    ),
    # the completion refresher's column and function lists
    "SELECT nsp.nspname schema_name, cls.relname table_name, att.attname column_name, "
    "att.atttypid::regtype::text": _data_type(
        _PREPARE, "CAST(CAST(att.atttypid AS regtype) AS TEXT)", "regtype"
    ),
    "SELECT n.nspname schema_name, p.proname func_name, p.proargnames": _column(
        "p.proargnames", "proargnames"
    ),
    # pgspecial's \d NAME
    "SELECT c.relchecks, c.relkind, c.relhasindex": _column(
        "(c.reltoastrelid = tc.oid)", "reltoastrelid"
    ),
    "SELECT c2.relname, i.indisprimary": _column("condeferred", "condeferred"),
    "SELECT c.oid::pg_catalog.regclass": _data_type(
        _RUN, "CAST(c.oid AS pg_catalog.regclass)", "pg_catalog.regclass"
    ),
}


def rw_error(st: Captured) -> str | None:
    text = " ".join(st.sql.split())
    return next((e for f, e in RW_ERRORS.items() if text.startswith(f)), None)


def expected_columns(st: Captured) -> tuple[str, ...]:
    for fragment, renames in RW_COLUMNS.items():
        if fragment in st.sql:
            return tuple(renames.get(c, c) for c in st.columns)
    return st.columns


@pytest.mark.parametrize(
    "st", STATEMENTS, ids=[f"{i}-{' '.join(s.sql.split())[:40]}" for i, s in enumerate(STATEMENTS)]
)
def test_pgcli_statement(pgcli_server: ThreadRunning, st: Captured) -> None:
    with psycopg.connect(pgcli_server.dsn(), autocommit=True) as conn:
        res = run(conn, st)
        error = rw_error(st)
        if error is not None:
            assert res.status == pq.ExecStatus.FATAL_ERROR
            assert (res.error_message or b"").decode() == error
            return
        assert res.status == pq.ExecStatus.TUPLES_OK, (res.error_message or b"").decode()
        names = tuple(bytes(res.fname(i) or b"").decode() for i in range(res.nfields))
        assert names == expected_columns(st)


def find(fragment: str, params: tuple[bytes, ...] | None = None) -> Captured:
    for s in STATEMENTS:
        if fragment in s.sql and (params is None or s.params == params):
            return s
    raise AssertionError(f"no captured statement with {fragment!r}")


def test_completion_rows(pgcli_server: ThreadRunning) -> None:
    with psycopg.connect(pgcli_server.dsn(), autocommit=True) as conn:
        schemas = rows(run(conn, find("SELECT  nspname")))
        assert schemas == [("information_schema",), ("pg_catalog",), ("public",), ("rw_catalog",)]
        search_path = rows(run(conn, find("unnest(current_schemas(true))")))
        assert search_path == [("pg_catalog",), ("rw_catalog",), ("public",)]
        tables = rows(run(conn, find("c.relname table_name", (b"{r,p,f}",))))
        assert [r for r in tables if r[0] == "public"] == [("public", "t1"), ("public", "t2")]
        views = rows(run(conn, find("c.relname table_name", (b"{v,m}",))))
        assert [r for r in views if r[0] == "public"] == [("public", "mv1"), ("public", "v1")]
        # no column completions: RisingWave refuses the column query's ``::regtype``
        cols = run(conn, find("att.attname column_name", (b"{r,p,f}",)))
        assert cols.status == pq.ExecStatus.FATAL_ERROR
        assert rows(run(conn, find("FROM pg_catalog.pg_database d\n        ORDER BY 1"))) == [
            ("dev",)
        ]


# pgcli itself, run non-interactively (-c / -l / --ping). It lives in its own virtualenv:
# RWSHIM_PGCLI or <repo>/.venv-pgcli/bin/pgcli; the test fails, never skips, without it.
REPO = Path(__file__).resolve().parents[2]


def pgcli_executable() -> str:
    exe = os.environ.get("RWSHIM_PGCLI") or str(REPO / ".venv-pgcli" / "bin" / "pgcli")
    assert Path(exe).is_file(), (
        f"pgcli not found at {exe}: install it with `python -m venv .venv-pgcli && "
        ".venv-pgcli/bin/pip install pgcli==4.7.1` or point RWSHIM_PGCLI at it"
    )
    return exe


def pgcli(
    server: ThreadRunning, home: Path, *args: str, rc: str | None = None
) -> subprocess.CompletedProcess[str]:
    cmd = [pgcli_executable(), "-h", server.host, "-p", str(server.port), "-U", "root", "-w"]
    if rc is not None:
        (home / "pgclirc").write_text(rc)
        cmd += ["--pgclirc", str(home / "pgclirc")]
    env = dict(os.environ, HOME=str(home), TERM="dumb", LANG="C.UTF-8", PGCONNECT_TIMEOUT="10")
    r = subprocess.run(
        [*cmd, "--less-chatty", *args, "dev"], env=env, capture_output=True, text=True, timeout=60
    )
    # pgcli times every statement; the figure varies
    r.stdout = re.sub(r"^Time: \d+\.\d+s.*\n", "", r.stdout, flags=re.M)
    return r


# pgcli 4.3+ sends SHOW TIME ZONE at start-up unless use_local_timezone is off, and does not
# catch its failure; RisingWave (and rwshim) has no variable named "time zone".
NO_LOCAL_TZ = "[main]\nuse_local_timezone = False\n"


def test_pgcli_default_start_up_fails_on_show_time_zone(
    pgcli_server: ThreadRunning, tmp_path: Path
) -> None:
    r = pgcli(pgcli_server, tmp_path, "-c", "select 1")
    assert r.returncode == 1
    assert r.stderr.endswith(
        "psycopg.errors.InternalError_: Failed to run the query\n\n"
        "Caused by these errors (recent errors listed first):\n"
        "  1: Failed to get or set session config\n"
        "  2: Unrecognized config entry `time zone`\n"
    )


def test_pgcli_runs_commands(pgcli_server: ThreadRunning, tmp_path: Path) -> None:
    def ok(*args: str) -> str:
        r = pgcli(pgcli_server, tmp_path, *args, rc=NO_LOCAL_TZ)
        assert (r.returncode, r.stderr) == (0, ""), r.stderr
        return r.stdout

    assert ok("--ping") == "PONG\n"
    assert ok("-c", "select 1 as x, 'a' as y") == (
        "+---+---+\n| x | y |\n|---+---|\n| 1 | a |\n+---+---+\nSELECT 1\n"
    )
    assert ok("-t", "-c", "select count(*) from t1") == "0\n"
    assert ok("-c", "\\dn") == (
        "+------------+-------+\n"
        "| Name       | Owner |\n"
        "|------------+-------|\n"
        "| public     | root  |\n"
        "| rw_catalog | root  |\n"
        "+------------+-------+\n"
        "SELECT 2\n"
    )
    assert ok("-c", "\\dv v1") == (
        "+--------+------+------+-------+\n"
        "| Schema | Name | Type | Owner |\n"
        "|--------+------+------+-------|\n"
        "| public | v1   | view | root  |\n"
        "+--------+------+------+-------+\n"
        "SELECT 1\n"
    )
    # pgspecial's \\d NAME reads pg_class columns RisingWave lacks; pgcli prints the error
    assert ok("-c", "\\d t2") == (
        "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Failed to bind expression: (c.reltoastrelid = tc.oid)\n"
        "  2: Item not found: Invalid column: reltoastrelid\n"
    )
    assert ok("-l") == (
        "List of databases\n"
        "+------+-------+----------+---------+-------+-------------------+\n"
        "| Name | Owner | Encoding | Collate | Ctype | Access privileges |\n"
        "+------+-------+----------+---------+-------+-------------------+\n"
        "| dev  | root  | UTF8     | C       | C     | root=Cc/root      |\n"
        "|      |       |          |         |       | postgres=Cc/root  |\n"
        "|      |       |          |         |       | rwadmin=Cc/root   |\n"
        "+------+-------+----------+---------+-------+-------------------+\n"
        "SELECT 1\n"
    )
