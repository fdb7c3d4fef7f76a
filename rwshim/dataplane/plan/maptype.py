"""RisingWave's ``map(K,V)`` on PostgreSQL: a composite type per map type and, overloaded on
it, RisingWave's map functions (src/common/src/types/map_type.rs, src/common/src/array/
map_array.rs, src/expr/impl/src/scalar/array.rs map_*, jsonb_record.rs jsonb_populate_map).

A map is physically a list of (key, value) entries in insertion order (map_array.rs:92-130:
``MapArray`` is a ``List<Struct<key, value>>``; the lists are NOT sorted by key).  Here it is
the composite ``rwfn.rw_m<digest>`` with two arrays of the same length, ``map$keys K[]`` and
``map$values V[]``; its comment is RisingWave's name of the type, which is how a result column
of it is known and rendered (dataplane/typecat.py).  PostgreSQL picks the function of a map
type by the argument's type, so every function here is made once per map type
(``map_ddl``): ``map_from_key_values``, ``map_from_entries``, ``map_access`` (and
``map_subscript``, the ``m[k]`` form, which does not cast the key: binder/expr/value.rs
bind_index makes a MapAccess without type inference, so a key of another type finds nothing),
``map_keys``, ``map_values``, ``map_entries``, ``map_length``, ``map_contains``, ``map_cat``,
``map_insert``, ``map_delete``, ``jsonb_populate_map`` and ``map_to_jsonb`` (which
``rwfn.to_jsonb`` calls for a map or a list of maps: an overload of ``to_jsonb`` itself would
make a ``ROW(...)`` argument ambiguous, a record coercing to every composite); casts to and from the
other map types of the same key type go through the text (``WITH INOUT``, assignment: an
INSERT casts to the column's type, insert.rs cast_on_insert).

Key types: RisingWave allows only the integers and varchar (map_type.rs:104-134
``check_key_type_valid``; common/rwtypes.py ``check_map_keys`` gives its text for any other).
A map whose values are lists has no PostgreSQL form here (an array of arrays is one
multi-dimensional array): refused as not supported by rwshim.

The common scalar map types are made in the template (``TEMPLATE_TYPES``); any other is made
with the table or the cast that names it (typemap.type_ddl).
"""

from __future__ import annotations

import re

from rwshim.common import rwtypes
from rwshim.dataplane.plan import errors
from rwshim.dataplane.plan.names import FUNCTION_SCHEMA as F
from rwshim.dataplane.plan.names import quote_literal
from rwshim.errors import BindError, BindExprError, RwError

KEYS = "map$keys"
VALUES = "map$values"

# SQLSTATE of an error raised as a whole RisingWave chain: the parts joined by RS (chr(30));
# dataplane/plan/errors.py's table gets the row (``register_errors``)
CHAIN = "RWCHN"
SEP = "chr(30)"


def _chain_error(
    m: re.Match[str], err: errors.PgError, name_of: errors.NameOf, ctx: errors.MapContext
) -> RwError:
    return RwError(*m["text"].split("\x1e"))


errors.register(CHAIN, r"(?s)^(?P<text>.*)$", _chain_error)

# PostgreSQL's names of the types a map function may meet -> RisingWave's
_PG_NAMES = {"text": "character varying", "unknown": "character varying"}


def rw_name(pg_name: str) -> str:
    """RisingWave's name of a type PostgreSQL names in an error (a composite of rwshim's as
    the map or struct type it holds)."""
    from rwshim.dataplane.plan import typemap

    name = pg_name.strip().removeprefix(f"{F}.").strip('"')
    if name.endswith("[]"):
        return rw_name(name[:-2]) + "[]"
    found = typemap.MAPS.get(name) or typemap.STRUCTS.get(name)
    if found is not None:
        return found.display()
    return _PG_NAMES.get(name, name)


