"""What a table's generated and DEFAULT column expressions may hold, checked at CREATE TABLE as
RisingWave's DDL binder checks them, and whether one is impure.

RisingWave: ``src/frontend/src/handler/create_table.rs`` (bind_sql_column_constraints,
check_generated_column_constraints), ``src/frontend/src/binder/expr/function/builtin_scalar.rs``
(ensure_now_function_allowed, ensure_proctime_function_allowed) and
``src/frontend/src/expr/pure.rs`` (ImpureAnalyzer: the functions whose result is not a function
of their inputs).

The expressions are read as tokens (rwshim keeps a column's expression as text): a call is a
word followed by ``(``, a column reference a bare word naming a column of the table.  An
impure generated column is made as a DEFAULT on the data plane (PostgreSQL's generated columns
take immutable expressions only; rwshim's DML refuses a value for a generated column itself).
"""

from __future__ import annotations

from collections.abc import Sequence

from rwshim.errors import BindError, BindExprError, InvalidInputSyntax, RwError
from rwshim.sql.tokens import Kind, Token, tokenize

# pure.rs ImpureAnalyzer::visit_function_call's "not deterministic" arm, by the names its
# binder resolves to those ExprTypes (and now(), visit_now); a ::regclass cast is CastRegclass
IMPURE_FUNCTIONS = frozenset(
    {
        "now", "proctime", "pg_sleep", "pg_sleep_for", "pg_sleep_until", "pg_get_indexdef",
        "col_description", "pg_get_viewdef", "pg_get_userbyid", "pg_indexes_size",
        "pg_relation_size", "pg_get_serial_sequence", "pg_index_column_has_property",
        "has_table_privilege", "has_any_column_privilege", "has_schema_privilege",
        "make_timestamptz", "pg_is_in_recovery", "rw_recovery_status", "rw_cluster_id",
        "rw_fragment_vnodes", "rw_actor_vnodes", "pg_table_is_visible", "has_function_privilege",
        "openai_embedding", "has_database_privilege", "random", "clock_timestamp",
        "gen_random_uuid", "test_feature", "license", "current_timestamp",
    }
)  # fmt: skip

PROCTIME_ONLY_IN_DDL = (
    "Function `PROCTIME()` is only allowed in CREATE TABLE/SOURCE. Is `NOW()` what you want?"
)
_NOW_IN_GENERATED = "Cannot use `NOW()` function in generated columns. Do you want `PROCTIME()`?"


def _tokens(text: str) -> list[Token]:
    try:
        return tokenize(text)
    except RwError:
        return []


def calls(text: str) -> list[str]:
    """The names of the functions an expression calls (folded unless quoted); ``current_timestamp``
    (now() without parentheses) counts as a call."""
    toks = _tokens(text)
    out = []
    for i, t in enumerate(toks):
        if t.kind is not Kind.WORD:
            continue
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if nxt is not None and nxt.kind is Kind.OP and nxt.value == "(":
            out.append(t.value if t.quoted else t.value.lower())
        elif not t.quoted and t.upper == "CURRENT_TIMESTAMP":
            out.append("current_timestamp")
    return out


def _casts_to_regclass(toks: list[Token]) -> bool:
    return any(
        t.kind is Kind.OP
        and t.value == "::"
        and i + 1 < len(toks)
        and toks[i + 1].upper == "REGCLASS"
        for i, t in enumerate(toks)
    )


def is_impure(text: str) -> bool:
    """Whether the expression's value is not a function of its inputs (pure.rs is_impure)."""
    return any(c in IMPURE_FUNCTIONS for c in calls(text)) or _casts_to_regclass(_tokens(text))


def column_refs(text: str, names: Sequence[str]) -> list[str]:
    """The names among ``names`` (a table's columns) that the expression refers to."""
    toks = _tokens(text)
    wanted = set(names)
    out = []
    for i, t in enumerate(toks):
        if t.kind is not Kind.WORD:
            continue
        prev = toks[i - 1] if i > 0 else None
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if prev is not None and prev.kind is Kind.OP and prev.value in (".", "::"):
            continue  # a field of a struct, a type name
        if nxt is not None and nxt.kind is Kind.OP and nxt.value == "(":
            continue  # a function
        name = t.value if t.quoted else t.value.lower()
        if name in wanted and name not in out:
            out.append(name)
    return out


def _display(text: str) -> str:
    """The expression as RisingWave's Display prints it in ``Failed to bind expression``."""
    from rwshim.sql import unparse

    try:
        return unparse.print_query(f"SELECT {text}").removeprefix("SELECT ")
    except unparse.UnparseError:
        return text.strip()


def check_table_columns(
    columns: Sequence[tuple[str, str | None, str | None]], primary_key: Sequence[str]
) -> None:
    """RisingWave's refusals of a CREATE TABLE's (name, DEFAULT, AS) column expressions, in
    its order (bind_sql_column_constraints: column by column, a generated column's binding
    before its constraints)."""
    names = [c[0] for c in columns]
    generated = [c[0] for c in columns if c[2] is not None]
    for name, _default, expr in columns:
        if expr is None:
            continue
        if "now" in calls(expr) or "current_timestamp" in calls(expr):
            cause = BindExprError(_display(expr), InvalidInputSyntax(_NOW_IN_GENERATED))
            raise RwError(
                f'failed to bind the expression in generated column "{name}"', *cause.chain
            )
        for ref in column_refs(expr, names):
            if ref in generated:
                raise BindError(
                    "A generated column cannot reference another generated column. "
                    f'Generated column "{name}" references generated column "{ref}"'
                )
        if name in primary_key and is_impure(expr):
            raise BindError(
                "Generated columns with impure expressions should not be part of the primary "
                f'key. Here column "{name}" is defined as part of the primary key.'
            )
