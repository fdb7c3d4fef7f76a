"""RisingWave's map syntax in a statement for PostgreSQL: ``map(K,V)`` type names and ``MAP {k:
v, ...}`` literals with their subscripts.

- The pre-pass (``prepass_maps``, registered on the word ``map``) replaces a ``map(K,V)`` type
  written after ``::`` or ``AS`` with its composite (typemap.map_name, the DDL in ``requires``),
  and turns every literal into its same-length row-constructor form (sql/map_literals.py),
  keeping where its keys, values and subscripts are.
- The rewriter (``splice_literals``) replaces each literal, innermost first, with what
  RisingWave binds it to (src/frontend/src/binder/expr/value.rs): ``bind_map`` is
  ``map_from_key_values(ARRAY[keys], ARRAY[values])`` over the keys' and the values' common
  types; followed by a cast to a map type, ``bind_map_cast`` casts each key and value to the
  target's types (so ``MAP{}::map(int,int)`` is an empty map); a subscript is a MapAccess
  without type inference (``bind_index``: ``rwfn.map_subscript``, which finds nothing for a
  key of another type).  An empty literal without a cast is RisingWave's bind error.

A map type is made before the statement runs; a literal's own type is known only to
PostgreSQL, so the pre-pass also makes the types of literals whose keys and values are
constants or literals themselves (``MAP {1: MAP {2: 3}}``), by RisingWave's typing of
constants (an integer literal is ``integer``, one with a point ``numeric``, a string takes the
others' type or ``varchar``): the template holds the scalar ones (maptype.TEMPLATE_TYPES).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from rwshim.binder.relations import Relation
from rwshim.common import rwtypes
from rwshim.dataplane.plan import prepass, splice, tree, typemap
from rwshim.dataplane.plan.names import FUNCTION_SCHEMA as F
from rwshim.dataplane.plan.route import Routed
from rwshim.dataplane.plan.splice import Splicer
from rwshim.errors import BindError, BindExprError, RwError
from rwshim.sql import map_literals
from rwshim.sql.tokens import Kind, tokenize


@dataclass(slots=True)
class MapSpan:
    """A literal in the pre-passed text: byte offsets, its cast's type, nested literals."""

    start: int
    end: int
    keys: list[tuple[int, int]]
    values: list[tuple[int, int]]
    subscripts: list[tuple[int, int]]
    cast: rwtypes.RwType | None = None
    inner: list[MapSpan] = field(default_factory=list)


# a cast right after a literal's closing brace: ``::map(``
_CAST = re.compile(r"\s*::\s*(?P<map>map)\s*\(", re.IGNORECASE)
_EMPTY_MAP = (
    "cannot determine type of empty map\n"
    "HINT:  Explicitly cast to the desired type, for example MAP{}::map(int,int)."
)


def _paren_type(text: str, start: int) -> tuple[rwtypes.RwType, int] | None:
    """The ``map(...)`` type starting at ``start`` (and its ``[]`` suffixes) and its end."""
    depth, i = 0, text.index("(", start)
    while i < len(text):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                break
        elif text[i] in "';":
            return None
        i += 1
    else:
        return None
    end = i + 1
    while text[end : end + 2] == "[]":
        end += 2
    try:
        return rwtypes.parse(text[start:end]), end
    except (rwtypes.TypeSyntaxError, RwError):
        return None


def _const_type(text: str) -> rwtypes.RwType | str | None:
    """RisingWave's type of a constant key or value (``"unknown"`` for a string), or None."""
    try:
        toks = [t for t in tokenize(text) if t.kind is not Kind.EOF]
    except RwError:
        return None
    if len(toks) == 2 and toks[0].kind is Kind.OP and toks[0].value == "-":
        toks = toks[1:]
    if len(toks) != 1:
        return None
    t = toks[0]
    if t.kind is Kind.STRING:
        return "unknown"
    if t.kind is Kind.NUMBER:
        if any(c in t.value for c in ".eE"):
            return rwtypes.parse("numeric")
        return rwtypes.parse("integer" if abs(int(t.value)) < 2**31 else "bigint")
    if t.kind is Kind.WORD and not t.quoted and t.upper in ("TRUE", "FALSE"):
        return rwtypes.parse("boolean")
    return None


def _common(types: list[rwtypes.RwType | str | None]) -> rwtypes.RwType | None:
    known = [t for t in types if isinstance(t, rwtypes.RwType)]
    if any(t is None for t in types):
        return None
    if not known:
        return rwtypes.parse("varchar")
    names = {t.display() for t in known}
    if names <= {"integer", "bigint", "numeric"} and len(names) > 1:
        return rwtypes.parse("numeric" if "numeric" in names else "bigint")
    return known[0] if len(names) == 1 else None


