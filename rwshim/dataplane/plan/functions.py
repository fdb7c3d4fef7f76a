"""SQL installed in the template database every data-plane database is cloned from: the
schemas, the bookkeeping table and the functions of schema ``rwfn``.

``rwfn`` comes first in every data session's search_path, before ``pg_catalog``, so its
functions shadow PostgreSQL's: the session-dependent ones answer from settings the data
session keeps in step with the rwshim session (``rw.*`` custom settings), as RisingWave's
frontend answers them from its session (src/frontend/src/expr/session_timezone.rs,
src/frontend/src/binder/expr/function/builtin_scalar.rs current_database / current_schema /
current_user / version).

Everything is idempotent (``IF NOT EXISTS``, ``OR REPLACE``): it is also run on an existing
database (``--data-dir``, ``--postgres-url``) to bring it up to date.

The RisingWave-only functions and types are the SQL that the modules of ``sqlfn`` register
(``sqlfn.common.register``), run after the base schemas.  ``OVERRIDES`` lists the pg_catalog
functions rwfn shadows, so that a call written ``pg_catalog.f(...)`` is spliced to
``rwfn.f(...)``.  ``TEMPLATE_VERSION`` follows what is installed (a digest of the SQL): a
template of another version is rebuilt.
"""

from __future__ import annotations

import hashlib

from rwshim.dataplane.plan.names import DATA_SCHEMA, FUNCTION_SCHEMA

# importing the package runs its modules, which register their SQL (sqlfn/__init__.py's order)
from rwshim.dataplane.plan.sqlfn.common import registered

# the version of what the template holds before the digest of the SQL is added to it
_TEMPLATE_BASE = 2

# The custom settings a data session carries (set by the session, read by rwfn).
SETTING_USER = "rw.user_name"
SETTING_DATABASE = "rw.database"
SETTING_SCHEMA = "rw.current_schema"
SETTING_SCHEMAS = "rw.search_path"  # the search path's existing schemas, comma-separated
SETTING_VERSION = "rw.version"
SETTING_VARIABLES = "rw.settings"  # RisingWave's session variables as a JSON object

_F = FUNCTION_SCHEMA

