"""Session variables as RisingWave has them: names, aliases, defaults, parsing, checks, errors.

The table below is RisingWave's ``SessionConfig`` (src/common/src/session_config/mod.rs at
448c657): every entry's name (``rename`` or the lower-cased field), alias, default as SHOW
prints it, flags, check hook, deprecation notice and description (its doc comment, lines
trimmed and joined with a space, as the proc macro does: src/common/proc_macro/src/
session_config.rs).  Parsing and display follow each entry type's ``FromStr``/``Display``.

Errors are ``SessionConfigError`` chains (src/common/src/session_config/mod.rs:52-63):
``Failed to get or set session config`` / ``Invalid value `<v>` for `<entry>``` / causes.  A
parse failure quotes the raw input; a check-hook failure quotes the parsed value's display.

Pure: no I/O; imports only rwshim.errors.
"""

from __future__ import annotations

import math
import re
import struct
import zoneinfo
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

from rwshim.errors import SessionConfigError, StartupOptionError

LIST_SEP = ", "  # SESSION_CONFIG_LIST_SEP (mod.rs:50)
VNODE_MAX_COUNT = 32768  # src/common/src/hash/consistent_hash/vnode.rs:79


class InvalidValue(Exception):
    """A value that does not parse or pass a check: the causes below `Invalid value ...`.

    ``compact()`` is the one-line form RisingWave's handlers embed, e.g. the ALTER ... SET
    PARALLELISM error ``... or ratio(r): Parse error: invalid digit found in string``.
    """

    def __init__(self, *causes: str, checked: bool = False) -> None:
        super().__init__(*causes)
        self.causes = list(causes)

    def compact(self) -> str:
        return ": ".join(self.causes)


@dataclass(frozen=True, slots=True)
class Var:
    """One session variable (a field of RisingWave's SessionConfig)."""

    name: str
    kind: str
    default: str
    alias: str | None = None
    flags: str = ""
    check: str | None = None
    deprecated: str | None = None
    doc: str = ""


# ---------------------------------------------------------------------------- value parsing
# Each parser takes the raw text and returns the display of the parsed value, or raises
# InvalidValue with the error chain RisingWave's FromStr gives.

_I32 = (-(2**31), 2**31 - 1)
_U32 = (0, 2**32 - 1)
_U64 = (0, 2**64 - 1)


def _rust_int(s: str, lo: int, hi: int) -> int:
    """Rust's ``str::parse`` for integers, with its ParseIntError texts."""
    if s == "":
        raise InvalidValue("cannot parse integer from empty string")
    body = s[1:] if s[0] in "+-" else s
    if s[0] == "-" and lo == 0:
        raise InvalidValue("invalid digit found in string")
    if body == "" or not body.isascii() or not body.isdigit():
        raise InvalidValue("invalid digit found in string")
    n = int(s)
    if n > hi:
        raise InvalidValue("number too large to fit in target type")
    if n < lo:
        raise InvalidValue("number too small to fit in target type")
    return n


def _bool(s: str) -> str:
    t = s.strip().lower()
    if t in ("true", "tru", "tr", "t", "on", "1", "yes", "ye", "y"):
        return "true"
    if t in ("false", "fals", "fal", "fa", "f", "off", "of", "0", "no", "n"):
        return "false"
    raise InvalidValue("Invalid bool")


