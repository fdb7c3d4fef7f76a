"""RisingWave-only scalar functions.

- ``int8recv(bytea)``: a big-endian int8 of exactly 8 bytes (src/expr/impl/src/scalar/
  cast.rs pgwire_recv: ``i64::from_be_bytes``, whose slice error reads ``could not convert
  slice to array``); ``int8send`` is PostgreSQL's own.
"""

from __future__ import annotations

from rwshim.dataplane.plan.sqlfn.common import F, raise_expr, register

SQL = f"""
CREATE OR REPLACE FUNCTION {F}.int8recv(bytea) RETURNS int8 LANGUAGE plpgsql IMMUTABLE
    PARALLEL SAFE AS $$
BEGIN
    IF pg_catalog.length($1) <> 8 THEN
        {raise_expr("'Parse error: could not convert slice to array'")}
    END IF;
    RETURN ('x' || pg_catalog.encode($1, 'hex'))::bit(64)::int8;
END $$;
"""

register(SQL)
