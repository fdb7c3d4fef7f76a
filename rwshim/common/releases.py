"""The RisingWave releases rwshim can answer as: one ``Release`` of flags and texts per release
line (the latest patch of each), which every part consults instead of comparing versions.

    head  the reference commit 448c657 (3.2.0-alpha), the default
    3.0   v3.0.3
    2.8   v2.8.5

Chosen with ``--rw-version``, ``$RWSHIM_RW_VERSION`` or ``@pytest.mark.rwshim(rw_version=...)``.
Each field names the RisingWave source line (``tag:path:line``) that makes it differ; the
read of the tags behind them is /work/shared/spec/rw-versions.md, checked against the tags
(``git show v2.8.5:path``) before each field was written.
"""

from __future__ import annotations

import re

from msgspec import Struct

from rwshim.version import GIT_SHA, RW_VERSION

ENV = "RWSHIM_RW_VERSION"

# ---------------------------------------------------------------------------- wording
# Error texts the reference commit reworded (07d2ebb3db9, #25762); both releases still have
# the old ones.  (head text as a regex, the release's replacement), applied to the rendered
# error message (``Release.reword``).  Sources: v3.0.3:src/meta/src/error.rs:45, :66, :83,
# :100, :103; v3.0.3:src/frontend/src/catalog/mod.rs:118-121; v3.0.3:src/frontend/src/error.rs
# (``Invalid Parameter Value``, ``Failed to get/set session config``, ``Can not compare in
# memory``); v3.0.3:src/meta/src/controller/catalog/drop_op.rs:260 (v2.8.5 :245);
# v3.0.3:src/meta/src/barrier/checkpoint/control.rs (``database {} not exist when handling``).
OLD_WORDING: tuple[tuple[str, str], ...] = (
    (
        r"(\w[\w ]*?) named (.+?) already exists and is still being created",
        r"\1 with name \2 exists but under creation",
    ),
    (r"(\w[\w ]*?) named (.+?) already exists", r"\1 with name \2 exists"),
    (
        r"cannot drop (\d+) streaming job\(s\) that are still being created; please cancel"
        r" them first",
        r"PermissionDenied: can not drop \1 creating streaming job, please cancel them firstly",
    ),
    (r"System parameters error:", "SystemParams error:"),
    (r"Session parameters error", "SessionParams error"),
    (r"Failed to get or set session config", "Failed to get/set session config"),
    (r"Invalid parameter value:", "Invalid Parameter Value:"),
    (r"Cannot compare in memory:", "Can not compare in memory:"),
    (r"Metadata model error:", "MetadataModel error:"),
    (
        r"database (\d+) does not exist while handling command",
        r"database \1 not exist when handling command",
    ),
    (r"table_fragment does not exist: id=", "table_fragment not exist: id="),
    (r"Subquery cannot be unnested\.", "Subquery can not be unnested."),
    (r"AS OF PROCTIME is not supported", "do not support as of proctime"),
    (r"AS OF VERSION is not supported", "do not support as of version"),
    (r"please use AS OF TIMESTAMP", "please use as of timestamp"),
    (
        r"failed to bind the expression in generated column",
        "fail to bind expression in generated column",
    ),
    # v3.0.3 handler/create_table.rs (bind_sql_column_constraints)
    (
        r"A generated column cannot reference another generated column\. Generated column "
        r'"(.*?)" references generated column "(.*?)"',
        r"Generated can not reference another generated column. But here generated column "
        r'"\1" referenced another generated column "\2"',
    ),
    # v3.0.3 handler/alter_subscription_retention.rs:73
    (
        r"Unexpected statement in the subscription definition\.",
        "Unexpected statement in subscription definition.",
    ),
)


