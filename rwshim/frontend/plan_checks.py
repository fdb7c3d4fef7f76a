"""The refusals of RisingWave's stream planner at CREATE MATERIALIZED VIEW / SINK, made before
any catalog change: the plan's own (``check_stream_plan``), rwshim's refusal of a table with
retention (``check_retention``), and those of
``WITH (backfill_order = FIXED(a -> b, ...))`` once the plan exists (``check_backfill_order``).

RisingWave: ``src/frontend/src/optimizer/backfill_order_strategy.rs`` (``plan_fixed_strategy``
:301-344, ``has_cycle`` :360-392, ``bind_backfill_relation_id_by_name`` :394-433, ``bind_table``
:435-446), called from ``handler/create_mv.rs:393-397`` and ``handler/create_sink.rs:766``;
the strategy's syntax ``parser.rs:4291-4316``.  rwshim plans no index selection into a stream
plan, so a relation's scanned ids are itself; AUTO never refuses (a cycle there is a notice
and no order, :216-221), so only FIXED is checked.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, TypeVar

from rwshim.common.names import display_name
from rwshim.engine.types import ObjectName
from rwshim.errors import (
    CatalogNotFound,
    InvalidInputSyntax,
    NotSupported,
    RwError,
    Uncategorized,
)

T = TypeVar("T")

if TYPE_CHECKING:
    from rwshim.binder.dynamic_filter import Lookup
    from rwshim.binder.relations import Relation
    from rwshim.binder.udf import Udf
    from rwshim.frontend.frontend import Frontend

_IDENT = re.compile(r'\s*(?:"((?:[^"]|"")*)"|([^\s",.()\-]+))\s*')


def _name(text: str, pos: int) -> tuple[list[str], int]:
    """One object name (dotted identifiers, unquoted ones folded to lower case) at ``pos``."""
    parts: list[str] = []
    while True:
        m = _IDENT.match(text, pos)
        if m is None:
            raise ValueError(text[pos:])
        quoted, plain = m.group(1), m.group(2)
        parts.append(quoted.replace('""', '"') if quoted is not None else plain.lower())
        pos = m.end()
        if pos < len(text) and text[pos] == ".":
            pos += 1
            continue
        return parts, pos


def fixed_pairs(value: str) -> list[tuple[list[str], list[str]]] | None:
    """The (start, end) names of ``FIXED(a -> b, ...)`` as written; None for AUTO, NONE and
    DEFAULT (the parser already refused anything else)."""
    m = re.match(r"(?is)\s*fixed\s*\(", value)
    if m is None:
        return None
    body = value[m.end() : value.rstrip().rfind(")")]
    pairs: list[tuple[list[str], list[str]]] = []
    pos = 0
    while body[pos:].strip():
        start, pos = _name(body, pos)
        arrow = re.compile(r"\s*->").match(body, pos)
        if arrow is None:
            raise ValueError(body[pos:])
        end, pos = _name(body, arrow.end())
        pairs.append((start, end))
        comma = re.compile(r"\s*,").match(body, pos)
        if comma is None:
            break
        pos = comma.end()
    return pairs


def has_cycle(order: dict[int, set[int]]) -> bool:
    """backfill_order_strategy.rs:360-392: a depth-first search over the order's edges."""
    visited: set[int] = set()
    stack: set[int] = set()

    def dfs(node: int) -> bool:
        if node in stack:
            return True
        if node not in visited:
            visited.add(node)
            stack.add(node)
            if any(dfs(n) for n in order.get(node, ())):
                return True
            stack.discard(node)
        return False

    return any(dfs(start) for start in list(order))


def _bind(fe: Frontend, parts: list[str]) -> int:
    """bind_backfill_relation_id_by_name (:394-446): a created table, materialized view or
    index, else a source, in the named schema (``table or source not found``) or the first
    schema of the search path that has one (``table not found``)."""
    engine = fe.instance.engine
    ctx = fe.ctx()
    name = parts[-1]
    schema = parts[-2] if len(parts) > 1 else None
    schemas = [schema] if schema is not None else list(engine.catalog.search_path(ctx))
    for sname in schemas:
        if engine.catalog.schema_id(ctx.database_id, sname) is None:
            if schema is not None:
                raise CatalogNotFound("schema", sname)
            continue
        for kinds in (("table", "materialized view", "index"), ("source",)):
            rel = engine.catalog.lookup(ctx, ObjectName(name, sname), kinds)
            if rel is not None and (kinds == ("source",) or rel.status in (None, "CREATED")):
                return rel.id
    if schema is not None:
        raise CatalogNotFound("table or source", name)
    raise CatalogNotFound("table", name)


