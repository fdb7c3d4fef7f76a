"""The last check before PostgreSQL (dataplane/plan/guard.py), on texts as the rewriter makes
them: what is spliced, what is refused, and RisingWave's texts for set_config's arguments
(src/frontend/src/binder/expr/function/builtin_scalar.rs:607-661)."""

from __future__ import annotations

import pytest

from rwshim.dataplane.plan import guard
from rwshim.dataplane.plan.checks import UnknownFunction
from rwshim.errors import RwError

T1 = frozenset({("rw", "t1")})


def test_set_config_is_answered_and_returned_as_a_setting() -> None:
    text, settings, _ = guard.guard(
        "SELECT set_config('application_name', 'x''y', false) FROM rw.\"t1\"", T1
    )
    assert text == "SELECT rwfn.set_config('x''y') FROM rw.\"t1\""
    assert settings == (("application_name", "x'y"),)


def test_a_pg_catalog_set_config_is_answered_alike() -> None:
    text, settings, _ = guard.guard(
        "SELECT pg_catalog.set_config('a', E'\\\\', false) FROM rw.\"t1\"", T1
    )
    assert text == "SELECT rwfn.set_config('\\') FROM rw.\"t1\""
    assert settings == (("a", "\\"),)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        ("set_config('a', 'b', true)", "`is_local = true` is not supported now."),
        ("set_config(v, 'b', false)", "Only string literal is supported in `setting_name`."),
        ("set_config('a', v, false)", "Only string literal is supported in `setting_name`."),
        ("set_config('a', 'b', v)", "Only bool literal is supported in `is_local`."),
        ("current_setting(v)", "Only literal is supported in `setting_name`."),
        ("current_setting('a', true)", "unexpected arguments number 2, expect 1"),
        ("set_config('a', 'b')", "unexpected arguments number 2, expect 3"),
        ("pg_cancel_backend(1, 2)", "unexpected arguments number 2, expect 1"),
        # builtin_scalar.rs guard_by_len (e2e_test/batch/functions/now.slt.part, cast.slt.part)
        ("now(1)", "unexpected arguments number 1, expect 0"),
        ("pg_typeof()", "unexpected arguments number 0, expect 1"),
        ("date()", "unexpected arguments number 0, expect 1"),
        ("quote_literal(v, v)", "unexpected arguments number 2, expect 1"),
    ],
)
def test_risingwaves_argument_checks(call: str, message: str) -> None:
    with pytest.raises(RwError) as info:
        guard.guard(f'SELECT {call} FROM rw."t1"', T1)
    assert info.value.chain == [
        f"Failed to bind expression: {call}",
        "Expr error",
        message,
    ]


@pytest.mark.parametrize(
    "call",
    [
        "pg_read_file('/etc/passwd')",
        "lo_from_bytea(0, 'x')",
        "pg_catalog.pg_terminate_backend(1)",
        "pg_catalog.current_setting('a')",
        "has_table_privilege('t', 'select')",
        "pg_get_userbyid(1)",
    ],
)
def test_calls_that_must_not_reach_postgres_are_refused(call: str) -> None:
    with pytest.raises(RwError):
        guard.guard(f'SELECT {call} FROM rw."t1"', T1)


@pytest.mark.parametrize("call", ["public.f(1)", "rwfn.objects_of(1)", "pg_read_file('/x')"])
def test_a_function_risingwave_lacks_is_its_unknown_function(call: str) -> None:
    """The frontend asks the in-process binder for RisingWave's whole text."""
    with pytest.raises(UnknownFunction):
        guard.guard(f'SELECT {call} FROM rw."t1"', T1)


def test_the_users_text_may_not_name_rwfn() -> None:
    with pytest.raises(UnknownFunction):
        guard.check_user_calls([("rwfn", "set_config")])
    guard.check_user_calls([("pg_catalog", "abs"), ("abs",)])


def test_backend_signals_go_to_rwfns_answer() -> None:
    text = 'SELECT pg_terminate_backend(1), pg_cancel_backend(2) FROM rw."t1"'
    assert guard.guard(text, T1) == (text, (), False)


