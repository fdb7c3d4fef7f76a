"""CREATE FUNCTION / CREATE AGGREGATE and DROP FUNCTION / DROP AGGREGATE: the frontend's
checks (language, body, types, the body bound against NULL arguments for a SQL function) and
the engine's catalog write.

Languages, as RisingWave's default configuration has them (src/common/src/config/udf.rs:
embedded Python off, JavaScript and WebAssembly on; Java only through an external server):
``sql`` runs (inlined by the read path, rwshim/binder/udf.py); ``javascript``, ``rust``,
``wasm`` and external (``USING LINK``) functions pass RisingWave's CREATE-time checks that need
no runtime and are catalogued, and a call of one is refused saying what rwshim lacks;
``python`` is refused at CREATE as RisingWave refuses it by default.

RisingWave: ``src/frontend/src/handler/create_function.rs``, ``create_sql_function.rs``,
``create_aggregate.rs``, ``drop_function.rs``, ``handler/mod.rs:357-420`` (which handler a
CREATE FUNCTION goes to); ``src/expr/core/src/sig/udf.rs`` (find_udf_impl),
``src/expr/impl/src/udf/{external,python,quickjs,wasm}.rs`` (their create_fn checks).
"""

from __future__ import annotations

import base64
import binascii
from typing import TYPE_CHECKING

from rwshim.binder import types as qtypes
from rwshim.binder.context import QueryContext, parse_search_path
from rwshim.common import pgtypes, rwtypes
from rwshim.common.outcome import Outcome
from rwshim.engine.functions import FunctionRow, NewFunction
from rwshim.engine.types import ObjectName as EngineName
from rwshim.errors import (
    BindExprError,
    InvalidInputSyntax,
    InvalidParameterValue,
    NotImplementedError_,
    RwError,
    Uncategorized,
)
from rwshim.frontend import variant_rules
from rwshim.frontend.common import Handler, engine_name
from rwshim.sql import statements as st

if TYPE_CHECKING:
    from rwshim.frontend.frontend import Frontend
    from rwshim.sql.function_def import FunctionDef

# The languages each CREATE accepts under RisingWave's default udf config (udf.rs:35-47).
_ENABLED = {"javascript", "rust", "wasm"}


def _bind(text: str) -> tuple[int, str]:
    """(OID as DataType::to_oid gives it, RisingWave's name) of a type (bind_data_type)."""
    from rwshim.sql.columns import canonical_type

    name, dims = canonical_type(text)
    oid, rw_name = rwtypes.bind_column_type(name, text, dims)
    if rw_name.startswith("struct<"):
        oid = pgtypes.RECORD
    return oid, rw_name


def _returns(d: FunctionDef) -> tuple[str, tuple[int, str]]:
    """(kind, return type): RETURNS <type> is a scalar function, RETURNS TABLE a table
    function returning its one column's type or a struct of its columns."""
    if d.return_type is not None:
        return "SCALAR", _bind(d.return_type)
    if d.table_columns is not None:
        if len(d.table_columns) == 1:
            return "TABLE", _bind(d.table_columns[0][1])
        fields = ", ".join(f"{n} {_bind(t)[1]}" for n, t in d.table_columns)
        return "TABLE", (pgtypes.RECORD, f"struct<{fields}>")
    raise InvalidParameterValue("return type must be specified")


async def handle_create_function(
    fe: Frontend, stmt: st.CreateFunction, params: list[object]
) -> Outcome:
    from rwshim.sql.function_def import parse_create

    d = parse_create(stmt.text)
    name = engine_name(st.ObjectName(d.parts), fe.database)
    if d.aggregate:
        fn = _aggregate(d, name, stmt.text)
    elif d.language is not None and d.language.lower() == "sql":
        fn = _sql_function(d, name, stmt.text)
    else:
        fn = _general_function(d, name, stmt.text)
    functions = fe.instance.engine.functions
    if fn.language == "sql":
        # the duplicate check comes before the body is bound (create_sql_function.rs:127-135)
        dup = functions.duplicate(fe.ctx(), fn, if_not_exists=d.if_not_exists)
        if dup is not None:
            return Outcome(stmt.tag, notices=dup)
        _check_sql_body(fe, fn)
    return await fe.engine_call(
        stmt.tag, lambda: functions.create(fe.ctx(), fn, if_not_exists=d.if_not_exists)
    )


def _args(d: FunctionDef) -> tuple[tuple[str, ...], tuple[tuple[int, str], ...]]:
    return tuple(a.name for a in d.args), tuple(_bind(a.type_text) for a in d.args)


