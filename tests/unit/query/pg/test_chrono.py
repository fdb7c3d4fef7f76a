"""to_timestamp's input shape as RisingWave's chrono pattern reads it (dataplane/plan/chrono.py)."""

from __future__ import annotations

import pytest

from rwshim.dataplane.plan import chrono


def test_patterns_compile_to_chrono_items_leftmost_longest() -> None:
    assert chrono.compile_pattern("YYYY-MM-DD HH24:MI:SS.MS") == [
        "%Y", "-", "%m", "-", "%d", " ", "%H", ":", "%M", ":", "%S", ".", "%3f",
    ]  # fmt: skip
    assert chrono.compile_pattern("HH12 TZH:TZM") == ["%I", " ", "%:z"]


@pytest.mark.parametrize(
    ("text", "pattern", "error"),
    [
        ("2022/12/25 15:24:33", "YYYY/MM/DD HH24:MI:SS", None),
        ("2022 1 5", "YYYY MM DD", None),
        ("2001-04-17 00:00:00.900006", "YYYY-MM-DD HH24:MI:SS.US", None),
        ("2001-04-17 00:00:00.9", "YYYY-MM-DD HH24:MI:SS.MS", chrono.TOO_SHORT),
        ("2001-04-17 00:00:00.9999", "YYYY-MM-DD HH24:MI:SS.MS", chrono.TOO_LONG),
        ("2021/12/30 14:52:49 +03:30", "YYYY/MM/DD HH24:MI:SS TZH:TZM", None),
        ("2021/12/30 14:52:49 +0330", "YYYY/MM/DD HH24:MI:SS TZHTZM", None),
        ("2021/12/30 14:52:49 +330", "YYYY/MM/DD HH24:MI:SS TZHTZM", chrono.TOO_SHORT),
        ("05 Dec 2000", "DD Mon YYYY", None),
        ("2022x12", "YYYY-MM", chrono.INVALID),
    ],
)
def test_input_shapes(text: str, pattern: str, error: str | None) -> None:
    assert chrono.scan(text, pattern) == error
