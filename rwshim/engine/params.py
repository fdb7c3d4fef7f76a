"""System parameters (their defaults, SHOW PARAMETERS, ALTER SYSTEM SET with RisingWave's
validation and notices), the session-variable defaults ALTER SYSTEM SET persists, and the
per-database barrier settings (ALTER DATABASE ... SET barrier_interval_ms |
checkpoint_frequency, and the interval each database's barriers follow).

RisingWave: ``src/meta/src/controller/system_param.rs`` and ``src/common/src/system_param/
mod.rs:76-102, :325-372`` (names, defaults, mutability, parsing), ``controller/
session_params.rs``, ``src/frontend/src/handler/alter_system.rs``, the database's barrier
settings in ``controller/catalog/alter_op.rs:820`` and ``handler/alter_database_param.rs``
(``mod.rs:767-828``).  The one read every part makes, ``Meta.system_param``, is the store's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rwshim.common import pgtypes
from rwshim.common import session_config as sc
from rwshim.common.outcome import Column
from rwshim.engine import parallelism as par
from rwshim.engine import sysparams
from rwshim.engine.catalog import Catalog
from rwshim.engine.state import Meta
from rwshim.engine.types import Context, Result
from rwshim.engine.users import Users
from rwshim.engine.waits import Waits
from rwshim.errors import (
    DDL,
    InvalidInputSyntax,
    MetaRpcError,
    PermissionDenied,
    RwError,
    SystemParamsError,
)
from rwshim.lazy import lazy_module

if TYPE_CHECKING:
    import json
else:
    json = lazy_module("json")  # on first use: start-up and SELECT 1 read and write no JSON

# src/common/src/system_param/mod.rs:107-109: the values ALTER SYSTEM / ALTER DATABASE warn at.
NOTICE_BARRIER_INTERVAL_MS = 300_000
NOTICE_CHECKPOINT_FREQUENCY = 60
SESSION_PARAM_CALL = "/meta.SessionParamService/SetSessionParam"
# alter_database_param.rs:113-116
DATABASE_RESOURCE_GROUP_NOTICE = (
    "The database resource group metadata has been updated, but it will not take effect "
    "immediately. Manually trigger recovery for inherited streaming jobs to use the new "
    "database resource group."
)


def barrier_interval_notice(interval: int) -> str:
    """alter_system.rs:66-69, alter_database_param.rs:36-39."""
    return (
        f"Barrier interval is set to {interval} ms >= {NOTICE_BARRIER_INTERVAL_MS} ms. This can "
        "hurt freshness and potentially cause OOM."
    )


def checkpoint_frequency_notice(frequency: int) -> str:
    """alter_system.rs:71-74, alter_database_param.rs:45-48."""
    return (
        f"Checkpoint frequency is set to {frequency} >= {NOTICE_CHECKPOINT_FREQUENCY}. This can "
        "hurt freshness and potentially cause OOM."
    )


class Params:
    """System parameters, session-variable defaults and per-database barrier settings."""

    def __init__(self, meta: Meta, users: Users, catalog: Catalog, waits: Waits) -> None:
        self.meta = meta
        self.store = meta.store
        self.conn = meta.conn
        self.users = users
        self.catalog = catalog
        self.waits = waits
        # The release's parameters (v2.8.5 has one more: sysparams.params_for).
        self.system_params = sysparams.params_for(meta.release)
        self.system_param_by_name = {p.name: p for p in self.system_params}

    # ------------------------------------------------------------------ system parameters

    def ensure_defaults(self) -> None:
        """The system parameters' defaults, for a store that has none yet."""
        with self.store.transaction():
            for p in self.system_params:
                self.conn.execute(
                    "INSERT OR IGNORE INTO system_parameter(name, value) VALUES (?, ?)",
                    (p.name, p.default),
                )

    def take_pause_on_next_bootstrap(self) -> bool:
        """Whether this bootstrap starts paused: ``pause_on_next_bootstrap``, reset to false
        once it took effect (take_pause_on_bootstrap, src/meta/src/barrier/worker.rs:340-361)."""
        if not par.parse_bool(self.meta.system_param("pause_on_next_bootstrap") or "false"):
            return False
        with self.store.transaction():
            self.conn.execute(
                "UPDATE system_parameter SET value = 'false' WHERE name = 'pause_on_next_bootstrap'"
            )
        return True

    def barrier_interval_ms(self, database_id: int) -> int:
        """The database's barrier interval: its own setting, else the system parameter."""
        v = self.meta.val(
            "SELECT barrier_interval_ms FROM database WHERE database_id = ?", (database_id,)
        )
        if v is None:
            return int(self.meta.system_param("barrier_interval_ms") or 1000)
        return int(v)

    def checkpoint_frequency(self, database_id: int) -> int:
        """The database's checkpoint frequency: its own setting, else the system parameter
        (schedule.rs try_get_checkpoint: ``db_state.checkpoint_frequency.unwrap_or(sys)``)."""
        v = self.meta.val(
            "SELECT checkpoint_frequency FROM database WHERE database_id = ?", (database_id,)
        )
        if v is None:
            return int(self.meta.system_param("checkpoint_frequency") or 1)
        return int(v)

    def show_parameters(self) -> Result:
        """SHOW PARAMETERS: Name, Value, Description, Mutable."""
        cols = [
            Column("Name", pgtypes.VARCHAR),
            Column("Value", pgtypes.VARCHAR),
            Column("Description", pgtypes.VARCHAR),
            Column("Mutable", pgtypes.BOOL, 1),
        ]
        rows: list[tuple[object, ...]] = []
        for p in self.system_params:
            value = self.meta.system_param(p.name)
            if p.name == "license_key" and value not in ("", "<default>"):
                value = "<redacted>"
            rows.append((p.name, value, p.description, p.mutable))
        return Result(columns=cols, rows=rows)

    def alter_system_set(self, ctx: Context, name: str, value: str | None) -> Result:
        """ALTER SYSTEM SET <system parameter> {TO|=} <v>|DEFAULT (alter_system.rs:60-80; meta
        set_param, src/meta/src/controller/system_param.rs:182-220, with set_system_param's
        parse and OverrideValidate, src/common/src/system_param/mod.rs:325-372, :449-485).
        Session parameters go through ``set_session_param``."""
        if not self.users.is_super(ctx):
            raise PermissionDenied("must be superuser to execute ALTER SYSTEM command")
        p = self.system_param_by_name.get(name)
        if p is None:
            raise SystemParamsError(f"unrecognized system parameter {json.dumps(name)}")
        if not p.mutable:
            raise SystemParamsError(f"{json.dumps(name)} is immutable")
        if value is None:
            if not p.has_default:
                raise SystemParamsError(f"{name} does not have a default value")
            text = p.default
        else:
            try:
                text = sysparams.parse_value(p, value)
            except ValueError as e:
                raise SystemParamsError(f"cannot parse parameter value: {e}") from None
        problem = sysparams.validate(p, text)
        if problem is not None:
            raise SystemParamsError(problem)
        with self.store.transaction():
            self.conn.execute("UPDATE system_parameter SET value = ? WHERE name = ?", (text, name))
        self.waits.drain()
        # The response carries every parameter, so the notices look at both whatever was set
        # (alter_system.rs:64-76; NOTICE_* at system_param/mod.rs:107-109).
        notices = []
        interval = int(self.meta.system_param("barrier_interval_ms") or 1000)
        frequency = int(self.meta.system_param("checkpoint_frequency") or 1)
        if interval >= NOTICE_BARRIER_INTERVAL_MS:
            notices.append(barrier_interval_notice(interval))
        if frequency >= NOTICE_CHECKPOINT_FREQUENCY:
            notices.append(checkpoint_frequency_notice(frequency))
        return Result(notices)

    # ------------------------------------------------------------------ session-variable defaults

    def session_defaults(self) -> dict[str, str]:
        """Session-variable defaults set with ALTER SYSTEM SET (a new session starts here)."""
        return {
            str(k): str(v)
            for k, v in self.conn.execute("SELECT name, value FROM session_parameter")
        }

    def set_session_param(self, name: str, value: str | None) -> str:
        """Meta's SetSessionParam (src/meta/src/controller/session_params.rs:136-170): the
        value parsed as the session variable's type, stored as its display (DEFAULT: the
        declared default), which every new session then starts with; returns the display.
        A bad value is meta's `Session parameters error` over the session-config error."""
        table = sc.table_for(self.meta.release)
        entry = table.entry_name(name)
        if not sc.SessionConfig.is_known(entry, table):
            raise SystemParamsError(
                f"unrecognized session parameter {json.dumps(entry)}",
                call=SESSION_PARAM_CALL,
            )
        probe = sc.SessionConfig(table=table)
        try:
            if value is None:
                probe.reset(entry)
            else:
                probe.set(entry, value)
        except RwError as e:
            # SessionConfigError lifted into MetaErrorInner::SessionConfig (error.rs:103-108).
            raise MetaRpcError(
                SESSION_PARAM_CALL, "Session parameters error", *e.chain[1:]
            ) from None
        shown = probe.get(entry)
        with self.store.transaction():
            self.conn.execute(
                "INSERT OR REPLACE INTO session_parameter(name, value) VALUES (?, ?)",
                (entry, shown),
            )
        return shown

    # ------------------------------------------------------------------ per-database settings

    def alter_database_param(
        self, ctx: Context, database: str, param: str, value: int | None
    ) -> Result:
        """ALTER DATABASE <db> SET barrier_interval_ms | checkpoint_frequency, the value read by
        the frontend (``rwshim.frontend.alter_values.database_param``): the notices of
        alter_database_param.rs:31-56, then meta's OverrideValidate
        (controller/catalog/alter_op.rs:820-864, an anyhow error: gRPC Internal).  None
        (DEFAULT) falls back to the system parameter."""
        if param not in ("barrier_interval_ms", "checkpoint_frequency"):
            raise InvalidInputSyntax(f"Unsupported database config parameter: {param}")
        db = self.catalog.database_id(database)
        # alter_database_param.rs:40: the owner or a superuser, before the value is looked at
        owner = self.meta.val("SELECT owner_id FROM database WHERE database_id = ?", (db,))
        self.catalog.privileges.check_db_schema_owner(ctx, int(owner))
        notices: list[str] = []
        if value is not None:
            # a per-database barrier setting is a ResourceGroup feature
            # (alter_database_param.rs:45-60)
            self.meta.check_feature("ResourceGroup")
            if param == "barrier_interval_ms" and value >= NOTICE_BARRIER_INTERVAL_MS:
                notices.append(barrier_interval_notice(value))
            if param == "checkpoint_frequency" and value >= NOTICE_CHECKPOINT_FREQUENCY:
                notices.append(checkpoint_frequency_notice(value))
            problem = sysparams.validate(self.system_param_by_name[param], str(value))
            if problem is not None:
                raise MetaRpcError(DDL + "AlterDatabaseParam", problem)
        with self.store.transaction():
            self.conn.execute(f"UPDATE database SET {param} = ? WHERE database_id = ?", (value, db))
        return Result(notices)

    def create_database(
        self,
        ctx: Context,
        name: str,
        *,
        if_not_exists: bool = False,
        owner: str | None = None,
        resource_group: str | None = None,
        resource_group_error: RwError | None = None,
        barrier_interval_ms: int | None = None,
        checkpoint_frequency: int | None = None,
    ) -> Result:
        """CREATE DATABASE with its options (create_database.rs:30-115; meta create_database,
        controller/catalog/create_op.rs:87-100): the frontend's checks in its order (privilege,
        name, owner, resource group), the notices of a long barrier interval or checkpoint
        frequency, then meta's OverrideValidate (an anyhow error: gRPC Internal).
        ``resource_group_error``: the value could not be read as a group (raised in turn)."""
        return self.catalog.create_database(
            ctx,
            name,
            if_not_exists=if_not_exists,
            owner=owner,
            resource_group=resource_group,
            barrier_interval_ms=barrier_interval_ms,
            checkpoint_frequency=checkpoint_frequency,
            check_options=lambda: self._database_options(
                resource_group_error, resource_group, barrier_interval_ms, checkpoint_frequency
            ),
        )

    def _database_options(
        self,
        group_error: RwError | None,
        group: str | None,
        interval: int | None,
        frequency: int | None,
    ) -> list[str]:
        if group_error is not None:
            raise group_error
        if group is not None:  # create_database.rs:89-91
            self.meta.check_feature("ResourceGroup")
        notices = []
        if interval is not None and interval >= NOTICE_BARRIER_INTERVAL_MS:
            notices.append(barrier_interval_notice(interval))
        if frequency is not None and frequency >= NOTICE_CHECKPOINT_FREQUENCY:
            notices.append(checkpoint_frequency_notice(frequency))
        for param, value in (
            ("barrier_interval_ms", interval),
            ("checkpoint_frequency", frequency),
        ):
            if value is not None:
                problem = sysparams.validate(self.system_param_by_name[param], str(value))
                if problem is not None:
                    raise MetaRpcError(DDL + "CreateDatabase", problem)
        return notices

    def alter_database_resource_group(
        self, ctx: Context, database: str, group: str | None
    ) -> Result:
        """ALTER DATABASE <db> SET RESOURCE_GROUP ... DEFERRED | RESET RESOURCE_GROUP DEFERRED
        (alter_database_param.rs:78-121; meta alter_database_resource_group,
        controller/catalog/alter_op.rs:866-899): the database's group (None: 'default');
        jobs that inherit it move at the next recovery, as the notice says."""
        db = self.catalog.database_id(database)
        # alter_database_param.rs:94: the owner or a superuser
        owner = self.meta.val("SELECT owner_id FROM database WHERE database_id = ?", (db,))
        self.catalog.privileges.check_db_schema_owner(ctx, int(owner))
        if group is not None:  # alter_database_param.rs:103-105
            self.meta.check_feature("ResourceGroup")
        with self.store.transaction():
            self.conn.execute(
                "UPDATE database SET resource_group = ? WHERE database_id = ?",
                (group or "default", db),
            )
        return Result([DATABASE_RESOURCE_GROUP_NOTICE])
