"""QueryEngine: the read path and DML over the store's SQLite connection.

``describe`` types a statement without running it, ``execute`` runs it, ``analyze`` binds the
query of a CREATE MATERIALIZED VIEW / VIEW / SINK AS / TABLE AS.  Translations are cached by
(statement text, database, search path, user, parameter types) together with the prepared
SQLite text, so a repeated statement costs one dictionary lookup before SQLite runs it; the
cache is dropped whenever the catalog changes (``invalidate``).

DML follows RisingWave's binder: only created tables accept it
(``get_created_table_by_name``, src/frontend/src/catalog/root_catalog.rs:732-739), a
materialized view or index is refused by ``check_for_dml``
(src/frontend/src/binder/relation/table_or_source.rs:706-737), and a table with a primary key
overwrites the row with the same key (``on_conflict.unwrap_or(OnConflict::UpdateFull)`` =>
``ConflictBehavior::Overwrite``, src/frontend/src/handler/create_table.rs:696-697).
"""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

from rwshim import pgtypes
from rwshim.errors import (
    BindError,
    BindExprError,
    CatalogNotFound,
    InvalidInputSyntax,
    ItemNotFound,
    NotImplementedError_,
    RwError,
)
from rwshim.query import types
from rwshim.query.catalog import RELATIONS
from rwshim.query.catalog import install as install_catalog_views
from rwshim.query.context import SYSTEM_SCHEMAS, QueryContext
from rwshim.query.functions import FunctionState
from rwshim.query.relations import Relation, RelationSource, RelKind
from rwshim.query.sqlite import casts
from rwshim.query.sqlite.install import install
from rwshim.results import Column, Outcome

ROW_ID = "_row_id"
_BIND_RE = re.compile(r"\?(\d+)")

if TYPE_CHECKING:
    import sqlglot
    from sqlglot import exp

    from rwshim.query import bind_expr as bex
    from rwshim.query import binder as bnd
    from rwshim.query import parse as prs
    from rwshim.query import resolve as res
    from rwshim.query.sqlite import lowering as sqlite_lowering
else:

    class _Lazy(ModuleType):
        """Stands for a module until first touched: sqlglot (with the binder over it) costs
        more than half of start-up, and ``SELECT 1`` (the constant fast path) needs neither."""

        def __getattr__(self, name: str) -> Any:
            return getattr(_load_read_path()[self.__name__], name)

    sqlglot = _Lazy("sqlglot")
    exp = _Lazy("exp")
    bnd = _Lazy("bnd")
    prs = _Lazy("prs")
    res = _Lazy("res")
    bex = _Lazy("bex")
    sqlite_lowering = _Lazy("sqlite_lowering")


def _load_read_path() -> dict[str, ModuleType]:
    """Import sqlglot and the binder and put them in place of the lazy stand-ins."""
    import sqlglot as sqlglot_mod

    from rwshim.query import bind_expr as bex_mod
    from rwshim.query import binder as bnd_mod
    from rwshim.query import parse as prs_mod
    from rwshim.query import resolve as res_mod
    from rwshim.query.sqlite import lowering as lowering_mod

    mods = {
        "bex": bex_mod,
        "sqlite_lowering": lowering_mod,
        "sqlglot": sqlglot_mod,
        "exp": sqlglot_mod.exp,
        "bnd": bnd_mod,
        "prs": prs_mod,
        "res": res_mod,
    }
    globals().update(mods)
    return mods


@dataclass(frozen=True, slots=True)
class Description:
    """Parameter OIDs and result columns (None = the statement returns no rows)."""

    param_oids: list[int]
    columns: list[Column] | None


@dataclass(frozen=True, slots=True)
class Analysis:
    """The output columns of a CREATE ... AS query and the user relations it reads."""

    columns: list[res.OutColumn]
    upstreams: list[int]


@dataclass(slots=True)
class _Prepared:
    kind: str  # "select" or "insert"/"update"/"delete"
    sql: str
    columns: list[res.OutColumn]
    param_oids: list[int]
    # how many parameters the SQLite text binds (its highest ?n)
    nbind: int = 0
    decoders: list[Callable[[object], object]] = field(default_factory=list)
    # DML
    target: Relation | None = None
    insert_columns: list[str] = field(default_factory=list)
    source_oids: list[int] = field(default_factory=list)
    returning_sql: str = ""
    # ``columns`` as a client sees them, built once: handing back the same list for every
    # execution lets ``results.row_encoder`` find its encoder by identity
    client_columns: list[Column] = field(default_factory=list)


