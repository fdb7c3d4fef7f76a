"""The reschedule rules of issue 14, from the statements a user types, over both protocol
paths: the post-backfill restore goes through the barrier-level check (rule 1), and
ALTER FRAGMENT ... SET PARALLELISM / RATE_LIMIT take meta's own path (rule 4).

The manual clock moves only with ``RWSHIM TICK`` (one barrier interval, 1 s, per barrier), so
the parallelism control's 10 s period is reached by ticking."""

from __future__ import annotations

from tests.conftest import Running
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import creating_mv, job, run_ticking, table_with_rows

E6 = "cannot reschedule jobs {{{}}} when creating jobs with unreschedulable backfill fragments"


def chain(envelope: str, *causes: str) -> str:
    """RisingWave's pretty report under the pgwire envelope (thiserror-ext report.rs): one
    cause as ``Caused by:``, more as a numbered list, recent first."""
    if len(causes) == 1:
        return f"{envelope}\n\nCaused by:\n  {causes[0]}\n"
    lines = "".join(f"  {i}: {c}\n" for i, c in enumerate(causes, start=1))
    return f"{envelope}\n\nCaused by these errors (recent errors listed first):\n{lines}"


def grpc(call: str, code: str = "Internal error") -> str:
    return f"gRPC request to meta service (call `{call}`) failed: {code}"


DDL = "/ddl_service.DdlService/"


async def actors(client: Client, job_id: int) -> list[int]:
    """rw_fragments.parallelism of a job's fragments: the actors each runs with now."""
    rows = await client.rows(
        f"select parallelism from rw_fragments where table_id = {job_id} order by fragment_id"
    )
    return [int(r[0]) for r in rows]


async def fragments(client: Client, job_id: int) -> list[tuple[int, str]]:
    rows = await client.rows(
        "select fragment_id, parallelism_policy from rw_fragments"
        f" where table_id = {job_id} order by fragment_id"
    )
    return [(int(a), str(b)) for a, b in rows]


async def restored_job_next_to_a_blocker(client: Client) -> tuple[int, int, int]:
    """t (1000 rows); a snapshot-backfill MV ``blocker`` creating on t (1 row/s per actor);
    then ``m`` on t created with backfill parallelism 2 and parallelism 3, whose backfill is
    done at the first periodic barrier.  Returns (t, blocker, m)."""
    await table_with_rows(client, rows=1000)
    t_id, _, _ = await job(client, "t")
    blocker = await creating_mv(client, "blocker")
    for sql in (
        "set backfill_rate_limit = default",
        "set streaming_parallelism_for_backfill = 2",
        "set streaming_parallelism = 3",
    ):
        assert await client.run(sql) == "SET_VARIABLE"
    assert (
        await client.run("create materialized view m as select * from t")
        == "CREATE_MATERIALIZED_VIEW"
    )
    m_id, status, shown = await job(client, "m")
    # While creating, the catalogs show the backfill override (stream_service.rs:87-102).
    assert (status, shown) == ("CREATING", "2")
    assert await actors(client, m_id) == [2]
    return t_id, blocker, m_id


async def test_post_backfill_restore_is_refused_at_the_barrier_until_the_blocker_is_done(
    client: Client, server: Running
) -> None:
    """apply_post_backfill_parallelism (src/meta/src/stream/scale.rs:1505-1577) runs the full
    reschedule_streaming_job: m passes error 1 (a hash-downstream sibling of the blocker's
    upstream is not in its set), but the command is refused at the barrier
    (barrier/checkpoint/control.rs:1238-1266) because it would change t's dispatchers while
    the blocker's snapshot backfill reads t.  m keeps its backfill actors while the catalog
    shows its own parallelism; the monitor retries every 10 s (scale.rs:1469-1478, :1278-1363)
    and applies it once the blocker is done."""
    t_id, blocker, m_id = await restored_job_next_to_a_blocker(client)
    assert await client.run("RWSHIM TICK") == "RWSHIM"
    assert await job(client, "m") == (m_id, "CREATED", "3")
    assert await actors(client, m_id) == [2]
    assert (await job(client, "blocker"))[1] == "CREATING"

    # The same command, asked for by hand, meets the same check, after its catalog write.
    f = await client.fail("alter materialized view m set parallelism = 3")
    assert (f.severity, f.sqlstate, f.message) == (
        "ERROR",
        "XX000",
        chain(client.envelope, grpc(DDL + "AlterParallelism"), E6.format(t_id)),
    )
    assert await client.notices() == []

    # The control retries every 10 s and keeps failing while the blocker creates.
    assert await client.run("RWSHIM TICK 10") == "RWSHIM"
    assert await actors(client, m_id) == [2]

    # Lift the blocker's rate limit: its backfill ends at the throttle's barrier.
    assert (
        await client.run("alter materialized view blocker set backfill_rate_limit = default")
        == "ALTER_MATERIALIZED_VIEW"
    )
    assert (await job(client, "blocker"))[1] == "CREATED"
    # Nothing re-renders m before the control's next tick ...
    assert await actors(client, m_id) == [2]
    assert await client.run("RWSHIM TICK 10") == "RWSHIM"
    # ... which applies the catalog's parallelism to the live layout.
    assert await actors(client, m_id) == [3]
    assert await job(client, "m") == (m_id, "CREATED", "3")
    assert await job(client, "blocker") == (blocker, "CREATED", "bounded(64)")