def _sql_function(d: FunctionDef, name: EngineName, text: str) -> NewFunction:
    """create_sql_function.rs:25-145, up to the binding."""
    if d.or_replace:
        raise NotImplementedError_("CREATE OR REPLACE FUNCTION")
    if d.temporary:
        raise NotImplementedError_("CREATE TEMPORARY FUNCTION")
    if d.as_kind in ("single", "dollar"):
        body = d.as_value or ""
    elif d.as_kind == "ident":
        raise InvalidParameterValue("expect quoted string")
    elif d.return_expr is None:
        raise InvalidParameterValue("AS or RETURN must be specified")
    else:
        body = f"select {d.return_expr}"
    if d.using is not None and d.using[0] == "LINK":
        raise InvalidParameterValue("USING must NOT be specified with sql udf function")
    kind, ret = _returns(d)
    names, types = _args(d)
    return NewFunction(name, kind, names, types, ret, "sql", text, body=body)


def _check_sql_body(fe: Frontend, fn: NewFunction) -> None:
    """Bind the body with NULL arguments of the parameter types (create_sql_function.rs:
    137-160): its binding errors under ``Failed to bind expression``, then the return type."""
    ctx = fe.query_context()
    # the UDF inliner and the function-definition parser load with the first CREATE/DROP
    from rwshim.binder.udf import Inliner, Udf, bind_error_expression

    shown = bind_error_expression(fn.body or "")
    udf = Udf(
        0, fn.name.name, "", fn.kind, "sql", fn.arg_names, tuple(t[1] for t in fn.arg_types),
        fn.return_type[1], fn.body,
    )  # fmt: skip
    try:
        lookup = fe.instance.catalog_reader.udf_lookup(ctx)
        inlined = Inliner(lookup, database=ctx.database).expand(udf, ["NULL"] * len(fn.arg_types))
        analysis = fe.instance.query.analyze(f"SELECT {inlined}", ctx)
    except BindExprError as e:
        raise BindExprError(shown, e.cause) from None
    except RwError as e:
        if e.chain and e.chain[0].startswith("sql parser error"):
            raise
        raise BindExprError(shown, e) from None
    actual = rwtypes.rw_type_name(qtypes.external(analysis.columns[0].type_oid))
    if actual != fn.return_type[1]:
        raise InvalidInputSyntax(
            f"return type mismatch detected\nexpected: [{fn.return_type[1]}]\nactual: "
            f"[{actual}]\nplease adjust your function definition accordingly"
        )


def _language(d: FunctionDef, *, aggregate: bool) -> str:
    """The language arm of create_function.rs:58-85 / create_aggregate.rs:34-60."""
    if d.language is None:
        if aggregate:
            raise InvalidParameterValue("no language")
        return ""
    lang = d.language.lower()
    enabled = {"javascript"} if aggregate else _ENABLED | {"java"}
    known = {"python", "javascript"} if aggregate else {"python", "javascript", "rust", "wasm"}
    if lang in enabled:
        return lang
    if lang in known:
        raise InvalidParameterValue(f"{lang} UDF is not enabled in configuration")
    raise InvalidParameterValue(f"language {lang} is not supported")


def _using(d: FunctionDef) -> tuple[str | None, bytes | None]:
    link = d.using[1] if d.using is not None and d.using[0] == "LINK" else None
    binary = None
    if d.using is not None and d.using[0] == "BASE64":
        try:
            binary = base64.b64decode(d.using[1], validate=True)
        except (binascii.Error, ValueError) as e:
            raise Uncategorized(f"invalid base64 encoding: {e}") from None
    return link, binary


def _implementation(
    lang: str, link: str | None, d: FunctionDef, binary: bytes | None, aggregate: bool
) -> tuple[str | None, str | None]:
    """find_udf_impl (sig/udf.rs:40-56) and the create_fn checks that need no runtime:
    (body, name in runtime is the function's name unless external: the AS text)."""
    as_ = d.as_value
    if lang == "javascript":  # quickjs.rs:23-31
        if as_ is None:
            raise Uncategorized("AS must be specified")
        return as_, None
    if lang == "rust" and not aggregate:  # wasm.rs:90-93
        if link is not None:
            raise Uncategorized("USING is not supported for rust function")
        if as_ is None:
            raise Uncategorized("AS must be specified")
        return as_, None
    if lang == "wasm" and not aggregate:  # wasm.rs:44-51
        if link is None and binary is None:
            raise Uncategorized("USING must be specified")
        return None, None
    if link is not None and lang in ("java", ""):  # external.rs:34-41
        if as_ is None:
            raise Uncategorized("AS must be specified")
        return None, as_
    raise Uncategorized(
        "language not found.\nHINT: UDF feature flag may not be enabled during compilation"
    )


