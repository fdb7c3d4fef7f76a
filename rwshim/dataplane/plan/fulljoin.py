"""``FULL [OUTER] JOIN`` whose condition has no equality between its two sides, on PostgreSQL.

RisingWave's batch engine answers it with a nested-loop join (optimizer/plan_node/
logical_join.rs:1600-1601, ``BatchNestedLoopJoin``; e2e_test/batch/duckdb/join/full_outer/);
PostgreSQL refuses it ("FULL JOIN is only supported with merge-joinable or hash-joinable join
conditions"). Its stream plan refuses it (logical_join.rs:1640-1656, the binder's
stream_checks). Here the join is spliced in place, keeping both sides' names visible::

    A FULL JOIN B ON c
    ->
    (VALUES (1), (2)) AS _rw_fj(_rw_fj_side) CROSS JOIN LATERAL (
        SELECT * FROM A WHERE _rw_fj._rw_fj_side = 1             -- every row of A
        UNION ALL SELECT a.* FROM (SELECT) AS _rw_fjn LEFT JOIN A ON FALSE      -- a NULL row,
          WHERE _rw_fj._rw_fj_side = 2                           -- when some row of B
          AND EXISTS (SELECT FROM B WHERE NOT EXISTS (SELECT FROM A WHERE c))  -- matches none
    ) AS a
    LEFT JOIN B ON CASE WHEN _rw_fj._rw_fj_side = 1 THEN (c)
                        ELSE NOT EXISTS (SELECT FROM A WHERE c) END

Side 1 is ``A LEFT JOIN B ON c``; side 2 the rows of B no row of A matches, with NULLs for A.
Inside the EXISTS subqueries A's name is A's own again, so ``c`` reads as written. A ``*``
over the join lists both sides' columns (never the side marker).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from msgspec import Struct

from rwshim.dataplane.plan import tree
from rwshim.dataplane.plan.asof import condition_span
from rwshim.dataplane.plan.names import quote_ident as qi
from rwshim.sql.tokens import Kind, Token, tokenize

if TYPE_CHECKING:
    from rwshim.dataplane.plan.rewrite import _Rewriter

Node = dict[str, Any]


class FullJoin(Struct):
    """One join to rewrite: byte spans of its parts."""

    level: tree.Level
    a: tuple[int, int]  # the left item
    keyword: tuple[int, int]  # FULL [OUTER] JOIN
    b: tuple[int, int]  # the right item
    on: int  # the ON keyword
    cond: tuple[int, int]
    exposed: str  # the left item's name


def find(rw: _Rewriter) -> list[FullJoin]:
    """The FULL joins of the statement PostgreSQL cannot run (no equality of a left-side
    expression with a right-side one among the ON condition's conjuncts)."""
    text = rw.text
    if b"full" not in text.lower():
        return []
    found: list[FullJoin] = []
    toks: list[Token] | None = None
    for level, item in rw.shape.joins():
        if item.kind != "JOIN_FULL" or item.quals is None or item.using or item.natural:
            continue
        a, b = item.left, item.right
        if not _simple(a) or not _simple(b):
            continue
        names_a, names_b = rw.item_names(a), rw.item_names(b)
        exp_a, exp_b = _exposed(a), _exposed(b)
        if exp_a is None or exp_b is None:
            continue
        if _has_equality(item.quals, (exp_a, names_a), (exp_b, names_b)):
            continue
        if not column_fields(item.quals):
            continue  # a constant condition PostgreSQL takes
        if toks is None:
            toks = tokenize(text.decode())
        spans = join_spans(text, toks, item)
        if spans is not None:
            a_span, kw, b_span, on = spans
            cond = condition_span(text, on)
            found.append(FullJoin(level, a_span, kw, b_span, on, cond, exp_a))
    return found


def splice(rw: _Rewriter, joins: list[FullJoin]) -> None:
    """Splice each join (after every other edit: the copies of its parts carry theirs)."""
    sp = rw.sp
    for n, j in enumerate(joins):
        a_text = sp.section(*j.a)
        b_text = sp.section(*j.b)
        c_text = sp.section(j.cond[0] + 2, j.cond[1]).strip()  # after ON
        side = f"_rw_fj{n}._rw_fj_side"
        ex = qi(j.exposed)
        unmatched = f"NOT EXISTS (SELECT FROM {a_text} WHERE {c_text})"
        sp.insert(
            j.a[0],
            f"(VALUES (1), (2)) AS _rw_fj{n}(_rw_fj_side) CROSS JOIN LATERAL (SELECT * FROM ",
        )
        sp.insert(
            j.a[1],
            f" WHERE {side} = 1 UNION ALL SELECT {ex}.* FROM (SELECT) AS _rw_fjn{n}"
            f" LEFT JOIN {a_text} ON FALSE WHERE {side} = 2"
            f" AND EXISTS (SELECT FROM {b_text} WHERE {unmatched})) AS {ex}",
        )
        sp.replace(j.keyword[0], j.keyword[1], "LEFT JOIN")
        sp.insert(j.cond[0] + 2, f" CASE WHEN {side} = 1 THEN (")
        sp.insert(j.cond[1], f") ELSE {unmatched} END")


def _simple(item: tree.FromItem) -> bool:
    if isinstance(item, tree.RelRef):
        return item.location >= 0 and not item.window
    return isinstance(item, tree.SubqueryItem) and item.alias is not None


def _exposed(item: tree.FromItem) -> str | None:
    if isinstance(item, tree.RelRef):
        return item.exposed
    return item.alias if isinstance(item, tree.SubqueryItem) else None


def column_fields(node: Any) -> list[list[str]]:
    """The field lists of the column references under ``node``."""
    out: list[list[str]] = []
    stack = [node]
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, dict):
            ref = v.get("ColumnRef")
            if ref is not None:
                out.append([f["String"]["sval"] for f in ref.get("fields") or [] if "String" in f])
                continue
            if "SubLink" in v:
                out.append(["?"])  # a subquery: its columns are not placed here
                continue
            stack.extend(v.values())
    return out


