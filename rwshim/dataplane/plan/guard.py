"""The last check before PostgreSQL: the exact text the data plane will run, parsed by
PostgreSQL's own parser, calls only functions RisingWave has, and none that RisingWave answers
from its own session or catalog.

Why on the final text: the routing and rewriting read the user's text; what reaches PostgreSQL
is the rewritten text.  The data role's lexing settings are pinned (dataplane/roles.py:
``standard_conforming_strings`` on, as pglast's parser lexes), and ``set_config`` never reaches
PostgreSQL, so this parse is PostgreSQL's parse: a call hidden from an earlier check (a
backslash that a changed ``standard_conforming_strings`` would make an escape) is seen here.

What each call becomes:

- ``set_config(name, value, is_local)``: RisingWave's binder sets its own session variable and
  answers the value as a literal (src/frontend/src/binder/expr/function/builtin_scalar.rs:
  621-661): only string literals for the name and value, a bool literal for ``is_local``,
  ``is_local = true`` refused.  Here the settings are returned for the session to apply (the
  frontend does, as SET does) and the call is spliced to ``rwfn.set_config(<value>)``, which
  answers the value under the column name ``set_config``.
- ``current_setting(name)``: a string literal only (builtin_scalar.rs:607-619); answered by
  ``rwfn.current_setting`` from RisingWave's variables (dataplane/plan/functions.py).
- ``pg_cancel_backend`` / ``pg_terminate_backend``: RisingWave answers ``false`` and does
  nothing (builtin_scalar.rs:745-752); ``rwfn``'s functions of those names do the same.
- the functions RisingWave answers with a constant (``CONSTANT``: ``pg_type_is_visible`` is
  true, ``pg_get_expr`` '', ``pg_encoding_to_char`` 'UTF8'...): spliced to ``rwfn``'s
  answer.
- the catalog readers RisingWave answers from its catalog (``has_*_privilege``,
  ``pg_get_userbyid``, ``pg_table_is_visible``...: ``REFUSED``) and ``pg_backend_pid``: never
  PostgreSQL's answer (its catalog is not RisingWave's).  With constant arguments the call is
  answered in process by the caller's ``Answer`` (the catalog path's own answer, under the
  session's context: rwshim's catalog, rwshim's users) and spliced as
  ``rwfn.<name>(<literal>)``, an identity that keeps RisingWave's column name; RisingWave
  evaluates them in the frontend with the session's catalog (expr/function_impl/
  has_privilege.rs, pg_get_userbyid.rs; pg_backend_pid is bound to the session id,
  builtin_scalar.rs:741-744), so the answer is the same for every row.  Arguments that vary
  per row are refused; without an ``Answer`` (a view's definition, made once for every
  reader) the call raises ``SessionBound``: the reader inlines such a view (plane.py).
- a relation: one the statement was planned with (``rw."t<id>"`` / ``rw."v<id>"`` of the user
  relations it reads, ``pg_temp`` snapshots of the catalog relations), or, unqualified, a CTE
  the statement defines; nothing else of PostgreSQL's own catalog or of other users' data.
- any other call: its name must be one RisingWave's binder resolves
  (``rw_functions_generated``), one of ``rwfn``'s, or a call PostgreSQL's grammar writes for
  SQL syntax; a schema, if written, ``pg_catalog`` or ``rwfn``.  Anything else is refused.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from typing import Any, NamedTuple

from rwshim.dataplane.plan import splice
from rwshim.dataplane.plan.checks import UnknownFunction
from rwshim.dataplane.plan.names import FUNCTION_SCHEMA, quote_literal
from rwshim.errors import BindExprError, NotImplementedError_, RwError
from rwshim.sql import pgjson

Node = dict[str, Any]
Settings = tuple[tuple[str, str], ...]
# (schema, name) of the relations a statement may read on PostgreSQL
Relations = frozenset[tuple[str, str]]

# What RisingWave's binder answers from its own catalog (builtin_scalar.rs, function_impl/*):
# PostgreSQL's answer would be about PostgreSQL's catalog.
REFUSED: frozenset[str] = frozenset(
    {
        "has_table_privilege",
        "has_schema_privilege",
        "has_database_privilege",
        "has_any_column_privilege",
        "has_column_privilege",
        "has_function_privilege",
        "pg_get_userbyid",
        "pg_table_is_visible",
        "pg_function_is_visible",
        "pg_collation_is_visible",
        "obj_description",
        "col_description",
        "shobj_description",
        "pg_get_viewdef",
        "pg_get_indexdef",
        "pg_get_ruledef",
        "pg_get_function_arguments",
        "pg_get_function_identity_arguments",
        "pg_get_function_result",
        "pg_index_column_has_property",
        "pg_relation_size",
        "pg_table_size",
        "pg_total_relation_size",
        "pg_indexes_size",
        "pg_relation_is_publishable",
        "format_type",
        "to_regclass",
        "to_regtype",
        "pg_advisory_unlock_all",
        "pg_backend_pid",
        "pg_is_in_recovery",
        "rw_recovery_status",
        "rw_cluster_id",
        "pg_postmaster_start_time",
        "pg_get_keywords",
    }
)

# What RisingWave's binder answers with a constant, whatever the arguments (raw_literal and
# guard_by_len handlers of builtin_scalar.rs:566-606, 664-667, 742-753): spliced to the rwfn
# function of the same name without arguments, which answers it (functions.py), so that the
# column is named as RisingWave names it.  Name -> the number of arguments it takes (None: any).
CONSTANT: dict[str, tuple[int, ...] | None] = {
    "pg_type_is_visible": None,
    "pg_get_constraintdef": None,
    "pg_get_partkeydef": None,
    "pg_encoding_to_char": None,
    "pg_stat_get_numscans": None,
    "pg_get_serial_sequence": None,
    "pg_get_expr": (2, 3),
    "pg_my_temp_schema": (0,),
    "pg_tablespace_location": (1,),
}

# calls PostgreSQL's grammar writes for SQL syntax RisingWave has (x SIMILAR TO p, LIKE ...
# ESCAPE, OVERLAPS, IS NORMALIZED ...): their funcformat is COERCE_SQL_SYNTAX, or these names
_SYNTAX_CALLS = frozenset({"similar_to_escape", "like_escape"})
_SCHEMAS = frozenset({"pg_catalog", FUNCTION_SCHEMA})
_RWFN_DEF = re.compile(
    r"CREATE\s+(?:OR\s+REPLACE\s+)?(?:FUNCTION|AGGREGATE)\s+" + FUNCTION_SCHEMA + r'\."?(\w+)"?'
)


class GuardRefused(NotImplementedError_):
    """A call the data plane does not pass to PostgreSQL (rwshim's limitation, or a name
    RisingWave does not have: the frontend asks the in-process binder for RisingWave's text
    where it has one)."""


class SessionBound(GuardRefused):
    """A view's definition calls what RisingWave answers in the reading session (set_config,
    has_table_privilege, ...): no PostgreSQL view can hold it; the reader inlines it."""


@cache
def rwfn_names() -> frozenset[str]:
    """The functions of schema rwfn (the template's SQL)."""
    from rwshim.dataplane.plan import functions

    return frozenset(_RWFN_DEF.findall(functions.template_sql()))


@cache
def allowed() -> frozenset[str]:
    from rwshim.dataplane.plan import rw_functions_generated

    return rw_functions_generated.ALL | rwfn_names() | _SYNTAX_CALLS


def _calls(value: Any) -> Iterator[Node]:
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, dict):
            for k, sub in v.items():
                if k == "FuncCall" and isinstance(sub, dict):
                    yield sub
                if isinstance(sub, (dict, list)):
                    stack.append(sub)


