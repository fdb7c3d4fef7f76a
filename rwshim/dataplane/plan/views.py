"""A routed statement made into the text PostgreSQL runs, with the views RisingWave binds in
the reading session inlined.

``guarded`` is the last step of every statement (rewrite.py, then guard.py).  ``rewritten``
adds the views: a view whose definition calls what RisingWave answers in the session
(``set_config``, ``has_table_privilege``, ...: guard.SessionBound), or reads such a view, cannot
be a PostgreSQL view made once for every reader.  RisingWave binds a view's query again
wherever it is used (src/frontend/src/binder/relation/table_or_source.rs bind_view: the stored
SQL is parsed and bound in the reading session), so its ``set_config`` sets the reader's
variable and its ``has_table_privilege`` answers for the reader: here such a view is read as its
definition, planned for the reading session and spliced in as a subquery under the view's
column names.

``definition`` makes a view's or materialized view's own statement: a materialized view binds
its session values when it is created (builtin_scalar.rs: current_user, current_database,
current_schema, set_config are literals of the binding session), here from what the catalog
keeps of that session (``creation_answer``).
"""

from __future__ import annotations

import dataclasses
from typing import Protocol

from rwshim.binder.relations import Relation, RelKind
from rwshim.common import pgtypes
from rwshim.dataplane.plan import changelogs, guard, names, rewrite, temporal
from rwshim.dataplane.plan.route import Routed
from rwshim.errors import RwError

# views read through views, at most (a cycle is impossible: RisingWave refuses it at CREATE)
_DEPTH = 32


class _Connector(Protocol):
    @property
    def connector(self) -> str: ...


class Creation(Protocol):
    """What the catalog keeps of the session that created a materialized view, and of the
    sources it reads (their connectors)."""

    def connector(self, relation_id: int) -> _Connector | None: ...
    def user_name(self, user_id: int) -> str | None: ...
    def database_name(self, database_id: int) -> str | None: ...
    def view_search_path(self, relation_id: int) -> str | None: ...
    def schema_exists(self, database_id: int, schema: str) -> bool: ...


def datagen_sources(catalog: Creation, rel: Relation, routed: Routed) -> list[Relation]:
    """The datagen sources a materialized view reads directly: each through its own reader
    (ddl.reader), as each RisingWave job runs its own source executor."""
    if rel.kind != RelKind.MATERIALIZED_VIEW:
        return []
    out: dict[int, Relation] = {}
    for used in routed.user_relations():
        if used.kind != RelKind.SOURCE:
            continue
        conn = catalog.connector(used.id)
        if conn is not None and conn.connector == "datagen":
            out[used.id] = used
    return list(out.values())


def creation_answer(catalog: Creation, rel: Relation) -> guard.Answer:
    """A materialized view's session values as RisingWave binds them when the view is
    created (builtin_scalar.rs:109-132: current_user, session_user, current_database are
    literals of the binding session; :508-513 current_schema, its first schema that exists),
    from what the catalog keeps of that session: its user (the view's owner), database and
    search path.  Anything else of the session is not kept (guard.py refuses it)."""
    from rwshim.binder.context import QueryContext, parse_search_path
    from rwshim.binder.functions import FunctionState

    user = catalog.user_name(rel.owner_id) or ""
    path = catalog.view_search_path(rel.id)
    ctx = QueryContext(
        rel.database_id,
        catalog.database_name(rel.database_id) or "",
        rel.owner_id,
        user,
        parse_search_path(path) if path else ("$user", "public"),
    )
    state = FunctionState(ctx=ctx, schema_exists=catalog.schema_exists)

    def answer(call: str) -> guard.Answered:
        name = call.split("(")[0]
        if name in ("current_database", "current_catalog"):
            return pgtypes.VARCHAR, ctx.database
        if name == "current_schema":
            return pgtypes.VARCHAR, state.current_schema()
        return pgtypes.VARCHAR, user  # current_user, session_user, user, current_role

    return answer


class Definitions(Protocol):
    def definition_routed(self, rel: Relation) -> Routed | None:
        """A view's definition routed as it binds (its database, its creator's search path);
        None when it reads no user data."""


