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

from typing import Any, ClassVar

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


class QueryCanceled(RwError):
    """A statement cancelled by CancelRequest; the text is PostgreSQL's, which clients match."""

    sqlstate: ClassVar[str] = "57014"

    def __init__(self) -> None:
        super().__init__("canceling statement due to user request")

    def report(self, envelope: str | None = None) -> str:
        return self.compact()


class ServerThrottled(RwError):
    """``Server throttled: max_single_query_size_bytes <n> has been exceeded, please either
    reduce the query size or increase the limit``: RisingWave's PsqlError::ServerThrottle
    (src/utils/pgwire/src/error.rs:78-79, text pg_protocol.rs:638-644) for a message longer
    than the limit, whose body was dropped unread.  No envelope, SQLSTATE XX000."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            f"Server throttled: max_single_query_size_bytes {limit} has been exceeded, "
            "please either reduce the query size or increase the limit"
        )

    def report(self, envelope: str | None = None) -> str:
        return self.compact()


# --- frontend ErrorCode variants (src/frontend/src/error.rs) -------------------------------


class NotImplementedError_(RwError):
    """`Feature is not yet implemented: <feature>` + tracking line
    (src/error/src/common.rs:46-70)."""

    def __init__(self, feature: str, tracking: str = NOT_IMPLEMENTED_TRACKING) -> None:
        super().__init__(f"Feature is not yet implemented: {feature}\n{tracking}")


class NotSupported(RwError):
    """`Not supported: <a>\\nHINT: <b>` (src/frontend/src/error.rs:61)."""

    def __init__(self, what: str, hint: str) -> None:
        super().__init__(f"Not supported: {what}\nHINT: {hint}")
        self.what = what


class VariantKeyError(NotSupported):
    """``Not supported: VARIANT column "<f>" ...`` with the hint every layer shares
    (src/frontend/src/optimizer/variant_key.rs ``VARIANT_KEY_HINT``, ``variant_key_error``;
    head only)."""

    HINT = (
        "VARIANT values only have byte-wise equality and ordering, so they cannot be used as "
        "a key: in a primary key, index, grouping or join key, ORDER BY, or set operation."
    )

    def __init__(self, what: str) -> None:
        super().__init__(what, self.HINT)


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


class CastError(RwError):
    """A cast the binder refuses: `cannot cast type "a" to "b"` over its causes
    (src/frontend/src/expr/type_inference/cast.rs ``cast_error!``)."""


class CatalogNotFound(RwError):
    """`Catalog error` + `<type> not found: <name>`; 42704, 3D000 for databases.

    src/frontend/src/catalog/mod.rs:130-145 attaches the code; error.rs:134 renders the prefix.
    """

    sqlstate: ClassVar[str] = "42704"

    def __init__(self, object_type: str, name: str) -> None:
        code = "3D000" if object_type == "database" else "42704"
        super().__init__("Catalog error", f"{object_type} not found: {name}", sqlstate=code)


class InternalTableRead(RwError):
    """A query reads a job's internal state table, which RisingWave answers with its rows
    (binder/relation/table_or_source.rs:175-179) and rwshim cannot: it keeps no operator
    state (a materialized view is its query computed again at barriers).  A CREATE that reads
    one turns this into RisingWave's own refusal (handler/util.rs:364-393)."""

    def __init__(self, name: str) -> None:
        super().__init__(
            f'not supported by rwshim: reading the internal state table "{name}" (rwshim '
            "keeps no streaming state: a materialized view is its query computed again at "
            "each barrier)"
        )
        self.name = name


class CatalogDuplicated(RwError):
    """`Catalog error` + `<type> with name <name> exists` (catalog/mod.rs:130-145); 42710."""

    sqlstate: ClassVar[str] = "42710"

    def __init__(self, detail: str) -> None:
        super().__init__("Catalog error", detail)


class SessionConfigError(RwError):
    """`Failed to get or set session config` then its causes (src/frontend/src/error.rs:186)."""

    def __init__(self, *causes: str) -> None:
        super().__init__("Failed to get or set session config", *causes)