def column_of(c: res.OutColumn) -> Column:
    oid = types.external(c.type_oid)
    return Column(c.name, oid, pgtypes.type_size(oid))


def _decoder(oid: int) -> Callable[[object], object]:
    ext = types.external(oid)
    if oid == types.REGTYPE_TAG:
        return lambda v: None if v is None else types.format_type_name(int(v))  # type: ignore[call-overload]
    return lambda v: types.decode(v, ext)


class QueryEngine:
    """SELECT, VALUES, WITH, INSERT, UPDATE and DELETE for one store connection."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        relations: RelationSource,
        *,
        version: str | None = None,
        clock: Callable[[], dt.datetime] | None = None,
        install_catalog: bool = True,
    ) -> None:
        self.conn = conn
        self.relations = relations
        self.state = FunctionState()
        if version is not None:
            self.state.version = version
        if clock is not None:
            self.state.now = clock
        self.state.schema_exists = relations.schema_exists
        install(conn, self.state)
        if install_catalog:
            # the catalog relations as TEMP views (they call the functions registered above)
            install_catalog_views(conn)
        conn.execute("PRAGMA case_sensitive_like = ON")
        self._functions = frozenset(
            str(r[0]).lower() for r in conn.execute("PRAGMA function_list").fetchall()
        )
        self._cache: dict[tuple[object, ...], _Prepared] = {}
        # catalog changes invalidate the cache even if nobody calls invalidate(): checked
        # (with the source's fingerprint, when it has one) whenever the connection has written
        self._seen_changes = -1
        self._fingerprint: object = None
        # built when the binder first needs it (building it imports the binder)
        self._system: dict[tuple[str, str], res.SystemRelation] | None = None

    def _load_system(self) -> dict[tuple[str, str], res.SystemRelation]:
        self._system = system = {
            key: res.SystemRelation(
                rel.schema,
                rel.name,
                rel.sqlite_name,
                tuple(res.OutColumn(c.name, c.type_oid) for c in rel.columns),
            )
            for key, rel in RELATIONS.items()
        }
        return system

    def _system_relation(self, schema: str, name: str) -> res.SystemRelation | None:
        system = self._system
        if system is None:
            system = self._load_system()
        return system.get((schema, name))

    def row_count(self, relation_id: int) -> int:
        """Rows a relation holds now (a materialized view or view: rows of its query), for
        the engine's backfill model (``Engine(row_count=...)``); 0 if it cannot be read."""
        locate = getattr(self.relations, "locate", None)
        found = locate(relation_id) if locate is not None else None
        if found is None:
            return 0
        db_id, schema, name = found
        ident = '"' + name.replace('"', '""') + '"'
        sch = '"' + schema.replace('"', '""') + '"'
        ctx = QueryContext(db_id, "", 0, "", search_path=(schema,))
        saved = self.state.ctx
        try:
            out = self.execute(f"SELECT count(*) FROM {sch}.{ident}", (), ctx)
            rows = list(out.rows)
        except RwError:
            return 0
        finally:
            self.state.ctx = saved
        return int(rows[0][0]) if rows else 0  # type: ignore[call-overload]

    def use_context(self, ctx: QueryContext) -> None:
        """Set the context the catalog views' functions read, for callers that query the
        views directly on the connection (SHOW / DESCRIBE)."""
        self.state.ctx = ctx

    def take_settings(self) -> list[tuple[str, str]]:
        """``set_config(name, value, is_local)`` calls of the last statement, for the session
        to apply to its variables (then forgotten)."""
        out = list(self.state.settings)
        self.state.settings.clear()
        return out

    def invalidate(self) -> None:
        """Forget cached translations (call after any catalog change)."""
        self._cache.clear()
        self._system = None

    # --- public API ------------------------------------------------------------------------

    def _describe_impl(
        self, sql_text: str, param_oids: Sequence[int], ctx: QueryContext
    ) -> Description:
        """Parameter types (unknown ones inferred) and result columns of a statement."""
        prep = self._prepare(sql_text, list(param_oids), ctx)
        cols = prep.client_columns if prep.kind == "select" or prep.columns else None
        if prep.kind != "select" and not prep.returning_sql:
            cols = None
        return Description([types.external(o) for o in prep.param_oids], cols)

    def _analyze_impl(self, query_text: str, ctx: QueryContext) -> Analysis:
        """Bind the query of CREATE MATERIALIZED VIEW/VIEW/SINK AS/TABLE AS (``query_text`` is
        the query alone); output names follow RisingWave, unnamed expressions are None-free
        ``?column?``.  Use ``check_mv_columns`` for the MV alias rule."""
        tree = prs.parse(query_text)
        b = self._binder(ctx, [])
        cols = b.query(tree, None)
        return Analysis(cols, b.upstreams)

    def _check_mv_columns_impl(
        self, query_text: str, ctx: QueryContext, column_names: Sequence[str] = ()
    ) -> Analysis:
        """``analyze`` plus RisingWave's CREATE MATERIALIZED VIEW naming rules: every select
        item without a derivable name needs an alias (create_mv.rs:80-98) and names must be
        unique (``column "<n>" specified more than once``)."""
        tree = prs.parse(query_text)
        first = tree
        while isinstance(first, (exp.Union, exp.Except, exp.Intersect, exp.Subquery)):
            first = first.this
        if not column_names and isinstance(first, exp.Select):
            for i, item in enumerate(first.expressions):
                if isinstance(item, (exp.Alias, exp.Star)) or (
                    isinstance(item, exp.Column) and isinstance(item.this, exp.Star)
                ):
                    continue
                if res.derive_alias(item) is None:
                    raise BindError(
                        f"An alias must be specified for the {_ordinal(i + 1)} expression "
                        "(counting from 1) in result relation"
                    )
        analysis = self.analyze(query_text, ctx)
        cols = analysis.columns
        if column_names:
            if len(column_names) > len(cols):
                raise BindError(
                    f"too many column names were specified: {len(column_names)} > {len(cols)}"
                )
            cols = res.rename(cols, list(column_names))
        seen: set[str] = set()
        for c in cols:
            if c.name in seen:
                raise InvalidInputSyntax(f'column "{c.name}" specified more than once')
            seen.add(c.name)
        return Analysis(cols, analysis.upstreams)

    def _execute_impl(
        self,
        sql_text: str,
        params: Sequence[object],
        ctx: QueryContext,
        param_oids: Sequence[int] = (),
    ) -> Outcome:
        """Run a statement; rows are decoded lazily into Python values for their OIDs."""
        oids = list(param_oids) or [0] * len(params)
        prep = self._prepare(sql_text, oids, ctx)
        args = [encode_param(v, o) for v, o in zip(params, prep.param_oids, strict=False)]
        if len(args) < len(prep.param_oids):
            raise RwError(
                f"Protocol error: bind message supplies {len(args)} parameters, but prepared "
                f"statement requires {len(prep.param_oids)}"
            )
        self._begin(ctx)
        if prep.kind == "select":
            cur = self._run(prep.sql, args[: prep.nbind])
            return Outcome(
                "SELECT",
                prep.client_columns,
                self._rows(cur, prep.decoders),
                count_rows=True,
            )
        return self._dml(prep, args)

    # --- public entry points: every failure is an RwError ------------------------------

    def describe(self, sql_text: str, param_oids: Sequence[int], ctx: QueryContext) -> Description:
        """Parameter types (unknown ones inferred) and result columns of a statement."""
        return _guarded(lambda: self._describe_impl(sql_text, param_oids, ctx))

    def analyze(self, query_text: str, ctx: QueryContext) -> Analysis:
        """Output columns and upstream relation ids of the query of CREATE MATERIALIZED VIEW /
        VIEW / SINK AS / TABLE AS (``query_text`` is the query alone)."""
        return _guarded(lambda: self._analyze_impl(query_text, ctx))

    def check_mv_columns(
        self, query_text: str, ctx: QueryContext, column_names: Sequence[str] = ()
    ) -> Analysis:
        """``analyze`` plus CREATE MATERIALIZED VIEW's naming rules: an alias for every item
        without a derivable name (create_mv.rs:80-98), no name twice; ``column_names`` is the
        optional column list of the CREATE."""
        return _guarded(lambda: self._check_mv_columns_impl(query_text, ctx, column_names))

    def execute(
        self,
        sql_text: str,
        params: Sequence[object],
        ctx: QueryContext,
        param_oids: Sequence[int] = (),
    ) -> Outcome:
        """Run a statement; rows are decoded lazily into Python values for their OIDs (an
        error while rows are produced is raised, as an RwError, by the row iterator)."""
        return _guarded(lambda: self._execute_impl(sql_text, params, ctx, param_oids))

    # --- internals ---------------------------------------------------------------------------

    def _begin(self, ctx: QueryContext) -> None:
        self.state.ctx = ctx
        self.state.error = None
        self.state.settings.clear()
        self.state.statement_time = self.state.now()

    def _binder(self, ctx: QueryContext, param_oids: list[int]) -> bnd.Binder:
        lowering = sqlite_lowering.SqliteLowering(self._functions)
        return bnd.Binder(ctx, self.relations, self._system_relation, lowering, param_oids)

    def _check_catalog(self) -> None:
        changes = self.conn.total_changes
        if changes == self._seen_changes:
            return
        self._seen_changes = changes
        fingerprint = getattr(self.relations, "fingerprint", None)
        if fingerprint is None:
            return
        current = fingerprint()
        if current != self._fingerprint:
            self._fingerprint = current
            self._cache.clear()

    def _prepare(self, sql_text: str, param_oids: list[int], ctx: QueryContext) -> _Prepared:
        self._check_catalog()
        key = (sql_text, ctx.cache_key, tuple(param_oids))
        prep = self._cache.get(key)
        if prep is not None:
            return prep
        self.state.ctx = ctx
        if not param_oids and (prep := _constant_select(sql_text)) is not None:
            prep.client_columns = [column_of(c) for c in prep.columns]
            self._cache[key] = prep
            return prep
        tree = _unparenthesize(prs.parse(sql_text))
        if isinstance(tree, exp.Insert):
            prep = self._prepare_insert(tree, param_oids, ctx)
        elif isinstance(tree, exp.Update):
            prep = self._prepare_update(tree, param_oids, ctx)
        elif isinstance(tree, exp.Delete):
            prep = self._prepare_delete(tree, param_oids, ctx)
        elif isinstance(
            tree, (exp.Select, exp.Union, exp.Except, exp.Intersect, exp.Values, exp.Subquery)
        ):
            b = self._binder(ctx, param_oids)
            bound = b.bind_select(tree)
            prep = _Prepared("select", bound.sql, bound.columns, bound.param_oids)
        else:
            raise NotImplementedError_(f"statement {type(tree).__name__} on the read path")
        prep.decoders = [_decoder(c.type_oid) for c in prep.columns]
        prep.client_columns = [column_of(c) for c in prep.columns]
        prep.nbind = max((int(m) for m in _BIND_RE.findall(prep.sql)), default=0)
        if len(self._cache) > 2048:
            self._cache.clear()
        self._cache[key] = prep
        return prep

    def _run(self, sql: str, args: Sequence[object]) -> sqlite3.Cursor:
        try:
            return self.conn.execute(sql, args)
        except sqlite3.Error as e:
            raise self._translate_error(e) from None

    def _translate_error(self, e: sqlite3.Error) -> RwError:
        if self.state.error is not None:
            err = self.state.error
            self.state.error = None
            return err
        return sqlite_error(e)

    def _rows(
        self, cur: sqlite3.Cursor, decoders: list[Callable[[object], object]]
    ) -> Iterator[tuple[object, ...]]:
        try:
            for row in cur:
                yield tuple([d(v) for d, v in zip(decoders, row, strict=True)])
        except sqlite3.Error as e:
            raise self._translate_error(e) from None

    # --- DML -----------------------------------------------------------------------------

    def _dml_target(self, table: exp.Table, ctx: QueryContext, is_insert: bool) -> Relation:
        """RisingWave's bind_table + check_for_dml."""
        name = table.name
        schema = table.db or None
        rel: Relation | None = None
        if schema is not None:
            if schema not in SYSTEM_SCHEMAS and not self.relations.schema_exists(
                ctx.database_id, schema
            ):
                raise CatalogNotFound("schema", schema)
            rel = self.relations.relation(ctx.database_id, schema, name)
        else:
            for path in ctx.resolved_path():
                if path in SYSTEM_SCHEMAS or not self.relations.schema_exists(
                    ctx.database_id, path
                ):
                    continue
                rel = self.relations.relation(ctx.database_id, path, name)
                if rel is not None and _is_table_catalog(rel) and rel.created:
                    break
                rel = None
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
        return rel

    def _returning(
        self, tree: exp.Expr, rel: Relation, b: bnd.Binder
    ) -> tuple[str, list[res.OutColumn]]:
        ret = tree.args.get("returning")
        if ret is None:
            return "", []
        sel = exp.Select(expressions=list(ret.expressions))
        sel.set(
            "from_", exp.From(this=exp.Table(this=prs.ident(rel.name), db=prs.ident(rel.schema)))
        )
        cols = b.query(sel, None)
        # RETURNING may only name the modified table's columns, without qualifier
        for c in sel.find_all(exp.Column):
            c.set("table", None)
        items = ", ".join(b.low.render(e) for e in sel.expressions)
        return items, cols

    def _prepare_insert(
        self, tree: exp.Insert, param_oids: list[int], ctx: QueryContext
    ) -> _Prepared:
        target = tree.this
        user_cols: list[str] = []
        if isinstance(target, exp.Schema):
            user_cols = [c.name for c in target.expressions]
            target = target.this
        assert isinstance(target, exp.Table)
        rel = self._dml_target(target, ctx, True)
        visible = [c for c in rel.columns if not c.hidden]
        by_name = {c.name: c for c in visible}
        seen: set[str] = set()
        for n in user_cols:
            if n in seen:
                raise BindError("Column specified more than once")
            seen.add(n)
            if n not in by_name:
                raise BindError(f"Column {n} not found in table {target.name}")
        cols = user_cols or [c.name for c in visible]
        b = self._binder(ctx, param_oids)
        source = tree.expression
        # INSERT INTO t (cols) (SELECT ...): the parentheses are not part of the query SQLite runs
        while isinstance(source, exp.Subquery) and not source.args.get("alias"):
            source = source.this
        if isinstance(source, exp.Values):
            for row in source.expressions:
                for item, cname in zip(row.expressions, cols, strict=False):
                    pn = prs.param_number(item)
                    if pn is not None and pn not in b.params:
                        b.params[pn] = types.external(by_name[cname].type_oid)
        src_cols = b.query(source, None)
        if len(src_cols) > len(cols):
            raise BindError("INSERT has more expressions than target columns")
        if len(src_cols) < len(cols) and user_cols:
            raise BindError("INSERT has more target columns than expressions")
        cols = cols[: len(src_cols)]
        ret_sql, ret_cols = self._returning(tree, rel, b)
        sql = b.low.render(source)
        return _Prepared(
            "insert",
            sql,
            ret_cols,
            b.param_list(),
            target=rel,
            insert_columns=cols,
            source_oids=[c.type_oid for c in src_cols],
            returning_sql=ret_sql,
        )

    def _prepare_update(
        self, tree: exp.Update, param_oids: list[int], ctx: QueryContext
    ) -> _Prepared:
        table = tree.this
        assert isinstance(table, exp.Table)
        rel = self._dml_target(table, ctx, False)
        alias = table.alias or rel.name
        by_name = {c.name: c for c in rel.visible_columns}
        b = self._binder(ctx, param_oids)
        sel = exp.Select(expressions=[exp.Literal.number(1)])
        from_items: list[exp.Expr] = [
            exp.Table(
                this=prs.ident(rel.name),
                db=prs.ident(rel.schema),
                alias=exp.TableAlias(this=prs.ident(alias)),
            )
        ]
        frm = tree.args.get("from_")
        if frm is not None:
            from_items.append(frm.this)
        sel.set("from_", exp.From(this=from_items[0]))
        if len(from_items) > 1:
            sel.set("joins", [exp.Join(this=x) for x in from_items[1:]])
        scope = res.Scope(None)
        b._from_items(sel, scope)
        tx = bex.ExprBinder(b, scope)
        sets = []
        for assign in tree.expressions:
            col = assign.this
            cname = col.name
            if cname not in by_name:
                raise BindExprError(prs.expr_text(col), ItemNotFound(f"Invalid column: {cname}"))
            if cname in rel.primary_key:
                raise BindError("update modifying the PK column is unsupported")
            target_oid = by_name[cname].type_oid
            tx.hint_param(assign.expression, types.external(target_oid))
            new, oid = tx.bind_top(assign.expression)
            if (oid != target_oid and oid != pgtypes.UNKNOWN) or (
                oid == pgtypes.UNKNOWN and not isinstance(new, exp.Null)
            ):
                new = b.low.convert(new, oid, target_oid)
            sets.append(f'"{cname}" = {b.low.render(new)}')
        where = tree.args.get("where")
        where_sql = ""
        if where is not None:
            new, _ = tx.bind_top(where.this)
            where_sql = " WHERE " + b.low.render(new)
        from_sql = ""
        joins = sel.args.get("joins") or []
        if joins:
            from_sql = " FROM " + ", ".join(b.low.render(j.this) for j in joins)
        ret_sql, ret_cols = self._returning(tree, rel, b)
        storage = rel.storage or f"rel_{rel.id}"
        sql = f'UPDATE "{storage}" AS "{alias}" SET {", ".join(sets)}{from_sql}{where_sql}'
        if ret_sql:
            sql += " RETURNING " + ret_sql
        return _Prepared("update", sql, ret_cols, b.param_list(), target=rel, returning_sql=ret_sql)

    def _prepare_delete(
        self, tree: exp.Delete, param_oids: list[int], ctx: QueryContext
    ) -> _Prepared:
        table = tree.this
        assert isinstance(table, exp.Table)
        rel = self._dml_target(table, ctx, False)
        alias = table.alias or rel.name
        b = self._binder(ctx, param_oids)
        sel = exp.Select(expressions=[exp.Literal.number(1)])
        sel.set(
            "from_",
            exp.From(
                this=exp.Table(
                    this=prs.ident(rel.name),
                    db=prs.ident(rel.schema),
                    alias=exp.TableAlias(this=prs.ident(alias)),
                )
            ),
        )
        scope = res.Scope(None)
        b._from_items(sel, scope)
        tx = bex.ExprBinder(b, scope)
        where = tree.args.get("where")
        where_sql = ""
        if where is not None:
            new, _ = tx.bind_top(where.this)
            where_sql = " WHERE " + b.low.render(new)
        ret_sql, ret_cols = self._returning(tree, rel, b)
        storage = rel.storage or f"rel_{rel.id}"
        sql = f'DELETE FROM "{storage}" AS "{alias}"{where_sql}'
        if ret_sql:
            sql += " RETURNING " + ret_sql
        return _Prepared("delete", sql, ret_cols, b.param_list(), target=rel, returning_sql=ret_sql)

    def _default_value(self, expr_text: str, type_oid: int) -> object:
        """A column DEFAULT evaluated as RisingWave does at insert time, in storage form."""
        ctx = self.state.ctx
        assert ctx is not None
        b = self._binder(ctx, [])
        bound = b.bind_select(prs.parse(f"SELECT {expr_text}"))
        row = self._run(bound.sql, []).fetchone()
        value = row[0] if row else None
        return casts.cast(value, bound.columns[0].type_oid, type_oid)

    def _dml(self, prep: _Prepared, args: list[object]) -> Outcome:
        rel = prep.target
        assert rel is not None
        ret_cols = [column_of(c) for c in prep.columns] if prep.returning_sql else None
        if prep.kind in ("update", "delete"):
            cur = self._run(prep.sql, args[: prep.nbind])
            if prep.returning_sql:
                rows = [
                    tuple(d(v) for d, v in zip(prep.decoders, r, strict=True))
                    for r in cur.fetchall()
                ]
                n = len(rows)
            else:
                rows = []
                n = cur.rowcount
            tag = f"{prep.kind.upper()} {n}"
            return Outcome(tag, ret_cols, rows)
        # INSERT: evaluate the source, cast to the column types, upsert by primary key
        storage = rel.storage or f"rel_{rel.id}"
        cur = self._run(prep.sql, args[: prep.nbind])
        source_rows: Iterable[Sequence[object]]
        if storage in prep.sql:
            # The source reads the target: take it whole first (no Halloween problem).
            try:
                source_rows = cur.fetchall()
            except sqlite3.Error as e:
                raise self._translate_error(e) from None
        else:
            # A huge INSERT ... SELECT goes through in batches, never whole in memory.
            source_rows = self._batches(cur)
        by_name = {c.name: c for c in rel.columns}
        cols = list(prep.insert_columns)
        # columns the statement leaves out take their DEFAULT (evaluated once per statement)
        defaults: list[tuple[str, object]] = []
        for c in rel.columns:
            if c.name not in cols and not c.hidden and c.default_expr:
                dcol = self._default_value(c.default_expr, c.type_oid)
                defaults.append((c.name, dcol))
        has_row_id = ROW_ID in by_name and by_name[ROW_ID].hidden and ROW_ID not in cols
        all_cols = cols + [d[0] for d in defaults] + ([ROW_ID] if has_row_id else [])
        placeholders = ", ".join("?" for _ in all_cols)
        col_list = ", ".join(f'"{c}"' for c in all_cols)
        insert_sql = f'INSERT INTO "{storage}" ({col_list}) VALUES ({placeholders})'
        if prep.returning_sql:
            insert_sql += " RETURNING " + prep.returning_sql
        pk = [c for c in rel.primary_key if c in all_cols]
        delete_sql = ""
        if pk and len(pk) == len(rel.primary_key):
            cond = " AND ".join(f'"{c}" = ?' for c in pk)
            delete_sql = f'DELETE FROM "{storage}" WHERE {cond}'
        next_row_id = 0
        if has_row_id:
            r = self._run(f'SELECT COALESCE(MAX("{ROW_ID}"), 0) FROM "{storage}"', []).fetchone()
            next_row_id = int(r[0]) if r else 0
        out_rows: list[tuple[object, ...]] = []
        self.state.error = None
        # one statement is all or nothing
        self.conn.execute("SAVEPOINT rw_dml")
        inserted = 0
        try:
            for raw in source_rows:
                inserted += 1
                values: list[object] = [
                    casts.cast(v, prep.source_oids[i], by_name[cname].type_oid)
                    for i, (cname, v) in enumerate(zip(cols, raw, strict=False))
                ]
                values.extend(d[1] for d in defaults)
                if has_row_id:
                    next_row_id += 1
                    values.append(next_row_id)
                if delete_sql:
                    self._run(delete_sql, [values[all_cols.index(c)] for c in pk])
                c2 = self._run(insert_sql, values)
                if prep.returning_sql:
                    out_rows.extend(
                        tuple(d(v) for d, v in zip(prep.decoders, r, strict=True))
                        for r in c2.fetchall()
                    )
        except BaseException:
            self.conn.execute("ROLLBACK TO rw_dml")
            self.conn.execute("RELEASE rw_dml")
            raise
        self.conn.execute("RELEASE rw_dml")
        return Outcome(f"INSERT 0 {inserted}", ret_cols, out_rows)

    def _batches(self, cur: sqlite3.Cursor, size: int = 1000) -> Iterator[Sequence[object]]:
        while True:
            try:
                batch = cur.fetchmany(size)
            except sqlite3.Error as e:
                raise self._translate_error(e) from None
            if not batch:
                return
            yield from batch


