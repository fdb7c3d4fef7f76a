"""CREATE TABLE | MATERIALIZED VIEW | VIEW | SOURCE | SINK | INDEX | SCHEMA | DATABASE: the
frontend's part of each (the columns of a table definition or of the bound query, the
relations a query reads), handed to ``engine.ddl`` or ``engine.catalog``.

RisingWave: ``src/frontend/src/handler/create_table.rs``, ``create_mv.rs``,
``create_view.rs``, ``create_source.rs``, ``create_sink.rs``, ``create_index.rs``,
``create_schema.rs``, ``create_database.rs``, ``create_table_as.rs``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from rwshim.binder import types as qtypes
from rwshim.common import pgtypes, rwtypes
from rwshim.common.names import resolve_schema_qualified_name, resolve_single_name
from rwshim.common.outcome import Outcome
from rwshim.engine import ColumnSpec
from rwshim.engine.types import Result
from rwshim.errors import (
    CatalogNotFound,
    InternalError,
    InternalTableRead,
    InvalidInputSyntax,
    NotSupported,
    RwError,
)
from rwshim.frontend import cdc_upstream, connectors, eowc, plan_checks, temporal, variant_rules
from rwshim.frontend.alter_values import resource_group
from rwshim.frontend.common import Handler, engine_name
from rwshim.frontend.include_columns import connector_of
from rwshim.frontend.query import run_dml
from rwshim.sql import changelog_cte, column_exprs, unparse
from rwshim.sql import statements as st
from rwshim.sql.cache import TextLRU
from rwshim.sql.column_names import check_collation, check_not_reserved
from rwshim.sql.columns import table_schema

if TYPE_CHECKING:
    from rwshim.frontend.frontend import Frontend
    from rwshim.sql.unparse import nodes, purify


def table_columns(columns_text: str | None) -> tuple[list[ColumnSpec], list[str]]:
    """The columns and primary key of a column-list definition."""
    schema = table_schema(columns_text)
    specs = []
    for c in schema.columns:
        check_collation(c.type_text, c.collation)  # create_table.rs:150-167, then the name
        check_not_reserved(c.name)  # before its type (create_table.rs:178)
        oid, rw = rwtypes.bind_column_type(c.type_name, c.type_text, c.array_dims)
        specs.append(
            ColumnSpec(
                c.name,
                oid,
                rw,
                # NOT NULL alone: a key column may hold NULL (create_table.rs:181-183)
                is_nullable=not c.not_null,
                default_expr=c.default,
                generated_expr=c.generated,
            )
        )
    return specs, list(schema.primary_key)


_RETENTION_NOTICE = (
    "Storage retention is enabled for non-append-only table. This may lead to stream "
    "inconsistency and unrecoverable node failure if there is any row INSERT/UPDATE/DELETE "
    "operation corresponding to the TTLed primary keys"
)
_WITH_TTL = re.compile(r"(?i)\bWITH\s+TTL\s*$")


def _append_only_rules(fe: Frontend, stmt: st.CreateTable) -> str | None:
    """What only an APPEND ONLY table may have (create_table.rs:779-810): a watermark without
    TTL, and ``retention_seconds`` unless the session allows it unsafely (then a notice,
    returned).  An existing name is refused first, by the engine."""
    if stmt.append_only or fe.instance.engine.catalog.lookup(
        fe.ctx(), engine_name(stmt.name, fe.database)
    ):
        return None
    marks = table_schema(stmt.columns_text).watermarks if stmt.query is None else ()
    if any(not _WITH_TTL.search(expr) for _, expr in marks):
        raise NotSupported(
            "Defining watermarks on table requires the table to be append only.",
            "Use the key words `APPEND ONLY`",
        )
    retention = dict(stmt.with_options).get("retention_seconds", "")
    if not (retention.isdigit() and 0 < int(retention) < 2**32):
        return None  # parsed as a NonZeroU32, else no retention (with_options.rs:152-156)
    if fe.config.get("unsafe_enable_storage_retention_for_non_append_only_tables") == "true":
        return _RETENTION_NOTICE
    raise NotSupported(
        "Defining retention seconds on table requires the table to be append only.",
        "Use the key words `APPEND ONLY`",
    )


def _check_column_exprs(
    fe: Frontend, name: st.ObjectName, cols: Sequence[ColumnSpec], pk: Sequence[str]
) -> None:
    """The DDL binder's refusals of generated and DEFAULT expressions (column_exprs); an
    existing name is refused first, by the engine (check_relation_name_duplicated comes
    before the columns are bound)."""
    if fe.instance.engine.catalog.lookup(fe.ctx(), engine_name(name, fe.database)):
        return
    column_exprs.check_table_columns([(c.name, c.default_expr, c.generated_expr) for c in cols], pk)


@dataclass(frozen=True, slots=True)
class BoundQuery:
    """What a CREATE ... AS needs of its bound query: the columns, the relations it reads, and
    whether its streaming plan has a Values leaf (``values_leaf``: VALUES, a SELECT without
    FROM, an uncorrelated table function; plan_can_use_background_ddl,
    src/frontend/src/optimizer/plan_node/utils.rs:471-499)."""

    columns: list[ColumnSpec] = field(default_factory=list)
    upstreams: list[int] = field(default_factory=list)
    values_leaf: bool = False
    key: list[int] = field(default_factory=list)  # a view's known stream key (hidden row id)


def query_columns(
    fe: Frontend, query: str, names: Sequence[str] = (), rules: str = "mv", statement: str = ""
) -> BoundQuery:
    """``_query_columns``; a relation the query reads that is one of the database's internal
    tables is refused for ``statement`` (plan_checks.refuse_internal_table)."""
    try:
        return _query_columns(fe, query, names, rules)
    except CatalogNotFound as e:
        if statement:
            plan_checks.refuse_internal_table(fe, e, statement)
        raise
    except InternalTableRead as e:
        if statement:
            # reject_internal_table_dependencies (handler/util.rs:377-393)
            raise InvalidInputSyntax(
                f'{statement} does not support internal table "{e.name}"'
            ) from None
        raise


def _query_columns(
    fe: Frontend, query: str, names: Sequence[str] = (), rules: str = "mv"
) -> BoundQuery:
    """The columns of a bound query, the relations it reads, its Values leaves.

    ``rules`` are the CREATE's naming rules: ``mv`` (and sinks) those of create_mv.rs (an
    alias for every item without a derivable name, at most as many names as columns);
    ``view`` create_view.rs:73-92 (a batch query's columns: ``?column?`` for an unnamed
    item, a column list exactly as long); ``table`` create_table_as.rs (a batch query's
    columns, at most as many names); ``into`` a sink into a table (create_sink.rs:355-359: no
    alias needed, the INTO list renames them all, set_out_names, optimizer/mod.rs:223-231)."""
    ctx = fe.query_context()
    if rules == "mv":
        from rwshim.binder import streaming_now

        try:
            analysis = fe.instance.query.check_mv_columns(query, ctx, names)
        except RwError:
            # the select list's now() fails before the checks after binding (group by...)
            streaming_now.check(query)
            raise
        streaming_now.check(query)  # builtin_scalar.rs:869-893
        temporal.check_temporal_joins(fe, query)
        columns = analysis.columns
    elif rules == "into":
        analysis = fe.instance.query.analyze(query, ctx)
        columns = analysis.columns
        if names and len(names) != len(columns):
            raise InvalidInputSyntax("number of column names does not match number of columns")
        columns = [replace(c, name=n) for c, n in zip(columns, names, strict=False)] + list(
            columns[len(names) :]
        )
    else:
        analysis = fe.instance.query.analyze(query, ctx)
        columns = analysis.columns
        if rules == "view" and names and len(names) != len(columns):
            raise InternalError("view has different number of columns than the query's columns")
        if rules == "table" and len(names) > len(columns):
            raise InvalidInputSyntax("too many column names were specified")
        columns = [replace(c, name=n) for c, n in zip(columns, names, strict=False)] + list(
            columns[len(names) :]
        )
        seen: set[str] = set()
        for c in columns:
            # RisingWave keeps a view's or table's two columns of one name (a self-join's
            # *); the data plane's PostgreSQL object cannot, so rwshim refuses as an MV does
            if c.name in seen:
                raise InvalidInputSyntax(f'column "{c.name}" specified more than once')
            seen.add(c.name)
    for name in names if rules != "into" else ():  # once planned (create_mv.rs:148-151)
        check_not_reserved(name)
    cols = [_output_column(c.name, c.type_oid) for c in columns]
    return BoundQuery(cols, list(analysis.upstreams), analysis.values_leaf)


def ctas_column_names(columns_text: str | None) -> list[str]:
    """The names of CREATE TABLE t (a, b) AS's column list (create_table_as.rs:47-52: no data
    type may be given)."""
    if not columns_text:
        return []
    from rwshim.sql.tokens import Kind, tokenize

    toks = [t for t in tokenize(columns_text) if t.kind is not Kind.EOF]
    inner = toks[1:-1] if toks and toks[0].value == "(" else toks
    names: list[str] = []
    item: list[object] = []
    for t in [*inner, None]:
        if t is None or (t.kind is Kind.OP and t.value == ","):
            if len(item) != 1:
                raise InvalidInputSyntax("Should not specify data type in CREATE TABLE AS")
            names.append(str(item[0]))
            item = []
        else:
            item.append(t.value if t.quoted or t.kind is not Kind.WORD else t.value.lower())
    return names


def _output_column(name: str, oid: int) -> ColumnSpec:
    """A query output column as the catalog keeps it: a struct is a RECORD column whose type
    text names its fields (as a table's struct column is kept)."""
    found = qtypes.catalog_type(oid, rwtypes.rw_type_name)  # a struct, a map passed through
    if found is not None:
        return ColumnSpec(name, *found)
    return ColumnSpec(name, oid, rwtypes.rw_type_name(oid))


async def count_upstreams(fe: Frontend, upstreams: Sequence[int]) -> None:
    """The backfill model reads its upstreams' row counts synchronously: count them first,
    unless no data statement ever ran here (then every table is empty)."""
    data = fe.instance.data
    if upstreams and (data.started or fe.instance.data_dir is not None):
        await data.refresh_counts(data.scan_relations(upstreams), create=True)


async def bound_after_counting(fe: Frontend, bind: Callable[[], BoundQuery]) -> BoundQuery:
    """The CREATE's bound query, with its upstreams counted first; bound again when the
    catalog changed while counting, so that the engine call that follows (without a wait in
    between) sees the relations the binding saw."""
    bound = bind()
    version = fe.instance.relations.fingerprint()
    await count_upstreams(fe, bound.upstreams)
    if fe.instance.relations.fingerprint() != version:
        bound = bind()
    return bound


def new_query_columns(
    fe: Frontend,
    name: st.ObjectName,
    if_not_exists: bool,
    query: str,
    column_names: Sequence[str] = (),
    rules: str = "mv",
    statement: str = "",
) -> BoundQuery:
    """The bound query of a CREATE ... AS; nothing when IF NOT EXISTS meets an existing
    object (the engine answers with its notice, and the query need not bind any more)."""
    if if_not_exists and fe.instance.engine.catalog.lookup(
        fe.ctx(), engine_name(name, fe.database)
    ):
        return BoundQuery()
    return query_columns(fe, query, column_names, rules, statement)


# --- definitions (RisingWave stores the statement's Display: rwshim/sql/unparse) -----------


def parsed(text: str) -> nodes.Statement:
    """The CREATE statement as RisingWave's parser reads it; a form it does not read fails
    with its parser's error."""
    try:
        return unparse.parse_create(text)
    except unparse.UnparseError as e:
        raise e.parser_error(text) from None


# Definitions by statement text (and, for a table, its columns): the printer's parse is a
# pure function of them and costs ~0.3 ms a statement (a script re-run, a test suite, a
# migration tool's CREATE over again).
_DEFINITIONS: TextLRU[str] = TextLRU(4 * 1024 * 1024, factor=2)
_TABLE_DEFINITIONS: TextLRU[str] = TextLRU(4 * 1024 * 1024, factor=2)


def stored_definition(text: str) -> str:
    """normalize_sql (handler/mod.rs:246-302): the Display, OR REPLACE / IF NOT EXISTS gone."""
    return _DEFINITIONS.get_or_make(text, lambda: unparse.normalized(parsed(text)))


def _user_columns(cols: Sequence[ColumnSpec]) -> list[purify.Column]:
    from rwshim.sql.unparse import purify

    return [
        purify.Column(c.name, c.rw_type, c.default_expr is not None)
        for c in cols
        if not c.is_hidden
    ]


def table_definition(stmt: st.CreateTable, cols: Sequence[ColumnSpec], pk: Sequence[str]) -> str:
    """create_sql_purified (table_catalog.rs:293-330): a CREATE TABLE AS is stored empty and
    shows its catalog columns; any other table its statement purified from the columns.  rwshim
    purifies once, at CREATE: nothing alters a table's columns afterwards."""
    from rwshim.sql.unparse import nodes, purify

    if stmt.query is not None:
        return purify.table_as_definition(stmt.name.name, _user_columns(cols))
    user = _user_columns(cols)

    def make() -> str:
        node = parsed(stmt.text)
        assert isinstance(node, nodes.CreateTable)
        return purify.purified_definition(node, user, pk, not pk)

    key = repr((stmt.text, [(c.name, c.rw_type, c.has_default) for c in user], list(pk)))
    return _TABLE_DEFINITIONS.get_or_make(key, make)


def read_query_template(fe: Frontend, query: str) -> str:
    """The template of the query a materialized view or sink reads (sql/unparse/bound.py),
    its relation references resolved as the binder resolves them, as JSON."""
    ctx = fe.query_context()
    resolve = fe.instance.query.relation_id
    catalog = fe.instance.engine.catalog

    from rwshim.sql.unparse import bound

    def view_of(relation_id: int) -> bound.View | None:
        found = catalog.view_of(relation_id)
        return None if found is None else bound.View(found[0], tuple(found[1]))

    try:
        tpl = unparse.template(query, lambda parts: resolve(ctx, parts), view_of)
    except unparse.UnparseError as e:
        raise e.parser_error(query) from None
    return tpl.to_json()


def _start_connector(fe: Frontend, connector: object) -> None:
    """A connector that produces its own rows (datagen, posix_fs) starts producing at the barriers
    after its CREATE: the connector runtime (and the data plane it writes to) is made now."""
    if str(connector or "").lower() in ("datagen", "posix_fs"):
        fe.instance.sources  # noqa: B018 (made on first use)


async def handle_create_table(fe: Frontend, stmt: st.CreateTable, params: list[object]) -> Outcome:
    connector = dict(stmt.with_options).get("connector")
    added: connectors.Additions | None = None
    if stmt.query is not None:
        names = ctas_column_names(stmt.columns_text)
        cols = query_columns(
            fe, stmt.query, names, rules="table", statement="CREATE TABLE AS"
        ).columns
        pk: list[str] = []
    elif _is_new(fe, stmt.name) and (
        stmt.include
        or stmt.cdc_source is not None
        or (connector is not None and connector != "webhook")
    ):
        cols, pk, added = await _connector_table(fe, stmt)
    else:
        cols, pk = table_columns(stmt.columns_text)
        _check_column_exprs(fe, stmt.name, cols, pk)
        eowc.check_table_watermark(fe, stmt, cols)
    variant_rules.table(fe.instance.release, cols, pk)
    retention_notice = _append_only_rules(fe, stmt)
    definition = table_definition(stmt, cols, pk)
    if added is not None:
        await cdc_upstream.table(fe, stmt, cols, pk)
    if added is not None:
        cols = [*cols, *added.columns]
    out = await fe.engine_call(
        stmt.tag,
        lambda: fe.instance.engine.ddl.create_table(
            fe.ctx(),
            engine_name(stmt.name, fe.database),
            cols,
            definition=definition,
            primary_key=pk,
            if_not_exists=stmt.if_not_exists,
            append_only=stmt.append_only,
            on_conflict=stmt.on_conflict,
            version_columns=stmt.version_columns,
            with_options=stmt.with_options,
            connector=connector,
            depends_on=cdc_upstream.source_ids(fe, stmt),
        ),
    )
    _start_connector(fe, connector)
    if stmt.query is not None and not out.notices:
        # CREATE TABLE ... AS: the table is filled with the query's rows.
        name = ".".join(f'"{p}"' for p in stmt.name.parts)
        insert = f"INSERT INTO {name} {stmt.query}"
        planned = fe.data_plan(insert)
        if planned is None:
            fe.instance.query.execute(insert, [], fe.query_context())
        else:
            await run_dml(fe, planned, [])  # implicit_flush & co, as handle_query's
    if retention_notice is not None and not out.notices:
        out.notices.append(retention_notice)
    if added is not None and added.notices:
        at = 1 if stmt.append_only else 0  # after the APPEND ONLY notice (create_table.rs:1677)
        out.notices[at:at] = added.notices
    return out


def _is_new(fe: Frontend, name: st.ObjectName) -> bool:
    """Whether no relation holds the name: check_relation_name_duplicated comes before any
    rule of a connector (an existing name is answered by the engine)."""
    return fe.instance.engine.catalog.lookup(fe.ctx(), engine_name(name, fe.database)) is None


async def _connector_table(
    fe: Frontend, stmt: st.CreateTable
) -> tuple[list[ColumnSpec], list[str], connectors.Additions]:
    """handle_create_table_plan (create_table.rs:1305-1503) for a table with a connector,
    on a CDC source, or with INCLUDE: RisingWave's rules in its order, and the INCLUDE
    columns (rwshim/frontend/connectors.py)."""
    from rwshim.sql.unparse import nodes

    node = parsed(stmt.text)
    assert isinstance(node, nodes.CreateTable)
    if stmt.cdc_source is not None:
        return await cdc_upstream.columns(fe, stmt, node)
    connector = connector_of(connectors.plain_options(stmt.with_options))
    if connector is None or connector == "webhook":
        # check_create_table_with_source (create_table.rs:2220-2244)
        raise InvalidInputSyntax("INCLUDE should be used with a connector")
    spec = connectors.Statement(
        node,
        connectors.plain_options(stmt.with_options),
        connectors.plain_options(stmt.format_encode.options if stmt.format_encode else ()),
        is_source=False,
        append_only=stmt.append_only,
        has_with=True,
        direct_cdc=fe.instance.release.direct_cdc_tables,
    )
    checked = connectors.check_before_columns(spec)
    cols, pk = table_columns(stmt.columns_text)
    variant_rules.source_encoding(fe.instance.release, cols, stmt.format_encode)
    _check_column_exprs(fe, stmt.name, cols, pk)
    added, key = connectors.check_after_columns(spec, checked, cols, pk)
    return cols, key, added


async def handle_create_mv(
    fe: Frontend, stmt: st.CreateMaterializedView, params: list[object]
) -> Outcome:
    definition = stored_definition(stmt.text)

    def bind() -> BoundQuery:
        return plan_checks.impurity_first(fe, stmt.query, lambda: new_query_columns(
            fe, stmt.name, stmt.if_not_exists, stmt.query, stmt.columns,
            statement="CREATE MATERIALIZED VIEW",
        ))  # fmt: skip

    bound = await bound_after_counting(fe, bind)
    notice = None
    if bound.columns:
        notice = plan_checks.check_stream_plan(fe, stmt.query, bound.upstreams)
        eowc.check(fe, stmt.query, stmt.emit_on_window_close)  # once the plan is made
        # the backfill order is planned over the stream plan (create_mv.rs:393-397)
        plan_checks.check_upstreams(fe, stmt.with_options, bound.upstreams)
    query, bound = _with_hidden_row_id(stmt.query, bound) if bound.columns else (stmt.query, bound)
    template = read_query_template(fe, query) if bound.columns else None
    out = await fe.engine_call(
        stmt.tag, lambda: _create_mv_call(fe, stmt, bound, definition, template)
    )
    if "system_time" in stmt.query.lower() or changelog_cte.mentions(stmt.query):  # made now
        await temporal.make_state_now(fe, stmt.name)

    if notice is not None:
        out.notices.insert(0, notice)
    if stmt.emit_on_window_close and bound.columns:
        # create_mv.rs:142-145, before the plan's own notices
        out.notices.insert(0, eowc.NOTICE)
    return out


def _with_hidden_row_id(query: str, bound: BoundQuery) -> tuple[str, BoundQuery]:
    """A view over a changelog CTE keeps its ``_changelog_row_id`` (its stream key) as a
    hidden column when its select list does not show it (changelog_cte.with_hidden_row_id):
    the query as the view reads it, and ``bound`` with the column last, as its key."""
    found = changelog_cte.with_hidden_row_id(query, [c.name for c in bound.columns])
    if found is None:
        return query, bound
    hidden = ColumnSpec(found[1], pgtypes.INT8, "serial", is_hidden=True)
    return found[0], replace(bound, columns=[*bound.columns, hidden], key=[len(bound.columns)])


def _create_mv_call(
    fe: Frontend,
    stmt: st.CreateMaterializedView,
    bound: BoundQuery,
    definition: str,
    template: str | None,
) -> Result:
    return fe.instance.engine.ddl.create_materialized_view(
        fe.ctx(),
        engine_name(stmt.name, fe.database),
        bound.columns,
        definition=definition,
        read_query_template=template,
        upstream_ids=bound.upstreams,
        if_not_exists=stmt.if_not_exists,
        with_options=stmt.with_options,
        has_values=bound.values_leaf,
        primary_key=bound.key,
    )


async def handle_create_view(fe: Frontend, stmt: st.CreateView, params: list[object]) -> Outcome:
    from rwshim.sql.unparse import nodes

    node = parsed(stmt.text)
    assert isinstance(node, nodes.CreateView)
    sql = unparse.query_of(node)
    bound = new_query_columns(
        fe, stmt.name, stmt.if_not_exists, stmt.query, stmt.columns, rules="view",
        statement="CREATE VIEW",
    )  # fmt: skip
    return await fe.engine_call(
        stmt.tag,
        lambda: fe.instance.engine.ddl.create_view(
            fe.ctx(),
            engine_name(stmt.name, fe.database),
            bound.columns,
            sql=sql,
            upstream_ids=bound.upstreams,
            if_not_exists=stmt.if_not_exists,
        ),
    )


async def handle_create_source(
    fe: Frontend, stmt: st.CreateSource, params: list[object]
) -> Outcome:
    from rwshim.engine import options as opts
    from rwshim.sql.unparse import nodes, purify

    node = parsed(stmt.text)
    assert isinstance(node, nodes.CreateSource)
    added: connectors.Additions | None = None
    with_options = stmt.with_options
    if _is_new(fe, stmt.name):
        # handle_create_source (create_source.rs:1153-1230): the connector's rules around
        # the binding of the columns, and the INCLUDE and hidden columns
        options = connectors.plain_options(stmt.with_options)
        spec = connectors.Statement(
            node,
            options,
            connectors.plain_options(stmt.format_encode.options if stmt.format_encode else ()),
            is_source=True,
            shared=connector_of(options) == "kafka"
            and opts.bool_var(fe.ctx(), "streaming_use_shared_source"),
            has_with=bool(stmt.with_options),
        )
        checked = connectors.check_before_columns(spec)
        cols, pk = table_columns(stmt.columns_text)
        variant_rules.source_encoding(fe.instance.release, cols, stmt.format_encode)
        _check_column_exprs(fe, stmt.name, cols, pk)
        added, pk = connectors.check_after_columns(spec, checked, cols, pk)
        if checked.connector == "postgres-cdc":
            with_options = await cdc_upstream.source(stmt.with_options, options)
    else:
        cols, pk = table_columns(stmt.columns_text)
    cdc = any(o.name.real_value() == "connector" and "-cdc" in o.value for o in node.with_options)
    definition = (
        unparse.normalized(node)  # a CDC source is shown unpurified (source_catalog.rs:131-135)
        if cdc
        else purify.purified_definition(node, _user_columns(cols), pk, not pk)
    )
    fmt = stmt.format_encode
    if added is not None:
        own = cols if added.own is None else added.own
        cols = [*own, *added.columns, *added.hidden]
    out = await fe.engine_call(
        stmt.tag,
        lambda: fe.instance.engine.ddl.create_source(
            fe.ctx(),
            engine_name(stmt.name, fe.database),
            cols,
            definition=definition,
            with_options=with_options,
            format=fmt.format if fmt else None,
            row_encode=fmt.encode if fmt else None,
            format_encode_options=fmt.options if fmt else (),
            if_not_exists=stmt.if_not_exists,
            primary_key=pk,
        ),
    )
    if added is not None:
        out.notices[:0] = added.notices
    if with_options is not stmt.with_options:  # a postgres-cdc source was made
        await cdc_upstream.made(fe, with_options)
    _start_connector(fe, dict(stmt.with_options).get("connector"))
    return out


async def handle_create_sink(fe: Frontend, stmt: st.CreateSink, params: list[object]) -> Outcome:
    from rwshim.frontend import sink_rules

    query = stmt.query
    if query is None and stmt.from_name is not None:
        query = "SELECT * FROM " + ".".join(f'"{p}"' for p in stmt.from_name.parts)
    options = dict(stmt.with_options)
    fmt = stmt.format_encode
    into = stmt.into_table is not None
    if into and not _exists(fe, stmt.name):
        sink_rules.refuse_connector(options)
    definition = stored_definition(stmt.text)
    bound = await bound_after_counting(
        fe,
        lambda: new_query_columns(
            fe, stmt.name, stmt.if_not_exists, query or "SELECT 1", stmt.into_columns,
            rules="into" if into else "mv", statement="CREATE SINK",
        ),
    )  # fmt: skip
    template = read_query_template(fe, query) if query is not None and bound.columns else None
    if bound.columns and query is not None:
        eowc.check(fe, query, stmt.emit_on_window_close, sink=True)
    if bound.columns:
        plan_checks.check_upstreams(fe, stmt.with_options, bound.upstreams)
    if bound.columns:
        sink_rules.refuse_table_connector(options, into, fmt is not None)
    notices: list[str] = []
    sink_type: str | None = None
    target_id: int | None = None
    if bound.columns and query is not None:
        ignore = False
        if stmt.into_table is not None or "connector" in options:
            append_only = sink_rules.append_only_input(fe, query, bound.upstreams)
            sink_type, ignore = sink_rules.derive_sink_type(
                append_only, options if fmt is None else dict(fmt.options),
                fmt.format if fmt is not None else None,
            )  # fmt: skip
        if stmt.into_table is not None:
            target = fe.instance.engine.catalog.lookup(
                fe.ctx(), engine_name(stmt.into_table, fe.database), ("table",)
            )
            if target is not None:
                rel = fe.instance.relations.relation_by_id(target.id)
                if rel is not None:
                    target_id = rel.id
                    sink_rules.check_target_columns(rel, stmt.into_columns)
                    notice = sink_rules.not_null_notice(rel)
                    if notice is not None:
                        notices.append(notice)
                    sink_rules.check_target_rules(
                        rel, sink_type or "upsert", bound.columns, stmt.into_columns
                    )
                    sink_rules.check_cycle(fe, rel.id, bound.upstreams)
        if sink_type == "append-only" and ignore:
            sink_type = "force-append-only"
        variant_rules.sink(options, bound.columns, into)
        if not into and options.get("connector", "").lower() in ("postgres", "jdbc"):
            # meta's validate_sink (src/meta/src/stream/sink.rs:26-37) reaches the target
            from rwshim.dataplane.sinks import postgres

            external = postgres.target(
                options["connector"].lower(), options, sink_type or "append-only"
            )
            await postgres.validate(
                external, [c.name for c in bound.columns], [c.rw_type for c in bound.columns]
            )
    out = await fe.engine_call(
        stmt.tag,
        lambda: fe.instance.engine.ddl.create_sink(
            fe.ctx(),
            engine_name(stmt.name, fe.database),
            bound.columns,
            definition=definition,
            read_query_template=template,
            upstream_ids=bound.upstreams,
            with_options=stmt.with_options,
            format_encode_options=fmt.options if fmt else (),
            into_table=engine_name(stmt.into_table, fe.database) if stmt.into_table else None,
            if_not_exists=stmt.if_not_exists,
            has_values=bound.values_leaf,
            sink_type=sink_type,
        ),
    )
    if notices:
        out.notices[:0] = notices
    if stmt.emit_on_window_close and bound.columns:
        out.notices.insert(0, eowc.NOTICE)  # create_sink.rs:400-403
    if bound.columns and (target_id is not None or "connector" in options):
        found = fe.instance.engine.catalog.lookup(
            fe.ctx(), engine_name(stmt.name, fe.database), ("sink",)
        )
        if found is not None:
            await fe.instance.sinks.install(found.id)
    return out


def _exists(fe: Frontend, name: st.ObjectName) -> bool:
    """Whether the name is taken (CREATE answers that before binding anything)."""
    try:
        found = fe.instance.engine.catalog.lookup(fe.ctx(), engine_name(name, fe.database))
        return found is not None
    except RwError:
        return False


def _folded(ident: str) -> str:
    """An identifier as the binder reads it: quoted as written, else in lower case."""
    if ident.startswith('"') and ident.endswith('"'):
        return ident[1:-1].replace('""', '"')
    return ident.lower()


async def handle_create_index(fe: Frontend, stmt: st.CreateIndex, params: list[object]) -> Outcome:
    definition = stored_definition(stmt.text)
    # resolve_index_schema (create_index.rs:62-81): the table's name, then the index's, which
    # takes no schema (it goes in its table's: binder/relation/mod.rs:333-355)
    resolve_schema_qualified_name(fe.database, stmt.table.parts)
    resolve_single_name(stmt.name.parts, "index name")
    # Key columns by name; an expression key keeps its text (the engine refuses what it
    # cannot bind).  Orders as OrderType::from_bools (create_index.rs gen_create_index_plan).
    keys = [k.name if k.name is not None else k.expr for k in stmt.keys] or list(stmt.columns)
    orders = [(k.desc, k.nulls_smallest) for k in stmt.keys]
    try:
        indexed = fe.instance.engine.catalog.lookup(fe.ctx(), engine_name(stmt.table, fe.database))
    except RwError:
        indexed = None  # the engine reports it, in its order
    if indexed is not None:
        await count_upstreams(fe, [indexed.id])
    try:
        return await fe.engine_call(
            stmt.tag,
            lambda: fe.instance.engine.ddl.create_index(
                fe.ctx(),
                engine_name(stmt.name, fe.database),
                engine_name(stmt.table, fe.database),
                definition=definition,
                key_columns=keys,
                include_columns=list(stmt.include) if stmt.include else None,
                if_not_exists=stmt.if_not_exists,
                key_orders=orders,
                with_options=stmt.with_options,
                distributed_by=[_folded(d) for d in stmt.distributed_by],
            ),
        )
    except CatalogNotFound as e:
        plan_checks.refuse_internal_table(fe, e, "CREATE INDEX")  # create_index.rs:79
        raise


async def handle_create_schema(
    fe: Frontend, stmt: st.CreateSchema, params: list[object]
) -> Outcome:
    return await fe.engine_call(
        stmt.tag,
        lambda: fe.instance.engine.catalog.create_schema(
            fe.ctx(), stmt.name.name, if_not_exists=stmt.if_not_exists, owner=stmt.owner
        ),
    )


async def handle_create_database(
    fe: Frontend, stmt: st.CreateDatabase, params: list[object]
) -> Outcome:
    """create_database.rs: the options as RisingWave's handler reads them (the resource group by
    resolve_resource_group, its error raised in the handler's order)."""
    group: str | None = None
    group_error: RwError | None = None
    if stmt.resource_group is not None:
        try:
            group = resource_group(stmt.resource_group)
        except RwError as e:
            group_error = e
    return await fe.engine_call(
        stmt.tag,
        lambda: fe.instance.engine.params.create_database(
            fe.ctx(),
            stmt.name.name,
            if_not_exists=stmt.if_not_exists,
            owner=stmt.owner,
            resource_group=group,
            resource_group_error=group_error,
            barrier_interval_ms=stmt.barrier_interval_ms,
            checkpoint_frequency=stmt.checkpoint_frequency,
        ),
    )


HANDLERS: dict[type[st.Statement], Handler] = {
    st.CreateTable: handle_create_table,
    st.CreateMaterializedView: handle_create_mv,
    st.CreateView: handle_create_view,
    st.CreateSource: handle_create_source,
    st.CreateSink: handle_create_sink,
    st.CreateIndex: handle_create_index,
    st.CreateSchema: handle_create_schema,
    st.CreateDatabase: handle_create_database,
}
