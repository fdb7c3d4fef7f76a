"""harlequin-risingwave 0.6 (the RisingWave adapter of the Harlequin SQL IDE) against a real
rwshim server, without a terminal UI: the adapter loaded through Harlequin's entry point,
connected, its catalog tree read (databases, schemas, relations with RisingWave's kinds: ``t``
table, ``mv`` materialized view, ``v`` view; columns), queries and an error, its completions
(keywords and the ``pg_settings`` names).

Harlequin brings its own pins (textual, duckdb, ...), so it lives in its own virtualenv made by
``.ci/setup``: ``RWSHIM_HARLEQUIN_PYTHON`` or ``<repo>/.venv-harlequin/bin/python``; the test
fails, never skips, without it.  The schema list shows ``public`` and ``rw_catalog``: the
adapter hides ``pg_catalog`` and ``information_schema``.
"""

from __future__ import annotations

from tests.clients.drivers import by_label, run_lines
from tests.clients.test_sqlalchemy_risingwave import HERE, venv_python
from tests.conftest import ThreadRunning


def test_harlequin_risingwave(rw_thread_server: ThreadRunning) -> None:
    python = venv_python(
        "RWSHIM_HARLEQUIN_PYTHON", ".venv-harlequin", "harlequin-risingwave==0.6.0"
    )
    server = rw_thread_server
    got = by_label(
        run_lines(
            [python, str(HERE / "harlequin_rw.py"), server.host, str(server.port)],
            cwd=HERE,
            timeout=180,
        )
    )
    assert got.pop("adapter") == ["harlequin_risingwave.adapter.HarlequinRisingwaveAdapter"]
    assert got.pop("ddl cursor") == [True]
    # Harlequin's short type labels, from the column OIDs RisingWave sends
    assert got.pop("columns") == [[["id", "#"], ["site", "s"], ["reading", "#.#"]]]
    assert got.pop("rows") == [[[1, "north", 1.5], [2, "south", 2.5]]]
    assert got.pop("databases") == [[["dev", "db", []]]]
    assert got.pop("schemas") == [["public", "rw_catalog"]]
    assert got.pop("public") == [[["by_site", "mv"], ["high", "v"], ["sensors", "t"]]]
    assert got.pop("sensors columns") == [[["id", "#"], ["site", "s"], ["reading", "#.#"]]]
    assert got.pop("bad query") == [
        "error",
        "HarlequinQueryError",
        "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Catalog error\n  2: table or source not found: nosuch",
    ]
    assert got.pop("completions") == [True, ["kw", "set"]]
    assert got == {}
