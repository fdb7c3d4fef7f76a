"""Column lists of CREATE TABLE / CREATE SOURCE: columns, types, keys, watermarks.

RisingWave reads a column list as column definitions, table constraints, ``WATERMARK FOR
<col> AS <expr>`` entries and (for sources) one ``*`` (parser.rs:2740-2830).  Types are
PostgreSQL syntax: pglast names them canonically (``integer`` -> ``int4``, ``varchar(20)`` ->
``varchar``); a RisingWave-only type (``struct<...>``, ``map(...)``) keeps its text.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from rwshim.sql.tokens import Kind, Token, tokenize

# Words that end a column's type and start its options (parser.rs parse_column_option).
_OPTION_WORDS = {
    "NOT",
    "NULL",
    "DEFAULT",
    "PRIMARY",
    "UNIQUE",
    "CHECK",
    "REFERENCES",
    "AS",
    "GENERATED",
    "CONSTRAINT",
    "COLLATE",
}


@dataclass(frozen=True, slots=True)
class ColumnDef:
    name: str  # folded as RisingWave folds identifiers
    type_name: str  # pglast's canonical name (int4, varchar, ...) or the RisingWave type text
    type_text: str  # the type as written
    array_dims: int = 0
    not_null: bool = False
    primary_key: bool = False
    default: str | None = None  # DEFAULT <expr>, as written
    generated: str | None = None  # AS <expr> (a generated column), as written
    collation: str | None = None  # COLLATE <name>: ObjectName::real_value (parts joined by '.')


@dataclass(frozen=True, slots=True)
class TableSchema:
    columns: tuple[ColumnDef, ...]
    primary_key: tuple[str, ...]  # from column options or a PRIMARY KEY (...) constraint
    watermarks: tuple[tuple[str, str], ...]  # (column, expression text)
    wildcard: bool = False  # `*` (sources with a schema registry)


def table_schema(columns_text: str | None) -> TableSchema:
    """The schema described by a column list (the ``columns_text`` of CreateTable/Source)."""
    if not columns_text:
        return TableSchema((), (), ())
    toks = [t for t in tokenize(columns_text) if t.kind is not Kind.EOF]
    if toks and toks[0].value == "(" and toks[-1].value == ")":
        toks = toks[1:-1]
    cols: list[ColumnDef] = []
    pk: list[str] = []
    marks: list[tuple[str, str]] = []
    wildcard = False
    for item in _split(toks):
        if not item:
            continue
        head = item[0]
        if head.kind is Kind.OP and head.value == "*":
            wildcard = True
        elif head.upper == "WATERMARK" and len(item) > 3 and item[1].upper == "FOR":
            marks.append((_fold(item[2]), _text(columns_text, item[4:])))
        elif _is_constraint(item):
            pk.extend(_constraint_pk(item))
        else:
            col = _column(columns_text, item)
            cols.append(col)
            if col.primary_key:
                pk.append(col.name)
    return TableSchema(tuple(cols), tuple(pk), tuple(marks), wildcard)


def _is_constraint(item: list[Token]) -> bool:
    """A table constraint, not a column that happens to be named like a keyword."""
    head = item[0].upper
    if head in ("CONSTRAINT", "FOREIGN"):
        return True
    if head in ("PRIMARY", "UNIQUE", "CHECK") and len(item) > 1:
        nxt = item[1]
        return nxt.upper == "KEY" or (nxt.kind is Kind.OP and nxt.value == "(")
    return False


def _split(toks: list[Token]) -> list[list[Token]]:
    """Top-level comma-separated items; `struct<...>` angle brackets count as nesting."""
    out: list[list[Token]] = [[]]
    depth = 0
    angle = 0
    prev = ""
    for t in toks:
        v = t.value if t.kind is Kind.OP else ""
        if v in ("(", "["):
            depth += 1
        elif v in (")", "]"):
            depth -= 1
        elif v == "<" and prev == "STRUCT":
            angle += 1
        elif v and set(v) == {">"} and angle:
            angle = max(0, angle - len(v))
        if depth == 0 and angle == 0 and v == ",":
            out.append([])
        else:
            out[-1].append(t)
        prev = t.upper
    return out


def _fold(t: Token) -> str:
    return t.value if t.quoted else t.value.lower()


def _text(src: str, toks: list[Token]) -> str:
    return src[toks[0].start : toks[-1].end] if toks else ""


def _constraint_pk(item: list[Token]) -> list[str]:
    words = [t.upper for t in item]
    if "PRIMARY" not in words:
        return []
    i = words.index("PRIMARY")
    return [_fold(t) for t in item[i + 2 :] if t.kind is Kind.WORD]


def _column(src: str, item: list[Token]) -> ColumnDef:
    name = _fold(item[0])
    i = 1
    depth = 0
    while i < len(item):
        t = item[i]
        v = t.value if t.kind is Kind.OP else ""
        if v in ("(", "[", "<"):
            depth += 1
        elif v and set(v) <= {")", "]", ">"}:
            depth -= len(v)
        elif depth == 0 and t.upper in _OPTION_WORDS:
            break
        i += 1
    type_toks, opts = item[1:i], item[i:]
    type_text = _text(src, type_toks)
    type_name, dims = _canonical_type(type_text)
    words = [t.upper for t in opts]
    not_null = any(
        words[j] == "NOT" and j + 1 < len(words) and words[j + 1] == "NULL"
        for j in range(len(words))
    )
    primary = "PRIMARY" in words
    default = generated = None
    if "DEFAULT" in words:
        j = words.index("DEFAULT") + 1
        default = _text(src, _until_option(opts[j:]))
    if "AS" in words:
        j = words.index("AS") + 1
        generated = _text(src, _until_option(opts[j:]))
    collation = None
    if "COLLATE" in words:
        collation = _object_name(opts[words.index("COLLATE") + 1 :])
    return ColumnDef(
        name, type_name, type_text, dims, not_null, primary, default, generated, collation
    )


def _object_name(toks: list[Token]) -> str:
    """An ObjectName's real_value: its identifiers, each folded unless quoted, joined by '.'."""
    parts: list[str] = []
    for i, t in enumerate(toks):
        if i % 2 == 1:
            if not (t.kind is Kind.OP and t.value == "."):
                break
            continue
        parts.append(_fold(t))
    return ".".join(parts)


