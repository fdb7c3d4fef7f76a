"""The WITH-clause check RisingWave makes for every statement before its handler runs.

``HandlerArgs::new`` builds ``WithOptions::try_from(stmt)`` (src/frontend/src/handler/mod.rs:
236-243, src/frontend/src/utils/with_options.rs:537-651) for CREATE TABLE / SOURCE / SINK /
[MATERIALIZED] VIEW / INDEX / CONNECTION / SUBSCRIPTION (and EXPLAIN of them): a value must be a
'' or E'' string, a number or a boolean (or a SECRET / connection reference / backfill order),
and a key may appear once.  The check runs when the statement is about to execute, not at
parse time, so a multi-statement query runs the statements before the bad one.
"""

from __future__ import annotations

from rwshim.errors import InvalidParameterValue
from rwshim.sql import statements as st

# By class name, so that checking a SELECT does not import the CREATE family (statement
# classes have no subclasses: tests/unit/sql/test_statement_families.py).
_WITH = frozenset(
    {
        "CreateTable",
        "CreateSource",
        "CreateSink",
        "CreateMaterializedView",
        "CreateView",
        "CreateIndex",
        "CreateConnection",
        "CreateSubscription",
    }
)
_PLAIN = {"string", "estring", "number", "bool"}
_REFS = {"secret", "connection"}
ONLY_LITERALS = (
    "`with options` or `with properties` only support single quoted string value and C style "
    "escaped string"
)


def check_with_options(stmt: st.Statement) -> None:
    """Raise RisingWave's InvalidParameterValue for a bad WITH clause of ``stmt``."""
    while isinstance(stmt, st.Explain):  # a loop: EXPLAINs nest as deep as the parser allows
        stmt = stmt.inner
    if type(stmt).__name__ not in _WITH:
        return
    assert isinstance(
        stmt,
        st.CreateTable
        | st.CreateSource
        | st.CreateSink
        | st.CreateView
        | st.CreateMaterializedView
        | st.CreateIndex
        | st.CreateConnection
        | st.CreateSubscription,
    )
    plain: set[str] = set()
    refs: set[str] = set()
    for key, value in stmt.with_options:
        kind = getattr(value, "kind", "string")
        if kind in _REFS:
            if key in refs or key in plain:
                raise InvalidParameterValue(f"Duplicated option: {key}")
            refs.add(key)
            continue
        if kind == "backfill_order":
            continue
        if kind not in _PLAIN:
            raise InvalidParameterValue(ONLY_LITERALS)
        if key in plain or key in refs:
            raise InvalidParameterValue(f"Duplicated option: {key}")
        plain.add(key)
