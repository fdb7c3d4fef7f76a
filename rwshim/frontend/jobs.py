"""Statements about running work: CANCEL JOBS, KILL, WAIT, FLUSH and RECOVER.

RisingWave: ``src/frontend/src/handler/cancel_job.rs``, ``handler/kill_process.rs:23-88``,
``handler/wait.rs``, ``handler/flush.rs``, ``handler/recover.rs``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rwshim.common.outcome import Outcome
from rwshim.errors import InvalidParameterValue, Uncategorized
from rwshim.frontend.common import FRONTEND_WORKER_ID, KINDS, Handler, do_flush, engine_name
from rwshim.sql import statements as st

if TYPE_CHECKING:
    from rwshim.frontend.frontend import Frontend


async def handle_cancel_jobs(fe: Frontend, stmt: st.CancelJobs, params: list[object]) -> Outcome:
    return await fe.engine_call(
        stmt.tag, lambda: fe.instance.engine.jobs.cancel_jobs(fe.ctx(), list(stmt.job_ids))
    )


def handle_kill(fe: Frontend, stmt: st.Kill, params: list[object]) -> Outcome:
    """KILL '<worker>:<process>' (src/frontend/src/handler/kill_process.rs:23-88)."""
    parts = stmt.process.split(":")
    try:
        if len(parts) != 2:
            raise ValueError
        worker, pid = int(parts[0]), int(parts[1])
        if worker < 0 or worker > 2**32 - 1 or not -(2**31) <= pid < 2**31:
            raise ValueError
    except ValueError:
        raise InvalidParameterValue("invalid WorkerProcessId") from None
    if worker != FRONTEND_WORKER_ID:
        raise InvalidParameterValue(f"worker {worker} not found")
    registry = fe.instance.registry
    if registry is None or not registry.kill(pid):
        raise Uncategorized("Session not found")
    return Outcome(stmt.tag)


async def handle_wait(fe: Frontend, stmt: st.Wait, params: list[object]) -> Outcome:
    kind = KINDS.get(stmt.object_type) if stmt.object_type else None
    name = engine_name(stmt.name, fe.database) if stmt.name else None
    return await fe.engine_call(
        stmt.tag, lambda: fe.instance.engine.jobs.wait(fe.ctx(), kind, name)
    )


async def handle_flush(fe: Frontend, stmt: st.Flush, params: list[object]) -> Outcome:
    return await do_flush(fe, stmt.tag)


async def handle_recover(fe: Frontend, stmt: st.Recover, params: list[object]) -> Outcome:
    return await fe.engine_call(
        stmt.tag, lambda: fe.instance.engine.recovery.adhoc_recover(fe.ctx())
    )


HANDLERS: dict[type[st.Statement], Handler] = {
    st.CancelJobs: handle_cancel_jobs,
    st.Kill: handle_kill,
    st.Wait: handle_wait,
    st.Flush: handle_flush,
    st.Recover: handle_recover,
}
