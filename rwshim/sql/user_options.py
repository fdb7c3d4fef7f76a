"""CREATE USER / ALTER USER options as RisingWave's parser reads them: ``[WITH]`` then options
up to the end of the statement, each at most once per group, with RisingWave's parse errors
(src/sqlparser/src/ast/statement.rs:1037-1200, ``UserOption`` and ``UserOptions::parse_to``).

An option is an identifier whose real value (lower case unless quoted) is one of
``superuser nosuperuser createdb nocreatedb createuser nocreateuser login nologin admin
noadmin``, or ``password <'string' | NULL>``, ``encrypted password <'string'>``,
``oauth (key = value, ...)``; the password forms and OAUTH share one group. A pure function of
the statement's tokens.
"""

from __future__ import annotations

from msgspec import Struct

from rwshim.sql.errors_text import expected_error, located
from rwshim.sql.tokens import Kind, Token

_FLAGS = {
    "superuser": ("super_user", True),
    "nosuperuser": ("super_user", False),
    "createdb": ("create_db", True),
    "nocreatedb": ("create_db", False),
    "createuser": ("create_user", True),
    "nocreateuser": ("create_user", False),
    "login": ("login", True),
    "nologin": ("login", False),
    "admin": ("admin", True),
    "noadmin": ("admin", False),
}
# UserOptionsBuilder::build's order (statement.rs:1107-1132)
_GROUPS = ("super_user", "create_db", "create_user", "login", "admin", "password")


class UserOption(Struct, frozen=True):
    """One option: ``kind`` is a flag word (``superuser``, ``nologin``...), ``password``
    (``value`` the string, None for NULL), ``encrypted_password`` or ``oauth``
    (``metadata``: its options, keys and values as given)."""

    kind: str
    value: str | None = None
    metadata: tuple[tuple[str, str], ...] = ()


def parse(sql: str, toks: list[Token], start: int, stop: Token) -> list[UserOption]:
    """The options from token ``start`` to the end of the statement, in RisingWave's order;
    ``stop`` is the token after the statement (``;`` or EOF)."""
    i = start
    groups: dict[str, UserOption] = {}

    def at(k: int) -> Token:
        return toks[k] if k < len(toks) else stop

    def done(k: int) -> bool:
        t = at(k)
        return k >= len(toks) or t.kind is Kind.EOF or (t.kind is Kind.OP and t.value == ";")

    def ident(k: int) -> str:
        t = at(k)
        if done(k) or t.kind is not Kind.WORD:
            raise expected_error(sql, t, "identifier")
        return t.value if t.quoted else t.value.lower()

    def string(k: int) -> str:
        t = at(k)
        if done(k) or t.kind not in (Kind.STRING, Kind.ESTRING, Kind.DOLLAR):
            raise expected_error(sql, t, "literal string")
        return t.value

    if not done(i) and at(i).kind is Kind.WORD and not at(i).quoted and at(i).upper == "WITH":
        i += 1
    while not done(i):
        word = ident(i)
        i += 1
        if word in _FLAGS:
            group, option = _FLAGS[word][0], UserOption(word)
        elif word == "password":
            group = "password"
            t = at(i)
            if not done(i) and t.kind is Kind.WORD and not t.quoted and t.upper == "NULL":
                option, i = UserOption("password", None), i + 1
            else:
                option, i = UserOption("password", string(i)), i + 1
        elif word == "encrypted":
            nxt = ident(i)
            if nxt != "password":
                raise located(
                    sql, at(i + 1), f"expected PASSWORD after ENCRYPTED, found {at(i).display()}"
                )
            group, option = "password", UserOption("encrypted_password", string(i + 1))
            i += 2
        elif word == "oauth":
            metadata, i = _options(sql, toks, i, at)
            group, option = "password", UserOption("oauth", metadata=metadata)
        else:
            raise located(sql, at(i), f"unexpected user option: {at(i - 1).display()}")
        if group in groups:
            raise located(sql, at(i), "conflicting or redundant options")
        groups[group] = option
    return [groups[g] for g in _GROUPS if g in groups]


def _options(
    sql: str, toks: list[Token], i: int, at: object
) -> tuple[tuple[tuple[str, str], ...], int]:
    """``(key = value, ...)`` (parser.rs parse_options): a dotted key, a value token."""
    assert callable(at)
    t = at(i)
    if not (t.kind is Kind.OP and t.value == "("):
        raise expected_error(sql, t, "(")
    i += 1
    out: list[tuple[str, str]] = []
    if at(i).kind is Kind.OP and at(i).value == ")":
        return (), i + 1
    while True:
        parts = []
        while True:
            t = at(i)
            if t.kind is not Kind.WORD:
                raise expected_error(sql, t, "identifier")
            parts.append(t.value if t.quoted else t.value.lower())
            i += 1
            if at(i).kind is Kind.OP and at(i).value == ".":
                i += 1
                continue
            break
        if at(i).kind is Kind.OP and at(i).value == "=":
            i += 1
        v = at(i)
        if v.kind is Kind.EOF or (v.kind is Kind.OP and v.value in (",", ")", ";")):
            raise expected_error(sql, v, "a value")
        out.append((".".join(parts), v.value))
        i += 1
        sep = at(i)
        if sep.kind is Kind.OP and sep.value == ",":
            i += 1
            continue
        if sep.kind is Kind.OP and sep.value == ")":
            return tuple(out), i + 1
        raise expected_error(sql, sep, ", or )")
