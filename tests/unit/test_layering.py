"""The dependency direction of architecture.md holds: no module imports a forbidden layer."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[2] / "rwshim"

# layer -> layers it may import (besides itself and the leaves).
# session_vars_generated is data generated from RisingWave's source and imports nothing.
LEAVES = {"errors", "pgtypes", "results", "session_vars_generated"}
ALLOWED: dict[str, set[str]] = {
    "wire": set(),
    "sql": {"session_config"},
    "store": set(),
    "engine": {"store", "sql", "session_config"},
    "query": {"store", "session_config"},
    "session_config": set(),
    # The data plane's PostgreSQL process and files: I/O allowed, but it knows nothing of
    # the engine, the query layer, the frontend or the server that will use it.
    "dataplane": set(),
}
CORES_WITHOUT_IO = {"wire", "sql", "engine", "store", "query"}


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


# rwshim/query: the SQLite-specific part (query/sqlite/) is one unit a data plane on another
# engine replaces. The binder and everything engine-independent reach it only through the
# Lowering and Executor protocols (query/lowering.py, query/prepared.py); the composition root
# query/engine.py is the one module that names it. The SQLite part in turn never imports the
# binder, only the engine-independent leaves (types, context, relations, resolve, parse,
# functions, prepared, catalog).
QUERY = PKG / "query"
SQLITE_PART = "rwshim.query.sqlite"
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
        if rel.parts[:2] == ("query", "sqlite") or rel.as_posix() == "query/engine.py":
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
