"""Backend messages, read back with the independent decoder of tests/wirekit.py."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rwshim.common import pgtypes
from rwshim.common.outcome import Column
from rwshim.errors import RwError
from rwshim.wire import backend
from rwshim.wire.codecs import decoder
from rwshim.wire.results import render_error, row_encoder
from tests.wirekit import split

_int = st.integers(-(2**31), 2**31 - 1)
_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=20)


@given(st.lists(st.tuples(st.one_of(st.none(), _int), st.one_of(st.none(), _text)), max_size=20))
def test_data_rows_round_trip(rows: list[tuple[int | None, str | None]]) -> None:
    cols = [Column("i", pgtypes.INT4), Column("t", pgtypes.TEXT)]
    for fmt in (0, 1):
        enc = row_encoder(cols, [fmt, fmt])
        msgs = split(enc.row_description + b"".join(enc.encode(r) for r in rows))
        assert msgs[0].columns() == [
            ("i", 0, 0, pgtypes.INT4, 4, -1, fmt),
            ("t", 0, 0, pgtypes.TEXT, -1, -1, fmt),
        ]
        back = []
        for m in msgs[1:]:
            raw_i, raw_t = m.row()
            back.append(
                (
                    None if raw_i is None else decoder(pgtypes.INT4, fmt == 1)(raw_i),
                    None if raw_t is None else decoder(pgtypes.TEXT, fmt == 1)(raw_t),
                )
            )
        assert back == rows


def test_error_and_notice_have_only_s_c_m() -> None:
    (m,) = split(render_error(RwError("a", "b", sqlstate="42704"), "Failed to run the query"))
    assert m.tag == "E"
    assert m.fields() == {
        "S": "ERROR",
        "C": "42704",
        "M": "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
        "  1: a\n  2: b\n",
    }
    (n,) = split(backend.notice_response("hello"))
    assert (n.tag, n.fields()) == ("N", {"S": "NOTICE", "C": "00000", "M": "hello"})


def test_constant_messages() -> None:
    msgs = split(
        backend.AUTH_OK
        + backend.PARSE_COMPLETE
        + backend.BIND_COMPLETE
        + backend.CLOSE_COMPLETE
        + backend.NO_DATA
        + backend.PORTAL_SUSPENDED
        + backend.EMPTY_QUERY
        + backend.ready_for_query("T")
        + backend.command_complete("SELECT 1")
        + backend.parameter_status("TimeZone", "UTC")
        + backend.backend_key_data(1, -2)
        + backend.parameter_description([23, 25])
    )
    assert "".join(m.tag for m in msgs) == "R123nsIZCSKt"
    assert msgs[7].body == b"T"
    assert msgs[8].text() == "SELECT 1"
    assert msgs[9].parameter() == ("TimeZone", "UTC")
    assert msgs[11].param_oids() == [23, 25]
