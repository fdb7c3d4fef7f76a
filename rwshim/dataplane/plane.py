"""The data plane of one rwshim instance: its PostgreSQL database and the objects in it.

Imported on first use (the instance and the frontend import it lazily): with the parser, the
DDL generator and the PostgreSQL lifecycle it costs ~100 ms that ``SELECT 1`` never pays.

- ``plan(text, ctx)``: where a statement runs and, for PostgreSQL, its text (dataplane/plan), cached
  by (text, context, catalog version); no I/O.
- ``ensure(ids)``: before a data statement runs, the PostgreSQL objects of the relations it
  touches (and of what they read) exist as the catalog says now; made from catalog data in one
  transaction with their bookkeeping rows (``rwfn.objects``).  Objects of relations the catalog
  no longer has are dropped in the same transaction, so a DROP costs no PostgreSQL round trip
  on its own path.  Nothing is done when every object is already right (a dictionary look-up
  per relation).
- ``ready()``: on first use the database is made (host.py) and reconciled with the catalog,
  the meta store being the truth: what the catalog does not have is dropped; what it has is
  made lazily.  PostgreSQL's DDL is transactional, so after a crash of either side nothing
  half-made is there.
- ``pool``: the PostgreSQL connections the sessions' statements lease (dataplane/pool.py,
  ``--data-pool-size``).
- ``row_count(id)``: the engine's backfill model reads upstream row counts synchronously; they
  are fetched before a CREATE that backfills (``refresh_counts``), refreshed after DML.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from rwshim.binder.context import QueryContext, parse_search_path
from rwshim.binder.relations import Relation, RelKind, as_of
from rwshim.catalog_path.store_source import StoreRelations
from rwshim.dataplane import changes, typecat
from rwshim.dataplane.epochs import Epochs, tables_touched
from rwshim.dataplane.host import PgHost
from rwshim.dataplane.pgio import UNDEFINED_TABLE, ConnectionLost, PgConn, PgFailure
from rwshim.dataplane.plan import changelogs, checks, ddl, guard, names, nonstrict, rewrite, route
from rwshim.dataplane.plan.errors import map_error
from rwshim.dataplane.plan.names import quote_literal
from rwshim.dataplane.plan.prepass import Prepassed
from rwshim.dataplane.pool import DEFAULT_SIZE, Pool
from rwshim.dataplane.postgres import DataPlaneError
from rwshim.dataplane.typecat import TypeCatalog, TypeRow
from rwshim.errors import RwError
from rwshim.sql import literals
from rwshim.sql.cache import SizedLRU
from rwshim.wire import codec_text, codecs

log = logging.getLogger("rwshim.datapath")

# RisingWave's HOP checks read interval literals with the wire layer's interval codec
checks.use_interval_codec(codecs.parse_interval, codec_text.interval_str)

# Plans by text (and skeleton) bounded by bytes: a plan holds some eight copies of its text
# (the statement, its pre-pass, PostgreSQL's parse tree and text, the rewritten texts)
_PLAN_CACHE_BYTES = 64 * 1024 * 1024
_PLAN_FACTOR = 8
_SEEN = object()
_Answer = guard.Answer | None  # (dataplane/plan/guard.py)
_UNSEEN = object()
# The bookkeeping rows of objects no longer in PostgreSQL (a DROP ... CASCADE took them).
_FORGET_GONE = (
    "DELETE FROM {objects} o WHERE NOT EXISTS (SELECT 1 FROM pg_class c WHERE"
    " c.relnamespace = '{schema}'::regnamespace AND c.relname = o.name)"
)


@dataclass(frozen=True, slots=True)
class Planned:
    text: str  # the statement as the user wrote it
    routed: route.Routed
    statement: rewrite.PgStatement
    # set_config(name, value, false) calls: the session applies them at every run, as
    # RisingWave's binder does (dataplane/plan/guard.py)
    settings: guard.Settings = ()
    answered: bool = False  # holds the session's answers (guard.py): never kept


def _same(a: Planned, b: Planned) -> bool:
    """Whether two plans run alike (what the data session reads of a plan: a shared plan
    has no parse tree)."""
    return (
        a.text == b.text
        and a.statement == b.statement
        and a.settings == b.settings
        and a.routed.prepassed.text == b.routed.prepassed.text
        and a.routed.route is b.routed.route
        and _ids(a.routed.user_relations()) == _ids(b.routed.user_relations())
    )


def _ids(rels: list[Relation]) -> list[int]:
    return [r.id for r in rels]


@dataclass(frozen=True, slots=True)
class _Template:
    """A plan shared by the texts of one skeleton (sql/literals): its texts with holes
    where the literals go."""

    planned: Planned
    text: literals.Holes
    repeated_key_text: literals.Holes | None
    prepassed: literals.Holes

    def fill(self, text: str, values: tuple[str, ...]) -> Planned:
        p = self.planned
        st = dataclasses.replace(
            p.statement,
            text=literals.put(self.text, values),
            repeated_key_text=(
                None
                if self.repeated_key_text is None
                else literals.put(self.repeated_key_text, values)
            ),
        )
        r = p.routed
        pre = Prepassed(literals.put(self.prepassed, values), requires=list(r.prepassed.requires))
        routed = route.Routed(r.route, pre, None, r.resolved, r.target, r.reason)
        return Planned(text, routed, st, p.settings)


class RelationGone(RwError):
    """A relation a plan was made with was dropped before the statement ran (another session
    raced it): the caller plans again, which gives RisingWave's not-found error."""

    def __init__(self, relation_id: int) -> None:
        super().__init__(f"relation {relation_id} was dropped while the statement was planned")
        self.relation_id = relation_id


