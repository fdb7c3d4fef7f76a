"""The server side of one PostgreSQL v3 connection, without I/O (in the manner of h11).

Bytes go in through ``receive_data``; decoded frontend messages come out of ``next_event``
(``NEED_DATA`` when a frame is incomplete).  The connection keeps the protocol state and
rejects messages that are out of place for it:

=============  ===========================================  ==================================
state          accepted                                     left by
=============  ===========================================  ==================================
STARTUP        SSLRequest, GSSENCRequest (once each),        StartupMessage -> AUTH,
               CancelRequest, StartupMessage (untyped)      CancelRequest -> CLOSED
AUTH           'p' (password / SASL messages)               ``authenticated()`` -> READY
READY          Q P B D E C S H X, and d c f (ignored         error in an extended message
               outside COPY, as PostgreSQL does)            -> SKIP; ``copy_in_started()``
SKIP           everything is read and dropped except Sync   Sync -> READY
               (and Terminate / end of input)
COPY_IN        d c f (H and S are ignored)                  c, f -> READY
CLOSED         nothing                                      -
=============  ===========================================  ==================================

Anything else is a ``ProtocolError`` event (FATAL 08P01, then the shell closes).  Frame
lengths are checked against the limits *before* any body is buffered, so an oversized
length prefix costs nothing.  A Query/Parse/Bind/CopyData body longer than
``max_query_size`` (and within ``max_message_size``) is read and dropped as it arrives and
becomes one ``TooLarge`` event: the session answers it and the connection goes on, as
RisingWave's pgwire does past ``max_single_query_size_bytes``.  The texts are PostgreSQL's
(``src/backend/tcop/postgres.c``, ``src/backend/postmaster/postmaster.c``), since RisingWave
just drops such connections; an unknown startup code gets RisingWave's text
(``pg_message.rs:401-406``).  In READY the
messages of every round trip (Q P B D E C S H) are parsed by a per-tag fast path.
"""

from __future__ import annotations

import enum
import struct
from collections.abc import Callable
from typing import Final

from rwshim.wire import events as ev

NEED_DATA: Final = None

SSL_REQUEST_CODE = 80877103
GSSENC_REQUEST_CODE = 80877104
CANCEL_REQUEST_CODE = 80877102
PROTOCOL_3 = 3

# PostgreSQL's limits (src/include/libpq/libpq.h, pqcomm.h).
MAX_STARTUP_PACKET = 10000
SMALL_MESSAGE_LIMIT = 10000
AUTH_MESSAGE_LIMIT = 65535
DEFAULT_LARGE_MESSAGE_LIMIT = 64 * 1024 * 1024

_I = struct.Struct("!i")
_HDR = struct.Struct("!BI")
_II = struct.Struct("!ii")
_H = struct.Struct("!h")


class State(enum.Enum):
    STARTUP = "startup"
    AUTH = "auth"
    READY = "ready"
    SKIP = "skip until Sync"
    COPY_IN = "copy in"
    CLOSED = "closed"


# Module-level aliases: a global lookup is cheaper than an Enum class attribute, and these
# comparisons run for every message.
_STARTUP, _AUTH, _READY, _SKIP, _COPY_IN, _CLOSED = (
    State.STARTUP,
    State.AUTH,
    State.READY,
    State.SKIP,
    State.COPY_IN,
    State.CLOSED,
)


class _Malformed(Exception):
    """A frame whose body does not parse."""


# Tag -> whether the message is part of the extended protocol (an error while handling it
# starts skip-until-Sync), and which size limit applies ("small" or "large").
_REGULAR: dict[int, tuple[bool, bool]] = {
    ord("Q"): (False, True),
    ord("P"): (True, True),
    ord("B"): (True, True),
    ord("D"): (True, False),
    ord("E"): (True, False),
    ord("C"): (True, False),
    ord("H"): (True, False),
    ord("S"): (False, False),
    ord("X"): (False, False),
    ord("d"): (False, True),
    ord("c"): (False, False),
    ord("f"): (False, False),
}
_EXTENDED_TAGS = frozenset(t for t, (ext, _) in _REGULAR.items() if ext)
# Accepted during COPY FROM STDIN: CopyData, CopyDone, CopyFail, Sync, Terminate.
_COPY_TAGS = frozenset(b"dcfSX")

