"""A plain RisingWave user (alice: SELECT on t only) tries what a superuser's PostgreSQL
session would allow, in queries over a user table; each gets RisingWave's answer or a
refusal, and PostgreSQL never runs the forbidden call (issue 27).

RisingWave: set_config / current_setting / pg_cancel_backend / pg_terminate_backend are
answered by the binder (src/frontend/src/binder/expr/function/builtin_scalar.rs:607-661,
745-752); reading a table needs its SELECT privilege."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import psycopg

from tests.security.conftest import SECRET, Shim, error_of

ENVELOPE = "Failed to run the query"
# the lexing trick: with standard_conforming_strings off on PostgreSQL, the backslash escapes
# the quote and what follows the newline is code; with it on (rwshim's parse, and the data
# role's pinned setting) the whole is one string literal
HIDDEN = "SELECT 'p\\'\n' , {call} -- '\nFROM t"


def hidden(call: str) -> str:
    return HIDDEN.format(call=call)


def literal_of(call: str) -> str:
    """What HIDDEN answers when PostgreSQL lexes it as rwshim does: the two strings joined."""
    return "p\\" + " , " + call + " -- "


def data_backends(shim: Shim) -> list[tuple[int, str]]:
    with shim.admin() as admin:
        rows = admin.execute(
            "SELECT pid, usename FROM pg_stat_activity WHERE datname = current_database()"
            " AND backend_type = 'client backend' AND pid <> pg_backend_pid()"
        ).fetchall()
    return [(int(p), str(u)) for p, u in rows]


def test_user_statements_run_as_the_unprivileged_data_role(shim: Shim) -> None:
    assert shim.alice.execute("SELECT v FROM t").fetchall() == [("a",)]
    assert shim.root.execute("SELECT v FROM t").fetchall() == [("a",)]
    assert "rwshim_data" in {u for _, u in data_backends(shim)}
    with shim.admin() as admin:
        attrs = admin.execute(
            "SELECT rolsuper, rolcreaterole, rolcreatedb, rolreplication, rolbypassrls,"
            " rolinherit FROM pg_roles WHERE rolname = 'rwshim_data'"
        ).fetchall()
        assert attrs == [(False, False, False, False, False, False)]
        members = admin.execute(
            "SELECT count(*) FROM pg_auth_members WHERE member = 'rwshim_data'::regrole"
        ).fetchone()
        assert members == (0,)
        owns = admin.execute(
            "SELECT count(*) FROM pg_class WHERE relowner = 'rwshim_data'::regrole"
        ).fetchone()
        assert owns == (0,)
        for role in (
            "pg_read_server_files",
            "pg_write_server_files",
            "pg_signal_backend",
            "pg_execute_server_program",
        ):
            row = admin.execute(
                "SELECT pg_has_role('rwshim_data', %s, 'MEMBER')", (role,)
            ).fetchone()
            assert row == (False,), role
        for fn in (
            "pg_catalog.set_config(text, text, boolean)",
            "pg_catalog.pg_terminate_backend(integer, bigint)",
            "pg_catalog.pg_cancel_backend(integer)",
            "pg_catalog.lo_from_bytea(oid, bytea)",
            "pg_catalog.lo_export(oid, text)",
            "pg_catalog.pg_read_file(text)",
        ):
            row = admin.execute(
                "SELECT has_function_privilege('rwshim_data', %s, 'EXECUTE')", (fn,)
            ).fetchone()
            assert row == (False,), fn
        row = admin.execute(
            "SELECT has_schema_privilege('rwshim_data', 'public', 'CREATE'),"
            " has_schema_privilege('rwshim_data', 'rw', 'CREATE'),"
            " has_schema_privilege('rwshim_data', 'rwfn', 'CREATE'),"
            " has_table_privilege('rwshim_data', 'pg_authid', 'SELECT'),"
            " has_table_privilege('rwshim_data', 'rwfn.objects', 'SELECT')"
        ).fetchone()
        assert row == (False, False, False, False, False)


def test_set_config_over_a_table_sets_rwshims_variable(shim: Shim) -> None:
    cur = shim.alice.execute("SELECT set_config('application_name', 'via-table', false) FROM t")
    assert [d.name for d in cur.description or []] == ["set_config"]
    assert cur.fetchall() == [("via-table",)]
    assert shim.alice.execute("SHOW application_name").fetchall() == [("via-table",)]
    assert shim.alice.execute("SELECT current_setting('application_name') FROM t").fetchall() == [
        ("via-table",)
    ]


def test_set_config_arguments_as_risingwave_checks_them(shim: Shim) -> None:
    assert error_of(shim.alice, "SELECT set_config('application_name', 'x', true) FROM t") == (
        f"{ENVELOPE}\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Failed to bind expression: set_config('application_name', 'x', true)\n"
        "  2: Expr error\n"
        "  3: `is_local = true` is not supported now.\n"
    )
    assert error_of(shim.alice, "SELECT set_config(v, 'x', false) FROM t") == (
        f"{ENVELOPE}\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Failed to bind expression: set_config(v, 'x', false)\n"
        "  2: Expr error\n"
        "  3: Only string literal is supported in `setting_name`.\n"
    )


def test_the_lexing_settings_cannot_be_changed_by_a_statement(shim: Shim) -> None:
    """set_config('standard_conforming_strings', 'off') answers as SET does and never reaches
    PostgreSQL: the text after it is lexed as rwshim lexed it."""
    try:
        shim.alice.execute("SET standard_conforming_strings = off")
        via_set: str | None = None
    except psycopg.Error as e:
        via_set = e.diag.message_primary
    try:
        shim.alice.execute(
            "SELECT set_config('standard_conforming_strings', 'off', false) FROM t"
        ).fetchall()
        via_call: str | None = None
    except psycopg.Error as e:
        via_call = e.diag.message_primary
    assert via_call == via_set
    call = "pg_read_file($$/etc/passwd$$)"
    assert shim.alice.execute(hidden(call)).fetchall() == [(literal_of(call),)]
    assert shim.alice.execute("SELECT 'a\\b' AS v FROM t").fetchall() == [("a\\b",)]


def test_no_file_is_read(shim: Shim) -> None:
    assert "pg_read_file" in error_of(shim.alice, "SELECT pg_read_file('/etc/passwd') FROM t")
    call = "pg_read_file($$/etc/passwd$$)"
    rows = shim.alice.execute(hidden(call)).fetchall()
    assert rows == [(literal_of(call),)]
    assert "root:" not in repr(rows)


def test_no_file_is_written(shim: Shim, tmp_path: Path) -> None:
    target = tmp_path / "written-by-postgres"
    os.chmod(tmp_path, 0o777)  # PostgreSQL's user could write it, were it asked to
    direct = f"SELECT lo_export(lo_from_bytea(0, 'x'::bytea), '{target}') FROM t"
    assert "lo_" in error_of(shim.alice, direct)
    call = f"lo_export(lo_from_bytea(0, $$x$$::bytea), $${target}$$)"
    assert shim.alice.execute(hidden(call)).fetchall() == [(literal_of(call),)]
    assert not target.exists()
    with shim.admin() as admin:
        assert admin.execute("SELECT count(*) FROM pg_largeobject_metadata").fetchone() == (0,)


def test_postgres_catalog_and_other_users_rows_stay_hidden(shim: Shim) -> None:
    assert "pg_authid" in error_of(shim.alice, "SELECT t.id, a.rolname FROM t, pg_authid a")
    assert "secret" in error_of(shim.alice, "SELECT * FROM secret")
    (secret_id,) = shim.root.execute(
        "SELECT id FROM rw_catalog.rw_tables WHERE name = 'secret'"
    ).fetchone() or (None,)
    for call in (
        "(SELECT string_agg(rolname, $$,$$) FROM pg_authid)",
        f'(SELECT string_agg(s, $$,$$) FROM rw."t{secret_id}")',
    ):
        rows = shim.alice.execute(hidden(call)).fetchall()
        assert rows == [(literal_of(call),)]
        assert SECRET not in repr(rows)


def test_other_sessions_backends_are_not_signalled(shim: Shim) -> None:
    shim.root.execute("SELECT v FROM t").fetchall()
    victims = [p for p, u in data_backends(shim) if u == "rwshim_data"]
    assert victims
    for pid in victims:
        for fn in ("pg_terminate_backend", "pg_cancel_backend", "pg_catalog.pg_terminate_backend"):
            rows = shim.alice.execute(f"SELECT {fn}({pid}) FROM t").fetchall()
            assert rows == [(False,)], fn
    alive = {p for p, _ in data_backends(shim)}
    assert set(victims) <= alive
    assert shim.root.execute("SELECT v FROM t").fetchall() == [("a",)]


def test_catalog_functions_over_a_table_are_not_postgres_answers(shim: Shim) -> None:
    """RisingWave evaluates them in its frontend from its own catalog (expr/function_impl/
    has_privilege.rs, pg_get_userbyid.rs): alice (SELECT on t only) and root are RisingWave's
    users, unknown to PostgreSQL; user id 1 is root (the default superuser)."""
    cur = shim.alice.execute(
        "SELECT has_table_privilege('t', 'select'), has_table_privilege('t', 'insert'),"
        " has_table_privilege('alice', 'secret', 'select'), pg_get_userbyid(1) FROM t"
    )
    assert [d.name for d in cur.description or []] == [
        "has_table_privilege", "has_table_privilege", "has_table_privilege", "pg_get_userbyid",
    ]  # fmt: skip
    assert cur.fetchall() == [(True, False, False, "root")]


def test_a_view_calling_set_config_leaves_roots_session_alone(shim: Shim) -> None:
    shim.root.execute(
        "CREATE VIEW setter AS SELECT set_config('role', 'pg_monitor', false) AS r FROM t"
    )
    with contextlib.suppress(psycopg.Error):
        shim.root.execute("SELECT * FROM setter").fetchall()
    assert shim.root.execute("SELECT v, current_user FROM t").fetchall() == [("a", "root")]
    assert shim.root.execute("SELECT 'a\\b' AS v FROM t").fetchall() == [("a\\b",)]
    shim.root.execute("DROP VIEW setter")


def test_set_config_without_user_data_checks_its_arguments_too(shim: Shim) -> None:
    assert error_of(shim.alice, "SELECT set_config('application_name', 'x', true)") == (
        f"{ENVELOPE}\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Failed to bind expression: set_config('application_name', 'x', true)\n"
        "  2: Expr error\n"
        "  3: `is_local = true` is not supported now.\n"
    )
    assert shim.alice.execute(
        "SELECT set_config('application_name', 'plain', false)"
    ).fetchall() == [("plain",)]
    assert shim.alice.execute("SHOW application_name").fetchall() == [("plain",)]


def test_constant_catalog_answers_over_a_table_are_risingwaves(shim: Shim) -> None:
    """builtin_scalar.rs:566-606, 664-667, 742-753: answered whatever PostgreSQL's catalog holds."""
    cur = shim.alice.execute(
        "SELECT pg_type_is_visible(1), pg_encoding_to_char(6), pg_get_expr('x', 1),"
        " pg_get_constraintdef(1), pg_stat_get_numscans(1), pg_my_temp_schema() FROM t"
    )
    assert [d.name for d in cur.description or []] == [
        "pg_type_is_visible",
        "pg_encoding_to_char",
        "pg_get_expr",
        "pg_get_constraintdef",
        "pg_stat_get_numscans",
        "pg_my_temp_schema",
    ]
    assert cur.fetchall() == [(True, "UTF8", "", None, 0, 0)]
