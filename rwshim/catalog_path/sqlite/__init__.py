"""The catalog path's engine: SQLite, on the meta store's connection.

Constant and catalog queries run in process here (user data runs on the PostgreSQL data plane,
rwshim/dataplane, never on SQLite).  The engine-independent binder (rwshim/binder) reaches this
package only through two protocols, and only rwshim/catalog_path/engine.py (the composition
root) names it; tests/unit/test_layering.py holds both rules, and that nothing here imports the
binder.

The boundary:

- ``lowering.Lowering`` (rwshim/binder/lowering.py), implemented by ``SqliteLowering``
  (lowering.py = lower_query.py + lower_expr.py): the form each bound, typed construct takes on
  SQLite.  The binder asks it for parameter markers (``?n``), booleans (0/1), casts
  (``rw_cast``), checked arithmetic (``rw_arith``), date/time arithmetic, pattern matching,
  arrays (JSON text), ``= ANY``, jsonb operators, aggregates with ORDER BY and numeric sums,
  session values (``rw_now``, ``rw_current_*``), function renames and the functions SQLite
  has; for the FROM side: catalog views (``<schema>__<name>``, as MATERIALIZED CTEs), a user
  relation as an empty row set (bound, never read: a statement reading one is refused), alias
  column lists, VALUES, set-returning functions (``json_each``), DISTINCT ON, NULL order,
  parenthesized queries, and the final text.
- ``prepared.Executor`` (rwshim/binder/prepared.py), implemented by ``executor.SqliteExecutor``:
  registering functions and catalog views on the connection (install.py with functions.py,
  aggregates.py, casts.py), decoding SQLite values and encoding parameters, running queries,
  and SQLite's failures in RisingWave's words.  fast_path.py answers ``SELECT 1``-style
  statements in SQLite text without the binder.

What stays on the engine-independent side (and also serves the data plane: CREATE MATERIALIZED
VIEW's analysis, RisingWave's error texts for statements PostgreSQL refuses): parsing
(parse.py), name resolution by search_path and the DML target rules (resolve.py), typing
(type_inference.py, types.py), the binder's RisingWave rules and texts (binder.py, bind_*.py),
catalog relation rewrites (bind_catalog.py, rwshim/catalog_path/system_catalogs), session functions
(functions.py), statement binding and caching (prepare.py, engine.py).
"""
