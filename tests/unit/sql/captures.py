"""Statements real clients sent, as recorded in the client wire captures.

The data file ``data/client_statements.json`` was extracted once from the decoded wire logs of
the clients-captures set (decoded ``wire/*.log`` files made by a recording proxy):
every distinct string a client sent in an ``F> Query`` or ``F> Parse`` message, with the name of
the capture it first appeared in (the same reading as ``tools/extract_sql.py``).  It is kept in
the repository so that a clone with nothing beside it runs the tests.  ``extract(wire_dir)``
re-creates the list from a directory of captures, for refreshing the file.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "client_statements.json"

_QUERY = re.compile(r"^\[(c\d+) [^\]]*\] F> Query (.*)$")
_PARSE = re.compile(
    r"^\[(c\d+) [^\]]*\] F> Parse stmt=('.*?'|\".*?\") paramtypes=(\[.*?\]) query=(.*)$"
)


def extract(wire_dir: Path) -> list[tuple[str, str]]:
    """(capture file name, query string) for every distinct query string in ``wire_dir``."""
    seen: set[str] = set()
    out: list[tuple[str, str]] = []
    for path in sorted(wire_dir.glob("*.log")):
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


def captured_statements() -> list[tuple[str, str]]:
    """(capture file name, query string) for every distinct query string clients sent."""
    return [(r["capture"], r["sql"]) for r in json.loads(DATA.read_text())]


if __name__ == "__main__":  # refresh: python -m tests.unit.sql.captures <wire dir>
    import sys

    rows = extract(Path(sys.argv[1]))
    DATA.write_text(json.dumps([{"capture": f, "sql": s} for f, s in rows], indent=1) + "\n")
    print(f"{len(rows)} statements written to {DATA}")
