"""Frontend messages as events: what a client can send, decoded (PostgreSQL protocol v3).

Each class is one frontend message of the PostgreSQL v3 protocol
(https://www.postgresql.org/docs/15/protocol-message-formats.html).  Byte strings that name
statements and portals are decoded as UTF-8; SQL text too.  ``ConnectionClosed`` is the event
for end of input.

The classes are frozen ``msgspec.Struct`` records: one is built per message, and a Struct
costs ~0.25 us to build where a slotted dataclass costs ~1.4 us (a frozen one more: an
``object.__setattr__`` per field), and its class ~20 us to create at import where a
dataclass's costs ~0.6-1 ms (issue 16's start-up).
"""

from __future__ import annotations

from msgspec import Struct


class SSLRequest(Struct, frozen=True):
    """Untyped packet 80877103: the client asks for TLS."""


class GSSENCRequest(Struct, frozen=True):
    """Untyped packet 80877104: the client asks for GSSAPI encryption."""


class CancelRequest(Struct, frozen=True):
    """Untyped packet 80877102: cancel the statement running on connection (pid, key)."""

    pid: int
    key: int


class StartupMessage(Struct, frozen=True):
    """Untyped packet with protocol 3.x: connection parameters.

    ``minor`` is the protocol minor version the client asked for; ``unrecognized`` lists the
    ``_pq_.`` protocol options the server does not know (for NegotiateProtocolVersion).
    """

    params: dict[str, str]
    minor: int = 0
    unrecognized: tuple[str, ...] = ()


class PasswordMessage(Struct, frozen=True):
    """'p': PasswordMessage, SASLInitialResponse or SASLResponse; the payload is raw."""

    payload: bytes


class Query(Struct, frozen=True):
    """'Q': a simple query string (possibly several statements)."""

    sql: str


class Parse(Struct, frozen=True):
    """'P': prepare ``sql`` as statement ``name`` with parameter type OIDs (0 = unspecified)."""

    name: str
    sql: str
    param_oids: tuple[int, ...] = ()


class Bind(Struct, frozen=True):
    """'B': bind parameters to statement ``statement`` as portal ``portal``.

    ``param_formats`` and ``result_formats`` are as sent (0, 1 or n codes); ``params`` holds
    raw values (None = NULL).
    """

    portal: str
    statement: str
    param_formats: tuple[int, ...] = ()
    params: tuple[bytes | None, ...] = ()
    result_formats: tuple[int, ...] = ()


class Describe(Struct, frozen=True):
    """'D': describe a statement (kind 'S') or a portal (kind 'P')."""

    kind: str
    name: str


class Execute(Struct, frozen=True):
    """'E': run portal ``portal``, returning at most ``max_rows`` rows (0 = all)."""

    portal: str
    max_rows: int = 0


class Close(Struct, frozen=True):
    """'C': close a statement (kind 'S') or a portal (kind 'P')."""

    kind: str
    name: str


class Sync(Struct, frozen=True):
    """'S': end of an extended-protocol batch; answer ReadyForQuery."""


class Flush(Struct, frozen=True):
    """'H': send what is buffered now."""


class Terminate(Struct, frozen=True):
    """'X': the client is leaving."""


class CopyData(Struct, frozen=True):
    """'d': a chunk of COPY FROM STDIN data."""

    data: bytes


class CopyDone(Struct, frozen=True):
    """'c': end of COPY FROM STDIN data."""


class CopyFail(Struct, frozen=True):
    """'f': the client aborts COPY FROM STDIN."""

    message: str


class ConnectionClosed(Struct, frozen=True):
    """End of input from the client (EOF), whether or not a Terminate came first."""


class ProtocolError(Struct, frozen=True):
    """The input broke the protocol; the connection must send ``fatal`` and close.

    Returned as an event (rather than raised) so that the shell writes the FATAL
    ErrorResponse before closing, as PostgreSQL does.
    """

    sqlstate: str
    message: str


class TooLarge(Struct, frozen=True):
    """A Query, Parse, Bind or CopyData message longer than the query size limit: its body
    was read and dropped, never buffered (RisingWave's ``ServerThrottle(TooLargeMessage)``,
    src/utils/pgwire/src/pg_protocol.rs:660-676).  ``extended`` says it was a Parse or Bind,
    ``limit`` is the limit in bytes."""

    limit: int
    extended: bool


Event = (
    SSLRequest
    | GSSENCRequest
    | CancelRequest
    | StartupMessage
    | PasswordMessage
    | Query
    | Parse
    | Bind
    | Describe
    | Execute
    | Close
    | Sync
    | Flush
    | Terminate
    | CopyData
    | CopyDone
    | CopyFail
    | ConnectionClosed
    | ProtocolError
    | TooLarge
)