_SYNC = ev.Sync()
_FLUSH = ev.Flush()
_TERMINATE = ev.Terminate()
_COPY_DONE = ev.CopyDone()


class _Reader:
    """Reads the fields of one message body, raising _Malformed past its end."""

    __slots__ = ("buf", "pos")

    def __init__(self, buf: bytes) -> None:
        self.buf = buf
        self.pos = 0

    def cstr(self) -> str:
        end = self.buf.find(b"\x00", self.pos)
        if end < 0:
            raise _Malformed("invalid string in message")
        s = self.buf[self.pos : end]
        self.pos = end + 1
        try:
            return s.decode()
        except UnicodeDecodeError:
            raise _Malformed('invalid byte sequence for encoding "UTF8"') from None

    def int16(self) -> int:
        if self.pos + 2 > len(self.buf):
            raise _Malformed("insufficient data left in message")
        (v,) = _H.unpack_from(self.buf, self.pos)
        self.pos += 2
        return int(v)

    def int32(self) -> int:
        if self.pos + 4 > len(self.buf):
            raise _Malformed("insufficient data left in message")
        (v,) = _I.unpack_from(self.buf, self.pos)
        self.pos += 4
        return int(v)

    def end(self) -> None:
        if self.pos != len(self.buf):
            raise _Malformed("invalid message format")


def _parse_startup_params(body: bytes) -> tuple[dict[str, str], tuple[str, ...]]:
    if not body or body[-1] != 0:
        raise _Malformed("invalid startup packet layout: expected terminator as last byte")
    content = body[:-1]
    if content and content[-1] != 0:
        raise _Malformed("invalid startup packet layout: expected terminator as last byte")
    try:
        parts = content[:-1].decode().split("\x00") if content else []
    except UnicodeDecodeError:
        raise _Malformed('invalid byte sequence for encoding "UTF8"') from None
    if len(parts) % 2:
        raise _Malformed("invalid startup packet layout: expected terminator as last byte")
    params: dict[str, str] = {}
    unrecognized: list[str] = []
    for i in range(0, len(parts), 2):
        key, value = parts[i], parts[i + 1]
        if key.startswith("_pq_."):
            unrecognized.append(key)
        else:
            params[key] = value
    return params, tuple(unrecognized)


