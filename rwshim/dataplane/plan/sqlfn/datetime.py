"""RisingWave's date/time functions where PostgreSQL's accept more.

``date_trunc`` takes exactly the field names of src/expr/impl/src/scalar/date_trunc.rs
(case-insensitive: microseconds, milliseconds, second, minute, hour, day, week, month,
quarter, year, decade, century, millennium; PostgreSQL also takes abbreviations and
plurals), else ``Invalid parameter field: invalid field "s". must be one of: ...``; an interval
cannot be truncated to weeks (``Unsupported function: interval units "week" not supported
because months usually have fractional weeks``).

``extract`` of a time unit at RisingWave's nanosecond scale (extract.rs): ``EXTRACT_SQL``'s
``extract(unit, x)``, called by the rewriter for those units (dataplane/plan/extract.py).
"""

from __future__ import annotations

from rwshim.dataplane.plan.sqlfn.common import EXPR_ERROR, RW_ERROR, F, register

FIELDS = (
    "microseconds",
    "milliseconds",
    "second",
    "minute",
    "hour",
    "day",
    "week",
    "month",
    "quarter",
    "year",
    "decade",
    "century",
    "millennium",
)
_LIST = ", ".join(FIELDS)
_IN = ", ".join(f"'{f}'" for f in FIELDS)


def _trunc(args: str, ret: str, call: str, volatility: str, extra: str = "") -> str:
    return f"""
CREATE OR REPLACE FUNCTION {F}.date_trunc({args}) RETURNS {ret} LANGUAGE sql {volatility}
    PARALLEL SAFE AS $$ SELECT CASE
        WHEN pg_catalog.lower(field) NOT IN ({_IN}) THEN {F}.rw_raise(
            'Invalid parameter field: invalid field "' || field || '". must be one of: {_LIST}',
            NULL::{ret}){extra}
        ELSE pg_catalog.date_trunc({call}) END $$;
"""


# (the message reads ``field``: a constant one, PostgreSQL would evaluate this immutable call
# when it plans the inlined CASE, and raise for every field)
_WEEK = f"""
        WHEN pg_catalog.lower(field) = 'week' THEN {F}.rw_raise(
            'Unsupported function: interval units "week" not supported because months usually '
            'have fractional weeks' || pg_catalog.left(field, 0), NULL::interval)"""

SQL = f"""
-- an ExprError with RisingWave's text, typed like the value it stands for (usable in a CASE)
CREATE OR REPLACE FUNCTION {F}.rw_raise(message text, typed anyelement) RETURNS anyelement
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    RAISE EXCEPTION USING ERRCODE = '{EXPR_ERROR}', MESSAGE = message;
END $$;
-- proctime() of a table's generated column (dataplane/plan/ddl.py makes it a DEFAULT): the time the
-- row is written, as the statement's transaction sees it (RisingWave: the epoch's time)
CREATE OR REPLACE FUNCTION {F}.proctime() RETURNS timestamptz LANGUAGE sql STABLE
    PARALLEL SAFE AS $$ SELECT pg_catalog.now() $$;
-- now() in a materialized view's query: the barrier's time while a barrier refreshes the view
-- (dataplane/temporal.py sets rw.stream_now; RisingWave's Now executor, src/stream/src/executor/
-- now.rs:141-167), PostgreSQL's now() anywhere else
CREATE OR REPLACE FUNCTION {F}.now() RETURNS timestamptz LANGUAGE sql STABLE
    PARALLEL SAFE AS $$ SELECT COALESCE(
        NULLIF(pg_catalog.current_setting('rw.stream_now', true), '')::timestamptz,
        pg_catalog.now()) $$;
-- time travel (dataplane/plan/temporal.py): a point's epoch, whole seconds s as the epoch of
-- (s + 1) * 1000 ms, 0 before RisingWave's epoch (optimizer/plan_node/utils.rs:501-506); a
-- point older than the retention (or any, retention 0: time travel off) has no version
-- (src/storage/src/hummock/error.rs:53-54, meta/src/hummock/manager/time_travel.rs:649-657)
CREATE OR REPLACE FUNCTION {F}.time_travel_epoch_of(ts timestamptz) RETURNS bigint
    LANGUAGE sql STABLE PARALLEL SAFE AS $$ SELECT GREATEST(
        (pg_catalog.floor(pg_catalog.date_part('epoch', ts))::bigint + 1) * 1000
        - 1617235200000, 0) << 16 $$;
CREATE OR REPLACE FUNCTION {F}.time_travel_epoch(table_id int, e bigint, floor bigint)
    RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    IF e < floor THEN
        RAISE EXCEPTION USING ERRCODE = '{RW_ERROR}',
            MESSAGE = 'Time-travel version expired: table ' || table_id || ', epoch ' || e;
    END IF;
    RETURN e;
END $$;
-- a materialized view's history starts when rwshim first made its state (its table's comment,
-- dataplane/plan/temporal.py): an earlier point has no version rwshim can give
CREATE OR REPLACE FUNCTION {F}.time_travel_origin(e bigint, h regclass, view_name text)
    RETURNS bigint LANGUAGE plpgsql STABLE AS $$
DECLARE origin bigint := COALESCE(NULLIF(pg_catalog.obj_description(h, 'pg_class'), '')::bigint, 0);
BEGIN
    IF e < origin THEN
        RAISE EXCEPTION USING ERRCODE = '{RW_ERROR}',
            MESSAGE = 'not supported by rwshim: time travel on materialized view ' || view_name
                || ' at epoch ' || e || ', before rwshim first computed it (epoch ' || origin
                || ')';
    END IF;
    RETURN e;
END $$;
{_trunc("field text, ts timestamp", "timestamp", "field, ts", "IMMUTABLE")}
{_trunc("field text, ts timestamptz", "timestamptz", "field, ts", "STABLE")}
{_trunc("field text, ts timestamptz, zone text", "timestamptz", "field, ts, zone", "STABLE")}
{_trunc("field text, iv interval", "interval", "field, iv", "IMMUTABLE", _WEEK)}
"""

