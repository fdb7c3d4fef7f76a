"""RisingWave's ``map_filter(m, |k, v| expr)`` (src/expr/impl/src/scalar/map_filter.rs; bound by
src/frontend/src/binder/expr/function/mod.rs bind_map_filter) for PostgreSQL.

PostgreSQL parses the lambda as operators (``|k`` and ``v| v``), so the statement reaches the
rewriter as written; the pre-pass (``find``, called by mapsyntax's pass) checks the lambda's
parameters and keeps the call's parts, and the rewriter (``splice``) makes the call
``rwfn.map_filter(m, ARRAY(SELECT (expr) FROM rwfn.map_rows(m) AS e(k, v, o) ORDER BY o))``:
the lambda evaluated on each entry, in order, over the map type's own functions
(dataplane/plan/maptype.py: ``map_filter`` keeps the entries whose value is true, and is NULL
when none is kept, as RisingWave's evaluation of a chunk makes it; its evaluation of one row,
which constant folding uses, gives ``{}`` instead: map_filter.rs eval / eval_row).  A subscript
of the value parameter (``v['age']``) is a MapAccess when the map is a table's column whose
values are maps.  RisingWave's binder errors: two parameters (``Lambda must have exactly two
parameters (key, value), got n``), a boolean lambda (``Lambda must return Boolean type, got
t``), a map input (``Input must be Map type, got t``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from rwshim.common import rwtypes
from rwshim.dataplane.plan import errors, maptype
from rwshim.dataplane.plan.names import FUNCTION_SCHEMA as F
from rwshim.dataplane.plan.names import quote_ident
from rwshim.dataplane.plan.route import Routed
from rwshim.dataplane.plan.splice import Splicer
from rwshim.errors import BindError, RwError
from rwshim.sql.tokens import Kind, Token


@dataclass(slots=True)
class MapFilterSpan:
    """A ``map_filter`` call in the pre-passed text (byte offsets)."""

    start: int
    end: int  # past the closing parenthesis
    input: tuple[int, int]
    params: tuple[str, str]
    body: tuple[int, int]


def _op(t: Token, value: str) -> bool:
    return t.kind is Kind.OP and t.value == value


def find(text: str, toks: list[Token], byte_offset: object, statement: str) -> list[MapFilterSpan]:
    """The ``map_filter(x, |k, v| e)`` calls of ``text`` (the pre-passed ``statement``);
    RisingWave's bind error for a lambda without two parameters."""
    b = byte_offset
    assert callable(b)
    out: list[MapFilterSpan] = []
    for i, t in enumerate(toks[:-1]):
        if not (t.kind is Kind.WORD and not t.quoted and t.value.lower() == "map_filter"):
            continue
        if not _op(toks[i + 1], "("):
            continue
        depth, j, comma = 0, i + 1, -1
        while j < len(toks):
            if toks[j].kind is Kind.OP and toks[j].value in ("(", "["):
                depth += 1
            elif toks[j].kind is Kind.OP and toks[j].value in (")", "]"):
                depth -= 1
                if depth == 0:
                    break
            elif _op(toks[j], ",") and depth == 1 and comma < 0:
                comma = j
            j += 1
        if j >= len(toks) or comma < 0 or not _op(toks[comma + 1], "|"):
            continue
        params: list[str] = []
        k = comma + 2
        while k < j and toks[k].kind is Kind.WORD:
            params.append(toks[k].value if toks[k].quoted else toks[k].value.lower())
            if _op(toks[k + 1], ","):
                k += 2
                continue
            k += 1
            break
        if k >= j or not _op(toks[k], "|"):
            continue
        if len(params) != 2:
            # bind_map_filter (binder/expr/function/mod.rs:605-640)
            cause = BindError(
                f"Lambda must have exactly two parameters (key, value), got {len(params)}"
            )
            raise maptype.bound_root(statement, "map_filter(", cause)
        out.append(
            MapFilterSpan(
                b(t.start),
                b(toks[j].end),
                (b(toks[i + 2].start), b(toks[comma - 1].end)),
                (params[0], params[1]),
                (b(toks[k + 1].start), b(toks[j - 1].end)),
            )
        )
    return out


def splice(routed: Routed, sp: Splicer, calls: list[MapFilterSpan]) -> None:
    """Each call (innermost last: an outer call rebuilds around an inner one's text)."""
    for call in sorted(calls, key=lambda c: c.end - c.start):
        sp.replace_around(call.start, call.end, functools.partial(_call, routed, sp, call))


def _value_type(routed: Routed, sp: Splicer, call: MapFilterSpan) -> rwtypes.RwType | None:
    """The value type of the filtered map when it is a table's column."""
    from rwshim.dataplane.plan import mapsyntax

    shape = routed.shape
    if shape is None:
        return None
    text = sp.text[call.input[0] : call.input[1]].decode().strip()
    names = tuple(p.strip().strip('"') for p in text.split("."))
    if not all(n.replace("_", "a").isalnum() for n in names):
        return None
    levels = [lv for lv in shape.levels if lv.relations()]
    for level in levels:
        rw = mapsyntax.column_type(routed, level, names)
        if rw:
            try:
                t = rwtypes.parse(rw)
            except (rwtypes.TypeSyntaxError, RwError):
                return None
            return t.value if t.kind == "map" else None
    return None


def _call(routed: Routed, sp: Splicer, call: MapFilterSpan) -> str:
    from rwshim.dataplane.plan import mapsyntax

    m = sp.section(*call.input)
    k, v = (quote_ident(p) for p in call.params)
    body = sp.section(*call.body)
    value = _value_type(routed, sp, call)
    if value is not None and value.kind == "map" and routed.shape is not None:
        # v['x'] inside the lambda: a MapAccess of the value's map type
        for _lv, names, loc, n in routed.shape.subscripts:
            if names == (call.params[1],) and call.body[0] <= loc < call.body[1]:
                mapsyntax.splice_access(sp, loc, 1, n, value)
        body = sp.section(*call.body)
    return (
        f"{F}.map_filter({m}, ARRAY(SELECT ({body}) FROM {F}.map_rows({m})"
        f' AS "rw$e"({k}, {v}, "rw$o") ORDER BY "rw$o"))'
    )


def _lambda_type(
    m: object, err: errors.PgError, name_of: errors.NameOf, ctx: errors.MapContext
) -> RwError:
    import re

    assert isinstance(m, re.Match)
    got = maptype.rw_name(m["t"])
    if got.startswith("map("):
        cause = BindError(f"Lambda must return Boolean type, got {maptype.rw_name(m['r'])}")
    else:
        cause = BindError(f"Input must be Map type, got {got}")
    return maptype.bound_root(ctx.statement, "map_filter(", cause)


errors.register(
    "42883",
    r"^function (?:\S*\.)?map_filter\((?P<t>[^,]+), (?P<r>.+)\[\]\) does not exist$",
    _lambda_type,
    first=True,
)


def _not_map(
    m: object, err: errors.PgError, name_of: errors.NameOf, ctx: errors.MapContext
) -> RwError:
    import re

    assert isinstance(m, re.Match)
    cause = BindError(f"Input must be Map type, got {maptype.rw_name(m['t'])}")
    return maptype.bound_root(ctx.statement, "map_filter(", cause)


errors.register(
    "42883",
    r"^function (?:\S*\.)?map_rows\((?P<t>.+)\) does not exist$",
    _not_map,
    first=True,
)
