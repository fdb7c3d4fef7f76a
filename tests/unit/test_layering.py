"""The dependency direction of architecture.md holds: no module imports a forbidden layer."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[2] / "rwshim"

# layer -> layers it may import (besides itself and the leaves).
# session_vars_generated is data generated from RisingWave's source and imports nothing;
# version holds the version constants; lazy (a module imported on first use) imports only
# what its caller names; cachedir (the per-machine cache root) imports nothing of rwshim's.
LEAVES = {
    "errors", "pgtypes", "qualified", "results", "rwtypes", "session_vars_generated", "acl",
    "version", "lazy", "cachedir",
}  # fmt: skip
ALLOWED: dict[str, set[str]] = {
    "wire": set(),
    "sql": {"session_config"},
    "store": set(),
    "engine": {"store", "sql", "session_config"},
    # dataplane/plan/prepass.py reads RisingWave-only syntax with RisingWave's tokenizer
    # (sql/tokens)
    "query": {"store", "session_config", "sql"},
    "session_config": set(),
    # The data plane's PostgreSQL process and files: I/O allowed, but it knows nothing of
    # the engine, the query layer, the frontend or the server that will use it.
    "dataplane": set(),
    # The web dashboard reads the engine's state and asks its rules through an Instance, and
    # runs the test-control actions (control); nothing below it imports it (the engine and the
    # other cores are checked above), and the server starts it lazily.
    "dashboard": {"engine", "instance", "control", "config"},
}
CORES_WITHOUT_IO = {"wire", "sql", "engine", "store", "query"}
# Layers none of the cores (nor the session, frontend or control) may import.
TOP_ONLY = {"dashboard"}


def _layer(path: Path) -> str:
    rel = path.relative_to(PKG)
    return rel.parts[0].removesuffix(".py")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def test_layers_import_only_what_they_may() -> None:
    bad = []
    for path in PKG.rglob("*.py"):
        layer = _layer(path)
        if layer not in ALLOWED:
            continue
        for mod in _imports(path):
            if layer in CORES_WITHOUT_IO and mod.split(".")[0] in {"asyncio", "socket", "ssl"}:
                bad.append(f"{path.relative_to(PKG)} imports {mod} (I/O in a sans-I/O core)")
            if not mod.startswith("rwshim."):
                continue
            target = mod.split(".")[1]
            if target in LEAVES or target == layer:
                continue
            if target not in ALLOWED[layer]:
                bad.append(f"{path.relative_to(PKG)} imports {mod}")
    assert bad == []


def test_only_the_server_and_the_cli_reach_the_dashboard() -> None:
    """The dashboard sits on top: the server starts it (importing it inside a function, so
    that a server without one never loads the web library) and the CLI reads its port."""
    users = {"server.py", "cli.py"}
    bad = []
    for path in PKG.rglob("*.py"):
        rel = path.relative_to(PKG)
        if _layer(path) in TOP_ONLY or rel.as_posix() in users:
            continue
        bad.extend(
            f"{rel} imports {mod}"
            for mod in sorted(_imported_names(path))
            if mod.split(".")[:2] == ["rwshim", "dashboard"]
        )
    assert bad == []


# rwshim/query: the SQLite-specific part (catalog_path/sqlite/) is one unit a data plane on another
# engine replaces. The binder and everything engine-independent reach it only through the
# Lowering and Executor protocols (binder/lowering.py, binder/prepared.py); the composition root
# catalog_path/engine.py is the one module that names it. The SQLite part in turn never imports the
# binder, only the engine-independent leaves (types, context, relations, resolve, parse,
# functions, prepared, catalog).
QUERY = PKG / "query"
SQLITE_PART = "rwshim.catalog_path.sqlite"
BINDER_MODULES = {
    "binder",
    "bind_expr",
    "bind_ops",
    "bind_func",
    "bind_catalog",
    "prepare",
    "engine",
}


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


def _is_sqlite_part(mod: str) -> bool:
    return mod == SQLITE_PART or mod.startswith(SQLITE_PART + ".")


def test_only_the_query_engine_imports_the_sqlite_part() -> None:
    bad = []
    for path in PKG.rglob("*.py"):
        rel = path.relative_to(PKG)
        if rel.parts[:2] == ("query", "sqlite") or rel.as_posix() == "catalog_path/engine.py":
            continue
        bad.extend(
            f"{rel} imports {mod}" for mod in sorted(_imported_names(path)) if _is_sqlite_part(mod)
        )
    assert bad == []


def test_the_sqlite_part_does_not_import_the_binder() -> None:
    bad = []
    for path in (QUERY / "sqlite").rglob("*.py"):
        for mod in sorted(_imported_names(path)):
            parts = mod.split(".")
            if parts[:2] == ["rwshim", "query"] and len(parts) > 2 and parts[2] in BINDER_MODULES:
                bad.append(f"{path.relative_to(PKG)} imports {mod}")
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
