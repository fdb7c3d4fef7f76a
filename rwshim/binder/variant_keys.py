"""RisingWave's refusal of ``variant`` as a key (head only): a VARIANT value has only byte-wise
equality and ordering, so no plan may group, deduplicate, order, join or store by one, nested
in a list or struct included (``DataType::contains_variant``, src/common/src/types/mod.rs:
684-700).

RisingWave checks the plan (src/frontend/src/optimizer/variant_key.rs: the shared hint;
plan_visitor/jsonb_stream_key_checker.rs ``StreamKeyChecker::Variant``: the clause named;
optimizer/mod.rs:410-428 ``reject_variant_keys``: batch's ORDER BY;
plan_node/stream_materialize.rs:350-360: a materialized view's ORDER BY is its storage key).
The binder here checks the same positions while it binds, naming the column as the plan's
field does (``t.v`` for a column of relation ``t``): GROUP BY and DISTINCT (the aggregation
group key), a set operation without ALL (batch turns it into an aggregation; a stream's
UNION keeps it as ``field``), ORDER BY with LIMIT (the TopN order key), the ORDER BY of a
batch query (``should not be in the ORDER BY``) or of a materialized view (its storage primary
key, named by the output column), an aggregate's ORDER BY and DISTINCT argument (batch splits a
``count(DISTINCT v)`` into a group key first), a window's PARTITION BY and ORDER BY, and an
equality between two relations of a join (a join key).  A bare VARIANT has no comparison at
all: ``function equal(variant, variant) does not exist``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlglot import exp

from rwshim.binder import types
from rwshim.binder.type_inference import UNKNOWN
from rwshim.common import rwtypes
from rwshim.errors import NoFunction, VariantKeyError

if TYPE_CHECKING:
    from rwshim.binder.bind_expr import ExprBinder
    from rwshim.binder.resolve import OutColumn, Source

# the comparison functions of the operators (expr/type_inference/func.rs names)
_COMPARISONS: dict[type[exp.Expr], str] = {
    exp.EQ: "equal",
    exp.NEQ: "not_equal",
    exp.LT: "less_than",
    exp.LTE: "less_than_or_equal",
    exp.GT: "greater_than",
    exp.GTE: "greater_than_or_equal",
    exp.NullSafeEQ: "is_not_distinct_from",
    exp.NullSafeNEQ: "is_distinct_from",
}

# the variant functions (head: src/expr/impl/src/scalar/variant.rs)
FUNCTIONS = frozenset({"to_variant", "variant_get", "try_variant_get", "variant_typeof"})

# aggregates whose DISTINCT batch planning turns into a group key (splittable: the distinct
# aggregate rewrite of logical_agg.rs; ``array_agg``/``string_agg`` keep the argument)
_SPLIT_DISTINCT = frozenset({"count", "sum", "min", "max", "avg"})


def contains_variant(oid: int) -> bool:
    """Whether a binder type is VARIANT or holds one (mod.rs:684-700)."""
    if oid == rwtypes.VARIANT_OID:
        return True
    elem = types.element_of(oid)
    if elem is not None:
        return contains_variant(elem)
    fields = types.struct_fields(oid)
    if fields is not None:
        return any(contains_variant(f) for _, f in fields)
    text = types.opaque_text(oid)
    return text is not None and "variant" in text.lower()


def field_name(e: exp.Expr) -> str:
    """The plan field's name of a bound expression: ``t.c`` for a column of relation ``t``
    (the scan's fields are named with their table: ``Field::with_prefix``)."""
    while isinstance(e, (exp.Alias, exp.Paren)):
        e = e.this
    if isinstance(e, exp.Column):
        return f"{e.table}.{e.name}" if e.table else e.name
    return e.sql()


def refuse(oid: int, e: exp.Expr, target: str) -> None:
    """``VARIANT column "<f>" should not be in the <target>.`` when ``oid`` holds a VARIANT
    (jsonb_stream_key_checker.rs:39-46 err_msg)."""
    if contains_variant(oid):
        raise VariantKeyError(f'VARIANT column "{field_name(e)}" should not be in the {target}.')


def refuse_storage_key(oid: int, column: str) -> None:
    """A materialized view's ORDER BY becomes its storage primary key
    (stream_materialize.rs:350-360)."""
    if contains_variant(oid):
        raise VariantKeyError(f'VARIANT column "{column}" is part of the storage primary key')


def refuse_batch_order(oid: int, e: exp.Expr) -> None:
    """A batch query's ORDER BY (optimizer/mod.rs:416-425)."""
    if contains_variant(oid):
        raise VariantKeyError(f'VARIANT column "{field_name(e)}" should not be in the ORDER BY.')


def comparison(node: exp.Expr, left: int, right: int) -> None:
    """A bare VARIANT has no comparison function: ``function equal(variant, variant) does not
    exist`` (an untyped literal on the other side is taken as a variant)."""
    if rwtypes.VARIANT_OID not in (left, right):
        return
    fname = _COMPARISONS.get(type(node))
    if fname is None:
        return
    shown = [
        "variant" if o == UNKNOWN else rwtypes.DISPLAY.get(types.external(o), "unknown")
        for o in (left, right)
    ]
    raise NoFunction(f"{fname}({shown[0]}, {shown[1]})")


def distinct_aggregate(name: str, oid: int, e: exp.Expr, streaming: bool) -> None:
    """An aggregate's DISTINCT argument (jsonb_stream_key_checker.rs:139-146)."""
    if not streaming and name in _SPLIT_DISTINCT:
        refuse(oid, e, "aggregation group key")
    else:
        refuse(oid, e, "distinct aggregation argument")


def join_keys(on: exp.Expr, sources: list[Source], start: int, right_start: int) -> None:
    """The equalities of a join condition between a column of the left side
    (``sources[start:right_start]``) and one of the right (``EqJoinPredicate``'s eq keys:
    jsonb_stream_key_checker.rs:150-168)."""
    type_of = {s.alias: {c.name: c.type_oid for c in s.columns} for s in sources}
    left = {s.alias for s in sources[start:right_start]}
    for eq in on.find_all(exp.EQ):
        a, b = eq.this, eq.expression
        if not (isinstance(a, exp.Column) and isinstance(b, exp.Column)):
            continue
        if not (a.table and b.table) or (a.table in left) == (b.table in left):
            continue
        for side in (a, b) if a.table in left else (b, a):
            oid = type_of.get(side.table, {}).get(side.name)
            if oid is not None:
                refuse(oid, side, "join key")


def _first_select_items(node: exp.Expr) -> list[exp.Expr]:
    first = node
    while isinstance(first, (exp.Union, exp.Except, exp.Intersect, exp.Subquery)):
        first = first.this
    return list(first.expressions) if isinstance(first, exp.Select) else []


def set_op_keys(node: exp.Expr, cols: list[OutColumn], streaming: bool) -> None:
    """A set operation without ALL deduplicates its rows by every column: an aggregation in
    batch, the union's ``field`` in a stream (jsonb_stream_key_checker.rs:110-118)."""
    if node.args.get("distinct") is False:
        return
    items = _first_select_items(node)
    union = streaming and isinstance(node, exp.Union)
    for i, c in enumerate(cols):
        e = items[i] if i < len(items) else exp.column(c.name)
        refuse(c.type_oid, e, "field" if union else "aggregation group key")


def distinct_keys(node: exp.Select, items: list[exp.Expr], cols: list[OutColumn]) -> None:
    """``SELECT DISTINCT`` (not ``DISTINCT ON``): every output column is a group key."""
    distinct = node.args.get("distinct")
    if distinct is None or distinct.args.get("on") is not None:
        return
    for item, c in zip(items, cols, strict=True):
        refuse(c.type_oid, item, "aggregation group key")


def group_key(g: exp.Expr, items: list[exp.Expr], cols: list[OutColumn], tx: ExprBinder) -> None:
    """A bound GROUP BY item (an output ordinal or an expression) is a group key."""
    if isinstance(g, exp.Literal):
        n = int(g.this) - 1
        refuse(cols[n].type_oid, items[n], "aggregation group key")
    elif isinstance(g, exp.Column):
        refuse(tx.peek_type(g) or 0, g, "aggregation group key")


def order_keys(
    node: exp.Expr,
    outputs: list[OutColumn],
    tx: ExprBinder,
    streaming: bool,
) -> None:
    """A bound ORDER BY: a TopN's order key with a LIMIT; without one, at the top of a batch
    query its required order, of a materialized view its storage key; below the top it orders
    nothing (the planner drops it)."""
    order = node.args.get("order")
    limit = node.args.get("limit") or node.args.get("fetch")
    # the statement's top query has no parent (or only the parentheses around it)
    top = node.parent is None or (
        isinstance(node.parent, exp.Subquery) and node.parent.parent is None
    )
    if order is None or (limit is None and not top):
        return
    items = _first_select_items(node)
    for o in order.expressions:
        e = o.this
        if isinstance(e, exp.Literal) and not e.is_string and e.this.isdigit():
            n = int(e.this) - 1
            if not 0 <= n < len(outputs):
                continue
            oid, item, name = (
                outputs[n].type_oid,
                items[n] if n < len(items) else e,
                outputs[n].name,
            )
        else:
            oid, item, name = tx.peek_type(e) or 0, e, field_name(e)
        if limit is not None:
            refuse(oid, item, "TopN order key")
        elif streaming:
            refuse_storage_key(oid, name)
        else:
            refuse_batch_order(oid, item)
