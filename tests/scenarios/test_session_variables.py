"""Session variables over a real connection (issue 3): every case of the session-config tables
set, shown and set back to DEFAULT through psycopg, and every bad value's whole error text."""

from __future__ import annotations

import psycopg
import pytest

from rwshim.errors import RUN_QUERY, pretty_report
from tests.conftest import ThreadRunning
from tests.scenarios.drivers import Client
from tests.unit.sql.session_cases import DEFAULTS, ERROR_CASES, SET_CASES


def _literal(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def test_every_variable_sets_shows_and_resets(rw_thread_server: ThreadRunning) -> None:
    with psycopg.connect(rw_thread_server.dsn(), autocommit=True) as conn:
        for name, default in DEFAULTS.items():
            assert conn.execute(f"SHOW {name}").fetchone() == (default,), name
        seen = []
        for name, value, _shown in SET_CASES:
            cur = conn.execute(f"SET {name} = {_literal(value)}")
            assert cur.statusmessage == "SET_VARIABLE"
            seen.append((name, value, conn.execute(f"SHOW {name}").fetchone()))
        assert seen == [(n, v, (s,)) for n, v, s in SET_CASES]
        for name, default in DEFAULTS.items():
            conn.execute(f"SET {name} TO DEFAULT")
            assert conn.execute(f"SHOW {name}").fetchone() == (default,), name


@pytest.mark.parametrize(("name", "value", "chain"), ERROR_CASES)
def test_bad_values_get_risingwaves_whole_error(
    rw_thread_server: ThreadRunning, name: str, value: str, chain: list[str]
) -> None:
    unknown = chain[-1].startswith("Unrecognized config entry")
    with psycopg.connect(rw_thread_server.dsn(), autocommit=True) as conn:
        before = None if unknown else conn.execute(f"SHOW {name}").fetchone()
        with pytest.raises(psycopg.Error) as info:
            conn.execute(f"SET {name} = {_literal(value)}")
        assert info.value.sqlstate == "XX000"
        assert info.value.diag.message_primary == pretty_report([RUN_QUERY, *chain])
        # A rejected SET leaves the variable as it was and the connection usable.
        if unknown:
            assert conn.execute("SELECT 1").fetchone() == (1,)
        else:
            assert conn.execute(f"SHOW {name}").fetchone() == before


# --- set_config(): the answer is the session's (issue 26) ------------------------------------


async def test_set_config_sets_what_it_answers(client: Client) -> None:
    """RisingWave's binder sets the session variable and answers the new value
    (binder/expr/function/builtin_scalar.rs:621-661): SHOW and current_setting see it."""
    assert await client.rows("SELECT set_config('application_name', 'xyz', false)") == [("xyz",)]
    assert await client.rows("SHOW application_name") == [("xyz",)]
    assert await client.rows("SELECT current_setting('application_name')") == [("xyz",)]
    # the same text again runs again (it is no constant answer to keep)
    await client.run("SET application_name = 'other'")
    assert await client.rows("SELECT set_config('application_name', 'xyz', false)") == [("xyz",)]
    assert await client.rows("SHOW application_name") == [("xyz",)]
    # a value the session normalises reads back as SET would store it
    assert await client.rows("SELECT set_config('extra_float_digits', '2', false)") == [("2",)]
    assert await client.rows("SHOW extra_float_digits") == [("2",)]


async def test_set_config_of_an_unknown_variable_fails_as_set_does(client: Client) -> None:
    failure = await client.fail("SELECT set_config('no_such_variable', 'x', false)")
    chain = ["Failed to get or set session config", "Unrecognized config entry `no_such_variable`"]
    assert (failure.sqlstate, failure.message) == (
        "XX000",
        pretty_report([client.envelope, *chain]),
    )
    assert await client.rows("SELECT 1") == [(1,)]
