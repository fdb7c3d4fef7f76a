"""Startup ``options`` parsing (RisingWave's parse_options, pg_protocol.rs:1602-1658)."""

from __future__ import annotations

import pytest

from rwshim.errors import RwError
from rwshim.server.connection import parse_options


def test_parse_options() -> None:
    assert parse_options("-c search_path=a,b --statement-timeout=5 -c x=y\\ z") == {
        "search_path": "a,b",
        "statement_timeout": "5",
        "x": "y z",
    }
    assert parse_options("") == {}
    assert parse_options("stray") == {}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("-c", "missing argument for -c"),
        ("-c novalue", "invalid config format: novalue"),
        ("--flag", "invalid config format: flag"),
    ],
)
def test_bad_options(text: str, message: str) -> None:
    with pytest.raises(RwError) as info:
        parse_options(text)
    assert str(info.value) == message