def bound_root(statement: str, needle: str, cause: RwError) -> RwError:
    """``cause`` under ``Failed to bind expression: <root>`` (binder/expr/mod.rs:57-64), the
    root being the first select item of ``statement`` whose display holds ``needle``, as
    RisingWave's parser prints it; ``cause`` alone when the statement has no such item."""
    from rwshim.sql import unparse
    from rwshim.sql.unparse import display
    from rwshim.sql.unparse import nodes as n
    from rwshim.sql.unparse.query import parse_query

    try:
        query = parse_query(statement.strip().removesuffix(";"))
    except (unparse.UnparseError, RwError):
        return cause
    if not isinstance(query.body, n.Select):
        return cause
    for item in query.body.projection:
        if isinstance(item.expr, n.Wildcard):
            continue
        shown = display.expr(item.expr)
        if needle in shown:
            return BindExprError(shown, cause)
    return cause


def _compare_error(
    m: re.Match[str], err: errors.PgError, name_of: errors.NameOf, ctx: errors.MapContext
) -> RwError:
    # RisingWave has no comparison of maps: the binder finds no function
    # (expr/type_inference/func.rs), e.g. ``function equal(map(integer,integer),
    # map(integer,integer)) does not exist`` (e2e_test/batch/types/map.slt.part)
    fn = COMPARISONS[m["op"]]
    cause = RwError(f"function {fn}({rw_name(m['l'])}, {rw_name(m['r'])}) does not exist")
    return bound_root(ctx.statement, f" {m['op']} ", cause)


errors.register(
    "42725",
    r"^operator is not unique: (?P<l>\S*rw_m\w+) (?P<op>[=<>!]+) (?P<r>\S*rw_m\w+)$",
    _compare_error,
    first=True,
)


def _no_map_function(
    m: re.Match[str], err: errors.PgError, name_of: errors.NameOf, ctx: errors.MapContext
) -> RwError:
    key, value = rw_name(m["k"]), rw_name(m["v"])
    try:
        key_type = rwtypes.parse(key)
    except (rwtypes.TypeSyntaxError, RwError):
        key_type = None
    if key_type is not None:
        why = rwtypes.map_key_refusal(key_type)
        if why is not None:
            # MapType::try_from_kv in the function's type inference: an ExprError
            # (map.slt.part: ``Expr error`` / ``invalid map key type: numeric``)
            return bound_root(ctx.statement, "map_from_key_values(", RwError("Expr error", why))
    return RwError(
        f"not supported by rwshim: a map(...) of keys {key} and values {value} made by an "
        "expression: that map type exists only once a table column or a cast names it"
    )


errors.register(
    "42883",
    r"^function (?:\S*\.)?map_from_key_values\((?P<k>[^,]+)\[\], (?P<v>.+)\[\]\) does not "
    r"exist$",
    _no_map_function,
    first=True,
)


def _no_entries_function(
    m: re.Match[str], err: errors.PgError, name_of: errors.NameOf, ctx: errors.MapContext
) -> RwError:
    from rwshim.dataplane.plan import typemap

    pg = m["t"].strip().removeprefix(f"{F}.").strip('"')
    struct = typemap.STRUCTS.get(pg)
    if pg == "record":
        return RwError(
            "not supported by rwshim: map_from_entries over an array of ROW(...) values (cast "
            "the array to struct<key K, value V>[])"
        )
    if struct is None:
        # MapType::try_from_entries (map_type.rs:44-62) in the function's type inference
        why = f"invalid map entries type, expected struct, got: {rw_name(m['t'])}"
        return bound_root(ctx.statement, "map_from_entries(", RwError("Expr error", why))
    if len(struct.fields) == 2:
        refusal = rwtypes.map_key_refusal(struct.fields[0][1])
        if refusal is not None:
            return bound_root(ctx.statement, "map_from_entries(", RwError("Expr error", refusal))
    return RwError(
        f"not supported by rwshim: map_from_entries over {struct.display()}[] (a map type "
        "exists only once a table column or a cast names it)"
    )


def _null_entries(
    m: re.Match[str], err: errors.PgError, name_of: errors.NameOf, ctx: errors.MapContext
) -> RwError:
    # a NULL argument: the binder cannot make a list of it (binder/expr/function: the
    # polymorphic AnyArray argument, e2e map.slt.part)
    cause = BindError("Cannot implicitly cast 'null:Varchar' to polymorphic type AnyArray")
    bound = bound_root(ctx.statement, "map_from_entries(NULL)", cause)
    if bound is cause:
        return RwError(err.message, sqlstate=err.sqlstate)
    return bound


