"""Frontend messages as events: what a client can send, decoded (PostgreSQL protocol v3).

Each class is one frontend message of the PostgreSQL v3 protocol
(https://www.postgresql.org/docs/15/protocol-message-formats.html).  Byte strings that name
statements and portals are decoded as UTF-8; SQL text too.  ``ConnectionClosed`` is the event
for end of input.

The classes are plain (not frozen) slotted dataclasses because a frozen dataclass costs a
``object.__setattr__`` call per field on construction, on every message; treat them as
immutable all the same.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class SSLRequest:
    """Untyped packet 80877103: the client asks for TLS."""


@dataclass(slots=True)
class GSSENCRequest:
    """Untyped packet 80877104: the client asks for GSSAPI encryption."""


@dataclass(slots=True)
class CancelRequest:
    """Untyped packet 80877102: cancel the statement running on connection (pid, key)."""

    pid: int
    key: int


@dataclass(slots=True)
class StartupMessage:
    """Untyped packet with protocol 3.x: connection parameters.

    ``minor`` is the protocol minor version the client asked for; ``unrecognized`` lists the
    ``_pq_.`` protocol options the server does not know (for NegotiateProtocolVersion).
    """

    params: dict[str, str]
    minor: int = 0
    unrecognized: tuple[str, ...] = ()


@dataclass(slots=True)
class PasswordMessage:
    """'p': PasswordMessage, SASLInitialResponse or SASLResponse; the payload is raw."""

    payload: bytes


@dataclass(slots=True)
class Query:
    """'Q': a simple query string (possibly several statements)."""

    sql: str


@dataclass(slots=True)
class Parse:
    """'P': prepare ``sql`` as statement ``name`` with parameter type OIDs (0 = unspecified)."""

    name: str
    sql: str
    param_oids: tuple[int, ...] = ()


@dataclass(slots=True)
class Bind:
    """'B': bind parameters to statement ``statement`` as portal ``portal``.

    ``param_formats`` and ``result_formats`` are as sent (0, 1 or n codes); ``params`` holds
    raw values (None = NULL).
    """

    portal: str
    statement: str
    param_formats: tuple[int, ...] = ()
    params: tuple[bytes | None, ...] = ()
    result_formats: tuple[int, ...] = ()


@dataclass(slots=True)
class Describe:
    """'D': describe a statement (kind 'S') or a portal (kind 'P')."""

    kind: str
    name: str


@dataclass(slots=True)
class Execute:
    """'E': run portal ``portal``, returning at most ``max_rows`` rows (0 = all)."""

    portal: str
    max_rows: int = 0


@dataclass(slots=True)
class Close:
    """'C': close a statement (kind 'S') or a portal (kind 'P')."""

    kind: str
    name: str


@dataclass(slots=True)
class Sync:
    """'S': end of an extended-protocol batch; answer ReadyForQuery."""


@dataclass(slots=True)
class Flush:
    """'H': send what is buffered now."""


@dataclass(slots=True)
class Terminate:
    """'X': the client is leaving."""


@dataclass(slots=True)
class CopyData:
    """'d': a chunk of COPY FROM STDIN data."""

    data: bytes


@dataclass(slots=True)
class CopyDone:
    """'c': end of COPY FROM STDIN data."""


@dataclass(slots=True)
class CopyFail:
    """'f': the client aborts COPY FROM STDIN."""

    message: str


@dataclass(slots=True)
class ConnectionClosed:
    """End of input from the client (EOF), whether or not a Terminate came first."""


@dataclass(slots=True)
class ProtocolError:
    """The input broke the protocol; the connection must send ``fatal`` and close.

    Returned as an event (rather than raised) so that the shell writes the FATAL
    ErrorResponse before closing, as PostgreSQL does.
    """

    sqlstate: str
    message: str


@dataclass(slots=True)
class TooLarge:
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
