"""Values RisingWave's types hold and the data plane's PostgreSQL types do not: refused before
PostgreSQL would round or reinterpret them (never a silently different value).

- a ``timestamp`` with nanoseconds: RisingWave's ``Timestamp`` is chrono's ``NaiveDateTime``
  (src/common/src/types/datetime.rs), parsed from text with its nanoseconds (``impl FromStr
  for Timestamp``: jiff's ``subsec_nanosecond``) and printed with them (``%.f``);
  PostgreSQL's ``timestamp`` keeps microseconds and rounds the rest away.  A timestamp
  literal (``'…'::timestamp``, ``TIMESTAMP '…'``, a string inserted into a timestamp column)
  whose fraction has a non-zero digit past the sixth is refused.  ``make_timestamp`` /
  ``make_time`` refuse such seconds when they run (dataplane/plan/sqlfn/maketime.py).
- a ``timestamptz`` literal with digits past the microseconds: RisingWave keeps microseconds,
  cutting the rest off (timestamptz.rs ``impl FromStr for Timestamptz``: speedate's
  ``microsecond``, else chrono's ``timestamp_micros``), where PostgreSQL rounds them: refused
  rather than rounded.

The checks register with ``checks.register`` (imported by ``checks`` itself).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rwshim.binder.relations import RelColumn
from rwshim.common import pgtypes
from rwshim.dataplane.plan import tree
from rwshim.dataplane.plan.checks import _const_string, _names, inserted_strings, nodes, register
from rwshim.errors import RwError

# the fraction of a time of day: ``hh:mm:ss.fffffffff``
_FRACTION = re.compile(r"\d:\d\d:\d\d[.,](\d+)")

NANOS_REFUSED = (
    "not supported by rwshim: the timestamp '{text}' has nanoseconds (RisingWave keeps them; "
    "the data plane's PostgreSQL keeps microseconds)"
)


TZ_DIGITS_REFUSED = (
    "not supported by rwshim: the timestamp with time zone '{text}' has digits past the "
    "microseconds (RisingWave cuts them off, the data plane's PostgreSQL rounds them)"
)


def has_nanoseconds(text: str) -> bool:
    """Whether a timestamp text has a non-zero digit past the microseconds."""
    m = _FRACTION.search(text)
    return m is not None and m.group(1)[6:].strip("0") != ""


def _refuse_nanos(text: str) -> None:
    if has_nanoseconds(text):
        raise RwError(NANOS_REFUSED.format(text=text), sqlstate="0A000")


def _refuse_tz_digits(text: str) -> None:
    if has_nanoseconds(text):
        raise RwError(TZ_DIGITS_REFUSED.format(text=text), sqlstate="0A000")


def _is_timestamp(type_name: dict[str, Any]) -> bool:
    names = _names(type_name.get("names"))
    return names[-1:] == ["timestamp"] and not type_name.get("arrayBounds")


def _is_timestamptz(type_name: dict[str, Any]) -> bool:
    names = _names(type_name.get("names"))
    return names[-1:] == ["timestamptz"] and not type_name.get("arrayBounds")


@register
def _timestamp_nanoseconds(shape: tree.Shape, cols: Sequence[RelColumn] | None) -> None:
    for cast in nodes(shape, "TypeCast"):
        type_name = cast.get("typeName", {})
        if _is_timestamp(type_name) or _is_timestamptz(type_name):
            text = _const_string(cast.get("arg"))
            if text is not None:
                (_refuse_nanos if _is_timestamp(type_name) else _refuse_tz_digits)(text)
    for col, text in inserted_strings(shape, cols, (pgtypes.TIMESTAMP, pgtypes.TIMESTAMPTZ)):
        (_refuse_nanos if col.type_oid == pgtypes.TIMESTAMP else _refuse_tz_digits)(text)