# PostgreSQL's answer scaled as RisingWave's decimals (extract.rs extract_from_timelike);
# timestamp_nanos_opt's range, to the microsecond, for a timestamp's epoch
_TIME_UNITS = """CASE u
        WHEN 'second' THEN pg_catalog.round(pg_catalog.extract('second', t), 9)
        WHEN 'millisecond' THEN pg_catalog.round(pg_catalog.extract('millisecond', t), 6)
        WHEN 'microsecond' THEN pg_catalog.round(pg_catalog.extract('microsecond', t), 3)
        WHEN 'nanosecond' THEN pg_catalog.extract('microsecond', t) * 1000"""
EXTRACT_SQL = f"""
CREATE OR REPLACE FUNCTION {F}.extract(u text, t timestamp) RETURNS numeric LANGUAGE sql
    IMMUTABLE PARALLEL SAFE AS $$
    SELECT {_TIME_UNITS}
        WHEN 'epoch' THEN CASE
            WHEN t BETWEEN '1677-09-21 00:12:43.145225' AND '2262-04-11 23:47:16.854775'
            THEN pg_catalog.round(pg_catalog.extract('epoch', t), 9)
            ELSE pg_catalog.extract('epoch', t) END
        ELSE pg_catalog.extract(u, t) END $$;
CREATE OR REPLACE FUNCTION {F}.extract(u text, t time) RETURNS numeric LANGUAGE sql
    IMMUTABLE PARALLEL SAFE AS $$
    SELECT {_TIME_UNITS}
        WHEN 'epoch' THEN pg_catalog.round(pg_catalog.extract('epoch', t), 9)
        ELSE pg_catalog.extract(u, t) END $$;
CREATE OR REPLACE FUNCTION {F}.extract(u text, t timestamptz) RETURNS numeric LANGUAGE sql
    STABLE PARALLEL SAFE AS $$
    SELECT {_TIME_UNITS}
        ELSE pg_catalog.extract(u, t) END $$;
CREATE OR REPLACE FUNCTION {F}.extract(u text, t date) RETURNS numeric LANGUAGE sql
    IMMUTABLE PARALLEL SAFE AS $$ SELECT pg_catalog.extract(u, t) $$;
CREATE OR REPLACE FUNCTION {F}.extract(u text, t interval) RETURNS numeric LANGUAGE sql
    IMMUTABLE PARALLEL SAFE AS $$ SELECT pg_catalog.extract(u, t) $$;
"""

register(SQL)
register(EXTRACT_SQL)
