"""RisingWave's ``range``: ``generate_series`` without its end (src/expr/impl/src/table_function/
generate_series.rs range / range_step / range_generic with INCLUSIVE = false), with its errors:
a zero step is ``Invalid parameter step: step size cannot equal zero`` and a decimal bound that
is NaN or infinite ``Invalid parameter start: start value cannot be NaN`` (validate_decimal).
"""

from __future__ import annotations

from rwshim.dataplane.plan.sqlfn.common import F, raise_expr, register

_ZERO = raise_expr("'Invalid parameter step: step size cannot equal zero'")


def _check(name: str) -> str:
    return f"""
    IF {name} = 'NaN'::numeric THEN
        {raise_expr(f"'Invalid parameter {name}: {name} value cannot be NaN'")}
    END IF;
    IF {name} IN ('Infinity'::numeric, '-Infinity'::numeric) THEN
        {raise_expr(f"'Invalid parameter {name}: {name} value cannot be infinity'")}
    END IF;"""


def _range(args: str, elem: str, step: str, checks: str = "") -> str:
    return f"""
CREATE OR REPLACE FUNCTION {F}.range({args}) RETURNS SETOF {elem} LANGUAGE plpgsql IMMUTABLE
    PARALLEL SAFE AS $$
BEGIN{checks}
    IF {step} = {"'0'::interval" if elem.startswith("timestamp") else "0"} THEN
        {_ZERO}
    END IF;
    RETURN QUERY SELECT x FROM pg_catalog.generate_series(start, stop, {step}) AS g(x)
        WHERE x <> stop;
END $$;
"""


_DEC = "start numeric, stop numeric"
SQL = "".join(
    [
        _range("start int4, stop int4", "int4", "1"),
        _range("start int8, stop int8", "int8", "1"),
        _range(_DEC, "numeric", "1::numeric", _check("start") + _check("stop")),
        _range("start int4, stop int4, step int4", "int4", "step"),
        _range("start int8, stop int8, step int8", "int8", "step"),
        _range(
            f"{_DEC}, step numeric",
            "numeric",
            "step",
            _check("start") + _check("stop") + _check("step"),
        ),
        _range("start timestamp, stop timestamp, step interval", "timestamp", "step"),
    ]
)

register(SQL)