def _nodes(value: Any, kind: str) -> Iterator[Node]:
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, dict):
            for k, sub in v.items():
                if k == kind and isinstance(sub, dict):
                    yield sub
                if isinstance(sub, (dict, list)):
                    stack.append(sub)


def _check_relations(tree: Node, relations: Relations) -> None:
    ctes = {c.get("ctename") for c in _nodes(tree, "CommonTableExpr")}
    for rv in _nodes(tree, "RangeVar"):
        schema, name = rv.get("schemaname"), rv.get("relname", "")
        if rv.get("catalogname") is None and (
            (schema is None and name in ctes) or (schema, name) in relations
        ):
            continue
        shown = ".".join(str(p) for p in (rv.get("catalogname"), schema, name) if p)
        raise GuardRefused(f"reading {shown} on the data plane")


def _names(call: Node) -> list[str]:
    return [it["String"]["sval"] for it in call.get("funcname") or () if "String" in it]


def _string(node: Any) -> str | None:
    c = node.get("A_Const") if isinstance(node, dict) else None
    if c is None or "sval" not in c:
        return None
    sval = c["sval"]
    return str(sval.get("sval", "")) if isinstance(sval, dict) else None


def _bool(node: Any) -> bool | None:
    c = node.get("A_Const") if isinstance(node, dict) else None
    if c is None or "boolval" not in c:
        return None
    return bool(c["boolval"].get("boolval", False))


