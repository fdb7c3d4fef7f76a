"""PostgreSQL's errors in RisingWave's words: a table keyed by SQLSTATE and a pattern on the
message, each row citing the RisingWave source of its text.  Where RisingWave has no text of
its own, PostgreSQL's text is kept (with its SQLSTATE) and only the physical names
(``rw.t12``) are turned back into the user's.  Never a driver's or rwshim's internal text.

RisingWave reports an expression's failure as ``Expr error`` over its cause
(src/frontend/src/error.rs:72-77, src/expr/core/src/error.rs); its middle line (``error while
evaluating expression `f('1', '0')```) names the failing call with its arguments, which
PostgreSQL's error does not carry, so it is left out.

Registering: ``register(sqlstate, pattern, build)`` adds a row (tried before the built-in ones).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rwshim.dataplane.plan import names
from rwshim.errors import QueryCanceled, QueryTimeout, RwError


@dataclass(frozen=True, slots=True)
class PgError:
    """What PostgreSQL said (the ErrorResponse fields the mapping reads)."""

    sqlstate: str
    message: str
    detail: str | None = None
    hint: str | None = None
    column: str | None = None
    table: str | None = None
    schema: str | None = None


# physical id -> the user's name of that relation
NameOf = Callable[[int], str | None]
Build = Callable[["re.Match[str]", PgError, NameOf, "MapContext"], RwError]


@dataclass(frozen=True, slots=True)
class MapContext:
    """What the mapping needs besides the error: the statement timeout in effect (seconds)."""

    timeout_seconds: int = 0
    statement: str = ""  # the statement as the user wrote it (``first`` rows)


_Row = tuple[str, "re.Pattern[str]", Build]
_ROWS: list[_Row] = []
_EXTRA: list[_Row] = []
# rows tried before the in-process binder explains an error of a binder class
# (dataplane/session.py): PostgreSQL's error about an rwshim object says more than the binder
_FIRST: list[_Row] = []


def register(sqlstate: str, pattern: str, build: Build, *, first: bool = False) -> None:
    (_FIRST if first else _EXTRA).append((sqlstate, re.compile(pattern), build))


def map_first(err: PgError, name_of: NameOf, statement: str = "") -> RwError | None:
    """The error of a ``first`` row matching ``err`` (the failing ``statement`` as the user
    wrote it), or None."""
    for sqlstate, pattern, build in _FIRST:
        if sqlstate == err.sqlstate:
            m = pattern.search(err.message)
            if m is not None:
                return build(m, err, name_of, MapContext(statement=statement))
    return None


def _row(sqlstate: str, pattern: str) -> Callable[[Build], Build]:
    def deco(fn: Build) -> Build:
        _ROWS.append((sqlstate, re.compile(pattern), fn))
        return fn

    return deco


_PHYSICAL = re.compile(r'\brw\."([tvi])(\d+)"|\brw\.([tvi])(\d+)\b|\b([tvi])(\d+)\b')


def user_names(text: str, name_of: NameOf) -> str:
    """``text`` with physical relation names (``rw.t12``, ``"t12"``) as the user's names."""

    def sub(m: re.Match[str]) -> str:
        digits = m.group(2) or m.group(4) or m.group(6)
        found = name_of(int(digits))
        return m.group(0) if found is None else found

    from rwshim.dataplane.plan import typemap

    return typemap.user_types(_PHYSICAL.sub(sub, text))


def with_long_names(err: PgError, pairs: Sequence[tuple[str, str]]) -> PgError:
    """``err`` with the physical forms of names over 63 bytes (rwshim/sql/long_names.py) as
    the names the user wrote."""
    if not pairs:
        return err

    def put(text: str | None) -> str | None:
        if text is None:
            return None
        for phys, full in pairs:
            text = text.replace(phys, full)
        return text

    return dataclasses.replace(
        err, message=put(err.message) or "", detail=put(err.detail), hint=put(err.hint),
        column=put(err.column),
    )  # fmt: skip


