"""``approx_percentile(q [, relative_error]) WITHIN GROUP (ORDER BY x)``: RisingWave's
DDSketch-like estimate (src/expr/impl/src/aggregate/approx_percentile.rs), as an ordered-set
aggregate.

Each non-NULL value falls in the bucket ``ceil(log_base(|x|))`` of its sign (zeros apart),
``base = (1 + e) / (1 - e)``; the result is the bucket reached by counting
``floor((count - 1) * q)`` values from the most negative, rendered ``±2 * base^id / (base +
1)`` (``f64::powi``: repeated squaring, as compiler-rt's ``__powidf2``, which rounds unlike
``pow``).  The relative error defaults to 0.01 (binder/expr/function/aggregate.rs:154-180);
``ORDER BY x DESC`` asks for ``1 - q`` (optimizer/plan_node/logical_agg.rs:770-772): the
rewriter splices it (plan/rewrite ``descending_percentiles``), as PostgreSQL hands a
user-defined ordered-set aggregate its rows unsorted.
"""

from __future__ import annotations

from rwshim.dataplane.plan.sqlfn.common import F, register

# the state: the non-NULL values
STATE = f"{F}.approx_percentile_values"

SQL = f"""
DO $once$ BEGIN CREATE TYPE {STATE} AS (vals float8[]);
EXCEPTION WHEN duplicate_object THEN NULL; END $once$;
CREATE OR REPLACE FUNCTION {F}.rw_powi(a float8, b int4) RETURNS float8
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    r float8 := 1;
    n int8 := abs(b::int8);
BEGIN
    LOOP
        IF n % 2::int8 = 1::int8 THEN
            r := r * a;
        END IF;
        n := n / 2::int8;
        EXIT WHEN n = 0::int8;
        a := a * a;
    END LOOP;
    IF b < 0 THEN
        RETURN 1 / r;
    END IF;
    RETURN r;
END $$;
CREATE OR REPLACE FUNCTION {F}.approx_percentile_step(s {STATE}, x float8)
    RETURNS {STATE} LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    IF x IS NULL THEN
        RETURN s;
    END IF;
    IF s IS NULL THEN
        RETURN ROW(ARRAY[x])::{STATE};
    END IF;
    RETURN ROW(s.vals || x)::{STATE};
END $$;
CREATE OR REPLACE FUNCTION {F}.approx_percentile_result(
    s {STATE}, q float8, e float8
) RETURNS float8 LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    base float8;
    qc int8;
    acc int8 := 0;
    zeros int8 := 0;
    b record;
BEGIN
    IF s IS NULL THEN
        RETURN NULL;
    END IF;
    base := (1.0::float8 + e) / (1.0::float8 - e);
    qc := floor(greatest(cardinality(s.vals) - 1, 0)::float8 * q)::int8;
    FOR b IN
        SELECT ceil(ln(-v) / ln(base))::int4 AS id, count(*) AS c
        FROM unnest(s.vals) AS v WHERE v < 0 GROUP BY 1 ORDER BY 1 DESC
    LOOP
        acc := acc + b.c;
        IF acc > qc THEN
            RETURN -2.0::float8 * {F}.rw_powi(base, b.id) / (base + 1.0::float8);
        END IF;
    END LOOP;
    SELECT count(*) INTO zeros FROM unnest(s.vals) AS v WHERE v = 0;
    acc := acc + zeros;
    IF acc > qc THEN
        RETURN 0.0::float8;
    END IF;
    FOR b IN
        SELECT ceil(ln(v) / ln(base))::int4 AS id, count(*) AS c
        FROM unnest(s.vals) AS v WHERE v > 0 GROUP BY 1 ORDER BY 1
    LOOP
        acc := acc + b.c;
        IF acc > qc THEN
            RETURN 2.0::float8 * {F}.rw_powi(base, b.id) / (base + 1.0::float8);
        END IF;
    END LOOP;
    RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION {F}.approx_percentile_final1(s {STATE}, q float8, x float8)
    RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT {F}.approx_percentile_result(s, q, 0.01) $$;
CREATE OR REPLACE FUNCTION {F}.approx_percentile_final2(
    s {STATE}, q float8, e float8, x float8
) RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT {F}.approx_percentile_result(s, q, e) $$;
CREATE OR REPLACE AGGREGATE {F}.approx_percentile(float8 ORDER BY float8) (
    SFUNC = {F}.approx_percentile_step, STYPE = {STATE},
    FINALFUNC = {F}.approx_percentile_final1, FINALFUNC_EXTRA
);
CREATE OR REPLACE AGGREGATE {F}.approx_percentile(float8, float8 ORDER BY float8) (
    SFUNC = {F}.approx_percentile_step, STYPE = {STATE},
    FINALFUNC = {F}.approx_percentile_final2, FINALFUNC_EXTRA
);
"""

register(SQL)