def _shown(text: bytes, call: Node) -> str:
    """The call as RisingWave's Display prints it (the root of ``Failed to bind
    expression``)."""
    start = call.get("location", -1)
    try:
        end, _ = splice.call_args(text, start)
    except splice.SpliceError:
        return _names(call)[-1]
    from rwshim.sql import unparse

    raw = text[start:end].decode(errors="replace")
    try:
        return unparse.print_query(f"SELECT {raw}").removeprefix("SELECT ")
    except unparse.UnparseError:
        return raw


def _expr_error(text: bytes, call: Node, message: str) -> RwError:
    return BindExprError(_shown(text, call), RwError("Expr error", message))


# the binder's functions taking a fixed number of arguments (guard_by_len, builtin_scalar.rs:
# 89-131, 271-285, 313, 350-375, 450, 497-523, 581-621, 745-801; ``timezone`` aside, whose
# PostgreSQL call also carries ``AT LOCAL``)
_ARITY = {
    "set_config": 3, "current_setting": 1, "pg_cancel_backend": 1, "pg_terminate_backend": 1,
    "now": 0, "current_database": 0, "current_schema": 0, "pg_typeof": 1, "date": 1,
    "quote_literal": 1, "quote_nullable": 1, "int8recv": 1, "array_flatten": 1,
    "array_ndims": 1, "array_lower": 2, "subvector": 3, "pg_table_size": 1,
    "pg_indexes_size": 1, "pg_postmaster_start_time": 0, "openai_embedding": 2,
}  # fmt: skip


def _arity(text: bytes, call: Node, name: str) -> None:
    """guard_by_len's check (builtin_scalar.rs:52-65)."""
    n, expect = len(call.get("args") or []), _ARITY[name]
    if n != expect:
        raise _expr_error(text, call, f"unexpected arguments number {n}, expect {expect}")


def _constant_arity(text: bytes, call: Node, name: str) -> None:
    counts = CONSTANT[name]
    n = len(call.get("args") or [])
    if counts is None or n in counts:
        return
    if name == "pg_get_expr":  # builtin_scalar.rs:589-599
        raise _expr_error(text, call, "Too many/few arguments for pg_catalog.pg_get_expr()")
    raise _expr_error(text, call, f"unexpected arguments number {n}, expect {counts[0]}")


def _set_config(text: bytes, call: Node) -> tuple[str, str]:
    """RisingWave's checks of set_config's arguments (builtin_scalar.rs:621-661)."""
    _arity(text, call, "set_config")
    args = call.get("args") or []
    name, value, local = _string(args[0]), _string(args[1]), _bool(args[2])
    if name is None or value is None:
        # RisingWave's text for either argument names `setting_name`
        raise _expr_error(text, call, "Only string literal is supported in `setting_name`.")
    if local is None:
        raise _expr_error(text, call, "Only bool literal is supported in `is_local`.")
    if local:
        raise _expr_error(text, call, "`is_local = true` is not supported now.")
    return name, value


def check_user_calls(func_refs: Iterable[tuple[str, ...]]) -> None:
    """The user's own text may not call rwshim's functions by their schema (RisingWave has no
    schema rwfn; the rewriter's calls of them are the only ones the guard lets through)."""
    for parts in func_refs:
        if len(parts) > 1 and parts[-2] == FUNCTION_SCHEMA:
            raise UnknownFunction(".".join(parts))