@pytest.mark.parametrize(
    "text",
    [
        'SELECT * FROM rw."t1", rw."t2"',
        'SELECT * FROM rw."t1", pg_authid',
        'SELECT * FROM rw."t1", pg_catalog.pg_authid',
        'SELECT (SELECT 1 FROM rwfn.objects) FROM rw."t1"',
        'SELECT * FROM other.rw."t1"',
    ],
)
def test_only_the_planned_relations_are_read(text: str) -> None:
    with pytest.raises(guard.GuardRefused):
        guard.guard(text, T1)


def test_a_cte_may_be_read_by_its_name() -> None:
    text = 'WITH c AS (SELECT * FROM rw."t1") SELECT * FROM c'
    assert guard.guard(text, T1) == (text, (), False)


def test_pinned_lexing_a_backslash_does_not_hide_a_call() -> None:
    """With standard_conforming_strings on (pinned on the data role), this is one string."""
    text = "SELECT 'p\\'\n' , pg_read_file($$/etc/passwd$$) -- '\nFROM rw.\"t1\""
    assert guard.guard(text, T1) == (text, (), False)
    with pytest.raises(UnknownFunction):
        guard.guard("SELECT E'p\\'\n' , pg_read_file($$/etc/passwd$$) -- '\nFROM rw.\"t1\"", T1)


def test_constant_answers_go_to_rwfn() -> None:
    text, _, _ = guard.guard(
        'SELECT pg_type_is_visible(k), pg_catalog.pg_get_expr(a, b) FROM rw."t1"', T1
    )
    assert text == 'SELECT rwfn.pg_type_is_visible(), rwfn.pg_get_expr() FROM rw."t1"'
    with pytest.raises(RwError) as info:
        guard.guard('SELECT pg_get_expr(a) FROM rw."t1"', T1)
    assert info.value.chain[-1] == "Too many/few arguments for pg_catalog.pg_get_expr()"


def test_a_catalog_call_of_literals_is_answered_in_process() -> None:
    """has_table_privilege & co are RisingWave's frontend answers (expr/function_impl/
    has_privilege.rs): the session gives them; the text carries them as rwfn's identity of the
    function's name, so the column keeps RisingWave's name."""
    asked: list[str] = []

    def answer(call: str) -> tuple[int, object]:
        asked.append(call)
        answers = {
            "has_table_privilege": (16, True),
            "pg_get_userbyid": (1043, "ro'ot"),
            "pg_backend_pid": (23, None),
        }
        return answers[call.split("(")[0]]

    got = guard.guard(
        "SELECT has_table_privilege('t', 'select'), pg_catalog.pg_get_userbyid(1),"
        ' pg_backend_pid() FROM rw."t1"',
        T1,
        answer,
    )
    assert sorted(asked) == sorted(
        ["has_table_privilege('t', 'select')", "pg_get_userbyid(1)", "pg_backend_pid()"]
    )
    assert got.text == (
        "SELECT rwfn.has_table_privilege(true), rwfn.pg_get_userbyid('ro''ot'::character varying),"
        ' rwfn.pg_backend_pid(NULL::integer) FROM rw."t1"'
    )
    assert got.answered


@pytest.mark.parametrize(
    "call", ["has_table_privilege(v, 'select')", "pg_get_userbyid(a + 1)", "pg_get_userbyid($1)"]
)
def test_a_catalog_call_varying_per_row_is_refused(call: str) -> None:
    def answer(call: str) -> tuple[int, object]:  # pragma: no cover - never asked
        raise AssertionError(call)

    with pytest.raises(guard.GuardRefused) as info:
        guard.guard(f'SELECT {call} FROM rw."t1"', T1, answer)
    assert "arguments that vary per row" in str(info.value)


def test_a_catalog_call_without_a_session_is_session_bound() -> None:
    """A view's definition (no session to answer): the reader inlines the view."""
    with pytest.raises(guard.SessionBound):
        guard.guard("SELECT has_table_privilege('t', 'select') FROM rw.\"t1\"", T1)
