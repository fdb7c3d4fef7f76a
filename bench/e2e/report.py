"""Tables over a results file of the e2e runner, and the comparison of two runs.

A results file holds one JSON line per record execution.  A record is counted once, keyed by
(file, line) of the file it is written in; a record run more than once (a file included by
another, as `dml_upsert.slt.part` includes `dml_basic.slt.part`) passes only if every run
passed, and otherwise takes the class of its first failing run.  Records skipped by
`skipif`/`onlyif` are not counted; `system` records are counted as not runnable.
"""

from __future__ import annotations

import json
import posixpath
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from bench.e2e.judge import FAILURE_CLASSES, PASS, SILENT_CLASSES, SKIPPED

GROUPS = ("basic", "types", "functions", "aggregate")


@dataclass
class Merged:
    file: str
    line: int
    outcome: str
    cls: str
    runs: list[dict[str, object]] = field(default_factory=list)

    @property
    def key(self) -> tuple[str, int]:
        return (self.file, self.line)

    @property
    def passed(self) -> bool:
        return self.cls == PASS


def load(path: Path) -> list[dict[str, object]]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def merge(lines: Iterable[dict[str, object]]) -> dict[tuple[str, int], Merged]:
    out: dict[tuple[str, int], Merged] = {}
    for r in lines:
        key = (str(r["file"]), int(r["line"]))  # type: ignore[call-overload]
        cls = str(r["class"])
        m = out.get(key)
        if m is None:
            out[key] = m = Merged(key[0], key[1], str(r["outcome"]), cls)
        elif m.cls == SKIPPED or (m.cls == PASS and cls != SKIPPED):
            m.cls = cls
        m.runs.append(r)
    return out


def group_of(file: str) -> str:
    """`basic`, `types`, ... for `e2e_test/batch/<group>/...`; else the file's directory."""
    parts = file.split("/")
    if len(parts) > 3 and parts[:2] == ["e2e_test", "batch"]:
        return parts[2]
    return posixpath.dirname(file) or "."


def _pct(n: int, d: int) -> str:
    return f"{100 * n / d:.1f}%" if d else "-"


def summary(lines: list[dict[str, object]]) -> dict[str, object]:
    merged = [m for m in merge(lines).values() if m.cls != SKIPPED]
    execs = [r for r in lines if r["class"] != SKIPPED]
    groups: dict[str, list[int]] = {}
    files: dict[str, list[int]] = {}
    outcomes: dict[str, list[int]] = {}
    for m in merged:
        for table, k in ((groups, group_of(m.file)), (files, m.file), (outcomes, m.outcome)):
            cell = table.setdefault(k, [0, 0])
            cell[0] += 1
            cell[1] += m.passed
    classes = Counter(m.cls for m in merged if not m.passed)
    errors_any = sum(
        1 for m in merged if m.outcome == "error" and m.cls in (PASS, "error_text_differs")
    )
    return {
        "records": len(merged),
        "passed": sum(m.passed for m in merged),
        "executions": len(execs),
        "executions_passed": sum(1 for r in execs if r["class"] == PASS),
        "skipped": sum(1 for r in lines if r["class"] == SKIPPED),
        "groups": groups,
        "files": files,
        "outcomes": outcomes,
        "classes": {c: classes.get(c, 0) for c in FAILURE_CLASSES},
        "errors_any": errors_any,
    }


def format_summary(s: dict[str, object], *, per_file: bool = False) -> str:
    rec, ok = int(s["records"]), int(s["passed"])  # type: ignore[call-overload]
    out = [
        f"records {rec}  passed {ok}  {_pct(ok, rec)}",
        f"(executions, counting included files once per run: {s['executions']}, passed "
        f"{s['executions_passed']}; skipped by skipif/onlyif: {s['skipped']})",
        "",
        f"{'directory':<12} {'records':>8} {'passed':>8} {'percent':>8}",
    ]
    groups: dict[str, list[int]] = s["groups"]  # type: ignore[assignment]
    order = [g for g in GROUPS if g in groups] + sorted(g for g in groups if g not in GROUPS)
    for g in order:
        n, p = groups[g]
        out.append(f"{g:<12} {n:>8} {p:>8} {_pct(p, n):>8}")
    out += ["", f"{'expected outcome':<28} {'records':>8} {'passed':>8}"]
    outcomes: dict[str, list[int]] = s["outcomes"]  # type: ignore[assignment]
    names = {"ok": "statement ok / count / let", "rows": "query rows", "error": "error"}
    for k in ("ok", "rows", "error", "system"):
        if k in outcomes:
            n, p = outcomes[k]
            extra = f"  (any error: {s['errors_any']})" if k == "error" else ""
            out.append(f"{names.get(k, k):<28} {n:>8} {p:>8}{extra}")
    out += ["", f"{'failure class':<28} {'records':>8}"]
    classes: dict[str, int] = s["classes"]  # type: ignore[assignment]
    for c, n in classes.items():
        out.append(f"{c.replace('_', ' '):<28} {n:>8}")
    if per_file:
        out += ["", f"{'file':<64} {'records':>8} {'passed':>8}"]
        files: dict[str, list[int]] = s["files"]  # type: ignore[assignment]
        for f, (n, p) in sorted(files.items(), key=lambda kv: (kv[1][1] / kv[1][0], kv[0])):
            out.append(f"{f:<64} {n:>8} {p:>8}")
    return "\n".join(out)


@dataclass
class Comparison:
    both: int
    old_only: list[tuple[Merged, Merged]]
    new_only: int
    neither: int

    @property
    def silent(self) -> list[tuple[Merged, Merged]]:
        """Regressions where the new run answered without an error but wrongly."""
        return [(o, n) for o, n in self.old_only if n.cls in SILENT_CLASSES]


def compare(old: list[dict[str, object]], new: list[dict[str, object]]) -> Comparison:
    a, b = merge(old), merge(new)
    both = new_only = neither = 0
    regressions: list[tuple[Merged, Merged]] = []
    for key, m_old in a.items():
        m_new = b.get(key)
        if m_old.cls == SKIPPED or m_new is None or m_new.cls == SKIPPED:
            continue
        if m_old.passed and m_new.passed:
            both += 1
        elif m_old.passed:
            regressions.append((m_old, m_new))
        elif m_new.passed:
            new_only += 1
        else:
            neither += 1
    return Comparison(both, regressions, new_only, neither)


def _first_failure(m: Merged) -> dict[str, object]:
    return next((r for r in m.runs if r["class"] != PASS), m.runs[0])


def format_comparison(c: Comparison) -> str:
    silent = {id(n) for _, n in c.silent}
    out = [
        f"both pass {c.both}   old only {len(c.old_only)}   new only {c.new_only}   "
        f"neither {c.neither}",
        f"passing in old, failing in new: {len(c.old_only)} (silently wrong: {len(c.silent)})",
    ]
    # The silently wrong ones first: they are the ones a change must not introduce.
    for _o, n in sorted(c.old_only, key=lambda p: (id(p[1]) not in silent, p[0].key)):
        run = _first_failure(n)
        flag = "SILENTLY WRONG " if id(n) in silent else ""
        sql = str(run["sql"]).strip().splitlines()[0][:90]
        out.append(f"  {flag}{n.file}:{n.line} [{n.cls}] {sql}")
        out.append(f"      expected: {json.dumps(run['expected'], ensure_ascii=False)[:200]}")
        out.append(f"      actual:   {json.dumps(run['actual'], ensure_ascii=False)[:200]}")
    return "\n".join(out)