# --- meta errors through the gRPC boundary ---------------------------------------------------
#
# A MetaError becomes a tonic Status whose code follows its variant (src/meta/src/error.rs:
# 201-216); the Status carries the serialized error chain and, in its Extra, the PostgreSQL
# code the error provides (src/error/src/tonic.rs:62-85, tonic/extra.rs:55-80): only
# CatalogIdNotFound (42704 UndefinedObject) and Duplicated (42710 DuplicateObject) provide one
# (error.rs:152-164).  The frontend turns the Status into an ErrorCode by its code
# (src/frontend/src/error.rs:211-227):
#
#   gRPC code         frontend ErrorCode          message the client sees        SQLSTATE
#   InvalidArgument   InvalidParameterValue(msg)  the status message only        XX000
#   NotFound          CatalogError(status)        Catalog error / gRPC... / chain 42704 (Extra)
#   AlreadyExists     CatalogError(status)        Catalog error / gRPC... / chain 42710 (Extra)
#   PermissionDenied  PermissionDenied(msg)       Permission denied: <msg>        XX000
#   Cancelled         SchedulerError(status)      Scheduler error / gRPC... / ... XX000
#   anything else     RpcError(status)            gRPC... / chain                 XX000
#
# The wrappers that keep the status as their source (CatalogError, SchedulerError, RpcError)
# also pass its Extra on, so the SQLSTATE is the code of the meta error when it has one; the
# ones built from the message alone drop it.  pgwire sends the first code in the chain, else
# XX000 (src/utils/pgwire/src/error_or_notice.rs:38-47).  Each class below is one row.

# tonic::Code's Display (tonic status.rs Code::description), which TonicStatusWrapper prints
# after ``failed:`` (src/error/src/tonic.rs:199-225).
GRPC_CODE_TEXT = {
    "Internal": "Internal error",
    "NotFound": "Some requested entity was not found",
    "AlreadyExists": "Some entity that we attempted to create (e.g., file or directory) "
    "already exists",
    "Cancelled": "The operation was cancelled",
}


def grpc_failed(call: str, code: str) -> str:
    """TonicStatusWrapper's own message: the meta service, the call, the code's text."""
    return f"gRPC request to meta service (call `{call}`) failed: {GRPC_CODE_TEXT[code]}"


class MetaRpcError(RwError):
    """A meta `bail!` / anyhow error (gRPC Internal) as the frontend shows it, through
    RpcError(status) (src/error/src/tonic.rs:195-222): no SQLSTATE of its own.

    ``call`` is the RPC path, e.g. ``/ddl_service.DdlService/AlterParallelism``; ``message``
    and ``causes`` are the meta error's chain.
    """

    def __init__(self, call: str, message: str, *causes: str) -> None:
        self.call = call
        self.meta_message = message
        super().__init__(grpc_failed(call, "Internal"), message, *causes)


class MetaNodeRestarted(MetaRpcError):
    """rwshim only: a session waiting on the meta node (a foreground CREATE, WAIT, a create
    queued for its permit) when ``RWSHIM RESTART`` restarts it.  RisingWave's frontend sees its
    RPC to the meta node break, with a transport error whose text depends on the moment;
    rwshim names the restart in the envelope of a meta error instead of imitating one."""

    def __init__(self, call: str) -> None:
        super().__init__(call, "meta node restarted")


class SystemParamsError(MetaRpcError):
    """MetaErrorInner::SystemParams, `System parameters error: <s>` (src/meta/src/error.rs:99),
    gRPC Internal; raised by the system-parameter controller (controller/system_param.rs:
    182-220) and for an unknown session parameter (controller/session_params.rs:140-146)."""

    def __init__(self, message: str, *, call: str = "/meta.SystemParamsService/SetSystemParam"):
        super().__init__(call, f"System parameters error: {message}")


class MetaCatalogNotFound(RwError):
    """MetaError::catalog_id_not_found (`<type> id not found: <id>`, src/meta/src/error.rs:
    76-79): gRPC NotFound, which the frontend wraps as a CatalogError that keeps the status
    (src/frontend/src/error.rs:220) and so its code 42704 (error.rs:155-158)."""

    sqlstate: ClassVar[str] = "42704"

    def __init__(self, call: str, object_type: str, object_id: object) -> None:
        super().__init__(
            "Catalog error",
            grpc_failed(call, "NotFound"),
            f"{object_type} id not found: {object_id}",
        )


class MetaInvalidParameter(RwError):
    """A meta `bail_invalid_parameter!` (src/meta/src/error.rs:72-73) lifted out of its status
    by the frontend as InvalidParameterValue (src/frontend/src/error.rs:213-226)."""

    def __init__(self, message: str) -> None:
        self.meta_message = message
        super().__init__(f"Invalid parameter value: Invalid parameter: {message}")


class FeatureNotAvailable(RwError):
    """A paid feature checked under a Free license (an empty ``license_key``):
    FeatureNotAvailable::NotAvailable (src/license/src/feature.rs:72-80)."""

    def __init__(self, feature: str) -> None:
        super().__init__(
            f"feature {feature} is not available based on your license\n\n"
            "Hint: You may want to set a license key with `ALTER SYSTEM SET license_key = "
            "'...';` command. For more information, visit https://go.risingwave.com/premium."
        )


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