def _relation(err: PgError, name_of: NameOf) -> str:
    parsed = names.parse_physical(err.table or "")
    found = name_of(parsed[1]) if parsed else None
    return found or err.table or ""


def expr_error(cause: str) -> RwError:
    return RwError("Expr error", cause)


# --- the table ---------------------------------------------------------------------------


# ExprError::DivisionByZero (src/expr/core/src/error.rs:61-62)
@_row("22012", r"division by zero")
def _div(m: re.Match[str], err: PgError, name_of: NameOf, ctx: MapContext) -> RwError:
    return expr_error("Division by zero")


# ExprError::NumericOutOfRange (error.rs:55-56): integer and numeric overflow in arithmetic
@_row("22003", r"^(?:integer|smallint|bigint|numeric field) out of range|value overflows")
def _range(m: re.Match[str], err: PgError, name_of: NameOf, ctx: MapContext) -> RwError:
    return expr_error("Numeric out of range")


# ExprError::NumericOverflow / NumericUnderflow (error.rs:61-65): what pow_f64 and exp_f64 raise
# where PostgreSQL's float_overflow_error / float_underflow_error say "value out of range: ..."
# (src/expr/impl/src/scalar/arithmetic_op.rs:181-187, exp.rs:43-48)
@_row("22003", r"^value out of range: (?P<way>overflow|underflow)$")
def _flow(m: re.Match[str], err: PgError, name_of: NameOf, ctx: MapContext) -> RwError:
    return expr_error(f"Numeric out of range: {m['way']}")


# jsonb to a number: ExprError::Parse over JsonbRef::as_number's text, one text for every
# numeric target type (src/expr/impl/src/scalar/cast.rs:83-99, src/common/src/types/
# jsonb.rs:336-343); PostgreSQL's text names the target type instead
@_row(
    "22023",
    r"^cannot cast jsonb (?P<kind>\w+) to type "
    r"(?:smallint|integer|bigint|numeric|real|double precision)$",
)
def _jsonb_number(m: re.Match[str], err: PgError, name_of: NameOf, ctx: MapContext) -> RwError:
    return expr_error(f"Parse error: cannot cast jsonb {m['kind']} to type number")


# generate_series over decimals: validate_decimal's and the zero step's InvalidParam texts
# (src/expr/impl/src/table_function/generate_series.rs:160-208); PostgreSQL says "step size
# cannot be NaN" where RisingWave says "step value cannot be NaN"
@_row("22023", r"^(?P<name>start|stop) value cannot be (?P<what>NaN|infinity)$")
def _series_bound(m: re.Match[str], err: PgError, name_of: NameOf, ctx: MapContext) -> RwError:
    return expr_error(f"Invalid parameter {m['name']}: {m['name']} value cannot be {m['what']}")


@_row("22023", r"^step size cannot (?P<why>be NaN|equal zero)$")
def _series_step(m: re.Match[str], err: PgError, name_of: NameOf, ctx: MapContext) -> RwError:
    why = "step value cannot be NaN" if m["why"] == "be NaN" else "step size cannot equal zero"
    return expr_error(f"Invalid parameter step: {why}")


# jsonb_build_object with an odd number of arguments: the frontend's type inference refuses it
# (src/frontend/src/expr/type_inference/func.rs:765-772, ErrorCode::BindError), where
# PostgreSQL raises it when the call runs (its VARIADIC-array form, which RisingWave refuses at
# run time as InvalidParam, has the same PostgreSQL text and is worded alike)
@_row("22023", r"^argument list must have even number of elements$")
def _build_object(m: re.Match[str], err: PgError, name_of: NameOf, ctx: MapContext) -> RwError:
    from rwshim.errors import BindError

    return BindError(err.message)


