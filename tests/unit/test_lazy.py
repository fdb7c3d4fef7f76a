"""rwshim.lazy.lazy_pattern: compiled on first use, then answering as the compiled pattern."""

from __future__ import annotations

import re

import pytest

from rwshim.lazy import lazy_pattern


def test_lazy_pattern_compiles_on_first_use_and_answers_as_compiled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    compiled: list[str | re.Pattern[str]] = []
    real = re.compile

    def counting(pattern: str, flags: int = 0) -> re.Pattern[str]:
        compiled.append(pattern)
        return real(pattern, flags)

    monkeypatch.setattr(re, "compile", counting)
    text = r"(\d+)-([a-z]+)"
    lazy = lazy_pattern(text, re.IGNORECASE)
    assert compiled == []  # nothing at definition (module import)
    m = lazy.match("12-AB")
    assert m is not None and m.groups() == ("12", "AB")
    assert compiled == [text]
    assert lazy.fullmatch("12-ab-") is None
    assert [g.group(2) for g in lazy.finditer("1-a 2-B")] == ["a", "B"]
    assert (lazy.pattern, lazy.flags) == (text, real(text, re.IGNORECASE).flags)
    # each attribute is kept once read: later calls go straight to the compiled pattern's
    before = len(compiled)
    assert lazy.match("3-c") is not None
    assert len(compiled) == before
    assert vars(lazy)["match"] == real(text, re.IGNORECASE).match
