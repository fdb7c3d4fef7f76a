"""QueryEngine: the catalog path for one instance, over the store's connection.

``describe`` types a statement without running it, ``execute`` runs it, ``analyze`` binds the
query of a CREATE MATERIALIZED VIEW / VIEW / SINK AS / TABLE AS, ``check_mv_columns`` adds
CREATE MATERIALIZED VIEW's naming rules (src/frontend/src/handler/create_mv.rs:80-98).  A
statement is bound by the binder (prepare.py) and lowered and run by the executor
(``prepared.Executor``: ``sqlite.executor.SqliteExecutor`` on the meta store's SQLite
connection).  What runs here is constants and catalog queries: user data is on the PostgreSQL
data plane, so a statement that would read or write it is bound (RisingWave's errors come
first) and then refused (``refuse_user_data``; DML always).  Constant ``SELECT 1``-style
statements skip the binder
(sqlite/fast_path.py).  Prepared statements are cached by (statement text, database, search
path, user, parameter types), so a repeated statement costs one dictionary lookup before the
engine runs it; the cache is dropped whenever the catalog changes (``invalidate``, or a change
of the relation source's fingerprint).

The binder, sqlglot and the lowering are imported on first use: they cost more than half of
start-up, and ``SELECT 1`` needs none of them.
"""

from __future__ import annotations

import datetime as dt
import itertools
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, TypeVar

from msgspec import Struct, field

from rwshim.binder import types
from rwshim.binder.context import QueryContext
from rwshim.binder.functions import FunctionState
from rwshim.binder.prepared import Executor, Prepared, column_of
from rwshim.binder.relations import Relation, RelationSource, as_of
from rwshim.catalog_path.result_cache import MAX_ROWS, ResultCache, result_key
from rwshim.catalog_path.sqlite.executor import SqliteExecutor
from rwshim.catalog_path.sqlite.fast_path import constant_select as _constant_select
from rwshim.catalog_path.system_catalogs import RELATIONS
from rwshim.common.outcome import Column, KeptRows, Outcome
from rwshim.common.releases import HEAD, Release
from rwshim.errors import InvalidInputSyntax, NotImplementedError_, RwError
from rwshim.lazy import lazy_module
from rwshim.sql.cache import TextLRU
from rwshim.sql.column_names import check_not_reserved

if TYPE_CHECKING:
    from rwshim.binder import prepare
    from rwshim.binder.binder import Binder
    from rwshim.binder.resolve import OutColumn, SystemRelation
else:
    prepare = lazy_module("rwshim.binder.prepare")

_T = TypeVar("_T")


class Description(Struct, frozen=True):
    """Parameter OIDs and result columns (None = the statement returns no rows)."""

    param_oids: list[int]
    columns: list[Column] | None


class Analysis(Struct, frozen=True):
    """The output columns of a CREATE ... AS query and the user relations it reads."""

    columns: list[OutColumn]
    upstreams: list[int]
    # The streaming plan has a Values leaf: not recoverable (binder.Binder.values_leaf).
    values_leaf: bool = False
    # the columns read of each user relation (binder.Binder.column_reads)
    column_reads: dict[int, frozenset[str]] = field(default_factory=dict)