def _unparenthesize(tree: exp.Expr) -> exp.Expr:
    """``(SELECT ...)`` as a whole query or as an operand of UNION/INTERSECT/EXCEPT is the
    query itself (PostgreSQL and RisingWave accept the parentheses; SQLite does not)."""

    def bare(node: exp.Expr) -> exp.Expr:
        while isinstance(node, exp.Subquery) and {k for k, v in node.args.items() if v} == {"this"}:
            node = node.this
        return node

    tree = bare(tree)
    for setop in list(tree.find_all(exp.Union, exp.Except, exp.Intersect)):
        for key in ("this", "expression"):
            part = setop.args.get(key)
            if isinstance(part, exp.Subquery):
                setop.set(key, bare(part))
    return tree


_T = TypeVar("_T")


# The constant fast path: ``SELECT <item>, ...`` where each item is an integer literal, a
# string literal or ``<int> {+|-|*} <int>``, optionally with ``AS <name>``.  It answers these
# (``SELECT 1`` is what clients, pools and health checks send) with the same SQLite text,
# column names and types the binder gives them, without parsing with sqlglot; anything else,
# or anything it is unsure of (a keyword as a name, a literal wider than bigint), goes to the
# binder.
_CONST_HEAD = re.compile(r"\s*select\s+", re.IGNORECASE)
_CONST_ITEM = re.compile(
    r"(?:(?P<int>-?\d+)|(?P<lhs>\d+)\s*(?P<op>[-+*])\s*(?P<rhs>\d+)|(?P<str>'(?:[^']|'')*'))"
    r"(?:\s+as\s+(?:(?P<name>[a-z_][a-z0-9_]*)|\"(?P<quoted>[^\"]+)\"))?"
    r"\s*(?:(?P<comma>,)\s*|;?\s*$)",
    re.IGNORECASE,
)
_INT4_MAX = 2**31 - 1
_INT8_MAX = 2**63 - 1


