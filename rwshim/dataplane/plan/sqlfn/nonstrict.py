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


# ``+ - *``: one function per binary operator PostgreSQL (and rwfn) has, so that a call
# resolves as the operator does; plain ``SELECT a op b`` (LANGUAGE sql, no SET, the operator
# function's volatility: PostgreSQL inlines it, so it costs nothing), and for an integer
# result of integer operands NULL where the result is out of its type's range (RisingWave's
# checked integer arithmetic, src/expr/impl/src/scalar/arithmetic_op.rs general_add & co.,
# fails there: non-strict, NULL).  No exception block: a subtransaction per row would make
# every view's refresh slow.
_ARITH = f"""
DO $ns$
DECLARE
  r record;
  body text;
BEGIN
  FOR r IN
    SELECT DISTINCT ON (o.oprname, o.oprleft, o.oprright) o.oprname AS op,
      format('OPERATOR(%I.%s)', o.oprnamespace::regnamespace, o.oprname) AS qop,
      o.oprleft::regtype AS l, o.oprright::regtype AS rt, o.oprresult::regtype AS res,
      p.provolatile AS v,
      o.oprleft IN (21, 23, 20) AND o.oprright IN (21, 23, 20) AND o.oprresult IN (21, 23, 20)
        AS ints,
      o.oprresult AS result_oid
    FROM pg_operator o JOIN pg_proc p ON p.oid = o.oprcode
    WHERE o.oprname IN ('+', '-', '*') AND o.oprkind = 'b'
      AND o.oprnamespace IN ('pg_catalog'::regnamespace, '{F}'::regnamespace)
    ORDER BY o.oprname, o.oprleft, o.oprright, o.oprnamespace = '{F}'::regnamespace DESC
  LOOP
    IF r.ints THEN
      body := format(
        'SELECT CASE WHEN a::numeric %1$s b::numeric BETWEEN %2$s AND %3$s THEN a %4$s b END',
        r.op,
        CASE r.result_oid WHEN 21 THEN '-32768' WHEN 23 THEN '-2147483648'
          ELSE '-9223372036854775808' END,
        CASE r.result_oid WHEN 21 THEN '32767' WHEN 23 THEN '2147483647'
          ELSE '9223372036854775807' END,
        r.qop);
    ELSE
      -- the operator itself, named with its schema: the template also runs again on an
      -- existing database (--data-dir) under a search_path without rwfn, where ``a * b`` of
      -- two rwfn.vector found no operator
      body := format('SELECT a %s b', r.qop);
    END IF;
    EXECUTE format(
      'CREATE OR REPLACE FUNCTION {F}.%I(a %s, b %s) RETURNS %s LANGUAGE sql %s AS %L',
      CASE r.op WHEN '+' THEN 'ns_add' WHEN '-' THEN 'ns_sub' ELSE 'ns_mul' END,
      r.l, r.rt, r.res,
      CASE r.v WHEN 'i' THEN 'IMMUTABLE' WHEN 's' THEN 'STABLE' ELSE 'VOLATILE' END,
      body);
  END LOOP;
END $ns$
"""

# scalar functions that fail on some rows (src/expr/impl/src/scalar/*: sqrt and ln of
# negatives, pow / exp overflow, abs of the smallest integer, substr's negative length, a
# jsonb of the wrong kind, dates out of range, ...): ``ns_fn_<name>`` per overload, a
# PL/pgSQL call of the function itself whose error is NULL (a subtransaction per call: these
# are rare in views)
FAILING: tuple[str, ...] = (
    "sqrt", "pow", "power", "ln", "log", "log10", "exp", "abs", "substr", "chr", "repeat",
    "jsonb_array_length", "to_date", "to_timestamp", "make_date", "make_time",
    "make_timestamp", "date_trunc",
)  # fmt: skip


def _wrappers(names: tuple[str, ...], *, sets: bool, prefix: str, body: str) -> str:
    """A DO block making ``<prefix><name>`` for every overload of ``names`` (in pg_catalog or
    rwfn, rwfn's first) whose PL/pgSQL body is ``body``: a format() string over the
    function's schema, name and parameters."""
    quoted = ", ".join(f"'{n}'" for n in names)
    return f"""
DO $ns$
DECLARE
  r record;
  params text;
BEGIN
  FOR r IN
    SELECT DISTINCT ON (p.proname, p.proargtypes) p.proname AS name,
      p.pronamespace::regnamespace AS ns, pg_get_function_arguments(p.oid) AS args,
      pg_get_function_result(p.oid) AS res, p.pronargs AS n, p.provolatile AS v
    FROM pg_proc p
    WHERE p.proname IN ({quoted}) AND p.prokind = 'f' AND {"" if sets else "NOT "}p.proretset
      AND p.provariadic = 0 AND p.pronargs > 0
      AND p.pronamespace IN ('pg_catalog'::regnamespace, '{F}'::regnamespace)
    ORDER BY p.proname, p.proargtypes,
      p.pronamespace = '{F}'::regnamespace DESC
  LOOP
    SELECT string_agg('$' || i, ', ') INTO params FROM generate_series(1, r.n) AS i;
    EXECUTE format(
      'CREATE OR REPLACE FUNCTION {F}.%I(%s) RETURNS %s LANGUAGE plpgsql %s {_PATH} AS %L',
      '{prefix}' || r.name, r.args, r.res,
      CASE r.v WHEN 'v' THEN 'VOLATILE' ELSE 'STABLE' END,
      format($b${body}$b$, r.ns, r.name, params));
  END LOOP;
END $ns$
"""


_FUNCTIONS = _wrappers(
    FAILING, sets=False, prefix="ns_fn_", body=f"BEGIN RETURN %s.%I(%s); {_CATCH} END"
)

# table functions that fail on some rows (src/expr/impl/src/table_function/: a step of 0 or
# a NaN bound of generate_series / range, a jsonb of the wrong kind, ...).  In a streaming
# ProjectSet a table function's error on a row is reported and its rows for that row end
# there: none at all when it is the only one, NULL beside the others' rows
# (src/stream/src/executor/project/project_set.rs:186-215).  ``ns_srf_<name>`` per overload:
# the function's rows, none past an error (RETURN QUERY keeps the rows it had).
FAILING_SETS: tuple[str, ...] = (
    "generate_series", "range", "jsonb_array_elements", "jsonb_array_elements_text",
    "jsonb_each", "jsonb_each_text", "jsonb_object_keys", "jsonb_path_query",
)  # fmt: skip
_SET_FUNCTIONS = _wrappers(
    FAILING_SETS,
    sets=True,
    prefix="ns_srf_",
    body="BEGIN RETURN QUERY SELECT * FROM %s.%I(%s);\n"
    f"        EXCEPTION WHEN data_exception OR SQLSTATE '{EXPR_ERROR}' THEN RETURN; END",
)

# late: the DO blocks wrap the functions and operators every other module made (rwfn's
# range, pow, ... shadow or add to PostgreSQL's)
register(
    ";\n".join(
        [
            *_binary("ns_div", "/"),
            *_binary("ns_mod", "%"),
            *_casts(),
            _ARITH,
            _FUNCTIONS,
            _SET_FUNCTIONS,
        ]
    )
    + ";\n",
    late=True,
)