_BASE = f"""
CREATE SCHEMA IF NOT EXISTS {DATA_SCHEMA};
CREATE SCHEMA IF NOT EXISTS {_F};
-- What exists in schema {DATA_SCHEMA}: one row per object, written in the transaction that
-- creates it, so that the data plane knows what it has after any crash.
CREATE TABLE IF NOT EXISTS {_F}.objects (
    name      text PRIMARY KEY,   -- t<id>, v<id>, i<id>
    signature text NOT NULL       -- what the object was made from (ddl.signature)
);
CREATE OR REPLACE FUNCTION {_F}.current_database() RETURNS varchar LANGUAGE sql STABLE
    AS $$ SELECT pg_catalog.current_setting('{SETTING_DATABASE}') $$;
CREATE OR REPLACE FUNCTION {_F}.current_catalog() RETURNS varchar LANGUAGE sql STABLE
    AS $$ SELECT pg_catalog.current_setting('{SETTING_DATABASE}') $$;
CREATE OR REPLACE FUNCTION {_F}."current_user"() RETURNS varchar LANGUAGE sql STABLE
    AS $$ SELECT pg_catalog.current_setting('{SETTING_USER}') $$;
CREATE OR REPLACE FUNCTION {_F}."session_user"() RETURNS varchar LANGUAGE sql STABLE
    AS $$ SELECT pg_catalog.current_setting('{SETTING_USER}') $$;
CREATE OR REPLACE FUNCTION {_F}."user"() RETURNS varchar LANGUAGE sql STABLE
    AS $$ SELECT pg_catalog.current_setting('{SETTING_USER}') $$;
CREATE OR REPLACE FUNCTION {_F}."current_role"() RETURNS varchar LANGUAGE sql STABLE
    AS $$ SELECT pg_catalog.current_setting('{SETTING_USER}') $$;
CREATE OR REPLACE FUNCTION {_F}.current_schema() RETURNS varchar LANGUAGE sql STABLE
    AS $$ SELECT nullif(pg_catalog.current_setting('{SETTING_SCHEMA}'), '') $$;
-- STRICT: current_schemas(NULL) is NULL (builtin_scalar.rs:531-533)
CREATE OR REPLACE FUNCTION {_F}.current_schemas(include_implicit boolean) RETURNS varchar[]
    LANGUAGE sql STABLE STRICT AS $$
    SELECT CASE WHEN include_implicit
                THEN ARRAY['pg_catalog', 'rw_catalog']::varchar[] ELSE ARRAY[]::varchar[] END
           || coalesce(string_to_array(
                  nullif(pg_catalog.current_setting('{SETTING_SCHEMAS}'), ''), ',')::varchar[],
                  ARRAY[]::varchar[]) $$;
CREATE OR REPLACE FUNCTION {_F}.version() RETURNS varchar LANGUAGE sql STABLE
    AS $$ SELECT pg_catalog.current_setting('{SETTING_VERSION}') $$;
-- RisingWave's current_setting reads RisingWave's session variables
-- (src/frontend/src/expr/function_impl/context.rs); an unknown name raises SQLSTATE RWSC1,
-- which the error table turns into RisingWave's `Unrecognized config entry` text.
CREATE OR REPLACE FUNCTION {_F}.current_setting(name text, missing_ok boolean) RETURNS varchar
    LANGUAGE plpgsql STABLE AS $$
DECLARE v varchar;
BEGIN
    v := pg_catalog.current_setting('{SETTING_VARIABLES}')::jsonb ->> lower(name);
    IF v IS NULL AND NOT missing_ok THEN
        RAISE EXCEPTION USING ERRCODE = 'RWSC1', MESSAGE = name;
    END IF;
    RETURN v;
END $$;
CREATE OR REPLACE FUNCTION {_F}.current_setting(name text) RETURNS varchar LANGUAGE sql STABLE
    AS $$ SELECT {_F}.current_setting(name, false) $$;
-- RisingWave answers false and signals nothing (builtin_scalar.rs:745-752)
CREATE OR REPLACE FUNCTION {_F}.pg_cancel_backend(pid integer) RETURNS boolean LANGUAGE sql
    IMMUTABLE AS $$ SELECT false $$;
CREATE OR REPLACE FUNCTION {_F}.pg_terminate_backend(pid integer) RETURNS boolean LANGUAGE sql
    IMMUTABLE AS $$ SELECT false $$;
-- RisingWave's constant answers (builtin_scalar.rs:566-606, 664-667, 742-753), whatever the
-- arguments: dataplane/plan/guard.py splices a call to these
CREATE OR REPLACE FUNCTION {_F}.pg_type_is_visible() RETURNS boolean LANGUAGE sql IMMUTABLE
    AS $$ SELECT true $$;
CREATE OR REPLACE FUNCTION {_F}.pg_get_constraintdef() RETURNS varchar LANGUAGE sql IMMUTABLE
    AS $$ SELECT NULL::varchar $$;
CREATE OR REPLACE FUNCTION {_F}.pg_get_partkeydef() RETURNS varchar LANGUAGE sql IMMUTABLE
    AS $$ SELECT NULL::varchar $$;
CREATE OR REPLACE FUNCTION {_F}.pg_get_serial_sequence() RETURNS varchar LANGUAGE sql IMMUTABLE
    AS $$ SELECT NULL::varchar $$;
CREATE OR REPLACE FUNCTION {_F}.pg_encoding_to_char() RETURNS varchar LANGUAGE sql IMMUTABLE
    AS $$ SELECT 'UTF8'::varchar $$;
CREATE OR REPLACE FUNCTION {_F}.pg_stat_get_numscans() RETURNS bigint LANGUAGE sql IMMUTABLE
    AS $$ SELECT 0::bigint $$;
CREATE OR REPLACE FUNCTION {_F}.pg_get_expr() RETURNS varchar LANGUAGE sql IMMUTABLE
    AS $$ SELECT ''::varchar $$;
CREATE OR REPLACE FUNCTION {_F}.pg_my_temp_schema() RETURNS integer LANGUAGE sql IMMUTABLE
    AS $$ SELECT 0 $$;
CREATE OR REPLACE FUNCTION {_F}.pg_tablespace_location() RETURNS varchar LANGUAGE sql IMMUTABLE
    AS $$ SELECT NULL::varchar $$;
-- the answer of set_config(name, value, false): its value (builtin_scalar.rs:621-661); the
-- session variable is set in process (dataplane/plan/guard.py splices calls to this one)
CREATE OR REPLACE FUNCTION {_F}.set_config(value varchar) RETURNS varchar LANGUAGE sql
    IMMUTABLE AS $$ SELECT value $$;
-- RisingWave's tumble_start (src/expr/impl/src/scalar/tumble.rs): the start of the window of
-- `size` (aligned on the Unix epoch, shifted by `offset`) that holds the time; HOP windows:
-- every start `hop` apart whose `size` window holds it (src/expr/impl/src/table_function/
-- hop_window.rs), earliest first.
CREATE OR REPLACE FUNCTION {_F}.tumble_start(ts timestamp, size interval,
    "offset" interval DEFAULT interval '0') RETURNS timestamp LANGUAGE sql IMMUTABLE
    AS $$ SELECT pg_catalog.date_bin(size, ts, timestamp '1970-01-01' + "offset") $$;
CREATE OR REPLACE FUNCTION {_F}.tumble_start(ts timestamptz, size interval,
    "offset" interval DEFAULT interval '0') RETURNS timestamptz LANGUAGE sql IMMUTABLE
    AS $$ SELECT pg_catalog.date_bin(size, ts, timestamptz '1970-01-01 00:00:00+00' + "offset") $$;
CREATE OR REPLACE FUNCTION {_F}.hop_starts(ts timestamp, hop interval, size interval,
    "offset" interval DEFAULT interval '0') RETURNS SETOF timestamp LANGUAGE sql IMMUTABLE AS $$
    SELECT {_F}.tumble_start(ts, hop, "offset") - hop * g
    FROM pg_catalog.generate_series(greatest(1, (extract(epoch FROM size)
        / extract(epoch FROM hop))::bigint) - 1, 0, -1) AS g $$;
CREATE OR REPLACE FUNCTION {_F}.hop_starts(ts timestamptz, hop interval, size interval,
    "offset" interval DEFAULT interval '0') RETURNS SETOF timestamptz LANGUAGE sql IMMUTABLE AS $$
    SELECT {_F}.tumble_start(ts, hop, "offset") - hop * g
    FROM pg_catalog.generate_series(greatest(1, (extract(epoch FROM size)
        / extract(epoch FROM hop))::bigint) - 1, 0, -1) AS g $$;
"""