def check_backfill_order(
    fe: Frontend, options: Iterable[tuple[str, str]], upstreams: Sequence[int]
) -> None:
    """plan_fixed_strategy (:301-344): every relation named must be one the plan scans (a
    table, materialized view or index through a StreamTableScan, a shared source through a
    StreamSourceScan), and the order must have no cycle."""
    value = next((v for k, v in options if k.lower() == "backfill_order"), None)
    if value is None:
        return
    pairs = fixed_pairs(str(value))
    if not pairs:
        return
    catalog = fe.instance.engine.catalog
    scanned: set[int] = set()
    for rid in upstreams:
        rel = catalog.relation(rid)
        if rel is None:
            continue
        if rel.kind in ("table", "materialized view", "index") or (
            rel.kind == "source" and rel.is_shared
        ):
            scanned.add(rid)
    order: dict[int, set[int]] = {}
    for start, end in pairs:
        start_id, end_id = _bind(fe, start), _bind(fe, end)
        for rid, parts in ((start_id, start), (end_id, end)):
            if rid not in scanned:
                raise Uncategorized(
                    f"Table or source '{display_name(parts)}' specified in backfill_order is "
                    "not used in the query"
                )
        order.setdefault(start_id, set()).add(end_id)
    if has_cycle(order):
        raise Uncategorized("Backfill order strategy has a cycle")


def refuse_internal_table(fe: Frontend, error: CatalogNotFound, statement: str) -> None:
    """reject_internal_table_dependencies (handler/util.rs:364-393): a CREATE that reads one
    of the database's internal tables is refused.  RisingWave binds internal tables
    (table_or_source.rs:175-179); rwshim's binder does not find them, so the relation it did
    not find is looked up among them, and the refusal replaces the not-found error."""
    chain = error.chain
    m = re.fullmatch(r"(?:table or source|table) not found: (.*)", chain[-1] if chain else "")
    if m is None:
        return
    name = m.group(1)
    found = fe.instance.engine.meta.q1(
        "SELECT 1 FROM relation WHERE kind = 'internal' AND name = ? AND database_id = ?",
        (name, fe.ctx().database_id),
    )
    if found is not None:
        raise InvalidInputSyntax(f'{statement} does not support internal table "{name}"')


def _lookup(fe: Frontend) -> Lookup:
    """A relation by schema (or the search path) and name, as the session's query binds it."""
    relations = fe.instance.relations
    ctx = fe.ctx()
    catalog = fe.instance.engine.catalog

    def lookup(schema: str | None, name: str) -> Relation | None:
        schemas = [schema] if schema is not None else list(catalog.search_path(ctx))
        for sname in schemas:
            rel = relations.relation(ctx.database_id, sname, name)
            if rel is not None:
                return rel
        return None

    return lookup


def check_stream_plan(fe: Frontend, query: str, upstreams: Sequence[int]) -> str | None:
    """The stream planner's refusals, at CREATE before any catalog change: the data plane's
    (an ASOF join's condition, HOP's window arguments, a FULL JOIN of no equality: plan/), an
    impure filter over a retract stream (binder/stream_checks), a notice instead when
    ``streaming_unsafe_allow_unmaterialized_impure_expr`` is set (expr/mod.rs:90-93)."""
    from rwshim.binder import dynamic_filter as df
    from rwshim.binder import stream_checks as sc

    if any(w in query.lower() for w in ("asof", "hop", "full")):
        from rwshim.dataplane.plan.asof import AsofNotSupported, AsofRefused
        from rwshim.dataplane.plan.checks import HopRefused

        try:
            planned = fe.data_plan(query)
        except (AsofRefused, AsofNotSupported, HopRefused):
            raise
        except RwError:
            planned = None
        if planned is not None and planned.statement.nested_loop:
            raise df.nested_loop_refusal()  # a FULL JOIN of no equality (logical_join.rs:1650)
    if "_rw_timestamp" in query.lower():
        from rwshim.sql.tokens import Kind, tokenize

        words = (t for t in tokenize(query) if t.kind is Kind.WORD)
        if any((t.value if t.quoted else t.value.lower()) == "_rw_timestamp" for t in words):
            # RwTimestampValidator (optimizer/mod.rs:720-725): the column is a batch read's
            raise NotSupported(
                "selecting `_rw_timestamp` in a streaming query is not allowed",
                "please run the sql in batch mode or remove the column `_rw_timestamp` from"
                " the streaming query",
            )
    refused_join = sc.scalar_subquery(query) or df.nested_loop_join(query, _lookup(fe))
    if refused_join is not None:
        raise refused_join

    return _impure_check(fe, sc.impure_filter(query, _retract(fe, upstreams)))


