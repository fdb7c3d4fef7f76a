"""``EXTRACT(unit FROM x)`` of the units RisingWave answers at nanosecond scale.

RisingWave's time of day has nanoseconds, and its ``extract`` of a time unit from a
``timestamp`` / ``time`` (and from a ``timestamptz``, in the session's time zone) is a decimal
of that scale (src/expr/impl/src/scalar/extract.rs ``extract_from_timelike``): ``second`` with 9
decimal places, ``millisecond`` 6, ``microsecond`` 3, ``nanosecond`` a whole number; ``epoch``
of a timestamp 9 (6 past the nanosecond range of an i64, ``timestamp_nanos_opt``), of a time 9,
of a timestamptz 6.  PostgreSQL's keep microseconds (6, 3 and 0 places) and have no
``nanosecond``.  Such a call is spliced as rwfn's ``extract(unit, x)`` (sqlfn/datetime.py's
``EXTRACT_SQL``), which scales PostgreSQL's answer (the data plane's values are whole
microseconds, so the added places are zeros, as RisingWave prints them); its output name stays
``extract``.  Other units are PostgreSQL's, which agree.
"""

from __future__ import annotations

import re

from rwshim.dataplane.plan import tree
from rwshim.dataplane.plan.checks import nodes
from rwshim.dataplane.plan.names import FUNCTION_SCHEMA, quote_literal
from rwshim.dataplane.plan.splice import SpliceError, Splicer

UNITS = frozenset({"second", "millisecond", "microsecond", "nanosecond", "epoch"})
_UNIT_FROM = re.compile(rb"(?:[A-Za-z_]+|'[^']*')\s*(?i:FROM)\b\s*")


def splice(shape: tree.Shape, sp: Splicer) -> None:
    if "extract" not in shape.func_names:
        return
    for call in nodes(shape, "FuncCall"):
        if call.get("funcformat") != "COERCE_SQL_SYNTAX":
            continue
        names = [n.get("String", {}).get("sval") for n in call.get("funcname") or []]
        args = call.get("args") or []
        if names != ["pg_catalog", "extract"] or len(args) != 2:
            continue
        unit_node = args[0].get("A_Const", {})
        unit = unit_node.get("sval", {}).get("sval", "")
        if unit.lower() not in UNITS:
            continue
        at, unit_at = call.get("location", -1), unit_node.get("location", -1)
        m = _UNIT_FROM.match(shape.text, unit_at) if unit_at >= 0 else None
        if at < 0 or m is None:
            raise SpliceError(f"no EXTRACT unit at {unit_at}")
        sp.replace(at, m.end(), f"{FUNCTION_SCHEMA}.extract({quote_literal(unit.lower())}, ")
