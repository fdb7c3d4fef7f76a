"""Identifiers over PostgreSQL's 63 bytes (rwshim/sql/long_names.py): read whole from pglast's
trees, held by PostgreSQL under a physical name, two names sharing 63 bytes kept apart."""

from __future__ import annotations

from rwshim.sql import long_names, pgjson

C1 = "c" * 63 + "1"
C2 = "c" * 63 + "2"
WIDE = "列" * 30  # 90 bytes in UTF-8


def test_short_names_are_their_own_physical_names() -> None:
    assert long_names.physical("c" * 63) == "c" * 63
    assert long_names.physical_text("SELECT a FROM t") == ("SELECT a FROM t", {})
    assert long_names.mask("SELECT a FROM t") == ("SELECT a FROM t", {})


def test_physical_names_fit_and_differ() -> None:
    p1, p2 = long_names.physical(C1), long_names.physical(C2)
    assert p1 != p2
    assert len(p1.encode()) <= 63 and len(p2.encode()) <= 63
    wide = long_names.physical(WIDE)
    assert len(wide.encode()) <= 63
    assert wide.startswith("列" * 13)  # whole characters of the 40-byte prefix


def test_mask_keeps_every_byte_offset() -> None:
    text = f'SELECT {C1}, "{WIDE}" FROM t WHERE {C2} = 1'
    masked, names = long_names.mask(text)
    assert len(masked.encode()) == len(text.encode())
    assert masked.encode().index(b"FROM") == text.encode().index(b"FROM")
    assert sorted(names.values()) == sorted([C1, C2, WIDE])


def test_the_tree_holds_the_whole_names() -> None:
    tree = pgjson.parse(f"SELECT {C1} AS {C2}, '{C1}' FROM s_{C1}.t WHERE {C2} = 1")
    dumped = str(tree)
    assert C1 in dumped and C2 in dumped and f"s_{C1}" in dumped
    # a string literal is left as written
    assert f"'sval': '{C1}'" in dumped


def test_unquoted_names_fold_and_quoted_ones_keep_their_case() -> None:
    text = f'SELECT {C1.upper()}, "{C2.upper()}" FROM t'
    out, back = long_names.physical_text(text)
    assert set(back.values()) == {C1, C2.upper()}
    assert C1 not in out and C1.upper() not in out
    assert long_names.physical_text(out) == (out, {})


def test_doubled_quotes_count_as_one_byte() -> None:
    name = 'a"' * 32  # 64 bytes
    text = 'SELECT "' + name.replace('"', '""') + '" FROM t'
    assert long_names.may_hold(text)
    assert [v for _, _, v in long_names.long_identifiers(text)] == [name]


def test_mask_in_characters_for_the_python_ast() -> None:
    from pglast import parse_sql

    text = f"SELECT {WIDE}, b FROM t"
    masked, names = long_names.mask(text, chars=True)
    assert len(masked) == len(text)
    stmt = long_names.restore_ast(parse_sql(masked)[0].stmt, names)
    assert stmt.targetList[0].val.fields[0].sval == WIDE
    assert stmt.targetList[1].location == text.index("b FROM")