def _retract(fe: Frontend, upstreams: Sequence[int]) -> bool:
    """Whether a job reading ``upstreams`` reads a retract stream (any of them is neither an
    append-only table nor a source)."""
    relations = fe.instance.relations
    for rid in upstreams:
        rel = relations.relation_by_id(rid)
        if rel is None or not (rel.append_only or rel.kind.value == "source"):
            return True
    return False


def _impure_check(fe: Frontend, refused: NotSupported | None) -> str | None:
    if refused is None:
        return None
    if fe.config.get("streaming_unsafe_allow_unmaterialized_impure_expr") == "true":
        return refused.what
    raise refused


def check_upstreams(
    fe: Frontend, options: Iterable[tuple[str, str]], upstreams: Sequence[int]
) -> None:
    """The refusals that look at what the plan scans: ``check_backfill_order``, then
    ``check_retention``."""
    check_backfill_order(fe, options, upstreams)
    check_retention(fe, upstreams)


def check_retention(fe: Frontend, upstreams: Sequence[int]) -> None:
    """A materialized view or sink reading a table with ``retention_seconds`` (directly, or
    through views and indexes, which read their relations) is refused: see
    dataplane/plan/retention.py for what RisingWave's state keeps and rwshim's would not."""
    from rwshim.dataplane.plan import retention

    relations, conn = fe.instance.relations, fe.instance.conn
    # views followed to what the job streams from (catalog.streaming_inputs); an index reads
    # its table with the table's retention (create_index.rs:366,432)
    for inp in fe.instance.engine.catalog.streaming_inputs(upstreams):
        rid: int | None = inp.id
        if inp.kind == "index":
            row = conn.execute(
                "SELECT primary_table_id FROM relation WHERE relation_id = ?", (inp.id,)
            ).fetchone()
            rid = None if row is None or row[0] is None else int(row[0])
        rel = None if rid is None else relations.relation_by_id(rid)
        if rel is not None and retention.applies(rel):
            raise retention.streaming_refusal(rel)


def impurity_first(fe: Frontend, query: str, bind: Callable[[], T]) -> T:
    """``bind()`` (a streaming job's query bound); where it calls a function rwshim cannot run,
    RisingWave's impurity refusal first (``check_external_call``)."""
    from rwshim.binder.udf import ExternalFunctionCall

    try:
        return bind()
    except ExternalFunctionCall as e:
        check_external_call(fe, query, e.udf)
        raise


def check_external_call(fe: Frontend, query: str, udf: Udf) -> None:
    """A streaming job's query calling a function rwshim cannot run (binder/udf.py
    ExternalFunctionCall): RisingWave binds it and its stream planner's impurity refusal
    (pure.rs:46-49, 85-88: a user-defined function is impure) comes first.  The relations the
    query reads are its FROM names as the binder resolves them."""
    from sqlglot import exp

    from rwshim.binder import stream_checks as sc
    from rwshim.binder.parse import parse

    try:
        tree = parse(query)
    except RwError:
        return
    ctx = fe.query_context()
    ctes = {c.alias for c in tree.find_all(exp.CTE)}
    upstreams = []
    for t in tree.find_all(exp.Table):
        parts = [p.name for p in t.parts]
        if not parts or (len(parts) == 1 and parts[0] in ctes) or not t.name:
            continue
        rid = fe.instance.query.relation_id(ctx, parts)
        if rid is not None:
            upstreams.append(rid)
    udfs = {udf.name: udf.kind.upper() == "TABLE"}
    _impure_check(fe, sc.impure_filter(query, _retract(fe, upstreams), udfs))
