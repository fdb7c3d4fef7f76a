"""No internal texts: inputs that put Python's texts in front of the client (a parameter that
is not UTF-8 showed ``'utf-8' codec can't decode byte 0xff ...``; a binary parameter of the
wrong length ``unpack requires a buffer ...``; a nested one ``RecursionError``) now get
RisingWave's or PostgreSQL's, and a Bind fuzzer over every parameter type RisingWave
accepts checks that no decoder failure leaks."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from rwshim.server.session import PARSE_PARAM_OIDS
from tests import wirekit as fe
from tests.rel.leaks import internal_text
from tests.rel.serverproc import ServerProcess

READY = b"Z\x00\x00\x00\x05"


class Raw:
    def __init__(self, port: int) -> None:
        self.s = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.buf = b""
        self.s.sendall(fe.startup({"user": "root", "database": "dev"}))
        self.until_ready()

    def until_ready(self) -> list[fe.Msg]:
        while READY not in self.buf or len(self.buf) < self.buf.index(READY) + 6:
            data = self.s.recv(1 << 16)
            assert data, "the server closed the connection"
            self.buf += data
        end = self.buf.index(READY) + 6
        msgs, self.buf = fe.split(self.buf[:end]), self.buf[end:]
        return msgs

    def bind(self, oid: int, value: bytes, fmt: int) -> list[dict[str, str]]:
        """Parse and Bind (where parameters are decoded), no Execute: what running the
        statement says is the read path's business, not the decoders'."""
        self.s.sendall(fe.parse("", "SELECT $1", [oid]) + fe.bind("", "", [value], [fmt]))
        self.s.sendall(fe.SYNC)
        return [m.fields() for m in self.until_ready() if m.tag in "EN"]


@pytest.fixture(scope="module")
def raw() -> Iterator[Raw]:
    sp = ServerProcess()
    r = Raw(sp.port)
    yield r
    r.s.close()
    sp.kill()


@pytest.mark.parametrize(
    ("oid", "value", "fmt", "expected"),
    [
        (25, b"\xff\xfe", 0, "invalid utf-8 sequence of 1 bytes from index 0"),
        (1043, b"ab\xe2\x82", 0, "incomplete utf-8 byte sequence from index 2"),
        (20, b"\x00\x01", 1, "incorrect binary data format in bind parameter 1"),
        (1082, b"\x00", 1, "incorrect binary data format in bind parameter 1"),
    ],
)
def test_parameter_errors_are_risingwave_or_postgresql_texts(
    raw: Raw, oid: int, value: bytes, fmt: int, expected: str
) -> None:
    errs = raw.bind(oid, value, fmt)
    assert [e["M"] for e in errs] == [expected]


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    oid=hs.sampled_from(sorted(PARSE_PARAM_OIDS)),
    fmt=hs.sampled_from([0, 1]),
    value=(hs.binary(max_size=24)
    | hs.text(max_size=16).map(str.encode)
    | hs.sampled_from(
        [b"{" * 50 + b"}" * 50, b"[" * 5000, b"99999999999999999999", b"1e999999", b"nan",
         b"-infinity", b"99999-12-31", b"24:00:01", b"\\x4", b"{1,{2}}"]
    ))
    # (an input that itself says "SQLite" would be quoted back: not a leak)
    .filter(lambda v: internal_text(v.decode(errors="replace").replace("\x00", "")) is None),
)  # fmt: skip
def test_no_parameter_decoding_leaks_internal_text(
    raw: Raw, oid: int, fmt: int, value: bytes
) -> None:
    echoed = value.decode(errors="replace")
    for e in raw.bind(oid, value, fmt):
        # (an error may quote the input, whatever it says)
        found = internal_text(e["M"].replace(echoed, "") if echoed else e["M"])
        assert found is None, (oid, fmt, value, e)
