"""ALTER ... SET CONFIG / RESET CONFIG: a streaming job's per-job override of the streaming
config, kept as TOML (streaming_job.config_override) and shown flattened by
rw_streaming_job_config.

The frontend keeps only ``streaming.`` keys with literal values (a number, a quoted string, a
boolean; NULL and RESET remove the key) and no key twice; meta upserts / deletes the dotted
paths, checks that the result still reads as the streaming config and refuses unrecognized
keys.  Every change but ``streaming.developer.cache_refill_policy`` takes effect only after a
RECOVER, which a notice says.

RisingWave: frontend ``handler/alter_streaming_config.rs``, ``handler/alter_utils.rs``
(resolve_streaming_job_id_for_alter); meta ``controller/catalog/alter_op.rs:943-1030``
(alter_streaming_job_config); the config itself ``src/common/src/config/streaming.rs``
(StreamingConfig, StreamingDeveloperConfig, whose fields also read with a ``stream_`` prefix:
serde_prefix_all, and RpcClientConfig in src/common/src/config/mod.rs).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from rwshim.engine.catalog import Catalog
from rwshim.engine.state import Meta
from rwshim.engine.types import Context, ObjectName, Result
from rwshim.errors import InvalidInputSyntax, MetaInvalidParameter, MetaRpcError, RwError

CALL = "/ddl_service.DdlService/AlterStreamingJobConfig"
# alter_streaming_config.rs:31-33
CACHE_REFILL_POLICY = "streaming.developer.cache_refill_policy"
RECOVER_NOTICE = "ALTER CONFIG requires a RECOVER on the specified streaming job to take effect."

# Every key of the streaming config and the kind of value it reads (int: an unsigned integer,
# float, bool, str: a string or an enum spelled as a string, list, and opt_* the same or
# absent), from StreamingConfig / StreamingDeveloperConfig at the reference commit.
KEYS: dict[str, str] = {
    "streaming.in_flight_barrier_nums": "int",
    "streaming.snapshot_backfill_finish_max_lagged_barriers": "int",
    "streaming.snapshot_backfill_barrier_amplification_factor": "int",
    "streaming.actor_runtime_worker_threads_num": "opt_int",
    "streaming.async_stack_trace": "str",
    "streaming.unique_user_stream_errors": "int",
    "streaming.unsafe_disable_strict_consistency": "bool",
    "streaming.developer.enable_executor_row_count": "bool",
    "streaming.developer.connector_message_buffer_size": "int",
    "streaming.developer.unsafe_extreme_cache_size": "int",
    "streaming.developer.topn_cache_min_capacity": "int",
    "streaming.developer.chunk_size": "int",
    "streaming.developer.exchange_initial_permits": "int",
    "streaming.developer.exchange_batched_permits": "int",
    "streaming.developer.exchange_concurrent_barriers": "int",
    "streaming.developer.exchange_concurrent_dispatchers": "int",
    "streaming.developer.project_expr_concurrency": "int",
    "streaming.developer.project_expr_inflight_request_concurrency": "int",
    "streaming.developer.dml_channel_initial_permits": "int",
    "streaming.developer.hash_agg_max_dirty_groups_heap_size": "int",
    "streaming.developer.memory_controller_threshold_aggressive": "float",
    "streaming.developer.memory_controller_threshold_graceful": "float",
    "streaming.developer.memory_controller_threshold_stable": "float",
    "streaming.developer.memory_controller_eviction_factor_aggressive": "float",
    "streaming.developer.memory_controller_eviction_factor_graceful": "float",
    "streaming.developer.memory_controller_eviction_factor_stable": "float",
    "streaming.developer.memory_controller_update_interval_ms": "int",
    "streaming.developer.memory_controller_sequence_tls_step": "int",
    "streaming.developer.memory_controller_sequence_tls_lag": "int",
    "streaming.developer.enable_arrangement_backfill": "bool",
    "streaming.developer.enable_snapshot_backfill": "bool",
    "streaming.developer.high_join_amplification_threshold": "int",
    "streaming.developer.high_gap_fill_amplification_threshold": "int",
    "streaming.developer.enable_actor_tokio_metrics": "bool",
    "streaming.developer.exchange_connection_pool_size": "opt_int",
    "streaming.developer.enable_auto_schema_change": "bool",
    "streaming.developer.enable_shared_source": "bool",
    "streaming.developer.switch_jdbc_pg_to_native": "bool",
    "streaming.developer.max_barrier_batch_size": "int",
    "streaming.developer.hash_join_entry_state_max_rows": "int",
    "streaming.developer.join_hash_map_evict_interval_rows": "int",
    "streaming.developer.now_progress_ratio": "opt_float",
    "streaming.developer.enable_explain_analyze_stats": "bool",
    "streaming.developer.compute_client_config.connect_timeout_secs": "int",
    "streaming.developer.compute_client_config.pool_setup_concurrency": "int",
    "streaming.developer.snapshot_iter_rebuild_interval_secs": "int",
    "streaming.developer.iceberg_list_interval_sec": "int",
    "streaming.developer.iceberg_fetch_batch_size": "int",
    "streaming.developer.iceberg_sink_positional_delete_cache_size": "int",
    "streaming.developer.iceberg_sink_write_parquet_max_row_group_rows": "int",
    "streaming.developer.materialize_force_overwrite_on_no_check": "bool",
    "streaming.developer.default_enable_mem_preload_state_table": "bool",
    "streaming.developer.mem_preload_state_table_ids_whitelist": "list",
    "streaming.developer.mem_preload_state_table_ids_blacklist": "list",
    "streaming.developer.aggressive_noop_update_elimination": "bool",
    "streaming.developer.refresh_scheduler_interval_sec": "int",
    "streaming.developer.join_encoding_type": "str",
    "streaming.developer.sync_log_store_pause_duration_ms": "int",
    "streaming.developer.sync_log_store_buffer_size": "int",
    "streaming.developer.disable_sync_log_store_dispatcher": "bool",
    "streaming.developer.over_window_cache_policy": "str",
    "streaming.developer.enable_state_table_vnode_stats_pruning": "bool",
    "streaming.developer.cache_refill_policy": "str",
    "streaming.developer.enable_vnode_key_stats_for_materialize": "bool",
    "streaming.developer.max_concurrent_kv_log_store_historical_read": "int",
}
_DEVELOPER = "streaming.developer."
# StreamingDeveloperConfig's fields also read with a `stream_` prefix (serde_prefix_all alias).
ALIASES: dict[str, str] = {
    _DEVELOPER + "stream_" + k[len(_DEVELOPER) :]: k
    for k in KEYS
    if k.startswith(_DEVELOPER) and k.count(".") == 2
}

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def collect_options(entries: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """collect_options (alter_streaming_config.rs:41-77): key -> TOML value, None to remove."""
    out: dict[str, Any] = {}
    for key, value in entries:
        if not key.startswith("streaming."):
            raise InvalidInputSyntax("ALTER CONFIG only accepts options starting with `streaming.`")
        kind = getattr(value, "kind", "string")
        if kind in ("secret", "connection", "backfill_order"):
            raise InvalidInputSyntax("ALTER CONFIG only accepts value options")
        parsed: Any
        if kind == "number":
            parsed = _number(str(value))
        elif kind in ("string", "dstring"):
            parsed = str(value)
        elif kind == "bool":
            parsed = str(value).lower() == "true"
        elif kind == "null":
            parsed = None
        else:
            raise InvalidInputSyntax(f"Unsupported value for ALTER CONFIG: {_display(value)}")
        if key in out:
            raise InvalidInputSyntax(f"Duplicate option for ALTER CONFIG: {key}")
        out[key] = parsed
    return out


def _number(text: str) -> int | float:
    """A number token read as a TOML value (``n.parse()``, alter_streaming_config.rs:55-58)."""
    import tomllib  # on first use: start-up never parses TOML

    try:
        value = tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError as e:
        # `.context("Invalid number for ALTER CONFIG")` over toml's own parse error
        raise RwError("Invalid number for ALTER CONFIG", str(e)) from None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RwError("Invalid number for ALTER CONFIG", text)  # pragma: no cover
    return value


def _display(value: str) -> str:
    """ast::Value's Display of a literal ALTER CONFIG refuses."""
    kind = getattr(value, "kind", "")
    text = str(value)
    if kind == "estring":
        return "E'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if kind == "nstring":
        return f"N'{text}'"
    if kind == "xstring":
        return f"X'{text}'"
    if kind == "dollar":
        return f"$${text}$$"
    return text