def _literal_type(text: str, lit: map_literals.MapLiteral) -> rwtypes.RwType | None:
    """The type of a literal of constants and literals, as RisingWave types it (align_types
    over the keys and over the values), or None."""
    inner = {(x.start, x.end): x for x in lit.inner}
    keys = [_const_type(text[a:b]) for a, b in lit.keys]
    values: list[rwtypes.RwType | str | None] = []
    for a, b in lit.values:
        nested = inner.get((a, b))
        values.append(_literal_type(text, nested) if nested is not None else _const_type(text[a:b]))
    k, v = _common(keys), _common(values)
    if k is None or v is None or not lit.keys:
        return None
    return rwtypes.RwType("map", elem=k, value=v)


def _require(state: prepass.Prepassed, t: rwtypes.RwType) -> None:
    try:
        rwtypes.check_map_keys(t)
        ddl = typemap.type_ddl(t)
    except RwError:
        return  # left for PostgreSQL to refuse the call
    for sql in ddl:
        if sql not in state.requires:
            state.requires.append(sql)


def _literals(state: prepass.Prepassed) -> None:
    text = state.text
    lits = map_literals.find(text)
    if not lits:
        return

    def span(lit: map_literals.MapLiteral) -> MapSpan:
        b = state.byte_offset
        out = MapSpan(
            b(lit.start), b(lit.end),
            [(b(x), b(y)) for x, y in lit.keys], [(b(x), b(y)) for x, y in lit.values],
            [(b(x), b(y)) for x, y in lit.subscripts],
        )  # fmt: skip
        cast = _CAST.match(text, lit.brace_end) if not lit.subscripts else None
        if cast is not None:
            found = _paren_type(text, cast.start("map"))
            if found is not None and found[0].kind == "map":
                out.cast = found[0]
        if not lit.keys and out.cast is None:
            # bind_map (binder/expr/value.rs:134-137)
            raise BindExprError("MAP {}", BindError(_EMPTY_MAP))
        if out.cast is None:
            typ = _literal_type(text, lit)
            if typ is not None and typ.value is not None and typ.value.kind == "map":
                _require(state, typ)
        out.inner = [span(x) for x in lit.inner]
        return out

    state.map_literals.extend(span(lit) for lit in lits)
    state.text = map_literals.placeholder(text, lits)
    state.tokens = None


def _types(state: prepass.Prepassed) -> None:
    try:
        toks = tokenize(state.text)
    except RwError:
        return
    spans: list[tuple[int, int, rwtypes.RwType]] = []
    for i in range(1, len(toks) - 1):
        t, before = toks[i], toks[i - 1]
        if not (t.kind is Kind.WORD and not t.quoted and t.upper == "MAP"):
            continue
        if not (toks[i + 1].kind is Kind.OP and toks[i + 1].value == "("):
            continue
        in_type = (before.kind is Kind.OP and before.value == "::") or (
            before.kind is Kind.WORD and not before.quoted and before.upper == "AS"
        )
        if not in_type:
            continue
        found = _paren_type(state.text, t.start)
        if found is not None:
            spans.append((t.start, found[1], found[0]))
    for start, end, typ in reversed(spans):
        rwtypes.check_map_keys(typ)  # RisingWave's bind error (binder/expr/mod.rs:1094-1098)
        name = typemap.pg_type(typ).removeprefix(f"{F}.")
        try:
            state.replace(start, end, name)
        except ValueError:
            continue
        _require(state, typ)


def _entry_structs(state: prepass.Prepassed) -> None:
    """``map_from_entries`` over a ``struct<key K, value V>[]`` the text names (its composite
    by now: the struct pass ran) makes ``map(K,V)``: the function's result type
    (map_type.rs try_from_entries)."""
    for name in set(re.findall(rf"\b{typemap.STRUCT_PREFIX}[0-9a-z]{{9}}\b", state.text)):
        struct = typemap.STRUCTS.get(name)
        if struct is None or len(struct.fields) != 2:
            continue
        (_, key), (_, value) = struct.fields
        if rwtypes.map_key_refusal(key) is None and value.kind != "list":
            _require(state, rwtypes.RwType("map", elem=key, value=value))


def prepass_maps(text: str, state: prepass.Prepassed) -> None:
    if "{" in state.text:
        _literals(state)
    if "map_filter" in state.text.lower():
        from rwshim.dataplane.plan import mapfilter

        try:
            toks = tokenize(state.text)
        except RwError:
            toks = []
        state.map_literals.extend(mapfilter.find(state.text, toks, state.byte_offset, text))
    _types(state)
    if "map_from_entries" in state.text.lower():
        _entry_structs(state)


prepass.register("map", prepass_maps)


def splice_all(routed: Routed, sp: Splicer) -> None:
    """The rewriter's last step: map columns' subscripts, literals, ``map_filter`` calls."""
    from rwshim.dataplane.plan import mapfilter

    splice_subscripts(routed, sp)
    found = routed.prepassed.map_literals
    splice_literals(sp, [x for x in found if isinstance(x, MapSpan)])
    mapfilter.splice(routed, sp, [x for x in found if isinstance(x, mapfilter.MapFilterSpan)])


