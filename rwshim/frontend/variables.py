"""Session variables (SET, SET TIME ZONE, SHOW <variable>) and transaction statements (BEGIN,
START TRANSACTION, COMMIT, ROLLBACK, ABORT, SET TRANSACTION), which RisingWave accepts with its
notices, and DISCARD.

RisingWave: ``src/frontend/src/handler/variable.rs``, ``handler/transaction.rs``,
``handler/show.rs`` (SHOW PARAMETERS), ``src/common/src/session_config/`` (the variables
themselves: ``rwshim/common/session_config.py``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rwshim.common import pgtypes
from rwshim.common.outcome import Column, Outcome
from rwshim.frontend.common import Handler
from rwshim.frontend.use_db import use_database
from rwshim.sql import statements as st

if TYPE_CHECKING:
    from rwshim.frontend.frontend import Frontend

# RisingWave's BEGIN notice (src/frontend/src/handler/transaction.rs:47-55).
BEGIN_NOTICE = (
    "Read-write transaction is not supported yet. Please specify `READ ONLY` to start a "
    "read-only transaction.\nFor compatibility, this statement will still succeed but no "
    "transaction is actually started."
)
# transaction.rs:36-40
ISOLATION_NOTICE = (
    "Transaction with given Isolation Level is not supported yet.\n"
    "For compatibility, this statement will proceed with RepeatableRead."
)
# transaction.rs:102-104
SET_TRANSACTION_NOTICE = (
    "`SET TRANSACTION` is not supported yet.\n"
    "For compatibility, this statement will still succeed but no changes are actually made."
)

_READ_ONLY = re.compile(r"\bREAD\s+ONLY\b", re.IGNORECASE)
_ISOLATION = re.compile(r"\bISOLATION\s+LEVEL\b", re.IGNORECASE)


def handle_set_variable(fe: Frontend, stmt: st.SetVariable, params: list[object]) -> Outcome:
    if stmt.variable.lower() == "database":
        # handler/mod.rs:700-721: USE under another name, tag SET_VARIABLE; DEFAULT names a
        # database called `default`.
        target = "default" if stmt.value.kind == "default" else stmt.value.text
        return Outcome(stmt.tag, notices=use_database(fe, target))
    value = None if stmt.value.kind == "default" else list(stmt.value.items)
    notices = fe.config.set(stmt.variable, value)
    fe.settings_changed()
    fe.parameter_changes.extend(fe.config.parameter_status_changes())
    return Outcome(stmt.tag, notices=notices)


def handle_set_time_zone(fe: Frontend, stmt: st.SetTimeZone, params: list[object]) -> Outcome:
    value = stmt.value or "UTC"
    fe.config.set("timezone", value)
    fe.settings_changed()
    return Outcome(stmt.tag)


def handle_show_variable(fe: Frontend, stmt: st.ShowVariable, params: list[object]) -> Outcome:
    name = stmt.variable.lower()
    if name == "parameters":
        r = fe.instance.engine.params.show_parameters()
        return Outcome("SHOW_VARIABLE", r.columns, r.rows)
    if name in ("transaction_isolation", "transaction isolation level"):
        value = fe.config.get("transaction_isolation")
        return Outcome("SHOW_VARIABLE", [Column("Name", pgtypes.VARCHAR)], [(value,)])
    names, rows = fe.config.show(name)
    cols = [Column(n, pgtypes.VARCHAR) for n in names]
    return Outcome("SHOW_VARIABLE", cols, rows)


# --- transactions ------------------------------------------------------------------------------


def handle_begin(fe: Frontend, stmt: st.Statement, params: list[object]) -> Outcome:
    notices = [ISOLATION_NOTICE] if _ISOLATION.search(stmt.text) else []
    if _READ_ONLY.search(stmt.text):
        fe.txn_status = "T"
        fe.txn_read_only = True  # the write guard (frontend.py _execute, query.py handle_dml)
        return Outcome(stmt.tag, notices=notices)
    return Outcome(stmt.tag, notices=[*notices, BEGIN_NOTICE])


def handle_end_txn(fe: Frontend, stmt: st.Statement, params: list[object]) -> Outcome:
    fe.txn_status = "I"
    fe.txn_read_only = False
    for cursor in fe.cursors.values():
        # a data-plane query's rows give their pooled connection back now (dataplane/pool.py)
        abandon = getattr(cursor.rows, "abandon", None)
        if abandon is not None:
            abandon()
    fe.cursors.clear()
    return Outcome(stmt.tag)


def handle_set_transaction(fe: Frontend, stmt: st.SetTransaction, params: list[object]) -> Outcome:
    return Outcome(stmt.tag, notices=[SET_TRANSACTION_NOTICE])


def handle_discard(fe: Frontend, stmt: st.Discard, params: list[object]) -> Outcome:
    return Outcome(stmt.tag)


# handler/prepared_statement.rs:20-44: SQL-level PREPARE and DEALLOCATE succeed with a notice
# and change nothing (a protocol-level prepared statement is not freed by DEALLOCATE).
PREPARE_NOTICE = (
    "`PREPARE` is not supported yet.\n"
    "For compatibility, this statement will still succeed but no changes are actually made."
)
DEALLOCATE_NOTICE = (
    "`DEALLOCATE` is not supported yet.\n"
    "For compatibility, this statement will still succeed but no changes are actually made."
)


def handle_prepare(fe: Frontend, stmt: st.Prepare, params: list[object]) -> Outcome:
    return Outcome("PREPARE", notices=[PREPARE_NOTICE])


def handle_deallocate(fe: Frontend, stmt: st.Deallocate, params: list[object]) -> Outcome:
    return Outcome("DEALLOCATE", notices=[DEALLOCATE_NOTICE])


HANDLERS: dict[type[st.Statement], Handler] = {
    st.SetVariable: handle_set_variable,
    st.SetTimeZone: handle_set_time_zone,
    st.SetTransaction: handle_set_transaction,
    st.ShowVariable: handle_show_variable,
    st.Begin: handle_begin,
    st.StartTransaction: handle_begin,
    st.Commit: handle_end_txn,
    st.Rollback: handle_end_txn,
    st.Abort: handle_end_txn,
    st.Discard: handle_discard,
    st.Prepare: handle_prepare,
    st.Deallocate: handle_deallocate,
}
