"""The pg_catalog relations as SQLite SELECTs over the rw_catalog views and the meta store.

Each relation has RisingWave's columns only, in its order (``system_catalogs.py``), with its
type conventions (oid-like columns int4, names and ``"char"`` columns varchar): a client that
reads a PostgreSQL column RisingWave lacks (psql's ``\\d name`` reads ``pg_class.relchecks``,
psqlODBC ``relhasrules``) gets RisingWave's ``Invalid column`` error, and a relation
RisingWave lacks (``pg_policy``, ``pg_event_trigger``, ...) its ``is not supported`` error.
"""

from __future__ import annotations

from rwshim.catalog_path.system_catalogs._sql import CURRENT_DB

SQL: dict[str, str] = {}

# pg_namespace.rs / pg_database.rs / pg_roles.rs / pg_user.rs (views over rw_catalog).
SQL["pg_namespace"] = "SELECT id, name, owner, acl FROM rw_catalog__rw_schemas"
SQL["pg_database"] = """
SELECT id, name, owner, 6, 'C', 'C', 0, 1, -1, 1663, acl FROM rw_catalog__rw_databases"""
SQL["pg_roles"] = """
SELECT id, name, is_super, 1, create_user, create_db, can_login, 1, -1, NULL, 1, '********'
FROM rw_catalog__rw_users"""
SQL["pg_user"] = "SELECT id, name, create_db, is_super, '********' FROM rw_catalog__rw_users"

# pg_class.rs: tables, MVs (creating ones included), system tables, indexes, views (system
# views included), sources ('s'; a table's associated source too: iter_source), sinks ('k'),
# subscriptions ('u', pg_class.rs:153-166),
# connections ('c', pg_class.rs:167-180); no
# ACL filter.
_KIND = """CASE r.kind WHEN 'table' THEN 'r' WHEN 'materialized view' THEN 'm' WHEN 'index' THEN 'i'
    WHEN 'view' THEN 'v' WHEN 'source' THEN 's' WHEN 'sink' THEN 'k' END"""
SQL["pg_class"] = f"""
SELECT r.relation_id, r.name, r.schema_id, r.owner_id, 'p', {_KIND}, 0, 0, 0, '[]', 0, NULL
FROM visible_relation r WHERE r.database_id = {CURRENT_DB} AND r.kind <> 'internal'
UNION ALL
SELECT r.primary_table_id, r.name, r.schema_id, r.owner_id, 'p', 's', 0, 0, 0, '[]', 0, NULL
FROM visible_relation r WHERE r.database_id = {CURRENT_DB} AND r.kind = 'table'
  AND r.primary_table_id IS NOT NULL
UNION ALL
SELECT v.id, v.name, s.schema_id, 1, 'p', CASE v.kind WHEN 'table' THEN 'r' ELSE 'v' END,
       0, 0, 0, '[]', 0, NULL
FROM rwshim_sys_relation v JOIN schema s ON s.name = v.schema_name
WHERE s.database_id = {CURRENT_DB}
UNION ALL
SELECT u.subscription_id, u.name, u.schema_id, u.owner_id, 'p', 'u', 0, 0, 0, '[]', 0, NULL
FROM subscription u WHERE u.database_id = {CURRENT_DB}
UNION ALL
SELECT c.connection_id, c.name, c.schema_id, c.owner_id, 'p', 'c', 0, 0, 0, '[]', 0, NULL
FROM connection c WHERE c.database_id = {CURRENT_DB}"""

# pg_attribute.rs (view over rw_columns, hidden columns excluded).
SQL["pg_attribute"] = """
SELECT c.relation_id, c.name, c.type_oid, CASE WHEN c.udt_type = 'list' THEN 1 ELSE 0 END,
       c.type_len, c.position, 0, 0, 0, '', CASE WHEN c.is_generated THEN 's' ELSE '' END,
       -1, NULL, 0
FROM rw_catalog__rw_columns c WHERE NOT c.is_hidden"""

# pg_index.rs (view): indexes, and a primary-key pseudo index per user table (indexrelid =
# the table's own id).
SQL["pg_index"] = """
SELECT id, primary_table_id, json_array_length(key_columns) + json_array_length(include_columns),
       json_array_length(key_columns), 0,
       (SELECT json_group_array(value) FROM (SELECT value FROM json_each(key_columns)
        UNION ALL SELECT value FROM json_each(include_columns))),
       '[]', NULL, NULL, 0, '[]', 0, 1, 0, 1, 0, 1, 1, 0
FROM rw_catalog__rw_indexes
UNION ALL
SELECT c.relation_id, c.relation_id, count(*), count(*), 1,
       (SELECT json_group_array(position) FROM (SELECT k.position FROM rw_catalog__rw_columns k
        WHERE k.relation_id = c.relation_id AND k.is_primary_key AND NOT k.is_hidden
        ORDER BY k.position)),
       '[]', NULL, NULL, 1, '[]', 0, 1, 0, 1, 0, 1, 1, 0
FROM rw_catalog__rw_columns c
WHERE c.is_primary_key AND NOT c.is_hidden
  AND c.relation_id IN (SELECT id FROM rw_catalog__rw_tables)
GROUP BY c.relation_id"""

