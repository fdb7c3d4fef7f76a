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