class HandlerPanicked(RwError):
    """A panic inside a statement's handler, caught by pgwire: ``Panicked when handling the
    request: <panic message>`` and the bug-report line, sent without an envelope, after which
    the connection is closed (PsqlError::Panic, src/utils/pgwire/src/error.rs:67-70;
    pg_protocol.rs:421-428, 537-551).  RisingWave panics this way on statements it parses but
    does not handle, e.g. GRANT REFERENCES (user_privilege.rs get_prost_action's
    ``unreachable!()``)."""

    closes_connection: ClassVar[bool] = True

    def __init__(self, message: str) -> None:
        super().__init__(
            f"Panicked when handling the request: {message}\nThis is a bug. We would appreciate a"
            " bug report at:\n  https://github.com/risingwavelabs/risingwave/issues/new?labels="
            "type%2Fbug&template=bug_report.yml"
        )

    def report(self, envelope: str | None = None) -> str:
        return self.compact()


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


class SqlParserError(RwError):
    """`sql parser error: <msg>` (src/sqlparser/src/parser.rs:149-160).

    For parser errors ``<msg>`` is ``expected <what>, found: <token>`` followed by the
    ``LINE <n>: <line>`` context and a caret line (parser.rs:201-228); for tokenizer errors it is
    ``<message> at line <l>, column <c>`` and the same context (tokenizer.rs:301-308, 741-752).
    """

    def __init__(self, message: str) -> None:
        super().__init__(f"sql parser error: {message}")
        # (signature of the consumed prefix, query string, token found) of an ``expected``
        # error, which a release's parser may word otherwise (Release.parse_expected)
        self.relocate: tuple[str, str, Any] | None = None


class StartupOptionError(FatalError):
    """A bad StartupMessage ``options`` entry or value: ``Failed to start a new session`` and
    its cause (src/utils/pgwire/src/error.rs:25-30; options parsing pg_protocol.rs:1590-1660,
    applied at :742-755)."""

    def __init__(self, *causes: str) -> None:
        super().__init__("Failed to start a new session", *causes)


# --- engine errors (rwshim/engine) ----------------------------------------------------------

# gRPC paths of the meta calls whose failures the engine reports (proto/ddl_service.proto:747-802;
# the path is recorded by src/rpc_client/src/channel.rs:56-68).
DDL = "/ddl_service.DdlService/"


class RescheduleBlocked(MetaRpcError):
    """Error 1: `Cannot alter the job {id} because it is blocked by creating unreschedulable
    backfill jobs` (src/meta/src/stream/stream_manager.rs:935-938)."""

    def __init__(self, call: str, job_id: int) -> None:
        super().__init__(
            call,
            f"Cannot alter the job {job_id} because it is blocked by creating "
            "unreschedulable backfill jobs",
        )


class NonReschedulableBackgroundJob(MetaRpcError):
    """The releases' refusal of a reschedule of a creating background job whose backfill
    cannot be rescheduled: `Cannot alter the job {id} because it is a non-reschedulable
    background backfill job` (v2.8.5:src/meta/src/stream/stream_manager.rs:819 for SET
    PARALLELISM; v3.0.3:stream_manager.rs:858 for SET BACKFILL_PARALLELISM)."""

    def __init__(self, call: str, job_id: int) -> None:
        super().__init__(
            call,
            f"Cannot alter the job {job_id} because it is a non-reschedulable background "
            "backfill job",
        )


class BackfillNotOnlineReschedulable(MetaRpcError):
    """Error 2: the creating job's backfill scan cannot be rescheduled online
    (src/meta/src/stream/stream_manager.rs:977-981)."""

    def __init__(self, job_id: int) -> None:
        super().__init__(
            DDL + "AlterBackfillParallelism",
            f"Cannot alter the job {job_id} because its creating backfill contains a scan "
            "type that does not support online rescheduling",
        )


class SnapshotBackfillWhenPaused(MetaRpcError):
    """Error 3: a snapshot-backfill or batch-refresh create reaches the barrier of a paused
    database (src/meta/src/barrier/checkpoint/control.rs:1285-1300)."""

    def __init__(self, call: str) -> None:
        super().__init__(call, "cannot create streaming job with snapshot backfill when paused")


class BatchRefreshWhenPaused(MetaRpcError):
    """Error 5: the apply-time check of a batch-refresh create
    (src/meta/src/barrier/checkpoint/state.rs:650-660)."""

    def __init__(self, call: str) -> None:
        super().__init__(call, "cannot create batch refresh job while database barrier is paused")


