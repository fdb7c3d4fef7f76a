"""SUPPORTED.md is generated from the statement classes and must match them."""

from __future__ import annotations

from rwshim.frontend.frontend import answered_kinds
from rwshim.sql import statements as st
from rwshim.sql.supported import render_supported_md, supported_md_path, supported_table


def test_supported_md_matches_the_code() -> None:
    assert supported_md_path().read_text() == render_supported_md(answered_kinds()), (
        "SUPPORTED.md is stale: regenerate it with python -c 'import rwshim.frontend.frontend "
        "as f, rwshim.sql.supported as s; s.write_supported_md(f.answered_kinds())'"
    )
    text = supported_md_path().read_text()
    assert "issue" not in text and "land" not in text


def test_every_statement_kind_is_listed_with_an_owner() -> None:
    rows = {name: (tags, owner) for name, tags, owner, _ in supported_table()}
    assert set(rows) == {c.__name__ for c in st.all_statement_classes()}
    assert rows["AlterParallelism"][1] == "engine"
    assert rows["Query"][1] == "read path"
    assert rows["SetVariable"][1] == "session"
    answered = answered_kinds()
    assert {"Query", "Copy", "Deallocate", "ControlTick"} <= answered
    assert "Execute" not in answered
    assert "ALTER_MATERIALIZED_VIEW" in rows["AlterParallelism"][0]