def column_side(
    fields: list[str], a: tuple[str, list[str] | None], b: tuple[str, list[str] | None]
) -> str | None:
    if len(fields) >= 2:
        q = fields[-2]
        return "a" if q == a[0] else "b" if q == b[0] else None
    if len(fields) == 1:
        in_a = a[1] is not None and fields[0] in a[1]
        in_b = b[1] is not None and fields[0] in b[1]
        if in_a != in_b:
            return "a" if in_a else "b"
    return None


def conjuncts_of(quals: Node) -> list[Node]:
    """The conjuncts of a condition (its AND tree flattened)."""
    conjuncts = [quals]
    out: list[Node] = []
    while conjuncts:
        c = conjuncts.pop()
        be = c.get("BoolExpr")
        if be is not None and be.get("boolop") == "AND_EXPR":
            conjuncts.extend(be.get("args") or [])
        else:
            out.append(c)
    return out


def _has_equality(
    quals: Node, a: tuple[str, list[str] | None], b: tuple[str, list[str] | None]
) -> bool:
    """Whether a conjunct is ``x = y`` with x of one side only and y of the other's."""
    for c in conjuncts_of(quals):
        ae = c.get("A_Expr")
        if ae is None or ae.get("kind") != "AEXPR_OP":
            continue
        name = [n.get("String", {}).get("sval") for n in ae.get("name") or []]
        if name[-1:] != ["="]:
            continue
        sides = []
        for operand in (ae.get("lexpr"), ae.get("rexpr")):
            cols = column_fields(operand)
            found = {column_side(f, a, b) for f in cols}
            sides.append(found.pop() if len(found) == 1 and cols else None)
        if None not in sides and sides[0] != sides[1]:
            return True
    return False


def _word(t: Token, *words: str) -> bool:
    return t.kind is Kind.WORD and not t.quoted and t.upper in words


def join_spans(
    text: bytes, toks: list[Token], item: tree.JoinItem
) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int], int] | None:
    """(left item, FULL [OUTER] JOIN, right item, ON) as byte spans, or None when the text
    does not show them plainly."""
    s = text.decode()

    def byte(i: int) -> int:
        return len(s[:i].encode())

    def char(b: int) -> int:
        return len(text[:b].decode())

    locs = [v for v in _locations(item.quals) if v >= 0]
    if not locs:
        return None
    first = char(min(locs))
    k = max((i for i, t in enumerate(toks) if t.start < first and _word(t, "ON")), default=-1)
    if k < 0:
        return None
    on_idx = k
    # the right item: after the JOIN keyword at this depth
    depth, j = 0, on_idx - 1
    while j >= 0:
        t = toks[j]
        if t.kind is Kind.OP and t.value == ")":
            depth += 1
        elif t.kind is Kind.OP and t.value == "(":
            depth -= 1
        elif depth == 0 and _word(t, "JOIN"):
            break
        j -= 1
    if j < 1:
        return None
    join_idx = j
    full_idx = join_idx - 1
    if _word(toks[full_idx], "OUTER"):
        full_idx -= 1
    if not _word(toks[full_idx], "FULL"):
        return None
    b_span = (byte(toks[join_idx + 1].start), byte(toks[on_idx - 1].end))
    kw = (byte(toks[full_idx].start), byte(toks[join_idx].end))
    a_end = byte(toks[full_idx - 1].end)
    if isinstance(item.left, tree.RelRef):
        a_start = item.left.location
    else:
        depth, j = 0, full_idx - 1
        while j >= 0:
            t = toks[j]
            if t.kind is Kind.OP and t.value == ")":
                depth += 1
            elif t.kind is Kind.OP and t.value == "(":
                depth -= 1
                prev = toks[j - 1] if j > 0 else None
                if depth == 0 and not (
                    prev is not None
                    and prev.kind is Kind.WORD
                    and not _word(prev, "FROM", "JOIN", "LATERAL")
                ):
                    break  # the subquery's parenthesis (an alias column list follows a name)
            j -= 1
        if j < 0 or (j > 0 and _word(toks[j - 1], "LATERAL")):
            return None
        a_start = byte(toks[j].start)
    return (a_start, a_end), kw, b_span, byte(toks[on_idx].start)


def _locations(node: Any) -> list[int]:
    out: list[int] = []
    stack = [node]
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, dict):
            for key, sub in v.items():
                if key == "location" and isinstance(sub, int):
                    out.append(sub)
                elif isinstance(sub, (dict, list)):
                    stack.append(sub)
    return out
