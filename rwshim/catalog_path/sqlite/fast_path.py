"""The constant fast path: ``SELECT 1`` and its kin answered without sqlglot or the binder.

``SELECT <item>, ...`` where each item is an integer literal, a string literal or
``<int> {+|-|*} <int>``, optionally with ``AS <name>``: what clients, pools and health checks
send.  It is answered with the same SQLite text, column names and types the binder gives (a
unit test runs every case both ways), without parsing with sqlglot; anything else, or anything
it is unsure of (a keyword as a name, a literal wider than bigint), goes to the binder.
"""

from __future__ import annotations

import re
from typing import Any

from msgspec import Struct

from rwshim.binder.prepared import Prepared
from rwshim.catalog_path.sqlite.executor import decoder
from rwshim.common import pgtypes
from rwshim.sql.column_names import SYSTEM_COLUMNS

_CONST_HEAD = re.compile(r"\s*select\s+", re.IGNORECASE)
_CONST_ITEM = re.compile(
    r"(?:(?P<int>-?\d+)|(?P<lhs>\d+)\s*(?P<op>[-+*])\s*(?P<rhs>\d+)|(?P<str>'(?:[^']|'')*'))"
    r"(?:\s+as\s+(?:(?P<name>[a-z_][a-z0-9_]*)|\"(?P<quoted>[^\"]+)\"))?"
    r"\s*(?:(?P<comma>,)\s*|;?\s*$)",
    re.IGNORECASE,
)
_INT4_MAX = 2**31 - 1
_INT8_MAX = 2**63 - 1


def constant_select(sql_text: str) -> Prepared | None:
    """The prepared form of a constant ``SELECT`` (see above), or None for the binder."""
    head = _CONST_HEAD.match(sql_text)
    if head is None:
        return None
    pos = head.end()
    end = len(sql_text)
    items: list[str] = []
    columns: list[Any] = []
    while True:
        m = _CONST_ITEM.match(sql_text, pos)
        if m is None:
            return None
        if m["quoted"] is not None:
            name = m["quoted"]
        elif m["name"] is not None:
            name = m["name"].lower()
            if name in _keywords():
                return None
        else:
            name = "?column?"
        if name in SYSTEM_COLUMNS or name.startswith(("_row_id", "_rw_")):
            return None  # the binder refuses a reserved alias (column_names)
        if m["int"] is not None:
            text = m["int"]
            magnitude = int(text.lstrip("-"))
            if magnitude > _INT8_MAX:
                return None
            oid = pgtypes.INT4 if magnitude <= _INT4_MAX else pgtypes.INT8
            expr = str(int(text))
        elif m["op"] is not None:
            lhs, rhs = int(m["lhs"]), int(m["rhs"])
            if lhs > _INT4_MAX or rhs > _INT4_MAX:
                return None
            oid = pgtypes.INT4
            expr = f"RW_ARITH('{m['op']}', {oid}, {lhs}, {rhs})"
        else:
            oid = pgtypes.VARCHAR
            expr = m["str"]
        items.append(f'{expr} AS "{name}"')
        columns.append(_ConstColumn(name, oid))
        pos = m.end()
        if m["comma"] is None:
            break
        if pos >= end:
            return None
    if pos != end:
        return None
    prep = Prepared("select", "SELECT " + ", ".join(items), columns, [])
    prep.decoders = [decoder(c.type_oid) for c in columns]
    return prep


class _ConstColumn(Struct, frozen=True):
    """An output column of the fast path, shaped like the binder's ``OutColumn``."""

    name: str
    type_oid: int


_KEYWORDS: frozenset[str] | None = None


def _keywords() -> frozenset[str]:
    """Every PostgreSQL keyword (pglast's lists): such a name after AS goes to the binder."""
    global _KEYWORDS
    if _KEYWORDS is None:
        from pglast import keywords as kw

        _KEYWORDS = frozenset(
            kw.RESERVED_KEYWORDS
            | kw.UNRESERVED_KEYWORDS
            | kw.COL_NAME_KEYWORDS
            | kw.TYPE_FUNC_NAME_KEYWORDS
        )
    return _KEYWORDS
