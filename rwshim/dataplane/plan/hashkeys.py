"""Group keys as RisingWave's hash aggregation gives them back: a decimal key normalized
(trailing fractional zeros dropped), a float key's ``-0`` as ``0``.

RisingWave's hash aggregation keeps each group under its hash key and builds the output row's
key columns from that key (batch: src/batch/executors/src/executor/hash_agg.rs:615
``key.deserialize``; streaming: src/stream/src/executor/aggregate/hash_agg.rs:296).  The key's
decimal is serialized normalized (src/common/src/hash/key.rs:531-535 ``self.normalize()``) and
a float normalized (key.rs:499-518 ``normalized()``), an interval as its total microseconds
(types/interval.rs:855-874, read back justified), so ``GROUP BY price`` over ``219709.60``
answers ``219709.6`` (e2e_test/batch/tpch/q18.slt.part:75) where PostgreSQL keeps the scale.
``SELECT DISTINCT`` and ``UNION`` / ``INTERSECT`` / ``EXCEPT`` without ALL are aggregations on
all their columns in RisingWave's plans (binder set_expr.rs, LogicalUnion -> Agg).

A batch query whose input is already ordered on its group keys runs as a sort aggregation,
which outputs the input's own values (logical_agg.rs:1382-1386, generic/agg.rs:217-227): a
single table's scan is ordered by its primary key (batch_seq_scan.rs:49-71), so grouping a
table by a prefix of its key keeps the values.  A streaming job (materialized view, sink)
always aggregates by hash.

The PostgreSQL text gets ``rwfn.hk(<column>)`` spliced around each column reference in the
output list that names a group key (and a decimal literal output by DISTINCT or a set
operation) (``sqlfn/hashkeys.py``: trim_scale for numeric, justify_interval for interval, identity
for other types), and around the output columns of DISTINCT and of a set operation without
ALL.  A key that is an expression (``GROUP BY k * 2``), a star (``SELECT * ... UNION``) or a
positional key over one is left as PostgreSQL computes it: rwshim's limit.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from pglast import ast, parse_sql
from pglast.enums import SetOperation
from pglast.parser import parse_sql_json, scan
from pglast.stream import RawStream

from rwshim.binder.relations import Relation, RelKind
from rwshim.dataplane.plan.figure import UNNAMED, figure_name
from rwshim.dataplane.plan.names import DATA_SCHEMA, FUNCTION_SCHEMA, quote_ident, table_name

# the primary key of the table a physical name (``rw``, ``t<id>``) holds, () if none
PrimaryKeyOf = Callable[[str, str], tuple[str, ...]]


def primary_keys(relations: Iterable[Relation]) -> PrimaryKeyOf:
    """The declared primary key of the table ``schema.name`` names on PostgreSQL, among the
    statement's user relations (() if none)."""
    keys = {
        (DATA_SCHEMA, table_name(rel.id)): rel.primary_key
        for rel in relations
        if rel.kind == RelKind.TABLE
    }
    return lambda schema, name: keys.get((schema, name), ())


# aggregate names (RisingWave's AggType and PostgreSQL's): a column inside their arguments is
# the input row's, not the group's key (src/expr/core/src/aggregate/, PostgreSQL's pg_aggregate)
_AGGREGATES = frozenset(
    {
        "sum", "sum0", "count", "avg", "min", "max", "string_agg", "array_agg", "jsonb_agg",
        "jsonb_object_agg", "bool_and", "bool_or", "every", "bit_and", "bit_or", "bit_xor",
        "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp", "first_value",
        "last_value", "approx_count_distinct", "approx_percentile", "percentile_cont",
        "percentile_disc", "mode", "grouping", "json_agg", "json_object_agg", "xmlagg",
        "corr", "covar_pop", "covar_samp", "regr_avgx", "regr_avgy", "regr_count",
        "regr_intercept", "regr_r2", "regr_slope", "regr_sxx", "regr_sxy", "regr_syy",
        "range_agg", "range_intersect_agg", "array_sum", "bool_xor",
    }
)  # fmt: skip

_HINTS = ("GROUP", "DISTINCT", "UNION", "INTERSECT", "EXCEPT")


def normalize(text: str, streaming: bool, primary_key_of: PrimaryKeyOf) -> str:
    """``text`` with its group keys' output normalized; the same text when nothing changes.
    Only the keys' spans are spliced (a deparsed text would name PostgreSQL's functions where
    the user's text reaches rwfn's, ``substring(x FROM 1)`` -> ``pg_catalog.substring``)."""
    upper = text.upper()
    if not any(h in upper for h in _HINTS):
        return text
    try:
        stmts = parse_sql(text)
        tokens = scan(text)
    except Exception:
        return text
    if len(stmts) != 1:
        return text
    wrapper = _Wrapper(streaming, primary_key_of, tokens)
    wrapper.walk(stmts[0].stmt)
    out = text
    for pos, insert in sorted(wrapper.edits, key=lambda e: e[0], reverse=True):
        out = out[:pos] + insert + out[pos:]
    return out


