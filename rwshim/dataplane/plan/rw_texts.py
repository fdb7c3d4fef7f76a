"""Texts PostgreSQL would read or print otherwise, spliced as RisingWave's: EXTRACT
(plan/extract.py), ISO 8601 interval literals and jsonb_build_object keys.

Interval literals in ISO 8601's form as RisingWave reads them: ``'P<y>Y<m>M<d>DT<h>H<m>M<s>S'``
(src/common/src/types/interval.rs:1061-1094 ``from_iso_8601``, chosen for a text starting
with ``P``, :1453-1460) takes the seconds as an exact decimal times 1,000,000 converted to an
i64 (``try_into``: the fraction past microseconds cut off), where PostgreSQL rounds it:
``'P12Y2M30DT4H5M0.1234567S'`` is ``... 04:05:00.123456`` in RisingWave.

A cast of such a string literal is spliced with the months, days and microseconds RisingWave
makes of it, which PostgreSQL reads exactly.  A text out of the form, or whose units overflow,
is left to PostgreSQL's reading.

``jsonb_build_object``'s keys are their ToText (src/expr/impl/src/scalar/jsonb_build.rs:96-105:
a timestamptz ``2023-09-01 21:12:54+00:00``, a float by ryu), where PostgreSQL takes a key's
JSON form: each is spliced as ``rwfn.jsonb_key(k)`` (sqlfn/jsonb.py), which also refuses a
list, struct or jsonb key in RisingWave's words.  The DISTINCT / VARIADIC forms and a
whole-row argument are left as they are (as plan/rewrite.py leaves the values).
"""

from __future__ import annotations

import re
from decimal import Decimal

from rwshim.dataplane.plan import extract, tree
from rwshim.dataplane.plan.checks import _names, nodes
from rwshim.dataplane.plan.names import FUNCTION_SCHEMA
from rwshim.dataplane.plan.splice import Splicer, call_args

_ISO_8601 = re.compile(r"P([0-9]+)Y([0-9]+)M([0-9]+)DT([0-9]+)H([0-9]+)M([0-9]+(?:\.[0-9]+)?)S")
_I32 = 2**31
_I64 = 2**63


def iso_8601(s: str) -> str | None:
    """``from_iso_8601``'s interval as PostgreSQL interval text, None where RisingWave's parse
    fails (left to PostgreSQL)."""
    m = _ISO_8601.fullmatch(s)
    if m is None:
        return None
    years, months, days, hours, minutes = (int(m[i]) for i in range(1, 6))
    usecs = int(Decimal(m[6]) * 1_000_000)  # Decimal -> i64: truncated toward zero
    if any(v >= _I32 for v in (years, months, days)):
        return None
    total_months = years * 12 + months
    total_usecs = (hours * 3600 + minutes * 60) * 1_000_000 + usecs
    if total_months >= _I32 or hours * 3600 + minutes * 60 >= _I64 // 1_000_000:
        return None
    if usecs >= _I64 or total_usecs >= _I64:
        return None
    return f"{total_months} mons {days} days {total_usecs} microseconds"


def splice(shape: tree.Shape, sp: Splicer) -> None:
    extract.splice(shape, sp)
    _intervals(shape, sp)
    if "jsonb_build_object" in shape.func_names:
        _jsonb_keys(shape, sp)


def _jsonb_keys(shape: tree.Shape, sp: Splicer) -> None:
    for call in nodes(shape, "FuncCall"):
        name = _names(call.get("funcname"))
        if name[-1:] != ["jsonb_build_object"] or name[:-1] not in ([], ["pg_catalog"]):
            continue
        if call.get("agg_distinct") or call.get("func_variadic"):
            continue
        arg_nodes = call.get("args") or []
        if any("A_Star" in str(n) for n in arg_nodes):
            continue
        _, args = call_args(shape.text, int(call.get("location", -1)))
        if len(args) != len(arg_nodes):
            continue
        for start, end in args[0::2]:
            while start < end and shape.text[start : start + 1].isspace():
                start += 1
            while end > start and shape.text[end - 1 : end].isspace():
                end -= 1
            sp.insert(start, f"{FUNCTION_SCHEMA}.jsonb_key(")
            sp.insert(end, ")")


def _intervals(shape: tree.Shape, sp: Splicer) -> None:
    for cast in nodes(shape, "TypeCast"):
        type_name = cast.get("typeName", {})
        if _names(type_name.get("names"))[-1:] != ["interval"] or type_name.get("typmods"):
            continue
        if type_name.get("arrayBounds"):
            continue
        const = (cast.get("arg") or {}).get("A_Const") or {}
        sval = const.get("sval")
        at = int(const.get("location", -1))
        if not isinstance(sval, dict) or at < 0 or shape.text[at : at + 2] != b"'P":
            continue
        text = str(sval.get("sval", ""))
        new = iso_8601(text)
        end = at + len(text) + 2
        if new is None or shape.text[at:end] != f"'{text}'".encode():
            continue
        sp.replace(at, end, f"'{new}'")