class Release(Struct, frozen=True):
    """What differs between the releases, as data.  Defaults are the reference commit's."""

    key: str  # what --rw-version takes
    tag: str  # the RisingWave git ref read
    cargo_version: str  # Cargo.toml:82 [workspace.package] version
    git_sha: str  # the tag's commit (GIT_SHA of an official build)

    # --- rescheduling (src/meta/src/stream/stream_manager.rs) --------------------------------
    # Which creating jobs the ALTER ... SET PARALLELISM check looks at: all of them
    # (448c657:stream_manager.rs:926 list_creating_jobs), or the background ones only
    # (v3.0.3:stream_manager.rs:800-803, v2.8.5:stream_manager.rs:806-809,
    # list_background_creating_jobs, list_op.rs:99-125 CreateType.eq(Background)).
    reschedule_sees_foreground: bool = True
    # Whether the blocked set spreads to the creating jobs' upstream and NoShuffle neighbours
    # (collect_reschedule_blocked_jobs_for_creating_jobs, v3.0.3:metadata.rs:719-790), or only
    # the creating job itself is refused (collect_unreschedulable_backfill_jobs,
    # v2.8.5:metadata.rs:714-735), with the text "...is a non-reschedulable background
    # backfill job" (v2.8.5:stream_manager.rs:819) instead of "...is blocked by creating
    # unreschedulable backfill jobs" (v3.0.3:stream_manager.rs:813).
    reschedule_blocks_neighbours: bool = True
    # A foreground create holds the reschedule read lock until its job finishes
    # (v3.0.3:ddl_controller.rs:1144 with stream_manager.rs:382-386; v2.8.5:ddl_controller.rs:999
    # with stream_manager.rs:378): ALTER ... SET PARALLELISM waits for every foreground
    # create.  448c657 drops the lock once the create command is collected
    # (stream_manager.rs:407).
    foreground_holds_reschedule_lock: bool = False
    # The barrier worker's check of a reschedule command while snapshot backfills are creating:
    # it refuses the jobs those block (v3.0.3:barrier/checkpoint/control.rs:1160-1185), or
    # every reschedule of the database (v2.8.5:control.rs:1121-1134, its own text).
    barrier_refuses_any_reschedule: bool = False
    # ALTER ... SET BACKFILL_PARALLELISM: "online" (448c657: error 2 for a creating job with an
    # online-unreschedulable scan, not checked with DEFERRED, stream_manager.rs:960-985),
    # "background" (v3.0.3:stream_manager.rs:837-870: background jobs only, "...is a
    # non-reschedulable background backfill job", checked with is_online = !deferred), or
    # "absent" (v2.8.5: no BACKFILL_PARALLELISM keyword, the statement does not parse).
    backfill_parallelism: str = "online"
    # CREATE checks the backfill parallelism on its own ("specified backfill parallelism ...",
    # v3.0.3:rpc/ddl_controller.rs:375); v2.8.5 checks only the initial parallelism, the
    # backfill one when fixed, else the job's, with the plain text (ddl_controller.rs:1801-1802,
    # :1648-1653).
    create_checks_backfill_separately: bool = True
    # PbStreamScanType::is_reschedulable(UpstreamOnly): true (448c657/v3.0.3
    # src/prost/src/lib.rs:557-572), false (v2.8.5:src/prost/src/lib.rs:517).
    upstream_only_reschedulable: bool = True
    # ALTER ... SET PARALLELISM takes bounded(n) / ratio(r) (v3.0.3 alter_parallelism.rs:
    # 133-190), or a number / adaptive only (v2.8.5 alter_parallelism.rs:83-124).
    alter_parallelism_strategies: bool = True
    # The session variables streaming_parallelism* take bounded(n) / ratio(r) (v3.0.3
    # session_config/parallelism.rs:55-104), or default / adaptive / auto / n only (v2.8.5
    # parallelism.rs:35-51).
    config_parallelism_strategies: bool = True
    # ALTER SINK ... SET PARALLELISM finds a sink still being created (448c657
    # handler/alter_utils.rs:96 get_any_sink_by_name); the releases find created sinks only
    # (v3.0.3:alter_utils.rs:110, v2.8.5:alter_utils.rs:110: "sink not found: <name>").
    alter_finds_creating_sink: bool = True
    # ALTER TABLE / MATERIALIZED VIEW / INDEX ... SET CONFIG finds a job still being created
    # (448c657 alter_utils.rs:72 get_table_by_name(.., true)); the releases look among
    # created ones only (v3.0.3 and v2.8.5 alter_utils.rs: resolve_streaming_job_id_for_alter
    # passes include_creating_table = false): "table not found: <name>".
    alter_config_finds_creating: bool = True

    # ALTER <kind> <name> SET <word> that the release's parser does not know: (kind, word)
    # pairs, and its ``expected ... after SET`` text for each kind (v2.8.5:src/sqlparser/src/
    # parser.rs:3290 TABLE, :3456 INDEX, :3547 MATERIALIZED VIEW, :3646 SINK, :3758 SOURCE,
    # :3696 SUBSCRIPTION; BACKFILL_PARALLELISM came with 2e7de35083a, INDEX and SINK
    # RESOURCE_GROUP and SUBSCRIPTION RETENTION later too).
    unparsed_set_words: tuple[tuple[str, str], ...] = ()
    after_set_expected: tuple[tuple[str, str], ...] = ()
    # ALTER <kind> <name> RESET RESOURCE_GROUP that the release's parser refuses: (kind, its
    # ``expected`` text, whether it stops at RESET itself rather than at RESOURCE_GROUP).
    # v2.8.5 parser.rs:3463 INDEX and :3654 SINK take RESET CONFIG only, :3182 DATABASE has no
    # RESET; its MATERIALIZED VIEW takes RESET RESOURCE_GROUP (:3549-3556).
    unparsed_reset: tuple[tuple[str, str, bool], ...] = ()
    # ALTER DATABASE ... SET RESOURCE_GROUP {TO|=} v DEFERRED parses (v3.0.3 parser.rs:
    # 3179-3190); v2.8.5 reads SET as a config parameter (parse_config_param, :3178-3180,
    # :3061-3068) and stops at DEFERRED: "expected end of statement" (:282).
    database_resource_group: bool = True
    # Parse errors the release's parser words otherwise: (regex over the consumed prefix's
    # signature, as rwshim/sql/errors_text.py writes them, the release's ``expected`` text),
    # tried before the reference commit's rules (``parse_expected``).
    expected_rules: tuple[tuple[str, str], ...] = ()

    # ALTER COMPACTION GROUP parses (448c657 parser.rs:3209-3212 lists COMPACTION after ALTER);
    # the releases have no such statement (v3.0.3 parser.rs:3160, v2.8.5 :3159): ALTER then
    # stops at COMPACTION.
    alter_compaction_group: bool = True

    # --- features -------------------------------------------------------------------------------
    # Batch-refresh MVs, WITH (refresh.interval.sec = N) (43f07e74cde, #25251): head only.
    batch_refresh: bool = True
    # The variant type (3ad2a13c812, #26080: 448c657 src/common/src/types/mod.rs:220-222):
    # head only; v3.0.3 and v2.8.5 bind ``variant`` as an unknown type name.
    variant_type: bool = True
    # streaming_use_arrangement_backfill = false gives the legacy Backfill scan (v3.0.3
    # session_config/mod.rs:235-236, v2.8.5 :241-242); 448c657 ignores it with a NOTICE.
    legacy_backfill_honoured: bool = False

    # --- renderings -----------------------------------------------------------------------------
    # rw_streaming_jobs/rw_table_fragments.parallelism: ``FIXED(4)``, ``ADAPTIVE``, ``CUSTOM``
    # upper case (v2.8.5 system_catalog/mod.rs:214-227), or ``4``, ``adaptive``,
    # ``bounded(64)`` (v3.0.3/448c657 system_catalog/mod.rs:223-254); rw_fragments'
    # policy ``inherit(fixed(4))`` (v2.8.5 controller/fragment.rs:1376) or ``inherit(4)``.
    legacy_parallelism_display: bool = False
    # The parallelism a new job gets from ``default``: bounded(64/4/8) by job type (v3.0.3
    # session_config/parallelism.rs:39-41), or adaptive (v2.8.5).
    bounded_default_parallelism: bool = True

    # --- catalogs, parameters -------------------------------------------------------------------
    # System-catalog columns the release does not have, as (schema, relation, column):
    # v2.8.5 has no rw_materialized_views.schema_name (added after schema_id, v3.0.3
    # rw_materialized_views.rs:29).
    absent_catalog_columns: tuple[tuple[str, str, str], ...] = ()
    # System catalogs the release does not have, as (schema, relation): v2.8.5 has neither
    # rw_kafka_job_lag nor rw_kafka_source_metrics (v3.0.3 system_catalog/rw_catalog/
    # rw_kafka_job_lag.rs, rw_kafka_source_metrics.rs).
    absent_catalogs: tuple[tuple[str, str], ...] = ()
    # The system parameter adaptive_parallelism_strategy (v2.8.5 system_param/mod.rs; removed
    # by ed7186a8277, #25050).
    adaptive_parallelism_strategy_param: bool = False
    # The session-variable table (rwshim/common/session_vars_*.py) generated from this tag.
    session_vars: str = "session_vars_generated"
    # Error texts the reference commit reworded: False keeps the old ones (OLD_WORDING).
    new_wording: bool = True
    # The meta-store migrations this release adds to the previous one (src/meta/model/
    # migration/src/, ls-tree of each tag): a store a later release wrote records them, and an
    # earlier release's meta refuses it at start (controller/mod.rs:147-149, every tag:
    # sea-orm-migration's get_migration_with_status, "Migration file of version ... is
    # missing"); an earlier release's store is upgraded (Migrator::up, mod.rs:166).
    rank: int = 0
    added_migrations: tuple[str, ...] = ()
    # CREATE TABLE ... WITH (connector = 'mysql-cdc' | 'postgres-cdc'), a table with its own
    # CDC source: refused by 448c657 (create_source.rs:761-768, "directly creating a CDC table
    # ... is no longer supported"); accepted by v3.0.3 and v2.8.5, which refuse only
    # sqlserver-cdc's (create_source.rs:761-766, ExternalCdcTableType::shareable_only,
    # source/cdc/external/mod.rs:85-87), and which rwshim does not emulate.
    direct_cdc_tables: bool = False
    # Serverless backfill without a controller: refused by meta at create_streaming_job as an
    # invalid parameter (448c657 ddl_controller.rs:389-404, :1130); by the frontend's
    # resolve_streaming_job_resource_type as invalid input syntax in the releases (v3.0.3
    # create_mv.rs:273-277, v2.8.5 create_mv.rs:341-345).
    serverless_refused_by_meta: bool = True

    @property
    def cluster_version(self) -> str:
        """``current_cluster_version()`` (common/src/lib.rs: 448c657 :144, v3.0.3 :153,
        v2.8.5 :153): what version() answers and the ``*_cluster_version`` columns hold."""
        return f"PostgreSQL 13.14.0-RisingWave-{self.cargo_version} ({self.git_sha})"

    def unparsed_set(self, kind: str, word: str) -> str | None:
        """The ``expected ... after SET`` text with which this release's parser refuses
        ``ALTER <kind> <name> SET <word>`` (kind and word upper case), None if it parses."""
        if (kind, word) not in self.unparsed_set_words:
            return None
        return dict(self.after_set_expected)[kind]

    def unparsed_reset_resource_group(self, kind: str) -> tuple[str, bool] | None:
        """(``expected`` text, stops at RESET) with which this release's parser refuses
        ``ALTER <kind> <name> RESET RESOURCE_GROUP``, None if it parses."""
        for k, text, at_reset in self.unparsed_reset:
            if k == kind:
                return text, at_reset
        return None

    def parse_expected(self, sig: str) -> str | None:
        """The ``expected ...`` text of this release's parser after the consumed prefix ``sig``
        where it differs from the reference commit's, else None.  ``ALTER <kind> <name> SET``
        followed by a word the grammar does not take answers ``after_set_expected``."""
        for pattern, text in self.expected_rules:
            if re.fullmatch(pattern, sig):
                return text
        m = _AFTER_SET.fullmatch(sig)
        if m is not None and self.after_set_expected:
            kind = "MATERIALIZED VIEW" if m.group(1) == "VIEW" else m.group(1)
            return dict(self.after_set_expected).get(kind)
        return None

    def reword(self, text: str) -> str:
        """An error message as this release words it."""
        if self.new_wording:
            return text
        for pattern, repl in _old_wording():
            text = pattern.sub(repl, text)
        return text