class ServerConnection:
    """Protocol state and framing of one client connection (no I/O)."""

    def __init__(
        self,
        max_message_size: int = DEFAULT_LARGE_MESSAGE_LIMIT,
        max_query_size: int | None = None,
    ) -> None:
        self.state = _STARTUP
        self.max_message_size = max_message_size
        self.max_query_size = max_message_size if max_query_size is None else max_query_size
        # Bytes of a too-large body still to drop, and the event to emit once they are.
        self._skip = 0
        self._too_large: ev.TooLarge | None = None
        self._buf: bytes | bytearray = b""
        self._pos = 0
        self._eof = False
        self._ssl_asked = False
        self._gss_asked = False
        # Whether the message being handled is an extended-protocol one (an error while
        # handling it starts skip-until-Sync).
        self.in_extended = False
        # Where the exchange under way (the messages since the last Sync or Query) began: its
        # buffer (None once more input arrived: its bytes are not in one buffer) and offset,
        # and whether the next message begins a new one (rwshim/server/shortcuts/exchanges.py).
        self._x_buf: bytes | bytearray | None = None
        self._x_pos = 0
        self._x_new = True

    # --- input ------------------------------------------------------------------------

    def receive_data(self, data: bytes) -> None:
        """Feed bytes read from the socket; ``b""`` means end of input."""
        if not data:
            self._eof = True
            return
        self._x_buf = None
        if self._skip:
            drop = min(self._skip, len(data))
            self._skip -= drop
            data = data[drop:]
            if not data:
                return
        buf = self._buf
        if self._pos >= len(buf):
            # Nothing pending (the common case): keep the caller's bytes, no copy.
            self._buf = data
        elif isinstance(buf, bytearray):
            if self._pos:
                del buf[: self._pos]
            buf += data
        else:
            # A partial frame is pending: accumulate in a bytearray (amortized appends).
            rest = bytearray(buf[self._pos :])
            rest += data
            self._buf = rest
        self._pos = 0

    @property
    def buffered(self) -> int:
        return len(self._buf) - self._pos

    @property
    def drained(self) -> bool:
        """Nothing left to hand out: no byte buffered, no end of input to report, no
        dropped message's error pending."""
        return self._pos >= len(self._buf) and not self._eof and self._too_large is None

    def last_exchange(self) -> bytes | None:
        """The bytes of the messages from the one after the previous Sync or Query through
        the one just decoded; None when they did not arrive in one read."""
        buf = self._x_buf
        if buf is None or buf is not self._buf:
            return None
        return bytes(buf[self._x_pos : self._pos])

    def take_exact(self, data: bytes) -> bool:
        """Consume ``data`` if the input goes on with exactly these bytes, in READY: a recorded
        exchange of whole messages answered without decoding them
        (rwshim/server/shortcuts/exchanges.py)."""
        if self.state is not _READY or self._too_large is not None:
            return False
        buf, pos = self._buf, self._pos
        if not buf.startswith(data, pos):
            return False
        self._pos = pos + len(data)
        self.in_extended = False
        self._x_new = True
        return True

    def take_read(self) -> bool:
        """Consume a whole read that is a recorded exchange, as ``take_exact`` would once it
        was buffered, without buffering it: only in READY with nothing else pending (no byte
        buffered, no end of input, no dropped message)."""
        if self.state is not _READY or self._skip or not self.drained:
            return False
        self.in_extended = False
        self._x_new = True
        return True

    def next_event(self) -> ev.Event | None:
        """The next complete frontend message, or ``NEED_DATA`` (None)."""
        while True:
            state = self.state
            if state is _CLOSED:
                return ev.ConnectionClosed() if self._eof else NEED_DATA
            event = self._next_startup() if state is _STARTUP else self._next_regular()
            if event is not _SKIPPED:
                return event  # type: ignore[return-value]

    def _violation(self, message: str, sqlstate: str = "08P01") -> ev.ProtocolError:
        self._closed()
        return ev.ProtocolError(sqlstate, message)

    def _closed(self) -> ev.ConnectionClosed:
        self.state = _CLOSED
        self._buf = b""
        self._pos = 0
        self._eof = True
        return ev.ConnectionClosed()

    def _take(self, n: int) -> bytes:
        start = self._pos
        self._pos += n
        return bytes(self._buf[start : self._pos])  # startup packets only

    def _next_startup(self) -> ev.Event | object | None:
        avail = len(self._buf) - self._pos
        if avail < 4:
            if self._eof:
                return self._closed()
            return NEED_DATA
        (length,) = _I.unpack_from(self._buf, self._pos)
        if length < 8 or length > MAX_STARTUP_PACKET:
            return self._violation("invalid length of startup packet")
        if avail < length:
            if self._eof:
                return self._closed()
            return NEED_DATA
        packet = self._take(length)
        (code,) = _I.unpack_from(packet, 4)
        body = packet[8:]
        if code in (SSL_REQUEST_CODE, GSSENC_REQUEST_CODE):
            if length != 8:
                return self._violation("invalid length of startup packet")
            if code == SSL_REQUEST_CODE:
                if self._ssl_asked:
                    return self._violation(_unsupported(code))
                self._ssl_asked = True
            else:
                if self._gss_asked:
                    return self._violation(_unsupported(code))
                self._gss_asked = True
            if len(self._buf) > self._pos:
                # CVE-2021-23214: bytes sent before the answer to an encryption request
                # must not be trusted (they could be an injected plaintext message).
                what = "SSL" if code == SSL_REQUEST_CODE else "GSSAPI encryption"
                return self._violation(f"received unencrypted data after {what} request")
            return ev.SSLRequest() if code == SSL_REQUEST_CODE else ev.GSSENCRequest()
        if code == CANCEL_REQUEST_CODE:
            if len(body) != 8:
                return self._violation("invalid length of startup packet")
            pid, key = _II.unpack(body)
            self.state = _CLOSED
            return ev.CancelRequest(pid, key)
        major, minor = code >> 16, code & 0xFFFF
        if major != PROTOCOL_3:
            return self._violation(_unsupported(code), "0A000")
        try:
            params, unrecognized = _parse_startup_params(body)
        except _Malformed as e:
            return self._violation(str(e))
        self.state = _AUTH
        return ev.StartupMessage(params, minor, unrecognized)

    def ssl_negotiated(self) -> None:
        """The shell answered the SSLRequest/GSSENCRequest (and maybe wrapped the socket).

        Nothing changes here today; the hook keeps the shell's calls explicit."""

    def _next_regular(self) -> ev.Event | object | None:
        if self._too_large is not None:
            if self._skip:
                return self._closed() if self._eof else NEED_DATA
            event, self._too_large = self._too_large, None
            return event
        buf = self._buf
        pos = self._pos
        avail = len(buf) - pos
        if avail < 5:
            if self._eof:
                return self._closed()
            return NEED_DATA
        tag, length = _HDR.unpack_from(buf, pos)
        state = self.state
        if state is _READY:
            # Fast path for the messages of every round trip.
            fast = _FAST.get(tag)
            if fast is not None:
                large, extended, parse = fast
                if length < 4 or length - 4 > (
                    self.max_message_size if large else SMALL_MESSAGE_LIMIT
                ):
                    return self._violation("invalid message length")
                if large and length - 4 > self.max_query_size:
                    return self._drop_body(length, extended)
                if avail <= length:
                    if self._eof:
                        return self._closed()
                    return NEED_DATA
                end = pos + 1 + length
                body = buf[pos + 5 : end]
                if type(body) is not bytes:
                    body = bytes(body)
                self._pos = end
                self.in_extended = extended
                if self._x_new:
                    self._x_new = False
                    self._x_buf = buf
                    self._x_pos = pos
                if tag == 0x53 or tag == 0x51:  # Sync, Query: the next message begins anew
                    self._x_new = True
                try:
                    return parse(body)
                except _Malformed as e:
                    return self._violation(str(e))
        if state is _AUTH:
            if tag != 0x70:  # 'p'
                return self._violation(f"expected password response, got message type {tag}")
            limit = AUTH_MESSAGE_LIMIT
            large = False
        else:
            kind = _REGULAR.get(tag)
            if kind is None:
                return self._violation(f"invalid frontend message type {tag}")
            large = kind[1]
            limit = self.max_message_size if large else SMALL_MESSAGE_LIMIT
        if length < 4 or length - 4 > limit:
            return self._violation("invalid message length")
        if large and length - 4 > self.max_query_size:
            return self._drop_body(length, tag in _EXTENDED_TAGS)
        if avail < length + 1:
            if self._eof:
                return self._closed()
            return NEED_DATA
        body = buf[pos + 5 : pos + 1 + length]
        if type(body) is not bytes:
            body = bytes(body)
        self._pos = pos + 1 + length
        if state is _SKIP and tag != 0x53 and tag != 0x58:  # not Sync / Terminate
            return _SKIPPED
        self.in_extended = tag in _EXTENDED_TAGS
        try:
            return self._decode(tag, body)
        except _Malformed as e:
            return self._violation(str(e))

    def _drop_body(self, length: int, extended: bool) -> ev.Event | object | None:
        """Drop a too-large message (header and body) as it arrives; its TooLarge event comes
        once the last byte is read, so that the messages after it keep their order."""
        total = length + 1
        avail = len(self._buf) - self._pos
        taken = min(avail, total)
        self._pos += taken
        self._skip = total - taken
        if self.state is _READY:
            self.in_extended = extended
            self._too_large = ev.TooLarge(self.max_query_size, extended)
        # (skipping until Sync, or in COPY: dropped without a word, as any message there)
        if self._pos >= len(self._buf):
            self._buf, self._pos = b"", 0
        return _SKIPPED

    def _decode(self, tag: int, body: bytes) -> ev.Event | object:
        """Messages outside the READY fast path: Terminate, Sync in SKIP/COPY, password
        messages in AUTH, and the COPY sub-protocol."""
        state = self.state
        if state is _COPY_IN and tag not in _COPY_TAGS:
            if tag == 0x48:  # H is ignored during COPY, as in PostgreSQL
                return _SKIPPED
            return self._violation(f"unexpected message type 0x{tag:02X} during COPY from stdin")
        if tag == 0x53:  # S
            self._x_new = True
            if state is _SKIP:
                self.state = _READY
            elif state is _COPY_IN:
                return _SKIPPED
            return _SYNC
        if tag == 0x58:  # X
            self.state = _CLOSED
            return _TERMINATE
        if tag == 0x70:  # p (only reachable in AUTH)
            return ev.PasswordMessage(body)
        if tag == 0x64:  # d
            if state is not _COPY_IN:
                return _SKIPPED  # outside COPY: ignored, as PostgreSQL does
            return ev.CopyData(body)
        if tag == 0x63:  # c
            if state is not _COPY_IN:
                return _SKIPPED
            self.state = _READY
            return _COPY_DONE
        if tag == 0x66:  # f
            msg = _Reader(body).cstr()
            if state is not _COPY_IN:
                return _SKIPPED
            self.state = _READY
            return ev.CopyFail(msg)
        # Only READY has the extended-protocol messages, and they take the fast path.
        raise _Malformed(f"invalid frontend message type {tag}")  # pragma: no cover

    # --- transitions driven by what the server sends -----------------------------------

    def authenticated(self) -> None:
        """AuthenticationOk was sent: regular messages from now on."""
        if self.state is _AUTH:
            self.state = _READY

    def error_sent(self) -> None:
        """An ErrorResponse answered the message being handled: skip until Sync if that
        message belongs to the extended protocol."""
        if self.in_extended and self.state is _READY:
            self.state = _SKIP

    def copy_in_started(self) -> None:
        """CopyInResponse was sent: CopyData/CopyDone/CopyFail expected."""
        self.state = _COPY_IN

    def close(self) -> None:
        self.state = _CLOSED