class AlterParallelismExceedsMax(MetaRpcError):
    """Error 4, ALTER origin: a plain `bail!` in ScaleController::reschedule_inplace
    (src/meta/src/stream/scale.rs:243-249) or, for backfill, :304-310."""

    def __init__(self, n: int, max_parallelism: int, *, backfill: bool) -> None:
        what = "backfill parallelism" if backfill else "parallelism"
        call = DDL + ("AlterBackfillParallelism" if backfill else "AlterParallelism")
        super().__init__(
            call, f"specified {what} {n} should not exceed max parallelism {max_parallelism}"
        )


class CreateParallelismExceedsMax(MetaInvalidParameter):
    """Error 4, CREATE origin: `bail_invalid_parameter!` in validate_specified_parallelism
    (src/meta/src/rpc/ddl_controller.rs:368-385)."""

    def __init__(self, n: int, max_parallelism: int, *, backfill: bool) -> None:
        what = "backfill parallelism" if backfill else "parallelism"
        super().__init__(
            f"specified {what} {n} should not exceed max parallelism {max_parallelism}"
        )


class RescheduleRejectedAtBarrier(MetaRpcError):
    """Error 6: the barrier worker rejects a resolved reschedule touching jobs blocked by
    in-flight snapshot-backfill jobs (src/meta/src/barrier/checkpoint/control.rs:1247-1262);
    the set prints as Rust's Debug of a HashSet of ids (here sorted)."""

    def __init__(self, call: str, job_ids: list[int]) -> None:
        ids = ", ".join(str(i) for i in sorted(job_ids))
        super().__init__(
            call,
            f"cannot reschedule jobs {{{ids}}} when creating jobs with unreschedulable "
            "backfill fragments",
        )


class RescheduleRejectedWhileSnapshotBackfill(MetaRpcError):
    """v2.8.5's barrier-level rejection: any reschedule command of a database while one of its
    snapshot-backfill jobs is creating (v2.8.5:src/meta/src/barrier/checkpoint/control.rs:
    1121-1134)."""

    def __init__(self, call: str) -> None:
        super().__init__(
            call, "cannot reschedule when creating streaming job with snapshot backfill"
        )


class CreateCancelled(RwError):
    """A CREATE whose job was cancelled (CANCEL JOBS, DROP of the creating job) while its
    session waited: meta returns `MetaError::cancelled("create")`
    (src/meta/src/stream/stream_manager.rs:522-523), gRPC Cancelled, which the frontend makes a
    SchedulerError (src/frontend/src/error.rs:222); Cancelled provides no SQLSTATE."""

    def __init__(self, call: str) -> None:
        super().__init__("Scheduler error", grpc_failed(call, "Cancelled"), "Cancelled: create")


class MetaCatalogDuplicated(RwError):
    """Meta's own duplicate check (src/meta/src/controller/utils.rs:717-783) catching a job the
    frontend could not see (INITIAL): `MetaError::catalog_under_creation`, gRPC AlreadyExists,
    which the frontend wraps as a CatalogError (src/frontend/src/error.rs:221) keeping the
    status's code 42710 (src/meta/src/error.rs:159-161); the type word is meta's ObjectType
    (`table` also for a materialized view).  ``creating`` False: a plain
    `MetaError::catalog_duplicated` (meta's checks on a rename, error.rs:83-89)."""

    sqlstate: ClassVar[str] = "42710"

    def __init__(self, call: str, object_type: str, name: str, *, creating: bool = True) -> None:
        super().__init__(
            "Catalog error",
            grpc_failed(call, "AlreadyExists"),
            f"{object_type} named {name} already exists"
            + (" and is still being created" if creating else ""),
        )


class MetaPermissionDenied(PermissionDenied):
    """A meta `MetaError::permission_denied` (gRPC PermissionDenied) shown by the frontend as
    `Permission denied: <message>` (src/meta/src/error.rs:201-216,
    src/frontend/src/error.rs:213-226)."""


class DropDependedOn(MetaPermissionDenied):
    """DROP without CASCADE of an object others depend on
    (src/meta/src/controller/utils.rs:975-990)."""

    def __init__(self, object_type: str, details: list[str], *, hint: str | None = None) -> None:
        hint = hint or "HINT:  Use DROP ... CASCADE to drop the dependent objects too."
        super().__init__(
            f"{object_type} used by {len(details)} other objects. \nDETAIL: "
            + "\n".join(details)
            + "\n"
            + hint
        )


class StoreUnusable(FatalError):
    """rwshim only (no RisingWave counterpart): the data directory holds a file that is not an
    rwshim meta store, or one written by a newer rwshim.  Raised at startup, never overwritten."""


