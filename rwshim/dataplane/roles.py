"""The data plane's PostgreSQL roles: what user statements run as, and what they may reach.

RisingWave runs a user's query in its own engine: a plain RisingWave user can read what it was
granted and nothing else of the machine.  rwshim runs the same query on PostgreSQL, so the
PostgreSQL role that runs it must not be able to do more:

- **rwshim's own connections** (the admin connection of ``plane.py``, ``host.py``'s database
  set-up, the change logs of ``changelog.py``) use the superuser of the embedded server, or the
  ``--postgres-url`` user: they create the relations, functions, triggers and logs.
- **user statements** (``session.py``) log in as ``DATA_ROLE``: not a superuser, no
  CREATEDB / CREATEROLE / REPLICATION / BYPASSRLS, member of no role (so ``SET ROLE`` reaches
  nothing, and none of ``pg_read_server_files``, ``pg_write_server_files``,
  ``pg_execute_server_program``, ``pg_signal_backend``), owning nothing.  It has USAGE on the
  schemas ``rw`` and ``rwfn``, SELECT / INSERT / UPDATE / DELETE on the relations of ``rw``
  (through default privileges, so every relation rwshim makes later has them too), EXECUTE on
  ``rwfn``'s functions, and TEMP on the database (catalog snapshots are temporary tables).
- In rwshim's own data databases (the embedded server's) PUBLIC loses EXECUTE on the
  functions a user statement must never reach (``REVOKED``): ``set_config`` (the lexing
  settings are pinned on the data role and must stay so), backend signalling, large objects,
  the file readers.  With ``--postgres-url`` the database is the user's: nothing of PUBLIC's
  is revoked there (the README says how to do it).

The lexing settings (``PINNED``) are the role's defaults and are also sent in the startup
packet of every data connection: the data plane's checks parse the text PostgreSQL runs with
``standard_conforming_strings`` on, and ``set_config`` never reaches PostgreSQL
(dataplane/plan/guard.py), so PostgreSQL lexes the text exactly as the checks did.
"""

from __future__ import annotations

from rwshim.dataplane.plan.names import DATA_SCHEMA, FUNCTION_SCHEMA, quote_ident, quote_literal

DATA_ROLE = "rwshim_data"

# Settings that decide how PostgreSQL lexes a statement (scan.l): fixed for user statements.
PINNED: dict[str, str] = {
    "standard_conforming_strings": "on",
    "backslash_quote": "safe_encoding",
    "escape_string_warning": "off",
    "client_encoding": "UTF8",
}

# The attributes the role must have (and only those): ALTER ROLE puts an existing role
# (a --data-dir kept from an older version, a role the user made) back in line.
_ATTRIBUTES = "LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS"

# Functions PUBLIC may call by default that a user statement must never reach (by name, every
# overload): the session's settings, other sessions' backends, server-side large objects
# (lo_from_bytea + lo_export writes files as the server), advisory locks shared by every
# session of the role, notifications.  The file readers (pg_read_file & co) are not PUBLIC's
# by default; they are listed so that a server where they were granted is put back in line.
REVOKED: tuple[str, ...] = (
    "set_config",
    "pg_cancel_backend",
    "pg_terminate_backend",
    "pg_reload_conf",
    "pg_rotate_logfile",
    "pg_read_file",
    "pg_read_binary_file",
    "pg_ls_dir",
    "pg_stat_file",
    "pg_notify",
)
# name patterns (LIKE) revoked the same way
REVOKED_LIKE: tuple[str, ...] = (
    "lo\\_%",
    "loread",
    "lowrite",
    "pg\\_advisory%",
    "pg\\_try\\_advisory%",
)


def role_sql(password: str | None) -> str:
    """Make (or put back in line) the data role: cluster-wide, run by a superuser or a
    CREATEROLE user."""
    name = quote_ident(DATA_ROLE)
    pw = "" if password is None else f" PASSWORD {quote_literal(password)}"
    settings = "".join(
        f"ALTER ROLE {name} SET {k} = {quote_literal(v)};\n" for k, v in PINNED.items()
    )
    return f"""
DO $r$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = {quote_literal(DATA_ROLE)})
  THEN CREATE ROLE {name} {_ATTRIBUTES};
  END IF;
END $r$;
ALTER ROLE {name} {_ATTRIBUTES}{pw};
{settings}"""


# Memberships of the role (SET ROLE reaches every role it is a member of): all revoked.
REVOKE_MEMBERSHIPS = f"""
DO $r$ DECLARE g record; BEGIN
  FOR g IN SELECT m.roleid::regrole AS r FROM pg_catalog.pg_auth_members m
           WHERE m.member = {quote_literal(DATA_ROLE)}::regrole LOOP
    EXECUTE pg_catalog.format('REVOKE %s FROM {quote_ident(DATA_ROLE)} CASCADE', g.r);
  END LOOP;
END $r$;
"""


def database_sql(role: str, own_database: bool) -> str:
    """What the data role may reach in one database (run there by rwshim's admin role, after
    the template SQL).  ``own_database``: rwshim's own (embedded) database, where PUBLIC's
    defaults are narrowed too."""
    r = quote_ident(role)
    d, f = DATA_SCHEMA, FUNCTION_SCHEMA
    out = [
        f"GRANT USAGE ON SCHEMA {d}, {f} TO {r}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {d} TO {r}",
        f"GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA {d} TO {r}",
        f"ALTER DEFAULT PRIVILEGES IN SCHEMA {d} GRANT SELECT, INSERT, UPDATE, DELETE"
        f" ON TABLES TO {r}",
        f"ALTER DEFAULT PRIVILEGES IN SCHEMA {d} GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO {r}",
        f"GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA {f} TO {r}",
        # rwshim's bookkeeping is none of a user statement's business
        f"REVOKE ALL ON ALL TABLES IN SCHEMA {f} FROM {r}",
        f"DO $g$ BEGIN EXECUTE pg_catalog.format('GRANT CONNECT, TEMPORARY ON DATABASE %I TO %I',"
        f" pg_catalog.current_database(), {quote_literal(role)}); END $g$",
    ]
    if own_database:
        names = ", ".join(quote_literal(n) for n in REVOKED)
        likes = " OR ".join(f"f.proname LIKE {quote_literal(p)}" for p in REVOKED_LIKE)
        out += [
            "REVOKE CREATE ON SCHEMA public FROM PUBLIC",
            f"""DO $g$ DECLARE p record; BEGIN
  FOR p IN SELECT f.oid::regprocedure AS sig FROM pg_catalog.pg_proc f
           WHERE f.pronamespace = 'pg_catalog'::regnamespace
             AND (f.proname IN ({names}) OR {likes}) LOOP
    EXECUTE pg_catalog.format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', p.sig);
  END LOOP;
END $g$""",
        ]
    return ";\n".join(out) + ";\n"
