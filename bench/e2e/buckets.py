"""Failure buckets of an e2e run: which kind of RisingWave-only behaviour a failing record
needs (the buckets of data-plane-study.md §1.3, by hand-written rules, first match wins).

    python bench/e2e/buckets.py bench/results/<run>.jsonl [more runs...]

Each record is counted once (records of included files under their own file, as the
summary does); a cascade (an earlier CREATE of the file failed) falls in the bucket of its
own text, which is usually the type or syntax that made the CREATE fail.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

# (bucket, pattern on "file\nsql\nerror") in order; the first that matches wins
RULES: list[tuple[str, re.Pattern[str]]] = [
    (
        "nested lists",
        re.compile(r"\[\]\s*\[\]|array\s*\[\s*array|multidimensional|array_ndims|array_dims", re.I),
    ),
    ("type: struct", re.compile(r"struct|\brow\s*\(|composite|record", re.I)),
    ("type: map", re.compile(r"\bmap\b|\bmap_|\bmap\s*[({]", re.I)),
    ("type: rw_int256", re.compile(r"int256", re.I)),
    ("type: vector", re.compile(r"vector", re.I)),
    ("type: serial", re.compile(r"\bserial\b", re.I)),
    ("type: timestamp ns", re.compile(r"timestamp_ns|\.\d{7,9}\b", re.I)),
    (
        "syntax",
        re.compile(
            r"sql parser error|syntax error|cannot run on the PostgreSQL data plane|"
            r"\bexcept\s*\(|corresponding|\|\w+\||\btumble\b|\bhop\b|_rw_timestamp|aggregate:",
            re.I,
        ),
    ),
    ("numeric / float rules", re.compile(r"decimal|numeric|float|pow|sqrt|exp\(|nan\b", re.I)),
    ("functions", re.compile(r"function .* does not exist|operator does not exist", re.I)),
]
ERROR_TEXT = "error texts"
RENDERING = "renderings / wrong values"
OTHER = "other"


def bucket(rec: dict[str, object]) -> str:
    actual = rec.get("actual")
    err = actual.get("error", "") if isinstance(actual, dict) else ""
    hay = f"{rec['file']}\n{rec['sql']}\n{err}"
    for name, pat in RULES:
        if pat.search(hay):
            return name
    if rec.get("class") == "error_text_differs":
        return ERROR_TEXT
    if rec.get("class") == "wrong_result":
        return RENDERING
    return OTHER


def tally(path: Path) -> tuple[Counter[str], int, int]:
    fails: Counter[str] = Counter()
    total = passed = 0
    for line in path.open():
        rec = json.loads(line)
        if rec["file"] != rec["via"]:
            continue
        total += 1
        if rec["verdict"] == "pass":
            passed += 1
        else:
            fails[bucket(rec)] += 1
    return fails, total, passed


def main(argv: list[str]) -> int:
    runs = [Path(a) for a in argv]
    if not runs:
        print(__doc__)
        return 2
    tallies = [tally(p) for p in runs]
    names = [n for n, _ in RULES] + [ERROR_TEXT, RENDERING, OTHER]
    head = "failing records by bucket"
    print(f"{head:32}" + "".join(f"{p.stem[:18]:>20}" for p in runs))
    for n in names:
        print(f"{n:32}" + "".join(f"{t[0][n]:>20}" for t in tallies))
    print(f"{'passed':32}" + "".join(f"{f'{t[2]}/{t[1]}':>20}" for t in tallies))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