_TERMINATORS = frozenset(
    {
        "FROM", "INTO", "WHERE", "GROUP_P", "HAVING", "WINDOW", "UNION", "INTERSECT", "EXCEPT",
        "ORDER", "LIMIT", "OFFSET", "FETCH", "FOR", "ON", "RETURNING", ";",
    }
)  # fmt: skip


def _wrappable(node: Any) -> bool:
    """A column reference (not ``t.*``) or a decimal literal: PostgreSQL knows its type where
    it stands; an expression key is left as PostgreSQL computes it (rwshim's limit)."""
    if isinstance(node, ast.A_Const):
        return not node.isnull and isinstance(node.val, ast.Float)
    if not isinstance(node, ast.ColumnRef):
        return False
    fields: Any = node.fields
    return bool(fields) and not isinstance(fields[-1], ast.A_Star)


def _figure(node: Any) -> str:
    """PostgreSQL's name for the unaliased output expression ``node`` (plan/figure); the
    deparsed text serves only to name it."""
    parsed = json.loads(parse_sql_json(f"SELECT {RawStream()(node)}"))
    target = parsed["stmts"][0]["stmt"]["SelectStmt"]["targetList"][0]["ResTarget"]
    return figure_name(target["val"])


def _last_name(node: Any) -> str | None:
    fields: Any = node.fields
    last = fields[-1] if fields else None
    return last.sval if isinstance(last, ast.String) else None


def _same_column(a: Any, b: Any) -> bool:
    """Two column references naming the same column (one may be qualified: PostgreSQL has
    made sure an unqualified one is unambiguous)."""
    fa = [f.sval for f in a.fields if isinstance(f, ast.String)]
    fb = [f.sval for f in b.fields if isinstance(f, ast.String)]
    if not fa or not fb or fa[-1] != fb[-1]:
        return False
    return len(fa) == 1 or len(fb) == 1 or fa == fb