# pg_catalog functions shadowed by rwfn (a pg_catalog-qualified call is spliced to rwfn)
OVERRIDES: frozenset[str] = frozenset(
    {
        "current_database",
        "current_catalog",
        "current_user",
        "session_user",
        "current_schema",
        "current_schemas",
        "version",
        "current_setting",
        "pg_cancel_backend",
        "pg_terminate_backend",
        "now",
        # RisingWave's list functions (sqlfn/arrays.py)
        "array_append",
        "array_prepend",
        "array_replace",
        "array_length",
        "array_upper",
        "array_lower",
        "array_dims",
        "array_ndims",
    }
)

# SQLValueFunction ops (PostgreSQL's keywords without parentheses) -> the rwfn call
VALUE_FUNCTIONS: dict[str, str] = {
    "SVFOP_CURRENT_USER": f'{_F}."current_user"()',
    "SVFOP_USER": f'{_F}."user"()',
    "SVFOP_SESSION_USER": f'{_F}."session_user"()',
    "SVFOP_CURRENT_ROLE": f'{_F}."current_role"()',
    "SVFOP_CURRENT_CATALOG": f"{_F}.current_catalog()",
    "SVFOP_CURRENT_SCHEMA": f"{_F}.current_schema()",
    # RisingWave binds current_timestamp as now() (binder/expr/function/builtin_scalar.rs:784):
    # the batch now() of the statement (dataplane/temporal.py, Clocked.batch_now)
    "SVFOP_CURRENT_TIMESTAMP": f"{_F}.now()",
}

# Functions a query reading no relation is answered with in process (the catalog path):
# those that read RisingWave's catalog (PostgreSQL's data database has another one), those
# that change the rwshim session (set_config), and the session's own values, which the
# catalog path answers without a round trip (drivers ask for them on every connection).
IN_PROCESS: frozenset[str] = frozenset(
    {
        # catalog readers (src/frontend/src/expr/function_impl/*, binder/expr/function/*)
        "has_table_privilege",
        "has_schema_privilege",
        "has_database_privilege",
        "has_any_column_privilege",
        "has_column_privilege",
        "has_function_privilege",
        "pg_table_is_visible",
        "pg_type_is_visible",
        "pg_function_is_visible",
        "pg_collation_is_visible",
        "pg_get_userbyid",
        "obj_description",
        "col_description",
        "shobj_description",
        "pg_get_viewdef",
        "pg_get_indexdef",
        "pg_get_constraintdef",
        "pg_get_expr",
        "pg_get_ruledef",
        "pg_get_function_arguments",
        "pg_get_function_identity_arguments",
        "pg_get_function_result",
        "pg_get_serial_sequence",
        "pg_relation_size",
        "pg_table_size",
        "pg_total_relation_size",
        "pg_indexes_size",
        "pg_relation_is_publishable",
        "format_type",
        "to_regclass",
        "to_regtype",
        "pg_encoding_to_char",
        "pg_advisory_unlock_all",
        "pg_backend_pid",
        "pg_cancel_backend",
        "pg_terminate_backend",
        "pg_is_in_recovery",
        "rw_recovery_status",
        "rw_cluster_id",
        "pg_postmaster_start_time",
        # the session's state
        "set_config",
        "current_setting",
        "version",
        "current_database",
        "current_catalog",
        "current_schema",
        "current_schemas",
        "current_user",
        "session_user",
    }
)
# Casts to these types name catalog objects: a query using one stays in process.
IN_PROCESS_TYPES: frozenset[str] = frozenset(
    {"regclass", "regtype", "regproc", "regprocedure", "regnamespace", "regrole", "regoper"}
)


def _answered_sql() -> str:
    """The identities that carry an answer given in process (guard.py splices
    ``has_table_privilege(...)`` to ``rwfn.has_table_privilege(<its answer>)``), so that the
    column keeps the function's name as RisingWave names it."""
    from rwshim.dataplane.plan.guard import IN_PROCESS

    return "".join(
        f"CREATE OR REPLACE FUNCTION {_F}.{name}(answer anyelement) RETURNS anyelement"
        " LANGUAGE sql IMMUTABLE AS $$ SELECT answer $$;\n"
        for name in sorted(IN_PROCESS)
    )


def template_sql() -> str:
    """Everything the template database holds beyond an empty database."""
    return _BASE + _answered_sql() + "\n".join(registered())


TEMPLATE_VERSION = f"{_TEMPLATE_BASE}-{hashlib.sha256(template_sql().encode()).hexdigest()[:12]}"
