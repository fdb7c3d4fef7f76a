"""The PostgreSQL data plane's sans-I/O core: which statements run on PostgreSQL, and the
PostgreSQL text, objects and errors that make them behave as RisingWave's.

- ``tree``: one walk of ``pglast.parser.parse_sql_json`` (PostgreSQL's C parser) collecting the
  relation names (with CTE scoping), stars, parameters and session-dependent value functions
  of a statement, with their byte offsets.
- ``route``: where a statement runs (in process on the catalog path, or on PostgreSQL), with
  every relation name resolved by RisingWave's rules.
- ``rewrite`` / ``dml``: the PostgreSQL text: the user's text with spans spliced (physical
  names, expanded stars, INSERT column lists, upsert clauses), never deparsed; RisingWave's
  binder checks for DML.
- ``ddl``: PostgreSQL objects (tables, views, indexes) generated from catalog data.
- ``typemap``, ``functions``, ``prepass``: the registries the RisingWave-only types, functions
  and syntax plug into.
- ``errors``: PostgreSQL's error texts in RisingWave's words.

Mirrors RisingWave's frontend binder (src/frontend/src/binder/) for the rules it applies;
RisingWave's batch engine itself is PostgreSQL here (architecture decision 4).
"""
