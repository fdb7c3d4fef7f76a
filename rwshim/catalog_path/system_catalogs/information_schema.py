"""The information_schema relations as SQLite SELECTs over the rw_catalog and pg_catalog views.

Each follows the SQL of RisingWave's view of the same name
(src/frontend/src/catalog/system_catalog/information_schema/*.rs); ``CURRENT_DATABASE()`` is
the current database's name, and ``has_schema_privilege`` / ``has_table_privilege`` are
``_sql.holds``: the current user must own the object, be a superuser or hold every privilege
listed (as has_privilege.rs answers).
"""

from __future__ import annotations

from rwshim.catalog_path.system_catalogs._sql import CURRENT_DB_NAME, holds
from rwshim.catalog_path.system_catalogs.rw_catalog import (
    SYSTEM_COLUMN,
    SYSTEM_COLUMN_FROM,
    USER_COLUMN,
    USER_COLUMN_FROM,
)

SQL: dict[str, str] = {}


# columns.rs, with rw_columns' facts joined to the relation and schema names directly (one
# branch for user relations, one for the builtin catalogs) so that a filter on the table name
# reaches the store's index instead of computing every relation's ACL first.
def _columns(c: dict[str, str], from_sql: str) -> str:
    return f"""
SELECT {CURRENT_DB_NAME}, {c["schema_name"]}, {c["relation_name"]}, {c["name"]}, NULL, NULL,
       NULL, NULL, NULL, NULL, {c["position"]},
       CASE WHEN {c["is_nullable"]} THEN 'YES' ELSE 'NO' END,
       CASE WHEN {c["data_type"]} = 'varchar' THEN 'character varying' ELSE {c["data_type"]} END,
       {CURRENT_DB_NAME}, 'pg_catalog', {c["udt_type"]}, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
       NULL, NULL, NULL, NULL, NULL, 'NO', NULL, NULL, NULL, NULL, NULL, NULL,
       CASE WHEN {c["is_generated"]} THEN 'ALWAYS' ELSE 'NEVER' END,
       {c["generation_expression"]}, NULL
{from_sql} AND NOT ({c["is_hidden"]})"""


SQL["columns"] = (
    _columns(USER_COLUMN, USER_COLUMN_FROM)
    + "\nUNION ALL"
    + _columns(SYSTEM_COLUMN, SYSTEM_COLUMN_FROM)
)

# tables.rs
SQL["tables"] = f"""
SELECT {CURRENT_DB_NAME} AS table_catalog, s.name AS table_schema, r.name AS table_name,
       CASE r.relation_type WHEN 'materialized view' THEN 'MATERIALIZED VIEW'
            WHEN 'table' THEN 'BASE TABLE' WHEN 'system table' THEN 'SYSTEM TABLE'
            WHEN 'view' THEN 'VIEW' ELSE upper(r.relation_type) END,
       CASE WHEN r.relation_type = 'table' THEN 'YES' ELSE 'NO' END
FROM rw_catalog__rw_relations r JOIN rw_catalog__rw_schemas s ON r.schema_id = s.id
ORDER BY table_schema, table_name"""

# schemata.rs
SQL["schemata"] = f"""
SELECT {CURRENT_DB_NAME} AS catalog_name, s.name AS schema_name, u.name, NULL, NULL, NULL, NULL
FROM rw_catalog__rw_schemas s JOIN rw_catalog__rw_users u ON s.owner = u.id
WHERE {holds("s.id", "s.owner", ("CREATE", "USAGE"))}
ORDER BY catalog_name, schema_name"""

# views.rs
SQL["views"] = f"""
SELECT {CURRENT_DB_NAME} AS table_catalog, s.name AS table_schema, v.name AS table_name,
       v.definition
FROM rw_catalog__rw_views v JOIN rw_catalog__rw_schemas s ON v.schema_id = s.id
ORDER BY table_schema, table_name"""

_CONSTRAINTS = f"""
FROM pg_catalog__pg_constraint con
JOIN pg_catalog__pg_class cls ON con.conrelid = cls.oid
JOIN rw_catalog__rw_relations rel ON rel.id = cls.oid
JOIN pg_catalog__pg_namespace nsp ON cls.relnamespace = nsp.oid
WHERE rel.relation_type <> 'table'
   OR {holds("con.conrelid", "rel.owner", ("INSERT", "UPDATE", "DELETE"))}"""

# table_constraints.rs
SQL["table_constraints"] = f"""
SELECT {CURRENT_DB_NAME} AS constraint_catalog, nsp.nspname AS constraint_schema,
       con.conname AS constraint_name, {CURRENT_DB_NAME}, nsp.nspname, cls.relname,
       CASE con.contype WHEN 'p' THEN 'PRIMARY KEY' WHEN 'u' THEN 'UNIQUE'
            WHEN 'c' THEN 'CHECK' WHEN 'x' THEN 'EXCLUDE' ELSE con.contype END,
       CASE WHEN con.condeferrable THEN 'YES' ELSE 'NO' END, 'NO',
       CASE WHEN con.convalidated THEN 'YES' ELSE 'NO' END
{_CONSTRAINTS}
ORDER BY constraint_catalog, constraint_schema, constraint_name"""

_KEY_CONSTRAINTS = _CONSTRAINTS.replace(" con\n", " con, json_each(con.conkey) key\n", 1)

# key_column_usage.rs
SQL["key_column_usage"] = f"""
WITH k AS (
    SELECT {CURRENT_DB_NAME} AS constraint_catalog, nsp.nspname AS constraint_schema,
           con.conname AS constraint_name, nsp.nspname AS table_schema,
           cls.relname AS table_name, key.value AS col_id, con.conrelid AS table_id
    {_KEY_CONSTRAINTS}
    ORDER BY constraint_catalog, constraint_schema, constraint_name)
SELECT k.constraint_catalog, k.constraint_schema, k.constraint_name, {CURRENT_DB_NAME},
       k.table_schema, k.table_name, c.name, c.position, NULL
FROM k JOIN rw_catalog__rw_columns c ON c.position = k.col_id AND c.relation_id = k.table_id"""
