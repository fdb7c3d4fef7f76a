"""RisingWave's refusals of a streaming query's temporal join (``JOIN dim FOR SYSTEM_TIME AS OF
PROCTIME() ON ...``), checked on the query's tokens when a materialized view or sink is made.

``src/frontend/src/optimizer/plan_node/logical_join.rs``:
- with an equality on the lookup table (``to_stream_temporal_join``, :1245-1330): the equal
  columns must cover the shortest prefix of its order key that holds its distribution key
  (a table's declared key; a table without one is keyed and distributed by its hidden row id,
  so only an index can serve: the index's first column, its distribution key);
- without one (``to_stream_nested_loop_temporal_join``, :1347-1375): an inner join only, and
  an append-only left side;
- a temporal scan not on the right of an inner or left join is dangling
  (``src/frontend/src/optimizer/mod.rs:713-718``).

Only a left side that is a table is known to be append-only or not here; a materialized view
on the left is not refused (RisingWave derives its append-only-ness from its plan).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rwshim.binder.relations import Relation, RelKind
from rwshim.errors import NotSupported
from rwshim.sql.tokens import Kind, Token, tokenize

_END = {
    "JOIN", "LEFT", "RIGHT", "FULL", "INNER", "CROSS", "NATURAL", "WHERE", "GROUP", "HAVING",
    "ORDER", "LIMIT", "OFFSET", "UNION", "EXCEPT", "INTERSECT", "WINDOW", "EMIT", "FETCH",
}  # fmt: skip
_ALIAS_STOP = {"FOR", "ON", "USING", *_END}


@dataclass
class _Join:
    kind: str  # INNER / LEFT / RIGHT / FULL / CROSS / COMMA
    left: list[str] | None  # the left relation's name parts when it is one name
    left_alias: str | None
    right: list[str]
    right_alias: str | None
    on: list[Token]


def _name_at(toks: list[Token], i: int) -> tuple[list[str], str | None, int]:
    """A relation name (dotted) and its alias from token ``i``; the index after them."""
    parts = [toks[i].value]
    i += 1
    while i + 1 < len(toks) and toks[i].kind is Kind.OP and toks[i].value == ".":
        parts.append(toks[i + 1].value)
        i += 2
    alias = None
    if i < len(toks) and toks[i].kind is Kind.WORD and toks[i].upper == "AS":
        i += 1
    if (
        i < len(toks)
        and toks[i].kind is Kind.WORD
        and (toks[i].quoted or toks[i].upper not in _ALIAS_STOP)
    ):
        alias = toks[i].value
        i += 1
    return parts, alias, i


def _proctime_at(toks: list[Token], i: int) -> int | None:
    """The index after ``FOR SYSTEM_TIME AS OF PROCTIME()`` at ``i``, if it is there."""
    want = ("FOR", "SYSTEM_TIME", "AS", "OF", "PROCTIME")
    if i + 7 > len(toks):
        return None
    words = all(
        toks[i + k].kind is Kind.WORD and toks[i + k].upper == w for k, w in enumerate(want)
    )
    if words and toks[i + 5].value == "(" and toks[i + 6].value == ")":
        return i + 7
    return None


def _joins(text: str) -> list[_Join]:
    toks = [t for t in tokenize(text) if t.kind is not Kind.EOF]
    out: list[_Join] = []
    prev_rel: tuple[list[str], str | None] | None = None
    i = 0
    while i < len(toks):
        t = toks[i]
        if (
            t.kind is Kind.WORD
            and t.upper == "FROM"
            and i + 1 < len(toks)
            and toks[i + 1].kind is Kind.WORD
        ):
            parts, alias, j = _name_at(toks, i + 1)
            prev_rel = (parts, alias)
            after = _proctime_at(toks, j)
            i = j if after is None else after
            continue
        joined = t.kind is Kind.WORD and t.upper == "JOIN"
        comma = t.kind is Kind.OP and t.value == "," and prev_rel is not None
        if (joined or comma) and i + 1 < len(toks) and toks[i + 1].kind is Kind.WORD:
            kind = "COMMA" if comma else "INNER"
            if joined:
                for k in range(max(i - 2, 0), i):
                    if toks[k].kind is Kind.WORD and toks[k].upper in (
                        "LEFT",
                        "RIGHT",
                        "FULL",
                        "CROSS",
                    ):
                        kind = toks[k].upper
            parts, alias, j = _name_at(toks, i + 1)
            after = _proctime_at(toks, j)
            if after is not None:
                if (
                    j < after
                    and after < len(toks)
                    and toks[after].kind is Kind.WORD
                    and toks[after].upper not in _ALIAS_STOP
                ):
                    alias = toks[after].value  # the alias after the AS OF
                    after += 1
                elif after + 1 < len(toks) and toks[after].upper == "AS":
                    alias = toks[after + 1].value
                    after += 2
                on: list[Token] = []
                k = after
                if k < len(toks) and toks[k].kind is Kind.WORD and toks[k].upper == "ON":
                    depth = 0
                    k += 1
                    while k < len(toks):
                        tk = toks[k]
                        if tk.kind is Kind.OP and tk.value == "(":
                            depth += 1
                        elif tk.kind is Kind.OP and tk.value == ")":
                            if depth == 0:
                                break
                            depth -= 1
                        elif depth == 0 and (
                            (tk.kind is Kind.WORD and not tk.quoted and tk.upper in _END)
                            or (tk.kind is Kind.OP and tk.value in (";", ","))
                        ):
                            break
                        on.append(tk)
                        k += 1
                left = prev_rel
                out.append(
                    _Join(
                        kind, left[0] if left else None, left[1] if left else None, parts, alias, on
                    )
                )
                i = k
                prev_rel = None
                continue
            prev_rel = (parts, alias)
            i = j
            continue
        if t.kind is Kind.OP and t.value == "(":
            prev_rel = None
        i += 1
    return out


def _conjuncts(on: list[Token]) -> list[list[Token]]:
    out: list[list[Token]] = [[]]
    depth = 0
    for t in on:
        if t.kind is Kind.OP and t.value == "(":
            depth += 1
        elif t.kind is Kind.OP and t.value == ")":
            depth -= 1
        if depth == 0 and t.kind is Kind.WORD and t.upper == "AND":
            out.append([])
            continue
        out[-1].append(t)
    return [c for c in out if c]


def _column(toks: list[Token]) -> tuple[str | None, str] | None:
    """``name`` or ``q.name`` as (qualifier, name)."""
    if len(toks) == 1 and toks[0].kind is Kind.WORD:
        return None, toks[0].value
    if (
        len(toks) == 3
        and toks[0].kind is Kind.WORD
        and toks[1].value == "."
        and toks[2].kind is Kind.WORD
    ):
        return toks[0].value, toks[2].value
    return None


def _right_eq_columns(j: _Join, right: Relation, left: Relation | None) -> set[str]:
    """The right table's columns the ON condition equates with something of the left."""
    right_names = {j.right_alias or j.right[-1]}
    right_cols = {c.name for c in right.columns}
    left_cols = {c.name for c in left.columns} if left is not None else set()
    out: set[str] = set()
    for c in _conjuncts(j.on):
        eq = [k for k, t in enumerate(c) if t.kind is Kind.OP and t.value == "="]
        if len(eq) != 1:
            continue
        a, b = _column(c[: eq[0]]), _column(c[eq[0] + 1 :])
        if a is None or b is None:
            continue
        sides = []
        for q, n in (a, b):
            if q is not None:
                sides.append(("r", n) if q in right_names else ("l", n))
            elif n in right_cols and n not in left_cols:
                sides.append(("r", n))
            else:
                sides.append(("l", n))
        kinds = {s[0] for s in sides}
        if kinds == {"r", "l"}:
            out.update(n for k, n in sides if k == "r")
    return out