errors.register(
    "42883",
    r"^function (?:\S*\.)?map_from_entries\((?P<t>.+)\[\]\) does not exist$",
    _no_entries_function,
    first=True,
)
errors.register(
    "42725",
    r"^function (?:\S*\.)?map_from_entries\(unknown\) is not unique$",
    _null_entries,
    first=True,
)


def _subscript(
    m: re.Match[str], err: errors.PgError, name_of: errors.NameOf, ctx: errors.MapContext
) -> RwError:
    return RwError(
        f"not supported by rwshim: a subscript of a {rw_name(m['t'])} value that is not a MAP "
        "{...} literal or a table's column (map_access(m, key) is the same access with the key "
        "cast to the key type)"
    )


errors.register(
    "42804",
    r"^cannot subscript type (?P<t>\S*rw_m\w+) because it does not support subscripting$",
    _subscript,
    first=True,
)


def check_type(t: rwtypes.RwType) -> None:
    """RisingWave's bind error for a map type with a bad key anywhere in ``t``
    (binder/expr/mod.rs:1094-1098 ``MapType::try_from_kv(...).map_err(BindError)``), and
    rwshim's refusal of a map of lists."""
    rwtypes.check_map_keys(t)
    for x in t.walk():
        if x.kind == "map" and x.value is not None and x.value.kind == "list":
            raise RwError(
                f"not supported by rwshim: {x.display()} (a map whose values are lists has no "
                "PostgreSQL form here)"
            )


def _entries(m: str, alias: str) -> str:
    """A FROM item of map ``m``'s entries: ``k``, ``v`` and their place ``o`` (not unnest,
    which spreads a composite element into its fields)."""
    return (
        f'(SELECT ({m})."{KEYS}"[o] AS k, ({m})."{VALUES}"[o] AS v, o'
        f' FROM pg_catalog.generate_subscripts(({m})."{KEYS}", 1) AS o) AS {alias}'
    )


def _chain(*parts: str) -> str:
    """A PL/pgSQL RAISE of RisingWave's error chain (each part an SQL text expression)."""
    message = f" || {SEP} || ".join(parts)
    return f"RAISE EXCEPTION USING ERRCODE = '{CHAIN}', MESSAGE = {message};"


def _evaluating(call: str) -> str:
    """SQL of ``error while evaluating expression `<call>``` (src/expr/core/src/error.rs:58-68,
    the arguments as their texts quoted)."""
    return f"'error while evaluating expression `' || {call} || '`'"


def _arg(sql: str) -> str:
    """An argument of the evaluated call as RisingWave shows it: its text quoted, NULL bare."""
    return f"coalesce(pg_catalog.quote_literal(({sql})::text), 'NULL')"


