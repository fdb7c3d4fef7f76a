"""The session variables and WITH options a create reads: parallelism and boolean variables
(with RisingWave's session-config error for a bad text), rate limits (a WITH option
overrides the session variable; negative means none), and the WITH keys a materialized
view accepts.

RisingWave: ``src/common/src/session_config/parallelism.rs``, ``src/frontend/src/utils/
overwrite_options.rs:29-87``, ``src/frontend/src/utils/with_options.rs:584-590``,
``src/frontend/src/handler/create_mv.rs:358-371``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rwshim.engine import parallelism as par
from rwshim.engine.types import Context
from rwshim.errors import InvalidParameterValue, ProtocolError, SessionConfigError
from rwshim.lazy import lazy_module

if TYPE_CHECKING:
    import json
else:
    json = lazy_module("json")  # on first use: start-up and SELECT 1 read and write no JSON

MV_WITH_KEYS = {
    "backfill_rate_limit",
    "source_rate_limit",
    "dml_rate_limit",
    "sink_rate_limit",
    "refresh.interval.sec",
    "resource_group",
    "cloud.serverless_backfill_enabled",
    "backfill_order",
}


def parallelism_var(ctx: Context, name: str) -> par.Target | None:
    """A parallelism session variable; the session validated it, but a bad text still gets
    RisingWave's session-config error rather than a traceback."""
    text = ctx.var(name)
    try:
        return par.parse_config_parallelism(text)
    except par.ParseError as e:
        raise SessionConfigError(f"Invalid value `{text}` for `{name}`", str(e)) from None


def background_create(ctx: Context, kind: str, has_values: bool) -> bool:
    """The create type of a job's plan: background iff ``background_ddl`` is on and every leaf
    of the plan is recoverable, a table scan, source or Now, not Values
    (plan_can_use_background_ddl, src/frontend/src/optimizer/plan_node/utils.rs:471-499), for
    a materialized view (stream_materialize.rs:135-142), a sink (stream_sink.rs:548-553) or an
    index (handler/create_index.rs:453-457); a table is always foreground."""
    return (
        kind in ("materialized view", "sink", "index")
        and bool_var(ctx, "background_ddl")
        and not has_values
    )


def bool_var(ctx: Context, name: str) -> bool:
    text = ctx.var(name)
    try:
        return par.parse_bool(text)
    except par.ParseError:
        raise SessionConfigError(f"Invalid value `{text}` for `{name}`", "Invalid bool") from None


def rate(options: dict[str, str], ctx: Context, key: str) -> int | None:
    """A rate limit from WITH (overriding the session variable); negative = none
    (overwrite_options.rs:29-87)."""
    text = options.get(key, ctx.var(key))
    try:
        n = int(text)
    except ValueError:
        n = -1
    return None if n < 0 else n


def check_with_options(pairs: Sequence[tuple[str, str]], allowed: set[str]) -> dict[str, str]:
    """Duplicate keys (with_options.rs:584-590) and unknown MV keys (create_mv.rs:358-371)."""
    out: dict[str, str] = {}
    for k, v in pairs:
        if k in out:
            raise InvalidParameterValue(f"Duplicated option: {k}")
        out[k] = v
    unknown = sorted(k for k in out if k not in allowed)
    if unknown:
        keys = ", ".join(json.dumps(k) for k in unknown)
        raise ProtocolError(f"unexpected options in WITH clause: [{keys}]")
    return out


# The session variables a new streaming job's config override starts from
# (to_initial_streaming_config_override, src/common/src/session_config/mod.rs:670-715): each
# sets a key of the `[streaming.developer]` section, (variable, key, integer-valued).
_INITIAL_CONFIG: tuple[tuple[str, str, bool], ...] = (
    ("streaming_join_encoding", "join_encoding_type", False),
    ("streaming_sync_log_store_pause_duration_ms", "sync_log_store_pause_duration_ms", True),
    ("streaming_sync_log_store_buffer_size", "sync_log_store_buffer_size", True),
    ("streaming_over_window_cache_policy", "over_window_cache_policy", False),
    ("streaming_cache_refill_policy", "cache_refill_policy", False),
)


def initial_config_override(ctx: Context) -> str | None:
    """The config override (TOML, as engine/streaming_config.py's to_toml writes it: keys in
    order) a job is created with (stream_fragmenter/mod.rs:242-262): each of the session's
    streaming_* variables that is set, as its value displays (an enum's snake-case name, a
    size as an integer); None when none is set."""
    lines: list[str] = []
    for var, key, integer in sorted(_INITIAL_CONFIG, key=lambda e: e[1]):
        text = ctx.var(var)
        if text:
            value = text if integer and text.isdigit() else json.dumps(text.lower())
            lines.append(f"{key} = {value}")
    return "[streaming.developer]\n" + "\n".join(lines) + "\n" if lines else None