def splice_literals(sp: Splicer, lits: list[MapSpan]) -> None:
    """Each literal (innermost first) as the map functions' calls RisingWave binds it to."""
    for lit in lits:
        splice_literals(sp, lit.inner)
        sp.replace_around(lit.start, lit.end, functools.partial(_call, sp, lit))


def _call(sp: Splicer, lit: MapSpan) -> str:
    keys = [sp.section(a, b) for a, b in lit.keys]
    values = [sp.section(a, b) for a, b in lit.values]
    if lit.cast is not None:
        assert lit.cast.elem is not None and lit.cast.value is not None
        k, v = typemap.pg_type(lit.cast.elem), typemap.pg_type(lit.cast.value)
        ks = "ARRAY[" + ", ".join(f"CAST({x} AS {k})" for x in keys) + f"]::{k}[]"
        vs = "ARRAY[" + ", ".join(f"CAST({x} AS {v})" for x in values) + f"]::{v}[]"
    else:
        ks = "ARRAY[" + ", ".join(keys) + "]"
        vs = "ARRAY[" + ", ".join(values) + "]"
    out = f"{F}.map_from_key_values({ks}, {vs})"
    for a, b in lit.subscripts:
        out = f"{F}.map_subscript({out}, {sp.section(a, b)})"
    return out


# --- subscripts of map columns ------------------------------------------------------------


def column_type(routed: Routed, level: tree.Level, names: tuple[str, ...]) -> str | None:
    """The RisingWave type of the column ``names`` refers to at ``level`` (its FROM's tables,
    views and materialized views, then the enclosing levels'), None unless exactly one."""
    col, qual = names[-1], (names[-2] if len(names) >= 2 else None)
    lv: tree.Level | None = level
    while lv is not None:
        found: list[str] = []
        for ref in lv.relations():
            if qual is not None and qual not in (ref.alias, ref.name):
                continue
            rel = routed.relation_of(ref)
            if isinstance(rel, Relation):
                found.extend(c.rw_type for c in rel.columns if c.name == col)
        if found:
            return found[0] if len(found) == 1 else None
        lv = lv.parent
    return None


def _brackets(text: bytes, pos: int, n: int) -> list[tuple[int, int]] | None:
    """The spans inside the ``n`` ``[...]`` that follow ``pos`` (whitespace between)."""
    out: list[tuple[int, int]] = []
    i = pos
    for _ in range(n):
        while i < len(text) and text[i : i + 1].isspace():
            i += 1
        if text[i : i + 1] != b"[":
            return None
        depth, j = 0, i
        while j < len(text):
            c = text[j : j + 1]
            if c in (b"'", b'"'):
                k = text.find(c, j + 1)
                while k >= 0 and text[k + 1 : k + 2] == c:
                    k = text.find(c, k + 2)
                if k < 0:
                    return None
                j = k + 1
                continue
            if c in (b"[", b"("):
                depth += 1
            elif c in (b"]", b")"):
                depth -= 1
                if depth == 0:
                    break
            j += 1
        else:
            return None
        out.append((i + 1, j))
        i = j + 1
    return out


def splice_subscripts(routed: Routed, sp: Splicer) -> None:
    """``c[k]`` on a map column as RisingWave's MapAccess (binder/expr/value.rs bind_index:
    no cast of the key, ``rwfn.map_subscript``); a list inside is subscripted as a list.
    A column of another type, or one not resolved to exactly one table column, is left as
    written."""
    shape = routed.shape
    if shape is None:
        return
    for level, names, loc, n in shape.subscripts:
        rw_type = column_type(routed, level, names)
        if not rw_type or "map" not in rw_type.lower():
            continue
        try:
            t: rwtypes.RwType | None = rwtypes.parse(rw_type)
        except (rwtypes.TypeSyntaxError, RwError):
            continue
        if t is None or t.kind != "map":
            continue
        splice_access(sp, loc, len(names), n, t)


def splice_access(sp: Splicer, loc: int, parts: int, n: int, t: rwtypes.RwType) -> None:
    """The ``n`` subscripts of the ``parts``-part name at ``loc``, of map type ``t``."""
    try:
        name_end = splice.name_end(sp.text, loc, parts)
    except splice.SpliceError:
        return
    spans = _brackets(sp.text, name_end, n)
    if spans is None:
        return
    sp.replace_around(
        loc, spans[-1][1] + 1, functools.partial(_access, sp, t, (loc, name_end), spans)
    )


def _access(
    sp: Splicer, t: rwtypes.RwType, name: tuple[int, int], spans: list[tuple[int, int]]
) -> str:
    out = sp.section(*name)
    cur: rwtypes.RwType | None = t
    for a, b in spans:
        key = sp.section(a, b)
        if cur is not None and cur.kind == "map":
            out, cur = f"{F}.map_subscript({out}, {key})", cur.value
        else:
            out, cur = f"({out})[{key}]", (cur.elem if cur is not None else None)
    return out