class QueryEngine:
    """The catalog path's SELECT, VALUES and WITH (and the binding of INSERT, UPDATE and
    DELETE) for one store connection."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        relations: RelationSource,
        *,
        version: str | None = None,
        release: Release = HEAD,
        clock: Callable[[], dt.datetime] | None = None,
        install_catalog: bool = True,
    ) -> None:
        self.conn = conn
        self.relations = relations
        # The release's catalogs: what it lacks is not there to bind (``_load_system``).
        self.release = release
        self.state = FunctionState()
        if version is not None:
            self.state.version = version
        if clock is not None:
            self.state.now = clock
        self.state.start_time = self.state.now()
        self.state.schema_exists = relations.schema_exists
        sqlite = SqliteExecutor(conn, self.state, install_catalog)
        self.executor: Executor = sqlite
        # the catalog views, made on first use (before a text that reads one runs or is
        # judged for keeping): the hook a ResultCache over this connection needs
        self.ensure_catalog_views = sqlite.ensure_views
        self._cache: dict[tuple[object, ...], Prepared] = {}
        # catalog changes invalidate the cache even if nobody calls invalidate(): checked
        # (with the source's fingerprint, when it has one) whenever the connection has written
        self._seen_changes = -1
        self._fingerprint: object = None
        # built when the binder first needs it (building it imports the binder)
        self._system: dict[tuple[str, str], SystemRelation] | None = None
        # Called with the user relations a statement would read or write here: user data is
        # on the PostgreSQL data plane, so the instance refuses (catalog-only views pass).
        self.refuse_user_data: Callable[[list[int]], None] | None = None
        # text -> whether it is a constant SELECT (bounded by the texts' bytes)
        self._constants: TextLRU[bool] = TextLRU(4 * 1024 * 1024)
        # the rows of catalog queries, while the store is unchanged (result_cache.py)
        self.results = ResultCache(conn, self.ensure_catalog_views)
        # the user-defined function names per database (the cheap test before inlining)
        self._udf_names: dict[int, frozenset[str]] = {}

    def _load_system(self) -> dict[tuple[str, str], SystemRelation]:
        from rwshim.binder.resolve import OutColumn, SystemRelation

        absent = set(self.release.absent_catalogs)
        absent_columns = {(s, r): c for s, r, c in self.release.absent_catalog_columns}
        self._system = system = {
            key: SystemRelation(
                rel.schema,
                rel.name,
                rel.sqlite_name,
                tuple(
                    OutColumn(c.name, c.type_oid)
                    for c in rel.columns
                    if absent_columns.get(key) != c.name
                ),
            )
            for key, rel in RELATIONS.items()
            if key not in absent
        }
        return system

    def _system_relation(self, schema: str, name: str) -> SystemRelation | None:
        system = self._system
        if system is None:
            system = self._load_system()
        return system.get((schema, name))

    def is_constant(self, sql_text: str) -> bool:
        """Whether ``sql_text`` is a ``SELECT 1``-style constant (the fast path)."""
        return self._constants.get_or_make(sql_text, lambda: _constant_select(sql_text) is not None)

    def relation_id(self, ctx: QueryContext, parts: Sequence[str]) -> int | None:
        """The user relation a FROM name (its parts' real values) resolves to, as the binder
        resolves it (resolve.resolve_relation); None for a system catalog."""
        from rwshim.binder.resolve import resolve_relation

        db = parts[-3] if len(parts) >= 3 else None
        schema = parts[-2] if len(parts) >= 2 else None
        rel = self._guarded(
            lambda: resolve_relation(
                ctx, self.relations, self._system_relation, db, schema, parts[-1]
            )
        )
        return rel.id if isinstance(rel, Relation) else None

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
        # (the system relations are not: they are RisingWave's fixed catalog, built once)
        self._cache.clear()
        self._udf_names.clear()
        # (nor the kept results: they follow the store's own change count, and a barrier,
        # which calls this every interval, changes nothing they read unless it writes)

    # --- public entry points: every failure is an RwError ------------------------------

    def describe(self, sql_text: str, param_oids: Sequence[int], ctx: QueryContext) -> Description:
        """Parameter types (unknown ones inferred) and result columns of a statement."""
        return self._guarded(lambda: self._describe_impl(sql_text, param_oids, ctx))

    def analyze(
        self, query_text: str, ctx: QueryContext, as_of: Relation | None = None
    ) -> Analysis:
        """Output columns and upstream relation ids of the query of CREATE MATERIALIZED VIEW /
        VIEW / SINK AS / TABLE AS (``query_text`` is the query alone); ``as_of``: the
        materialized view whose query it is (its upstreams as it was planned on them)."""
        return self._guarded(lambda: self._analyze_impl(query_text, ctx, as_of))

    def check_mv_columns(
        self, query_text: str, ctx: QueryContext, column_names: Sequence[str] = ()
    ) -> Analysis:
        """``analyze`` plus CREATE MATERIALIZED VIEW's naming rules: an alias for every item
        without a derivable name (create_mv.rs:80-98), no name twice; ``column_names`` is the
        optional column list of the CREATE."""
        return self._guarded(lambda: self._check_mv_columns_impl(query_text, ctx, column_names))

    def execute(
        self,
        sql_text: str,
        params: Sequence[object],
        ctx: QueryContext,
        param_oids: Sequence[int] = (),
    ) -> Outcome:
        """Run a statement; rows are decoded lazily into Python values for their OIDs (an
        error while rows are produced is raised, as an RwError, by the row iterator)."""
        return self._guarded(lambda: self._execute_impl(sql_text, params, ctx, param_oids))

    # --- implementations ---------------------------------------------------------------------

    def _describe_impl(
        self, sql_text: str, param_oids: Sequence[int], ctx: QueryContext
    ) -> Description:
        prep = self._prepare(sql_text, list(param_oids), ctx)
        self._guard(prep)
        cols = prep.client_columns if prep.kind == "select" or prep.columns else None
        if prep.kind != "select" and not prep.returning:
            cols = None
        return Description([types.external(o) for o in prep.param_oids], cols)

    def _analyze_impl(
        self, query_text: str, ctx: QueryContext, mv: Relation | None = None
    ) -> Analysis:
        """Output names follow RisingWave, unnamed expressions are None-free ``?column?``;
        ``check_mv_columns`` adds the MV alias rule.  (The alias check and the binder each
        take the query's tree from prepare.parse, which keeps trees by text.)"""
        binder = self._binder(ctx, [])
        if mv is not None:
            binder.relations = as_of(binder.relations, mv)
        cols, upstreams = prepare.analyze(self.inline_functions(query_text, ctx), binder)
        reads = {k: frozenset(v) for k, v in binder.column_reads.items()}
        return Analysis(cols, upstreams, binder.values_leaf, reads)

    def _check_mv_columns_impl(
        self, query_text: str, ctx: QueryContext, column_names: Sequence[str] = ()
    ) -> Analysis:
        """Every select item without a derivable name needs an alias (create_mv.rs:80-98) and
        names must be unique (``column "<n>" specified more than once``)."""
        if not column_names:
            prepare.check_mv_aliases(query_text)
        analysis = self._analyze_impl(query_text, ctx)
        cols = analysis.columns
        if column_names:
            if len(column_names) != len(cols):
                # create_mv.rs:148-152 / create_sink.rs:435: the names' reserved-word check,
                # then PlanRoot::set_out_names (optimizer/mod.rs:223-228), fewer or more
                for name in column_names:
                    check_not_reserved(name)
                raise InvalidInputSyntax("number of column names does not match number of columns")
            cols = prepare.rename_columns(cols, list(column_names))
        seen: set[str] = set()
        for c in cols:
            if c.name in seen:
                raise InvalidInputSyntax(f'column "{c.name}" specified more than once')
            seen.add(c.name)
        return Analysis(cols, analysis.upstreams, analysis.values_leaf)

    def _execute_impl(
        self,
        sql_text: str,
        params: Sequence[object],
        ctx: QueryContext,
        param_oids: Sequence[int] = (),
    ) -> Outcome:
        oids = list(param_oids) or [0] * len(params)
        prep = self._prepare(sql_text, oids, ctx)
        self._guard(prep)
        ex = self.executor
        args = [ex.encode_param(v, o) for v, o in zip(params, prep.param_oids, strict=False)]
        if len(args) < len(prep.param_oids):
            raise RwError(
                f"Protocol error: bind message supplies {len(args)} parameters, but prepared "
                f"statement requires {len(prep.param_oids)}"
            )
        self._begin(ctx)
        if prep.kind == "select":
            return Outcome(
                "SELECT",
                prep.client_columns,
                self._select(prep, args, ctx, sql_text, oids),
                count_rows=True,
            )
        # user tables' rows are on the PostgreSQL data plane (rwshim/dataplane), never here
        name = prep.target.name if prep.target is not None else "?"
        raise NotImplementedError_(
            f"{prep.kind.upper()} on {name} here: table data is on the PostgreSQL data plane"
        )

    def _select(
        self,
        prep: Prepared,
        args: list[object],
        ctx: QueryContext,
        sql_text: str,
        oids: list[int],
    ) -> Iterator[tuple[object, ...]] | KeptRows:
        """The rows of a query: kept ones when the store has not changed since (only for a
        query that reads nothing but the store and the key, result_cache.py), handed out as
        the kept object itself, which the session may have encoded already."""
        cache = self.results
        key = None
        if cache.cacheable(prep.sql):
            key = result_key(
                (
                    sql_text,
                    ctx.cache_key,
                    ctx.database,
                    ctx.user_id,
                    ctx.is_superuser,
                    tuple(oids),
                    *args,
                )
            )
        if key is None:
            return self.executor.select(prep, args)
        kept = cache.get(key)
        if kept is not None:
            return kept
        it = self.executor.select(prep, args)
        rows: list[tuple[object, ...]] = []
        try:
            rows.extend(itertools.islice(it, MAX_ROWS + 1))
        except Exception as e:  # raised where the rows are read, as when they stream
            return itertools.chain(rows, _raising(e))
        if len(rows) > MAX_ROWS:
            return itertools.chain(rows, it)
        stored = cache.put(key, rows)
        return iter(rows) if stored is None else stored

    # --- internals ---------------------------------------------------------------------------

    def _guard(self, prep: Prepared) -> None:
        ids = list(prep.upstreams) + ([prep.target.id] if prep.target is not None else [])
        if ids and self.refuse_user_data is not None:
            self.refuse_user_data(ids)

    def _guarded(self, fn: Callable[[], _T]) -> _T:
        """Run ``fn``; a failure that is not already RisingWave's becomes RisingWave's
        internal error instead of a Python traceback or the engine's message (error.rs:44)."""
        try:
            return fn()
        except RwError:
            raise
        except RecursionError:
            raise RwError("internal error: the query is too deeply nested") from None
        except Exception as e:
            err = self.executor.failure(e)
            if err is not None:
                raise err from None
            raise RwError(
                f"internal error: the query could not be translated ({type(e).__name__})"
            ) from None

    def _begin(self, ctx: QueryContext) -> None:
        self.state.ctx = ctx
        self.state.error = None
        self.state.settings.clear()
        self.state.statement_time = self.state.now()

    def _binder(self, ctx: QueryContext, param_oids: list[int]) -> Binder:
        from rwshim.binder.binder import Binder

        lowering = self.executor.lowering()
        b = Binder(ctx, self.relations, self._system_relation, lowering, param_oids)
        b.variant_type = self.release.variant_type
        return b

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
            self._udf_names.clear()

    def inline_functions(self, sql_text: str, ctx: QueryContext) -> str:
        """``sql_text`` with its SQL functions' calls inlined (binder/udf.py)."""
        from rwshim.binder import udf_store

        self._check_catalog()
        names = self._udf_names.get(ctx.database_id)
        if names is None:
            names = self._udf_names[ctx.database_id] = udf_store.function_names(
                self.conn, ctx.database_id
            )
        if not names:
            return sql_text
        return udf_store.inline(self.conn, ctx, sql_text, names)

    def _prepare(self, sql_text: str, param_oids: list[int], ctx: QueryContext) -> Prepared:
        self._check_catalog()
        key = (sql_text, ctx.cache_key, tuple(param_oids))
        prep = self._cache.get(key)
        if prep is not None:
            return prep
        self.state.ctx = ctx
        sql_text = self.inline_functions(sql_text, ctx)
        if not param_oids and (prep := _constant_select(sql_text)) is not None:
            prep.client_columns = [column_of(c) for c in prep.columns]
            self._cache[key] = prep
            return prep
        prep = prepare.prepare(sql_text, self._binder(ctx, param_oids), ctx, self.relations)
        prep.decoders = [self.executor.decoder(c.type_oid) for c in prep.columns]
        prep.client_columns = [column_of(c) for c in prep.columns]
        prep.nbind = self.executor.param_count(prep.sql)
        if len(self._cache) > 2048:
            self._cache.clear()
        self._cache[key] = prep
        return prep


def _raising(e: Exception) -> Iterator[tuple[object, ...]]:
    raise e
    yield  # pragma: no cover - makes this a generator


__all__ = ["Analysis", "Description", "QueryEngine"]
