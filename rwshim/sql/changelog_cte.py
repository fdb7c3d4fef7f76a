"""RisingWave's changelog CTE, ``WITH p AS changelog FROM t``, in texts the other parsers read.

RisingWave parses ``alias [(cols)] AS changelog FROM <object name>`` as a CTE of its own kind
(src/sqlparser/src/parser.rs:4896-4932, ``CteInner::ChangeLog``) and binds it as a share of
the table or source's relation with two more columns, ``changelog_op`` (int2, visible) and
``_changelog_row_id`` (serial, hidden) (src/frontend/src/binder/relation/share.rs:41-84,
binder/query.rs:404-418).  Neither PostgreSQL nor sqlglot reads that form, so two rewrites:

- ``for_postgres_parse``: for the front door's syntax check (pglast), the CTE's body becomes
  ``(TABLE <name>)`` in place (the positions of what follows kept: two characters added,
  reported to the caller);
- ``as_relations``: for the readers that bind (the binder, the data plane's router), each
  changelog CTE is removed from its WITH and every relation reference to its alias after it
  becomes ``<name>@changelog`` (the last part of the object name with ``@changelog`` appended,
  quoted) aliased as the CTE: a relation the resolver (binder/resolve.py) gives the changelog's
  columns.  A reference to the alias in a nested WITH that shadows it is not told apart.

Pure functions of the text's tokens.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rwshim.sql.tokens import Kind, Token, tokenize

SUFFIX = "@changelog"
ROW_ID_NAME = "_changelog_row_id"  # optimizer/plan_node/generic/changelog.rs:27-28

_QUICK = re.compile(r"(?is)\bas\s+changelog\s+from\b")

# Words after which a relation name follows in a FROM list (parse_table_factor)
_RELATION_AFTER = {"FROM", "JOIN"}
_FROM_ENDS = {
    "WHERE", "GROUP", "HAVING", "WINDOW", "ORDER", "LIMIT", "OFFSET", "FETCH", "UNION",
    "INTERSECT", "EXCEPT", "RETURNING", "SET", "VALUES", "SELECT", "EMIT", "ON", "USING",
}  # fmt: skip
# Words that may follow a relation name without being its alias
_NOT_ALIAS = _FROM_ENDS | {
    "JOIN",
    "INNER",
    "LEFT",
    "RIGHT",
    "FULL",
    "CROSS",
    "NATURAL",
    "ASOF",
    "FOR",
    "AS",
    "LATERAL",
}


def mentions(text: str) -> bool:
    return _QUICK.search(text) is not None


def _is(tok: Token, value: str) -> bool:
    return tok.kind is Kind.OP and tok.value == value


class _Cte:
    """One changelog CTE: its token span and what it names."""

    def __init__(self, start: int, as_at: int, name_start: int, name_end: int) -> None:
        self.start = start  # index of the alias token
        self.as_at = as_at  # index of AS
        self.name_start = name_start  # index of the object name's first token
        self.name_end = name_end  # index after its last token


def _name_end(toks: list[Token], i: int) -> int:
    """The index after the dotted object name starting at ``i``."""
    j = i + 1
    while j + 1 < len(toks) and _is(toks[j], ".") and toks[j + 1].kind is Kind.WORD:
        j += 2
    return j


def _ctes(toks: list[Token]) -> list[_Cte]:
    out = []
    n = len(toks)
    for i in range(1, n - 3):
        t = toks[i]
        if t.upper != "AS" or t.quoted:
            continue
        word = toks[i + 1]
        if word.kind is not Kind.WORD or word.quoted or word.value.lower() != "changelog":
            continue
        if toks[i + 2].upper != "FROM" or toks[i + 3].kind is not Kind.WORD:
            continue
        start = i - 1
        if _is(toks[start], ")"):  # alias (cols) AS changelog FROM ...
            depth = 0
            while start >= 0:
                if _is(toks[start], ")"):
                    depth += 1
                elif _is(toks[start], "("):
                    depth -= 1
                    if depth == 0:
                        break
                start -= 1
            start -= 1
        if start < 0 or toks[start].kind is not Kind.WORD:
            continue
        out.append(_Cte(start, i, i + 3, _name_end(toks, i + 3)))
    return out


def for_postgres_parse(text: str, toks: list[Token]) -> tuple[str, list[int]]:
    """``text`` (tokenized as ``toks``) with each
    changelog CTE's body as ``(TABLE <name>)``, and the offsets (in the original text) before
    which one character was inserted."""
    if not toks or not mentions(text):
        return text, []
    base = 0
    chars = list(text)
    inserts: list[tuple[int, str]] = []
    for c in _ctes(toks):
        word, frm = toks[c.as_at + 1], toks[c.as_at + 2]
        w0, f0 = word.start - base, frm.start - base
        chars[w0 : w0 + 9] = list("TABLE    ")
        chars[f0 : f0 + 4] = list("    ")
        inserts.append((w0, "("))
        inserts.append((toks[c.name_end - 1].end - base, ")"))
    body = "".join(chars)
    out: list[str] = []
    prev = 0
    for off, ch in sorted(inserts):
        out.append(body[prev:off])
        out.append(ch)
        prev = off
    out.append(body[prev:])
    return "".join(out), sorted(off for off, _ in inserts)


def changelog_name(text: str, toks: list[Token]) -> str:
    """The object name's text (``toks`` of ``text``) as a relation named
    ``<last part>@changelog``."""
    last = toks[-1]
    value = last.value if last.quoted else last.value.lower()
    quoted = '"' + (value + SUFFIX).replace('"', '""') + '"'
    return "".join(text[t.start : t.end] for t in toks[:-1]) + quoted


def _with_clause(toks: list[Token], w: int) -> list[tuple[int, int, _Cte | None]] | None:
    """The entries of the WITH clause at ``toks[w]``: (first index, index after, the
    changelog CTE or None), or None when it is not one RisingWave parses."""
    i = w + 1
    n = len(toks)
    if i < n and toks[i].upper == "RECURSIVE":
        i += 1
    out: list[tuple[int, int, _Cte | None]] = []
    while i < n and toks[i].kind is Kind.WORD:
        first = i
        i += 1
        if i < n and _is(toks[i], "("):
            i = _close(toks, i)
        if i >= n or toks[i].upper != "AS":
            return None
        as_at = i
        i += 1
        if i < n and _is(toks[i], "("):
            i = _close(toks, i)
            out.append((first, i, None))
        elif (
            i + 2 < n
            and toks[i].kind is Kind.WORD
            and not toks[i].quoted
            and toks[i].value.lower() == "changelog"
            and toks[i + 1].upper == "FROM"
            and toks[i + 2].kind is Kind.WORD
        ):
            end = _name_end(toks, i + 2)
            out.append((first, end, _Cte(first, as_at, i + 2, end)))
            i = end
        else:
            return None
        if i < n and _is(toks[i], ","):
            i += 1
            continue
        break
    return out


def _close(toks: list[Token], i: int) -> int:
    """The index after the parenthesis closing the one at ``i``."""
    depth = 0
    while i < len(toks):
        if _is(toks[i], "("):
            depth += 1
        elif _is(toks[i], ")"):
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def as_relations(text: str) -> str:
    """``text`` with its changelog CTEs made relation references (see the docstring)."""
    if not mentions(text):
        return text
    try:
        toks = [t for t in tokenize(text) if t.kind is not Kind.EOF]
    except Exception:  # the statement's own parse reports what is wrong with it
        return text
    edits: list[tuple[int, int, str]] = []
    removed: list[tuple[int, int]] = []  # character spans of the changelog CTEs removed
    aliases: dict[str, tuple[str, str, int]] = {}  # alias -> (relation, column list, after)
    for w, t in enumerate(toks):
        if t.upper != "WITH" or t.quoted:
            continue
        entries = _with_clause(toks, w)
        if not entries or all(c is None for _, _, c in entries):
            continue
        starts = [toks[a].start for a, _, _ in entries]
        ends = [toks[b - 1].end for _, b, _ in entries]
        kept = [k for k, (_, _, c) in enumerate(entries) if c is None]
        if not kept:  # the whole WITH goes
            spans = [(t.start, ends[-1])]
        else:
            last = kept[-1]
            spans = [
                (starts[k], starts[k + 1]) if k < last else (ends[k - 1], ends[k])
                for k, (_, _, c) in enumerate(entries)
                if c is not None
            ]
        edits += [(a, b, " ") for a, b in spans]
        removed += spans
        for _, _, c in entries:
            if c is None:
                continue
            alias_tok = toks[c.start]
            alias = alias_tok.value if alias_tok.quoted else alias_tok.value.lower()
            cols = ""
            if c.as_at - c.start > 1:
                cols = text[toks[c.start + 1].start : toks[c.as_at - 1].end]
            relation = changelog_name(text, toks[c.name_start : c.name_end])
            aliases[alias] = (relation, cols, toks[c.name_end - 1].end)
    if not edits:
        return text
    edits += _references(text, toks, aliases, removed)
    edits.sort()
    out: list[str] = []
    prev = 0
    for s, e, new in edits:
        if s < prev:
            continue
        out.append(text[prev:s])
        out.append(new)
        prev = e
    out.append(text[prev:])
    return "".join(out)


def _references(
    text: str,
    toks: list[Token],
    aliases: dict[str, tuple[str, str, int]],
    removed: list[tuple[int, int]],
) -> list[tuple[int, int, str]]:
    """The edits making each reference to a changelog alias its relation."""
    out: list[tuple[int, int, str]] = []
    levels: list[bool] = [False]  # per parenthesis: a FROM list is active
    n = len(toks)
    for i, t in enumerate(toks):
        if any(s <= t.start < e for s, e in removed):
            continue
        if _is(t, "("):
            levels.append(False)
            continue
        if _is(t, ")"):
            if len(levels) > 1:
                levels.pop()
            continue
        up = t.upper if t.kind is Kind.WORD and not t.quoted else ""
        if up == "FROM" and i > 0 and toks[i - 1].upper == "DISTINCT":
            continue
        if up == "FROM":
            levels[-1] = True
        elif up in _FROM_ENDS:
            levels[-1] = False
        if i + 1 >= n or not (up in _RELATION_AFTER or (_is(t, ",") and levels[-1])):
            continue
        cand = toks[i + 1]
        if cand.kind is not Kind.WORD:
            continue
        key = cand.value if cand.quoted else cand.value.lower()
        hit = aliases.get(key)
        if hit is None or cand.start < hit[2]:
            continue
        nxt = toks[i + 2] if i + 2 < n else None
        if nxt is not None and (_is(nxt, ".") or _is(nxt, "(")):
            continue  # a qualified name or a table function
        relation, cols, _ = hit
        has_alias = nxt is not None and (
            nxt.upper == "AS"
            or (nxt.kind is Kind.WORD and (nxt.quoted or nxt.upper not in _NOT_ALIAS))
        )
        alias_text = "" if has_alias else f" AS {text[cand.start : cand.end]}{cols}"
        out.append((cand.start, cand.end, relation + alias_text))
    return out


# Functions whose call changes a query's stream key: aggregates (the group key, or none) and
# set-returning functions (ProjectSet adds its own row id).  A query calling one, or any
# function RisingWave's parser marks as an aggregate or window call, keeps no hidden row id here.
_KEY_CHANGING = frozenset(
    {
        "count", "sum", "avg", "min", "max", "bool_and", "bool_or", "every", "string_agg",
        "array_agg", "jsonb_agg", "jsonb_object_agg", "bit_and", "bit_or", "bit_xor",
        "approx_count_distinct", "approx_percentile", "percentile_cont", "percentile_disc",
        "mode", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp",
        "first_value", "last_value", "internal_last_seen_value", "unnest", "generate_series",
        "generate_subscripts", "regexp_matches", "jsonb_array_elements",
        "jsonb_array_elements_text", "jsonb_each", "jsonb_each_text", "jsonb_object_keys",
        "jsonb_path_query", "json_array_elements", "json_each", "pg_expandarray", "range",
        "_pg_expandarray", "read_csv", "file_scan", "postgres_query", "mysql_query",
    }
)  # fmt: skip


def with_hidden_row_id(text: str, outputs: Iterable[str]) -> tuple[str, str] | None:
    """``hidden_row_id`` under the name RisingWave's derive_columns gives the hidden column:
    the field's name, ``#n`` after it while an output has it (optimizer/plan_node/
    derive.rs:43-69); (the query, the name), or None."""
    taken = set(outputs)
    name, n = ROW_ID_NAME, 0
    while name in taken:
        n += 1
        name = f"{ROW_ID_NAME}#{n}"
    extended = hidden_row_id(text, name)
    return None if extended is None else (extended, name)


def hidden_row_id(text: str, name: str = ROW_ID_NAME) -> str | None:
    """A materialized view's query over one changelog CTE with the CTE's ``_changelog_row_id``
    appended to its select list (as ``name``), when RisingWave's view keeps it as a hidden
    column: the row id is the changelog's stream key (its ChangeLog node's, generic/
    changelog.rs), and a view's stream-key columns its select list does not show are its
    hidden columns, named after their fields (optimizer/plan_node/derive.rs:27-77; planner
    test output/changelog.yaml: ``_changelog_row_id(hidden)``).  Only the form whose key is
    that row id alone: one changelog CTE the only FROM item, no GROUP BY / DISTINCT / HAVING /
    window / LIMIT / set operation / subquery / aggregate or set-returning call, and no plain
    reference to ``_changelog_row_id`` among its outputs (then the key is shown).  None
    otherwise (rwshim then keeps no hidden column)."""
    if not mentions(text):
        return None
    try:
        from rwshim.sql import pgjson

        stmts = pgjson.parse(as_relations(text)).get("stmts") or []
        toks = [t for t in tokenize(text) if t.kind is not Kind.EOF]
    except Exception:
        return None
    if len(stmts) != 1:
        return None
    sel = stmts[0].get("stmt", {}).get("SelectStmt")
    if sel is None or not _simple(sel):
        return None
    at = _outer_from(toks)
    if at is None:
        return None
    alias = "" if name == ROW_ID_NAME else ' AS "' + name.replace('"', '""') + '"'
    return f"{text[:at]}, {ROW_ID_NAME}{alias} {text[at:]}"


def _simple(sel: dict[str, object]) -> bool:
    if sel.get("op", "SETOP_NONE") != "SETOP_NONE" or sel.get("withClause"):
        return False
    for key in ("distinctClause", "groupClause", "havingClause", "windowClause", "limitCount",
                "limitOffset", "valuesLists", "intoClause", "lockingClause"):  # fmt: skip
        if sel.get(key):
            return False
    frm = sel.get("fromClause") or []
    if not isinstance(frm, list) or len(frm) != 1:
        return False
    rv = frm[0].get("RangeVar") if isinstance(frm[0], dict) else None
    if rv is None or not str(rv.get("relname", "")).endswith(SUFFIX):
        return False
    if (rv.get("alias") or {}).get("colnames"):
        return False  # an alias list renames the hidden row id too: not told apart here
    targets = sel.get("targetList") or []
    for t in targets if isinstance(targets, list) else []:
        val = t.get("ResTarget", {}).get("val", {})
        fields = val.get("ColumnRef", {}).get("fields") or []
        last = fields[-1].get("String", {}).get("sval") if fields else None
        if last == ROW_ID_NAME:
            return False  # the key is an output: no hidden column
    return not _changes_key(targets) and not _changes_key(sel.get("whereClause"))


def _changes_key(node: object) -> bool:
    """Whether an expression holds a subquery, a window call, an aggregate or a set-returning
    call (by name, or marked as an aggregate by its syntax)."""
    if isinstance(node, list):
        return any(_changes_key(n) for n in node)
    if not isinstance(node, dict):
        return False
    if "SubLink" in node:
        return True
    call = node.get("FuncCall")
    if isinstance(call, dict):
        if call.get("over") or call.get("agg_star") or call.get("agg_distinct"):
            return True
        if call.get("agg_order") or call.get("agg_filter") or call.get("agg_within_group"):
            return True
        parts = call.get("funcname") or []
        fname = parts[-1].get("String", {}).get("sval", "") if parts else ""
        if str(fname).lower() in _KEY_CHANGING:
            return True
    return any(_changes_key(v) for v in node.values())


def _outer_from(toks: list[Token]) -> int | None:
    """The offset of the FROM that ends the outermost select list (after the WITH clause)."""
    i = 0
    if toks and toks[0].upper == "WITH" and not toks[0].quoted:
        entries = _with_clause(toks, 0)
        if not entries:
            return None
        i = entries[-1][1]
    if i >= len(toks) or toks[i].upper != "SELECT" or toks[i].quoted:
        return None
    depth = 0
    for j in range(i + 1, len(toks)):
        t = toks[j]
        if _is(t, "("):
            depth += 1
        elif _is(t, ")"):
            depth -= 1
        elif depth == 0 and t.upper == "FROM" and not t.quoted and toks[j - 1].upper != "DISTINCT":
            return t.start
    return None