# regexp_count with the g flag: RegexpContext::from_pattern_flags_for_count's bail
# (src/expr/impl/src/scalar/regexp.rs:58-63); PostgreSQL quotes "global"
@_row("22023", r'^regexp_count\(\) does not support the "global" option$')
def _count_global(m: re.Match[str], err: PgError, name_of: NameOf, ctx: MapContext) -> RwError:
    return expr_error("regexp_count() does not support the global option")


# ExprError::NotNullViolation (error.rs:111-116)
@_row("23502", r"^null value in column ")
def _not_null(m: re.Match[str], err: PgError, name_of: NameOf, ctx: MapContext) -> RwError:
    col = err.column or ""
    return expr_error(
        f'null value in column "{col}" of relation "{_relation(err, name_of)}" '
        "violates not-null constraint"
    )


# a scalar subquery with more than one row: the batch MaxOneRow executor's bail
# (src/batch/executors/src/executor/max_one_row.rs:67-70), a BatchError::Internal shown as it
# is (frontend error.rs ErrorCode::BatchError "{0}"); ExprError::MaxOneRow is never raised
@_row("21000", r"^more than one row returned by a subquery used as an expression")
def _max_one_row(m: re.Match[str], err: PgError, name_of: NameOf, ctx: MapContext) -> RwError:
    return RwError("Scalar subquery produced more than one row.")


# RisingWave's own texts raised by the rwfn functions (dataplane/plan/sqlfn): an ExprError's text
# under "Expr error" (src/expr/core/src/error.rs), any other as it is
@_row("RWEXP", r"^(?P<text>.*)$")
def _rw_expr(m: re.Match[str], err: PgError, name_of: NameOf, ctx: MapContext) -> RwError:
    return expr_error(m["text"])


@_row("RWERR", r"^(?P<text>.*)$")
def _rw_text(m: re.Match[str], err: PgError, name_of: NameOf, ctx: MapContext) -> RwError:
    return RwError(m["text"])


_PARSE_TYPES = {
    "smallint": "smallint",
    "integer": "integer",
    "bigint": "bigint",
}


# A string cast to an integer type: ExprError::Parse from str_parse (src/common/src/types/
# mod.rs: "{type} {rust's ParseIntError}"), e.g. `Parse error: integer invalid digit found in
# string`; boolean: `Parse error: Invalid bool` (src/common/src/types/from_text.rs)
@_row("22P02", r'^invalid input syntax for type (?P<type>[a-z ]+): "(?P<value>.*)"$')
def _parse(m: re.Match[str], err: PgError, name_of: NameOf, ctx: MapContext) -> RwError:
    from rwshim.errors import ExprError

    typ, value = m["type"], m["value"]
    evaluating = f"str_parse('{value}')"
    if typ in _PARSE_TYPES:
        why = (
            "cannot parse integer from empty string"
            if not value.strip()
            else ("invalid digit found in string")
        )
        return ExprError(evaluating, f"Parse error: {_PARSE_TYPES[typ]} {why}")
    if typ == "boolean":
        return ExprError(evaluating, "Parse error: Invalid bool")
    return RwError(err.message, sqlstate=err.sqlstate)


# CancelRequest: PostgreSQL's text, which RisingWave's pgwire sends too (README)
@_row("57014", r"due to user request")
def _cancel(m: re.Match[str], err: PgError, name_of: NameOf, ctx: MapContext) -> RwError:
    return QueryCanceled()


# statement_timeout: the scheduler's "timeout after N seconds" (scheduler/local.rs:174-186)
@_row("57014", r"due to statement timeout")
def _timeout(m: re.Match[str], err: PgError, name_of: NameOf, ctx: MapContext) -> RwError:
    return QueryTimeout(ctx.timeout_seconds)


# current_setting of an unknown name (rwfn.current_setting raises RWSC1 with the name):
# SessionConfigError over `Unrecognized config entry` (src/common/src/session_config/mod.rs)
@_row("RWSC1", r"^(?P<name>.*)$")
def _setting(m: re.Match[str], err: PgError, name_of: NameOf, ctx: MapContext) -> RwError:
    from rwshim.errors import SessionConfigError

    return SessionConfigError(f"Unrecognized config entry `{m['name']}`")


