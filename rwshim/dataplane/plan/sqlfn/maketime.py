"""``make_date`` / ``make_time`` / ``make_timestamp`` / ``make_timestamptz`` with RisingWave's
checks and texts (src/expr/impl/src/scalar/make_time.rs): year 0 is invalid, a negative year
counts from 1 BC (astronomical numbering, as PostgreSQL's), a negative or non-finite second is
``Invalid parameter sec: invalid sec: …``, a date or time chrono does not have is ``Invalid
parameter year, month, day: invalid date: y-m-d`` (the year as chrono numbers it) or ``Invalid
parameter hour, min, sec: invalid time: h:m:s`` (chrono: hours < 24, minutes and seconds
< 60); an unknown zone is ``Invalid parameter time_zone: '…' is not a valid timezone``
(timestamptz.rs time_zone_err).

RisingWave's time of day carries nanoseconds, ``round_ties_even((sec - trunc(sec)) * 1e9)``
(make_time.rs:45-46), and ``make_time`` / ``make_timestamp`` keep them (``Time`` and
``Timestamp`` are chrono's, printed with ``%.f``); PostgreSQL's keep microseconds.  Seconds
whose nanoseconds are not whole microseconds are refused (``rw_check_nanos``, not supported
by rwshim) rather than rounded; ``make_timestamptz`` is RisingWave's microseconds anyway.
"""

from __future__ import annotations

from rwshim.dataplane.plan.sqlfn.common import F, raise_expr, raise_rw, register

_BAD_DATE = raise_expr(
    "'Invalid parameter year, month, day: invalid date: ' || y || '-' || m || '-' || d"
)
_BAD_TIME = raise_expr(
    "'Invalid parameter hour, min, sec: invalid time: ' || h || ':' || mi || ':' || s"
)

_NANOS = raise_rw(
    "'not supported by rwshim: ' || fn || ' of ' || s || ' seconds: RisingWave keeps their "
    "nanoseconds, the data plane''s PostgreSQL keeps microseconds'"
)

SQL = f"""
CREATE OR REPLACE FUNCTION {F}.rw_check_date(y int4, m int4, d int4) RETURNS void
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    IF y = 0 THEN
        {_BAD_DATE}
    END IF;
    IF y < 0 THEN
        y := y + 1;
    END IF;
    BEGIN
        PERFORM pg_catalog.make_date(CASE WHEN y <= 0 THEN y - 1 ELSE y END, m, d);
    EXCEPTION WHEN datetime_field_overflow THEN
        {_BAD_DATE}
    END;
END $$;
CREATE OR REPLACE FUNCTION {F}.rw_check_time(h int4, mi int4, s float8) RETURNS void
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    IF s IN ('Infinity'::float8, '-Infinity'::float8, 'NaN'::float8)
        OR s < 0 OR (s = 0 AND pg_catalog.text(s) = '-0') THEN
        {raise_expr("'Invalid parameter sec: invalid sec: ' || s")}
    END IF;
    IF h < 0 OR h > 23 OR mi < 0 OR mi > 59 OR s >= 60 THEN
        {_BAD_TIME}
    END IF;
END $$;
CREATE OR REPLACE FUNCTION {F}.rw_check_nanos(fn text, s float8) RETURNS void
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    -- float8 round() is rint(): ties to even, as make_time.rs:46's round_ties_even
    IF pg_catalog.round((s - pg_catalog.trunc(s)) * 1e9)::numeric % 1000 <> 0 THEN
        {_NANOS}
    END IF;
END $$;
CREATE OR REPLACE FUNCTION {F}.rw_check_zone(z text) RETURNS void
    LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
BEGIN
    PERFORM pg_catalog.timezone(z, pg_catalog.now());
EXCEPTION WHEN invalid_parameter_value THEN
    {raise_expr("'Invalid parameter time_zone: ''' || z || ''' is not a valid timezone'")}
END $$;
CREATE OR REPLACE FUNCTION {F}.make_date(y int4, m int4, d int4) RETURNS date
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    PERFORM {F}.rw_check_date(y, m, d);
    RETURN pg_catalog.make_date(y, m, d);
END $$;
CREATE OR REPLACE FUNCTION {F}.make_time(h int4, mi int4, s float8) RETURNS time
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    PERFORM {F}.rw_check_time(h, mi, s);
    PERFORM {F}.rw_check_nanos('make_time', s);
    RETURN pg_catalog.make_time(h, mi, s);
END $$;
CREATE OR REPLACE FUNCTION {F}.make_timestamp(y int4, m int4, d int4, h int4, mi int4,
    s float8) RETURNS timestamp LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    PERFORM {F}.rw_check_date(y, m, d);
    PERFORM {F}.rw_check_time(h, mi, s);
    PERFORM {F}.rw_check_nanos('make_timestamp', s);
    RETURN pg_catalog.make_timestamp(y, m, d, h, mi, s);
END $$;
CREATE OR REPLACE FUNCTION {F}.make_timestamptz(y int4, m int4, d int4, h int4, mi int4,
    s float8) RETURNS timestamptz LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
BEGIN
    PERFORM {F}.rw_check_date(y, m, d);
    PERFORM {F}.rw_check_time(h, mi, s);
    RETURN pg_catalog.make_timestamptz(y, m, d, h, mi, s);
END $$;
CREATE OR REPLACE FUNCTION {F}.make_timestamptz(y int4, m int4, d int4, h int4, mi int4,
    s float8, z text) RETURNS timestamptz LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
BEGIN
    PERFORM {F}.rw_check_date(y, m, d);
    PERFORM {F}.rw_check_time(h, mi, s);
    PERFORM {F}.rw_check_zone(z);
    RETURN pg_catalog.make_timestamptz(y, m, d, h, mi, s, z);
END $$;
"""

register(SQL)