async def test_recovery_applies_a_refused_restore_while_the_blocker_still_creates(
    client: Client, server: Running
) -> None:
    """Recovery renders every job from the catalog (barrier/context/recovery.rs), so the
    parallelism the refused restore committed takes effect; the background blocker resumes."""
    _, blocker, m_id = await restored_job_next_to_a_blocker(client)
    assert await client.run("RWSHIM TICK") == "RWSHIM"
    assert await actors(client, m_id) == [2]
    assert await client.run("recover") == "RECOVER"
    assert await actors(client, m_id) == [3]
    assert await job(client, "blocker") == (blocker, "CREATING", "bounded(64)")


async def test_alter_fragment_parallelism_unknown_id_is_a_catalog_error(
    client: Client, server: Running
) -> None:
    """reschedule_fragment_inplace: MetaError::catalog_id_not_found("fragment", id)
    (src/meta/src/stream/scale.rs:353-365), gRPC NotFound, which the frontend makes a Catalog
    error keeping the status and its 42704 (frontend/src/error.rs:220, meta/src/error.rs:
    155-158).  The same for a rate limit (streaming_job.rs:2578-2588, ApplyThrottle)."""
    await table_with_rows(client, rows=10)
    f = await client.fail("alter fragment 999 set parallelism = 2")
    assert (f.severity, f.sqlstate, f.message) == (
        "ERROR",
        "42704",
        chain(
            client.envelope,
            "Catalog error",
            grpc(DDL + "AlterFragmentParallelism", "Some requested entity was not found"),
            "fragment id not found: 999",
        ),
    )
    f = await client.fail("alter fragment 999 set rate_limit = 2")
    assert (f.sqlstate, f.message) == (
        "42704",
        chain(
            client.envelope,
            "Catalog error",
            grpc("/meta.StreamManagerService/ApplyThrottle", "Some requested entity was not found"),
            "fragment id not found: 999",
        ),
    )
    t_id, _, _ = await job(client, "t")
    assert [p for _, p in await fragments(client, t_id)] == ["inherit(bounded(4))"] * 2


async def test_alter_fragment_meets_the_barrier_check_but_not_error_1(
    client: Client, server: Running
) -> None:
    """reschedule_fragments (stream_manager.rs:1076-1102) has no blocked-set check: on the
    upstream of a creating snapshot backfill, ALTER TABLE answers error 1 while ALTER FRAGMENT
    commits the fragment's value (scale.rs:420-428) and is refused at the barrier (error 6)."""
    await table_with_rows(client, rows=1000)
    t_id, _, _ = await job(client, "t")
    await creating_mv(client, "blocker")
    root, dml = (fid for fid, _ in await fragments(client, t_id))

    f = await client.fail("alter table t set parallelism = 2")
    assert (f.sqlstate, f.message) == (
        "XX000",
        chain(
            client.envelope,
            grpc(DDL + "AlterParallelism"),
            f"Cannot alter the job {t_id} because it is blocked by creating unreschedulable "
            "backfill jobs",
        ),
    )
    f = await client.fail(f"alter fragment {root} set parallelism = 2")
    assert (f.severity, f.sqlstate, f.message) == (
        "ERROR",
        "XX000",
        chain(client.envelope, grpc(DDL + "AlterFragmentParallelism"), E6.format(t_id)),
    )
    # The catalog kept the value; the actors did not move.
    assert await fragments(client, t_id) == [(root, "override(2)"), (dml, "inherit(bounded(4))")]
    assert await actors(client, t_id) == [4, 4]
    # The same value again is no change at all (scale.rs:412-414): no command, no refusal.
    assert await client.run(f"alter fragment {root} set parallelism = 2") == "ALTER_FRAGMENT"
    assert await actors(client, t_id) == [4, 4]

    assert (
        await client.run("alter materialized view blocker set backfill_rate_limit = default")
        == "ALTER_MATERIALIZED_VIEW"
    )
    # Still no change for the catalog, so still no command: recovery renders it.
    assert await client.run(f"alter fragment {root} set parallelism = 2") == "ALTER_FRAGMENT"
    assert await actors(client, t_id) == [4, 4]
    assert await client.run("recover") == "RECOVER"
    assert await actors(client, t_id) == [2, 4]
    # A new value now goes through; DEFAULT (None) takes the override away again.
    assert await client.run(f"alter fragment {root}, {dml} set parallelism = 3") == (
        "ALTER_FRAGMENT"
    )
    assert await actors(client, t_id) == [3, 3]
    assert await client.run(f"alter fragment {root} set parallelism = default") == (
        "ALTER_FRAGMENT"
    )
    assert await fragments(client, t_id) == [
        (root, "inherit(bounded(4))"),
        (dml, "override(3)"),
    ]
    assert await actors(client, t_id) == [4, 3]


