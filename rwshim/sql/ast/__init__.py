"""The typed statements, one module per statement family, after RisingWave's src/sqlparser/src/ast/.

RisingWave has one ``Statement`` enum (ast/mod.rs) whose variants take their operations from
ast/ddl.rs and their connector, cursor, user and DROP statements from ast/statement.rs; rwshim
has one frozen dataclass per statement kind, grouped by family:

- ``base``: names, values, WITH options and the ``Statement`` base (mod.rs, value.rs)
- ``query``: queries, DML, COPY, EXPLAIN, cursors, TRUNCATE (the read path's)
- ``session``: SET, SHOW <variable>, transactions, PREPARE / EXECUTE, DISCARD, USE
- ``show``: SHOW <objects>, SHOW CREATE, DESCRIBE
- ``jobs``: CANCEL JOBS, KILL, WAIT, FLUSH, RECOVER, REFRESH TABLE, BACKUP
- ``alter``: every ALTER form (ddl.rs)
- ``create``: every CREATE form (mod.rs, statement.rs)
- ``drop_grant``: DROP, GRANT, REVOKE, COMMENT ON
- ``maintenance``: VACUUM, ANALYZE
- ``control``: rwshim's ``RWSHIM ...`` extension

Callers import them all from ``rwshim.sql.statements`` (``st.<Name>``).
"""
