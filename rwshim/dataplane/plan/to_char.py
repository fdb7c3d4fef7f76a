"""``to_char(x, '<pattern>')`` with RisingWave's patterns.

RisingWave formats with chrono: its own list of PostgreSQL patterns (``HH24``, ``MI``, ``NS``,
``Month``, ...: src/expr/impl/src/scalar/to_char.rs ``ChronoPattern::compile``, leftmost
longest) becomes chrono's items, and every other character is printed as written, where
PostgreSQL's ``to_char`` reads many more patterns (``Day``, ``D``, ``Q``, ``FM``...), pads
``Month`` and has no ``NS``.  A constant pattern is spliced as the PostgreSQL format printing
the same (dataplane/plan/chrono.py ``to_char_format``: RisingWave's patterns as PostgreSQL's,
the rest double-quoted); a pattern holding ``%`` (an item of chrono's own) is refused.
"""

from __future__ import annotations

from rwshim.dataplane.plan import chrono, tree
from rwshim.dataplane.plan.checks import nodes
from rwshim.dataplane.plan.names import quote_literal
from rwshim.dataplane.plan.splice import SpliceError, Splicer
from rwshim.errors import RwError

REFUSED = (
    "not supported by rwshim: the to_char pattern '{}' (RisingWave formats it with chrono, "
    "which reads '%' as its own items)"
)


def splice(shape: tree.Shape, sp: Splicer) -> None:
    if "to_char" not in shape.func_names:
        return
    text = shape.text
    for call in nodes(shape, "FuncCall"):
        names = [n.get("String", {}).get("sval") for n in call.get("funcname") or []]
        args = call.get("args") or []
        if names[-1:] != ["to_char"] or names[:-1] not in ([], ["pg_catalog"]):
            continue
        if len(args) != 2 or "A_Const" not in args[1]:
            continue
        const = args[1]["A_Const"]
        sval = const.get("sval")
        at = const.get("location", -1)
        if not isinstance(sval, dict) or at < 0 or text[at : at + 1] != b"'":
            continue  # not a plain string literal (E'...', $$...$$): left as it is
        pattern = sval.get("sval", "")
        pg = chrono.to_char_format(pattern)
        if pg is None:
            raise RwError(REFUSED.format(pattern), sqlstate="0A000")
        sp.replace(at, _literal_end(text, at), quote_literal(pg))


def _literal_end(text: bytes, at: int) -> int:
    i = at + 1
    while i < len(text):
        if text[i : i + 1] == b"'":
            if text[i + 1 : i + 2] == b"'":
                i += 2
                continue
            return i + 1
        i += 1
    raise SpliceError(f"no string literal end after {at}")