# Lists of lists are PostgreSQL's multidimensional arrays (dataplane/plan/typemap), which must
# be rectangular and which some functions do not search; RisingWave's lists of lists have
# neither limit (src/common/src/array/list_array.rs): not supported by rwshim, in words that
# say so (PostgreSQL's own speak of arrays and dimensions RisingWave does not have)
_RECTANGULAR = (
    "not supported by rwshim: a list of lists whose inner lists differ in length or are NULL "
    "(the data plane keeps lists of lists as PostgreSQL's multidimensional arrays, which must "
    "be rectangular)"
)


@_row(
    "2202E",
    r"^(?:multidimensional arrays must have array expressions with matching dimensions"
    r"|cannot accumulate arrays of different dimensionality"
    r"|cannot accumulate empty arrays"
    r"|cannot concatenate incompatible arrays)",
)
def _ragged(m: re.Match[str], err: PgError, name_of: NameOf, ctx: MapContext) -> RwError:
    return RwError(_RECTANGULAR, sqlstate="0A000")


@_row("22004", r"^cannot accumulate null arrays")
def _null_inner(m: re.Match[str], err: PgError, name_of: NameOf, ctx: MapContext) -> RwError:
    return RwError(_RECTANGULAR, sqlstate="0A000")


@_row("0A000", r"^(?P<what>searching for|removing|replacing) elements (?:in|from) multidim")
def _nested_search(m: re.Match[str], err: PgError, name_of: NameOf, ctx: MapContext) -> RwError:
    what = m["what"].replace("searching for", "searching")
    return RwError(
        f"not supported by rwshim: {what} the elements of a list of lists (the data plane keeps "
        "lists of lists as PostgreSQL's multidimensional arrays, whose functions do not)",
        sqlstate="0A000",
    )


# Binder texts PostgreSQL words the same (src/frontend/src/binder/insert.rs:325-340)
@_row("42601", r"^INSERT has more (?:target columns than expressions|expressions than target)")
def _insert_width(m: re.Match[str], err: PgError, name_of: NameOf, ctx: MapContext) -> RwError:
    from rwshim.errors import BindError

    return BindError(err.message)


# LIMIT's expression (binder/query.rs:200-237): a type with no assignment cast to bigint, and
# an expression that is no constant (PostgreSQL: variables, set-returning functions)
LIMIT_INTEGER = "expects an integer or expression that can be evaluated to an integer after LIMIT"


@_row("42804", r"^argument of LIMIT must be type bigint, not type ")
def _limit_type(m: re.Match[str], err: PgError, name_of: NameOf, ctx: MapContext) -> RwError:
    return expr_error(LIMIT_INTEGER)


@_row("42P10", r"^argument of LIMIT must not contain variables$")
@_row("0A000", r"^set-returning functions are not allowed in LIMIT$")
def _limit_const(m: re.Match[str], err: PgError, name_of: NameOf, ctx: MapContext) -> RwError:
    return expr_error(f"{LIMIT_INTEGER}, but found non-const expression")


def map_error(err: PgError, name_of: NameOf, ctx: MapContext | None = None) -> RwError:
    """The RisingWave error for what PostgreSQL reported."""
    ctx = ctx or MapContext()
    for sqlstate, pattern, build in (*_FIRST, *_EXTRA, *_ROWS):
        if sqlstate == err.sqlstate:
            m = pattern.search(err.message)
            if m is not None:
                return build(m, err, name_of, ctx)
    chain = [user_names(err.message, name_of)]
    if err.detail:
        chain[0] += "\nDETAIL: " + user_names(err.detail, name_of)
    if err.hint:
        chain[0] += "\nHINT: " + user_names(err.hint, name_of)
    return RwError(*chain, sqlstate=err.sqlstate or None)
