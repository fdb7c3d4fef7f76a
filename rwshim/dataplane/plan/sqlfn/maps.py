"""The common map types made in the template database (dataplane/plan/maptype.py
``TEMPLATE_TYPES``): an expression such as ``map_from_key_values(array['a'], array[1])`` or
``MAP {'a': 1}`` names no type, so the map type it makes must exist before the statement runs;
any other map type is made with the table or the cast that names it (typemap.type_ddl)."""

from __future__ import annotations

from rwshim.common import rwtypes
from rwshim.dataplane.plan import maptype, typemap
from rwshim.dataplane.plan.sqlfn.common import register

# registered before the map types, which need them: the struct functions (a map's entry
# struct) and rwfn.to_jsonb (importing a module registers its SQL)
from rwshim.dataplane.plan.sqlfn import jsonb, structs  # noqa: F401  isort: skip

_DONE: list[str] = []
for _text in maptype.TEMPLATE_TYPES:
    for _sql in typemap.type_ddl(rwtypes.parse(_text)):
        if _sql not in _DONE:
            _DONE.append(_sql)

register(";\n".join(_DONE) + ";\n")
