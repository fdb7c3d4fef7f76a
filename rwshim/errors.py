"""The RwError family: every error rwshim returns, with RisingWave's text, SQLSTATE and cause chain.

RisingWave renders an error as a "pretty report" of its source chain (thiserror-ext
`report.rs`, see rw-engine-semantics.md §4.2): the first message, then either
``Caused by:`` and one indented cause, or ``Caused by these errors (recent errors listed
first):`` and numbered causes.  The outermost message is the pgwire envelope chosen by the
protocol path ("Failed to run the query" for simple queries,
``src/utils/pgwire/src/error.rs:35-54``), so an ``RwError`` holds only the chain *below* the
envelope and ``report()`` adds the envelope the caller names.

Each class says which RisingWave line it imitates.  Modules add their own subclasses here, in
their section, so that one file lists every text rwshim can send.
"""

from __future__ import annotations

from typing import ClassVar

# pgwire envelopes (src/utils/pgwire/src/error.rs:35-54).
RUN_QUERY = "Failed to run the query"
PREPARE_STATEMENT = "Failed to prepare the statement"
EXECUTE_STATEMENT = "Failed to execute the statement"

NOT_IMPLEMENTED_TRACKING = (
    "No tracking issue yet. Feel free to submit a feature request at "
    "https://github.com/risingwavelabs/risingwave/issues/new?labels=type%2Ffeature"
    "&template=feature_request.yml"
)


def pretty_report(messages: list[str]) -> str:
    """Render a chain as thiserror-ext's pretty report (rw-engine-semantics.md §4.2)."""
    msgs = [m for m in messages if m]
    if not msgs:
        return ""
    text = msgs[0]
    if len(msgs) == 2:
        text += "\n\nCaused by:\n  " + msgs[1] + "\n"
    elif len(msgs) >= 3:
        text += "\n\nCaused by these errors (recent errors listed first):\n"
        for i, m in enumerate(msgs[1:], start=1):
            text += f"{i:>3}: {m}\n"
    return text


class RwError(Exception):
    """An error as RisingWave reports it: a chain of messages (outermost first) and a SQLSTATE.

    The SQLSTATE is the first code found anywhere in the chain, else XX000
    (src/utils/pgwire/src/error_or_notice.rs:35-53).
    """

    sqlstate: ClassVar[str] = "XX000"
    severity: ClassVar[str] = "ERROR"

    def __init__(self, *chain: str, sqlstate: str | None = None) -> None:
        super().__init__(chain[0] if chain else "")
        self.chain: list[str] = list(chain)
        self.code: str = sqlstate or type(self).sqlstate

    def report(self, envelope: str | None = RUN_QUERY) -> str:
        """The ErrorResponse M field: the envelope and this chain as a pretty report."""
        messages = ([envelope] if envelope else []) + self.chain
        return pretty_report(messages)

    def compact(self) -> str:
        """The compact form (messages joined by ': '), as gRPC status messages carry it."""
        return ": ".join(m for m in self.chain if m)

    def __str__(self) -> str:
        return self.compact()


class FatalError(RwError):
    """A startup/authentication/protocol failure: severity FATAL, no envelope, then close."""

    severity: ClassVar[str] = "FATAL"

    def report(self, envelope: str | None = None) -> str:
        return self.compact()


class ProtocolViolation(FatalError):
    """A malformed or oversized frame, or a message out of place (PostgreSQL's 08P01)."""

    sqlstate: ClassVar[str] = "08P01"


class QueryCanceled(RwError):
    """A statement cancelled by CancelRequest; the text is PostgreSQL's, which clients match."""

    sqlstate: ClassVar[str] = "57014"

    def __init__(self) -> None:
        super().__init__("canceling statement due to user request")

    def report(self, envelope: str | None = None) -> str:
        return self.compact()


# --- frontend ErrorCode variants (src/frontend/src/error.rs) -------------------------------


class NotImplementedError_(RwError):
    """`Feature is not yet implemented: <feature>` + tracking line (src/error/src/common.rs:46-70)."""

    def __init__(self, feature: str, tracking: str = NOT_IMPLEMENTED_TRACKING) -> None:
        super().__init__(f"Feature is not yet implemented: {feature}\n{tracking}")


class NotSupported(RwError):
    """`Not supported: <a>\\nHINT: <b>` (src/frontend/src/error.rs:61)."""

    def __init__(self, what: str, hint: str) -> None:
        super().__init__(f"Not supported: {what}\nHINT: {hint}")