async def test_alter_fragment_needs_an_entry_of_each_no_shuffle_ensemble(
    client: Client, server: Running
) -> None:
    """An MV on a shared source is NoShuffle-connected to it: only the entry (the source's
    fragment) takes a value, and a request without it is an invalid parameter
    (scale.rs:376-393, bail_invalid_parameter!: gRPC InvalidArgument, message only)."""
    assert (
        await client.run(
            "create source src (v int) with (connector = 'kafka', topic = 'x',"
            " properties.bootstrap.server = 'localhost:9092') format plain encode json"
        )
        == "CREATE_SOURCE"
    )
    # A foreground create: it returns once its source backfill is done, at a barrier.
    assert await run_ticking(
        client, server, "create materialized view ms as select * from src"
    ) == ("CREATE_MATERIALIZED_VIEW")
    src, _, _ = await job(client, "src")
    ms, _, _ = await job(client, "ms")
    [(src_f, _)] = await fragments(client, src)
    [(ms_f, _)] = await fragments(client, ms)
    f = await client.fail(f"alter fragment {ms_f} set parallelism = 2")
    assert (f.severity, f.sqlstate, f.message) == (
        "ERROR",
        "XX000",
        chain(
            client.envelope,
            f"Invalid parameter value: Invalid parameter: none of the entry fragments [{src_f}]"
            " were included in the reschedule request; provide at least one entry fragment id",
        ),
    )
    assert await fragments(client, ms) == [(ms_f, f"upstream_fragment([{src_f}])")]
    assert await client.run(f"alter fragment {ms_f}, {src_f} set parallelism = 2") == (
        "ALTER_FRAGMENT"
    )
    assert await fragments(client, src) == [(src_f, "override(2)")]
    assert await fragments(client, ms) == [(ms_f, f"upstream_fragment([{src_f}])")]
    assert await actors(client, ms) == [2]


async def test_alter_fragment_values(client: Client, server: Running) -> None:
    """extract_fragment_parallelism (alter_parallelism.rs:181-244): DEFAULT, the identifier
    ``adaptive`` or a number literal parsed as u32; every other form, a list included."""
    await table_with_rows(client, rows=10)
    t_id, _, _ = await job(client, "t")
    root, _ = (fid for fid, _ in await fragments(client, t_id))
    plain = "Invalid input syntax: target parallelism must be a valid number or adaptive"
    for value in ("'adaptive'", "'2'", "bounded(2)", "1, 2", "auto", "true"):
        f = await client.fail(f"alter fragment {root} set parallelism = {value}")
        assert (f.sqlstate, f.message) == ("XX000", chain(client.envelope, plain)), value
    f = await client.fail(f"alter fragment {root} set parallelism = 1.5")
    assert f.message == chain(client.envelope, plain + ": invalid digit found in string")
    f = await client.fail(f"alter fragment {root} set parallelism = 4294967296")
    assert f.message == chain(client.envelope, plain + ": number too large to fit in target type")
    assert await client.run(f"alter fragment {root} set parallelism = ADAPTIVE") == (
        "ALTER_FRAGMENT"
    )
    assert (await fragments(client, t_id))[0] == (root, "override(bounded(4))")
    assert await client.run(f"alter fragment {root} set parallelism = 0") == "ALTER_FRAGMENT"
    assert (await fragments(client, t_id))[0] == (root, "override(bounded(4))")


async def test_alter_fragment_rate_limit_kinds(client: Client, server: Running) -> None:
    """ALTER FRAGMENT ... SET <KIND>_RATE_LIMIT sets the node of its kind
    (update_fragment_rate_limit_by_fragment_id, streaming_job.rs:3646-3734); a fragment
    without one is `fragment id N: rate limit node not found`, an invalid parameter
    (streaming_job.rs:2592-2597)."""
    await table_with_rows(client, rows=10)
    t_id, _, _ = await job(client, "t")
    root, dml = (fid for fid, _ in await fragments(client, t_id))
    f = await client.fail(f"alter fragment {root} set dml_rate_limit = 5")
    assert (f.sqlstate, f.message) == (
        "XX000",
        chain(
            client.envelope,
            f"Invalid parameter value: Invalid parameter: fragment id {root}: rate limit node "
            "not found",
        ),
    )
    assert await client.run(f"alter fragment {dml} set dml_rate_limit = 5") == "SET_VARIABLE"
    # The table has no connector: its Source node has no source to throttle.
    f = await client.fail(f"alter fragment {dml} set source_rate_limit = 5")
    assert f.message == chain(
        client.envelope,
        f"Invalid parameter value: Invalid parameter: fragment id {dml}: rate limit node not found",
    )
    # A Dml node is not among the nodes list_rate_limits reports (streaming_job.rs:3755-3800:
    # Source, StreamFsFetch, SourceBackfill, StreamScan, StreamCdcScan, Sink), and the
    # table's Source node has no source: rw_rate_limit has no row for the DML limit.
    rows = await client.rows(
        f"select fragment_id, rate_limit from rw_rate_limit where fragment_id = {dml}"
    )
    assert rows == []