# The Rust type of each integer / float field that is not usize / f64 (streaming.rs:34-353,
# RpcClientConfig in config/mod.rs:132-139): serde names it in its errors.
_RUST_TYPES: dict[str, str] = {
    "streaming.developer.memory_controller_sequence_tls_step": "u64",
    "streaming.developer.memory_controller_sequence_tls_lag": "u64",
    "streaming.developer.exchange_connection_pool_size": "u16",
    "streaming.developer.max_barrier_batch_size": "u32",
    "streaming.developer.join_hash_map_evict_interval_rows": "u32",
    "streaming.developer.now_progress_ratio": "f32",
    "streaming.developer.compute_client_config.connect_timeout_secs": "u64",
    "streaming.developer.snapshot_iter_rebuild_interval_secs": "u64",
    "streaming.developer.iceberg_list_interval_sec": "u64",
    "streaming.developer.iceberg_fetch_batch_size": "u64",
    "streaming.developer.refresh_scheduler_interval_sec": "u64",
}
_UNSIGNED_MAX = {"usize": 2**64 - 1, "u64": 2**64 - 1, "u32": 2**32 - 1, "u16": 2**16 - 1}
# The enum fields read from a string by FromStr (DeserializeFromStr): how each reads its text
# and its refusal (cache_refill.rs:36-50, join_encoding_type.rs:40-52, over_window.rs:47-60).
_FROM_STR: dict[str, tuple[tuple[str, ...], bool, str]] = {
    "streaming.developer.cache_refill_policy": (
        ("enabled", "disabled", "streaming", "serving", "both"),
        True,
        "expect one of [enabled, disabled, streaming, serving, both]",
    ),
    "streaming.developer.join_encoding_type": (
        ("memory_optimized", "cpu_optimized"),
        False,
        "expect one of [memory_optimized, cpu_optimized]",
    ),
    "streaming.developer.over_window_cache_policy": (
        ("full", "recent", "recent_first_n", "recent_last_n"),
        True,
        "expect one of [full, recent, recent_first_n, recent_last_n]",
    ),
}
# AsyncStackTraceOption derives Deserialize: its variants by their Rust names
# (async_stack_trace.rs:18-29).
_ASYNC_STACK_TRACE = ("Off", "On", "ReleaseVerbose")


