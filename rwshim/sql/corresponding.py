"""``UNION | EXCEPT | INTERSECT [ALL] CORRESPONDING [BY (cols)]``: RisingWave's set operation on
the columns both sides name (src/sqlparser/src/parser.rs:4998-5010 parse_corresponding,
src/frontend/src/binder/set_expr.rs:232-318 corresponding, planner/set_operation.rs:53-61).

Neither PostgreSQL nor sqlglot has it, so the statement text is rewritten (a registered text
rewrite, rwshim.binder.rewrites) into a plain set operation over two marked wrappers::

    L UNION CORRESPONDING R        ->  SELECT * FROM (L) AS _rw_corr_0_union_l
                                       UNION SELECT * FROM (R) AS _rw_corr_0_union_r
    L UNION CORRESPONDING BY (a) R ->  SELECT a FROM (L) AS _rw_corr_0_union_by_l
                                       UNION SELECT * FROM (R) AS _rw_corr_0_union_by_r

and whoever knows both sides' column names (the binder, the data plane's rewriter) replaces
the wrappers' select lists with the corresponding columns (``mapping``), raising RisingWave's
errors. Everything here is a pure function of the text.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from msgspec import Struct

from rwshim.errors import InvalidInputSyntax, RwError
from rwshim.sql.tokens import Kind, Token, tokenize

UNNAMED = "?column?"  # binder/mod.rs:459 UNNAMED_COLUMN
_SET_OPS = ("UNION", "EXCEPT", "INTERSECT")
_BODY_END = ("ORDER", "LIMIT", "OFFSET", "FETCH", "FOR", "EMIT")
_MARK = re.compile(r"^_rw_corr_(\d+)_(union|except|intersect)_(by_)?([lr])$")


class Marker(Struct, frozen=True):
    """What a wrapper's alias says: which pair, the operation, BY or not, which side."""

    pair: int
    op: str  # UNION / EXCEPT / INTERSECT
    by: bool
    left: bool


def marker(alias: str | None) -> Marker | None:
    """The marker a wrapper's alias carries, None for any other alias."""
    m = _MARK.match(alias or "")
    if m is None:
        return None
    return Marker(int(m.group(1)), m.group(2).upper(), bool(m.group(3)), m.group(4) == "l")


