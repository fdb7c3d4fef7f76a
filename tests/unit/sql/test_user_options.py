"""rwshim.sql.user_options: RisingWave's UserOptions::parse_to (statement.rs:1137-1200): the
options in the builder's order, groups at most once, and its errors at its positions."""

from __future__ import annotations

import pytest

from rwshim.errors import SqlParserError
from rwshim.sql.tokens import tokenize
from rwshim.sql.user_options import UserOption, parse


def options(sql: str) -> list[UserOption]:
    toks = tokenize(sql)
    return parse(sql, toks[:-1], 3, toks[-1])


def test_order_groups_and_values() -> None:
    assert options("CREATE USER u WITH PASSWORD 'p' NOLOGIN ADMIN SUPERUSER") == [
        UserOption("superuser"),
        UserOption("nologin"),
        UserOption("admin"),
        UserOption("password", "p"),
    ]
    assert options("ALTER USER u password null") == [UserOption("password", None)]
    assert options("create user u encrypted password 'x';") == [
        UserOption("encrypted_password", "x")
    ]
    assert options("create user u oauth (jwks_url = 'j', issuer = 'i', a.b = 1)") == [
        UserOption("oauth", metadata=(("jwks_url", "j"), ("issuer", "i"), ("a.b", "1")))
    ]
    assert options('create user u "login"') == [UserOption("login")]
    assert options("create user u") == []


def test_errors() -> None:
    with pytest.raises(SqlParserError) as e:
        options("create user tmp createdb nocreatedb")
    assert str(e.value) == (
        "sql parser error: conflicting or redundant options\n"
        "LINE 1: create user tmp createdb nocreatedb\n" + " " * 43 + "^"
    )
    with pytest.raises(SqlParserError) as e:
        options("create user u with 1")
    assert str(e.value) == (
        "sql parser error: expected identifier, found: 1\nLINE 1: create user u with 1\n"
        + " " * 27
        + "^"
    )
