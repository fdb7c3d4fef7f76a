"""Test control over SQL (rwshim's extension statements, tag ``RWSHIM``): stepping barriers,
taking the clock, holding backfill, faults, restart, and the job table ``rwshim ctl jobs``
draws.  Every statement here is an extension, listed in the README; all need a superuser, as
risectl needs access to the meta node.

    RWSHIM TICK [n] [DATABASE name]       n barriers now (all databases, or the one named)
    RWSHIM CLOCK {MANUAL | AUTO}          stop / restart the periodic barriers
    RWSHIM {HOLD | RELEASE} BACKFILL id   stop / let go a creating job's backfill progress
    RWSHIM FAULT name {ON | OFF}          switch a documented fault (``RWSHIM FAULTS`` lists them)
    RWSHIM RESTART                        meta-node restart: RisingWave's recovery runs
    RWSHIM JOBS                           one row per streaming job (see ``JOB_COLUMNS``)
    RWSHIM PUSH rel [PARTITION 'p'] [KEY 'k'] 'payload' [, ...]
                                          deliver messages to a source / connector table

The ``rwshim.testing`` plugin and the dashboard call the same actions (``set_paused``,
``hold_backfill``, ``set_fault``, ``job_rows``) and ``Instance`` methods (``step``, ``set_manual``,
``restart``) directly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import msgspec.structs

from rwshim.common import pgtypes
from rwshim.common.outcome import Column, Outcome
from rwshim.errors import CatalogNotFound, InvalidParameterValue, PermissionDenied
from rwshim.sql import statements as st

if TYPE_CHECKING:
    from rwshim.binder.context import QueryContext
    from rwshim.instance import Instance

TAG = "RWSHIM"
MAX_TICKS = 100_000

# RWSHIM JOBS: what rwshim ctl jobs shows, one row per streaming job of every database.
JOB_COLUMNS = [
    Column("id", pgtypes.INT8),
    Column("database", pgtypes.VARCHAR),
    Column("name", pgtypes.VARCHAR),
    Column("kind", pgtypes.VARCHAR),
    Column("status", pgtypes.VARCHAR),
    Column("create_type", pgtypes.VARCHAR),
    Column("job_type", pgtypes.VARCHAR),
    Column("parallelism", pgtypes.VARCHAR),
    Column("actors", pgtypes.INT8),
    Column("max_parallelism", pgtypes.INT8),
    Column("paused", pgtypes.BOOL),
    Column("backfill_held", pgtypes.BOOL),
    Column("backfill_consumed", pgtypes.INT8),
    Column("backfill_total", pgtypes.INT8),
    Column("progress", pgtypes.VARCHAR),
]
FAULT_COLUMNS = [Column("name", pgtypes.VARCHAR), Column("enabled", pgtypes.BOOL)]


def fault_names(instance: Instance) -> list[str]:
    """The fault switches the engine documents (``rwshim.engine.engine.Faults``)."""
    return [f.name for f in msgspec.structs.fields(instance.engine.faults)]


def set_fault(instance: Instance, name: str, on: bool) -> None:
    """Switch one fault; an unknown name lists the known ones."""
    names = fault_names(instance)
    key = name.lower()
    if key not in names:
        raise InvalidParameterValue(f'unknown fault "{name}", expected one of: {", ".join(names)}')
    setattr(instance.engine.faults, key, on)


def set_paused(instance: Instance, database: str | None, paused: bool) -> None:
    """risectl meta pause / resume: the database named, or every database with streaming jobs
    (the test-control path of ALTER SYSTEM / DATABASE PAUSE: no privilege check)."""
    barrier = instance.engine.barrier
    if database is None:
        (barrier.pause_all if paused else barrier.resume_all)(None)
    else:
        (barrier.pause_database if paused else barrier.resume_database)(None, database)
    instance.query.invalidate()


def hold_backfill(instance: Instance, job_id: int, hold: bool) -> None:
    """Hold or release a streaming job's backfill; the job must exist."""
    if instance.engine.catalog.job_status(job_id) is None:
        raise InvalidParameterValue(f"streaming job {job_id} not found")
    instance.engine.backfill.hold(job_id, hold)
    instance.query.invalidate()


def job_rows(instance: Instance) -> list[tuple[object, ...]]:
    """The rows of RWSHIM JOBS, by job id."""
    engine = instance.engine
    progress_of = {p[0]: p[3] for p in engine.backfill.ddl_progress()}
    return [
        (
            job.id,
            job.database,
            job.name,
            job.kind,
            job.status,
            job.create_type,
            job.job_type,
            engine.actors.catalog_parallelism(job.id),
            sum(engine.actors.rendered_parallelism(job.id).values()),
            job.max_parallelism,
            job.paused,
            job.backfill_held,
            job.backfill_consumed,
            job.backfill_total,
            progress_of.get(job.id, "100%"),
        )
        for job in instance.catalog_reader.jobs()
    ]


