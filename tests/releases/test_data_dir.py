"""A data directory one release ran, reopened under another: an earlier release's store is
taken (RisingWave's meta upgrades it, controller/mod.rs:166 Migrator::up); a later one's is
refused as RisingWave's meta refuses a store recording migrations it does not know
(controller/mod.rs:147-149, sea-orm-migration's get_migration_with_status)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rwshim.errors import StoreUnusable
from rwshim.instance import Instance

_V3_0 = (
    "m20251223_064450_table_change_log', "
    "'m20260311_000000_legacy_streaming_parallelism_session_params', "
    "'m20260312_000000_streaming_job_backfill_parallelism_strategy', "
    "'m20260518_000000_disable_unused_read_prefix_hints', "
    "'m20260624_000000_pending_sink_state_object_fk"
)
_HEAD = (
    "m20260519_000000_streaming_job_batch_refresh_seconds', "
    "'m20260705_000000_subscription_dependent_object_fk', "
    "'m20260804_000000_worker_property_resource', "
    "'m20260805_000000_object_belong_to_oid"
)


def _run(data_dir: Path, release: str) -> None:
    Instance(data_dir, manual_clock=True, release=release).close()


def _refusal(missing: str) -> str:
    return (
        "failed to get applied migrations: Migration file of version "
        f"'{missing}' is missing, this migration has been applied but its file is missing"
    )


@pytest.mark.parametrize(
    ("first", "then", "refused"),
    [
        ("2.8", "3.0", None),
        ("2.8", "head", None),
        ("3.0", "head", None),
        ("3.0", "3.0", None),
        ("3.0", "2.8", _refusal(_V3_0)),
        ("head", "3.0", _refusal(_HEAD)),
        ("head", "2.8", _refusal(_V3_0 + "', '" + _HEAD)),
    ],
)
def test_reopened_under_another_release(
    tmp_path: Path, first: str, then: str, refused: str | None
) -> None:
    _run(tmp_path, first)
    if refused is None:
        _run(tmp_path, then)
        _run(tmp_path, first if first == then else then)  # upgraded: it records ``then``
        if first != then:
            with pytest.raises(StoreUnusable) as e:
                _run(tmp_path, first)
            assert "failed to get applied migrations" in str(e.value)
    else:
        with pytest.raises(StoreUnusable) as e:
            _run(tmp_path, then)
        assert str(e.value) == refused
        _run(tmp_path, first)  # still the store it was