class StoreWriteFailed(RwError):
    """The meta store's file could not be written (a full disk, a file-size limit, an I/O
    error): nothing of the statement was committed.  RisingWave's meta store is an external
    database and has no text of its own for this, so the text is PostgreSQL's for a write
    that failed (src/backend/storage/smgr/md.c ``could not extend file``/``could not write
    to file "%s": %m``): SQLSTATE 53100 (disk_full) with ``No space left on device``, or
    58030 (io_error) with ``Input/output error``, and PostgreSQL's HINT for a full disk."""

    def __init__(self, file: str, *, disk_full: bool) -> None:
        if disk_full:
            super().__init__(
                f'could not write to file "{file}": No space left on device\n'
                "HINT: Check free disk space.",
                sqlstate="53100",
            )
        else:
            super().__init__(
                f'could not write to file "{file}": Input/output error', sqlstate="58030"
            )


# --- read path errors (rwshim/query) --------------------------------------------------------


class BindExprError(RwError):
    """`Failed to bind expression: <expr>` over its cause (ErrorCode::BindErrorRoot,
    src/frontend/src/error.rs:123-129, attached by Binder::bind_expr at
    src/frontend/src/binder/expr/mod.rs:57-64).  ``cause`` is the inner RwError."""

    def __init__(self, expr: str, cause: RwError) -> None:
        super().__init__(f"Failed to bind expression: {expr}", *cause.chain, sqlstate=cause.code)
        self.cause = cause


class InsertViolation(RwError):
    """`Invalid insert operation: <s>` (src/frontend/src/error.rs:159-160), e.g. a value for a
    generated column (src/frontend/src/binder/insert.rs:181-184)."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"Invalid insert operation: {detail}")


class ItemNotFound(RwError):
    """`Item not found: <s>` (src/frontend/src/error.rs:156), e.g. `Invalid column: v1`
    (src/frontend/src/binder/bind_context.rs:247) or `missing FROM-clause entry for table "t"`
    (bind_context.rs:446-449)."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"Item not found: {detail}")


class InvalidReference(RwError):
    """`Invalid reference: <s>` (src/frontend/src/error.rs:154), e.g. `column reference "a" is
    ambiguous` (src/frontend/src/binder/bind_context.rs:484-487)."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"Invalid reference: {detail}")


class InternalError(RwError):
    """`internal error: <s>` (src/frontend/src/error.rs:44), e.g. `Ambiguous column name: a`
    (src/frontend/src/binder/bind_context.rs:262-265)."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"internal error: {detail}")


class ExprError(RwError):
    """`Expr error` over `error while evaluating expression `<f>('<a>', '<b>')`` and the cause
    (src/frontend/src/error.rs:72-77; src/expr/core/src/error.rs:58-68; shown in
    e2e_test/error_ui/simple/main.slt:46-55), e.g. `Division by zero`,
    `Numeric out of range`."""

    def __init__(self, evaluating: str, cause: str) -> None:
        super().__init__("Expr error", f"error while evaluating expression `{evaluating}`", cause)


class NoFunction(RwError):
    """`function <sig> does not exist` (src/frontend/src/error.rs NoFunction, rendered by
    src/frontend/src/expr/type_inference/func.rs) under Failed to bind expression."""

    sqlstate: ClassVar[str] = "42883"

    def __init__(self, signature: str) -> None:
        super().__init__(f"function {signature} does not exist")


# --- reliability (rel): limits ---------------------------------------------------------------


class StackDepthExceeded(RwError):
    """PostgreSQL's ``stack depth limit exceeded`` (54001, src/backend/tcop/postgres.c
    check_stack_depth) for a statement nested deeper than rwshim's parsers can walk
    (``rwshim/sql/limits.py``).  RisingWave at 448c657 has no depth bound and no text for it:
    it grows its stack (src/common/src/util/recursive.rs)."""

    sqlstate: ClassVar[str] = "54001"

    def __init__(self) -> None:
        super().__init__("stack depth limit exceeded")


class QueryTimeout(RwError):
    """A batch query ran past ``statement_timeout`` (or the batch default of one hour when it
    is 0): the local scheduler's ``SchedulerError::QueryCancelled(format!("timeout after {}
    seconds", timeout.as_secs()))`` (src/frontend/src/scheduler/local.rs:174-186, text
    scheduler/error.rs:43-44), made an ``ErrorCode::SchedulerError``.  DML is never timed out
    (handler/query.rs:501-512)."""

    def __init__(self, seconds: int) -> None:
        super().__init__("Scheduler error", f"Query cancelled: timeout after {seconds} seconds")
