"""Per-connection SQL semantics: statements in, Outcomes out (the seam between wire and SQL).

The protocol session (``rwshim/server/session.py``) owns prepared statements, portals and the
wire; it calls the ``Frontend`` for everything that depends on what the SQL means.  ``Frontend``
(``frontend/frontend.py``) dispatches the typed statements of ``sql/`` to its handler modules,
one per statement family as in RisingWave's src/frontend/src/handler/, which call the engine
(DDL, jobs, barriers), the data plane (queries and DML on PostgreSQL), the catalog path
(constant and catalog queries in process) and the session variables.

Interface the session relies on:
- ``parse(sql) -> list[Statement]`` (raise RwError on bad syntax; [] for an empty string),
- ``describe(stmt, param_oids) -> Description`` (parameter OIDs with 0s resolved, result
  columns or None),
- ``async execute(stmt, params) -> Outcome`` (params decoded to Python values; may await:
  a CancelRequest cancels the await),
- ``statement_scope()``: what runs around each statement it executes, on the meta store
  (``begin(stmt)`` before, ``done()`` before the acknowledgement, ``failed(e)`` for the error
  a client sees), so that the session never reaches into the store,
- ``txn_status`` ('I', 'T', 'E'), ``parameter_changes`` (ParameterStatus to send, drained
  by the session), ``timezone`` (session TimeZone name, for timestamptz text output),
  ``is_superuser`` (its ParameterStatus at start-up),
- ``quick_of`` / ``run_quick`` (a prepared data query's kept run, rwshim/dataplane/rerun.py),
- ``release_reads()`` (DECLAREd cursors read into memory before another session writes),
- ``close()`` when the connection ends.

``connect_check(instance, user, database)`` is what RisingWave checks when a session connects,
before any password exchange (the server calls it first; ``Frontend`` checks it again).
"""

from rwshim.frontend.frontend import (
    Description,
    Frontend,
    Statement,
    StatementScope,
    connect_check,
)

__all__ = ["Description", "Frontend", "Statement", "StatementScope", "connect_check"]
