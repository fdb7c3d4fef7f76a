"""The functions a streaming job's expressions run through so that an error yields NULL
(RisingWave's non-strict evaluation, src/expr/core/src/expr/wrapper/non_strict.rs:61-157:
every expression node of a streaming executor is wrapped; a node failing on a row gives
NULL for that row, reported to the log, and its parent goes on).  ``plan/nonstrict.py``
rewrites a materialized view's query to call them.

An error here is a data exception (SQLSTATE class 22: division by zero, out of range, invalid
text for the type, ...) or RisingWave's own expression error (``RWEXP``, sqlfn/common.py).
The functions set their search_path: the operators and casts they apply are rwfn's first,
as in the view they replace.  They are STABLE: a cast to a time type reads the session's
TimeZone, which PostgreSQL must not fold at planning.
"""

from __future__ import annotations

from rwshim.dataplane.plan.sqlfn.common import EXPR_ERROR, F, register

# the target types a cast is made non-strict for (pg_catalog names)
CAST_TYPES: tuple[str, ...] = (
    "int2", "int4", "int8", "numeric", "float4", "float8", "bool", "date", "time",
    "timestamp", "timestamptz", "interval", "jsonb", "bytea",
)  # fmt: skip

_CATCH = f"EXCEPTION WHEN data_exception OR SQLSTATE '{EXPR_ERROR}' THEN RETURN NULL;"
_PATH = f"SET search_path = {F}, pg_catalog"


def _binary(name: str, op: str) -> list[str]:
    out = [
        f"CREATE OR REPLACE FUNCTION {F}.{name}(a anycompatible, b anycompatible)"
        f" RETURNS anycompatible LANGUAGE plpgsql STABLE {_PATH} AS $$"
        f" BEGIN RETURN a {op} b; {_CATCH} END $$"
    ]
    if op == "/":  # interval / number (PostgreSQL's interval_div takes float8)
        out.append(
            f"CREATE OR REPLACE FUNCTION {F}.{name}(a interval, b double precision)"
            f" RETURNS interval LANGUAGE plpgsql STABLE {_PATH} AS $$"
            f" BEGIN RETURN a {op} b; {_CATCH} END $$"
        )
    return out


def _casts() -> list[str]:
    return [
        f"CREATE OR REPLACE FUNCTION {F}.ns_cast_{t}(v anyelement) RETURNS pg_catalog.{t}"
        f" LANGUAGE plpgsql STABLE {_PATH} AS $$ BEGIN RETURN CAST(v AS pg_catalog.{t});"
        f" {_CATCH} END $$"
        for t in CAST_TYPES
    ]


register(";\n".join([*_binary("ns_div", "/"), *_binary("ns_mod", "%"), *_casts()]) + ";\n")
