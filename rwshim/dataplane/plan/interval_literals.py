"""Interval literals in ISO 8601's form as RisingWave reads them: ``'P<y>Y<m>M<d>DT<h>H<m>M<s>S'``
(src/common/src/types/interval.rs:1061-1094 ``from_iso_8601``, chosen for a text starting
with ``P``, :1453-1460) takes the seconds as an exact decimal times 1,000,000 converted to an
i64 (``try_into``: the fraction past microseconds cut off), where PostgreSQL rounds it:
``'P12Y2M30DT4H5M0.1234567S'`` is ``... 04:05:00.123456`` in RisingWave.

A cast of such a string literal is spliced with the months, days and microseconds RisingWave
makes of it, which PostgreSQL reads exactly.  A text out of the form, or whose units overflow,
is left to PostgreSQL's reading.
"""

from __future__ import annotations

import re
from decimal import Decimal

from rwshim.dataplane.plan import tree
from rwshim.dataplane.plan.checks import _names, nodes
from rwshim.dataplane.plan.splice import Splicer

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