def _constant_select(sql_text: str) -> _Prepared | None:
    """The prepared form of a constant ``SELECT`` (see above), or None for the binder."""
    head = _CONST_HEAD.match(sql_text)
    if head is None:
        return None
    pos = head.end()
    end = len(sql_text)
    items: list[str] = []
    columns: list[Any] = []
    while True:
        m = _CONST_ITEM.match(sql_text, pos)
        if m is None:
            return None
        if m["quoted"] is not None:
            name = m["quoted"]
        elif m["name"] is not None:
            name = m["name"].lower()
            if name in _keywords():
                return None
        else:
            name = "?column?"
        if m["int"] is not None:
            text = m["int"]
            magnitude = int(text.lstrip("-"))
            if magnitude > _INT8_MAX:
                return None
            oid = pgtypes.INT4 if magnitude <= _INT4_MAX else pgtypes.INT8
            expr = str(int(text))
        elif m["op"] is not None:
            lhs, rhs = int(m["lhs"]), int(m["rhs"])
            if lhs > _INT4_MAX or rhs > _INT4_MAX:
                return None
            oid = pgtypes.INT4
            expr = f"RW_ARITH('{m['op']}', {oid}, {lhs}, {rhs})"
        else:
            oid = pgtypes.VARCHAR
            expr = m["str"]
        items.append(f'{expr} AS "{name}"')
        columns.append(_ConstColumn(name, oid))
        pos = m.end()
        if m["comma"] is None:
            break
        if pos >= end:
            return None
    if pos != end:
        return None
    prep = _Prepared("select", "SELECT " + ", ".join(items), columns, [])
    prep.decoders = [_decoder(c.type_oid) for c in columns]
    return prep


