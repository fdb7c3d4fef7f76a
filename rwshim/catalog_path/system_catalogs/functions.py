"""The catalogs of user-defined functions: ``rw_functions`` (rw_catalog/rw_functions.rs: the
functions of the current database the user may see, ``type`` as FunctionKind's uppercase
Display, the argument and return types as PostgreSQL OIDs) and the SQL of SHOW FUNCTIONS'
rows.  RisingWave lists no user function in ``pg_proc`` (pg_proc.rs is an empty view), and
neither does rwshim.
"""

from __future__ import annotations

from rwshim.catalog_path.system_catalogs._sql import CURRENT_DB, acl, can_see

# The modes a superuser holds on a function (EXECUTE; acl.rs ALL_AVAILABLE_FUNCTION_MODES).
MODES_FUNCTION = "X"

ARG_TYPE_IDS = (
    "(SELECT json_group_array(json_extract(e.value, '$[0]')) FROM "
    "(SELECT value FROM json_each(f.arg_types) ORDER BY key) e)"
)
ARG_TYPE_NAMES = (
    "COALESCE((SELECT group_concat(json_extract(e.value, '$[1]'), ', ') FROM "
    "(SELECT value FROM json_each(f.arg_types) ORDER BY key) e), '')"
)

SQL: dict[str, str] = {}

SQL["rw_functions"] = f"""
SELECT f.function_id, f.name, f.schema_id, f.owner_id, f.kind, {ARG_TYPE_IDS},
       f.return_type_oid, f.language, f.link, {acl("f.function_id", MODES_FUNCTION)},
       f.always_retry_on_network_error, f.created_at, rw_cluster_version()
FROM function f
WHERE f.database_id = {CURRENT_DB} AND {can_see("f.function_id", "f.owner_id")}
ORDER BY f.function_id"""
