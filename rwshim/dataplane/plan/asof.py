"""ASOF joins on PostgreSQL: RisingWave's rules for their condition, and the LATERAL subquery
that answers one (RisingWave: src/frontend/src/binder/relation/join.rs:95-96, the
``AsofInner`` / ``AsofLeftOuter`` join types; src/frontend/src/optimizer/plan_node/
logical_join.rs:1466-1556 ``to_stream_asof_join``, ``to_batch`` and
``get_inequality_desc_from_predicate``; src/frontend/src/expr/mod.rs:751-774
``as_comparison_cond``; the executor src/stream/src/executor/asof_join.rs).

``l ASOF [LEFT] JOIN r ON l.k = r.k AND l.ts >= r.ts`` pairs each row of ``l`` with the one
row of ``r`` of equal key whose ``ts`` is nearest on the allowed side: for ``>=`` / ``>`` the
largest ``r.ts`` not after ``l.ts``, for ``<=`` / ``<`` the smallest not before; among right
rows of one ``ts`` the one of smallest primary key (e2e_test/streaming/join/
asof_join.slt.part, "PK tie-breaking").  The pre-pass (plan/prepass) blanked ``ASOF`` and kept
the JOIN keyword's offset; here the join becomes, spliced in place::

    l [LEFT] JOIN LATERAL (SELECT * FROM r WHERE <the ON condition>
                           ORDER BY r.ts DESC, <r's key> LIMIT 1) AS r ON TRUE

A materialized view is its query recomputed at barriers, so the same text serves batch reads
and materialized views.  RisingWave's refusals, in its order (the batch and the stream plan
check alike): no equality between the two sides is ``AsOf join requires at least 1 equal
condition``; anything but one comparison of a left column with a right column among the
conditions that are neither equalities nor pushed into one side (a right-only condition
always is; a left-only one only for the inner join) is ``AsOf join requires exactly 1
ineuquality condition`` (sic).
"""

from __future__ import annotations

from typing import Any

from rwshim.binder.relations import Relation, RelKind
from rwshim.dataplane.plan import tree
from rwshim.dataplane.plan.names import quote_ident as qi
from rwshim.dataplane.plan.splice import SpliceError, Splicer, alias_end, keyword_before, name_end
from rwshim.errors import InvalidInputSyntax, NotImplementedError_
from rwshim.sql.tokens import Kind, tokenize

Node = dict[str, Any]

NO_EQUALITY = "AsOf join requires at least 1 equal condition"
NOT_ONE_INEQUALITY = "AsOf join requires exactly 1 ineuquality condition"

_COMPARISONS = {"<", "<=", ">", ">="}
_REVERSED = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
# where an ON condition ends (at parenthesis depth 0): what may follow a join in FROM
_AFTER_CONDITION = frozenset(
    {
        "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "NATURAL", "ON", "WHERE", "GROUP",
        "HAVING", "WINDOW", "ORDER", "LIMIT", "OFFSET", "FETCH", "UNION", "INTERSECT",
        "EXCEPT", "EMIT", "FOR", "RETURNING",
    }
)  # fmt: skip


class AsofRefused(InvalidInputSyntax):
    """RisingWave's refusal of an ASOF join's condition (``Invalid input syntax: ...``)."""


class AsofNotSupported(NotImplementedError_):
    """An ASOF join rwshim cannot answer faithfully."""


def splice_asof_joins(shape: tree.Shape, asof: dict[int, bool], rel_of: Any, sp: Splicer) -> None:
    """Rewrite every ASOF join of ``shape`` (``asof``: JOIN keyword offset -> LEFT) with
    ``sp``; ``rel_of(ref)`` is the relation a reference resolved to."""
    if not asof:
        return
    text = shape.text
    done: set[int] = set()
    for _, item in shape.joins():
        right = item.right
        if not isinstance(right, tree.RelRef) or right.location < 0:
            continue
        try:
            kw = keyword_before(text, right.location, b"JOIN")
        except SpliceError:
            continue
        if kw not in asof:
            continue
        done.add(kw)
        _splice(item, right, asof[kw], rel_of(right), text, sp)
    if set(asof) - done:
        raise AsofNotSupported(
            "an ASOF JOIN whose right side is not a table, view or materialized view"
            " named in FROM (rwshim)"
        )