def _utf8(b: bytes) -> str:
    try:
        return b.decode()
    except UnicodeDecodeError:
        raise _Malformed('invalid byte sequence for encoding "UTF8"') from None


def _parse_bind(body: bytes) -> ev.Bind:
    try:
        nul = body.index(b"\x00")
        portal = _utf8(body[:nul])
        pos = nul + 1
        nul = body.index(b"\x00", pos)
        stmt = _utf8(body[pos:nul])
        pos = nul + 1
        (n,) = _H.unpack_from(body, pos)
        pos += 2
        if n < 0:
            raise _Malformed("invalid message format")
        pformats = struct.unpack_from(f"!{n}h", body, pos) if n else ()
        pos += 2 * n
        (n,) = _H.unpack_from(body, pos)
        pos += 2
        if n < 0:
            raise _Malformed("invalid message format")
        params: list[bytes | None] = []
        append = params.append
        size = len(body)
        for _ in range(n):
            (ln,) = _I.unpack_from(body, pos)
            pos += 4
            if ln == -1:
                append(None)
            elif ln < 0 or pos + ln > size:
                raise _Malformed("insufficient data left in message")
            else:
                append(body[pos : pos + ln])
                pos += ln
        (n,) = _H.unpack_from(body, pos)
        pos += 2
        if n < 0:
            raise _Malformed("invalid message format")
        rformats = struct.unpack_from(f"!{n}h", body, pos) if n else ()
        pos += 2 * n
    except ValueError:  # index() found no NUL
        raise _Malformed("invalid string in message") from None
    except struct.error:
        raise _Malformed("insufficient data left in message") from None
    if pos != size:
        raise _Malformed("invalid message format")
    return ev.Bind(portal, stmt, pformats, tuple(params), rformats)