def map_ddl(name: str, t: rwtypes.RwType, key_pg: str, value_pg: str, entry_pg: str) -> str:
    """The statements making map type ``t`` as ``rwfn.<name>`` (its key and value types as
    PostgreSQL types, ``entry_pg`` the composite of ``struct<key K, value V>``): idempotent,
    skipped when the type exists with the same comment."""
    assert t.elem is not None and t.value is not None
    q = f"{F}.{name}"
    K, V = key_pg, value_pg
    display = quote_literal(t.display())
    ks, vs = f'(m)."{KEYS}"', f'(m)."{VALUES}"'
    kv_err = (
        "'Expr error'",
        _evaluating(f"'map_from_key_values(' || {_arg('ks')} || ', ' || {_arg('vs')} || ')'"),
    )
    entries_err = (
        "'Expr error'",
        _evaluating(f"'map_from_entries(' || {_arg('es')} || ')'"),
    )
    m_text, j_text = _arg("pg_catalog.record_out(m)"), _arg("j")
    populate_call = f"'jsonb_populate_map(' || {m_text} || ', ' || {j_text} || ')'"
    string_keys = t.elem.kind == "scalar" and t.elem.scalar_oid == 1043
    populate_keys = (
        ""
        if string_keys
        else _chain(
            "'Expr error'",
            _evaluating(populate_call),
            "'Parse error: cannot convert jsonb to a map with non-string keys'",
        )
    )
    json_value = "value" if V == "jsonb" else f"(value #>> '{{}}')::{V}"
    unnest = _entries("m", "e")
    body = f"""
CREATE TYPE {q} AS ("{KEYS}" {K}[], "{VALUES}" {V}[]);
COMMENT ON TYPE {q} IS {display};
CREATE FUNCTION {F}.map_from_key_values(ks {K}[], vs {V}[]) RETURNS {q} LANGUAGE plpgsql
    IMMUTABLE STRICT PARALLEL SAFE AS $f$
BEGIN
    IF pg_catalog.cardinality(ks) <> pg_catalog.cardinality(vs) THEN
        {_chain(*kv_err, "'map keys and values have different length'")}
    END IF;
    IF (SELECT pg_catalog.count(DISTINCT x) + pg_catalog.max(CASE WHEN x IS NULL THEN 1 ELSE 0 END)
        FROM unnest(ks) AS x) <> pg_catalog.cardinality(ks) THEN
        {_chain(*kv_err, "'map keys must be unique'")}
    END IF;
    IF pg_catalog.array_position(ks, NULL) IS NOT NULL THEN
        {_chain(*kv_err, "'map keys must not be NULL'")}
    END IF;
    RETURN ROW(ks, vs)::{q};
END $f$;
CREATE FUNCTION {F}.map_from_entries(es {entry_pg}[]) RETURNS {q} LANGUAGE plpgsql
    IMMUTABLE STRICT PARALLEL SAFE AS $f$
DECLARE
    ks {K}[];
    vs {V}[];
BEGIN
    SELECT coalesce(pg_catalog.array_agg((e).key ORDER BY o), '{{}}'),
           coalesce(pg_catalog.array_agg((e).value ORDER BY o), '{{}}')
        INTO ks, vs FROM (SELECT es[o] AS e, o
                          FROM pg_catalog.generate_subscripts(es, 1) AS o) AS x;
    IF (SELECT pg_catalog.count(DISTINCT x) + pg_catalog.max(CASE WHEN x IS NULL THEN 1 ELSE 0 END)
        FROM unnest(ks) AS x) <> pg_catalog.cardinality(ks) THEN
        {_chain(*entries_err, "'map keys must be unique'")}
    END IF;
    IF pg_catalog.array_position(ks, NULL) IS NOT NULL THEN
        {_chain(*entries_err, "'map keys must not be NULL'")}
    END IF;
    RETURN ROW(ks, vs)::{q};
END $f$;
CREATE FUNCTION {F}.map_access(m {q}, k {K}) RETURNS {V} LANGUAGE sql IMMUTABLE STRICT
    PARALLEL SAFE AS $f$ SELECT {vs}[pg_catalog.array_position({ks}, k)] $f$;
CREATE FUNCTION {F}.map_subscript(m {q}, k {K}) RETURNS {V} LANGUAGE sql IMMUTABLE STRICT
    PARALLEL SAFE AS $f$ SELECT {vs}[pg_catalog.array_position({ks}, k)] $f$;
CREATE FUNCTION {F}.map_subscript(m {q}, k anynonarray) RETURNS {V} LANGUAGE sql IMMUTABLE
    PARALLEL SAFE AS $f$ SELECT NULL::{V} $f$;
CREATE FUNCTION {F}.map_keys(m {q}) RETURNS {K}[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $f$ SELECT {ks} $f$;
CREATE FUNCTION {F}.map_values(m {q}) RETURNS {V}[] LANGUAGE sql IMMUTABLE STRICT
    PARALLEL SAFE AS $f$ SELECT {vs} $f$;
CREATE FUNCTION {F}.map_entries(m {q}) RETURNS {entry_pg}[] LANGUAGE sql IMMUTABLE STRICT
    PARALLEL SAFE AS $f$
    SELECT coalesce(pg_catalog.array_agg(ROW(k, v)::{entry_pg} ORDER BY o), '{{}}') FROM {unnest}
$f$;
CREATE FUNCTION {F}.map_rows(m {q}) RETURNS TABLE (k {K}, v {V}, o integer) LANGUAGE sql
    IMMUTABLE STRICT PARALLEL SAFE AS $f$ SELECT e.k, e.v, e.o FROM {unnest} $f$;
CREATE FUNCTION {F}.map_filter(m {q}, keep boolean[]) RETURNS {q} LANGUAGE sql IMMUTABLE
    STRICT PARALLEL SAFE AS $f$
    SELECT CASE WHEN pg_catalog.count(*) > 0 THEN
        ROW(pg_catalog.array_agg(k ORDER BY o), pg_catalog.array_agg(v ORDER BY o))::{q} END
    FROM {unnest} WHERE keep[o]
$f$;
CREATE FUNCTION {F}.map_length(m {q}) RETURNS integer LANGUAGE sql IMMUTABLE STRICT
    PARALLEL SAFE AS $f$ SELECT pg_catalog.cardinality({ks}) $f$;
CREATE FUNCTION {F}.map_contains(m {q}, k {K}) RETURNS boolean LANGUAGE sql IMMUTABLE STRICT
    PARALLEL SAFE AS $f$ SELECT pg_catalog.array_position({ks}, k) IS NOT NULL $f$;
CREATE FUNCTION {F}.map_cat(a {q}, b {q}) RETURNS {q} LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $f$
    SELECT CASE WHEN a IS NULL THEN b WHEN b IS NULL THEN a
    ELSE (SELECT ROW(coalesce(pg_catalog.array_agg(k ORDER BY s, o), '{{}}'),
                     coalesce(pg_catalog.array_agg(v ORDER BY s, o), '{{}}'))::{q}
          FROM (SELECT k, v, o, 1 AS s FROM {_entries("a", "x")}
                WHERE pg_catalog.array_position((b)."{KEYS}", k) IS NULL
                UNION ALL
                SELECT k, v, o, 2 FROM {_entries("b", "y")}) AS z) END
$f$;
CREATE FUNCTION {F}.map_insert(m {q}, key {K}, value {V}) RETURNS {q} LANGUAGE sql IMMUTABLE
    PARALLEL SAFE AS $f$
    SELECT CASE WHEN m IS NULL THEN NULL WHEN key IS NULL THEN m
    ELSE {F}.map_cat(m, ROW(ARRAY[key], ARRAY[value])::{q}) END
$f$;
CREATE FUNCTION {F}.map_delete(m {q}, key {K}) RETURNS {q} LANGUAGE sql IMMUTABLE
    PARALLEL SAFE AS $f$
    SELECT CASE WHEN m IS NULL THEN NULL WHEN key IS NULL THEN m
    ELSE (SELECT ROW(coalesce(pg_catalog.array_agg(k ORDER BY o), '{{}}'),
                     coalesce(pg_catalog.array_agg(v ORDER BY o), '{{}}'))::{q}
          FROM {unnest} WHERE k <> key) END
$f$;
CREATE FUNCTION {F}.jsonb_populate_map(m {q}, j jsonb) RETURNS {q} LANGUAGE plpgsql IMMUTABLE
    PARALLEL SAFE AS $f$
DECLARE
    got {q};
BEGIN
    IF j IS NULL THEN
        RETURN NULL;
    END IF;
    IF pg_catalog.jsonb_typeof(j) <> 'object' THEN
        {
        _chain(
            "'Expr error'",
            _evaluating(populate_call),
            "'Parse error: cannot convert to map from a jsonb ' || pg_catalog.jsonb_typeof(j)",
        )
    }
    END IF;
    {populate_keys}
    got := (SELECT ROW(
            coalesce(pg_catalog.array_agg(key::{K} ORDER BY pg_catalog.convert_to(key, 'UTF8')),
                     '{{}}'),
            coalesce(pg_catalog.array_agg({json_value} ORDER BY pg_catalog.convert_to(key, 'UTF8')),
                     '{{}}'))::{q}
        FROM pg_catalog.jsonb_each(j));
    RETURN {F}.map_cat(m, got);
END $f$;
CREATE FUNCTION {F}.map_to_jsonb(m {q}) RETURNS jsonb LANGUAGE sql STABLE PARALLEL SAFE AS $f$
    SELECT CASE WHEN m IS NULL THEN 'null'::jsonb
    ELSE (SELECT coalesce(pg_catalog.jsonb_object_agg(k::text, {F}.to_jsonb(v)), '{{}}')
          FROM {unnest}) END
$f$;
CREATE FUNCTION {F}.map_to_jsonb(a {q}[]) RETURNS jsonb LANGUAGE sql STABLE PARALLEL SAFE AS $f$
    SELECT CASE WHEN a IS NULL THEN 'null'::jsonb
    ELSE (SELECT coalesce(pg_catalog.jsonb_agg({F}.to_jsonb(x) ORDER BY o), '[]')
          FROM (SELECT a[o] AS x, o FROM pg_catalog.generate_subscripts(a, 1) AS o) AS e) END
$f$;
{_ordering(name, q, entry_pg)}
{_no_text(name, q, t)}
FOR other IN
    SELECT t.oid::regtype::text AS name FROM pg_catalog.pg_type t
    WHERE t.typnamespace = '{F}'::regnamespace AND t.typtype = 'c' AND t.typname <> '{name}'
      AND pg_catalog.obj_description(t.oid, 'pg_type') LIKE {quote_literal(_key_prefix(t))}
LOOP
    EXECUTE pg_catalog.format('CREATE CAST (%s AS %s) WITH INOUT AS ASSIGNMENT', other.name, '{q}');
    EXECUTE pg_catalog.format('CREATE CAST (%s AS %s) WITH INOUT AS ASSIGNMENT', '{q}', other.name);
END LOOP;"""
    return f"""DO $type$
DECLARE
    have text;
    other record;
BEGIN
    SELECT pg_catalog.obj_description(oid, 'pg_type') INTO have FROM pg_catalog.pg_type
        WHERE typname = '{name}' AND typnamespace = '{F}'::regnamespace;
    IF have IS NULL THEN
{body}
    ELSIF have <> {display} THEN
        RAISE EXCEPTION 'composite type {q} holds % (not %)', have, {display};
    END IF;
EXCEPTION WHEN unique_violation OR duplicate_object OR duplicate_function THEN
    NULL;  -- made by another session meanwhile
END $type$"""


