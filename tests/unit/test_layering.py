"""The layout holds: every package and top-level module has a place in one dependency order,
every import (lazy and type-only ones included) runs down it, the sans-I/O cores do no I/O,
no import cycle spans two folders, and modules and classes stay small.  ARCHITECTURE.md draws
the same order; its table is this file's ``RANKS``."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[2] / "rwshim"

# Each unit (a top-level module, a package, or the subpackage or module named: the longest
# name wins) and its rank, bottom up.  A module may import its own unit and units of a lower
# rank only, so equal ranks never import each other.  RisingWave's crates in brackets.
RANKS: dict[str, int] = {
    # leaves: imported by everything, importing nothing of rwshim's but each other
    "errors": 10, "lazy": 10, "logfmt": 10, "cachedir": 10, "version": 10, "config": 10,
    "common": 15,  # values and rules every layer shares [src/common]
    "wire": 20,  # sans-I/O PostgreSQL v3, server side [src/utils/pgwire]
    "sql": 21,  # text -> typed statements [src/sqlparser]
    "store": 22,  # the SQLite meta store [src/meta/model]
    "dataplane.postgres": 23,  # the data plane's PostgreSQL process and files
    "engine": 30,  # the meta node in parts [src/meta]
    "binder": 40,  # names, typing, binding [src/frontend/src/binder]
    "catalog_path": 50,  # constants and catalog-only queries in process [frontend system_catalog]
    "dataplane.plan": 60,  # sans-I/O planning of user statements for PostgreSQL [src/batch]
    "dataplane": 65,  # the data plane's I/O shell: connections, sessions, change logs
    "dataplane.sinks": 66,  # sinks that deliver: into tables, to an external PostgreSQL
    "dataplane.sources": 66,  # connectors that produce: RWSHIM PUSH, datagen, posix_fs
    "instance": 70,  # composition root: store + engine + catalog path + data plane + clock
    "control": 75,  # test control: the RWSHIM statements and the actions behind them
    "frontend": 80,  # statement handlers [src/frontend/src/handler]
    "server.shortcuts": 85,  # answers from kept bytes (issue 16), one invalidation rule
    "dashboard": 87,  # the web dashboard, started by the server (lazily) or read by the CLI
    "server": 90,  # sockets, start-up, login, sessions, portals [src/utils/pgwire]
    "cli.args": 94,  # the command line's argument types, shared with ``rwshim ctl``
    "control.ctl": 95,  # ``rwshim ctl``: a client of a running server
    "__init__": 96,  # the public API, names loaded on first use
    "cli": 97,  # the ``rwshim`` command
    "control.plugin": 98,  # the pytest plugin
    "testing": 99,  # the plugin's entry point (pytest11)
    "__main__": 99,
}  # fmt: skip
# Units that import no asyncio, socket or ssl: the sans-I/O cores.
WITHOUT_IO = {
    "common", "wire", "sql", "store", "engine", "binder", "catalog_path", "dataplane.plan",
}  # fmt: skip
# The only top-level modules: entry points and leaves.
TOP_LEVEL = {"__init__", "__main__", "errors", "lazy", "logfmt", "cachedir", "version", "config",
             "instance", "testing"}  # fmt: skip
# Generated tables (a generator, "do not edit") may be long; nothing else.
MAX_LINES = 800
MAX_METHODS = 40


def _name(path: Path) -> str:
    rel = path.relative_to(PKG).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def _unit(name: str) -> str | None:
    best = None
    for u in RANKS:
        if (name == u or name.startswith(u + ".")) and (best is None or len(u) > len(best)):
            best = u
    return best


MODULES = {_name(p): p for p in PKG.rglob("*.py")}


def _targets(path: Path) -> set[str]:
    """The rwshim modules ``path`` imports: ``from a import b`` counts as module ``a.b`` when
    there is one, else as ``a`` (a name defined in ``a``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [
                f"{node.module}.{a.name}"
                if f"{node.module}.{a.name}".removeprefix("rwshim.") in MODULES
                else node.module
                for a in node.names
            ]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for n in names:
            if n == "rwshim" or not n.startswith("rwshim."):
                continue
            n = n.removeprefix("rwshim.")
            while n and n not in MODULES:
                n = n.rpartition(".")[0]
            if n:
                found.add(n)
    return found


GRAPH = {name: _targets(path) for name, path in MODULES.items()}


def _imported_names(path: Path) -> set[str]:
    """Every module a file imports, ``from a.b import c`` counted as ``a.b`` and ``a.b.c``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def test_every_module_has_a_rank() -> None:
    assert sorted(n for n in MODULES if _unit(n) is None) == []


def test_imports_run_down_the_ranks() -> None:
    bad = []
    for name, targets in sorted(GRAPH.items()):
        u = _unit(name)
        assert u is not None
        for t in sorted(targets):
            v = _unit(t)
            assert v is not None
            if v != u and RANKS[v] >= RANKS[u]:
                bad.append(f"{name} ({u}, {RANKS[u]}) imports {t} ({v}, {RANKS[v]})")
    assert bad == []


def test_the_sans_io_cores_do_no_io() -> None:
    bad = []
    for name, path in sorted(MODULES.items()):
        if _unit(name) not in WITHOUT_IO:
            continue
        for mod in _imported_names(path):
            if mod.split(".")[0] in {"asyncio", "socket", "ssl", "selectors"}:
                bad.append(f"{name} imports {mod}")
    assert bad == []


def _cycles() -> list[list[str]]:
    """Strongly connected components of the import graph with more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's algorithm; the graph is a few hundred nodes deep
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return out


def _folder(name: str) -> str:
    return MODULES[name].parent.relative_to(PKG).as_posix()


def test_no_import_cycle_spans_two_folders() -> None:
    assert [c for c in _cycles() if len({_folder(m) for m in c}) > 1] == []


def test_the_top_level_holds_entry_points_and_leaves() -> None:
    assert {p.stem for p in PKG.glob("*.py")} == TOP_LEVEL


def _generated(text: str) -> bool:
    head = text[:1500]
    return "do not edit" in head.lower() or "(generated" in head


def test_modules_and_classes_stay_small() -> None:
    long, big = [], []
    for name, path in sorted(MODULES.items()):
        text = path.read_text()
        if _generated(text):
            continue
        if text.count("\n") > MAX_LINES:
            long.append(f"{name}: {text.count(chr(10))} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                n = sum(isinstance(b, ast.FunctionDef | ast.AsyncFunctionDef) for b in node.body)
                if n > MAX_METHODS:
                    big.append(f"{name}.{node.name}: {n} methods")
    assert (long, big) == ([], [])


def test_only_the_server_and_the_cli_reach_the_dashboard() -> None:
    """The dashboard sits on top: the server starts it (importing it inside a function, so
    that a server without one never loads the web library) and the CLI reads its port."""
    users = {"server", "cli"}
    bad = [
        f"{name} imports {t}"
        for name, targets in sorted(GRAPH.items())
        if _unit(name) not in users | {"dashboard"}
        for t in sorted(targets)
        if _unit(t) == "dashboard"
    ]
    assert bad == []


# The catalog path's SQLite part (catalog_path/sqlite/: lowering, registered functions, casts,
# the constant fast path) is named by one module, the composition root catalog_path/engine.py;
# everything else reaches it through the Lowering and Executor protocols (binder/lowering.py,
# binder/prepared.py).  It never imports the binder's algorithm, only its engine-independent
# leaves (types, context, relations, resolve, parse, functions, prepared).
SQLITE_PART = "catalog_path.sqlite"
BINDER_ALGORITHM = {
    "binder.binder", "binder.bind_expr", "binder.bind_ops", "binder.bind_func",
    "binder.bind_catalog", "binder.prepare",
}  # fmt: skip


def test_only_the_catalog_engine_imports_the_sqlite_part() -> None:
    bad = [
        f"{name} imports {t}"
        for name, targets in sorted(GRAPH.items())
        if not (name == SQLITE_PART or name.startswith(SQLITE_PART + "."))
        and name != "catalog_path.engine"
        for t in sorted(targets)
        if t == SQLITE_PART or t.startswith(SQLITE_PART + ".")
    ]
    assert bad == []


def test_the_sqlite_part_does_not_import_the_binder_algorithm() -> None:
    bad = [
        f"{name} imports {t}"
        for name, targets in sorted(GRAPH.items())
        if name.startswith(SQLITE_PART + ".")
        for t in sorted(targets)
        if t in BINDER_ALGORITHM
    ]
    assert bad == []


# --- the engine's parts (issue 11) ------------------------------------------------------------

ENGINE = PKG / "engine"
# Engine modules of plain values and pure functions: every part may import them, and they
# import only each other.
ENGINE_LEAVES = {
    "types", "kinds", "options", "parallelism", "graph", "sysparams", "retention", "relrow",
}  # fmt: skip
# part -> the parts it may import besides itself and the leaves: RisingWave's meta node from
# the bottom (the shared environment, users, sessions' waits, the catalog) up to the DDL entry
# points; the facade (engine, and the package's __init__) composes them all.
ENGINE_ALLOWED: dict[str, set[str]] = {
    "state": set(),
    "privileges": {"state"},
    "users": {"state", "privileges"},
    "waits": {"state"},
    "catalog": {"state", "users", "waits", "privileges"},
    "params": {"state", "users", "catalog", "waits"},
    "actors": {"state"},
    "fragments": {"state", "catalog"},
    "backfill": {"state", "params", "catalog", "actors", "waits"},
    "barrier": {"state", "users", "params", "catalog", "backfill", "waits"},
    "scale": {"state", "catalog", "actors", "barrier", "backfill"},
    "throttle": {"state", "catalog", "barrier"},
    "recovery": {"state", "users", "params", "catalog", "waits", "actors", "barrier"},
    "jobs": {"state", "catalog", "waits", "fragments", "actors", "backfill", "barrier", "recovery"},
    "secrets": {"state", "users", "privileges", "catalog"},
    "streaming_config": {"state", "catalog"},
    "subscriptions": {"state", "users", "privileges", "catalog", "barrier"},
    "events": {"state"},
    "ddl": {"state", "catalog", "waits", "barrier", "jobs", "secrets", "subscriptions"},
    "alter": {"state", "users", "catalog", "subscriptions"},
    "alter_columns": {"state", "catalog"},
    "alter_props": {"state", "catalog", "secrets"},
    "alter_connector": {"state", "catalog"},
    "functions": {"state", "privileges", "catalog", "barrier"},
}
ENGINE_FACADE = {"engine", "__init__"}


def _engine_imports(path: Path) -> set[str]:
    """The engine modules ``path`` imports (``from rwshim.engine import graph`` included)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module == "rwshim.engine":
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("rwshim.engine."):
            found.add((node.module or "").split(".")[2])
        elif isinstance(node, ast.Import):
            found.update(
                a.name.split(".")[2] for a in node.names if a.name.startswith("rwshim.engine.")
            )
    return found


def test_every_engine_module_has_a_place() -> None:
    modules = {p.stem for p in ENGINE.glob("*.py")}
    assert modules == ENGINE_LEAVES | set(ENGINE_ALLOWED) | ENGINE_FACADE


def test_engine_parts_import_only_the_parts_below_them() -> None:
    bad = []
    for path in sorted(ENGINE.glob("*.py")):
        part = path.stem
        if part in ENGINE_FACADE:
            continue
        allowed = ENGINE_LEAVES if part in ENGINE_LEAVES else ENGINE_LEAVES | ENGINE_ALLOWED[part]
        for mod in sorted(_engine_imports(path) - {part}):
            if mod not in allowed:
                bad.append(f"engine/{part}.py imports engine.{mod}")
    assert bad == []


def test_engine_parts_are_acyclic() -> None:
    order: list[str] = []
    left = {k: set(v) for k, v in ENGINE_ALLOWED.items()}
    while left:
        ready = sorted(k for k, deps in left.items() if deps <= set(order))
        assert ready, f"a cycle among {sorted(left)}"
        order += ready
        for k in ready:
            del left[k]


def test_engine_parts_use_each_other_by_public_names() -> None:
    """A part calls another part's named functions, never its private state:
    ``self.<part>._x`` is refused."""
    parts = set(ENGINE_ALLOWED)
    bad = []
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and isinstance(node.value, ast.Attribute)
                and node.value.attr in parts
                and isinstance(node.value.value, ast.Name)
                and node.value.value.id == "self"
            ):
                bad.append(
                    f"engine/{path.stem}.py:{node.lineno} uses {node.value.attr}.{node.attr}"
                )
    assert bad == []