_COMPILED: list[tuple[re.Pattern[str], str]] = []
# A signature (errors_text.signature) ending at ALTER <kind> <name> SET; v2.8.5's parser says
# the same after ALTER VIEW as after ALTER MATERIALIZED VIEW (parser.rs:3547).
_N = r"<id>(?: \. <id>)*"
_AFTER_SET = re.compile(
    rf"ALTER (TABLE|INDEX|SINK|SOURCE|SUBSCRIPTION|(?:MATERIALIZED )?VIEW)(?: ONLY)? {_N} SET"
)


def _old_wording() -> list[tuple[re.Pattern[str], str]]:
    # Compiled on first use: a server answering as head never pays for them.
    if not _COMPILED:
        _COMPILED.extend((re.compile(p), r) for p, r in OLD_WORDING)
    return _COMPILED


# Parse errors both releases word otherwise than 448c657 (whose parser.rs:3470-3501 says "TO or
# = after rate limit" for every kind and has ALTER COMPACTION): v3.0.3 parser.rs:3429 (v2.8.5
# :3367) BACKFILL_RATE_LIMIT for TABLE, MATERIALIZED VIEW and SINK alike, :3451 (:3389)
# DML_RATE_LIMIT, :3474 (:3412) SOURCE_RATE_LIMIT naming TABLE or SOURCE, :3702 (:3584)
# SINK_RATE_LIMIT, :4100 and :4103 (:3924, :3927) ALTER FRAGMENT, :3160 (:3159) ALTER.
_RELEASE_EXPECTED: tuple[tuple[str, str], ...] = (
    (r"ALTER .* SET BACKFILL_RATE_LIMIT", "TO or = after ALTER TABLE SET BACKFILL_RATE_LIMIT"),
    (r"ALTER .* SET DML_RATE_LIMIT", "TO or = after ALTER TABLE SET DML_RATE_LIMIT"),
    (
        rf"ALTER TABLE (?:ONLY )?{_N} SET SOURCE_RATE_LIMIT",
        "TO or = after ALTER TABLE SET SOURCE_RATE_LIMIT",
    ),
    (
        rf"ALTER SOURCE {_N} SET SOURCE_RATE_LIMIT",
        "TO or = after ALTER SOURCE SET SOURCE_RATE_LIMIT",
    ),
    (r"ALTER .* SET SINK_RATE_LIMIT", "TO or = after ALTER SINK SET SINK_RATE_LIMIT"),
    (r"ALTER FRAGMENT <num>(?: , <num>)* SET", "expected RATE_LIMIT after SET"),
    (r"ALTER FRAGMENT <num>(?: , <num>)* SET RATE_LIMIT", "TO or = after RATE_LIMIT"),
    (
        r"ALTER",
        "DATABASE, FRAGMENT, SCHEMA, TABLE, INDEX, MATERIALIZED, VIEW, SINK, SUBSCRIPTION, "
        "SOURCE, FUNCTION, USER, SECRET or SYSTEM after ALTER",
    ),
)