def _until_option(toks: list[Token]) -> list[Token]:
    out: list[Token] = []
    depth = 0
    for t in toks:
        if t.kind is Kind.OP and t.value == "(":
            depth += 1
        elif t.kind is Kind.OP and t.value == ")":
            depth -= 1
        elif depth == 0 and t.upper in _OPTION_WORDS - {"NULL", "AS", "DEFAULT"}:
            break
        out.append(t)
    return out


def canonical_type(type_text: str) -> tuple[str, int]:
    """pglast's name for a PostgreSQL type (and its array dimensions); else the text."""
    return _canonical_type(type_text)


def _canonical_type(type_text: str) -> tuple[str, int]:
    """pglast's name for a PostgreSQL type (and its array dimensions); else the text."""
    if len(type_text) > 200:  # cached by text: only the short texts real types have
        return _canonical_type_uncached(type_text)
    return _canonical_type_cached(type_text)


@functools.lru_cache(maxsize=1024)
def _canonical_type_cached(type_text: str) -> tuple[str, int]:
    return _canonical_type_uncached(type_text)


def _canonical_type_uncached(type_text: str) -> tuple[str, int]:
    if not type_text:
        return ("", 0)
    from pglast import parse_sql  # imported on first use: pglast is ~10% of start-up
    from pglast.parser import ParseError

    try:
        node: Any = parse_sql(f"CREATE TABLE _t (_c {type_text})")[0].stmt
        tn = node.tableElts[0].typeName
    except (ParseError, AttributeError, IndexError):
        return (type_text.lower(), type_text.count("[]"))
    names = [n.sval for n in tn.names]
    dims = len(tn.arrayBounds or ())
    return (names[-1], dims)