def _f32_display(x: float) -> str:
    """Rust's Display of an f32: the shortest decimal that reads back as the same f32, never
    in exponent form (``1`` for 1.0, ``0.5``, ``-0`` for negative zero)."""
    f = struct.unpack("f", struct.pack("f", x))[0]
    if f == 0:
        return "-0" if math.copysign(1.0, f) < 0 else "0"
    cand = repr(f)
    for prec in range(1, 10):
        cand = f"{f:.{prec}g}"
        if struct.unpack("f", struct.pack("f", float(cand)))[0] == f:
            break
    text = format(Decimal(cand), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


_BOUNDED = re.compile(r"^bounded\((\d+)\)$")
_RATIO = re.compile(r"^ratio\(([+-]?\d+(?:\.\d+)?)\)$")


def parallelism(s: str) -> str:
    """ConfigParallelism (session_config/parallelism.rs:65-94); returns its Display
    (``default``, ``adaptive``, ``n``, ``bounded(n)``, ``ratio(r)``) or raises InvalidValue.
    The engine reads ALTER ... SET PARALLELISM values with it too."""
    low = s.lower()
    if low == "default":
        return "default"
    if low in ("adaptive", "auto", "full"):
        return "adaptive"
    m = _BOUNDED.match(low)
    if m:
        try:
            n = _rust_int(m.group(1), 0, 2**64 - 1)
        except InvalidValue as e:
            raise InvalidValue("Parse error", *e.causes) from None
        if n == 0:
            raise InvalidValue("Invalid value for Bounded strategy: must be positive integer")
        return f"bounded({n})"
    m = _RATIO.match(low)
    if m:
        r = float(m.group(1))
        r32 = struct.unpack("f", struct.pack("f", r))[0]
        if not (0.0 <= r32 <= 1.0) or math.isnan(r32):
            raise InvalidValue("Invalid value for Ratio strategy: must be between 0.0 and 1.0")
        return f"ratio({_f32_display(r32)})"
    try:
        n = _rust_int(s, *_U64)
    except InvalidValue as e:
        raise InvalidValue("Parse error", *e.causes) from None
    return "adaptive" if n == 0 else str(n)


def _enum(
    options: dict[str, str], err: str, fold: Callable[[str], str] = str.lower
) -> Callable[[str], str]:
    def parse(s: str) -> str:
        key = fold(s)
        if key not in options:
            raise InvalidValue(err)
        return options[key]

    return parse


def _optional(inner: Callable[[str], str]) -> Callable[[str], str]:
    def parse(s: str) -> str:
        return "" if s == "" else inner(s)

    return parse


def _statement_timeout(s: str) -> str:
    s = s.strip()
    if s == "0":
        return "0ms"
    idx = next((i for i, c in enumerate(s) if not c.isnumeric()), None)
    val, unit = (s, "ms") if idx is None else (s[:idx], s[idx:])
    try:
        n = _rust_int(val, *_U32)
    except InvalidValue:
        raise InvalidValue(f'parsing u32 failed: "{val}"') from None
    mul = {"ms": 1, "s": 1000, "min": 60_000, "h": 3_600_000, "d": 86_400_000}.get(unit.strip())
    if mul is None:
        raise InvalidValue(f'invalid time unit: "{unit}"')
    if n * mul > _U32[1]:
        raise InvalidValue("overflow")
    return f"{n * mul}ms"


def _search_path(s: str) -> str:
    parts = [p.strip() for p in s.split(LIST_SEP)]
    return LIST_SEP.join(p for p in parts if p)


def _int(lo: int, hi: int) -> Callable[[str], str]:
    return lambda s: str(_rust_int(s, lo, hi))


_PARSERS: dict[str, Callable[[str], str]] = {
    "bool": _bool,
    "i32": _int(*_I32),
    "u32": _int(*_U32),
    "u64": _int(*_U64),
    "usize": _int(*_U64),
    "str": lambda s: s,
    "non_zero_u64": _int(*_U64),
    "opt_usize": _optional(_int(*_U64)),
    "parallelism": parallelism,
    "backfill_parallelism": parallelism,
    "search_path": _search_path,
    "statement_timeout": _statement_timeout,
    "query_mode": _enum(
        {"local": "local", "distributed": "distributed", "auto": "auto"},
        "expect one of [local, distributed, auto]",
    ),
    "iceberg_query_storage_mode": _enum(
        {"auto": "auto", "iceberg": "iceberg", "hummock": "hummock"},
        "expect one of [auto, iceberg, hummock]",
    ),
    "visibility_mode": _enum(
        {"all": "all", "checkpoint": "checkpoint", "default": "default"},
        "expect one of [all, checkpoint, default]",
    ),
    "isolation_level": _enum(
        {k: k for k in ("read committed", "read uncommitted", "repeatable read", "serializable")},
        "expect one of [read committed, read uncommitted, repeatable read, serializable]",
    ),
    "sink_decouple": _enum(
        {
            "true": "enable",
            "enable": "enable",
            "false": "disable",
            "disable": "disable",
            "default": "default",
        },
        "expect one of [true, enable, false, disable, default]",
    ),
    "locality_backfill_mode": _enum(
        {"auto": "auto", "always": "always"}, "expect one of [auto, always]"
    ),
    "opt_join_encoding": _optional(
        _enum(
            {"memory_optimized": "memory_optimized", "cpu_optimized": "cpu_optimized"},
            "expect one of [memory_optimized, cpu_optimized]",
        )
    ),
    "opt_over_window_cache_policy": _optional(
        _enum(
            {k: k for k in ("full", "recent", "recent_first_n", "recent_last_n")},
            "expect one of [full, recent, recent_first_n, recent_last_n]",
            fold=lambda s: s.lower().replace("-", "_"),
        )
    ),
    "opt_cache_refill_policy": _optional(
        _enum(
            {k: k for k in ("enabled", "disabled", "streaming", "serving", "both")},
            "expect one of [enabled, disabled, streaming, serving, both]",
            fold=lambda s: s.lower().replace("-", "_"),
        )
    ),
}


# ---------------------------------------------------------------------------- check hooks
# (session_config/mod.rs:555-620); each raises InvalidValue with its message.


def _check_timezone(v: str) -> None:
    zones = _timezones()
    # Without a tz database on this host, accept what looks like a zone name rather than
    # reject every zone but UTC.
    known = v.lower() in zones if len(zones) > 3 else bool(_ZONE_LIKE.fullmatch(v))
    if not known:
        raise InvalidValue("Not a valid timezone")


_ZONE_LIKE = re.compile(r"[A-Za-z][A-Za-z0-9_+\-]*(?:/[A-Za-z0-9_+\-]+)*")
_TZ_CACHE: set[str] = set()


def _timezones() -> set[str]:
    """IANA zone names, lower-cased (chrono-tz's from_str_insensitive accepts any case)."""
    if not _TZ_CACHE:
        _TZ_CACHE.update(z.lower() for z in zoneinfo.available_timezones())
        _TZ_CACHE.update({"utc", "gmt", "etc/utc"})
    return _TZ_CACHE


def _check_client_encoding(v: str) -> None:
    if re.sub(r"[^A-Za-z0-9]", "", v).upper() != "UTF8":
        raise InvalidValue("Only support 'UTF8' for CLIENT_ENCODING")


def _check_bytea_output(v: str) -> None:
    if v != "hex":
        raise InvalidValue("Only support 'hex' for BYTEA_OUTPUT")


def _check_streaming_max_parallelism(v: str) -> None:
    n = int(v)
    if n in (0, 1):
        raise InvalidValue("STREAMING_MAX_PARALLELISM must be greater than 1")
    if n > VNODE_MAX_COUNT:
        raise InvalidValue(
            f"STREAMING_MAX_PARALLELISM must be less than or equal to {VNODE_MAX_COUNT}"
        )


def _check_streaming_parallelism_for_backfill(v: str) -> None:
    if v != "default" and not v.isdigit():
        raise InvalidValue(
            "Only `default` or fixed backfill parallelism is supported here; adaptive backfill "
            "strategy is deferred to a later change."
        )


def _check_iceberg_engine_connection(v: str) -> None:
    if v and len(v.split(".")) != 2:
        raise InvalidValue(
            "Invalid iceberg engine connection format, Should be set to this format: "
            "schema_name.connection_name."
        )


_CHECKS: dict[str, Callable[[str], None]] = {
    "check_timezone": _check_timezone,
    "check_client_encoding": _check_client_encoding,
    "check_bytea_output": _check_bytea_output,
    "check_streaming_max_parallelism": _check_streaming_max_parallelism,
    "check_streaming_parallelism_for_backfill": _check_streaming_parallelism_for_backfill,
    "check_iceberg_engine_connection": _check_iceberg_engine_connection,
}

_TABLE: tuple[Var, ...] = (
    Var(
        "implicit_flush",
        "bool",
        "false",
        alias="rw_implicit_flush",
        doc=(
            "If `RW_IMPLICIT_FLUSH` is on, then every INSERT/UPDATE/DELETE statement will "
            "block until the entire dataflow is refreshed. In other words, every related "
            "table & MV will be able to see the write."
        ),
    ),
    Var(
        "dml_wait_persistence",
        "bool",
        "false",
        doc=(
            "If `DML_WAIT_PERSISTENCE` is on, then every INSERT/UPDATE/DELETE statement "
            "waits until the transaction is included in a checkpoint. This is ignored when "
            "`IMPLICIT_FLUSH` is on."
        ),
    ),
    Var(
        "create_compaction_group_for_mv",
        "bool",
        "false",
        doc=(
            "If `CREATE_COMPACTION_GROUP_FOR_MV` is on, dedicated compaction groups will "
            "be created in MV creation."
        ),
    ),
    Var(
        "query_mode",
        "query_mode",
        "auto",
        doc=(
            "A temporary config variable to force query running in either local or "
            "distributed mode. The default value is auto which means let the system decide "
            "to run batch queries in local or distributed mode automatically."
        ),
    ),
    Var(
        "iceberg_query_storage_mode",
        "iceberg_query_storage_mode",
        "iceberg",
        doc=(
            "For Iceberg engine tables, which storage to use for batch SELECT: Iceberg "
            "(columnar) or Hummock (row). Only affects batch SELECT on tables with ENGINE "
            "= ICEBERG."
        ),
    ),
    Var(
        "extra_float_digits",
        "i32",
        "1",
        doc=(
            "Sets the number of digits displayed for floating-point values. See "
            "<https://www.postgresql.org/docs/current/runtime-config-client.html#:~:text=fo"
            "r%20more%20information.-,extra_float_digits,-(integer)>"
        ),
    ),
    Var(
        "application_name",
        "str",
        "",
        flags="REPORT",
        doc=(
            "Sets the application name to be reported in statistics and logs. See "
            "<https://www.postgresql.org/docs/14/runtime-config-logging.html#:~:text=What%2"
            "0to%20Log-,application_name,-(string)>"
        ),
    ),
    Var(
        "datestyle",
        "str",
        "",
        doc=(
            "It is typically set by an application upon connection to the server. see "
            "<https://www.postgresql.org/docs/current/runtime-config-client.html#GUC-DATEST"
            "YLE>"
        ),
    ),
    Var(
        "batch_enable_lookup_join",
        "bool",
        "true",
        alias="rw_batch_enable_lookup_join",
        doc=(
            "Force the use of lookup join instead of hash join when possible for local "
            "batch execution."
        ),
    ),
    Var(
        "batch_enable_sort_agg",
        "bool",
        "true",
        alias="rw_batch_enable_sort_agg",
        doc=(
            "Enable usage of sortAgg instead of hash agg when order property is satisfied "
            "in batch execution"
        ),
    ),
    Var(
        "batch_enable_distributed_dml",
        "bool",
        "false",
        doc=(
            "Enable distributed DML, so an insert, delete, and update statement can be "
            "executed in a distributed way (e.g. running in multiple compute nodes). No "
            "atomicity guarantee in this mode. Its goal is to gain the best ingestion "
            "performance for initial batch ingestion where users always can drop their "
            "table when failure happens."
        ),
    ),
    Var(
        "batch_expr_strict_mode",
        "bool",
        "true",
        doc=(
            "Evaluate expression in strict mode for batch queries. If set to false, an "
            "expression failure will not cause an error but leave a null value on the "
            "result set."
        ),
    ),
    Var(
        "max_split_range_gap",
        "i32",
        "8",
        doc="The max gap allowed to transform small range scan into multi point lookup.",
    ),
    Var(
        "search_path",
        "search_path",
        '"$user", public',
        doc=(
            "Sets the order in which schemas are searched when an object (table, data "
            "type, function, etc.) is referenced by a simple name with no schema "
            "specified. See <https://www.postgresql.org/docs/14/runtime-config-client.html#"
            "GUC-SEARCH-PATH>"
        ),
    ),
    Var(
        "visibility_mode",
        "visibility_mode",
        "default",
        doc="If `VISIBILITY_MODE` is all, we will support querying data without checkpoint.",
    ),
    Var(
        "transaction_isolation",
        "isolation_level",
        "read committed",
        doc="See <https://www.postgresql.org/docs/current/transaction-iso.html>",
    ),
    Var(
        "query_epoch",
        "non_zero_u64",
        "0",
        doc=(
            "Select as of specific epoch. Sets the historical epoch for querying data. If "
            "0, querying latest data."
        ),
    ),
    Var(
        "timezone",
        "str",
        "UTC",
        check="check_timezone",
        doc="Session timezone. Defaults to UTC.",
    ),
    Var(
        "streaming_parallelism",
        "parallelism",
        "default",
        flags="SESSION_INIT",
        doc=(
            "The execution parallelism for streaming queries, including tables, "
            "materialized views, indexes, and sinks. Defaults to `default`, which "
            "preserves the legacy adaptive scheduling behavior during effective resolution."
        ),
    ),
    Var(
        "streaming_parallelism_for_backfill",
        "backfill_parallelism",
        "default",
        flags="SESSION_INIT",
        check="check_streaming_parallelism_for_backfill",
        doc=(
            "Specific parallelism for backfill. Only `default` and a fixed positive "
            "integer are supported here. Adaptive backfill strategies are deferred to a "
            "later change."
        ),
    ),
    Var(
        "streaming_parallelism_for_table",
        "parallelism",
        "default",
        flags="SESSION_INIT",
        doc=(
            "Specific parallelism for table. Defaults to `default`, which preserves the "
            "legacy bounded adaptive behavior only when the global parallelism itself "
            "remains `default`. Otherwise it follows the explicit global parallelism."
        ),
    ),
    Var(
        "streaming_parallelism_for_sink",
        "parallelism",
        "default",
        flags="SESSION_INIT",
        doc=(
            "Specific parallelism for sink. By default, it will fall back to "
            "`STREAMING_PARALLELISM`."
        ),
    ),
    Var(
        "streaming_parallelism_for_index",
        "parallelism",
        "default",
        flags="SESSION_INIT",
        doc=(
            "Specific parallelism for index. By default, it will fall back to "
            "`STREAMING_PARALLELISM`."
        ),
    ),
    Var(
        "streaming_parallelism_for_source",
        "parallelism",
        "default",
        flags="SESSION_INIT",
        doc=(
            "Specific parallelism for source. Defaults to `default`, which preserves the "
            "legacy bounded adaptive behavior only when the global parallelism itself "
            "remains `default`. Otherwise it follows the explicit global parallelism."
        ),
    ),
    Var(
        "streaming_parallelism_for_materialized_view",
        "parallelism",
        "default",
        flags="SESSION_INIT",
        doc=(
            "Specific parallelism for materialized view. By default, it will fall back to "
            "`STREAMING_PARALLELISM`."
        ),
    ),
    Var(
        "streaming_enable_delta_join",
        "bool",
        "false",
        alias="rw_streaming_enable_delta_join",
        doc="Enable delta join for streaming queries. Defaults to false.",
    ),
    Var(
        "streaming_enable_bushy_join",
        "bool",
        "true",
        alias="rw_streaming_enable_bushy_join",
        doc="Enable bushy join for streaming queries. Defaults to true.",
    ),
    Var(
        "streaming_force_filter_inside_join",
        "bool",
        "false",
        alias="rw_streaming_force_filter_inside_join",
        doc=(
            "Force filtering to be done inside the join whenever there's a choice between "
            "optimizations. Defaults to false."
        ),
    ),
    Var(
        "streaming_use_arrangement_backfill",
        "bool",
        "true",
        deprecated=(
            "The session variable STREAMING_USE_ARRANGEMENT_BACKFILL has been deprecated and "
            "is ignored. Arrangement backfill is always used as the fallback backfill type for "
            "new streaming jobs."
        ),
        doc=(
            "Deprecated. Arrangement backfill is always used as the fallback backfill type "
            "for new streaming jobs, and this setting is ignored."
        ),
    ),
    Var(
        "streaming_use_snapshot_backfill",
        "bool",
        "true",
        doc="",
    ),
    Var(
        "enable_serverless_backfill",
        "bool",
        "false",
        doc="Enable serverless backfill for streaming queries. Defaults to false.",
    ),
    Var(
        "streaming_allow_jsonb_in_stream_key",
        "bool",
        "false",
        alias="rw_streaming_allow_jsonb_in_stream_key",
        doc="Allow `jsonb` in stream key",
    ),
    Var(
        "streaming_unsafe_allow_unmaterialized_impure_expr",
        "bool",
        "false",
        doc=(
            "Unsafe: allow impure expressions on non-append-only streams without "
            "materialization.  This may lead to inconsistent results or panics due to "
            "re-evaluation on updates/retracts."
        ),
    ),
    Var(
        "streaming_unsafe_allow_upsert_sink_pk_mismatch",
        "bool",
        "false",
        doc=(
            "Unsafe: allow an upsert sink to use downstream primary-key columns that are "
            "not part of the upstream stream key.  This may leave stale rows in the "
            "downstream system if a downstream primary-key column changes without the "
            "upsert stream providing its old value."
        ),
    ),
    Var(
        "streaming_separate_consecutive_join",
        "bool",
        "false",
        doc="Separate consecutive `StreamHashJoin` by no-shuffle `StreamExchange`",
    ),
    Var(
        "streaming_separate_sink",
        "bool",
        "false",
        doc="Separate `StreamSink` by no-shuffle `StreamExchange`",
    ),
    Var(
        "streaming_join_encoding",
        "opt_join_encoding",
        "",
        doc=(
            "Determine which encoding will be used to encode join rows in operator cache.  "
            "This overrides the corresponding entry from the `[streaming.developer]` "
            "section in the config file, taking effect for new streaming jobs created in "
            "the current session."
        ),
    ),
    Var(
        "enable_join_ordering",
        "bool",
        "true",
        alias="rw_enable_join_ordering",
        doc="Enable join ordering for streaming and batch queries. Defaults to true.",
    ),
    Var(
        "enable_two_phase_agg",
        "bool",
        "true",
        alias="rw_enable_two_phase_agg",
        flags="SETTER",
        doc=(
            "Enable two phase agg optimization. Defaults to true. Setting this to true "
            "will always set `FORCE_TWO_PHASE_AGG` to false."
        ),
    ),
    Var(
        "force_two_phase_agg",
        "bool",
        "false",
        alias="rw_force_two_phase_agg",
        flags="SETTER",
        doc=(
            "Force two phase agg optimization whenever there's a choice between "
            "optimizations. Defaults to false. Setting this to true will always set "
            "`ENABLE_TWO_PHASE_AGG` to false."
        ),
    ),
    Var(
        "enable_share_plan",
        "bool",
        "true",
        alias="rw_enable_share_plan",
        doc=(
            "Enable sharing of common sub-plans. This means that DAG structured query "
            "plans can be constructed, rather than only tree structured query plans."
        ),
    ),
    Var(
        "force_split_distinct_agg",
        "bool",
        "false",
        alias="rw_force_split_distinct_agg",
        doc="Enable split distinct agg",
    ),
    Var(
        "intervalstyle",
        "str",
        "",
        doc=(
            "See <https://www.postgresql.org/docs/current/runtime-config-client.html#GUC-IN"
            "TERVALSTYLE>"
        ),
    ),
    Var(
        "batch_parallelism",
        "non_zero_u64",
        "0",
        doc="If `BATCH_PARALLELISM` is non-zero, batch queries will use this parallelism.",
    ),
    Var(
        "server_version",
        "str",
        "13.14.0",
        doc="The version of PostgreSQL that Risingwave claims to be.",
    ),
    Var(
        "server_version_num",
        "i32",
        "130014",
        doc="The version of PostgreSQL that Risingwave claims to be.",
    ),
    Var(
        "client_min_messages",
        "str",
        "notice",
        doc=(
            "see <https://www.postgresql.org/docs/15/runtime-config-client.html#GUC-CLIENT-"
            "MIN-MESSAGES>"
        ),
    ),
    Var(
        "client_encoding",
        "str",
        "UTF8",
        check="check_client_encoding",
        doc=(
            "see <https://www.postgresql.org/docs/15/runtime-config-client.html#GUC-CLIENT-"
            "ENCODING>"
        ),
    ),
    Var(
        "sink_decouple",
        "sink_decouple",
        "default",
        doc="Enable decoupling sink and internal streaming graph or not",
    ),
    Var(
        "synchronize_seqscans",
        "bool",
        "false",
        doc=(
            "See <https://www.postgresql.org/docs/current/runtime-config-compatible.html#RU"
            "NTIME-CONFIG-COMPATIBLE-VERSION> Unused in RisingWave, support for "
            "compatibility."
        ),
    ),
    Var(
        "statement_timeout",
        "statement_timeout",
        "0ms",
        doc=(
            "Abort query statement that takes more than the specified amount of time in "
            "sec. If `log_min_error_statement` is set to ERROR or lower, the statement "
            "that timed out will also be logged. If this value is specified without units, "
            "it is taken as milliseconds. A value of zero (the default) disables the "
            "timeout."
        ),
    ),
    Var(
        "idle_in_transaction_session_timeout",
        "u32",
        "60000",
        doc=(
            "Terminate any session that has been idle (that is, waiting for a client "
            "query) within an open transaction for longer than the specified amount of "
            "time in milliseconds."
        ),
    ),
    Var(
        "lock_timeout",
        "i32",
        "0",
        doc=(
            "See <https://www.postgresql.org/docs/current/runtime-config-client.html#GUC-LO"
            "CK-TIMEOUT> Unused in RisingWave, support for compatibility."
        ),
    ),
    Var(
        "cdc_source_wait_streaming_start_timeout",
        "i32",
        "60",
        doc=(
            "For limiting the startup time of a shareable CDC streaming source when the "
            "source is being created. Unit: seconds."
        ),
    ),
    Var(
        "row_security",
        "bool",
        "true",
        doc=(
            "see <https://www.postgresql.org/docs/current/runtime-config-client.html#GUC-RO"
            "W-SECURITY>. Unused in RisingWave, support for compatibility."
        ),
    ),
    Var(
        "standard_conforming_strings",
        "str",
        "on",
        doc=(
            "see <https://www.postgresql.org/docs/current/runtime-config-client.html#GUC-ST"
            "ANDARD-CONFORMING-STRINGS>"
        ),
    ),
    Var(
        "backfill_rate_limit",
        "i32",
        "-1",
        doc=(
            "Set streaming rate limit (rows per second) for each parallelism for mv / "
            "source / sink backfilling If set to -1, disable rate limit. If set to 0, this "
            "pauses the snapshot read / source read."
        ),
    ),
    Var(
        "source_rate_limit",
        "i32",
        "-1",
        doc=(
            "Set streaming rate limit (rows per second) for each parallelism for mv / "
            "source backfilling, source reads. If set to -1, disable rate limit. If set to "
            "0, this pauses the snapshot read / source read."
        ),
    ),
    Var(
        "dml_rate_limit",
        "i32",
        "-1",
        doc=(
            "Set streaming rate limit (rows per second) for each parallelism for table "
            "DML. If set to -1, disable rate limit. If set to 0, this pauses the DML."
        ),
    ),
    Var(
        "sink_rate_limit",
        "i32",
        "-1",
        doc=(
            "Set sink rate limit (rows per second) for each parallelism for external sink. "
            "If set to -1, disable rate limit. If set to 0, this pauses the sink."
        ),
    ),
    Var(
        "streaming_over_window_cache_policy",
        "opt_over_window_cache_policy",
        "",
        alias="rw_streaming_over_window_cache_policy",
        doc=(
            "Cache policy for partition cache in streaming over window. Can be `full`, "
            "`recent`, `recent_first_n` or `recent_last_n`.  This overrides the "
            "corresponding entry from the `[streaming.developer]` section in the config "
            "file, taking effect for new streaming jobs created in the current session."
        ),
    ),
    Var(
        "streaming_cache_refill_policy",
        "opt_cache_refill_policy",
        "",
        doc=(
            "Cache refill policy for streaming cache refill feature. Can be `enabled`, "
            "`disabled`, `streaming`, `serving` or `both`.  This overrides the "
            "corresponding entry from the `[streaming.developer]` section in the config "
            "file, taking effect for new streaming jobs created in the current session."
        ),
    ),
    Var(
        "background_ddl",
        "bool",
        "false",
        doc="Run DDL statements in background",
    ),
    Var(
        "streaming_use_shared_source",
        "bool",
        "true",
        doc=(
            "Enable shared source. Currently only for Kafka.  When enabled, `CREATE "
            "SOURCE` will create a source streaming job, and `CREATE MATERIALIZED VIEWS` "
            "from the source will forward the data from the same source streaming job, and "
            "also backfill prior data from the external source."
        ),
    ),
    Var(
        "streaming_asof_join_use_cache",
        "bool",
        "true",
        doc=(
            "Enable in-memory cache for `AsOf` join executor.  When enabled (default), "
            "`AsOf` join uses the cache-based implementation.  When disabled, `AsOf` join "
            "uses a no-cache implementation that directly queries the state table "
            "on-demand, reducing unnecessary data fetches for cache."
        ),
    ),
    Var(
        "server_encoding",
        "str",
        "UTF8",
        doc=(
            "Shows the server-side character set encoding. At present, this parameter can "
            "be shown but not set, because the encoding is determined at database creation "
            "time."
        ),
    ),
    Var(
        "bytea_output",
        "str",
        "hex",
        check="check_bytea_output",
        doc="",
    ),
    Var(
        "bypass_cluster_limits",
        "bool",
        "false",
        doc=(
            "Bypass checks on cluster limits  When enabled, `CREATE MATERIALIZED VIEW` "
            "will not fail if the cluster limit is hit."
        ),
    ),
    Var(
        "streaming_max_parallelism",
        "usize",
        "256",
        check="check_streaming_max_parallelism",
        doc=(
            "The maximum number of parallelism a streaming query can use. Defaults to 256. "
            " Compared to `STREAMING_PARALLELISM`, which configures the initial "
            "parallelism, this configures the maximum parallelism a streaming query can "
            "use in the future, if the cluster size changes or users manually change the "
            "parallelism with `ALTER .. SET PARALLELISM`.  It's not always a good idea to "
            "set this to a very large number, as it may cause performance degradation when "
            "performing range scans on the table or the materialized view."
        ),
    ),
    Var(
        "iceberg_engine_connection",
        "str",
        "",
        check="check_iceberg_engine_connection",
        doc=(
            "Used to provide the connection information for the iceberg engine. Format: "
            "`iceberg_engine_connection` = `schema_name.connection_name`."
        ),
    ),
    Var(
        "streaming_enable_unaligned_join",
        "bool",
        "false",
        doc="Whether the streaming join should be unaligned or not.",
    ),
    Var(
        "streaming_sync_log_store_pause_duration_ms",
        "opt_usize",
        "",
        doc=(
            "The timeout for reading from the buffer of the sync log store on barrier. "
            "Every epoch we will attempt to read the full buffer of the sync log store. If "
            "we hit the timeout, we will stop reading and continue.  This overrides the "
            "corresponding entry from the `[streaming.developer]` section in the config "
            "file, taking effect for new streaming jobs created in the current session."
        ),
    ),
    Var(
        "streaming_sync_log_store_buffer_size",
        "opt_usize",
        "",
        doc=(
            "The max buffer size for sync logstore, before we start flushing.  This "
            "overrides the corresponding entry from the `[streaming.developer]` section in "
            "the config file, taking effect for new streaming jobs created in the current "
            "session."
        ),
    ),
    Var(
        "disable_purify_definition",
        "bool",
        "false",
        flags="NO_ALTER_SYS",
        doc=(
            "Whether to disable purifying the definition of the table or source upon "
            "retrieval. Only set this if encountering issues with functionalities like "
            "`SHOW` or `ALTER TABLE/SOURCE`. This config may be removed in the future."
        ),
    ),
    Var(
        "batch_hnsw_ef_search",
        "usize",
        "40",
        doc="The `ef_search` used in querying hnsw vector index",
    ),
    Var(
        "enable_index_selection",
        "bool",
        "true",
        doc="Enable index selection for queries",
    ),
    Var(
        "enable_mv_selection",
        "bool",
        "false",
        doc="Enable mv selection for queries",
    ),
    Var(
        "enable_locality_backfill",
        "bool",
        "true",
        doc=(
            "Whether to enable locality backfill. When enabled, `locality_backfill_mode` "
            "controls whether it is selected automatically or always used."
        ),
    ),
    Var(
        "locality_backfill_mode",
        "locality_backfill_mode",
        "auto",
        doc=(
            "How to apply locality backfill when it is enabled. `auto` uses the estimated "
            "backfill size, while `always` skips the size check. Missing values from older "
            "versions mean `always` to preserve the previous boolean behavior."
        ),
    ),
    Var(
        "auto_locality_backfill_min_size",
        "u64",
        "10737418240",
        doc=(
            "Auto-enable locality backfill when estimated scan backfill data reaches this "
            "size in bytes. Defaults to 10 `GiB` (10737418240 bytes)."
        ),
    ),
    Var(
        "slow_ddl_notification_secs",
        "u32",
        "30",
        doc=(
            "Duration in seconds before notifying the user that a long-running DDL "
            "operation (e.g., DROP TABLE, CANCEL JOBS) is still running. Set to 0 to "
            "disable notifications. Defaults to 30 seconds."
        ),
    ),
    Var(
        "unsafe_enable_storage_retention_for_non_append_only_tables",
        "bool",
        "false",
        doc=(
            "Unsafe: Enable storage retention for non-append-only tables. Enabling this "
            "can lead to streaming inconsistency and node panic if there is any row "
            "INSERT/UPDATE/DELETE operation corresponding to the ttled primary key."
        ),
    ),
    Var(
        "enable_datafusion_engine",
        "bool",
        "true",
        doc=(
            "Enable DataFusion Engine When enabled, queries involving Iceberg tables will "
            "be executed using the DataFusion engine."
        ),
    ),
    Var(
        "datafusion_prefer_hash_join",
        "bool",
        "true",
        doc=(
            "Prefer hash join over sort merge join in DataFusion engine When enabled, the "
            "DataFusion engine will prioritize hash joins for query execution plans, "
            "potentially improving performance for certain workloads, but may cause OOM "
            "for large datasets."
        ),
    ),
    Var(
        "upsert_dml",
        "bool",
        "false",
        doc=(
            "Emit chunks in upsert format for `UPDATE` and `DELETE` DMLs. May lead to "
            "undefined behavior if the table is created with `ON CONFLICT DO NOTHING`.  "
            "When enabled: - `UPDATE` will only emit `Insert` records for new rows, "
            "instead of `Update` records. - `DELETE` will only include key columns and pad "
            "the rest with NULL, instead of emitting complete rows."
        ),
    ),
)


_BY_NAME: dict[str, Var] = {v.name: v for v in _TABLE}
_ALIASES: dict[str, str] = {v.alias: v.name for v in _TABLE if v.alias}


def entry_name(name: str) -> str:
    """RisingWave's alias_to_entry_name: lower-case, then resolve aliases."""
    key = name.lower()
    return _ALIASES.get(key, key)


def variables() -> tuple[Var, ...]:
    """Every session variable, in RisingWave's declaration order (the SHOW ALL order)."""
    return _TABLE


@dataclass
class SessionConfig:
    """One session's variables.  ``defaults`` are cluster-wide overrides (ALTER SYSTEM SET)."""

    defaults: dict[str, str] = field(default_factory=dict)
    _values: dict[str, str] = field(default_factory=dict)
    _reports: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for v in _TABLE:
            self._values[v.name] = self.defaults.get(v.name, v.default)

    # -- the generic interface (SET / SHOW / RESET / SHOW ALL)

    def set(self, name: str, value: str | list[str] | tuple[str, ...] | None) -> list[str]:
        """SET name = value (``None`` for DEFAULT); returns the notices to send.

        A list is joined with ``", "`` as RisingWave's handler does (handler/variable.rs:30-40).
        """
        var = self._var(name)
        if value is None:
            self.reset(var.name)
        else:
            raw = value if isinstance(value, str) else LIST_SEP.join(value)
            self._assign(var, self.parse_value(var.name, raw))
        return [var.deprecated] if var.deprecated else []

    def parse_value(self, name: str, raw: str) -> str:
        """The value ``raw`` would be stored as (its display), or the SessionConfigError."""
        var = self._var(name)
        try:
            shown = _PARSERS[var.kind](raw)
        except InvalidValue as e:
            raise SessionConfigError(f"Invalid value `{raw}` for `{var.name}`", *e.causes) from None
        if var.check:
            try:
                _CHECKS[var.check](shown)
            except InvalidValue as e:
                raise SessionConfigError(
                    f"Invalid value `{shown}` for `{var.name}`", *e.causes
                ) from None
        return shown

    def get(self, name: str) -> str:
        """SHOW name: the value as RisingWave displays it."""
        return self._values[self._var(name).name]

    def reset(self, name: str) -> None:
        """Back to the default (the cluster-wide one if ALTER SYSTEM set it)."""
        var = self._var(name)
        self._assign(var, self.defaults.get(var.name, var.default))

    def show(self, name: str) -> tuple[list[str], list[tuple[str, ...]]]:
        """SHOW <name>: the column names and rows RisingWave returns (handler/variable.rs:150-230).

        ``all`` gives Name/Setting/Description rows; ``parameters`` (system parameters, which
        the engine owns) gives only its columns Name/Value/Description/Mutable here; any other
        name is one ``Name`` column holding the value (``Mutable`` is boolean, the rest
        varchar).
        """
        key = name.lower()
        if key == "all":
            return (["Name", "Setting", "Description"], list(self.show_all()))
        if key == "parameters":
            return (["Name", "Value", "Description", "Mutable"], [])
        return (["Name"], [(self.get(name),)])

    def show_all(self) -> list[tuple[str, str, str]]:
        """SHOW ALL rows: (Name, Setting, Description)."""
        return [(v.name, self._values[v.name], v.doc) for v in _TABLE]

    def take_reports(self) -> list[tuple[str, str]]:
        """Changes of REPORT-flagged variables since the last call (entry name, new value)."""
        out, self._reports = self._reports, []
        return out

    def parameter_status_changes(self) -> list[tuple[str, str]]:
        """What RisingWave re-reports as ParameterStatus after SET.

        Its handler forwards a report only when the key equals ``APPLICATION_NAME``
        (handler/variable.rs:62-68) while the config reports the entry name
        ``application_name``, so nothing is re-reported: this returns [] after draining the
        reports, which keeps that behaviour visible in one place.
        """
        return [(k, v) for k, v in self.take_reports() if k == "APPLICATION_NAME"]

    @staticmethod
    def alter_system_notice(name_as_typed: str, value: str | None) -> str:
        """The NOTICE of ALTER SYSTEM SET on a session variable (handler/alter_system.rs:37-60)."""
        if value is None:
            return (
                f"The config {name_as_typed} of the current session has already been reset "
                "to default"
            )
        return f"The config {name_as_typed} of the current session has already been set to {value}"

    @staticmethod
    def can_alter_system(name: str) -> bool:
        """False for NO_ALTER_SYS variables (`session param <n> cannot be altered system wide`)."""
        var = _BY_NAME.get(entry_name(name))
        return var is not None and "NO_ALTER_SYS" not in var.flags

    @staticmethod
    def is_known(name: str) -> bool:
        return entry_name(name) in _BY_NAME

    # -- typed accessors for the engine and the read path

    @property
    def streaming_parallelism(self) -> str:
        return self._values["streaming_parallelism"]

    def streaming_parallelism_for(self, job_type: str) -> str:
        """``streaming_parallelism_for_<job_type>`` (table, source, sink, index,
        materialized_view, backfill), as displayed: default, adaptive, n, bounded(n), ratio(r)."""
        return self._values[f"streaming_parallelism_for_{job_type}"]

    @property
    def streaming_max_parallelism(self) -> int:
        return int(self._values["streaming_max_parallelism"])

    @property
    def streaming_use_snapshot_backfill(self) -> bool:
        return self._values["streaming_use_snapshot_backfill"] == "true"

    @property
    def streaming_use_shared_source(self) -> bool:
        return self._values["streaming_use_shared_source"] == "true"

    @property
    def background_ddl(self) -> bool:
        return self._values["background_ddl"] == "true"

    @property
    def implicit_flush(self) -> bool:
        return self._values["implicit_flush"] == "true"

    def rate_limit(self, kind: str) -> int | None:
        """``<kind>_rate_limit`` (backfill, source, dml, sink); None when disabled (< 0)."""
        n = int(self._values[f"{kind}_rate_limit"])
        return None if n < 0 else n

    @property
    def search_path(self) -> list[str]:
        """The effective search path: pg_catalog and rw_catalog first unless listed
        (session_config/search_path.rs:22-80); ``"$user"`` kept for the binder to resolve."""
        real = [p for p in self._values["search_path"].split(LIST_SEP) if p]
        path = list(real)
        if "rw_catalog" not in real:
            path.insert(0, "rw_catalog")
        if "pg_catalog" not in real:
            path.insert(0, "pg_catalog")
        return path

    @property
    def timezone(self) -> str:
        return self._values["timezone"]

    @property
    def application_name(self) -> str:
        return self._values["application_name"]

    @property
    def slow_ddl_notification_secs(self) -> int:
        return int(self._values["slow_ddl_notification_secs"])

    @property
    def statement_timeout_ms(self) -> int:
        return int(self._values["statement_timeout"].removesuffix("ms"))

    # -- internals

    def _var(self, name: str) -> Var:
        key = entry_name(name)
        var = _BY_NAME.get(key)
        if var is None:
            raise SessionConfigError(f"Unrecognized config entry `{key}`")
        return var

    def _assign(self, var: Var, shown: str) -> None:
        if "REPORT" in var.flags and self._values[var.name] != shown:
            self._reports.append((var.name, shown))
        self._values[var.name] = shown
        # enable_two_phase_agg and force_two_phase_agg keep each other consistent
        # (session_config/mod.rs: set_force_two_phase_agg / set_enable_two_phase_agg).
        if var.name == "force_two_phase_agg" and shown == "true":
            self._values["enable_two_phase_agg"] = "true"
        elif var.name == "enable_two_phase_agg" and self._values["force_two_phase_agg"] != "true":
            self._values["force_two_phase_agg"] = "false"


def parse_startup_options(options: str) -> list[tuple[str, str]]:
    """The settings in a StartupMessage ``options`` string, as RisingWave reads them
    (pg_protocol.rs:1590-1660): words split on unescaped ASCII whitespace, backslash escapes
    the next character (quotes are literal), ``-c key=value`` and ``--key=value`` pairs with
    ``-`` in keys read as ``_``; other words are ignored.

    Raises StartupOptionError (``invalid config format: <arg>`` / ``missing argument for -c``).
    """
    words: list[str] = []
    cur: list[str] = []
    it = iter(options)
    for ch in it:
        if ch == "\\":
            cur.append(next(it, ""))
        elif ch in " \t\n\r\x0c":
            if cur:
                words.append("".join(cur))
                cur = []
        else:
            cur.append(ch)
    if cur:
        words.append("".join(cur))
    pairs: list[tuple[str, str]] = []
    i = 0
    while i < len(words):
        w = words[i]
        i += 1
        if w == "-c":
            if i >= len(words):
                raise StartupOptionError("missing argument for -c")
            w = words[i]
            i += 1
        elif w.startswith("--"):
            w = w[2:]
        else:
            continue  # "ignoring unrecognized option for backward compatibility"
        if "=" not in w:
            raise StartupOptionError(f"invalid config format: {w}")
        key, value = w.split("=", 1)
        pairs.append((key.replace("-", "_"), value))
    return pairs


def apply_startup(cfg: SessionConfig, options: str | None, application_name: str | None) -> None:
    """Apply a StartupMessage's ``options`` then ``application_name`` (which wins), as
    pg_protocol.rs:742-755 does; a bad value is a StartupOptionError over the config error."""
    settings = parse_startup_options(options) if options else []
    if application_name is not None:
        settings.append(("application_name", application_name))
    for key, value in settings:
        try:
            cfg.set(key, value)
        except SessionConfigError as e:
            raise StartupOptionError(*e.chain) from None