# pg_indexes.rs (view).
SQL["pg_indexes"] = """
SELECT s.name, t.name, i.name, NULL, i.definition
FROM rw_catalog__rw_indexes i JOIN rw_catalog__rw_tables t ON i.primary_table_id = t.id
JOIN rw_catalog__rw_schemas s ON i.schema_id = s.id
UNION ALL
SELECT s.name, t.name, i.name, NULL, i.definition
FROM rw_catalog__rw_indexes i JOIN rw_catalog__rw_materialized_views t
ON i.primary_table_id = t.id JOIN rw_catalog__rw_schemas s ON i.schema_id = s.id
UNION ALL
SELECT s.name, t.name, t.name || '_pkey', NULL, ''
FROM rw_catalog__rw_tables t JOIN rw_catalog__rw_schemas s ON t.schema_id = s.id
WHERE t.id IN (SELECT DISTINCT relation_id FROM rw_catalog__rw_columns
               WHERE is_primary_key AND NOT is_hidden)"""

# pg_constraint.rs: a primary-key constraint per system table and per table / MV / index
# (oid = conrelid = conindid = the relation id, conkey = 1-based pk columns in key order).
_CON_TAIL = "0, 0, ' ', ' ', ' ', 1, 0, 1, {conkey}, NULL, NULL, NULL, NULL, NULL, NULL, NULL"
_SYS_CONKEY = """(SELECT json_group_array(position) FROM (SELECT c.position
    FROM rwshim_sys_column c WHERE c.relation_id = v.id AND c.is_pk ORDER BY c.position))"""
_CONKEY = """(SELECT json_group_array(p) FROM (SELECT c.position + 1 AS p FROM relation_column c
    WHERE c.relation_id = r.relation_id AND c.pk_position IS NOT NULL ORDER BY c.pk_position))"""
SQL["pg_constraint"] = f"""
SELECT v.id, v.name || '_pkey', s.schema_id, 'p', 0, 1, v.id, 0, v.id,
       {_CON_TAIL.format(conkey=_SYS_CONKEY)}
FROM rwshim_sys_relation v JOIN schema s ON s.name = v.schema_name
WHERE v.kind = 'table' AND s.database_id = {CURRENT_DB}
UNION ALL
SELECT r.relation_id, r.name || '_pkey', r.schema_id, 'p', 0, 1, r.relation_id, 0,
       r.relation_id,
       {_CON_TAIL.format(conkey=_CONKEY)}
FROM visible_relation r WHERE r.database_id = {CURRENT_DB}
  AND r.kind IN ('table', 'materialized view', 'index')"""

# pg_description.rs (view over rw_description).
SQL["pg_description"] = """
SELECT objoid, classoid, CASE WHEN objsubid = 0 THEN -1 WHEN objsubid IS NULL THEN 0
       ELSE objsubid END, description
FROM rw_catalog__rw_description WHERE description IS NOT NULL"""

# pg_matviews.rs / pg_tables.rs / pg_views.rs (views).
SQL["pg_matviews"] = """
SELECT s.name, mv.name, mv.owner, NULL, 0, 1, mv.definition
FROM rw_catalog__rw_materialized_views mv JOIN rw_catalog__rw_schemas s ON mv.schema_id = s.id"""
_USERNAME = "(SELECT u.name FROM rw_user u WHERE u.user_id = {})"
SQL["pg_tables"] = f"""
SELECT s.name, t.tablename, {_USERNAME.format("t.owner")}, NULL
FROM (SELECT name AS tablename, schema_id, owner FROM rw_catalog__rw_tables
      UNION SELECT name, schema_id, owner FROM rw_catalog__rw_system_tables) t
JOIN rw_catalog__rw_schemas s ON t.schema_id = s.id AND s.name <> 'rw_catalog'"""
SQL["pg_views"] = f"""
SELECT s.name, v.name, {_USERNAME.format("v.owner")}, v.definition
FROM rw_catalog__rw_views v JOIN rw_catalog__rw_schemas s ON v.schema_id = s.id"""

# pg_type.rs: the rw_types rows, all in pg_catalog, typlen 0 and typtype 'b' as RisingWave
# fills them.
SQL["pg_type"] = f"""
SELECT oid, typname, typelem, typarray, typinput, 0, 0, -1, 0, 0,
       (SELECT s.schema_id FROM schema s WHERE s.database_id = {CURRENT_DB}
        AND s.name = 'pg_catalog'), 'b', ',', 0, NULL, NULL, NULL
FROM rwshim_type ORDER BY ord"""

# pg_settings.rs: the session's variables (context 'user'), then the system parameters
# ('postmaster'; the store keeps neither their descriptions nor their mutability, so the
# description is empty and every parameter reads as mutable).  The session's variables come
# from ``rw_session_settings()``: a JSON array of [name, setting, description] that the query
# core registers (``install`` registers an empty default when it has not).
SQL["pg_settings"] = """
SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'),
       COALESCE(json_extract(value, '$[2]'), ''), 'user'
FROM json_each(rw_session_settings())
UNION ALL
SELECT name, value, '', 'postmaster'
FROM (SELECT name, value FROM system_parameter ORDER BY name)"""
