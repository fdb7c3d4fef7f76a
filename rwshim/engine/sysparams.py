"""System parameters: names, defaults, mutability and descriptions as RisingWave lists them
(src/common/src/system_param/mod.rs:76-102), for SHOW PARAMETERS and ALTER SYSTEM SET."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SystemParam:
    name: str
    default: str
    mutable: bool
    description: str
    kind: str  # 'u32' | 'u64' | 'bool' | 'f64' | 'str'


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
    SystemParam("state_store", "hummock+memory", False, "URL for the state store", "str"),
    SystemParam(
        "data_directory",
        "hummock_001",
        False,
        "Remote directory for storing data and metadata objects.",
        "str",
    ),
    SystemParam(
        "backup_storage_url", "memory", True, "Remote storage url for storing snapshots.", "str"
    ),
    SystemParam(
        "backup_storage_directory",
        "backup",
        True,
        "Remote directory for storing snapshots.",
        "str",
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
        "use_new_object_prefix_strategy", "true", False, "Whether to split object prefix.", "bool"
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