def _general_function(d: FunctionDef, name: EngineName, text: str) -> NewFunction:
    """create_function.rs:44-215 (the external server's signature check and the WebAssembly
    module's are not made: rwshim reaches no UDF server and loads no module)."""
    if d.or_replace:
        raise NotImplementedError_("CREATE OR REPLACE FUNCTION")
    if d.temporary:
        raise NotImplementedError_("CREATE TEMPORARY FUNCTION")
    lang = _language(d, aggregate=False)
    if d.runtime is not None:
        raise InvalidParameterValue("runtime selection is currently not supported")
    kind, ret = _returns(d)
    names, types = _args(d)
    variant_rules.udf_signature([ret[1], *(t for _, t in types)], "function")
    link, binary = _using(d)
    body, remote = _implementation(lang, link, d, binary, False)
    opts = d.with_options
    return NewFunction(
        name, kind, names, types, ret, lang, text,
        name_in_runtime=remote or d.parts[-1], body=body, link=link, compressed_binary=binary,
        always_retry_on_network_error=opts.get("always_retry_on_network_error", False),
        is_async=opts.get("async"), is_batched=opts.get("batch"),
    )  # fmt: skip


def _aggregate(d: FunctionDef, name: EngineName, text: str) -> NewFunction:
    """create_aggregate.rs:25-140."""
    if d.or_replace:
        raise NotImplementedError_("CREATE OR REPLACE AGGREGATE")
    lang = _language(d, aggregate=True)
    if d.runtime is not None:
        raise InvalidParameterValue("runtime selection is currently not supported")
    ret = _bind(d.return_type or "")
    names, types = _args(d)
    variant_rules.udf_signature([ret[1], *(t for _, t in types)], "aggregate function")
    link, binary = _using(d)
    body, remote = _implementation(lang, link, d, binary, True)
    return NewFunction(
        name, "AGGREGATE", names, types, ret, lang, text,
        name_in_runtime=remote or d.parts[-1], body=body, link=link, compressed_binary=binary,
    )  # fmt: skip


# --- DROP -----------------------------------------------------------------------------------


async def handle_drop_function(fe: Frontend, stmt: st.Drop, params: list[object]) -> Outcome:
    """drop_function.rs:20-100: one function per statement."""
    from rwshim.sql.function_def import parse_drop

    descs, if_exists, cascade = parse_drop(stmt.text)
    if len(descs) != 1:
        raise NotImplementedError_("only support dropping 1 function")
    desc = descs[0]
    functions = fe.instance.engine.functions
    name = engine_name(st.ObjectName(desc.parts), fe.database)
    types = None if desc.arg_types is None else [_bind(t)[1] for t in desc.arg_types]
    found = functions.for_drop(
        fe.ctx(), name, types, aggregate=stmt.object_type == "AGGREGATE", if_exists=if_exists
    )
    if not isinstance(found, FunctionRow):
        return Outcome(stmt.tag, notices=found.notices)
    fn = found
    users = fe.instance.catalog_reader.function_callers(fn.id, _definitions(fe))
    return await fe.engine_call(stmt.tag, lambda: functions.drop(fn, users, cascade=cascade))


def _definitions(fe: Frontend) -> list[tuple[int, str, QueryContext]]:
    """The relations of the session's database that have a defining query, each with the
    context it binds in (its creator's search path)."""
    out = []
    for rid, definition, path in fe.instance.catalog_reader.defining_queries(fe.database_id):
        search = parse_search_path(path) if path else ("$user", "public")
        ctx = QueryContext(fe.database_id, fe.database, 0, "root", search)
        out.append((rid, definition, ctx))
    return out


# --- ALTER ----------------------------------------------------------------------------------


async def handle_alter_function(
    fe: Frontend, stmt: st.AlterFunction, params: list[object]
) -> Outcome:
    """ALTER FUNCTION ... OWNER TO / SET SCHEMA (alter_owner.rs, alter_set_schema.rs:143-175:
    the function by its argument list, or the only one of its name)."""
    functions = fe.instance.engine.functions
    name = engine_name(stmt.name, fe.database)
    types = None if stmt.arg_types is None else [_bind(t)[1] for t in stmt.arg_types]
    fn = functions.resolve(fe.ctx(), name, types)
    if stmt.operation == "OWNER TO":
        return await fe.engine_call(
            stmt.tag, lambda: functions.alter_owner(fe.ctx(), fn, stmt.target)
        )
    return await fe.engine_call(stmt.tag, lambda: functions.alter_schema(fe.ctx(), fn, stmt.target))


HANDLERS: dict[type[st.Statement], Handler] = {
    st.CreateFunction: handle_create_function,
    st.AlterFunction: handle_alter_function,
}
