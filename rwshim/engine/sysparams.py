"""System parameters: names, defaults, mutability and descriptions as RisingWave lists them
(src/common/src/system_param/mod.rs:76-102), for SHOW PARAMETERS and ALTER SYSTEM SET, with
how a new value is parsed (set_system_param, mod.rs:325-372) and checked (OverrideValidate,
mod.rs:449-485)."""

from __future__ import annotations

import re

from msgspec import Struct
from msgspec.structs import replace

from rwshim.common import session_config as sc
from rwshim.common.releases import Release
from rwshim.lazy import lazy_pattern


class SystemParam(Struct, frozen=True):
    name: str
    default: str
    mutable: bool
    description: str
    kind: str  # 'u32' | 'u64' | 'bool' | 'f64' | 'str' | 'strategy'
    # False for the parameters declared with a None default (they must be initialized):
    # ``ALTER SYSTEM SET <p> TO DEFAULT`` refuses them.  ``default`` is then the value a new
    # cluster is initialized with.
    has_default: bool = True


PARAMS: tuple[SystemParam, ...] = (
    SystemParam("barrier_interval_ms", "1000", True, "The interval of periodic barrier.", "u32"),
    SystemParam(
        "checkpoint_frequency", "1", True, "There will be a checkpoint for every n barriers.", "u64"
    ),
    SystemParam("sstable_size_mb", "256", False, "Target size of the Sstable.", "u32"),
    SystemParam(
        "parallel_compact_size_mb",
        "512",
        False,
        "The size of parallel task for one compact/flush job.",
        "u32",
    ),
    SystemParam("block_size_kb", "64", False, "Size of each block in bytes in SST.", "u32"),
    SystemParam(
        "bloom_false_positive",
        "0.001",
        False,
        "DEPRECATED: Bloom filter is no longer a supported SST filter implementation. This "
        "field is kept for backward compatibility and no longer controls whether SST filters "
        "are emitted.",
        "f64",
    ),
    SystemParam("state_store", "hummock+memory", False, "URL for the state store", "str", False),
    SystemParam(
        "data_directory",
        "hummock_001",
        False,
        "Remote directory for storing data and metadata objects.",
        "str",
        False,
    ),
    SystemParam(
        "backup_storage_url",
        "memory",
        True,
        "Remote storage url for storing snapshots.",
        "str",
        False,
    ),
    SystemParam(
        "backup_storage_directory",
        "backup",
        True,
        "Remote directory for storing snapshots.",
        "str",
        False,
    ),
    SystemParam(
        "max_concurrent_creating_streaming_jobs",
        "1",
        True,
        "Max number of concurrent creating streaming jobs.",
        "u32",
    ),
    SystemParam(
        "pause_on_next_bootstrap",
        "false",
        True,
        "Whether to pause all data sources on next bootstrap.",
        "bool",
    ),
    SystemParam("enable_tracing", "false", True, "Whether to enable distributed tracing.", "bool"),
    SystemParam(
        "use_new_object_prefix_strategy",
        "true",
        False,
        "Whether to split object prefix.",
        "bool",
        False,
    ),
    # The built-in key prints as "<default>", any other non-empty key as "<redacted>"
    # (src/license/src/key.rs:98-118).
    SystemParam(
        "license_key",
        "<default>",
        True,
        "The license key to activate enterprise features.",
        "str",
    ),
    SystemParam(
        "time_travel_retention_ms",
        "600000",
        True,
        "The data retention period for time travel.",
        "u64",
    ),
    SystemParam(
        "per_database_isolation", "true", True, "Whether per database isolation is enabled", "bool"
    ),
    SystemParam("enforce_secret", "false", True, "Whether to enforce secret on cloud.", "bool"),
)

BY_NAME: dict[str, SystemParam] = {p.name: p for p in PARAMS}

# v2.8.5's extra parameter (v2.8.5:src/common/src/system_param/mod.rs:97), after
# time_travel_retention_ms; removed by ed7186a8277 (#25050).
ADAPTIVE_PARALLELISM_STRATEGY = SystemParam(
    "adaptive_parallelism_strategy",
    "AUTO",
    True,
    "The strategy for Adaptive Parallelism.",
    "strategy",
)
# bloom_false_positive's description before 448c657 (v3.0.3 and v2.8.5 mod.rs, its row).
_OLD_BLOOM = "False positive probability of bloom filter."


def params_for(release: Release) -> tuple[SystemParam, ...]:
    """The parameters a release lists, in its order (its ``for_all_params``)."""
    if release.new_wording:  # the reference commit
        return PARAMS
    out: list[SystemParam] = []
    for p in PARAMS:
        out.append(p if p.name != "bloom_false_positive" else replace(p, description=_OLD_BLOOM))
        if p.name == "time_travel_retention_ms" and release.adaptive_parallelism_strategy_param:
            out.append(ADAPTIVE_PARALLELISM_STRATEGY)
    return tuple(out)


def _parse_strategy(text: str) -> str:
    """parse_strategy (v2.8.5 adaptive_parallelism_strategy.rs:94-144), shown as its Display
    (AUTO, FULL, BOUNDED(n), RATIO(r))."""
    low = text.lower()
    if low in ("auto", "full"):
        return low.upper()
    if low.startswith(("bounded(", "ratio(")):
        try:
            return sc.parallelism(text).upper()
        except sc.InvalidValue as e:
            raise ValueError(e.compact()) from None
    raise ValueError(f"Unsupported strategy: {text}")


# Rust's f64 FromStr: an optional sign, then digits with an optional fraction and exponent, or
# inf / infinity / nan (any case); nothing else (no spaces, no '_').
_F64 = lazy_pattern(
    r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)", re.I
)


def parse_value(p: SystemParam, text: str) -> str:
    """``text`` parsed as the parameter's type (``v.as_ref().parse()`` in set_system_param,
    mod.rs:341-343) and shown as meta stores it; ValueError carries the FromStr error text."""
    if p.kind in ("u32", "u64"):
        try:
            return str(sc.rust_uint(text, int(p.kind[1:])))
        except sc.InvalidValue as e:
            raise ValueError(e.compact()) from None
    if p.kind == "bool":
        if text not in ("true", "false"):  # bool::from_str
            raise ValueError("provided string was not `true` or `false`")
        return text
    if p.kind == "strategy":
        return _parse_strategy(text)
    if p.kind == "f64":
        if not _F64.fullmatch(text):
            raise ValueError("invalid float literal")
        return text
    return text


def validate(p: SystemParam, text: str) -> str | None:
    """OverrideValidate (mod.rs:449-485): the reason a parsed value is refused, else None.
    Ranges print as Rust's Debug of a RangeFrom (``value 10 out of range, expect 50..``)."""
    if p.name == "barrier_interval_ms" and int(text) < 50:
        return f"value {text} out of range, expect 50.."
    if p.name == "checkpoint_frequency" and int(text) < 1:
        return f"value {text} out of range, expect 1.."
    if p.name in ("backup_storage_directory", "backup_storage_url") and not text.strip():
        return f"{p.name} cannot be empty"
    if p.name == "time_travel_retention_ms" and 0 < int(text) < 600_000:
        return "time_travel_retention_ms cannot be less than 600000"
    return None
