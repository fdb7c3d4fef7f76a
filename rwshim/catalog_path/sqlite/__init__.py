"""Everything in the read path that exists only because today's engine is SQLite.

This package is one unit: a data plane on another engine (issue 12, user data on PostgreSQL)
replaces it, or keeps it only for what stays in process (constant and catalog-only queries on
the meta store's SQLite).  The rest of rwshim/query is engine-independent and reaches this
package only through two protocols, and only rwshim/catalog_path/engine.py (the composition root)
names it; tests/unit/test_layering.py holds both rules, and that nothing here imports the
binder.

The boundary:

- ``lowering.Lowering`` (rwshim/binder/lowering.py), implemented by ``SqliteLowering``
  (lowering.py = lower_query.py + lower_expr.py): the form each bound, typed construct takes on
  the engine.  The binder asks it for parameter markers (``?n``), booleans (0/1), casts
  (``rw_cast``), checked arithmetic (``rw_arith``), date/time arithmetic, pattern matching,
  arrays (JSON text), ``= ANY``, jsonb operators, aggregates with ORDER BY and numeric sums,
  session values (``rw_now``, ``rw_current_*``), function renames and the functions the engine
  has; for the FROM side: the table holding a relation's rows (``rel_<id>``), catalog views
  (``<schema>__<name>``, as MATERIALIZED CTEs), alias column lists, VALUES, set-returning
  functions (``json_each``), DISTINCT ON, NULL order, parenthesized queries, and the final text.
- ``prepared.Executor`` (rwshim/binder/prepared.py), implemented by ``executor.SqliteExecutor``:
  registering functions and catalog views on the connection (install.py with functions.py,
  aggregates.py, casts.py), decoding SQLite values and encoding parameters, running queries,
  INSERT's row-by-row upsert by primary key in a savepoint, and SQLite's failures in RisingWave's
  words.  fast_path.py answers ``SELECT 1``-style statements in SQLite text without the binder;
  storage.py names user tables and their column affinity.

What stays on the engine-independent side (and a PostgreSQL data plane keeps): parsing
(parse.py), name resolution by search_path and the DML target rules (resolve.py), typing
(type_inference.py, types.py), the binder's RisingWave rules and texts (binder.py, bind_*.py),
catalog relation rewrites (bind_catalog.py, rwshim/catalog_path/system_catalogs), session functions
(functions.py), statement binding and caching (prepare.py, engine.py).
"""