@dataclass(frozen=True, slots=True)
class _ConstColumn:
    """An output column of the fast path, shaped like the binder's ``OutColumn``."""

    name: str
    type_oid: int


_KEYWORDS: frozenset[str] | None = None


def _keywords() -> frozenset[str]:
    """Every PostgreSQL keyword (pglast's lists): such a name after AS goes to the binder."""
    global _KEYWORDS
    if _KEYWORDS is None:
        from pglast import keywords as kw

        _KEYWORDS = frozenset(
            kw.RESERVED_KEYWORDS
            | kw.UNRESERVED_KEYWORDS
            | kw.COL_NAME_KEYWORDS
            | kw.TYPE_FUNC_NAME_KEYWORDS
        )
    return _KEYWORDS


def _guarded(fn: Callable[[], _T]) -> _T:
    """Run ``fn``; a failure that is not already RisingWave's becomes RisingWave's internal
    error instead of a Python traceback or a SQLite message (error.rs:44)."""
    try:
        return fn()
    except RwError:
        raise
    except sqlite3.Error as e:
        raise sqlite_error(e) from None
    except RecursionError:
        raise RwError("internal error: the query is too deeply nested") from None
    except Exception as e:
        raise RwError(
            f"internal error: the query could not be translated ({type(e).__name__})"
        ) from None


