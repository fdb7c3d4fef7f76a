"""Two relations of one statement with the same name in different schemas (``s1.users`` and
``s2.users``): each gets an alias of its own in the PostgreSQL text.

RisingWave's bind context keys a relation by (schema, name) (``src/frontend/src/binder/
bind_context.rs:411-459``, ``resolve_relation_range``): ``FROM s1.users, s2.users`` binds, and
``s1.users.id`` names the first.  The rewriter splices each reference as ``rw."t<id>" AS
users``, which PostgreSQL refuses at one level ("table name specified more than once") and,
across levels, resolves ``s1.users.id`` (spliced ``users.id``) to the innermost ``users``: a
correlated ``EXISTS (SELECT 1 FROM s2.users WHERE s2.users.id = s1.users.id)`` then compared
the inner row with itself, a silently wrong count.

So a reference (not a DML target, whose alias ``dml`` keeps) whose name another relation of
the statement shares is aliased ``"<schema>.<name>"`` (``RelRef.rename``; the rewriter's
``s.t.c`` paths already splice the reference's alias), and every ``users.c`` is resolved as
RisingWave resolves it, innermost level first, an explicit alias before a table name
(``bind_context.rs:431-443``): one candidate gets its alias spliced, two are
``table reference "users" is ambiguous`` (``bind_context.rs:452-455``).
"""

from __future__ import annotations

from collections.abc import Callable

from rwshim.dataplane.plan import tree
from rwshim.dataplane.plan.names import quote_ident as qi
from rwshim.dataplane.plan.splice import Splicer, name_end
from rwshim.errors import InvalidReference


def rename(shape: tree.Shape, relation_of: Callable[[tree.RelRef], object | None]) -> bool:
    """Give colliding references their own aliases; whether any was given."""
    groups: dict[str, dict[object, list[tree.RelRef]]] = {}
    for ref in shape.refs:
        if ref.cte is not None or ref.window or ref.alias is not None:
            continue
        rel = relation_of(ref)
        key: object = (getattr(rel, "schema", None), ref.name) if rel is not None else id(ref)
        groups.setdefault(ref.name, {}).setdefault(key, []).append(ref)
    renamed = False
    for by_rel in groups.values():
        if len(by_rel) < 2:
            continue
        for key, refs in by_rel.items():
            for ref in refs:
                if ref.target is not None:
                    continue
                schema = key[0] if isinstance(key, tuple) and key[0] else None
                ref.rename = f"{schema}.{ref.name}" if schema else f"{ref.name}#{id(ref)}"
                renamed = True
    return renamed


def splice_short_paths(shape: tree.Shape, text: bytes, sp: Splicer) -> None:
    """``users.c`` -> the alias of the ``users`` it names (after ``rename``)."""
    for path in shape.short_paths:
        ref = _resolve(path.level, path.fields[0])
        if ref is not None and ref.rename is not None and path.location >= 0:
            sp.replace(path.location, name_end(text, path.location, 1), qi(ref.rename))


def _resolve(level: tree.Level | None, name: str) -> tree.RelRef | None:
    """The renamed reference a one-part qualifier names, or None when it names something
    else (an alias, a subquery, a CTE, a relation of its own name)."""
    while level is not None:
        aliased: list[object] = []
        base: list[tree.RelRef] = []
        for item in _items(level.items):
            if isinstance(item, tree.RelRef) and item.alias is None and item.cte is None:
                if item.name == name:
                    base.append(item)
            elif _alias(item) == name:
                aliased.append(item)
        if aliased:
            if len(aliased) > 1:
                raise InvalidReference(f'table reference "{name}" is ambiguous')
            return None
        if base:
            if len(base) > 1:
                raise InvalidReference(f'table reference "{name}" is ambiguous')
            return base[0]
        level = level.parent
    return None


def _items(items: list[tree.FromItem]) -> list[tree.FromItem]:
    out: list[tree.FromItem] = []
    for item in items:
        out.append(item)
        if isinstance(item, tree.JoinItem) and item.alias is None:
            out.extend(_items([item.left, item.right]))
    return out


def _alias(item: tree.FromItem) -> str | None:
    if isinstance(item, tree.RelRef):
        return item.exposed  # an alias, or a CTE's name
    if isinstance(item, tree.WindowItem):
        return item.alias if item.alias is not None else item.input.parts[-1]
    if isinstance(item, tree.FunctionItem):
        if item.alias is not None:
            return item.alias
        return item.names[0][-1] if len(item.names) == 1 and item.names[0] else None
    return getattr(item, "alias", None)
