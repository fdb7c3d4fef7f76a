"""SQLite functions the store registers on its connection, for the catalog views.

``rw_render_parallelism(kind, fixed, strategy)`` renders a stored parallelism as RisingWave's
system catalogs print it (src/frontend/src/catalog/system_catalog/mod.rs:223-254): a number
for Fixed, ``adaptive`` for AUTO/FULL, ``bounded(n)`` / ``ratio(r)`` in lower case, ``custom``
for Custom, ``unknown`` for NULL.  ``rw_streaming_jobs.parallelism`` is the *effective* value:
the backfill override while the job is not CREATED, e.g.

    rw_render_parallelism(
        CASE WHEN job_status != 'CREATED' AND backfill_parallelism_kind IS NOT NULL
             THEN backfill_parallelism_kind ELSE parallelism_kind END, ...)

``rw_cluster_version()`` is the release's ``current_cluster_version()`` (rwshim.common.releases).

``rw_job_parallelism(text)`` and ``rw_policy_parallelism(text)`` turn that rendering into the
release's (``register``'s ``release``): the same text at head and v3.0.3; at v2.8.5 the jobs'
``parallelism`` column is ``FIXED(4)`` / ``ADAPTIVE`` / ``CUSTOM`` / ``UNKNOWN``
(v2.8.5 system_catalog/mod.rs:214-227 ``fixed({n})`` with rw_streaming_jobs.rs:46 and
rw_table_fragments.rs:43 ``to_uppercase()``) and rw_fragments' policy says ``fixed(4)`` /
``adaptive`` (v2.8.5 controller/fragment.rs:1405-1412); v2.8.5 has no bounded or ratio job
parallelism (an adaptive job's strategy is not part of it).
"""

from __future__ import annotations

import sqlite3

from rwshim.common.releases import HEAD, Release


def render_parallelism(kind: str | None, fixed: int | None, strategy: str | None) -> str:
    if kind is None:
        return "unknown"
    if kind == "Fixed":
        return str(fixed)
    if kind == "Custom":
        return "custom"
    s = strategy or "AUTO"
    if s in ("AUTO", "FULL"):
        return "adaptive"
    return s.lower()


def legacy_policy_parallelism(shown: str | None) -> str | None:
    """v2.8.5's format_streaming_parallelism (controller/fragment.rs:1405-1412)."""
    if shown is None:
        return None
    if shown.isdigit():
        return f"fixed({shown})"
    if shown.startswith(("bounded(", "ratio(")):
        return "adaptive"
    return shown


def release_fragment_policy(policy: str, release: Release) -> str:
    """A stored fragment policy (head's format_fragment_parallelism_policy: ``inherit(4)``,
    ``override(bounded(8))``, ``single``, ``upstream_fragment([..])``) as the release renders
    it: the parallelism inside ``inherit``/``override`` through the same rule as
    rw_policy_parallelism (v2.8.5 controller/fragment.rs:1376, :1405-1412)."""
    if not release.legacy_parallelism_display:
        return policy
    for head in ("inherit(", "override("):
        if policy.startswith(head) and policy.endswith(")"):
            inner = legacy_policy_parallelism(policy[len(head) : -1])
            return f"{head}{inner})"
    return policy


def legacy_job_parallelism(shown: str | None) -> str | None:
    """v2.8.5's rw_streaming_jobs / rw_table_fragments ``parallelism``: upper case."""
    policy = legacy_policy_parallelism(shown)
    return None if policy is None else policy.upper()


def _same(shown: str | None) -> str | None:
    return shown


def register(conn: sqlite3.Connection, release: Release = HEAD) -> None:
    conn.create_function("rw_render_parallelism", 3, render_parallelism, deterministic=True)
    version = release.cluster_version
    conn.create_function("rw_cluster_version", 0, lambda: version, deterministic=True)
    legacy = release.legacy_parallelism_display
    conn.create_function(
        "rw_job_parallelism", 1, legacy_job_parallelism if legacy else _same, deterministic=True
    )
    conn.create_function(
        "rw_policy_parallelism",
        1,
        legacy_policy_parallelism if legacy else _same,
        deterministic=True,
    )
