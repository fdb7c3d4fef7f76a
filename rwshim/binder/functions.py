"""The functions whose answer is the session's or the statement's, whatever engine runs them.

``FunctionState`` is what they read: the statement's ``QueryContext`` (database, user, search
path, session variables), its start time (``now()`` is constant within a statement), the
reported ``version()`` (src/common/src/lib.rs:116, 142-147) and the ``set_config`` calls of the
statement, handed to the session afterwards (``take_settings``).  ``current_schema()`` skips
schemas that do not exist, as PostgreSQL's does; ``current_setting`` of an unknown name is
RisingWave's ``Unrecognized config entry``; ``view_query`` is ``pg_get_viewdef``'s answer
(src/frontend/src/expr/function_impl/pg_get_viewdef.rs: the query, not the CREATE statement).
The engine registers them (sqlite/install.py for SQLite).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from msgspec import Struct, field

from rwshim.binder.context import IMPLICIT_SCHEMAS, QueryContext
from rwshim.errors import RwError, SessionConfigError
from rwshim.version import GIT_SHA, cluster_version


def version_string(git_sha: str = GIT_SHA) -> str:
    """``version()`` (rwshim.version.cluster_version)."""
    return cluster_version(git_sha)


class FunctionState(Struct):
    """Per-connection state the session-dependent functions read (the engine sets ``ctx``
    and ``statement_time`` before each statement)."""

    ctx: QueryContext | None = None
    # a RisingWave error raised inside a function the engine cannot pass through (SQLite's
    # callbacks), parked here for the executor to raise instead of the engine's own failure
    error: RwError | None = None
    version: str = field(default_factory=version_string)
    now: Callable[[], dt.datetime] = field(default=lambda: dt.datetime.now(dt.UTC))
    statement_time: dt.datetime | None = None
    # when the server started (pg_postmaster_start_time(): builtin_scalar.rs:757-764, the
    # frontend's start time, risingwave_variables::get_server_start_time)
    start_time: dt.datetime | None = None
    # set_config(name, value, is_local) calls of the current statement, for the session.
    settings: list[tuple[str, str]] = field(default_factory=list)
    # whether a schema exists in a database (current_schema skips missing ones)
    schema_exists: Callable[[int, str], bool] = field(default=lambda db, s: True)

    def statement_now(self) -> dt.datetime:
        """``now()``: the time the statement started (the clock's time outside one)."""
        return self.statement_time or self.now()

    def current_schema(self) -> str | None:
        """``current_schema()``: the first schema of the search path that exists."""
        ctx = self.ctx
        if ctx is None:
            return None
        for s in ctx.search_path:
            name = ctx.user if s == "$user" else s
            if self.schema_exists(ctx.database_id, name):
                return name
        return None

    def current_schemas(self, implicit: bool) -> list[str]:
        """``current_schemas(implicit)``: the search path's existing schemas, with the
        implicit system schemas when ``implicit``."""
        ctx = self.require_ctx()
        return [
            s
            for s in ctx.resolved_path()
            if (implicit or s not in IMPLICIT_SCHEMAS)
            and (s in IMPLICIT_SCHEMAS or self.schema_exists(ctx.database_id, s))
        ]

    def current_setting(self, name: str, missing_ok: bool = False) -> str | None:
        """``current_setting(name [, missing_ok])``: a session variable as SHOW prints it."""
        value = self.require_ctx().variables.get(name.lower())
        if value is None and not missing_ok:
            raise SessionConfigError(f"Unrecognized config entry `{name}`")
        return value

    def set_config(self, name: str, value: str | None) -> str | None:
        """``set_config(name, value, is_local)``: recorded for the session to apply after the
        statement (it owns the variables); answers the new value."""
        self.settings.append((name, str(value)))
        return value

    def require_ctx(self) -> QueryContext:
        assert self.ctx is not None, "statement context not set"
        return self.ctx


def view_query(definition: object) -> str | None:
    """The query of ``CREATE [MATERIALIZED] VIEW name [(cols)] [WITH (...)] AS query``: what
    follows the first ``AS`` outside parentheses (pglast's scanner skips strings and comments)."""
    if definition is None:
        return None
    text = str(definition)
    from pglast.parser import scan

    depth = 0
    for tok in scan(text):
        if tok.name == "ASCII_40":
            depth += 1
        elif tok.name == "ASCII_41":
            depth -= 1
        elif tok.name == "AS" and depth == 0:
            return text[tok.end + 1 :].strip()
    return text