HEAD = Release(
    key="head",
    tag="448c657",
    cargo_version=RW_VERSION,
    git_sha=GIT_SHA,
    rank=2,
    added_migrations=(
        "m20260519_000000_streaming_job_batch_refresh_seconds",
        "m20260705_000000_subscription_dependent_object_fk",
        "m20260804_000000_worker_property_resource",
        "m20260805_000000_object_belong_to_oid",
    ),
)

V3_0 = Release(
    key="3.0",
    direct_cdc_tables=True,
    serverless_refused_by_meta=False,
    tag="v3.0.3",
    cargo_version="3.0.3",
    git_sha="ec07f2eb759bd2d8a12a55b030bf581b82adb4b9",
    reschedule_sees_foreground=False,
    foreground_holds_reschedule_lock=True,
    backfill_parallelism="background",
    alter_finds_creating_sink=False,
    alter_config_finds_creating=False,
    batch_refresh=False,
    variant_type=False,
    legacy_backfill_honoured=True,
    session_vars="session_vars_v3_0",
    alter_compaction_group=False,
    rank=1,
    added_migrations=(
        "m20251223_064450_table_change_log",
        "m20260311_000000_legacy_streaming_parallelism_session_params",
        "m20260312_000000_streaming_job_backfill_parallelism_strategy",
        "m20260518_000000_disable_unused_read_prefix_hints",
        "m20260624_000000_pending_sink_state_object_fk",
    ),
    expected_rules=_RELEASE_EXPECTED,
    new_wording=False,
)