def _unexpected(value: Any) -> str:
    """serde's Unexpected as it prints (serde/src/de/mod.rs, impl Display for Unexpected)."""
    if isinstance(value, bool):
        return f"boolean `{'true' if value else 'false'}`"
    if isinstance(value, int):
        return f"integer `{value}`"
    if isinstance(value, float):
        text = repr(value)
        return f"floating point `{text if '.' in text or 'e' in text else text + '.0'}`"
    if isinstance(value, str):
        return "string " + json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "sequence"
    return "map"


def _value_error(key: str, kind: str, value: Any) -> str | None:
    """What deserializing ``value`` into the field ``key`` (of ``kind``) says, or None when it
    reads: serde's `invalid type` / `invalid value`, a FromStr enum's own text."""
    base = kind.removeprefix("opt_")
    if kind.startswith("opt_") and value == "":
        return None  # an empty string sets the option back to None (merge.rs:247-266)
    if base == "int":
        rust = _RUST_TYPES.get(key, "usize")
        if isinstance(value, int) and not isinstance(value, bool):
            if 0 <= value <= _UNSIGNED_MAX[rust]:
                return None
            return f"invalid value: {_unexpected(value)}, expected {rust}"
        return f"invalid type: {_unexpected(value)}, expected {rust}"
    if base == "float":
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return None
        return f"invalid type: {_unexpected(value)}, expected {_RUST_TYPES.get(key, 'f64')}"
    if base == "bool":
        return (
            None
            if isinstance(value, bool)
            else f"invalid type: {_unexpected(value)}, " + ("expected a boolean")
        )
    if base == "list":
        if not isinstance(value, list):
            return f"invalid type: {_unexpected(value)}, expected a sequence"
        for item in value:
            if not isinstance(item, int) or isinstance(item, bool) or item < 0:
                what = "invalid value" if isinstance(item, int) else "invalid type"
                return f"{what}: {_unexpected(item)}, expected u32"
        return None
    if not isinstance(value, str):
        return f"invalid type: {_unexpected(value)}, expected a string"
    if key in _FROM_STR:
        names, snake, refusal = _FROM_STR[key]
        text = value.lower().replace("-", "_") if snake else value.lower()
        return None if text in names else refusal
    if key == "streaming.async_stack_trace" and value not in _ASYNC_STACK_TRACE:
        expected = ", ".join(f"`{v}`" for v in _ASYNC_STACK_TRACE)
        return f"unknown variant `{value}`, expected one of {expected}"
    return None


