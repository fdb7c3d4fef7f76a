"""RisingWave's text of a ``real`` / ``double precision`` (a jsonb_build_object key's,
sqlfn/jsonb.py ``jsonb_key``): ryu's shortest digits (src/common/src/types/to_text.rs:122-170
implement_using_ryu: ``format_finite``, ``.0`` dropped, the exponent signed and at least two
digits), in fixed notation for a leading digit's decimal exponent in [-5, 15] (float8) or
[-6, 12] (float4), as the wire's rendering does (wire/codec_text.py ``_F8_FIXED``);
PostgreSQL switches to ``e`` notation past 10^14 (float8) or 10^5 (float4) and its digits
follow ``extra_float_digits``.  The digits are PostgreSQL's shortest (``extra_float_digits =
1``: its own ryu), laid out again here.

They are not made the casts to varchar (as sqlfn/totext.py's are for timestamps): a pg_cast
row with a function would end the function-style conversions ``text(x)`` of the floats that
PostgreSQL's I/O conversion allows, which rwfn's own SQL calls.
"""

from __future__ import annotations

from rwshim.dataplane.plan.sqlfn.common import F, register

_FIXED = {"float8": (-5, 15), "float4": (-6, 12)}


def _fn(t: str) -> str:
    lo, hi = _FIXED[t]
    return f"""
CREATE OR REPLACE FUNCTION {F}.rw_text(x {t}) RETURNS varchar LANGUAGE plpgsql IMMUTABLE
    STRICT PARALLEL SAFE SET extra_float_digits = 1 AS $$
DECLARE
    s text := pg_catalog.textin(pg_catalog.{t}out(x));
    a text;
    ip text;
    fp text;
    allds text;
    ds text;
    lead int;
    e10 int;
    neg text := '';
BEGIN
    IF s IN ('NaN', 'Infinity', '-Infinity', '0', '-0') THEN
        RETURN s;
    END IF;
    IF pg_catalog.left(s, 1) = '-' THEN
        neg := '-';
    END IF;
    -- the exact decimal of the shortest digits, then its digits and leading exponent
    a := pg_catalog.trim_scale(pg_catalog.abs(s::numeric))::text;
    ip := pg_catalog.split_part(a, '.', 1);
    fp := pg_catalog.split_part(a, '.', 2);
    allds := ip || fp;
    lead := pg_catalog.length(allds) - pg_catalog.length(pg_catalog.ltrim(allds, '0'));
    ds := pg_catalog.rtrim(pg_catalog.ltrim(allds, '0'), '0');
    e10 := pg_catalog.length(ip) - lead - 1;
    IF e10 BETWEEN {lo} AND {hi} THEN
        IF e10 < 0 THEN
            RETURN neg || '0.' || pg_catalog.repeat('0', -e10 - 1) || ds;
        ELSIF pg_catalog.length(ds) <= e10 + 1 THEN
            RETURN neg || ds || pg_catalog.repeat('0', e10 + 1 - pg_catalog.length(ds));
        END IF;
        RETURN neg || pg_catalog.left(ds, e10 + 1) || '.' || pg_catalog.substr(ds, e10 + 2);
    END IF;
    RETURN neg || pg_catalog.left(ds, 1)
        || CASE WHEN pg_catalog.length(ds) > 1 THEN '.' || pg_catalog.substr(ds, 2) ELSE '' END
        || 'e' || CASE WHEN e10 < 0 THEN '-' ELSE '+' END
        || pg_catalog.lpad(pg_catalog.abs(e10)::text, 2, '0');
END $$;
"""


SQL = "".join(_fn(t) for t in _FIXED)

register(SQL)
