"""RisingWave's casts from ``jsonb`` to the number types and ``boolean``, installed as the
casts themselves (PostgreSQL's ``pg_cast`` rows pointed at the functions here).

RisingWave (src/expr/impl/src/scalar/cast.rs:70-99, ``jsonb_to_bool`` / ``jsonb_to_number``):

- the jsonb ``null`` casts to SQL NULL (``if v.is_jsonb_null() { Ok(None) }``), where
  PostgreSQL raises ``cannot cast jsonb null to type ...``;
- a number is read as an f64 (``JsonbRef::as_number``, src/common/src/types/jsonb.rs:336-343)
  and converted with ``TryFrom<F64>``: to an integer by rounding half to even
  (``round_ties_even``, src/common/src/types/ordered_float.rs:992-1016), to ``real`` by Rust's
  ``as f32`` (:977-990); PostgreSQL reads the jsonb's numeric and rounds half away from zero
  (``'2.5'::jsonb::smallint`` is 3 there, 2 in RisingWave).  PostgreSQL's own float8 casts
  round with ``rint`` (half to even) and narrow to float4 as C does, so the number goes through
  ``float8`` here; out of range is ``smallint/integer/bigint out of range``, which
  dataplane/plan/errors.py reports as RisingWave's ``Numeric out of range``, and the float4
  overflow is raised with that text here (RisingWave maps every ``TryFrom`` failure to
  ``ExprError::NumericOutOfRange``).
- ``double precision`` and ``numeric`` keep PostgreSQL's conversion of the number (the f64 of a
  jsonb number is the nearest to its decimal either way; a ``numeric`` from a number of more than
  17 significant digits stays exact here), with RisingWave's NULL for the jsonb ``null``.

A cast function of a built-in pair can only be changed by a superuser: on a ``--postgres-url``
database whose user is not one, PostgreSQL's casts stay.
"""

from __future__ import annotations

from rwshim.dataplane.plan.sqlfn.common import F, raise_expr, register

_NULL = "pg_catalog.jsonb_typeof(j) = 'null'"

# target type -> the expression of its value from a non-null jsonb ``j``
_BODIES: dict[str, str] = {
    "int2": "pg_catalog.float8(j)::int2",
    "int4": "pg_catalog.float8(j)::int4",
    "int8": "pg_catalog.float8(j)::int8",
    "float8": "pg_catalog.float8(j)",
    # past rust_decimal's mantissa the f64 is no decimal (_RANGE below, cast.rs:86-99)
    "numeric": f"{F}.jsonb_number_in_range(pg_catalog.numeric(j))",
    "bool": "pg_catalog.bool(j)",
}


def _sql_fn(target: str, body: str) -> str:
    return f"""
CREATE OR REPLACE FUNCTION {F}.jsonb_to_{target}(j jsonb) RETURNS {target} LANGUAGE sql
    IMMUTABLE STRICT PARALLEL SAFE AS $$
SELECT CASE WHEN {_NULL} THEN NULL ELSE {body} END $$;
"""


_FLOAT4 = f"""
CREATE OR REPLACE FUNCTION {F}.jsonb_to_float4(j jsonb) RETURNS float4 LANGUAGE plpgsql
    IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    f float8;
BEGIN
    IF {_NULL} THEN
        RETURN NULL;
    END IF;
    f := pg_catalog.float8(j);
    RETURN f::float4;
EXCEPTION WHEN numeric_value_out_of_range THEN
    {raise_expr("'Numeric out of range'")}
END $$;
"""


def _cast(target: str) -> str:
    return f"""DO $cast$ BEGIN
    UPDATE pg_catalog.pg_cast SET castfunc = '{F}.jsonb_to_{target}(jsonb)'::regprocedure
    WHERE castsource = 'jsonb'::regtype AND casttarget = '{target}'::regtype;
EXCEPTION WHEN insufficient_privilege THEN NULL;
END $cast$;
"""


TARGETS = (*_BODIES, "float4")

# the f64 of a jsonb number past rust_decimal's mantissa (2**96 - 1) is no decimal
_RANGE = f"""
CREATE OR REPLACE FUNCTION {F}.jsonb_number_in_range(n numeric) RETURNS numeric LANGUAGE plpgsql
    IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
    IF pg_catalog.abs(n::float8) > 79228162514264337593543950335::float8 THEN
        {raise_expr("'Numeric out of range'")}
    END IF;
    RETURN n;
END $$;
"""

SQL = (
    _RANGE
    + "".join(_sql_fn(t, b) for t, b in _BODIES.items())
    + _FLOAT4
    + "".join(_cast(t) for t in TARGETS)
)

register(SQL)
