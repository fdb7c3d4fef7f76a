"""Statements real clients sent, read from the wire captures in ../shared/clients/wire.

The captures are the logs of clients-captures/tools/wireproxy.py; every `F> Query` and
`F> Parse` line holds one query string as a Python literal (the same reading as
clients/tools/extract_sql.py).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
# CI has shared/ beside the clone (<repo>/../shared); a git worktree kept under a folder of
# worktrees finds it one level further up.
_CANDIDATES = [
    REPO.parent / "shared" / "clients" / "wire",
    REPO.parent.parent / "shared" / "clients" / "wire",
]

_QUERY = re.compile(r"^\[(c\d+) [^\]]*\] F> Query (.*)$")
_PARSE = re.compile(
    r"^\[(c\d+) [^\]]*\] F> Parse stmt=('.*?'|\".*?\") paramtypes=(\[.*?\]) query=(.*)$"
)


def wire_dir() -> Path:
    for cand in _CANDIDATES:
        if cand.is_dir():
            return cand
    raise FileNotFoundError(
        f"client captures not found at {_CANDIDATES[0]}: shared/ must sit beside the repository"
    )


def captured_statements() -> list[tuple[str, str]]:
    """(capture file name, query string) for every distinct query string clients sent."""
    seen: set[str] = set()
    out: list[tuple[str, str]] = []
    for path in sorted(wire_dir().glob("*.log")):
        for line in path.read_text(errors="replace").splitlines():
            m = _QUERY.match(line)
            if m:
                sql = ast.literal_eval(m.group(2))
            else:
                m = _PARSE.match(line)
                if not m:
                    continue
                sql = ast.literal_eval(m.group(4))
            if sql not in seen:
                seen.add(sql)
                out.append((path.name, sql))
    return out
