"""The catalog path: constant and catalog queries answered in process, on the meta store's SQLite.

``QueryEngine`` (engine.py) binds a statement (rwshim/binder), lowers it to SQLite and runs it
(sqlite/); the system catalogs are SQLite views over the store (system_catalogs/), read through
``StoreRelations`` (store_source.py), and their results are kept while the store is unchanged
(result_cache.py).  SQLite is the only engine here: user data is on the PostgreSQL data plane
(rwshim/dataplane), and a statement that would read or write it is refused in process.
"""
