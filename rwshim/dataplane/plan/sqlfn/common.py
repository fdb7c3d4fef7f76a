"""Shared pieces of the rwfn function SQL: the schema name, RisingWave's error raising, and the
list the modules of this package register their SQL in (run in the template database, in the
order the modules register, after ``functions.py``'s base schemas)."""

from __future__ import annotations

from rwshim.dataplane.plan.names import FUNCTION_SCHEMA as F

# SQLSTATEs of errors raised in RisingWave's words (dataplane/plan/errors.py maps them)
EXPR_ERROR = "RWEXP"  # an ExprError (src/expr/core/src/error.rs): under "Expr error"
RW_ERROR = "RWERR"  # any other RisingWave error, its text as it is

__all__ = ["EXPR_ERROR", "RW_ERROR", "F", "raise_expr", "raise_rw", "register", "registered"]

_REGISTERED: list[str] = []
_LATE: list[str] = []


def register(sql: str, late: bool = False) -> None:
    """Add SQL to run in the template (after the base schemas and functions); ``late``: after
    every module's (SQL that reads the catalog for the functions the modules made)."""
    (_LATE if late else _REGISTERED).append(sql)


def registered() -> list[str]:
    """The SQL the modules registered, in their order (the late ones last)."""
    return _REGISTERED + _LATE


def raise_expr(message_sql: str) -> str:
    """A PL/pgSQL statement raising an ExprError whose text is the SQL expression given."""
    return f"RAISE EXCEPTION USING ERRCODE = '{EXPR_ERROR}', MESSAGE = {message_sql};"


def raise_rw(message_sql: str) -> str:
    return f"RAISE EXCEPTION USING ERRCODE = '{RW_ERROR}', MESSAGE = {message_sql};"


def once(statement: str) -> str:
    """``statement`` (a CREATE without OR REPLACE: an operator, a type) made idempotent: the
    template SQL also runs on an existing database (``--data-dir``, ``--postgres-url``)."""
    return (
        f"DO $once$ BEGIN {statement}; EXCEPTION WHEN duplicate_object OR duplicate_function "
        "THEN NULL; END $once$;\n"
    )