def check_set_config(text: bytes, tree: Node) -> None:
    """RisingWave's argument checks of the set_config calls of a statement answered in
    process (the catalog path applies them; it cannot tell a literal from a column)."""
    for call in _calls(tree):
        names = _names(call)
        args = call.get("args") or []
        if names and names[-1] == "set_config" and len(args) == 3:
            if any("ParamRef" in a for a in args):
                # a client's parameter (asyncpg's set_config('jit', $1, false)): left to the
                # catalog path, which binds its value
                continue
            _set_config(text, call)


# A call answered in process: (its type's OID, its value as the catalog path answers it).
Answered = tuple[int, object]
# The caller's in-process answer of a call's text (``has_table_privilege('t', 'select')``).
Answer = Callable[[str], Answered]
# What RisingWave answers in the frontend, per session: answered in process (``Answer``).
IN_PROCESS: frozenset[str] = REFUSED | {"pg_backend_pid", "pg_postmaster_start_time"}


# The session's values (rwfn answers them from the data session's settings), which RisingWave
# binds as literals; in a materialized view those of its creation (views.creation_answer) for
# the ones the catalog keeps, the others refused.
SESSION_VALUES: frozenset[str] = frozenset(
    {
        "current_user", "session_user", "user", "current_role", "current_database",
        "current_catalog", "current_schema", "current_schemas", "version",
    }
)  # fmt: skip
_CREATION_VALUES = SESSION_VALUES - {"current_schemas", "version"}


class Guarded(NamedTuple):
    text: str
    settings: Settings
    # whether the text holds answers given in process (the session's: never kept for another
    # statement or session)
    answered: bool = False


# the session functions a materialized view's definition may not call here
_BOUND_AT_CREATE = (
    "{name}() in a materialized view: rwshim computes its rows on PostgreSQL, without"
    " RisingWave's catalog or the creating session"
)


def guard(
    text: str,
    relations: Relations = frozenset(),
    answer: Answer | None = None,
    materialized: bool = False,
) -> Guarded:
    """``text`` as it may run on PostgreSQL, and the session settings its ``set_config``
    calls make; raises RisingWave's error or GuardRefused.  ``materialized``: the definition
    of a materialized view, whose rows no session computes."""
    spliced, settings, answered = _pass(text, relations, True, answer, materialized)
    if spliced != text:
        again, more, _ = _pass(spliced, relations, False, None, materialized)
        assert again == spliced and not more
    return Guarded(spliced, settings, answered)


def _constant(arg: Any) -> bool:
    """Whether an argument is a literal (possibly cast, ``'t'::regclass``): the same for every
    row, and written in the rewritten text as the user wrote it."""
    if not isinstance(arg, dict):
        return False
    cast = arg.get("TypeCast")
    if cast is not None:
        return _constant(cast.get("arg"))
    return "A_Const" in arg


def _typed(found: Answered) -> str:
    """An answer as a typed PostgreSQL literal."""
    from rwshim.dataplane.plan import typemap

    oid, value = found
    pg_type = typemap.column_type(oid)
    if value is None:
        return f"NULL::{pg_type}"
    if isinstance(value, bool):
        return "true" if value else "false"
    return f"{quote_literal(str(value))}::{pg_type}"


def _literal(name: str, found: Answered) -> str:
    """An answer as PostgreSQL text: ``rwfn.<name>(<typed literal>)``."""
    return f"{FUNCTION_SCHEMA}.{name}({_typed(found)})"


