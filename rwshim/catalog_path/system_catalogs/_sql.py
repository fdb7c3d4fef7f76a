"""SQL fragments shared by the catalog views: context, visibility, ACL items, parallelism text.

Every fragment is SQLite SQL over the meta store (rwshim/store/schema.py) and the static
tables of ``static.py``; the context functions are registered by the query core (see the
package docstring).
"""

from __future__ import annotations

CURRENT_DB = "rw_current_database_id()"
CURRENT_USER = "rw_current_user_id()"
CURRENT_DB_NAME = f"(SELECT name FROM database WHERE database_id = {CURRENT_DB})"

# has_access_to_object (src/frontend/src/user/mod.rs:27-35, user_catalog.rs
# check_object_visibility): a superuser, the owner, or a holder of SELECT, EXECUTE or USAGE
# on the object sees it.
_IS_SUPER = f"EXISTS (SELECT 1 FROM rw_user cu WHERE cu.user_id = {CURRENT_USER} AND cu.is_super)"


def can_see(object_id: str, owner_id: str) -> str:
    return (
        f"({_IS_SUPER} OR {owner_id} = {CURRENT_USER} OR EXISTS (SELECT 1 FROM user_privilege cp "
        f"WHERE cp.oid = {object_id} AND cp.user_id = {CURRENT_USER}"
        " AND cp.action IN ('SELECT', 'EXECUTE', 'USAGE')))"
    )


def holds(object_id: str, owner_id: str, actions: tuple[str, ...]) -> str:
    """has_*_privilege(<object>, '<a>, <b>') for the current user (has_privilege.rs
    has_privilege_impl): the owner, a superuser, or a holder of every action listed."""
    each = " AND ".join(
        f"EXISTS (SELECT 1 FROM user_privilege hp WHERE hp.oid = {object_id}"
        f" AND hp.user_id = {CURRENT_USER} AND hp.action = '{a}')"
        for a in actions
    )
    return f"({_IS_SUPER} OR {owner_id} = {CURRENT_USER} OR ({each}))"


# AclMode letters in bit order (src/common/src/acl/mod.rs:26-58) and the modes a superuser
# holds per object kind (acl/mod.rs:109-123, user_privilege.rs:103-134).
ACL_LETTER = {"INSERT": "a", "SELECT": "r", "UPDATE": "w", "DELETE": "d", "EXECUTE": "X",
              "USAGE": "U", "CREATE": "C", "CONNECT": "c"}  # fmt: skip
_ACL_RANK = {"INSERT": 0, "SELECT": 1, "UPDATE": 2, "DELETE": 3, "EXECUTE": 7, "USAGE": 8,
             "CREATE": 9, "CONNECT": 11}  # fmt: skip
MODES_DATABASE = "Cc"
MODES_SCHEMA = "UC"
MODES_TABLE = "arwd"  # tables with for_dml_table, and views
MODES_READONLY = "r"  # sources, sinks, MVs read without for_dml_table, system tables


def acl(object_id: str, super_modes: str) -> str:
    """A JSON array of aclitem texts as system_catalog/mod.rs get_acl_items (:257-303) renders
    them.

    Superusers hold every available mode granted by the default superuser (id 1); other users
    show their grants grouped by grantor, a ``*`` after a mode granted WITH GRANT OPTION.
    RisingWave lists users and grantors in hash-map order and a grantor's modes in the order
    meta returned them; rwshim lists users by id, grantors by id and modes in AclMode's bit
    order (which is how a superuser's item reads in RisingWave too).
    """
    letter = (
        "CASE p.action "
        + " ".join(f"WHEN '{a}' THEN '{ch}'" for a, ch in ACL_LETTER.items())
        + " END || CASE WHEN p.with_grant_option THEN '*' ELSE '' END"
    )
    rank = "CASE p.action " + " ".join(f"WHEN '{a}' THEN {r}" for a, r in _ACL_RANK.items())
    rank += " END"
    return f"""(SELECT json_group_array(item) FROM (
        SELECT u.name || '={super_modes}/' || (SELECT g.name FROM rw_user g WHERE g.user_id = 1)
               AS item, u.user_id AS uid, 0 AS gid
        FROM rw_user u WHERE u.is_super
        UNION ALL
        SELECT u.name || '=' || (SELECT group_concat(l, '') FROM (
                   SELECT {letter} AS l FROM user_privilege p
                   WHERE p.oid = {object_id} AND p.user_id = u.user_id
                     AND p.granted_by = g.user_id ORDER BY {rank}))
               || '/' || g.name, u.user_id, g.user_id
        FROM rw_user u JOIN rw_user g
        WHERE NOT u.is_super AND EXISTS (SELECT 1 FROM user_privilege p WHERE p.oid = {object_id}
              AND p.user_id = u.user_id AND p.granted_by = g.user_id)
        ORDER BY uid, gid))"""


def strategy_text(strategy: str) -> str:
    """format_adaptive_parallelism_strategy (system_catalog/mod.rs): AUTO/FULL -> adaptive,
    BOUNDED(n) -> bounded(n), RATIO(r) -> ratio(r); NULL when absent or unparsable."""
    return (
        f"(CASE WHEN upper({strategy}) IN ('AUTO', 'FULL') THEN 'adaptive' "
        f"WHEN upper({strategy}) LIKE 'BOUNDED(%' OR upper({strategy}) LIKE 'RATIO(%' "
        f"THEN lower({strategy}) END)"
    )


def parallelism_text(kind: str, fixed: str, strategy: str) -> str:
    """extract_parallelism_from_table_state (system_catalog/mod.rs): a number, the strategy, or
    ``adaptive`` / ``custom`` / ``unknown``."""
    s = strategy_text(strategy)
    return (
        f"(CASE {kind} WHEN 'Fixed' THEN CAST({fixed} AS TEXT) "
        f"WHEN 'Adaptive' THEN COALESCE({s}, 'adaptive') "
        f"WHEN 'Auto' THEN COALESCE({s}, 'adaptive') "
        f"WHEN 'Custom' THEN COALESCE({s}, 'custom') ELSE 'unknown' END)"
    )


def empty_select(n_columns: int) -> str:
    """A SELECT of ``n_columns`` NULLs that returns no row (RisingWave's dummy views)."""
    return "SELECT " + ", ".join("NULL" for _ in range(n_columns)) + " WHERE 0"
