"""ALTER statements on streaming jobs, relations, databases, the system and fragments: each
hands the statement's values to the engine part that owns the rule (scale, throttle, catalog,
params, barrier).

RisingWave: ``src/frontend/src/handler/alter_parallelism.rs``,
``alter_streaming_rate_limit.rs``, ``alter_resource_group.rs``, ``alter_rename.rs``,
``alter_swap_rename.rs``, ``alter_owner.rs``, ``alter_set_schema.rs``,
``alter_database_param.rs``, ``alter_system.rs``, ``handler/mod.rs`` (the dispatch of
``ALTER ... SET``); rwshim's ALTER DATABASE/SYSTEM PAUSE | RESUME extension.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rwshim.engine.types import Result
from rwshim.frontend.common import Handler, engine_name
from rwshim.results import Outcome
from rwshim.sql import statements as st

if TYPE_CHECKING:
    from rwshim.frontend.frontend import Frontend


async def _alter_object(
    fe: Frontend, stmt: st._AlterObject, method: Callable[..., Result], *args: Any, **kw: Any
) -> Outcome:
    """ALTER <kind> <name> ...: the engine method takes the context, RisingWave's lower-case
    object kind and the name, then the statement's own arguments."""
    return await fe.engine_call(
        stmt.tag,
        lambda: method(fe.ctx(), stmt.kind.lower(), engine_name(stmt.name), *args, **kw),
    )


async def handle_alter_parallelism(
    fe: Frontend, stmt: st.AlterParallelism | st.AlterBackfillParallelism, params: list[object]
) -> Outcome:
    """ALTER <kind> <name> SET [BACKFILL_]PARALLELISM {TO | =} <value> [DEFERRED]."""
    scale = fe.instance.engine.scale
    fn = (
        scale.alter_parallelism
        if isinstance(stmt, st.AlterParallelism)
        else scale.alter_backfill_parallelism
    )
    value = None if stmt.value.kind == "default" else stmt.value.text
    return await _alter_object(fe, stmt, fn, value, deferred=stmt.deferred)


async def handle_alter_rate_limit(
    fe: Frontend, stmt: st.AlterRateLimit, params: list[object]
) -> Outcome:
    value = None if stmt.rate_limit < 0 else stmt.rate_limit
    return await _alter_object(
        fe, stmt, fe.instance.engine.throttle.alter_rate_limit, stmt.rate_limit_type.lower(), value
    )


async def handle_alter_resource_group(
    fe: Frontend, stmt: st.AlterResourceGroup, params: list[object]
) -> Outcome:
    group = None if stmt.value is None or stmt.value.kind == "default" else stmt.value.text
    return await _alter_object(
        fe, stmt, fe.instance.engine.scale.alter_resource_group, group, deferred=stmt.deferred
    )


async def handle_alter_rename(fe: Frontend, stmt: st.AlterRename, params: list[object]) -> Outcome:
    return await _alter_object(fe, stmt, fe.instance.engine.catalog.rename, stmt.new_name.name)


async def handle_alter_swap(fe: Frontend, stmt: st.AlterSwap, params: list[object]) -> Outcome:
    return await _alter_object(fe, stmt, fe.instance.engine.catalog.swap, engine_name(stmt.target))


async def handle_alter_owner(fe: Frontend, stmt: st.AlterOwner, params: list[object]) -> Outcome:
    return await _alter_object(fe, stmt, fe.instance.engine.catalog.alter_owner, stmt.new_owner)


async def handle_alter_set_schema(
    fe: Frontend, stmt: st.AlterSetSchema, params: list[object]
) -> Outcome:
    return await _alter_object(
        fe, stmt, fe.instance.engine.catalog.set_schema, stmt.new_schema.name
    )


async def handle_alter_database_param(
    fe: Frontend, stmt: st.AlterDatabaseParam, params: list[object]
) -> Outcome:
    value = None if stmt.value.kind == "default" else stmt.value.text
    return await fe.engine_call(
        stmt.tag,
        lambda: fe.instance.engine.params.alter_database_param(
            fe.ctx(), stmt.database.name, stmt.param, value
        ),
    )


async def handle_alter_database_pause(
    fe: Frontend, stmt: st.AlterDatabasePause, params: list[object]
) -> Outcome:
    barrier = fe.instance.engine.barrier
    fn = barrier.pause_database if stmt.pause else barrier.resume_database
    return await fe.engine_call(stmt.tag, lambda: fn(fe.ctx(), stmt.database.name))


async def handle_alter_system_pause(
    fe: Frontend, stmt: st.AlterSystemPause, params: list[object]
) -> Outcome:
    barrier = fe.instance.engine.barrier
    fn = barrier.pause_all if stmt.pause else barrier.resume_all
    return await fe.engine_call(stmt.tag, lambda: fn(fe.ctx()))


async def handle_alter_system(fe: Frontend, stmt: st.AlterSystem, params: list[object]) -> Outcome:
    value = None if stmt.value.kind == "default" else stmt.value.text
    return await fe.engine_call(
        stmt.tag,
        lambda: fe.instance.engine.params.alter_system_set(fe.ctx(), stmt.param, value),
    )


async def handle_alter_fragment_parallelism(
    fe: Frontend, stmt: st.AlterFragmentParallelism, params: list[object]
) -> Outcome:
    value = None if stmt.value.kind == "default" else stmt.value.text
    return await fe.engine_call(
        stmt.tag,
        lambda: fe.instance.engine.scale.alter_fragment_parallelism(
            fe.ctx(), list(stmt.fragment_ids), value
        ),
    )


async def handle_alter_fragment_rate_limit(
    fe: Frontend, stmt: st.AlterFragmentRateLimit, params: list[object]
) -> Outcome:
    value = None if stmt.rate_limit < 0 else stmt.rate_limit
    return await fe.engine_call(
        stmt.tag,
        lambda: fe.instance.engine.throttle.alter_fragment_rate_limit(
            fe.ctx(), list(stmt.fragment_ids), value
        ),
    )


HANDLERS: dict[type[st.Statement], Handler] = {
    st.AlterParallelism: handle_alter_parallelism,
    st.AlterBackfillParallelism: handle_alter_parallelism,
    st.AlterRateLimit: handle_alter_rate_limit,
    st.AlterResourceGroup: handle_alter_resource_group,
    st.AlterRename: handle_alter_rename,
    st.AlterSwap: handle_alter_swap,
    st.AlterOwner: handle_alter_owner,
    st.AlterSetSchema: handle_alter_set_schema,
    st.AlterDatabaseParam: handle_alter_database_param,
    st.AlterDatabasePause: handle_alter_database_pause,
    st.AlterSystemPause: handle_alter_system_pause,
    st.AlterSystem: handle_alter_system,
    st.AlterFragmentParallelism: handle_alter_fragment_parallelism,
    st.AlterFragmentRateLimit: handle_alter_fragment_rate_limit,
}