def _check_types(table: dict[str, Any]) -> None:
    """merge_streaming_config_section (src/common/src/config/merge.rs:33-107): the override
    merged over the default config must deserialize as StreamingConfig, else meta's
    `invalid streaming job config override` over `failed to deserialize merged config` and
    the first field's serde error with its path under ``streaming`` (fields in key order, a
    table's fields where its name sorts).  A ``stream_``-prefixed developer key is its field
    a second time (the merge works on raw TOML, the default already has the field): `duplicate
    field` in `developer` (merge.rs:223-239).  Then unrecognized keys are refused
    (alter_op.rs:987-1000), as StreamingConfig's unrecognized_keys lists them: the unknown
    names of the streaming section, then those of its developer section (streaming.rs:371-385).
    """
    top: list[str] = []
    dev: list[str] = []
    for key, value in _flatten(table).items():
        real = ALIASES.get(key)
        if real is not None:
            _deserialize_failed(f"duplicate field `{real.rsplit('.', 1)[1]}`", "developer")
        kind = KEYS.get(key)
        if kind is None:
            parts = key.split(".")
            if len(parts) > 2 and parts[1] == "developer":
                name = ".".join(parts[:3])
                if name not in dev:
                    dev.append(name)
            else:
                name = ".".join(parts[:2])
                if name not in top:
                    top.append(name)
            continue
        error = _value_error(key, kind, value)
        if error is not None:
            _deserialize_failed(error, key.removeprefix("streaming."))
    unrecognized = sorted(top) + sorted(dev)
    if unrecognized:
        names = ", ".join(json.dumps(k) for k in unrecognized)
        raise MetaInvalidParameter(f"unrecognized configs: [{names}]")


def _deserialize_failed(error: str, path: str) -> None:
    """The error chain of a merged config that does not deserialize (alter_op.rs:987-995 over
    merge.rs:91-93; toml's error names the field's path)."""
    raise MetaRpcError(
        CALL,
        "invalid streaming job config override",
        "failed to deserialize merged config",
        f"{error}\nin `{path}`",
    )


def _flatten(table: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k in sorted(table):
        v = table[k]
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(_flatten(v, key + "."))
        else:
            out[key] = v
    return out


def to_toml(table: dict[str, Any]) -> str:
    """A nested table of scalars as TOML text (``toml::Table``'s Display: the scalars of a
    table, then each sub-table under its dotted header)."""
    lines: list[str] = []

    def emit(path: list[str], t: dict[str, Any]) -> None:
        scalars = [(k, v) for k, v in sorted(t.items()) if not isinstance(v, dict)]
        if path and scalars:
            if lines:
                lines.append("")
            lines.append("[" + ".".join(_key(p) for p in path) + "]")
        for k, v in scalars:
            lines.append(f"{_key(k)} = {_value(v)}")
        for k, v in sorted(t.items()):
            if isinstance(v, dict):
                emit([*path, k], v)

    emit([], table)
    return "\n".join(lines) + ("\n" if lines else "")


def _key(k: str) -> str:
    return k if _BARE_KEY.fullmatch(k) else json.dumps(k)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return json.dumps(str(v))


class StreamingJobConfig:
    """The per-job streaming config overrides."""

    def __init__(self, meta: Meta, catalog: Catalog) -> None:
        self.meta = meta
        self.store = meta.store
        self.conn = meta.conn
        self.catalog = catalog

    def alter_config(
        self,
        ctx: Context,
        kind: str,
        name: ObjectName,
        entries: Sequence[tuple[str, str]],
    ) -> Result:
        """ALTER <kind> <name> SET CONFIG (k = v, ...) (handle_alter_streaming_set_config):
        RESET CONFIG (k, ...) comes here with every value NULL."""
        rel = self.catalog.resolve_job(ctx, kind, name, "config")
        diff = collect_options(entries)
        text = self.meta.val(
            "SELECT config_override FROM streaming_job WHERE job_id = ?", (rel.id,)
        )
        import tomllib

        table: dict[str, Any] = tomllib.loads(text) if text else {}
        for key, value in diff.items():
            parts = key.split(".")
            if value is None:
                _delete(table, parts)
            else:
                _upsert(table, parts, value, key)
        _check_types(table)
        with self.store.transaction():
            self.conn.execute(
                "UPDATE streaming_job SET config_override = ? WHERE job_id = ?",
                (to_toml(table), rel.id),
            )
        notices = [RECOVER_NOTICE] if any(k != CACHE_REFILL_POLICY for k in diff) else []
        return Result(notices)


def _upsert(table: dict[str, Any], parts: list[str], value: Any, key: str) -> None:
    t = table
    for p in parts[:-1]:
        nxt = t.setdefault(p, {})
        if not isinstance(nxt, dict):
            raise MetaRpcError(CALL, f"failed to set config path {key}")
        t = nxt
    t[parts[-1]] = value


def _delete(table: dict[str, Any], parts: list[str]) -> None:
    """toml_edit-style delete of a dotted path; emptied tables are dropped."""
    t = table
    stack: list[tuple[dict[str, Any], str]] = []
    for p in parts[:-1]:
        nxt = t.get(p)
        if not isinstance(nxt, dict):
            return
        stack.append((t, p))
        t = nxt
    t.pop(parts[-1], None)
    while stack and not t:
        parent, p = stack.pop()
        parent.pop(p, None)
        t = parent


__all__ = ["KEYS", "RECOVER_NOTICE", "StreamingJobConfig", "collect_options", "to_toml"]
