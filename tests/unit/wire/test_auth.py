"""Authentication exchanges without sockets: md5, cleartext, SCRAM-SHA-256 (scramp client)."""

from __future__ import annotations

import hashlib
import struct

import pytest
import scramp

from rwshim.wire import auth
from tests import wirekit as fe
from tests.wirekit import split


def payload(msg: bytes) -> bytes:
    return msg[5:]


def test_trust_asks_nothing() -> None:
    assert auth.make_authenticator("scram", "u", None).start() is None
    assert auth.make_authenticator("trust", "u", "pw").start() is None


def test_md5_is_postgresqls_hash() -> None:
    a = auth.make_authenticator("md5", "alice", "s3cret")
    assert isinstance(a, auth.Md5)
    a = auth.Md5("alice", "s3cret", salt=b"\x01\x02\x03\x04")
    assert a.start() == b"R\x00\x00\x00\x0c\x00\x00\x00\x05\x01\x02\x03\x04"
    inner = hashlib.md5(b"s3cretalice").hexdigest()
    good = "md5" + hashlib.md5(inner.encode() + b"\x01\x02\x03\x04").hexdigest()
    assert a.step(payload(fe.password(good))) == auth.Step(b"", True)
    with pytest.raises(auth.AuthFailed) as info:
        a.step(payload(fe.password("md5" + "0" * 32)))
    assert (str(info.value), info.value.sqlstate) == ("Invalid password", "28P01")


def test_cleartext() -> None:
    a = auth.make_authenticator("cleartext", "u", "pw")
    assert a.start() == b"R\x00\x00\x00\x08\x00\x00\x00\x03"
    assert a.step(payload(fe.password("pw"))).done
    with pytest.raises(auth.AuthFailed):
        a.step(payload(fe.password("nope")))


@pytest.mark.parametrize("user", ["", "alice"])  # libpq sends n=, asyncpg n=<user>
def test_scram_with_a_real_client(user: str) -> None:
    a = auth.make_authenticator("scram", "alice", "pw")
    start = split(a.start() or b"")[0]
    assert start.tag == "R" and start.body == struct.pack("!i", 10) + b"SCRAM-SHA-256\x00\x00"
    client = scramp.ScramClient(["SCRAM-SHA-256"], user or "x", "pw")
    first = client.get_client_first()
    if not user:  # what libpq sends; the proof covers this exact text
        first = first.replace("n=x,", "n=,")
        client.client_first_bare = first[3:]
    step = a.step(payload(fe.sasl_initial("SCRAM-SHA-256", first.encode())))
    cont = split(step.reply)[0]
    assert not step.done and cont.body[:4] == struct.pack("!i", 11)
    client.set_server_first(cont.body[4:].decode())
    step = a.step(payload(fe.sasl_response(client.get_client_final().encode())))
    final = split(step.reply)[0]
    assert step.done and final.body[:4] == struct.pack("!i", 12)
    client.set_server_final(final.body[4:].decode())  # raises if the server signature is wrong


def test_scram_wrong_password_and_bad_mechanism() -> None:
    a = auth.make_authenticator("scram", "alice", "pw")
    client = scramp.ScramClient(["SCRAM-SHA-256"], "alice", "wrong")
    step = a.step(payload(fe.sasl_initial("SCRAM-SHA-256", client.get_client_first().encode())))
    client.set_server_first(split(step.reply)[0].body[4:].decode())
    with pytest.raises(auth.AuthFailed) as info:
        a.step(payload(fe.sasl_response(client.get_client_final().encode())))
    assert (str(info.value), info.value.sqlstate) == ("Invalid password", "28P01")
    b = auth.make_authenticator("scram", "alice", "pw")
    with pytest.raises(auth.AuthFailed) as info:
        b.step(payload(fe.sasl_initial("SCRAM-SHA-1", b"n,,n=,r=abc")))
    assert info.value.sqlstate == "08P01"