def _parse_query(body: bytes) -> ev.Query:
    if not body or body[-1] != 0:
        raise _Malformed("invalid string in message")
    return ev.Query(_utf8(body[:-1]))


def _parse_execute(body: bytes) -> ev.Execute:
    nul = body.find(b"\x00")
    if nul < 0:
        raise _Malformed("invalid string in message")
    if len(body) != nul + 5:
        raise _Malformed(
            "insufficient data left in message" if len(body) < nul + 5 else "invalid message format"
        )
    (max_rows,) = _I.unpack_from(body, nul + 1)
    return ev.Execute(_utf8(body[:nul]), max_rows if max_rows > 0 else 0)


def _parse_describe(body: bytes) -> ev.Describe:
    if len(body) < 2 or body[-1] != 0 or body.find(b"\x00", 1) != len(body) - 1:
        raise _Malformed(
            "invalid message format" if body[-1:] == b"\x00" else "invalid string in message"
        )
    kind = chr(body[0])
    if kind != "S" and kind != "P":
        raise _Malformed(f"invalid DESCRIBE message subtype {body[0]}")
    return ev.Describe(kind, _utf8(body[1:-1]))


def _parse_close(body: bytes) -> ev.Close:
    if len(body) < 2 or body[-1] != 0 or body.find(b"\x00", 1) != len(body) - 1:
        raise _Malformed(
            "invalid message format" if body[-1:] == b"\x00" else "invalid string in message"
        )
    kind = chr(body[0])
    if kind != "S" and kind != "P":
        raise _Malformed(f"invalid CLOSE message subtype {body[0]}")
    return ev.Close(kind, _utf8(body[1:-1]))