def _splice(
    join: tree.JoinItem, right: tree.RelRef, left_join: bool, rel: Any, text: bytes, sp: Splicer
) -> None:
    if join.using or join.natural or join.quals is None:
        # USING gives equalities only (binder/relation/join.rs): no inequality is left
        raise AsofRefused(NOT_ONE_INEQUALITY)
    if right.cte is not None or not isinstance(rel, Relation):
        raise AsofNotSupported("an ASOF JOIN whose right side is a CTE or a catalog relation")
    order_col, descending = check(join.quals, right, rel, left_join)
    # the right item's text: its name (spliced by the rewriter), then its alias
    end = name_end(text, right.location, len(right.parts))
    if right.alias is not None:
        end = alias_end(text, end, bool(right.colnames))
    on_start, cond_end = condition_span(text, end)
    exposed = qi(right.exposed)
    keys = [f"{exposed}.{qi(order_col)}{' DESC' if descending else ''}"]
    keys += [f"{exposed}.{qi(c)}" for c in _tie_break(rel, right.colnames)]
    sp.insert(right.location, "LATERAL (SELECT * FROM ")
    sp.replace(on_start, on_start + 2, "WHERE")
    sp.insert(cond_end, f" ORDER BY {', '.join(keys)} LIMIT 1) AS {exposed} ON TRUE")


def _tie_break(rel: Relation, colnames: tuple[str, ...]) -> list[str]:
    """The right rows of one inequality value are taken in primary-key order (a table's key,
    else its hidden ``_row_id``); a view or materialized view has no key rwshim keeps: its
    columns in order (RisingWave: the stream key of the right input)."""
    cols = [c.name for c in rel.columns if not c.hidden] + [c.name for c in rel.columns if c.hidden]
    renamed = dict(zip(cols, list(colnames) + cols[len(colnames) :], strict=True))
    if rel.kind == RelKind.TABLE and rel.primary_key:
        return [renamed.get(c, c) for c in rel.primary_key]
    if rel.kind == RelKind.TABLE and "_row_id" in cols:
        return ["_row_id"]
    return [renamed.get(c.name, c.name) for c in rel.columns if not c.hidden]


def condition_span(text: bytes, pos: int) -> tuple[int, int]:
    """(offset of ON, end of the condition) after the right item ending at ``pos``."""
    s = text.decode()
    start_char = len(text[:pos].decode())
    toks = tokenize(s[start_char:])
    if not toks or toks[0].kind is not Kind.WORD or toks[0].quoted or toks[0].upper != "ON":
        raise AsofRefused(NOT_ONE_INEQUALITY)
    depth = 0
    end_char = len(s)
    last_end = toks[0].end
    for t in toks[1:]:
        if t.kind is Kind.EOF:
            break
        if t.kind is Kind.OP and t.value in ("(", "["):
            depth += 1
        elif t.kind is Kind.OP and t.value in (")", "]"):
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and (
            (t.kind is Kind.OP and t.value in (",", ";"))
            or (t.kind is Kind.WORD and not t.quoted and t.upper in _AFTER_CONDITION)
        ):
            break
        last_end = t.end
    end_char = start_char + last_end

    def byte(i: int) -> int:
        return len(s[:i].encode())

    return byte(start_char + toks[0].start), byte(end_char)


# --- RisingWave's rules over the condition ---------------------------------------------------


