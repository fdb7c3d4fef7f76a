"""RisingWave-only functions and RisingWave's overloads of PostgreSQL's, as SQL and PL/pgSQL
installed in schema ``rwfn`` of the template database (``functions.register``).

``rwfn`` is first in every data session's search_path, so a function here with PostgreSQL's
exact signature shadows PostgreSQL's own (RisingWave's NaN where PostgreSQL raises, its
decimal precision); other names and signatures simply add to PostgreSQL's.  Each module cites
the RisingWave file it imitates (src/expr/impl/src/scalar/*, aggregate/*, table_function/*).

Errors: a function raises SQLSTATE ``RWEXP`` with RisingWave's text as the message for an
expression error (``ExprError``: reported under ``Expr error``) and ``RWERR`` for an error
RisingWave reports on its own (a binder check); dataplane/plan/errors.py maps both.
"""

from __future__ import annotations

from rwshim.dataplane.plan.sqlfn import (
    aggregates,
    arrays,
    datetime,
    decimal_div,
    decimal_range,
    floattext,
    hashkeys,
    int256,
    interval_arith,
    jsonb,
    jsonb_casts,
    maketime,
    maps,
    nonstrict,
    numeric,
    percentile,
    rowids,
    scalars,
    series,
    sessions,
    structs,
    totext,
    variant,
    vector,
)

MODULES = (
    datetime,
    maketime,
    numeric,
    decimal_div,
    decimal_range,
    interval_arith,
    arrays,
    series,
    aggregates,
    percentile,
    scalars,
    int256,
    vector,
    totext,
    floattext,
    jsonb,
    jsonb_casts,
    nonstrict,
    sessions,
    structs,
    maps,
    variant,
    hashkeys,
    rowids,
)

__all__ = ["MODULES"]
