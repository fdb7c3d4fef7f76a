"""RisingWave's binder for in-process statements (mirrors src/frontend/src/binder/).

Parsing with sqlglot (parse.py), name resolution by search_path (resolve.py, relations.py),
typing (type_inference.py, types.py), RisingWave's rules and error texts (binder.py, bind_*.py,
binder_checks.py), SQL function inlining (udf.py) and statement binding (prepare.py).  It serves
three callers: the catalog path, which lowers the bound tree to SQLite through ``Lowering``
(lowering.py) and runs it (rwshim/catalog_path); CREATE MATERIALIZED VIEW / VIEW / SINK AS's
analysis of its query; and the data plane, which asks it for RisingWave's text when PostgreSQL
refuses a statement.  User data never runs through it: the PostgreSQL data plane routes and
splices PostgreSQL's own parse tree (rwshim/dataplane/plan).
"""