def guarded(
    st: rewrite.PgStatement,
    answer: guard.Answer | None = None,
    materialized: bool = False,
    readers: tuple[str, ...] = (),
) -> tuple[rewrite.PgStatement, guard.Settings, bool]:
    """The statement as it may reach PostgreSQL (guard.py), its settings, and whether it
    holds answers given in process; ``materialized``: a materialized view's definition;
    ``readers``: the job's own datagen readers it reads (ddl.reader)."""
    rels = frozenset(
        {(names.DATA_SCHEMA, f"{k}{i}") for i in st.relation_ids for k in "tv"}
        | {(names.DATA_SCHEMA, r) for r in readers}
        | {("pg_temp", names.snapshot_name(schema, name)) for schema, name in st.snapshots}
        | temporal.relations(st.temporal, st.histories)
        | changelogs.guard_names(st.changelogs)
    )
    text, settings, answered = guard.guard(st.text, rels, answer, materialized)
    repeated = st.repeated_key_text
    if repeated is not None:
        try:
            repeated = guard.guard(repeated, rels).text
        except RwError:
            # dml.repeated_key_text takes the INSERT's source from the user's text, whose
            # relation names are not the physical ones: PostgreSQL would read whatever those
            # names find on its search path.  Not run: the repeated key's error stands.
            repeated = None
    return dataclasses.replace(st, text=text, repeated_key_text=repeated), settings, answered


def definition(
    catalog: Creation, rel: Relation, routed: Routed, own_readers: bool = True
) -> rewrite.PgStatement:
    """A view's or materialized view's definition as PostgreSQL holds it: a materialized
    view's session values bound to its creation (``creation_answer``); a view that calls
    set_config is ``guard.SessionBound`` (RisingWave binds a view's query again at every use,
    PostgreSQL's view would answer without setting the variable: the reader inlines it).
    A materialized view reads each datagen source through its own reader (ddl.reader);
    ``own_readers`` False: through the source's log (a sink's query: its readers are not
    made yet)."""
    materialized = rel.kind == RelKind.MATERIALIZED_VIEW
    answer = creation_answer(catalog, rel) if materialized else None
    sources = datagen_sources(catalog, rel, routed) if own_readers else []
    inline: dict[int, str] = {}
    for source in sources:
        cols = ", ".join(names.pg_ident(c.name) for c in source.columns) or "NULL"
        reader = names.pg_ident(names.reader_name(rel.id, source.id))
        inline[source.id] = f"(SELECT {cols} FROM {names.DATA_SCHEMA}.{reader})"
    readers = tuple(names.reader_name(rel.id, s.id) for s in sources)
    # a streaming job's group keys aggregate by hash (plan/hashkeys); a view is batch
    streaming = rel.kind != RelKind.VIEW
    st, settings, _ = guarded(
        rewrite.rewrite(routed, inline, streaming), answer, materialized, readers
    )
    st = dataclasses.replace(st, readers=tuple(sources))
    if settings and not materialized:  # (a materialized view keeps the value it bound)
        raise guard.SessionBound(f"set_config in the definition of {rel.name}")
    st = changelogs.for_view(st, rel)  # its changelog CTEs read its logs
    return temporal.for_view(st, rel)  # its temporal joins read its arrivals


def rewritten(
    defs: Definitions, routed: Routed, answer: guard.Answer | None, depth: int = 0
) -> tuple[rewrite.PgStatement, guard.Settings, bool]:
    """The guarded statement, its settings (the inlined views' first), and whether it holds
    the session's answers."""
    inline: dict[int, str] = {}
    reads: list[int] = []
    snapshots: list[tuple[str, str]] = []
    pre: list[tuple[str, str]] = []
    if answer is not None and depth < _DEPTH:
        for rel in routed.user_relations():
            sub_routed = defs.definition_routed(rel) if session_bound(defs, rel) else None
            if sub_routed is None:
                continue
            sub, sub_settings, _ = rewritten(defs, sub_routed, answer, depth + 1)
            cols = ", ".join(names.pg_ident(c.name) for c in rel.columns)
            inline[rel.id] = f"(SELECT * FROM ({sub.text}) AS __rw_view({cols}))"
            reads.extend(sub.relation_ids)
            snapshots.extend(sub.snapshots)
            pre.extend(sub_settings)
    st = rewrite.rewrite(routed, inline)
    changelogs.check_batch(st)  # a batch query may not read a changelog CTE
    if inline:
        ids = [i for i in st.relation_ids if i not in inline] + reads
        st = dataclasses.replace(
            st,
            relation_ids=tuple(dict.fromkeys(ids)),
            snapshots=tuple(dict.fromkeys((*st.snapshots, *snapshots))),
        )
    st, settings, answered = guarded(st, answer)
    temporal.check_batch(st)  # a batch query may not use a temporal join
    return st, (*pre, *settings), answered or bool(inline)


def session_bound(defs: Definitions, rel: Relation, depth: int = 0) -> bool:
    """Whether a view's definition, or a view it reads, calls what RisingWave answers in the
    reading session."""
    if rel.kind != RelKind.VIEW or depth > _DEPTH:
        return False
    try:
        routed = defs.definition_routed(rel)
        if routed is None:
            return False
        if guarded(rewrite.rewrite(routed))[1]:
            return True  # set_config
    except guard.SessionBound:
        return True
    except RwError:
        return False
    return any(session_bound(defs, r, depth + 1) for r in routed.user_relations())
