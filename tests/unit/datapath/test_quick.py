"""The pass-through rule of kept data-plane runs (rwshim/dataplane/rerun.py): for every
PostgreSQL result type whose rows are passed through, decoding PostgreSQL's text output the
way the full path does and encoding it again for the client gives the same bytes; a type
outside the set is never passed through."""

from __future__ import annotations

import pytest

from rwshim.common import pgtypes
from rwshim.dataplane import rerun as quick
from rwshim.dataplane import values
from rwshim.dataplane.plan import typemap
from rwshim.wire import codecs

# PostgreSQL's text output for each type (int8out, int4out, boolout, textout ...)
OUTPUTS: dict[int, list[bytes]] = {
    pgtypes.BOOL: [b"t", b"f"],
    pgtypes.INT2: [b"0", b"-1", b"32767", b"-32768"],
    pgtypes.INT4: [b"0", b"7", b"-2147483648", b"2147483647"],
    pgtypes.INT8: [b"0", b"-9223372036854775808", b"9223372036854775807", b"1000000"],
    pgtypes.TEXT: [b"", b" padded ", "\u00e9t\u00e9 \U0001f600".encode(), b"a\\b\n'\"", b"NULL"],
    pgtypes.VARCHAR: [b"", b"v42", "\u4e2d\u6587".encode(), b"\t tab"],
}


def test_the_set_is_the_types_tested_here() -> None:
    assert set(OUTPUTS) == quick.PASS_THROUGH


@pytest.mark.parametrize("pg_oid", sorted(OUTPUTS))
def test_decoding_and_encoding_again_gives_postgresql_bytes(pg_oid: int) -> None:
    rw_oid = typemap.result_oid(pg_oid)
    decode, encode = values.decoder(rw_oid), codecs.encoder(rw_oid, False)
    for raw in OUTPUTS[pg_oid]:
        assert encode(decode(raw)) == raw, (pg_oid, raw)


def test_passes_through_only_when_every_column_does() -> None:
    int4, text, f8 = pgtypes.INT4, pgtypes.TEXT, pgtypes.FLOAT8
    assert quick.passes_through([int4, text], [int4, typemap.result_oid(text)])
    assert quick.passes_through([], [])
    # a float's text is RisingWave's own (not PostgreSQL's): never passed through
    assert not quick.passes_through([int4, f8], [int4, f8])
    # a column the client sees as another type than PostgreSQL's
    assert not quick.passes_through([int4], [pgtypes.INT8])
