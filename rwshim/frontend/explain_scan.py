"""The batch plan of a point query on one relation, as EXPLAIN prints it: ``SELECT * | <all
its columns> FROM <table or materialized view> WHERE col = <integer> [AND ...]``.  Equalities
on a prefix of the relation's primary key become the scan's ``scan_ranges``; else the first
created index whose key prefix they match, and which holds every column the query reads,
is scanned instead (RisingWave's index selection); what no range takes stays a
``BatchFilter`` above the scan.  Any other query shape is not planned here (None).

RisingWave: ``src/frontend/src/optimizer/rule/index_selection_rule.rs`` (a covering index
whose key matches the predicate), ``optimizer/plan_node/batch_seq_scan.rs:159-190`` (the
scan's fields; ``distribution`` only under VERBOSE), ``utils/condition.rs`` (scan ranges from
a key prefix; ``scan_ranges_as_strs``), ``expr/literal.rs`` (``10000:Int32``) and
``ScalarImpl``'s Debug (``Int32(10000)``) for the texts; background_ddl/index.slt:48-80.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rwshim.frontend.plan_render import Node

# RisingWave's DataType Display of the integer types the rule handles, with their ranges.
_INT_TYPES = {
    "smallint": ("Int16", 2**15),
    "integer": ("Int32", 2**31),
    "bigint": ("Int64", 2**63),
}
_IDENT = r'(?:[A-Za-z_][A-Za-z0-9_$]*|"(?:[^"]|"")+")'
_QUERY = re.compile(
    rf"(?is)^\s*select\s+(?P<cols>\*|{_IDENT}(?:\s*,\s*{_IDENT})*)\s+from\s+(?P<rel>{_IDENT})"
    rf"\s+where\s+(?P<where>.+?)\s*;?\s*$"
)
_EQ = re.compile(rf"(?is)^\s*(?P<col>{_IDENT})\s*=\s*(?P<num>-?\d+)\s*$")


def _ident(text: str) -> str:
    text = text.strip()
    if text.startswith('"'):
        return text[1:-1].replace('""', '"')
    return text.lower()


class Relation:
    """What the rule reads of a relation: its name, its visible columns with their types,
    its primary key (column names in key order)."""

    def __init__(self, name: str, columns: Sequence[tuple[str, str]], pk: Sequence[str]) -> None:
        self.name = name
        self.columns = list(columns)
        self.pk = list(pk)


def point_plan(
    query: str,
    rel: Relation,
    indexes: Sequence[Relation],
    verbose: bool,
) -> list[Node] | None:
    """The plan below the root exchange, or None when the query is not of this shape."""
    if verbose:
        return None  # VERBOSE prints distributions and qualified names, not modelled here
    m = _QUERY.match(query)
    if m is None or _ident(m.group("rel")) != rel.name:
        return None
    names = [c for c, _ in rel.columns]
    if m.group("cols") != "*" and [_ident(c) for c in m.group("cols").split(",")] != names:
        return None
    types = dict(rel.columns)
    eqs: list[tuple[str, int]] = []
    for part in re.split(r"(?i)\s+and\s+", m.group("where")):
        eq = _EQ.match(part)
        if eq is None:
            return None
        col, num = _ident(eq.group("col")), int(eq.group("num"))
        kind = _INT_TYPES.get(types.get(col, ""))
        if kind is None or not -kind[1] <= num < kind[1]:
            return None
        eqs.append((col, num))
    if len({c for c, _ in eqs}) != len(eqs):
        return None
    scan_rel, ranged = rel, _prefix(rel.pk, eqs)
    if not ranged:
        for index in indexes:
            covered = {c for c, _ in index.columns}
            prefix = _prefix(index.pk, eqs)
            if prefix and set(names) <= covered:
                scan_rel, ranged = index, prefix
                break
    fields = f"table: {scan_rel.name}, columns: [{', '.join(names)}]"
    if ranged:
        ranges = " AND ".join(f"{c} = {_INT_TYPES[types[c]][0]}({n})" for c, n in ranged)
        fields += f", scan_ranges: [{ranges}]"
    scan = Node(f"BatchScan {{ {fields} }}")
    rest = [(c, n) for c, n in eqs if (c, n) not in ranged]
    if not rest:
        return [scan]
    predicate = " AND ".join(f"({rel.name}.{c} = {n}:{_INT_TYPES[types[c]][0]})" for c, n in rest)
    return [Node(f"BatchFilter {{ predicate: {predicate} }}", children=[scan])]


def _prefix(key: Sequence[str], eqs: Sequence[tuple[str, int]]) -> list[tuple[str, int]]:
    """The equalities on the longest prefix of ``key`` (scan ranges take a key prefix)."""
    by_col = dict(eqs)
    out: list[tuple[str, int]] = []
    for col in key:
        if col not in by_col:
            break
        out.append((col, by_col[col]))
    return out
