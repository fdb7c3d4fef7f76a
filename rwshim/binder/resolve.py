"""Name resolution: relations by the search path, columns by scope, names of output columns.

Relations resolve as RisingWave's ``bind_catalog_relation_by_name`` does
(src/frontend/src/binder/relation/table_or_source.rs:92-260): a named database must exist, a
system schema holds the system catalogs, an unqualified name is looked up along the search path
with ``pg_catalog`` and ``rw_catalog`` implicitly first (src/common/src/session_config/
search_path.rs:64-90), and a job still being created is invisible (table_or_source.rs:169-176,
218-222).  Columns resolve in the innermost scope first, then in correlated outer scopes
(binder/expr/column.rs:96-125, bind_context.rs), a USING/NATURAL join column once, from the
left.  An unaliased select item is named as ``derive_alias`` does (binder/select.rs:706-770),
else ``?column?``.  Nothing here depends on the engine that runs the query.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import msgspec.structs
from sqlglot import exp

from rwshim.binder.context import SYSTEM_SCHEMAS, QueryContext
from rwshim.binder.parse import ident
from rwshim.binder.relations import Relation, RelationSource, RelColumn, RelKind
from rwshim.binder.type_inference import func_name, type_oid_of
from rwshim.common import acl as privileges
from rwshim.common import pgtypes
from rwshim.errors import (
    BindError,
    CatalogNotFound,
    InternalError,
    InternalTableRead,
    InvalidInputSyntax,
    InvalidReference,
    ItemNotFound,
    NotImplementedError_,
    PermissionDenied,
)

UNNAMED_COLUMN = "?column?"


@dataclass(frozen=True, slots=True)
class OutColumn:
    name: str
    type_oid: int  # internal OID; types.external() gives what a client sees


@dataclass(frozen=True, slots=True)
class SystemRelation:
    """A catalog relation: the name of the view rwshim/catalog_path/system_catalogs installs for it
    (the
    lowering reads it) and its typed columns."""

    schema: str
    name: str
    sqlite_name: str
    columns: tuple[OutColumn, ...]


@dataclass(slots=True)
class Source:
    """One FROM item visible in a scope: exposed name and columns."""

    alias: str
    columns: list[OutColumn]
    schema: str | None = None  # for schema-qualified column references
    # columns the lowering reads by another expression than ``alias.name`` (an unnest's
    # element and ordinality)
    refs: dict[str, Callable[[], exp.Expr]] = field(default_factory=dict)
    # a user relation's id and its column names by exposed name (an alias list renames
    # them): the binder notes which columns a query reads (ALTER TABLE ... DROP COLUMN)
    relation_id: int | None = None
    real_names: dict[str, str] | None = None
    # columns found by name that a star leaves out (a changelog CTE's _changelog_row_id, a
    # table's _row_id)
    hidden: frozenset[str] = frozenset()

    def ref(self, name: str) -> exp.Expr:
        """The expression reading column ``name`` of this source."""
        make = self.refs.get(name)
        if make is not None:
            return make()
        return exp.Column(this=ident(name), table=ident(self.alias))


def shown_names(sources: list[Source]) -> list[str]:
    """The names of the sources' columns a star shows, in order: a NATURAL join's common
    names are among them only (binder/relation/join.rs:175-180 leaves hidden ones out)."""
    return [c.name for src in sources for c in src.columns if c.name not in src.hidden]


@dataclass(slots=True)
class Scope:
    parent: Scope | None
    ctes: dict[str, list[OutColumn]] = field(default_factory=dict)
    sources: list[Source] = field(default_factory=list)
    outputs: list[OutColumn] = field(default_factory=list)  # for ORDER BY / GROUP BY aliases
    # USING / NATURAL join columns: name -> alias of the left source that provides it
    using: dict[str, str] = field(default_factory=dict)

    def find_cte(self, name: str) -> list[OutColumn] | None:
        s: Scope | None = self
        while s is not None:
            if name in s.ctes:
                return s.ctes[name]
            s = s.parent
        return None


def rename(cols: list[OutColumn], names: list[str]) -> list[OutColumn]:
    """``cols`` under the names of an alias column list (the rest keep theirs)."""
    if not names:
        return list(cols)
    out = [OutColumn(n, c.type_oid) for c, n in zip(cols, names, strict=False)]
    out.extend(cols[len(names) :])
    return out


def rename_outputs(q: exp.Expr, names: list[str]) -> None:
    """Give a bound query's outputs the names ``names``, in place of an alias column list
    (a derived table's columns are named after the first SELECT of a set operation)."""
    while isinstance(q, (exp.Union, exp.Except, exp.Intersect, exp.Subquery)):
        q = q.this
    if isinstance(q, exp.Select):
        for item, n in zip(q.expressions, names, strict=False):
            if isinstance(item, exp.Alias):
                item.set("alias", ident(n))


def readable(rel: Relation) -> bool:
    """Whether a query may read ``rel``: not a sink or internal table, and a table catalog
    only once its job is created (table_or_source.rs:169-176, 218-222)."""
    if rel.kind in (RelKind.SINK, RelKind.INTERNAL):
        return False
    if rel.kind in (RelKind.SOURCE, RelKind.VIEW):
        return True
    return rel.created


def lookup(
    scope: Scope, schema: str | None, table: str | None, name: str
) -> tuple[Source, OutColumn]:
    """Resolve a column in one scope as RisingWave's BindContext does."""
    if table is not None:
        matches = [
            s
            for s in scope.sources
            if s.alias == table and (schema is None or s.schema in (None, schema))
        ]
        if not matches:
            if not any(c.name == name for s in scope.sources for c in s.columns):
                raise ItemNotFound(f"Invalid column: {name}")
            raise ItemNotFound(f'missing FROM-clause entry for table "{table}"')
        if len(matches) > 1:
            raise InvalidReference(f'table reference "{table}" is ambiguous')
        src = matches[0]
        cols = [c for c in src.columns if c.name == name]
        if not cols:
            if not any(c.name == name for s in scope.sources for c in s.columns):
                raise ItemNotFound(f"Invalid column: {name}")
            raise ItemNotFound(f'missing FROM-clause entry for table "{table}"')
        if len(cols) > 1:
            raise InvalidReference(f'column reference "{name}" is ambiguous')
        return src, cols[0]
    found = [(s, c) for s in scope.sources for c in s.columns if c.name == name]
    if not found:
        raise ItemNotFound(f"Invalid column: {name}")
    if name in scope.using:
        # a USING/NATURAL join column: one column, taken from the left side
        return next(f for f in found if f[0].alias == scope.using[name])
    if len(found) > 1:
        raise InternalError(f"Ambiguous column name: {name}")
    return found[0]


# The grant object a relation is checked as (privilege.rs ObjectCheckItem's PbObject).
_GRANT_KIND = {
    RelKind.TABLE: privileges.TABLE,
    RelKind.MATERIALIZED_VIEW: privileges.TABLE,
    RelKind.INDEX: privileges.TABLE,
    RelKind.INTERNAL: privileges.TABLE,
    RelKind.VIEW: privileges.VIEW,
    RelKind.SOURCE: privileges.SOURCE,
    RelKind.SINK: privileges.SINK,
}


def check_privilege(
    ctx: QueryContext, rel: Relation, action: str, name: str, db_name: str | None = None
) -> None:
    """Binder::check_privilege (binder/relation/table_or_source.rs:472-524), on the path both
    engines share: what a query reads needs SELECT, what DML changes needs its action
    (binder/insert.rs:115-126, update.rs:135-146, delete.rs:78-89); a superuser or the owner
    needs nothing; reading another database also needs CONNECT on it.  ``name`` is the name
    the error shows, ``db_name`` the other database's name.  A context without an ACL (a
    view's definition: security invoker is disabled for views) checks nothing."""
    acl = ctx.acl
    if acl is None or acl.is_super or acl.user_id == rel.owner_id:
        return
    item = privileges.CheckItem(rel.owner_id, action, name, _GRANT_KIND[rel.kind], rel.id)
    privileges.check_privileges(acl, [item])
    other_db = bool(rel.database_id) and rel.database_id != ctx.database_id
    if other_db and not acl.has_privilege(rel.database_id, "CONNECT"):
        raise PermissionDenied(f'permission denied for database "{db_name}"')


def resolve_relation(
    ctx: QueryContext,
    relations: RelationSource,
    system: Callable[[str, str], SystemRelation | None],
    db: str | None,
    schema: str | None,
    name: str,
    *,
    check: bool = True,
) -> Relation | SystemRelation:
    """Find a relation as RisingWave's bind_catalog_relation_by_name does
    (table_or_source.rs:92-260): a named database must exist (and is read across), a
    system schema holds system catalogs, and a table catalog (table, materialized view,
    index) is visible only once created; sinks are not relations a query reads.  A user
    relation found is privilege-checked for reading (``check_privilege``) unless ``check`` is
    False (a name resolved as a value, e.g. ``'t'::regclass``, is not read)."""
    if name.endswith(CHANGELOG_SUFFIX) and len(name) > len(CHANGELOG_SUFFIX):
        base = resolve_relation(
            ctx, relations, system, db, schema, name[: -len(CHANGELOG_SUFFIX)], check=check
        )
        return changelog_of(base)
    found = _find_relation(ctx, relations, system, db, schema, name)
    if check and isinstance(found, Relation):
        check_privilege(ctx, found, "SELECT", found.name, db)
    return found


# the name rwshim.sql.changelog_cte gives a changelog CTE's relation
CHANGELOG_SUFFIX = "@changelog"
# generic/changelog.rs:27-28
CHANGELOG_OP = "changelog_op"
CHANGELOG_ROW_ID = "_changelog_row_id"


# src/common/src/catalog/mod.rs:119, :128
ROW_ID = "_row_id"
RW_TIMESTAMP = "_rw_timestamp"


def hidden_columns(rel: Relation) -> list[OutColumn]:
    """The columns of a user relation a name binds and a star skips (binder/relation/
    mod.rs:408-435, select.rs:371): a changelog CTE's ``_changelog_row_id``; a table's hidden
    ``_row_id`` and its system column ``_rw_timestamp`` (catalog/table_catalog.rs:815-820; a
    materialized view's or index's is refused on rwshim's data plane, plan/rw_timestamp.py)."""
    if rel.changelog:  # (share.rs:74-80)
        return [OutColumn(CHANGELOG_ROW_ID, pgtypes.INT8)]
    if rel.kind != RelKind.TABLE:
        return []
    out = [OutColumn(ROW_ID, pgtypes.INT8) for c in rel.columns if c.hidden and c.name == ROW_ID]
    return [*out, OutColumn(RW_TIMESTAMP, pgtypes.TIMESTAMPTZ)]


def changelog_of(base: Relation | SystemRelation) -> Relation:
    """A changelog CTE's relation (``WITH p AS changelog FROM t``): the table's or source's
    columns, hidden ones hidden, then ``changelog_op`` int2 and the hidden
    ``_changelog_row_id`` serial (binder/relation/share.rs:41-84; a view or catalog relation
    is refused there).  ``changelog`` marks it: the data plane reads it from the log it keeps
    per materialized view (dataplane/plan/changelogs.py)."""
    if not isinstance(base, Relation) or base.kind not in (
        RelKind.TABLE,
        RelKind.SOURCE,
        RelKind.MATERIALIZED_VIEW,
    ):
        raise BindError("Change log CTE must be a table or source")
    if any(c.name == CHANGELOG_OP for c in base.columns if not c.hidden):
        # select.rs:316-324 (refused there when the select list holds both)
        raise BindError(
            "The source table of changelog cannot have `changelog_op`, please rename it first"
        )
    cols = (
        *base.columns,
        RelColumn(CHANGELOG_OP, pgtypes.INT2, rw_type="smallint"),
        RelColumn(CHANGELOG_ROW_ID, pgtypes.INT8, hidden=True, rw_type="serial"),
    )
    return msgspec.structs.replace(base, columns=cols, changelog=True)


def _find_relation(
    ctx: QueryContext,
    relations: RelationSource,
    system: Callable[[str, str], SystemRelation | None],
    db: str | None,
    schema: str | None,
    name: str,
) -> Relation | SystemRelation:
    db_id = ctx.database_id
    if db is not None and db != ctx.database:
        found = relations.database_id(db)
        if found is None:
            raise CatalogNotFound("database", db)
        db_id = found
    if schema is not None:
        if schema in SYSTEM_SCHEMAS:
            sysrel = system(schema, name)
            if sysrel is not None:
                return sysrel
            raise NotImplementedError_(
                f"{schema}.{name} is not supported, please use `SHOW` commands for now.\n"
                "`SHOW TABLES`,\n`SHOW MATERIALIZED VIEWS`,\n`DESCRIBE <table>`,\n"
                "`SHOW COLUMNS FROM [table]`\n",
                "Tracking issue: https://github.com/risingwavelabs/risingwave/issues/1695",
            )
        rel = relations.relation(db_id, schema, name)
        if rel is not None and readable(rel):
            return rel
        refuse_internal_read(relations, db_id, schema, name)
        raise CatalogNotFound("table or source", name)
    for path in ctx.resolved_path():
        if path in SYSTEM_SCHEMAS:
            sysrel = system(path, name)
            if sysrel is not None:
                return sysrel
            continue
        if not relations.schema_exists(db_id, path):
            continue
        rel = relations.relation(db_id, path, name)
        if rel is not None and readable(rel):
            return rel
        refuse_internal_read(relations, db_id, path, name)
    raise CatalogNotFound("table or source", name)


def _is_internal(relations: RelationSource, db_id: int, schema: str, name: str) -> bool:
    """Whether ``schema.name`` is an internal state table (``relation`` leaves them out; not
    every RelationSource knows them: StoreRelations does)."""
    internal: Callable[[int, str, str], bool] | None = getattr(relations, "internal_table", None)
    return internal is not None and internal(db_id, schema, name)


def _refuse_internal_dml(relations: RelationSource, db_id: int, schema: str, name: str) -> None:
    """check_for_dml (table_or_source.rs:706-728): an internal table is found as a created
    table, then refused."""
    if _is_internal(relations, db_id, schema, name):
        raise InvalidInputSyntax(f'cannot change internal table "{name}"')


def refuse_internal_read(relations: RelationSource, db_id: int, schema: str, name: str) -> None:
    """RisingWave binds a job's internal state table like any table and a batch query reads
    its rows (table_or_source.rs:175-179; e2e_test/commands/internal_table.mjs reads them
    so).  rwshim lists the state tables of the fragments it models (engine/fragments.py) but
    keeps no operator state: a materialized view's rows are its query computed again at
    barriers (dataplane/epochs.py).  So a read of one is refused, saying why, rather than
    answered with rows RisingWave would not give or with a not-found error for a relation
    the catalogs list."""
    if _is_internal(relations, db_id, schema, name):
        raise InternalTableRead(name)


def resolve_dml_target(
    ctx: QueryContext,
    relations: RelationSource,
    schema: str | None,
    name: str,
    is_insert: bool,
    *,
    action: str | None = None,
) -> Relation:
    """The table an INSERT / UPDATE / DELETE changes, as RisingWave's bind_table and
    check_for_dml find it: only a created table (``get_created_table_by_name``,
    src/frontend/src/catalog/root_catalog.rs:732-739); a materialized view, index or internal
    table is refused, and an append-only table takes only INSERT
    (binder/relation/table_or_source.rs:706-737).  Then the statement's privilege on it:
    ``action`` ('INSERT', 'UPDATE' or 'DELETE'; INSERT when None and ``is_insert``) — a caller
    that changes rows must name its action, since UPDATE and DELETE need different ones."""
    rel: Relation | None = None
    if schema is not None:
        if schema not in SYSTEM_SCHEMAS and not relations.schema_exists(ctx.database_id, schema):
            raise CatalogNotFound("schema", schema)
        rel = relations.relation(ctx.database_id, schema, name)
        if rel is None:
            _refuse_internal_dml(relations, ctx.database_id, schema, name)
    else:
        for path in ctx.resolved_path():
            if path in SYSTEM_SCHEMAS or not relations.schema_exists(ctx.database_id, path):
                continue
            rel = relations.relation(ctx.database_id, path, name)
            if rel is not None and _is_table_catalog(rel) and rel.created:
                break
            rel = None
            _refuse_internal_dml(relations, ctx.database_id, path, name)
    if rel is None or not _is_table_catalog(rel) or not rel.created:
        raise CatalogNotFound("table", name)
    if rel.kind == RelKind.MATERIALIZED_VIEW:
        raise InvalidInputSyntax(f'cannot change materialized view "{name}"')
    if rel.kind == RelKind.INDEX:
        raise InvalidInputSyntax(f'cannot change index "{name}"')
    if rel.kind == RelKind.INTERNAL:
        raise InvalidInputSyntax(f'cannot change internal table "{name}"')
    if rel.append_only and not is_insert:
        raise BindError("append-only table does not support update or delete")
    wanted = action or ("INSERT" if is_insert else None)
    if wanted is not None:
        check_privilege(ctx, rel, wanted, name)
    return rel


def _is_table_catalog(rel: Relation) -> bool:
    """Relations RisingWave keeps as TableCatalog (tables, MVs, indexes, internal tables)."""
    return rel.kind in (RelKind.TABLE, RelKind.MATERIALIZED_VIEW, RelKind.INDEX, RelKind.INTERNAL)


# sqlglot models these operators as functions; RisingWave names them like any operator
_OPERATOR_FUNCS = (
    exp.JSONExtract,
    exp.JSONExtractScalar,
    exp.ArrayContainsAll,
    exp.ArrayContainedBy,
    exp.SimilarTo,
)


def derive_alias(node: exp.Expr) -> str | None:
    """RisingWave's name for an unaliased select item (binder/select.rs:706-724)."""
    if isinstance(node, _OPERATOR_FUNCS):
        return None
    if isinstance(node, exp.Column):
        if isinstance(node.this, exp.Star):
            return None
        return node.name
    if isinstance(node, exp.Dot):
        if isinstance(node.this, exp.Paren) and isinstance(node.expression, exp.Identifier):
            return node.expression.name  # ``(s).field``: Expr::FieldIdentifier
        return derive_alias(node.expression)
    if isinstance(node, (exp.Cast, exp.TryCast)):
        inner = derive_alias(node.this)
        if inner is not None:
            return inner
        return type_alias(node.args["to"])
    if isinstance(node, exp.Extract):
        return "extract"
    if isinstance(node, exp.Case):
        return "case"
    if isinstance(node, exp.Interval):
        return "interval"
    if isinstance(node, exp.Array):
        return "array"
    if isinstance(node, exp.Tuple):
        return "row"
    if isinstance(node, exp.Bracket):
        return derive_alias(node.this)
    if isinstance(node, exp.Paren):
        return derive_alias(node.this)
    if isinstance(node, (exp.Collate,)):
        return None
    if isinstance(node, exp.Window):
        return derive_alias(node.this)
    if isinstance(node, (exp.Filter, exp.IgnoreNulls)):
        return derive_alias(node.this)
    if isinstance(node, exp.Anonymous):
        return node.name.lower()
    if isinstance(node, exp.Func):
        return func_name(node)
    return None


def type_alias(to: exp.Expr) -> str | None:
    """RisingWave's data_type_to_alias (binder/select.rs:728-770): the type as written for
    char/varchar/text/uuid/custom names, else the PostgreSQL type name; arrays by element."""
    while isinstance(to, exp.DataType) and to.this == exp.DataType.Type.ARRAY and to.expressions:
        to = to.expressions[0]
    if isinstance(to, exp.ObjectIdentifier):
        return to.name.lower()
    if isinstance(to, exp.DataType):
        written = {
            exp.DataType.Type.CHAR: "bpchar",
            exp.DataType.Type.NCHAR: "bpchar",
            exp.DataType.Type.TEXT: "text",
            exp.DataType.Type.UUID: "uuid",
            exp.DataType.Type.NAME: "name",
        }.get(to.this)
        if written is not None:
            return written
        if to.this == exp.DataType.Type.USERDEFINED:
            kind = to.args.get("kind")
            return kind.name if isinstance(kind, exp.Expr) else str(kind or "") or None
    t = pgtypes.BY_OID.get(type_oid_of(to))
    return t.name if t is not None else None


def from_item_scope(scope: Scope) -> Scope | None:
    """The outer scope a (non-LATERAL) FROM item's own query binds in: the query's outer
    scope, with the CTEs of the query's WITH visible, as they are to its whole FROM clause
    (binder/relation/mod.rs binds a table name against the context's CTEs first, the
    subquery in the same context: e2e_test/streaming/bug_fixes/issue_15198.slt's TUMBLE
    over a CTE)."""
    if not scope.ctes:
        return scope.parent
    return Scope(scope.parent, ctes=dict(scope.ctes))
