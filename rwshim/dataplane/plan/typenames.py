"""Type names in a data-plane statement's text: the one-word names RisingWave accepts that
PostgreSQL spells otherwise (``typemap.QUERY_TYPE_NAMES``), and the operands that reach
``variant``: its composite ``rwfn.variant`` is RisingWave's own name (dataplane/plan/sqlfn/
variant.py), but PostgreSQL reads a string literal or a parameter cast to a composite with
record_in, where RisingWave parses its text as JSON (cast.rs ``cast(varchar) -> variant``,
str_parse): such an operand is given the text cast, in a cast and in a VALUES row inserted
into a variant column (insert.rs cast_on_insert).  ``to_variant(ROW(a, b))`` is RisingWave's
struct of fields ``f1``, ``f2``... (variant.rs append_struct over ``StructType::unnamed``):
PostgreSQL's anonymous record has no field names to read them by, so the row is spliced as
the variant object of its fields (``rwfn.variant_object``).
"""

from __future__ import annotations

from collections.abc import Sequence

from rwshim.binder.relations import Relation
from rwshim.common import rwtypes
from rwshim.dataplane.plan import tree, typemap
from rwshim.dataplane.plan.checks import nodes
from rwshim.dataplane.plan.route import Routed
from rwshim.dataplane.plan.splice import SpliceError, Splicer, name_end, string_end
from rwshim.dataplane.plan.structs import field_spans


def splice(routed: Routed, sp: Splicer) -> None:
    """The type names of the statement's casts and column definitions; ``to_variant`` of an
    anonymous row."""
    shape = routed.shape
    assert shape is not None
    if "to_variant" in shape.func_names:
        maps: set[int] = set()
        todo = list(routed.prepassed.map_literals)
        while todo:
            lit = todo.pop()
            maps.add(lit.start)
            todo.extend(lit.inner)
        _to_variant_rows(shape, sp, maps)
    for tr in shape.type_refs:
        if len(tr.names) != 1 or tr.location < 0:
            continue
        new = typemap.QUERY_TYPE_NAMES.get(tr.names[0])
        if new is not None:
            end = name_end(shape.text, tr.location, 1)
            sp.replace(tr.location, end, new)
        if tr.names[0] != "variant":
            continue
        if tr.literal >= 0:
            sp.insert(string_end(shape.text, tr.literal), "::text")
        elif tr.param_end >= 0:
            sp.insert(tr.param_end, "::text")


def inserted_variants(shape: tree.Shape, rel: Relation, cols: Sequence[str], sp: Splicer) -> None:
    """A string literal or a parameter inserted into a variant column is parsed as JSON
    (insert.rs cast_on_insert: ``cast(varchar) -> variant``, cast.rs str_parse); PostgreSQL
    would read it with the composite's record_in (dataplane/plan/sqlfn/variant.py)."""
    info = shape.insert
    if info is None or not info.values_rows:
        return
    by_name = {c.name: c for c in rel.columns}
    targets = {
        i
        for i, name in enumerate(cols)
        if name in by_name and by_name[name].rw_type.strip().lower() == "variant"
    }
    for row in info.values_rows:
        for i in targets & set(range(len(row))):
            value = row[i]
            const, param = value.get("A_Const"), value.get("ParamRef")
            if const is not None and "sval" in const and const.get("location", -1) >= 0:
                end = string_end(shape.text, const["location"])
            elif param is not None and param.get("location", -1) >= 0:
                end = param["location"] + 1 + len(str(param.get("number", 0)))
            else:
                continue
            sp.insert(end, f"::text::{typemap.pg_type(rwtypes.parse('variant'))}")


def _to_variant_rows(shape: tree.Shape, sp: Splicer, maps: set[int]) -> None:
    """``to_variant(ROW(a, b))``: RisingWave's struct ``{f1, f2}`` of the fields' own types
    (variant.rs append_struct); PostgreSQL's anonymous record has neither names nor a way to
    read its fields by them, so the row is spliced as the variant object of its fields
    (``rwfn.variant_object``, dataplane/plan/sqlfn/variant.py), rows within it likewise."""
    for call in nodes(shape, "FuncCall"):
        names = [n.get("String", {}).get("sval") for n in call.get("funcname") or []]
        args = call.get("args") or []
        if names == ["to_variant"] and len(args) == 1 and _written_row(args[0], maps):
            _variant_object(shape.text, args[0]["RowExpr"], sp, maps)


def _written_row(node: dict[str, object], maps: set[int]) -> bool:
    """A row constructor as written (``ROW(...)``, ``(a, b)``), not a ``MAP {...}`` literal,
    which the parser reads as one (sql/map_literals.py) and the map splice rebuilds."""
    row = node.get("RowExpr")
    at = row.get("location", -1) if isinstance(row, dict) else -1
    return isinstance(at, int) and at >= 0 and at not in maps


def _variant_object(text: bytes, row: dict[str, object], sp: Splicer, maps: set[int]) -> None:
    at = row.get("location", -1)
    args = row.get("args") or []
    if not isinstance(at, int) or not isinstance(args, list) or not args:
        raise SpliceError("no row")
    spans = field_spans(text, at)
    if len(spans) != len(args):
        raise SpliceError(f"no row of {len(args)} fields at {at}")
    sp.replace(at, text.find(b"(", at) + 1, "rwfn.variant_object(pg_catalog.jsonb_build_array(")
    for i, ((start, stop), a) in enumerate(zip(spans, args, strict=True)):
        if isinstance(a, dict) and _written_row(a, maps):
            sp.insert(start, f"pg_catalog.jsonb_build_array('f{i + 1}', (")
            _variant_object(text, a["RowExpr"], sp, maps)
            sp.insert(stop, ").tree::jsonb)")
        else:
            sp.insert(start, f"pg_catalog.jsonb_build_array('f{i + 1}', rwfn.variant_node(")
            sp.insert(stop, "))")
    sp.insert(text.find(b")", spans[-1][1]) + 1, ")")