def _parse_parse(body: bytes) -> ev.Parse:
    r = _Reader(body)
    name = r.cstr()
    sql = r.cstr()
    n = r.int16()
    if n < 0:
        raise _Malformed("invalid message format")
    oids = tuple(r.int32() & 0xFFFFFFFF for _ in range(n))
    r.end()
    return ev.Parse(name, sql, oids)


def _sync(body: bytes) -> ev.Sync:
    return _SYNC


def _flush(body: bytes) -> ev.Flush:
    return _FLUSH


# READY-state fast path: tag -> (large size limit, extended protocol, parser).
_FAST: dict[int, tuple[bool, bool, Callable[[bytes], ev.Event]]] = {
    ord("Q"): (True, False, _parse_query),
    ord("P"): (True, True, _parse_parse),
    ord("B"): (True, True, lambda b: _parse_bind(b)),
    ord("D"): (False, True, _parse_describe),
    ord("E"): (False, True, _parse_execute),
    ord("C"): (False, True, _parse_close),
    ord("H"): (False, True, _flush),
    ord("S"): (False, False, _sync),
}


class _Skipped:
    """Marker for a message that was read and dropped."""


_SKIPPED = _Skipped()


def _unsupported(code: int) -> str:
    """RisingWave's text for an unknown startup code (pg_message.rs:401-406)."""
    return f"Unsupported protocol number in start up msg {code}"
