"""Type names in a data-plane statement's text: the one-word names RisingWave accepts that
PostgreSQL spells otherwise (``typemap.QUERY_TYPE_NAMES``), and the operands that reach
``variant``: its composite ``rwfn.variant`` is RisingWave's own name (dataplane/plan/sqlfn/
variant.py), but PostgreSQL reads a string literal or a parameter cast to a composite with
record_in, where RisingWave parses its text as JSON (cast.rs ``cast(varchar) -> variant``,
str_parse): such an operand is given the text cast, in a cast and in a VALUES row inserted
into a variant column (insert.rs cast_on_insert).
"""

from __future__ import annotations

from collections.abc import Sequence

from rwshim.binder.relations import Relation
from rwshim.common import rwtypes
from rwshim.dataplane.plan import tree, typemap
from rwshim.dataplane.plan.splice import Splicer, name_end, string_end


def splice(shape: tree.Shape, sp: Splicer) -> None:
    """The type names of the statement's casts and column definitions."""
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