class DataPlaneLost(RwError):
    """The data plane's PostgreSQL went away under a statement (rwshim's own condition)."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"the data plane's PostgreSQL is unavailable: {detail}")


class DataPlane:
    """The PostgreSQL side of one instance."""

    def __init__(
        self,
        relations: StoreRelations,
        *,
        postgres_url: str | None = None,
        data_dir: str | Path | None = None,
        pool_size: int = DEFAULT_SIZE,
    ) -> None:
        self.relations = relations
        self.host = PgHost.get(postgres_url, None if data_dir is None else Path(data_dir))
        self.host.want_connections(pool_size)
        # the connections the sessions' statements lease (dataplane/pool.py)
        self.pool = Pool(pool_size)
        self.dbname = self.host.new_database_name()
        self._plans: SizedLRU[tuple[object, ...], Planned | None] = SizedLRU(
            _PLAN_CACHE_BYTES, _PLAN_FACTOR
        )
        # skeleton and context -> the shared plan, None (not shared) or _SEEN (one text yet)
        self._shared: SizedLRU[tuple[object, ...], _Template | object | None] = SizedLRU(
            _PLAN_CACHE_BYTES // 4, _PLAN_FACTOR
        )
        self._objects_by_rel: dict[int, list[ddl.PgObject]] = {}
        self._seen_catalog: object = None
        self._made: dict[str, str] = {}  # name -> signature: rwfn.objects as of our last commit
        self._ready: asyncio.Future[None] | None = None
        self._lock: asyncio.Lock | None = None
        self._admin: PgConn | None = None
        self._admin_generation = -1
        self._reconciled: object = None  # catalog version of the last drop pass
        self.counts: dict[int, int] = {}
        self._count_tasks: set[asyncio.Task[None]] = set()
        self._recounting: set[int] = set()
        self._closed = False
        # the database's own types by OID (struct composites, vector), and the type DDL
        # already run (query/pg/typemap.type_ddl statements are idempotent)
        self.types = TypeCatalog(self._lookup_types)
        self._types_made: set[str] = set()
        # the epochs' writers and the barriers' commits (dataplane/epochs.py)
        self.epochs = Epochs(self)

    # --- planning (no I/O) --------------------------------------------------------------

    def _catalog_version(self) -> object:
        return self.relations.fingerprint()

    def _follow_catalog(self) -> object:
        """The catalog version; what was derived from an older one is forgotten."""
        version = self._catalog_version()
        if version != self._seen_catalog:
            self._seen_catalog = version
            self._plans.clear()
            self._shared.clear()
            self._objects_by_rel.clear()
        return version

    def plan(self, text: str, ctx: QueryContext, answer: _Answer = None) -> Planned | None:
        """The statement's PostgreSQL form, or None when it runs in process; ``answer``
        answers the calls RisingWave answers in the session (guard.py)."""
        self._follow_catalog()
        if "system_time" in text.lower():  # time travel reads the retention when planned
            return self.epochs.clocked.time_travel(self._plan_text(text, ctx), ctx.database_id)
        key = (text, ctx.cache_key)
        known = self._plans.get(key, _UNSEEN)
        if known is not _UNSEEN:
            return known  # type: ignore[return-value]
        lits = literals.literals(text)
        plan_shared, plan_text = self._plan_shared, self._plan_text
        planned = plan_shared(text, lits, ctx, answer) if lits else plan_text(text, ctx, answer)
        if planned is None or not planned.answered:
            self._plans.put(key, planned)
        return planned

    def _plan_shared(
        self, text: str, lits: literals.Literals, ctx: QueryContext, answer: _Answer
    ) -> Planned | None:
        """The plan of a text with integer literals, through its skeleton's shared plan
        (sql/literals), probed on the skeleton's second text: a skeleton never repeated
        costs no probe."""
        skey = (lits.skeleton, ctx.cache_key)
        known = self._shared.get(skey, _UNSEEN)
        if isinstance(known, _Template):
            return known.fill(text, lits.values)
        reads = checks.constant_reads
        planned = self._plan_text(text, ctx, answer)  # an error is not remembered
        if planned is not None and planned.answered:
            return planned  # the session's answers: no shared plan
        if known is _UNSEEN:
            self._shared.put(skey, _SEEN)
        elif known is _SEEN:
            self._shared.put(skey, self._template(lits, planned, ctx, reads))
        return planned

    def _plan_text(self, text: str, ctx: QueryContext, answer: _Answer = None) -> Planned | None:
        routed = route.route(
            self._inline(text, ctx), ctx, route.resolver(ctx, self.relations), self.relations,
            self.catalog_only,
        )  # fmt: skip
        if routed.route is not route.Route.DATA:
            if routed.shape is not None:
                guard.check_set_config(routed.shape.text, routed.shape.node)
            return None
        assert routed.shape is not None
        guard.check_user_calls(f.parts for f in routed.shape.func_refs)
        from rwshim.dataplane.plan import views  # (the planner's view inlining)

        st, settings, answered = views.rewritten(self, routed, answer)
        return Planned(text, routed, st, settings, answered)

    def _template(
        self, lits: literals.Literals, planned: Planned | None, ctx: QueryContext, reads: int
    ) -> _Template | None:
        """The plan of ``lits``' skeleton for any literals, or None when the plan may depend
        on their values (query/pg/literals)."""
        if planned is None or checks.constant_reads != reads:
            return None
        marks = literals.markers(len(lits.values))
        st = planned.statement
        own = (planned.text, st.text, st.repeated_key_text, planned.routed.prepassed.text)
        if literals.mentions_marker(own, marks):
            return None
        try:
            probe = self._plan_text(literals.fill(lits, marks), ctx)
        except Exception:  # whatever the probe meets, the text's own plan stands
            return None
        if probe is None or checks.constant_reads != reads:
            return None
        pst = probe.statement
        same_texts = dataclasses.replace(pst, text=st.text, repeated_key_text=st.repeated_key_text)
        if same_texts != st or _ids(probe.routed.user_relations()) != _ids(
            planned.routed.user_relations()
        ):
            return None  # the probe reads or writes otherwise: the plan depends on the values
        made = _Template(
            planned,
            literals.holes(pst.text, marks),
            None if pst.repeated_key_text is None else literals.holes(pst.repeated_key_text, marks),
            literals.holes(probe.routed.prepassed.text, marks),
        )
        if not _same(made.fill(planned.text, lits.values), planned):
            return None
        return made

    def _inline(self, text: str, ctx: QueryContext) -> str:
        """``text`` with its SQL functions inlined (binder/udf.py), as the binder sees it."""
        conn = getattr(self.relations, "conn", None)
        if conn is None:
            return text
        from rwshim.binder import udf_store

        names = udf_store.function_names(conn, ctx.database_id)
        return udf_store.inline(conn, ctx, text, names) if names else text

    def catalog_only(self, rel: Relation) -> bool:
        """Whether a view reads only catalog relations (then it runs in process)."""
        try:
            planned = self._definition(rel)
        except RwError:
            return False
        return planned is None

    def view_context(self, rel: Relation) -> QueryContext:
        """The context a view's definition binds in: its database, and the search_path of the
        session that created it (RisingWave binds the query once, at CREATE)."""
        db = self.relations.database_name(rel.database_id) or ""
        path = self.relations.view_search_path(rel.id)
        search_path = parse_search_path(path) if path else ("$user", "public")
        return QueryContext(rel.database_id, db, 0, "root", search_path)

    def definition_routed(self, rel: Relation) -> route.Routed | None:
        """A view's definition routed as it binds; None when it reads no user data."""
        if rel.definition is None:
            raise DataPlaneError(f"{rel.kind.value} {rel.name} has no definition")
        ctx = self.view_context(rel)
        # a materialized view reads its upstreams with the columns it was planned with
        relations = as_of(self.relations, rel)
        text, resolve = self._inline(rel.definition, ctx), route.resolver(ctx, relations)
        routed = route.route(text, ctx, resolve, relations, self.catalog_only)
        if routed.route is not route.Route.DATA and routed.reason == route.UNPARSABLE:
            raise rewrite.RewriteRefused(f"{rel.kind.value} {rel.name}: {routed.reason}")
        return routed if routed.route is route.Route.DATA else None

    def _definition(self, rel: Relation) -> Planned | None:
        from rwshim.dataplane.plan import views

        routed = self.definition_routed(rel)
        if routed is None:
            return None
        return Planned(rel.definition or "", routed, views.definition(self.relations, rel, routed))

    def objects_for(
        self, relation_id: int, seen: frozenset[int] = frozenset()
    ) -> list[ddl.PgObject]:
        """The objects of a relation and of what it reads, dependencies first."""
        cached = self._objects_by_rel.get(relation_id)
        if cached is not None:
            return cached
        if relation_id in seen:
            raise DataPlaneError(f"relation {relation_id} reads itself")
        rel = self.relations.relation_by_id(relation_id)
        if rel is None:
            raise RelationGone(relation_id)
        inner = seen | {relation_id}
        out: list[ddl.PgObject] = []
        if rel.kind == RelKind.TABLE:
            out.append(ddl.table(rel, self.expression))
            out += self.epochs.clocked.history(rel.id, out[-1])  # (time travel on)
        elif rel.kind in (RelKind.VIEW, RelKind.MATERIALIZED_VIEW):
            planned = self._definition(rel)
            if planned is None:
                raise rewrite.RewriteRefused(
                    f"a query joining {rel.name}, a view of catalog relations, with user data"
                )
            if planned.statement.snapshots:
                raise rewrite.RewriteRefused(
                    f"{rel.kind.value} {rel.name}, which joins catalog relations with user data"
                )
            out += [o for d in planned.statement.relation_ids for o in self.objects_for(d, inner)]
            out += [ddl.reader(rel.id, s, self.expression) for s in planned.statement.readers]
            if rel.kind == RelKind.MATERIALIZED_VIEW:
                st, zone = planned.statement, self.relations.job_time_zone(rel.id)
                resolve = route.resolver(self.view_context(rel), as_of(self.relations, rel))
                mv = ddl.materialized(rel, st.text, st.requires, resolve, zone)
                logs = changelogs.objects(rel, st.changelogs, changes.Keyed(self.relations))
                out += logs + self.epochs.clocked.view_objects(rel.id, st.temporal, mv, out)
            else:
                view = ddl.view(rel, planned.statement.text)
                out.append(ddl.requiring(view, planned.statement.requires))
        elif rel.kind == RelKind.SOURCE:
            out.extend(ddl.source(rel, self.expression))
        elif rel.kind == RelKind.INDEX and rel.indexed_id is not None:
            indexed = self.relations.relation_by_id(rel.indexed_id)
            if indexed is None:
                raise DataPlaneError(f"index {rel.name} has no relation")
            out.extend(self.objects_for(indexed.id, inner))
            out.extend(ddl.index(rel, indexed))
        else:
            raise rewrite.RewriteRefused(f"reading {rel.kind.value} {rel.name}")
        deduped = list({o.name: o for o in out}.values())
        self._objects_by_rel[relation_id] = deduped
        return deduped

    def expression(self, text: str) -> str:
        """A DEFAULT / generated expression in PostgreSQL's text (guarded as a query is:
        PostgreSQL evaluates it as the data role at every INSERT)."""
        out = rewrite.expression(text)
        if guard.guard(f"SELECT {out}").settings:
            raise guard.GuardRefused("set_config in a column expression")
        return out

    def name_of(self, ids: Iterable[int]) -> Callable[[int], str | None]:
        """Physical id -> the user's name, for the relations a statement touches."""
        wanted = set(ids)

        def lookup(i: int) -> str | None:
            if i not in wanted:
                return None
            found = self.relations.locate(i)
            return None if found is None else found[2]

        return lookup

    # --- the database -----------------------------------------------------------------------

    async def ready(self) -> None:
        """The database exists and is reconciled with the catalog (once; again after the
        server restarted)."""
        if self._closed:
            raise DataPlaneLost("the instance is closed")
        ready = self._ready
        if ready is not None and ready.done() and not _failed(ready):
            return  # every data statement asks: no shield, no future
        if self._ready is None or _failed(self._ready):
            self._ready = asyncio.get_running_loop().create_future()
            try:
                await self._open()
            except BaseException as e:
                self._ready.set_exception(e if isinstance(e, Exception) else RuntimeError(e))
                self._ready.exception()  # retrieved: no "never retrieved" warning
                raise
            self._ready.set_result(None)
            return
        await asyncio.shield(self._ready)

    async def _open(self) -> None:
        try:
            await self.host.create_database(self.dbname)
            self._admin = await PgConn.connect(self.host.conninfo(self.dbname))
            self._admin_generation = self.generation()
            await self._load_made(self._admin)
            self._reconciled = None
            self.types = TypeCatalog(self._lookup_types)
            self._types_made.clear()
        except DataPlaneError as e:
            raise RwError(str(e)) from None
        except ConnectionLost as e:
            raise DataPlaneLost(str(e)) from None

    async def _load_made(self, conn: PgConn) -> None:
        res = await conn.query(f"SELECT name, signature FROM {names.FUNCTION_SCHEMA}.objects")
        self._made = {
            (res.get_value(r, 0) or b"").decode(): (res.get_value(r, 1) or b"").decode()
            for r in range(res.ntuples)
        }

    def conninfo(self) -> str:
        """rwshim's own connection to the database (objects, change logs): never a user
        statement."""
        return self.host.conninfo(self.dbname)

    def data_conninfo(self) -> str:
        """The connection user statements run on (the unprivileged data role: roles.py)."""
        return self.host.data_conninfo(self.dbname)

    def generation(self) -> int:
        """The server's generation (bumped at every crash: older connections are gone)."""
        server = self.host.server
        return 0 if server is None else server.generation

    async def wait_server(self) -> None:
        """Until the server accepts sessions again (after a crash, rwshim restarts it)."""
        try:
            await self.host.ready()
        except DataPlaneError as e:
            raise DataPlaneLost(str(e)) from None

    async def _admin_conn(self) -> PgConn:
        admin = self._admin
        if admin is None or admin.closed or self._admin_generation != self.generation():
            if admin is not None:
                admin.close_now()
            self._admin = None
            fresh: PgConn | None = None
            for attempt in range(2):
                try:
                    fresh = await PgConn.connect(self.conninfo())
                    break
                except ConnectionLost as e:
                    if attempt:
                        raise DataPlaneLost(str(e)) from None
                    await self.wait_server()
            assert fresh is not None
            self._admin, self._admin_generation = fresh, self.generation()
            await self._load_made(fresh)
            return fresh
        return admin

    async def _lookup_types(self, oids: list[int]) -> list[TypeRow]:
        """pg_type rows of these OIDs and of their element types (typecat.Lookup)."""
        array = ("{" + ",".join(str(o) for o in oids) + "}").encode()
        async with self._admin_lock():
            conn = await self._admin_conn()
            res = await conn.query(typecat.LOOKUP_SQL, [array], [0])
        return typecat.rows_of(res)

    async def ensure_types(self, statements: Iterable[str]) -> None:
        """Run the type DDL a statement needs (composites of its struct casts) once."""
        todo = [s for s in statements if s not in self._types_made]
        if not todo:
            return
        async with self._admin_lock():
            conn = await self._admin_conn()
            for sql in todo:
                try:
                    await conn.script(sql)
                except ConnectionLost as e:
                    self._admin = None
                    raise DataPlaneLost(str(e)) from None
                self._types_made.add(sql)

    def made_names(self) -> list[str]:
        """The physical names of the objects made (rwfn.objects as of our last commit)."""
        return list(self._made)

    def admin_lock(self) -> asyncio.Lock:
        """Held while objects are made or dropped, and while a barrier commits (epochs.py)."""
        return self._admin_lock()

    def _admin_lock(self) -> asyncio.Lock:
        """Held by whatever uses the admin connection (one statement at a time on it)."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        return self._lock

    def _stale(self) -> list[str]:
        """Objects the catalog no longer has."""
        ids = self.relations.relation_ids()
        out = []
        for name in self._made:
            parsed = names.parse_physical(name)
            if parsed is None or parsed[1] not in ids:
                out.append(name)
        return out

    async def ensure(self, relation_ids: Iterable[int]) -> None:
        """Make the objects of these relations (and what they read) as the catalog says."""
        version = self._follow_catalog()
        # one list, each object once, dependencies first: two relations of one statement share
        # what they read (b reads a, `SELECT * FROM b, a`), and an object listed twice would
        # be created twice in one transaction ("relation already exists")
        by_name: dict[str, ddl.PgObject] = {}
        for rid in relation_ids:
            for obj in self.objects_for(rid):
                by_name.setdefault(obj.name, obj)
        wanted = list(by_name.values())
        todo = [o for o in wanted if self._made.get(o.name) != o.signature]
        if not todo and version == self._reconciled:
            return
        async with self._admin_lock():
            todo = [o for o in wanted if self._made.get(o.name) != o.signature]
            stale = self._stale() if version != self._reconciled else []
            all_dropped = True
            if todo or stale:
                touched = tables_touched(self.relations, todo, stale)
                if touched:
                    # PostgreSQL's DDL on a table an open epoch wrote would wait for it: in
                    # RisingWave that DDL is a barrier command, which commits the epoch
                    await self.epochs.commit_tables(touched)
                try:
                    all_dropped = await self._drop_stale(stale)
                    if todo:
                        await self._apply(todo)
                        # a table that lost a column took what read it along (CASCADE)
                        again = [o for o in wanted if self._made.get(o.name) != o.signature]
                        if again:
                            await self._apply(again)
                except ConnectionLost as e:
                    self._admin = None
                    raise DataPlaneLost(str(e)) from None
            if all_dropped:  # else the next statement tries the drops left again
                self._reconciled = version

    async def _drop_stale(self, stale: list[str]) -> bool:
        """Drop the objects the catalog no longer has, each in a transaction of its own that
        waits for no lock: an object some session still reads (a suspended portal, an open
        cursor, a result streaming to a slow client hold PostgreSQL's lock on it until they
        end) is left for a later pass, so that no other session's statement waits behind
        that reader.  True when every one is gone."""
        if not stale:
            return True
        conn = await self._admin_conn()
        objects = f"{names.FUNCTION_SCHEMA}.objects"
        all_dropped = True
        for name in stale:
            kind = {"t": "TABLE", "v": "VIEW", "i": "INDEX", "q": "VIEW", "m": "TABLE"}.get(
                name[:1], "TABLE"
            )
            script = ";\n".join(
                [
                    "BEGIN",
                    "SET LOCAL lock_timeout = 1",  # ms; 0 would mean "wait for ever"
                    f"DROP {kind} IF EXISTS {names.DATA_SCHEMA}.{names.quote_ident(name)} CASCADE",
                    *([ddl.drop_conflict_function(name)] if kind == "TABLE" else []),
                    _FORGET_GONE.format(objects=objects, schema=names.DATA_SCHEMA),
                    "COMMIT",
                ]
            )
            try:
                await conn.script(script)
            except PgFailure as e:
                with contextlib.suppress(Exception):
                    await conn.script("ROLLBACK")
                if e.error.sqlstate != "55P03":  # lock_not_available: read now, drop later
                    await self._load_made(conn)
                    raise map_error(e.error, self.name_of([])) from None
                all_dropped = False
        await self._load_made(conn)
        return all_dropped

    async def _apply(self, todo: list[ddl.PgObject]) -> None:
        conn = await self._admin_conn()
        # function names in views and column expressions bind as in a data session's query
        # (rwfn's RisingWave functions first): a view must answer as its query does ad hoc
        statements = ["BEGIN", f"SET LOCAL search_path = {names.SEARCH_PATH}"]
        statements += self.epochs.clocked.setting(self.epochs.clocked.current())  # now()
        made: dict[str, str] = {}
        for obj in todo:
            old = self._made.get(obj.name)
            if old is not None and obj.kind == "table":
                rel = self.relations.relation_by_id(obj.relation_id)
                if rel is None:
                    raise RelationGone(obj.relation_id)
                statements.extend(ddl.table_migration(old, rel, self.expression))
            else:
                if old is not None:
                    statements.append(obj.drop())
                statements.extend(obj.create)
            made[obj.name] = obj.signature
        objects = f"{names.FUNCTION_SCHEMA}.objects"
        for name, signature in made.items():
            statements.append(
                f"INSERT INTO {objects} VALUES ({quote_literal(name)}, {quote_literal(signature)})"
                " ON CONFLICT (name) DO UPDATE SET signature = EXCLUDED.signature"
            )
        # what a CASCADE took with it is no longer made
        statements += [_FORGET_GONE.format(objects=objects, schema=names.DATA_SCHEMA), "COMMIT"]
        try:
            await conn.script(";\n".join(statements))
        except PgFailure as e:
            with contextlib.suppress(Exception):
                await conn.script("ROLLBACK")
            await self._load_made(conn)
            if e.error.sqlstate == UNDEFINED_TABLE and todo:  # raced by a DROP: plan again
                raise RelationGone(todo[0].relation_id) from None
            raise nonstrict.apply_error(e.error, todo, self.name_of) from None
        await self._load_made(conn)

    # --- row counts for the backfill model ------------------------------------------------

    def scan_relations(self, relation_ids: Iterable[int]) -> list[int]:
        """The relations a backfill over these reads: views are followed to what they read
        (the engine follows them to their streaming inputs)."""
        out: list[int] = []
        stack = list(relation_ids)
        seen: set[int] = set()
        while stack:
            rid = stack.pop()
            if rid in seen:
                continue
            seen.add(rid)
            rel = self.relations.relation_by_id(rid)
            if rel is None:
                continue
            if rel.kind == RelKind.VIEW:
                try:
                    planned = self._definition(rel)
                except RwError:
                    continue
                if planned is not None:
                    stack.extend(planned.statement.relation_ids)
                continue
            out.append(rid)
        return out

    def row_count(self, relation_id: int) -> int:
        return self.counts.get(relation_id, 0)

    async def refresh_counts(self, relation_ids: Iterable[int], *, create: bool = False) -> None:
        """Count the rows of these relations now (``create``: before a CREATE that backfills
        from them, whose barrier commits the open epoch first; else a recount, which reads
        the committed state as it is)."""
        ids = [i for i in relation_ids if self.relations.relation_by_id(i) is not None]
        if not ids:
            return
        await self.ready()
        readable = []
        for i in ids:
            try:
                self.objects_for(i)
            except RwError:
                self.counts[i] = 0
                continue
            rel = self.relations.relation_by_id(i)
            if rel is not None and rel.kind == RelKind.TABLE and not self._table_made(i):
                # A table whose object was never made has had no row written: nothing to
                # count, and making it only to count it (and dropping it again after a
                # DROP) would cost two PostgreSQL transactions per CREATE (a DDL cycle's).
                # A DML makes the object (under the admin lock) before it writes.
                self.counts[i] = 0
                continue
            readable.append(i)
        try:
            await self.ensure(readable)
        except RwError:
            # dropped meanwhile, or not readable: the CREATE's own checks report it
            return
        async with self._admin_lock():
            # the CREATE's barrier commits the epoch before its backfill reads the snapshot
            # (the DML executor flushes at the barrier, dml.rs:225-236)
            if create:
                databases = {
                    r.database_id for i in readable if (r := self.relations.relation_by_id(i))
                }
                await self.epochs.commit_databases(databases)
            conn = await self._admin_conn()
            for i in readable:
                rel = self.relations.relation_by_id(i)
                if rel is None:  # dropped meanwhile
                    self.counts.pop(i, None)
                    continue
                target = rewrite.physical(rel)
                try:
                    res = await conn.query(f"SELECT count(*) FROM {target}")
                    self.counts[i] = int((res.get_value(0, 0) or b"0").decode())
                except ConnectionLost:
                    self._admin = None
                    self.counts[i] = 0
                except PgFailure:
                    self.counts[i] = 0

    def _table_made(self, relation_id: int) -> bool:
        return names.table_name(relation_id) in self._made

    def recount_soon(self, relation_id: int) -> None:
        """A count the engine needs and this process never took (a restart): take it in the
        background when there is a loop and data may exist (``--data-dir`` or started)."""
        if self._closed or relation_id in self._recounting:
            return
        if not (self.started or self.host.data_dir is not None or self.host.external):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._recounting.add(relation_id)

        async def run() -> None:
            try:
                await self.refresh_counts([relation_id])
            except Exception as e:
                log.debug("counting %d: %s", relation_id, e)
            finally:
                self._recounting.discard(relation_id)

        task = loop.create_task(run())
        self._count_tasks.add(task)
        task.add_done_callback(self._count_tasks.discard)

    def recount_later(self, relation_id: int) -> None:
        """After DML on a table whose count the engine reads: count it again, off the path."""
        if relation_id not in self.counts or self._closed:
            return

        async def run() -> None:
            with contextlib.suppress(Exception):
                await self.refresh_counts([relation_id])

        task = asyncio.get_running_loop().create_task(run())
        self._count_tasks.add(task)
        task.add_done_callback(self._count_tasks.discard)

    # --- end ----------------------------------------------------------------------------------

    def close_now(self) -> None:
        """Close the connections without waiting; an in-memory instance's database is dropped
        in the background."""
        self._closed = True
        self.epochs.close_now()
        self.pool.close_now()
        for task in list(self._count_tasks):
            task.cancel()
        if self._admin is not None:
            self._admin.close_now()
            self._admin = None
        ready = self._ready
        if ready is not None and ready.done() and not _failed(ready):
            self.host.drop_database(self.dbname)

    @property
    def started(self) -> bool:
        """Whether the database has been opened by this instance."""
        return self._ready is not None


def _failed(fut: asyncio.Future[None]) -> bool:
    return fut.done() and (fut.cancelled() or fut.exception() is not None)