# the operators of a map type's default btree class (named apart from PostgreSQL's so that
# ``m1 = m2`` written by a user does not find them) -> (strategy, the comparison's test)
_ORDER_OPS = (("~<~", 1, "< 0"), ("~<=~", 2, "<= 0"), ("~=~", 3, "= 0"), ("~>=~", 4, ">= 0"),
              ("~>~", 5, "> 0"))  # fmt: skip
# the comparison operators a user may write -> RisingWave's function name in its refusal
COMPARISONS = {
    "=": "equal", "<>": "not_equal", "!=": "not_equal", "<": "less_than",
    "<=": "less_than_or_equal", ">": "greater_than", ">=": "greater_than_or_equal",
}  # fmt: skip


def _ordering(name: str, q: str, entry_pg: str) -> str:
    """How maps of one type order, group and compare.

    RisingWave orders (and groups) maps by their entries sorted by key (map_array.rs:297-330:
    ``iter_sorted`` compared entry by entry), so the default btree class of the composite
    compares the sorted entries; the composite's own record order would follow the insertion
    order.  A user's comparison of two maps is RisingWave's bind error (``function equal(map,
    map) does not exist``: the map functions have no comparison): two operators per symbol,
    ``(q, record)`` and ``(record, q)``, make PostgreSQL's analysis of ``m1 = m2`` ambiguous
    (``operator is not unique``), which the error table reports in RisingWave's words;
    neither is ever chosen for a map and a map."""
    cmp = f"{F}.{name}_cmp"
    a_sorted = f"ARRAY(SELECT ROW(k, v)::{entry_pg} FROM {_entries('a', 'e')} ORDER BY k)"
    b_sorted = f"ARRAY(SELECT ROW(k, v)::{entry_pg} FROM {_entries('b', 'e')} ORDER BY k)"
    out = [
        f"""CREATE FUNCTION {cmp}(a {q}, b {q}) RETURNS integer LANGUAGE sql IMMUTABLE STRICT
    PARALLEL SAFE AS $f$
    SELECT CASE WHEN x < y THEN -1 WHEN x > y THEN 1 ELSE 0 END
    FROM (SELECT {a_sorted} AS x, {b_sorted} AS y) AS s
$f$;"""
    ]
    members = []
    for op, strategy, test in _ORDER_OPS:
        fn = f"{F}.{name}_o{strategy}"
        out.append(
            f"CREATE FUNCTION {fn}(a {q}, b {q}) RETURNS boolean LANGUAGE sql IMMUTABLE STRICT"
            f" PARALLEL SAFE AS $f$ SELECT {cmp}(a, b) {test} $f$;"
        )
        out.append(f"CREATE OPERATOR {F}.{op} (LEFTARG = {q}, RIGHTARG = {q}, FUNCTION = {fn});")
        members.append(f"OPERATOR {strategy} {F}.{op}")
    out.append(
        f"CREATE OPERATOR CLASS {F}.{name}_ops DEFAULT FOR TYPE {q} USING btree AS "
        + ", ".join(members)
        + f", FUNCTION 1 {cmp}({q}, {q});"
    )
    for side, (left, right) in enumerate(((q, "record"), ("record", q))):
        # chosen only for a map and a record: no comparison in RisingWave either
        out.append(
            f"CREATE FUNCTION {F}.{name}_cmp{side}(a {left}, b {right}) RETURNS boolean"
            f" LANGUAGE plpgsql IMMUTABLE AS $f$ BEGIN"
            f" RAISE EXCEPTION USING ERRCODE = '42883', MESSAGE = 'operator does not exist: '"
            f" || pg_catalog.pg_typeof(a) || ' ? ' || pg_catalog.pg_typeof(b); END $f$;"
        )
        for op in COMPARISONS:
            if op == "!=":
                continue  # PostgreSQL's spelling of <>
            out.append(
                f"CREATE OPERATOR {F}.{op} (LEFTARG = {left}, RIGHTARG = {right},"
                f" FUNCTION = {F}.{name}_cmp{side});"
            )
    return "\n".join(out)


