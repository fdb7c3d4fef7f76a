"""The catalogs of secrets and connections, and how a WITH clause shows its references.

- ``rw_secrets`` (rw_secrets.rs): the secrets of the current database the user may see; the
  value is never read (the store's ``secret.value`` appears in no view);
- ``rw_connections`` (rw_connections.rs): type as the ConnectionType proto name, provider
  empty, connection_params as ``print_connection_params_with_secret_visibility``
  (create_connection.rs:181-236) prints them: the properties with each secret reference as
  ``SECRET <schema>.<name>[ AS FILE]`` (``SECRET <redacted>`` for a user who may not see the
  secret), as a JSON object;
- ``props_with_secrets``: serialize_props_with_secret (rw_sources.rs:122-151) for rw_sources
  and rw_sinks: ``{"k": {"type": "plaintext", "value": v}}``, a secret reference
  ``{"k": {"type": "secret", "value": {"value": "<secret name>"}}}``.

- ``rw_subscriptions`` (rw_subscriptions.rs): the subscriptions of the current database the
  user may see, initialized_at = created_at (one barrier carries the create).

pg_class lists connections with relkind 'c' (pg_class.rs:167-180); see pg_catalog.py.
"""

from __future__ import annotations

from rwshim.catalog_path.system_catalogs._sql import CURRENT_DB, acl, can_see

# The modes a superuser holds on a secret or a connection (USAGE; user_privilege.rs).
MODES_USAGE = "U"


def props_with_secrets(options: str, secret_refs: str) -> str:
    """serialize_props_with_secret over a relation's options and secret references."""
    return f"""(SELECT json_group_object(k, json(v)) FROM (
        SELECT key AS k, json_object('type', 'plaintext', 'value', value) AS v
        FROM json_each({options})
        UNION ALL
        SELECT e.key, json_object('type', 'secret', 'value', json_object('value',
               COALESCE((SELECT s.name FROM secret s
                         WHERE s.secret_id = json_extract(e.value, '$.secret_id')),
                        'not found')))
        FROM json_each({secret_refs}) e
        ORDER BY 1))"""


def _secret_ref_text() -> str:
    """One secret reference of a connection (``e`` a json_each row) as it prints."""
    visible = can_see("s.secret_id", "s.owner_id")
    return f"""(SELECT CASE WHEN {visible} THEN 'SECRET ' || sc.name || '.' || s.name
                        ELSE 'SECRET <redacted>' END
                || CASE json_extract(e.value, '$.ref_as') WHEN 'FILE' THEN ' AS FILE' ELSE '' END
               FROM secret s JOIN schema sc ON sc.schema_id = s.schema_id
               WHERE s.secret_id = json_extract(e.value, '$.secret_id'))"""


CONNECTION_PARAMS = f"""(SELECT json_group_object(k, v) FROM (
        SELECT key AS k, value AS v FROM json_each(c.properties)
        UNION ALL
        SELECT e.key, {_secret_ref_text()} FROM json_each(c.secret_refs) e
        ORDER BY 1))"""

SQL: dict[str, str] = {}

SQL["rw_secrets"] = f"""
SELECT s.secret_id, s.schema_id, s.name, s.owner_id, {acl("s.secret_id", MODES_USAGE)}
FROM secret s
WHERE s.database_id = {CURRENT_DB} AND {can_see("s.secret_id", "s.owner_id")}
ORDER BY s.secret_id"""

SQL["rw_connections"] = f"""
SELECT c.connection_id, c.name, c.schema_id, c.owner_id, c.connection_type, '',
       {acl("c.connection_id", MODES_USAGE)}, {CONNECTION_PARAMS}
FROM connection c
WHERE c.database_id = {CURRENT_DB} AND {can_see("c.connection_id", "c.owner_id")}
ORDER BY c.connection_id"""

# rw_subscriptions.rs: the subscriptions of the current database the user may see
# (iter_subscription_with_acl); acl as a relation's without DML (get_acl_items(id, false)).
SQL["rw_subscriptions"] = f"""
SELECT u.subscription_id, u.name, u.schema_id, sc.name, u.owner_id, u.definition,
       u.retention_seconds, {acl("u.subscription_id", "r")}, u.created_at, u.created_at,
       u.created_at_cluster_version, u.created_at_cluster_version
FROM subscription u JOIN schema sc ON sc.schema_id = u.schema_id
WHERE u.database_id = {CURRENT_DB} AND {can_see("u.subscription_id", "u.owner_id")}
ORDER BY u.subscription_id"""