Resolve = Callable[[list[str]], Relation | None]
Indexes = Callable[[int], list[Relation]]


def check(text: str, resolve: Resolve, indexes: Indexes) -> None:
    """Raise RisingWave's error for a temporal join its optimizer refuses."""
    if "proctime" not in text.lower():
        return
    for j in _joins(text):
        if j.kind in ("RIGHT", "FULL"):
            raise NotSupported(
                "exist dangling temporal scan",
                "please check your temporal join syntax e.g. consider removing the right outer"
                " join if it is being used.",
            )
        right = resolve(j.right)
        if right is None or right.kind not in (RelKind.TABLE, RelKind.INDEX):
            continue  # a materialized view's key is its plan's: not judged here
        left = resolve(j.left) if j.left is not None else None
        eq = _right_eq_columns(j, right, left)
        if not eq:
            if j.kind == "LEFT":
                raise NotSupported(
                    "Temporal join requires an inner join", "Please use an inner join"
                )
            if left is not None and left.kind == RelKind.TABLE and not left.append_only:
                raise NotSupported(
                    "Nested-loop Temporal join requires the left hash side to be append only",
                    "Please ensure the left hash side is append only",
                )
            continue
        if _covered(right, eq) or any(_covered(ix, eq) for ix in indexes(right.id)):
            continue
        raise NotSupported(
            "Temporal join requires the equivalence join condition includes the key columns"
            " that form the distribution key of the lookup table",
            "Use DESCRIBE <table_name> to view the table's key information.\nYou can create an"
            " index on the lookup table to facilitate the temporal join if necessary.",
        )


def _covered(rel: Relation, eq: set[str]) -> bool:
    """Whether ``eq`` covers the prefix of ``rel``'s order key holding its distribution key
    (a table: its declared key, else the hidden row id; an index: its first column)."""
    if rel.kind == RelKind.INDEX:
        return bool(rel.index_keys) and rel.index_keys[0] in eq
    hidden = {c.name for c in rel.columns if c.hidden}
    key = rel.primary_key
    if not key or any(k in hidden for k in key):
        return False
    return all(k in eq for k in key)
