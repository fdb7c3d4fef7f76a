"""Errors raised in RisingWave's words by the rwfn functions (SQLSTATE RWEXP / RWERR) and the
PostgreSQL texts mapped to RisingWave's (dataplane/plan/errors.py)."""

from __future__ import annotations

from rwshim.dataplane.plan.errors import PgError, map_error


def _none(_: int) -> str | None:
    return None


def test_an_expression_error_of_a_function_reads_as_risingwaves() -> None:
    err = map_error(PgError("RWEXP", "Invalid parameter step: step size cannot equal zero"), _none)
    assert err.chain == ["Expr error", "Invalid parameter step: step size cannot equal zero"]
    err = map_error(PgError("RWERR", "arg_min does not support struct, array, map, vector, "
                            "jsonb for comparison argument, got integer[]"), _none)  # fmt: skip
    assert err.chain == [
        "arg_min does not support struct, array, map, vector, jsonb for comparison argument, "
        "got integer[]"
    ]


def test_a_long_names_physical_form_reads_as_the_users_name() -> None:
    """PostgreSQL holds a name over 63 bytes under its physical form (sql/long_names.py); a
    text PostgreSQL wrote with it names what the user wrote."""
    from rwshim.dataplane.plan.errors import with_long_names
    from rwshim.sql.long_names import physical

    name = "c" * 63 + "1"
    err = with_long_names(
        PgError("42804", f'column "{physical(name)}" is of type integer', hint="h"),
        [(physical(name), name)],
    )
    assert map_error(err, _none).chain == [f'column "{name}" is of type integer\nHINT: h']
