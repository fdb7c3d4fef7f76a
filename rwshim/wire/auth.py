"""Password authentication exchanges without I/O: trust, cleartext, md5, SCRAM-SHA-256.

An ``Authenticator`` says what to send first (``start``) and answers each 'p' message
(``step``) with the next message and whether the exchange is over; a wrong password raises
``AuthFailed``.  SCRAM is ``scramp``'s server; md5 is PostgreSQL's
``"md5" + md5(md5(password + user) + salt)``; RisingWave itself offers cleartext and md5
(``src/utils/pgwire/src/pg_server.rs:325-363``).
"""

from __future__ import annotations

import functools
import os
import struct
from typing import TYPE_CHECKING, Any

from msgspec import Struct

from rwshim.lazy import lazy_module
from rwshim.wire import backend

if TYPE_CHECKING:
    import hashlib
    import hmac
else:
    # the password exchanges' only: trust, the default, needs neither
    hashlib = lazy_module("hashlib")
    hmac = lazy_module("hmac")

SCRAM = "SCRAM-SHA-256"


class AuthFailed(Exception):
    """The client did not prove it knows the password (28P01), or broke the exchange (08P01)."""

    def __init__(self, message: str, sqlstate: str = "08P01") -> None:
        super().__init__(message)
        self.sqlstate = sqlstate


class Step(Struct, frozen=True):
    """What to send next; ``done`` means authentication succeeded after ``reply``."""

    reply: bytes
    done: bool


class Authenticator:
    """Trust: nothing to ask."""

    def start(self) -> bytes | None:
        """The authentication request to send, or None when no password is needed."""
        return None

    def step(self, payload: bytes) -> Step:
        raise AuthFailed("unexpected password message")


def _cstring(payload: bytes) -> bytes:
    end = payload.find(b"\x00")
    if end != len(payload) - 1:
        raise AuthFailed("invalid password packet")
    return payload[:end]


class Cleartext(Authenticator):
    def __init__(self, password: str) -> None:
        self._password = password.encode()

    def start(self) -> bytes | None:
        return backend.AUTH_CLEARTEXT

    def step(self, payload: bytes) -> Step:
        if not hmac.compare_digest(_cstring(payload), self._password):
            raise AuthFailed("Invalid password", "28P01")
        return Step(b"", True)


class Md5(Authenticator):
    """md5 challenge; ``stored`` is a user's stored hash (``md5`` + 32 hex of
    md5(password + user)), used instead of ``password`` when given."""

    def __init__(
        self,
        user: str,
        password: str | None = None,
        salt: bytes | None = None,
        *,
        stored: str | None = None,
    ) -> None:
        self._salt = salt if salt is not None else os.urandom(4)
        if stored is not None:
            inner = (stored[3:] if stored.startswith("md5") else stored).encode()
        else:
            inner = hashlib.md5(((password or "") + user).encode()).hexdigest().encode()
        self._expected = b"md5" + hashlib.md5(inner + self._salt).hexdigest().encode()

    def start(self) -> bytes | None:
        return backend.auth_md5(self._salt)

    def step(self, payload: bytes) -> Step:
        if not hmac.compare_digest(_cstring(payload), self._expected):
            raise AuthFailed("Invalid password", "28P01")
        return Step(b"", True)


@functools.lru_cache(maxsize=64)
def _scram_auth_info(password: str) -> tuple[Any, ...]:
    # PBKDF2 with 4096 rounds costs milliseconds: derive once per password.
    import scramp  # imported on first use: scramp + asn1crypto cost ~50 ms of start-up

    return tuple(scramp.ScramMechanism(SCRAM).make_auth_info(password))


class Scram(Authenticator):
    def __init__(self, password: str) -> None:
        import scramp

        info = _scram_auth_info(password)
        self._server = scramp.ScramMechanism(SCRAM).make_server(lambda _user: info)
        self._stage = 0

    def start(self) -> bytes | None:
        return backend.auth_sasl([SCRAM])

    def step(self, payload: bytes) -> Step:
        import scramp

        try:
            if self._stage == 0:
                end = payload.find(b"\x00")
                if end < 0 or len(payload) < end + 5:
                    raise AuthFailed("malformed SASLInitialResponse")
                mechanism = payload[:end].decode()
                if mechanism != SCRAM:
                    raise AuthFailed("client selected an invalid SASL authentication mechanism")
                (n,) = struct.unpack_from("!i", payload, end + 1)
                data = payload[end + 5 :]
                if n != len(data):
                    raise AuthFailed("malformed SASLInitialResponse")
                first = data.decode()
                # libpq sends an empty SCRAM user name ("n=,"; PostgreSQL ignores it and
                # uses the startup user) which scramp refuses.  Give scramp a placeholder
                # name, then restore the bare message as sent, since the proofs are
                # computed over it.
                header_end = first.find(",", first.find(",") + 1) + 1
                bare = first[header_end:]
                if bare.startswith("n=,"):
                    self._server.set_client_first(first[:header_end] + "n=*," + bare[3:])
                    self._server.client_first_bare = bare
                else:
                    self._server.set_client_first(first)
                self._stage = 1
                return Step(
                    backend.auth_sasl_continue(self._server.get_server_first().encode()), False
                )
            if self._stage == 1:
                self._server.set_client_final(payload.decode())
                self._stage = 2
                return Step(backend.auth_sasl_final(self._server.get_server_final().encode()), True)
        except scramp.ScramException:
            raise AuthFailed("Invalid password", "28P01") from None
        except UnicodeDecodeError:
            raise AuthFailed("malformed SASL message") from None
        raise AuthFailed("unexpected password message")


def make_authenticator(method: str, user: str, password: str | None) -> Authenticator:
    """The exchange for ``method`` (scram, md5, cleartext, trust); no password = trust."""
    if password is None or method == "trust":
        return Authenticator()
    if method == "scram":
        return Scram(password)
    if method == "md5":
        return Md5(user, password)
    if method == "cleartext":
        return Cleartext(password)
    raise ValueError(f"unknown authentication method {method!r}")
