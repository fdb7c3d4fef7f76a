"""Identifiers longer than PostgreSQL's 63 bytes, which RisingWave takes whole.

RisingWave's identifiers are Rust Strings with no length limit (src/sqlparser/src/ast/mod.rs
``Ident``; neither the parser nor the binder at 448c657 has a NAMEDATALEN or any truncation),
while PostgreSQL's scanner cuts every identifier to NAMEDATALEN - 1 = 63 bytes
(``truncate_identifier``, src/backend/parser/scansup.c).  rwshim reads texts with PostgreSQL's
parser (pglast) and runs user data on PostgreSQL, so a long name is handled at both ends:

- reading: ``mask`` replaces each long identifier of a text by a short placeholder padded
  with spaces to the identifier's length (so every offset of the parse tree is the text's
  own), and ``restore_json`` / ``restore_ast`` put the whole names back into the tree:
  two names sharing their first 63 bytes stay two names;
- running: ``physical`` is the name PostgreSQL holds for a user's name (the name itself up to
  63 bytes, else a prefix and a digest of the whole), and ``physical_text`` turns every long
  identifier of a text bound for PostgreSQL into it, returning the way back so that result
  columns carry the names the user wrote.

Everything is a pure function of its input; texts without a run of 64 identifier bytes cost a
regular-expression search.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

# NAMEDATALEN - 1 (src/include/pg_config_manual.h)
LIMIT = 63
# A run that may hold an identifier over LIMIT bytes: a quoted one (doubled quotes count as
# one byte of the name) or an unquoted one (scan.l ident_start / ident_cont).
_CANDIDATE = re.compile(rb'"(?:[^"]|""){63,}"|[A-Za-z0-9_$\x80-\xff]{64,}')
_PREFIX_BYTES = 40
_DIGEST_CHARS = 16


def may_hold(text: str) -> bool:
    """Whether ``text`` may hold an identifier over 63 bytes (no false negatives)."""
    # (a character is at most 4 bytes: a shorter text holds no such name)
    return len(text) > LIMIT // 4 and _CANDIDATE.search(text.encode()) is not None


def _value(raw: str) -> str:
    """The name an IDENT token stands for: a quoted one unquoted, an unquoted one with ASCII
    letters folded to lower case (downcase_identifier)."""
    if raw.startswith('"'):
        return raw[1:-1].replace('""', '"')
    return raw.translate(_LOWER)


_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def long_identifiers(text: str) -> list[tuple[int, int, str]]:
    """(start, end, name) in characters of ``text`` of each identifier over 63 bytes; empty
    when the text does not scan (its parse reports why)."""
    if not may_hold(text):
        return []
    from pglast import parser

    try:
        tokens = parser.scan(text)
    except parser.ParseError:
        return []
    out = []
    for tok in tokens:  # (offsets in characters)
        if tok.name != "IDENT":
            continue
        raw = text[tok.start : tok.end + 1]
        if len(raw.encode()) <= LIMIT:
            continue
        value = _value(raw)
        if len(value.encode()) > LIMIT:
            out.append((tok.start, tok.end + 1, value))
    return out


def physical(name: str) -> str:
    """The name PostgreSQL holds for ``name``: itself up to 63 bytes; else its first bytes
    (whole characters) and a digest of the whole name, 57 bytes at most."""
    raw = name.encode()
    if len(raw) <= LIMIT:
        return name
    prefix = raw[:_PREFIX_BYTES].decode(errors="ignore")
    return f"{prefix}_{hashlib.sha256(raw).hexdigest()[:_DIGEST_CHARS]}"


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def mask(text: str, chars: bool = False) -> tuple[str, dict[str, str]]:
    """``text`` with each long identifier replaced by a placeholder (a quoted name holding a
    control character no name is written with), padded with spaces to the identifier's length
    in bytes (pglast's JSON tree counts offsets in bytes) or, with ``chars``, in characters
    (its Python AST counts characters), and the placeholders' names (placeholder -> the whole
    name).  The text is returned as it is when it holds none."""
    found = long_identifiers(text)
    if not found:
        return text, {}
    out: list[str] = []
    names: dict[str, str] = {}
    placeholder: dict[str, str] = {}
    prev = 0
    for start, end, value in found:
        short = placeholder.setdefault(value, f"rw\x1f{len(placeholder)}")
        names[short] = value
        token = _quoted(short)
        raw = text[start:end]
        pad = (len(raw) if chars else len(raw.encode())) - len(token)
        out.append(text[prev:start])
        out.append(token + " " * pad)
        prev = end
    out.append(text[prev:])
    return "".join(out), names


def restore_json(tree: Any, names: dict[str, str]) -> Any:
    """``tree`` (pglast's JSON form) with each placeholder of ``names`` back to its name;
    literals (A_Const) are left alone."""
    if not names:
        return tree
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, sub in node.items():
                if key == "A_Const":
                    continue
                if isinstance(sub, str):
                    if sub in names:
                        node[key] = names[sub]
                elif isinstance(sub, (dict, list)):
                    stack.append(sub)
        elif isinstance(node, list):
            for i, sub in enumerate(node):
                if isinstance(sub, str):
                    if sub in names:
                        node[i] = names[sub]
                elif isinstance(sub, (dict, list)):
                    stack.append(sub)
    return tree


def restore_ast(node: Any, names: dict[str, str]) -> Any:
    """``node`` (pglast's Python AST) with each placeholder of ``names`` back to its name."""
    if not names:
        return node
    from pglast import ast

    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (list, tuple)):
            stack.extend(n)
            continue
        if not isinstance(n, ast.Node) or isinstance(n, ast.A_Const):
            continue
        for attr in getattr(type(n), "__slots__", ()):
            sub = getattr(n, attr, None)
            if isinstance(sub, str):
                if sub in names:
                    setattr(n, attr, names[sub])
            elif isinstance(sub, (ast.Node, list, tuple)):
                stack.append(sub)
    return node


def physical_text(text: str) -> tuple[str, dict[str, str]]:
    """``text`` with each long identifier as its ``physical`` name (quoted), and the way back
    (physical -> the whole name).  The text is returned as it is when it holds none."""
    found = long_identifiers(text)
    if not found:
        return text, {}
    out: list[str] = []
    back: dict[str, str] = {}
    prev = 0
    for start, end, value in found:
        short = physical(value)
        back[short] = value
        out.append(text[prev:start])
        out.append(_quoted(short))
        prev = end
    out.append(text[prev:])
    return "".join(out), back