def _no_text(name: str, q: str, t: rwtypes.RwType) -> str:
    """A map has no cast to a string type (type_inference/cast.rs: ``cast_map`` casts a map
    to a map only), where PostgreSQL would cast a composite through its text: explicit casts
    to ``varchar`` and ``text`` that raise RisingWave's cast error (an assignment finds no
    cast then, as in RisingWave)."""
    out = []
    for target in ("character varying", "text"):
        fn = f"{F}.{name}_{target.split()[-1]}"
        text = quote_literal(
            f'cannot cast type "{t.display()}" to "character varying" in Explicit context'
        )
        out.append(
            f"CREATE FUNCTION {fn}(m {q}) RETURNS {target} LANGUAGE plpgsql IMMUTABLE STRICT"
            f" AS $f$ BEGIN {_chain(text)} END $f$;"
            f"\nCREATE CAST ({q} AS {target}) WITH FUNCTION {fn}({q});"
        )
    return "\n".join(out)


def _key_prefix(t: rwtypes.RwType) -> str:
    """The LIKE pattern of the names of the map types with ``t``'s key type."""
    assert t.elem is not None
    return "map(" + t.elem.display().replace("%", r"\%").replace("_", r"\_") + ",%"


# the map types made in the template: RisingWave's key types with every scalar value type (an
# expression's map type must exist before the statement runs)
_TEMPLATE_KEYS = ("smallint", "integer", "bigint", "varchar")
_TEMPLATE_VALUES = (
    "boolean", "smallint", "integer", "bigint", "real", "double precision", "numeric",
    "varchar", "jsonb", "bytea", "date", "time", "timestamp", "timestamptz", "interval",
)  # fmt: skip
TEMPLATE_TYPES = tuple(f"map({k},{v})" for k in _TEMPLATE_KEYS for v in _TEMPLATE_VALUES)