def _is_table_catalog(rel: Relation) -> bool:
    """Relations RisingWave keeps as TableCatalog (tables, MVs, indexes, internal tables)."""
    return rel.kind in (RelKind.TABLE, RelKind.MATERIALIZED_VIEW, RelKind.INDEX, RelKind.INTERNAL)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def encode_param(value: object, oid: int) -> object:
    """A decoded parameter value (from the wire, by its OID) in SQLite storage form."""
    if value is None:
        return None
    if isinstance(value, bool):
        return 1 if value else 0
    if types.is_array(oid):
        if isinstance(value, str):
            elem = types.element_of(oid) or pgtypes.VARCHAR
            return casts.cast(value, pgtypes.VARCHAR, types.array_of(elem))
        if isinstance(value, (list, tuple)):
            return types.to_array_json([encode_param(v, types.element_of(oid) or 0) for v in value])
    if isinstance(value, Decimal):
        # numerics are SQLite numbers: integers that fit 64 bits, otherwise REAL (as the
        # read path's casts store them); a larger integer must not overflow sqlite3
        if value == value.to_integral_value() and -(2**63) <= value < 2**63:
            return int(value)
        return float(value)
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            return value.astimezone(dt.UTC).isoformat(sep=" ", timespec="microseconds")
        return value.isoformat(sep=" ", timespec="microseconds")
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return types.format_interval(value)
    if isinstance(value, pgtypes.Interval):
        # a binary interval parameter; the read path keeps intervals as 30-day months
        return types.format_interval(
            dt.timedelta(days=value.months * 30 + value.days, microseconds=value.microseconds)
        )
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    if isinstance(value, str) and oid in types.INTEGER_OIDS:
        return casts.cast(value, pgtypes.VARCHAR, oid)
    if isinstance(value, str) and oid == pgtypes.BOOL:
        return casts.cast(value, pgtypes.VARCHAR, oid)
    return value


def sqlite_error(e: sqlite3.Error) -> RwError:
    """A SQLite failure in RisingWave's words (never SQLite's own text)."""
    msg = str(e)
    if msg.startswith("no such column: "):
        from rwshim.errors import ItemNotFound

        return ItemNotFound(f"Invalid column: {msg.removeprefix('no such column: ')}")
    if msg.startswith("no such function: "):
        name = msg.removeprefix("no such function: ")
        return RwError(f"function {name} does not exist", sqlstate="42883")
    if "UNIQUE constraint failed" in msg:
        return RwError("Invalid insert operation: duplicate key value violates unique constraint")
    if "NOT NULL constraint failed" in msg:
        col = msg.rsplit(".", 1)[-1]
        return RwError(
            f'Invalid input syntax: null value in column "{col}" violates not-null constraint'
        )
    if "integer overflow" in msg:
        return RwError("Expr error", "Numeric out of range")
    return RwError("internal error: the query could not be executed")


__all__ = ["Analysis", "Description", "QueryEngine", "encode_param", "sqlglot", "sqlite_error"]