def check(quals: Node, right: tree.RelRef, rel: Relation, left_join: bool) -> tuple[str, bool]:
    """The right column ordered by and whether descending, or RisingWave's refusal."""
    right_cols = {c.name for c in rel.columns} | set(right.colnames)
    conjuncts = _conjuncts(quals)
    has_eq = False
    others: list[Node] = []
    for c in conjuncts:
        sides = _sides(c, right, right_cols)
        if _is_equality(c, right, right_cols):
            has_eq = True
        elif sides == {"R"} or (sides == {"L"} and not left_join) or not sides:
            continue  # pushed into one side (a filter)
        else:
            others.append(c)
    if not has_eq:
        raise AsofRefused(NO_EQUALITY)
    if len(others) != 1:
        raise AsofRefused(NOT_ONE_INEQUALITY)
    cmp = _comparison(others[0])
    if cmp is None:
        raise AsofRefused(NOT_ONE_INEQUALITY)
    lhs, op, rhs = cmp
    ls, rs = _ref_side(lhs, right, right_cols), _ref_side(rhs, right, right_cols)
    if (ls, rs) == ("R", "L"):
        lhs, op, rhs = rhs, _REVERSED[op], lhs
    elif (ls, rs) != ("L", "R"):
        raise AsofRefused(NOT_ONE_INEQUALITY)
    column = _fields(rhs["ColumnRef"])[-1]
    # left >= right: the latest right row not after the left one; left <= right: the earliest
    return column, op in (">", ">=")


def _unwrap(node: Any) -> tuple[str, Node] | None:
    if isinstance(node, dict) and len(node) == 1:
        ((k, v),) = node.items()
        if isinstance(v, dict):
            return k, v
    return None


def _conjuncts(node: Node) -> list[Node]:
    w = _unwrap(node)
    if w is not None and w[0] == "BoolExpr" and w[1].get("boolop") == "AND_EXPR":
        out: list[Node] = []
        for a in w[1].get("args") or []:
            out.extend(_conjuncts(a))
        return out
    return [node]


def _fields(colref: Node) -> list[str]:
    return [f["String"]["sval"] for f in colref.get("fields") or [] if "String" in f]


def _ref_side(node: Any, right: tree.RelRef, right_cols: set[str]) -> str | None:
    w = _unwrap(node)
    if w is None or w[0] != "ColumnRef":
        return None
    fields = _fields(w[1])
    if not fields:
        return None
    if len(fields) == 1:
        return "R" if fields[0] in right_cols else "L"
    qual = fields[:-1]
    if qual[-1] == right.exposed and (
        len(qual) == 1 or (right.alias is None and tuple(qual) == right.parts[-len(qual) :])
    ):
        return "R"
    return "L"


def _sides(node: Any, right: tree.RelRef, right_cols: set[str]) -> set[str]:
    out: set[str] = set()

    def walk(v: Any) -> None:
        if isinstance(v, list):
            for x in v:
                walk(x)
            return
        if not isinstance(v, dict):
            return
        w = _unwrap(v)
        if w is not None and w[0] == "ColumnRef":
            side = _ref_side(v, right, right_cols)
            if side is not None:
                out.add(side)
            return
        for x in v.values():
            walk(x)

    walk(node)
    return out


def _op(a: Node) -> str | None:
    names = [n["String"]["sval"] for n in a.get("name") or [] if "String" in n]
    return names[-1] if len(names) == 1 else None


def _is_equality(node: Node, right: tree.RelRef, right_cols: set[str]) -> bool:
    """``a = b`` / ``a IS NOT DISTINCT FROM b`` with one side of each input (an equi-join
    key: EqJoinPredicate)."""
    w = _unwrap(node)
    if w is None or w[0] != "A_Expr" or _op(w[1]) != "=":
        return False
    if w[1].get("kind") not in ("AEXPR_OP", "AEXPR_NOT_DISTINCT"):
        return False
    ls = _sides(w[1].get("lexpr"), right, right_cols)
    rs = _sides(w[1].get("rexpr"), right, right_cols)
    return {frozenset(ls), frozenset(rs)} == {frozenset({"L"}), frozenset({"R"})}


def _comparison(node: Node) -> tuple[Node, str, Node] | None:
    """``column <op> column`` (as_comparison_cond: both operands input references)."""
    w = _unwrap(node)
    if w is None or w[0] != "A_Expr" or w[1].get("kind") != "AEXPR_OP":
        return None
    op = _op(w[1])
    lhs, rhs = w[1].get("lexpr"), w[1].get("rexpr")
    lw, rw = _unwrap(lhs), _unwrap(rhs)
    if op not in _COMPARISONS or lw is None or rw is None:
        return None
    if lw[0] != "ColumnRef" or rw[0] != "ColumnRef":
        return None
    return {"ColumnRef": lw[1]}, op, {"ColumnRef": rw[1]}
