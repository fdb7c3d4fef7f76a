"""ALTER statements on streaming jobs, relations, databases, the system and fragments: each
hands the statement's values to the engine part that owns the rule (scale, throttle, catalog,
params, barrier).

RisingWave: ``src/frontend/src/handler/alter_parallelism.rs``,
``alter_streaming_rate_limit.rs``, ``alter_resource_group.rs``, ``alter_rename.rs``,
``alter_swap_rename.rs``, ``alter_owner.rs``, ``alter_set_schema.rs``,
``alter_database_param.rs``, ``alter_system.rs``, ``alter_streaming_config.rs``,
``handler/mod.rs`` (the dispatch of ``ALTER ... SET``); rwshim's ALTER DATABASE/SYSTEM
PAUSE | RESUME extension.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rwshim.common.outcome import Outcome
from rwshim.common.session_config import SessionConfig
from rwshim.engine.types import Result
from rwshim.errors import InternalError
from rwshim.frontend import alter_values
from rwshim.frontend.common import Handler, engine_name, refuse_unparsed, waiter_future
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
        lambda: method(
            fe.ctx(), stmt.kind.lower(), engine_name(stmt.name, fe.database), *args, **kw
        ),
    )


async def handle_alter_parallelism(
    fe: Frontend, stmt: st.AlterParallelism | st.AlterBackfillParallelism, params: list[object]
) -> Outcome:
    """ALTER <kind> <name> SET [BACKFILL_]PARALLELISM {TO | =} <value> [DEFERRED].

    The release decides which values SET PARALLELISM reads (v2.8.5: a number or adaptive,
    extract_table_parallelism, v2.8.5 alter_parallelism.rs:83-124) and whether the
    reschedule first waits for the foreground creates running now (``reschedule_lock``)."""
    release = fe.instance.release
    if isinstance(stmt, st.AlterBackfillParallelism):
        refuse_unparsed(fe, stmt, "BACKFILL_PARALLELISM")
    scale = fe.instance.engine.scale
    fn = (
        scale.alter_parallelism
        if isinstance(stmt, st.AlterParallelism)
        else scale.alter_backfill_parallelism
    )
    if isinstance(stmt, st.AlterParallelism) and not release.alter_parallelism_strategies:
        value = alter_values.simple_parallelism_text(stmt.value)
    else:
        value = alter_values.parallelism_text(stmt.value)
    notices: list[str] = []
    if release.foreground_holds_reschedule_lock:
        # Name resolution comes first in RisingWave's handler (it fails without waiting).
        plain = isinstance(stmt, st.AlterParallelism)
        engine = fe.instance.engine
        engine.catalog.resolve_job(
            fe.ctx(),
            stmt.kind.lower(),
            engine_name(stmt.name, fe.database),
            "parallelism" if plain else "backfill_parallelism",
        )
        op = "ALTER PARALLELISM" if plain else "ALTER BACKFILL PARALLELISM"
        notices = await _wait_reschedule_lock(fe, op)
    out = await _alter_object(fe, stmt, fn, value, deferred=stmt.deferred)
    if notices:
        out.notices[:0] = notices
    return out


# LongRunningNotificationAction::SuggestRecover (v3.0.3:handler/util.rs:394-400,
# v2.8.5:handler/util.rs:349-355), sent after slow_ddl_notification_secs (0: never).
SUGGEST_RECOVER = (
    "{op} has taken more than {secs} secs, likely due to high barrier latency.\n"
    "You may trigger cluster recovery to let {op} take effect immediately.\n"
    "Run RECOVER in a separate session to trigger recovery.\n"
    "See: https://docs.risingwave.com/sql/commands/sql-recover#recover"
)


async def _wait_reschedule_lock(fe: Frontend, op: str) -> list[str]:
    """Wait until no foreground create holds the reschedule lock; the NOTICE
    execute_with_long_running_notification sends when that takes longer than
    slow_ddl_notification_secs (v3.0.3:handler/util.rs:417-445)."""
    waiter = fe.instance.engine.waits.reschedule_lock()
    if waiter.done:
        return []
    fut = waiter_future(waiter)
    secs = fe.config.slow_ddl_notification_secs
    if secs == 0:
        await fut
        return []
    try:
        await asyncio.wait_for(asyncio.shield(fut), secs)
        return []
    except TimeoutError:
        await fut
        return [SUGGEST_RECOVER.format(op=op, secs=secs)]


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
    refuse_unparsed(fe, stmt, "RESOURCE_GROUP")
    group = alter_values.resource_group(stmt.value)
    if stmt.kind == "DATABASE":
        # ALTER DATABASE ... {SET | RESET} RESOURCE_GROUP ... DEFERRED
        # (alter_database_param.rs:78-121): the database's own setting, not a reschedule.
        return await fe.engine_call(
            stmt.tag,
            lambda: fe.instance.engine.params.alter_database_resource_group(
                fe.ctx(), stmt.name.name, group
            ),
        )
    return await _alter_object(
        fe, stmt, fe.instance.engine.scale.alter_resource_group, group, deferred=stmt.deferred
    )


async def handle_alter_config(
    fe: Frontend, stmt: st.AlterSetConfig | st.AlterResetConfig, params: list[object]
) -> Outcome:
    """ALTER <kind> <name> SET CONFIG (...) / RESET CONFIG (...) (alter_streaming_config.rs):
    RESET is SET with every value NULL."""
    if isinstance(stmt, st.AlterSetConfig):
        entries: list[tuple[str, str]] = list(stmt.entries)
    else:
        entries = [(k, st.OptionValue("NULL", "null")) for k in stmt.keys]
    return await _alter_object(fe, stmt, fe.instance.engine.streaming_config.alter_config, entries)


async def handle_alter_rename(fe: Frontend, stmt: st.AlterRename, params: list[object]) -> Outcome:
    if stmt.kind == "SUBSCRIPTION":
        subs = fe.instance.engine.subscriptions
        return await fe.engine_call(
            stmt.tag,
            lambda: subs.rename(fe.ctx(), engine_name(stmt.name, fe.database), stmt.new_name.name),
        )
    return await _alter_object(fe, stmt, fe.instance.engine.alter.rename, stmt.new_name.name)


async def handle_alter_swap(fe: Frontend, stmt: st.AlterSwap, params: list[object]) -> Outcome:
    if stmt.kind == "SUBSCRIPTION":
        subs = fe.instance.engine.subscriptions
        return await fe.engine_call(
            stmt.tag,
            lambda: subs.swap(
                fe.ctx(),
                engine_name(stmt.name, fe.database),
                engine_name(stmt.target, fe.database),
            ),
        )
    return await _alter_object(
        fe, stmt, fe.instance.engine.alter.swap, engine_name(stmt.target, fe.database)
    )


async def handle_alter_owner(fe: Frontend, stmt: st.AlterOwner, params: list[object]) -> Outcome:
    engine = fe.instance.engine
    if stmt.kind in ("SECRET", "CONNECTION"):
        return await _alter_object(fe, stmt, engine.secrets.alter_owner, stmt.new_owner)
    if stmt.kind == "SUBSCRIPTION":
        return await fe.engine_call(
            stmt.tag,
            lambda: engine.subscriptions.alter_owner(
                fe.ctx(), engine_name(stmt.name, fe.database), stmt.new_owner
            ),
        )
    return await _alter_object(fe, stmt, engine.alter.alter_owner, stmt.new_owner)


async def handle_alter_set_schema(
    fe: Frontend, stmt: st.AlterSetSchema, params: list[object]
) -> Outcome:
    engine = fe.instance.engine
    if stmt.kind == "SUBSCRIPTION":
        return await fe.engine_call(
            stmt.tag,
            lambda: engine.subscriptions.set_schema(
                fe.ctx(), engine_name(stmt.name, fe.database), stmt.new_schema.name
            ),
        )
    if stmt.kind == "CONNECTION":
        return await fe.engine_call(
            stmt.tag,
            lambda: engine.secrets.set_schema(
                fe.ctx(), engine_name(stmt.name, fe.database), stmt.new_schema.name
            ),
        )
    return await _alter_object(fe, stmt, engine.alter.set_schema, stmt.new_schema.name)


async def handle_alter_database_param(
    fe: Frontend, stmt: st.AlterDatabaseParam, params: list[object]
) -> Outcome:
    # The value is read before the database is looked up (mod.rs:767-828, then
    # alter_database_param.rs:25-29).
    value = alter_values.database_param(stmt.param, stmt.value)
    return await fe.engine_call(
        stmt.tag,
        lambda: fe.instance.engine.params.alter_database_param(
            fe.ctx(), stmt.database.name, stmt.param.lower(), value
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
    """ALTER SYSTEM SET (alter_system.rs:25-80): a session parameter's cluster-wide default
    when the name is one (no superuser needed), else a system parameter."""
    value = alter_values.param_text(stmt.value)
    if SessionConfig.is_known(stmt.param, fe.config.table):
        if not SessionConfig.can_alter_system(stmt.param, fe.config.table):
            raise InternalError(f"session param {stmt.param} cannot be altered system wide")
        out = await fe.engine_call(stmt.tag, lambda: _set_session_param(fe, stmt.param, value))
        # The current session takes the value too (alter_system.rs:48-58).
        if value is None:
            fe.config.reset(stmt.param)
        else:
            fe.config.set(stmt.param, value)
        fe.settings_changed()
        return out
    return await fe.engine_call(
        stmt.tag,
        lambda: fe.instance.engine.params.alter_system_set(fe.ctx(), stmt.param.lower(), value),
    )


def _set_session_param(fe: Frontend, name: str, value: str | None) -> Result:
    fe.instance.engine.params.set_session_param(name, value)
    return Result([SessionConfig.alter_system_notice(name, value)])


async def handle_alter_fragment_parallelism(
    fe: Frontend, stmt: st.AlterFragmentParallelism, params: list[object]
) -> Outcome:
    value, is_ident = alter_values.fragment_parallelism(stmt.value)
    return await fe.engine_call(
        stmt.tag,
        lambda: fe.instance.engine.scale.alter_fragment_parallelism(
            fe.ctx(), list(stmt.fragment_ids), value, is_ident=is_ident
        ),
    )


async def handle_alter_fragment_rate_limit(
    fe: Frontend, stmt: st.AlterFragmentRateLimit, params: list[object]
) -> Outcome:
    value = None if stmt.rate_limit < 0 else stmt.rate_limit
    return await fe.engine_call(
        stmt.tag,
        lambda: fe.instance.engine.throttle.alter_fragment_rate_limit(
            fe.ctx(), list(stmt.fragment_ids), value, stmt.rate_limit_type.lower()
        ),
    )


HANDLERS: dict[type[st.Statement], Handler] = {
    st.AlterParallelism: handle_alter_parallelism,
    st.AlterBackfillParallelism: handle_alter_parallelism,
    st.AlterRateLimit: handle_alter_rate_limit,
    st.AlterResourceGroup: handle_alter_resource_group,
    st.AlterSetConfig: handle_alter_config,
    st.AlterResetConfig: handle_alter_config,
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