class InvalidInputSyntax(RwError):
    """`Invalid input syntax: <s>` (src/frontend/src/error.rs:161)."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"Invalid input syntax: {detail}")


class InvalidParameterValue(RwError):
    """`Invalid parameter value: <s>` (src/frontend/src/error.rs:176)."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"Invalid parameter value: {detail}")


class PermissionDenied(RwError):
    """`Permission denied: <s>` (src/frontend/src/error.rs:184)."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"Permission denied: {detail}")


class ProtocolError(RwError):
    """`Protocol error: <s>` (src/frontend/src/error.rs:141)."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"Protocol error: {detail}")


class BindError(RwError):
    """`Bind error: <s>` (src/frontend/src/error.rs, ErrorCode::BindError)."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"Bind error: {detail}")


class CatalogNotFound(RwError):
    """`Catalog error` + `<type> not found: <name>`; 42704, 3D000 for databases.

    src/frontend/src/catalog/mod.rs:130-145 attaches the code; error.rs:134 renders the prefix.
    """

    sqlstate: ClassVar[str] = "42704"

    def __init__(self, object_type: str, name: str) -> None:
        code = "3D000" if object_type == "database" else "42704"
        super().__init__("Catalog error", f"{object_type} not found: {name}", sqlstate=code)


class CatalogDuplicated(RwError):
    """`Catalog error` + `<type> with name <name> exists` (catalog/mod.rs:130-145); 42710."""

    sqlstate: ClassVar[str] = "42710"

    def __init__(self, detail: str) -> None:
        super().__init__("Catalog error", detail)


class SessionConfigError(RwError):
    """`Failed to get or set session config` then its causes (src/frontend/src/error.rs:186)."""

    def __init__(self, *causes: str) -> None:
        super().__init__("Failed to get or set session config", *causes)


class MetaRpcError(RwError):
    """A meta `bail!` (gRPC Internal) as the frontend shows it (src/error/src/tonic.rs:195-222).

    ``call`` is the RPC path, e.g. ``/ddl_service.DdlService/AlterParallelism``.
    """

    def __init__(self, call: str, message: str) -> None:
        self.call = call
        self.meta_message = message
        super().__init__(
            f"gRPC request to meta service (call `{call}`) failed: Internal error", message
        )


class MetaInvalidParameter(RwError):
    """A meta `bail_invalid_parameter!` (src/meta/src/error.rs:72-73) lifted out of its status
    by the frontend as InvalidParameterValue (src/frontend/src/error.rs:213-226)."""

    def __init__(self, message: str) -> None:
        self.meta_message = message
        super().__init__(f"Invalid parameter value: Invalid parameter: {message}")


class Uncategorized(RwError):
    """A frontend `bail!`: the message alone (src/frontend/src/error.rs:46)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)


# --- wire server errors (rwshim/wire, session.py, server.py) --------------------------------


class InvalidPassword(FatalError):
    """`Invalid password`: RisingWave's PsqlError::PasswordError text
    (src/utils/pgwire/src/error.rs:33-34), sent FATAL (pg_protocol.rs:514-526).  RisingWave
    attaches no SQLSTATE (so XX000); rwshim sends PostgreSQL's 28P01 so that drivers raise
    their invalid-password exception (asyncpg InvalidPasswordError, psycopg
    OperationalError with sqlstate 28P01)."""

    sqlstate: ClassVar[str] = "28P01"

    def __init__(self) -> None:
        super().__init__("Invalid password")


class StartupFailed(FatalError):
    """`Failed to start a new session: <cause>`: PsqlError::StartupError
    (src/utils/pgwire/src/error.rs:25-30), sent FATAL with the compact report (the cause
    chain joined by ': ', pg_protocol.rs:514-526); the SQLSTATE is the cause's."""

    def __init__(self, cause: RwError) -> None:
        super().__init__("Failed to start a new session", *cause.chain, sqlstate=cause.code)


class TooManyConnections(FatalError):
    """PostgreSQL's `sorry, too many clients already` (53300) when --max-connections is
    reached (RisingWave has no such limit; PostgreSQL's text is what clients know)."""

    sqlstate: ClassVar[str] = "53300"

    def __init__(self) -> None:
        super().__init__("sorry, too many clients already")


# --- SQL front end errors (rwshim/sql) ------------------------------------------------------

# --- engine errors (rwshim/engine) ----------------------------------------------------------

# --- read path errors (rwshim/query) --------------------------------------------------------