class _Wrapper:
    def __init__(self, streaming: bool, primary_key_of: PrimaryKeyOf, tokens: list[Any]) -> None:
        self.streaming = streaming
        self.primary_key_of = primary_key_of
        self.tokens = tokens
        self.starts = {t.start: i for i, t in enumerate(tokens)}
        self.edits: list[tuple[int, str]] = []
        self.wrapped: set[int] = set()  # (an arm of a UNION that is also a DISTINCT: once)

    def walk(self, node: Any) -> None:
        """Every SelectStmt under ``node`` (subqueries, CTEs, set operations, DML sources)."""
        if isinstance(node, ast.SelectStmt):
            self.select(node)
        if isinstance(node, ast.Node):
            for name in node:
                self.walk(getattr(node, name))
        elif isinstance(node, tuple | list):
            for item in node:
                self.walk(item)

    def select(self, stmt: Any) -> None:
        if stmt.op != SetOperation.SETOP_NONE:
            if not stmt.all:
                for arm in (stmt.larg, stmt.rarg):
                    self.whole_targets(arm)
            return
        if stmt.distinctClause is not None and list(stmt.distinctClause) == [None]:
            # PostgreSQL sorts a DISTINCT by output columns only: an ORDER BY naming anything
            # else (``t.c``, ``c + 1``) would no longer find its column once it is wrapped
            outputs = {_output_name(t) for t in stmt.targetList or ()}
            if all(_names_output(s.node, outputs) for s in stmt.sortClause or ()):
                self.whole_targets(stmt)
            return
        keys = self.group_keys(stmt)
        if not keys or not stmt.targetList or self.sort_aggregated(stmt, keys):
            return
        for i, target in enumerate(stmt.targetList):
            if not isinstance(target, ast.ResTarget) or target.val is None:
                continue
            if any(isinstance(k, ast.A_Const) and _position(k) == i + 1 for k in keys):
                self.wrap_target(target)
                continue
            found: list[Any] = []
            self.occurrences(target.val, keys, found)
            if found and target.name is None and found[0] is not target.val:
                # PostgreSQL would name the column after the call inside (``hk``) where it
                # named it after the column (``k::text``): the name it had, kept
                name = _figure(target.val)
                if name != UNNAMED:
                    end = self.target_end(stmt, i)
                    if end is None:
                        continue
                    self.edits.append((end, f" AS {quote_ident(name)}"))
            for ref in found:
                self.wrap(ref, keep_name=target.name is None and ref is target.val)

    def whole_targets(self, stmt: Any) -> None:
        if not isinstance(stmt, ast.SelectStmt):
            return
        if stmt.op != SetOperation.SETOP_NONE:
            self.select(stmt)  # a nested set operation: its own rule
            return
        for target in stmt.targetList or ():
            if isinstance(target, ast.ResTarget) and target.val is not None:
                self.wrap_target(target)

    def wrap_target(self, target: Any) -> None:
        if _wrappable(target.val):
            self.wrap(target.val, keep_name=target.name is None, start=target.location)

    def wrap(self, ref: Any, keep_name: bool, start: int | None = None) -> None:
        """``rwfn.hk(`` before the column reference and ``)`` after it (with ``AS`` its own
        name where it is a whole unnamed output column: PostgreSQL's would be ``hk``)."""
        # (pglast's A_Const has no location: a literal is wrapped as a whole output column)
        start = getattr(ref, "location", None) if start is None else start
        first = None if start is None else self.starts.get(start)
        if start is None or first is None or start in self.wrapped:
            return
        self.wrapped.add(start)
        if isinstance(ref, ast.A_Const):  # ``1.50`` or ``- 1.50``
            last = first + (1 if self.tokens[first].name == "ASCII_45" else 0)
            name: str | None = UNNAMED
        else:  # ``a.b.c``: names and dots
            last = first + 2 * len(ref.fields) - 2
            name = _last_name(ref)
        if last >= len(self.tokens):
            return
        end = self.tokens[last].end + 1
        self.edits.append((start, f"{FUNCTION_SCHEMA}.hk("))
        self.edits.append((end, f") AS {quote_ident(name)}" if keep_name and name else ")"))

    def target_end(self, stmt: Any, i: int) -> int | None:
        """The offset just past output column ``i``'s last token (an unnamed one: no alias)."""
        targets = stmt.targetList
        start = self.starts.get(targets[i].location)
        if start is None:
            return None
        depth = 0
        for j in range(start, len(self.tokens)):
            tok = self.tokens[j]
            name = tok.name
            if name in ("ASCII_40", "ASCII_91"):
                depth += 1
            elif name in ("ASCII_41", "ASCII_93"):
                depth -= 1
                if depth < 0:
                    return int(self.tokens[j - 1].end) + 1
            elif depth == 0 and (name == "ASCII_44" or name in _TERMINATORS):
                return self.tokens[j - 1].end + 1 if j > start else None
        return int(self.tokens[-1].end) + 1

    def group_keys(self, stmt: Any) -> list[Any]:
        keys: list[Any] = []
        for item in stmt.groupClause or ():
            if isinstance(item, ast.GroupingSet):
                for sub in item.content or ():
                    if isinstance(sub, ast.GroupingSet):
                        keys.extend(sub.content or ())
                    else:
                        keys.append(sub)
            else:
                keys.append(item)
        return keys

    def sort_aggregated(self, stmt: Any, keys: list[Any]) -> bool:
        """A batch aggregation over one table's scan grouped by a prefix of its primary key:
        RisingWave's sort aggregation (batch_seq_scan.rs:49-71, generic/agg.rs:217-227)."""
        if self.streaming or len(stmt.fromClause or ()) != 1:
            return False
        rel: Any = stmt.fromClause[0]
        if not isinstance(rel, ast.RangeVar) or rel.schemaname is None:
            return False
        names = {_bare_name(k) for k in keys}
        if None in names:
            return False
        pk = self.primary_key_of(rel.schemaname, str(rel.relname))
        return bool(pk) and set(pk[: len(names)]) == names

    def occurrences(self, node: Any, keys: list[Any], found: list[Any]) -> None:
        """The outermost column references in ``node`` that name a group key; aggregate
        arguments, GROUPING() and subqueries are left alone (they read the input rows, or
        must name the key as grouped)."""
        if isinstance(node, ast.ColumnRef):
            if _wrappable(node) and any(
                isinstance(k, ast.ColumnRef) and _same_column(node, k) for k in keys
            ):
                found.append(node)
            return
        if isinstance(node, ast.SubLink | ast.SelectStmt | ast.GroupingFunc):
            return
        if isinstance(node, ast.FuncCall) and node.over is None and _is_aggregate(node):
            return
        if isinstance(node, ast.Node):
            for name in node:
                value = getattr(node, name)
                if isinstance(value, ast.Node | tuple | list):
                    self.occurrences(value, keys, found)
        elif isinstance(node, tuple | list):
            for item in node:
                self.occurrences(item, keys, found)


def _is_aggregate(call: Any) -> bool:
    if call.agg_star or call.agg_distinct or call.agg_order or call.agg_filter:
        return True
    if call.agg_within_group:
        return True
    name: Any = call.funcname[-1]
    return isinstance(name, ast.String) and str(name.sval).lower() in _AGGREGATES


def _position(key: Any) -> int | None:
    return key.val.ival if isinstance(key.val, ast.Integer) else None


def _output_name(target: Any) -> str | None:
    if not isinstance(target, ast.ResTarget):
        return None
    if target.name is not None:
        return str(target.name)
    return _last_name(target.val) if isinstance(target.val, ast.ColumnRef) else None


def _names_output(node: Any, outputs: set[str | None]) -> bool:
    """An ORDER BY item that names an output column: a position or an output's name."""
    if isinstance(node, ast.A_Const):
        return isinstance(node.val, ast.Integer)
    if not isinstance(node, ast.ColumnRef) or len(node.fields or ()) != 1:
        return False
    return _last_name(node) in outputs


def _bare_name(key: Any) -> str | None:
    """The column a group key names (its last field), None for an expression."""
    if isinstance(key, ast.ColumnRef) and key.fields:
        field: Any = key.fields[-1]
        return field.sval if isinstance(field, ast.String) else None
    return None