def mapping(
    op: str, left: list[str], right: list[str], by: list[str] | None
) -> list[tuple[int, int]]:
    """The (left index, right index) of each output column, in output order; RisingWave's
    checks and errors (set_expr.rs:232-318). With BY, the right index is the left one:
    RisingWave looks both up in the left side's names (set_expr.rs:268-269)."""

    def name2idx(names: list[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        for i, n in enumerate(names):
            if n in out:
                cols = ", ".join(f'"{c}"' for c in names)
                raise InvalidInputSyntax(
                    f"Duplicated column name `{n}` in a column list of the query in a {op} "
                    f"operation. Column list of the query: ({cols})."
                )
            out[n] = i
        return out

    idx_l, idx_r = name2idx(left), name2idx(right)
    pairs: list[tuple[int, int]] = []
    if by is not None:
        for name in by:
            if name not in idx_l:
                raise InvalidInputSyntax(
                    f"Column name `{name}` in CORRESPONDING BY is not found in a side of the "
                    f"{op} operation. It shall be included in both sides."
                )
            pairs.append((idx_l[name], idx_l[name]))
        return pairs
    for name in left:
        if name != UNNAMED and name in idx_r:
            pairs.append((idx_l[name], idx_r[name]))
    if not pairs:
        lcols = ", ".join(f'"{c}"' for c in left)
        rcols = ", ".join(f'"{c}"' for c in right)
        raise InvalidInputSyntax(
            "When CORRESPONDING is specified, at least one column of the left side shall have "
            "a column name that is the column name of some column of the right side in a "
            f"{op} operation. Left side query column list: ({lcols}). "
            f"Right side query column list: ({rcols})."
        )
    return pairs


# --- the text rewrite ----------------------------------------------------------------------


class _Op(Struct):
    op: str
    all: bool
    by: str | None  # the BY list's text, None without BY; "" when not CORRESPONDING
    corr: bool
    raw: str  # the operator's text as written (plain operations keep it)


def rewrite(text: str) -> str:
    """``text`` with each CORRESPONDING set operation as marked wrappers (unchanged when it
    has none, or when it does not tokenize: the parser reports that)."""
    if "corresponding" not in text.lower():
        return text
    try:
        toks = [t for t in tokenize(text) if t.kind is not Kind.EOF]
    except RwError:
        return text
    if not any(_is_corr(t) for t in toks):
        return text
    counter = [0]
    out, _ = _region(text, toks, 0, len(toks), counter)
    return out


def _is_corr(t: Token) -> bool:
    return t.kind is Kind.WORD and not t.quoted and t.value.upper() == "CORRESPONDING"


def _word(t: Token, *words: str) -> bool:
    return t.kind is Kind.WORD and not t.quoted and t.value.upper() in words


def _op(t: Token, value: str) -> bool:
    return t.kind is Kind.OP and t.value == value


def _close(toks: list[Token], i: int, end: int) -> int:
    """The index of the ``)`` closing the ``(`` at ``i``."""
    depth = 0
    for j in range(i, end):
        if _op(toks[j], "("):
            depth += 1
        elif _op(toks[j], ")"):
            depth -= 1
            if depth == 0:
                return j
    return end - 1


def _region(
    text: str, toks: list[Token], start: int, end: int, counter: list[int]
) -> tuple[str, bool]:
    """The text of tokens [start, end) with every CORRESPONDING rewritten, inner parentheses
    first; whether anything changed."""
    pieces: list[str] = []
    changed = False
    i = start
    # inner parenthesised groups first (subqueries, CTE bodies)
    inner: dict[int, tuple[int, str]] = {}
    while i < end:
        if _op(toks[i], "("):
            j = _close(toks, i, end)
            sub, ch = _region(text, toks, i + 1, j, counter)
            if ch:
                inner[i] = (j, sub)
                changed = True
            i = j + 1
        else:
            i += 1

    def span(a: int, b: int) -> str:
        """The text of tokens [a, b), rewritten inner groups spliced in."""
        if a >= b:
            return ""
        out, at, k = [], toks[a].start, a
        while k < b:
            if k in inner:
                j, sub = inner[k]
                out.append(text[at : toks[k].end] + sub)
                at = toks[j].start
                k = j
            k += 1
        out.append(text[at : toks[b - 1].end])
        return "".join(out)

    body_start = _body_start(toks, _query_start(toks, start, end), end)
    has_corr = any(_is_corr(toks[k]) and _depth0(toks, start, k) for k in range(body_start, end))
    if not has_corr:
        if not changed:
            return (text[toks[start].start : toks[end - 1].end] if start < end else ""), False
        return span(start, end), True
    body_end = end
    for k in range(body_start, end):
        if _depth0(toks, start, k) and (_word(toks[k], *_BODY_END) or _op(toks[k], ";")):
            body_end = k
            break
    # split the body into primaries and operators at this depth
    prims: list[tuple[int, int]] = []
    ops: list[_Op] = []
    k, first = body_start, body_start
    depth = 0
    while k < body_end:
        t = toks[k]
        if _op(t, "("):
            depth += 1
        elif _op(t, ")"):
            depth -= 1
        elif depth == 0 and _word(t, *_SET_OPS) and not (k > start and _op(toks[k - 1], "*")):
            prims.append((first, k))
            op_start, k = k, k + 1
            is_all = k < body_end and _word(toks[k], "ALL")
            if is_all or (k < body_end and _word(toks[k], "DISTINCT")):
                k += 1
            corr, by = False, None
            if k < body_end and _is_corr(toks[k]):
                corr, k = True, k + 1
                if k < body_end and _word(toks[k], "BY") and k + 1 < body_end:
                    j = _close(toks, k + 1, body_end)
                    by = text[toks[k + 2].start : toks[j].start].strip() if j > k + 2 else ""
                    k = j + 1
            raw = text[toks[op_start].start : toks[k - 1].end]
            ops.append(_Op(t.value.upper(), is_all, by, corr, raw))
            first = k
            continue
        k += 1
    prims.append((first, body_end))
    tree = _precedence(prims, ops)
    body = _emit(tree, span, counter, top=True)
    pieces.append(span(start, body_start))
    pieces.append(body)
    pieces.append(span(body_end, end))
    return " ".join(p for p in pieces if p), True


def _depth0(toks: list[Token], start: int, k: int) -> bool:
    depth = 0
    for j in range(start, k):
        if _op(toks[j], "("):
            depth += 1
        elif _op(toks[j], ")"):
            depth -= 1
    return depth == 0


def _query_start(toks: list[Token], start: int, end: int) -> int:
    """Where the query starts in a statement that holds one (``CREATE ... AS``, ``INSERT``,
    ``EXPLAIN``, ``DECLARE ... FOR``): its first SELECT / VALUES / WITH at this depth."""
    if start >= end or _word(toks[start], "SELECT", "VALUES", "WITH") or _op(toks[start], "("):
        return start
    for k in range(start, end):
        if _word(toks[k], "SELECT", "VALUES", "WITH") and _depth0(toks, start, k):
            return k
    return start


def _body_start(toks: list[Token], start: int, end: int) -> int:
    """Where the query body starts: after a WITH list (parser.rs parse_query)."""
    if start >= end or not _word(toks[start], "WITH"):
        return start
    k = start + 1
    if k < end and _word(toks[k], "RECURSIVE"):
        k += 1
    while k < end:
        k += 1  # the CTE's name
        if k < end and _op(toks[k], "("):
            k = _close(toks, k, end) + 1
        if k < end and _word(toks[k], "AS"):
            k += 1
        while k < end and _word(toks[k], "NOT", "MATERIALIZED"):
            k += 1
        if k < end and _op(toks[k], "("):
            k = _close(toks, k, end) + 1
        if k < end and _op(toks[k], ","):
            k += 1
            continue
        return k
    return end


class _Bin(Struct):
    op: _Op
    left: _Tree
    right: _Tree


_Tree = tuple[int, int] | _Bin


def _precedence(prims: list[tuple[int, int]], ops: list[_Op]) -> _Tree:
    """The operation tree, INTERSECT binding tighter, left-associative (parser.rs:4955-4985)."""

    def prec(o: _Op) -> int:
        return 20 if o.op == "INTERSECT" else 10

    pos = [0]

    def parse(min_prec: int) -> _Tree:
        node: _Tree = prims[pos[0]]
        while pos[0] < len(ops) and prec(ops[pos[0]]) > min_prec:
            o = ops[pos[0]]
            pos[0] += 1
            node = _Bin(o, node, parse(prec(o)))
        return node

    return parse(0)


def _emit(
    node: _Tree, span: Callable[[int, int], str], counter: list[int], top: bool = False
) -> str:
    if not isinstance(node, _Bin):
        return span(node[0], node[1])
    o = node.op
    lt = _emit(node.left, span, counter)
    rt = _emit(node.right, span, counter)
    if not o.corr:
        out = f"{lt} {o.raw} {rt}"
    else:
        n = counter[0]
        counter[0] += 1
        kind = f"{o.op.lower()}_by" if o.by is not None else o.op.lower()
        head = "*" if o.by is None else o.by
        all_ = " ALL" if o.all else ""
        out = (
            f"SELECT {head} FROM ({lt}) AS _rw_corr_{n}_{kind}_l {o.op}{all_} "
            f"SELECT * FROM ({rt}) AS _rw_corr_{n}_{kind}_r"
        )
    return out if top else f"({out})"
