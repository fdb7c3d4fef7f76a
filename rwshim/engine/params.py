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

import json

from rwshim import pgtypes
from rwshim.engine import parallelism as par
from rwshim.engine import sysparams
from rwshim.engine.catalog import Catalog
from rwshim.engine.state import Meta
from rwshim.engine.types import Context, Result
from rwshim.engine.users import Users
from rwshim.engine.waits import Waits
from rwshim.errors import InvalidInputSyntax, MetaRpcError, PermissionDenied
from rwshim.results import Column


class Params:
    """System parameters, session-variable defaults and per-database barrier settings."""

    def __init__(self, meta: Meta, users: Users, catalog: Catalog, waits: Waits) -> None:
        self.meta = meta
        self.store = meta.store
        self.conn = meta.conn
        self.users = users
        self.catalog = catalog
        self.waits = waits

    # ------------------------------------------------------------------ system parameters

    def ensure_defaults(self) -> None:
        """The system parameters' defaults, for a store that has none yet."""
        with self.store.transaction():
            for p in sysparams.PARAMS:
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

    def show_parameters(self) -> Result:
        """SHOW PARAMETERS: Name, Value, Description, Mutable."""
        cols = [
            Column("Name", pgtypes.VARCHAR),
            Column("Value", pgtypes.VARCHAR),
            Column("Description", pgtypes.VARCHAR),
            Column("Mutable", pgtypes.BOOL, 1),
        ]
        rows: list[tuple[object, ...]] = []
        for p in sysparams.PARAMS:
            value = self.meta.system_param(p.name)
            if p.name == "license_key" and value not in ("", "<default>"):
                value = "<redacted>"
            rows.append((p.name, value, p.description, p.mutable))
        return Result(columns=cols, rows=rows)

    def alter_system_set(self, ctx: Context, name: str, value: str | None) -> Result:
        """ALTER SYSTEM SET <system parameter> {TO|=} <v>|DEFAULT (alter_system.rs:25-80; meta
        set_system_param, src/common/src/system_param/mod.rs:325-372).  Session parameters
        are the session's business (``set_session_default``)."""
        if not self.users.is_super(ctx):
            raise PermissionDenied("must be superuser to execute ALTER SYSTEM command")
        call = "/meta.SystemParamsService/SetSystemParam"
        p = sysparams.BY_NAME.get(name)
        if p is None:
            raise MetaRpcError(
                call, f"System parameters error: unrecognized system parameter {json.dumps(name)}"
            )
        if not p.mutable:
            raise MetaRpcError(call, f"System parameters error: {json.dumps(name)} is immutable")
        text = p.default if value is None else value
        try:
            if p.kind == "u32" or p.kind == "u64":
                n = int(par.parse_u64(text))
                if p.kind == "u32" and n > 0xFFFFFFFF:
                    raise par.ParseError("number too large to fit in target type")
                text = str(n)
            elif p.kind == "bool":
                if text not in ("true", "false"):  # Rust's bool::from_str
                    raise par.ParseError("provided string was not `true` or `false`")
            elif p.kind == "f64":
                text = str(float(text))
        except (par.ParseError, ValueError) as e:
            msg = str(e).removeprefix("Parse error: ")
            if isinstance(e, ValueError):
                msg = "invalid float literal"
            raise MetaRpcError(
                call, f"System parameters error: cannot parse parameter value: {msg}"
            ) from None
        with self.store.transaction():
            self.conn.execute("UPDATE system_parameter SET value = ? WHERE name = ?", (text, name))
        self.waits.drain()
        notices = []
        interval = int(self.meta.system_param("barrier_interval_ms") or 1000)
        frequency = int(self.meta.system_param("checkpoint_frequency") or 1)
        if interval >= 300000:
            notices.append(
                f"Barrier interval is set to {interval} ms >= 300000 ms. This can hurt freshness "
                "and potentially cause OOM."
            )
        if frequency >= 60:
            notices.append(
                f"Checkpoint frequency is set to {frequency} >= 60. This can hurt freshness and "
                "potentially cause OOM."
            )
        return Result(notices)

    # ------------------------------------------------------------------ session-variable defaults

    def session_defaults(self) -> dict[str, str]:
        """Session-variable defaults set with ALTER SYSTEM SET (a new session starts here)."""
        return {
            str(k): str(v)
            for k, v in self.conn.execute("SELECT name, value FROM session_parameter")
        }

    def set_session_default(self, name: str, value: str | None) -> None:
        """Persist ALTER SYSTEM SET <session variable> (None = back to RisingWave's default)."""
        with self.store.transaction():
            if value is None:
                self.conn.execute("DELETE FROM session_parameter WHERE name = ?", (name,))
            else:
                self.conn.execute(
                    "INSERT OR REPLACE INTO session_parameter(name, value) VALUES (?, ?)",
                    (name, value),
                )

    # ------------------------------------------------------------------ per-database settings

    def alter_database_param(
        self, ctx: Context, database: str, param: str, value: str | None
    ) -> Result:
        """ALTER DATABASE <db> SET barrier_interval_ms | checkpoint_frequency (mod.rs:767-828);
        None (DEFAULT) falls back to the system parameter."""
        if param not in ("barrier_interval_ms", "checkpoint_frequency"):
            raise InvalidInputSyntax(f"Unsupported database config parameter: {param}")
        db = self.catalog.database_id(database)
        n: int | None = None
        if value is not None:
            try:
                n = int(value)
            except ValueError:
                raise InvalidInputSyntax(f"Invalid value for {param}: {value}") from None
        with self.store.transaction():
            self.conn.execute(f"UPDATE database SET {param} = ? WHERE database_id = ?", (n, db))
        return Result()
