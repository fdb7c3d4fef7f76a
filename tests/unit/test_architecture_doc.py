"""ARCHITECTURE.md stays true of the code: every dotted ``rwshim.`` name it cites resolves,
every ``rwshim/...`` path it cites exists, and every engine module is in its parts table."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "ARCHITECTURE.md").read_text()
CITED = re.findall(r"`(rwshim[./][\w./]*)`", DOC)


def _resolve(dotted: str) -> object:
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj
    raise ModuleNotFoundError(dotted)


def test_cited_names_resolve() -> None:
    names = [c for c in CITED if "/" not in c]
    assert len(names) > 30
    missing = []
    for name in names:
        try:
            _resolve(name)
        except (AttributeError, ModuleNotFoundError):
            missing.append(name)
    assert missing == []


def test_cited_paths_exist() -> None:
    paths = [c.rstrip("/") for c in CITED if "/" in c]
    assert [p for p in paths if not (ROOT / p).exists()] == []


def test_every_engine_module_is_in_the_parts_table() -> None:
    modules = {p.name for p in (ROOT / "rwshim" / "engine").glob("*.py")} - {"__init__.py"}
    assert [m for m in sorted(modules) if f"`{m}`" not in DOC] == []