V2_8 = Release(
    key="2.8",
    direct_cdc_tables=True,
    serverless_refused_by_meta=False,
    tag="v2.8.5",
    cargo_version="2.8.5",
    git_sha="02a62d6a46f911c0456e57cf6ee55c50d8150712",
    reschedule_sees_foreground=False,
    reschedule_blocks_neighbours=False,
    barrier_refuses_any_reschedule=True,
    create_checks_backfill_separately=False,
    foreground_holds_reschedule_lock=True,
    backfill_parallelism="absent",
    unparsed_set_words=(
        *(
            (kind, "BACKFILL_PARALLELISM")
            for kind in ("TABLE", "INDEX", "MATERIALIZED VIEW", "SINK", "SOURCE")
        ),
        ("INDEX", "RESOURCE_GROUP"),
        ("SINK", "RESOURCE_GROUP"),
        ("SUBSCRIPTION", "RETENTION"),
    ),
    after_set_expected=(
        ("TABLE", "SCHEMA/PARALLELISM/SOURCE_RATE_LIMIT/DML_RATE_LIMIT/CONFIG after SET"),
        ("INDEX", "PARALLELISM or CONFIG after SET"),
        ("MATERIALIZED VIEW", "SCHEMA/PARALLELISM/BACKFILL_RATE_LIMIT/CONFIG after SET"),
        (
            "SINK",
            "SCHEMA/PARALLELISM/SINK_RATE_LIMIT/BACKFILL_RATE_LIMIT/"
            "STREAMING_ENABLE_UNALIGNED_JOIN/CONFIG after SET",
        ),
        ("SOURCE", "SCHEMA, SOURCE_RATE_LIMIT, PARALLELISM or CONFIG after SET"),
        ("SUBSCRIPTION", "SCHEMA after SET"),  # v2.8.5 parser.rs:3696
    ),
    expected_rules=(
        # INDEX, MATERIALIZED VIEW and SINK say TABLE's text (v2.8.5 parser.rs:3441, :3514,
        # :3627; v3.0.3 :3503, :3613, :3745 name their own kind)
        (
            rf"ALTER (?:INDEX|MATERIALIZED VIEW|SINK) {_N} SET PARALLELISM",
            "TO or = after ALTER TABLE SET PARALLELISM",
        ),
        # RESET takes CONFIG only: no RESOURCE_GROUP on INDEX and SINK (v2.8.5 parser.rs:3463,
        # :3654; v3.0.3 :3562, :3806 "RESOURCE_GROUP or CONFIG after RESET")
        (rf"ALTER (?:INDEX|SINK) {_N} RESET", "CONFIG after RESET"),
        # no ALTER DATABASE ... RESET (v2.8.5 parser.rs:3182; v3.0.3 :3213 adds OR RESET)
        (rf"ALTER DATABASE {_N}", "RENAME, OWNER TO, OR SET after ALTER DATABASE"),
        *_RELEASE_EXPECTED,
    ),
    database_resource_group=False,
    unparsed_reset=(
        ("INDEX", "CONFIG after RESET", False),
        ("SINK", "CONFIG after RESET", False),
        ("DATABASE", "RENAME, OWNER TO, OR SET after ALTER DATABASE", True),
    ),
    upstream_only_reschedulable=False,
    alter_parallelism_strategies=False,
    config_parallelism_strategies=False,
    alter_finds_creating_sink=False,
    alter_config_finds_creating=False,
    batch_refresh=False,
    variant_type=False,
    legacy_backfill_honoured=True,
    legacy_parallelism_display=True,
    bounded_default_parallelism=False,
    absent_catalog_columns=(("rw_catalog", "rw_materialized_views", "schema_name"),),
    absent_catalogs=(
        ("rw_catalog", "rw_kafka_job_lag"),
        ("rw_catalog", "rw_kafka_source_metrics"),
    ),
    adaptive_parallelism_strategy_param=True,
    session_vars="session_vars_v2_8",
    alter_compaction_group=False,
    new_wording=False,
)