def find_relation(instance: Instance, ctx: QueryContext, parts: tuple[str, ...]) -> int:
    """The id of the source or table ``parts`` names in the session's database, looked up
    along the search path as RisingWave's binder resolves a relation name."""
    from rwshim.common.names import display_name, resolve_schema_qualified_name

    schema, name = resolve_schema_qualified_name(ctx.database, parts)
    schemas = [schema] if schema is not None else ctx.resolved_path()
    for s in schemas:
        rel = instance.relations.relation(ctx.database_id, s, name)
        if rel is not None and rel.kind.value in ("table", "source"):
            return rel.id
    raise CatalogNotFound("table or source", display_name(parts))


async def push_messages(
    instance: Instance,
    relation_id: int,
    partition: str | None,
    messages: list[tuple[bytes | None, bytes | None]],
) -> int:
    """RWSHIM PUSH's action (the plugin's ``push`` calls it too): the messages decoded and
    written in the epoch, seen at the next barrier; the number skipped as unparsable."""
    await instance.settle_changes()
    return await instance.sources.push(relation_id, partition, messages, instance.clock.now_ms())


def columns(stmt: st.Statement) -> list[Column] | None:
    """The result columns of a control statement (for Describe), None when it has none."""
    if isinstance(stmt, st.ControlJobs):
        return JOB_COLUMNS
    if isinstance(stmt, st.ControlFaults):
        return FAULT_COLUMNS
    return None


class ControlSession(Protocol):
    """What the control statements read of the frontend that answers them
    (``rwshim.frontend.frontend.Frontend``, a layer above this module)."""

    @property
    def instance(self) -> Instance: ...

    @property
    def is_superuser(self) -> bool: ...

    def query_context(self) -> QueryContext: ...


def handlers(frontend: ControlSession) -> dict[type, Callable[..., Any]]:
    """Statement class -> handler for the control statements a frontend answers."""
    instance = frontend.instance

    def require_super() -> None:
        if not frontend.is_superuser:
            # rwshim extension: test control needs what risectl needs (meta access).
            raise PermissionDenied("must be superuser to use rwshim control statements")

    def tick(stmt: st.ControlTick, params: list[object]) -> Outcome:
        require_super()
        if not 1 <= stmt.count <= MAX_TICKS:
            # Barriers run on the server's loop: a huge count would stall every session.
            raise InvalidParameterValue(f"tick count must be between 1 and {MAX_TICKS}")
        db = None if stmt.database is None else instance.engine.catalog.database_id(stmt.database)
        instance.step(stmt.count, db)
        return Outcome(TAG)

    def clock(stmt: st.ControlClock, params: list[object]) -> Outcome:
        require_super()
        instance.set_manual(stmt.manual)
        return Outcome(TAG)

    def backfill(stmt: st.ControlBackfill, params: list[object]) -> Outcome:
        require_super()
        hold_backfill(instance, stmt.job_id, stmt.hold)
        return Outcome(TAG)

    def fault(stmt: st.ControlFault, params: list[object]) -> Outcome:
        require_super()
        set_fault(instance, stmt.name, stmt.on)
        return Outcome(TAG)

    def faults(stmt: st.ControlFaults, params: list[object]) -> Outcome:
        require_super()
        f = instance.engine.faults
        rows = [(n, bool(getattr(f, n))) for n in fault_names(instance)]
        return Outcome(TAG, FAULT_COLUMNS, rows)

    def restart(stmt: st.ControlRestart, params: list[object]) -> Outcome:
        require_super()
        instance.restart()
        return Outcome(TAG)

    def jobs(stmt: st.ControlJobs, params: list[object]) -> Outcome:
        require_super()
        return Outcome(TAG, JOB_COLUMNS, job_rows(instance))

    async def push(stmt: st.ControlPush, params: list[object]) -> Outcome:
        require_super()
        rel_id = find_relation(instance, frontend.query_context(), stmt.target.parts)
        messages = [
            (
                None if m.key is None else m.key.encode(),
                None if m.payload is None else m.payload.encode(),
            )
            for m in stmt.messages
        ]
        await push_messages(instance, rel_id, stmt.partition, messages)
        return Outcome(TAG)

    return {
        st.ControlTick: tick,
        st.ControlClock: clock,
        st.ControlBackfill: backfill,
        st.ControlFault: fault,
        st.ControlFaults: faults,
        st.ControlRestart: restart,
        st.ControlJobs: jobs,
        st.ControlPush: push,
    }