def _pass(
    text: str, relations: Relations, splice_ok: bool, answer: Answer | None, materialized: bool
) -> tuple[str, Settings, bool]:
    from pglast import parser

    try:
        tree = pgjson.parse(text)
    except parser.ParseError as e:
        raise GuardRefused(f"a statement text PostgreSQL reads otherwise ({e})") from None
    _check_relations(tree, relations)
    raw = text.encode()
    sp = splice.Splicer(raw)
    settings: list[tuple[str, str]] = []
    answered = False
    ok = allowed()
    from rwshim.dataplane.plan import functions

    for call in _calls(tree):
        names = _names(call)
        if not names:
            continue
        name = names[-1]
        schema = names[-2] if len(names) > 1 else None
        if schema is not None and schema not in _SCHEMAS:
            # RisingWave has no such function (the frontend asks the in-process binder for
            # its text); PostgreSQL might (another schema of the database)
            raise UnknownFunction(".".join(names))
        if schema != FUNCTION_SCHEMA and name in _ARITY and name != "set_config":
            _arity(raw, call, name)
        if name == "set_config":
            if schema == FUNCTION_SCHEMA and len(call.get("args") or []) == 1:
                continue  # our own answer (spliced below, checked on the second pass)
            if not splice_ok:
                raise GuardRefused("set_config here")
            settings.append(_set_config(raw, call))
            start = call.get("location", -1)
            try:
                end, _ = splice.call_args(raw, start)
            except splice.SpliceError as e:
                raise GuardRefused(f"this set_config call ({e})") from None
            sp.replace(
                start, end, f"{FUNCTION_SCHEMA}.set_config({quote_literal(settings[-1][1])})"
            )
            continue
        if name in ("pg_cancel_backend", "pg_terminate_backend"):
            _arity(raw, call, name)
        if name == "current_setting":
            _arity(raw, call, name)
            args = call.get("args") or []
            if _string(args[0]) is None:
                raise _expr_error(raw, call, "Only literal is supported in `setting_name`.")
            if schema == "pg_catalog":
                raise GuardRefused("pg_catalog.current_setting on user data")
            if materialized:
                # RisingWave binds it to the creating session's value (builtin_scalar.rs:
                # 607-619), which rwshim does not keep; rwfn's would read whichever session
                # computes the state
                raise GuardRefused(_BOUND_AT_CREATE.format(name=name))
            continue
        if materialized and name in SESSION_VALUES:
            # RisingWave binds them when the view is created (builtin_scalar.rs:109-132,
            # 508-523, 799): the creator's values as the catalog keeps them (views.py)
            if answer is None or name not in _CREATION_VALUES or call.get("args"):
                raise GuardRefused(_BOUND_AT_CREATE.format(name=name))
            start = call.get("location", -1)
            try:
                end, _ = splice.call_args(raw, start)
            except splice.SpliceError as e:
                raise GuardRefused(f"this {name} call ({e})") from None
            sp.replace(start, end, _typed(answer(f"{name}()")))
            continue
        if name in CONSTANT:
            args = call.get("args") or []
            if schema == FUNCTION_SCHEMA and not args:
                continue  # our own answer (spliced below, checked on the second pass)
            if not splice_ok:
                raise GuardRefused(f"{name} here")
            _constant_arity(raw, call, name)
            start = call.get("location", -1)
            try:
                end, _ = splice.call_args(raw, start)
            except splice.SpliceError as e:
                raise GuardRefused(f"this {name} call ({e})") from None
            sp.replace(start, end, f"{FUNCTION_SCHEMA}.{name}()")
            continue
        if name in IN_PROCESS:
            args = call.get("args") or []
            if schema == FUNCTION_SCHEMA and len(args) == 1:
                continue  # our own answer (the user's text cannot name rwfn: check_user_calls)
            if materialized:
                raise GuardRefused(_BOUND_AT_CREATE.format(name=name))
            if answer is None:
                raise SessionBound(f"{name}() in a view's definition, without its reader")
            if not splice_ok:
                raise GuardRefused(f"{name}() here")
            if not all(_constant(a) for a in args) or call.get("agg_star") or call.get("over"):
                raise GuardRefused(f"{name}() of arguments that vary per row of user data")
            start = call.get("location", -1)
            try:
                end, _ = splice.call_args(raw, start)
            except splice.SpliceError as e:
                raise GuardRefused(f"this {name} call ({e})") from None
            shown = raw[start:end].decode()
            if schema is not None:  # pg_catalog.f(...): the catalog path reads f(...)
                shown = shown[shown.index(name, len(schema)) :]
            sp.replace(start, end, _literal(name, answer(shown)))
            answered = True
            continue
        if schema == "pg_catalog" and name in functions.OVERRIDES:
            # rwfn answers it as RisingWave does; PostgreSQL's own would answer otherwise
            raise GuardRefused(f"pg_catalog.{name}() on user data")
        if call.get("funcformat") == "COERCE_SQL_SYNTAX" or name in ok:
            continue
        raise UnknownFunction(name)
    return (sp.result() if sp else text), tuple(settings), answered