RELEASES: dict[str, Release] = {r.key: r for r in (V2_8, V3_0, HEAD)}
# What else the flag accepts for each: the full patch version and the tag.
_ALIASES = {"2.8.5": "2.8", "v2.8.5": "2.8", "3.0.3": "3.0", "v3.0.3": "3.0", "448c657": "head"}


def release(name: str | None) -> Release:
    """The release ``name`` names (``head`` when None or empty); ValueError otherwise."""
    if not name:
        return HEAD
    key = _ALIASES.get(name.strip().lower(), name.strip().lower())
    found = RELEASES.get(key)
    if found is None:
        raise ValueError(
            f"unknown RisingWave release {name!r}: expected one of {', '.join(RELEASES)}"
        )
    return found


def check_store_release(written: str | None, opening: Release) -> str | None:
    """Why ``opening`` refuses a meta store the release ``written`` (its key) last ran on,
    None when it accepts it (the same or an earlier release: upgraded)."""
    if not written or written not in RELEASES:
        return None
    newer = [r for r in RELEASES.values() if opening.rank < r.rank <= RELEASES[written].rank]
    missing = [m for r in sorted(newer, key=lambda r: r.rank) for m in r.added_migrations]
    if not missing:
        return None
    versions = "', '".join(missing)
    return (
        "failed to get applied migrations: Migration file of version "
        f"'{versions}' is missing, this migration has been applied but its file is missing"
    )
