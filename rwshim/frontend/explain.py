"""EXPLAIN, DESCRIBE FRAGMENTS <job> and DESCRIBE FRAGMENT <id>: the plan rwshim holds, in
RisingWave's layouts.

rwshim has no optimizer: what it holds of a streaming job is its fragment graph (fragments,
flags, distribution, scans, edges, actors) and the job's and its upstreams' columns.  A
fragment is rendered as the nodes those imply (Materialize / Sink / Dml / Source at its root,
the StreamTableScan with its Upstream and BatchPlanNode, a MergeExecutor per input fragment);
the operators a query adds in between (filters, projections, aggregations, joins) are not
known and not shown.  A batch query's plan is its Exchange over a scan of each relation it
reads.  README "What is emulated" says so.  EXPLAIN ANALYZE of a streaming job binds its
target as RisingWave does and then refuses: rwshim has no executors whose counters it could
sample.

RisingWave: ``src/frontend/src/handler/explain.rs`` (options, the statements EXPLAIN takes,
its refusals), ``handler/describe.rs`` (handle_describe_fragments, handle_describe_fragment,
generate_enhanced_fragment_string), e2e_test/batch/describe_fragment*.slt (the layouts).
"""

from __future__ import annotations

import json
import re
import sqlite3
from typing import TYPE_CHECKING

from rwshim.common import pgtypes
from rwshim.common.names import display_name, resolve_schema_qualified_name
from rwshim.common.outcome import Column, Outcome
from rwshim.engine import ObjectName
from rwshim.errors import CatalogNotFound, MetaRpcError, NotImplementedError_, NotSupported, RwError
from rwshim.frontend import explain_scan
from rwshim.frontend.common import Handler, engine_name
from rwshim.frontend.plan_render import Node, explain_lines, unicode_lines
from rwshim.sql import statements as st

if TYPE_CHECKING:
    from rwshim.catalog_path.reader import CatalogReader, ColumnRow
    from rwshim.frontend.frontend import Frontend

PLAN_COLUMN = [Column("QUERY PLAN", pgtypes.VARCHAR)]
_EXPLAIN_ANALYZE = "Tracking issue: https://github.com/risingwavelabs/risingwave/issues/4856"
_DESCRIBE_HINT = "Use `DESCRIBE` instead of `DESCRIBE FRAGMENTS`"


# --------------------------------------------------------------------------- the store's view


def _columns(reader: CatalogReader, rid: int) -> list[ColumnRow]:
    """A relation's columns, ``_rw_timestamp`` aside."""
    return [c for c in reader.columns(rid) if c.name != "_rw_timestamp"]


def _pk(cols: list[ColumnRow]) -> list[str]:
    keyed = sorted((c for c in cols if c.pk_position is not None), key=lambda c: c.pk_position or 0)
    return [c.name for c in keyed]


def _shown(cols: list[ColumnRow]) -> list[str]:
    return [f"{c.name}(hidden)" if c.hidden else c.name for c in cols]


def _materialize(reader: CatalogReader, rid: int) -> Node:
    rel = reader.relation(rid)
    kind, append_only = (rel.kind, rel.append_only) if rel else ("table", False)
    cols = _columns(reader, rid)
    pk = _pk(cols)
    conflict = "Overwrite" if kind == "table" and not append_only else "NoCheck"
    identity = (
        f"StreamMaterialize {{ columns: [{', '.join(_shown(cols))}], stream_key: "
        f"[{', '.join(pk)}], pk_columns: [{', '.join(pk)}], pk_conflict: {conflict} }}"
    )
    return Node(identity, [c.name for c in cols], pk)


def _scan(reader: CatalogReader, upstream: int, source_scan: bool) -> Node:
    rel = reader.relation(upstream)
    name = rel.name if rel else str(upstream)
    cols = _columns(reader, upstream)
    names = [c.name for c in cols]
    if source_scan:
        return Node(f"StreamSourceScan {{ columns: [{', '.join(names)}] }}", names, [])
    qualified = [f"{name}.{n}" for n in names]
    pk = [f"{name}.{n}" for n in _pk(cols)]
    return Node(
        f"StreamTableScan {{ table: {name}, columns: [{', '.join(names)}] }}",
        qualified,
        pk,
        [Node("Upstream", names, []), Node("BatchPlanNode", names, [])],
    )


def _inputs(reader: CatalogReader, frag: sqlite3.Row, job: int) -> list[Node]:
    if frag["scan_relation_id"] is not None:
        flags = json.loads(frag["flags"])
        return [_scan(reader, int(frag["scan_relation_id"]), "SOURCE_SCAN" in flags)]
    ups = reader.upstream_fragments(int(frag["fragment_id"]), job)
    cols = [c.name for c in _columns(reader, job)]
    if ups:
        return [Node("MergeExecutor", cols, []) for _ in ups]
    if "VALUES" in json.loads(frag["flags"]):
        return [Node("StreamValues", cols, [])]
    return []


def fragment_node(reader: CatalogReader, frag: sqlite3.Row) -> Node:
    """The nodes a fragment implies (see the module docstring)."""
    job = int(frag["job_id"])
    flags = json.loads(frag["flags"])
    rel = reader.relation(job)
    kind, name = (rel.kind, rel.name) if rel else ("table", "")
    cols = _columns(reader, job)
    names = [c.name for c in cols]
    if "MVIEW" in flags:
        root = _materialize(reader, job)
        if kind == "table":
            root.children = [
                Node(
                    "StreamUnion { all: true }",
                    names,
                    [],
                    [Node("MergeExecutor", names, []), Node("StreamUpstreamSinkUnion", names, [])],
                )
            ]
        else:
            root.children = _inputs(reader, frag, job)
        return root
    if "SINK" in flags:
        sink_type = "upsert" if rel is not None and rel.sink_type == "upsert" else "append-only"
        visible = [c.name for c in cols if not c.hidden]
        root = Node(f"StreamSink {{ type: {sink_type}, columns: [{', '.join(visible)}] }}",
                    names, _pk(cols))  # fmt: skip
        root.children = _inputs(reader, frag, job)
        return root
    if "DML" in flags:
        visible = [c.name for c in cols if not c.hidden]
        return Node(
            f"StreamDml {{ columns: [{', '.join(visible)}] }}",
            names,
            [],
            [Node("StreamSource", names, [])],
        )
    if "SOURCE" in flags:
        return Node(f"StreamSource {{ source: {name}, columns: [{', '.join(names)}] }}", names, [])
    inputs = _inputs(reader, frag, job)
    return inputs[0] if len(inputs) == 1 else Node("StreamExchange", names, [], inputs)


# --------------------------------------------------------------------------- DESCRIBE


def handle_describe_fragments(fe: Frontend, stmt: st.Describe, params: list[object]) -> Outcome:
    """DESCRIBE FRAGMENTS <name> (describe.rs:270-350): one block per fragment, by id, each
    followed by an empty row; the width grows with the widest block so far."""
    reader = fe.instance.catalog_reader
    parts = stmt.name.parts
    schema, name = resolve_schema_qualified_name(fe.database, parts)
    shown = display_name(parts)
    rel = (
        fe.instance.engine.catalog.lookup(fe.ctx(), ObjectName(name, schema))
        if _schema_exists(fe, schema)
        else None
    )
    if rel is None:
        kind = _system_kind(reader, schema, name)
        if kind == "view":
            raise NotSupported("view has no fragments to describe", _DESCRIBE_HINT)
        if kind == "table":
            raise NotSupported("system table has no fragments to describe", _DESCRIBE_HINT)
        raise CatalogNotFound("stream job", shown)
    if rel.kind == "view":
        raise NotSupported("view has no fragments to describe", _DESCRIBE_HINT)
    if rel.kind == "source" and not rel.is_shared:
        raise NotSupported("non shared source has no fragments to describe", _DESCRIBE_HINT)
    rows: list[tuple[object, ...]] = []
    width = 80
    for frag in reader.fragments(rel.id):
        actors = ",".join(str(a) for a in reader.actors(int(frag["fragment_id"])))
        lines, used = unicode_lines(fragment_node(reader, frag), width)
        width = max(width, used)
        rows.append((f"Fragment {frag['fragment_id']} (Actor {actors})\n" + "\n".join(lines),))
        rows.append(("",))
    return Outcome(stmt.tag, PLAN_COLUMN, rows)


def _schema_exists(fe: Frontend, schema: str | None) -> bool:
    if schema is None:
        return True
    return fe.instance.engine.catalog.schema_id(fe.database_id, schema) is not None


def _system_kind(reader: CatalogReader, schema: str | None, name: str) -> str:
    """'view' / 'table' for a system catalog the name binds to (its schema named, or on the
    path), '' otherwise."""
    schemas = [schema] if schema else ["pg_catalog", "rw_catalog"]
    for s in schemas:
        kind = reader.system_relation_kind(s, name)
        if kind is not None:
            return kind
    return ""


def handle_describe_fragment(
    fe: Frontend, stmt: st.DescribeFragment, params: list[object]
) -> Outcome:
    """DESCRIBE FRAGMENT <id> (describe.rs:400-460): one row, the fragment's header lines
    and its plan."""
    reader = fe.instance.catalog_reader
    frag = reader.fragment(stmt.fragment_id)
    if frag is None:
        raise CatalogNotFound("fragment", str(stmt.fragment_id))
    fid = int(frag["fragment_id"])
    text = [
        f"Fragment {fid} (Table {frag['job_id']})",
        f"Distribution Type: {frag['distribution_type']}",
        f"Parallelism: {len(reader.actors(fid))}",
        f"VNode Count: {frag['vnode_count']}",
    ]
    states = json.loads(frag["state_table_ids"])
    if states:
        text.append(f"State Tables: [{', '.join(str(s) for s in states)}]")
    ups = reader.upstream_fragments(fid)
    if ups:
        text.append(f"Upstream Fragments: [{', '.join(str(u) for u in ups)}]")
    lines, _ = unicode_lines(fragment_node(reader, frag))
    text.append("Stream Plan:")
    return Outcome(stmt.tag, PLAN_COLUMN, [("\n".join(text + lines) + "\n",)])


# --------------------------------------------------------------------------- EXPLAIN

_OPTION = re.compile(r"(?is)^\s*EXPLAIN\s*(ANALYZE\s+)?(VERBOSE\s+)?(\((?P<opts>[^)]*)\))?")


def _options(text: str) -> tuple[bool, bool, str, str]:
    """(analyze, trace, type, format) of an EXPLAIN (explain.rs ExplainOptions)."""
    m = _OPTION.match(text)
    analyze = bool(m and m.group(1))
    trace, etype, fmt = False, "physical", "text"
    if m and m.group("opts"):
        for opt in m.group("opts").split(","):
            words = opt.strip().strip('"').lower().split()
            if not words:
                continue
            if words[0] == "trace":
                trace = words[1:] != ["false"]
            elif words[0] in ("logical", "physical", "distsql"):
                etype = words[0]
            elif words[0] == "format" and len(words) > 1:
                fmt = words[1]
    return analyze, trace, etype, fmt


async def handle_explain(fe: Frontend, stmt: st.Explain, params: list[object]) -> Outcome:
    """EXPLAIN [ANALYZE] [VERBOSE] [(options)] <statement> (explain.rs:432-483)."""
    analyze, trace, etype, fmt = _options(stmt.text)
    m = _OPTION.match(stmt.text)
    verbose = bool(m and m.group(2)) or bool(
        re.search(r"(?i)\bverbose\b", (m and m.group("opts")) or "")
    )
    if analyze:
        raise NotImplementedError_("explain analyze", _EXPLAIN_ANALYZE)
    if (trace or etype == "distsql") and fmt == "json":
        raise NotSupported(
            "EXPLAIN (TRACE, JSON FORMAT)",
            "Only EXPLAIN (LOGICAL | PHYSICAL, JSON FORMAT) is supported.",
        )
    inner = stmt.inner
    if isinstance(inner, st.CreateView):
        raise NotSupported(
            "EXPLAIN CREATE VIEW",
            "A created VIEW is just an alias. Instead, use EXPLAIN on the queries which "
            "reference the view.",
        )
    if isinstance(inner, st.CreateSubscription):
        raise NotSupported(
            "EXPLAIN CREATE SUBSCRIPTION",
            "A created SUBSCRIPTION only incremental data queries on the table, not supported "
            "EXPLAIN",
        )
    if isinstance(inner, (st.Query, st.Insert, st.Update, st.Delete)):
        lines = _batch_plan(fe, inner, verbose)
    elif isinstance(inner, (st.CreateMaterializedView, st.CreateSink, st.CreateIndex)):
        lines = explain_lines(_stream_plan(fe, inner))
    else:
        raise NotImplementedError_(f"unsupported statement for EXPLAIN: {inner.text}")
    return Outcome(stmt.tag, PLAN_COLUMN, [(line,) for line in lines])


def _read_relations(fe: Frontend, query: str) -> list[int]:
    """The relations a query reads, as the read path binds them."""
    return list(fe.instance.query.check_mv_columns(query, fe.query_context(), ()).upstreams)


def _point_plan(
    reader: CatalogReader, text: str, ids: list[int], verbose: bool
) -> list[Node] | None:
    """A point query on one table or materialized view (explain_scan.py), else None."""
    rel = reader.relation(ids[0]) if len(ids) == 1 else None
    if rel is None or rel.kind not in ("table", "materialized view"):
        return None

    def of(rid: int, name: str) -> explain_scan.Relation:
        return explain_scan.Relation(name, reader.column_types(rid), _pk(_columns(reader, rid)))

    indexes = []
    for iid in reader.created_indexes(rel.id):
        index = reader.relation(iid)
        if index is not None:
            indexes.append(of(iid, index.name))
    return explain_scan.point_plan(text, of(rel.id, rel.name), indexes, verbose)


def _batch_plan(fe: Frontend, stmt: st.Statement, verbose: bool = False) -> list[str]:
    reader = fe.instance.catalog_reader
    text = stmt.text
    if isinstance(stmt, (st.Insert, st.Update, st.Delete)):
        # A DML target is never in another database (insert.rs:111 and the like).
        resolve_schema_qualified_name(fe.database, stmt.table.parts)
        return [f"Batch{type(stmt).__name__} {{ table: {stmt.table.name} }}"]
    ids = _read_relations(fe, text)
    point = _point_plan(reader, text, ids, verbose)
    if point is not None:
        return explain_lines(Node("BatchExchange { order: [], dist: Single }", children=point))
    scans = []
    for rid in ids:
        rel = reader.relation(rid)
        if rel is None:
            continue
        cols = [c.name for c in _columns(reader, rid) if not c.hidden]
        # batch_seq_scan.rs:181-187: the distribution only under VERBOSE
        dist = ", distribution: SomeShard" if verbose else ""
        scans.append(Node(f"BatchScan {{ table: {rel.name}, columns: [{', '.join(cols)}]{dist} }}"))
    if not scans:
        return ["BatchValues { rows: [] }"]
    return explain_lines(Node("BatchExchange { order: [], dist: Single }", children=scans))


def _stream_plan(
    fe: Frontend, stmt: st.CreateMaterializedView | st.CreateSink | st.CreateIndex
) -> Node:
    reader = fe.instance.catalog_reader
    if isinstance(stmt, st.CreateIndex):
        base = fe.instance.engine.catalog.lookup(fe.ctx(), engine_name(stmt.table, fe.database))
        if base is None:
            raise CatalogNotFound("table", stmt.table.name)
        keys = [k.name or k.expr for k in stmt.keys]
        identity = (
            f"StreamMaterialize {{ columns: [{', '.join(keys)}], stream_key: [{', '.join(keys)}]"
            f", pk_columns: [{', '.join(keys)}], pk_conflict: NoCheck }}"
        )
        scan = _scan(reader, base.id, False)
        scan.children = []
        return Node(identity, children=[scan])
    query = stmt.query
    if query is None and isinstance(stmt, st.CreateSink) and stmt.from_name is not None:
        query = "SELECT * FROM " + ".".join(f'"{p}"' for p in stmt.from_name.parts)
    ids = _read_relations(fe, query or "SELECT 1")
    inputs = [_scan(reader, rid, False) for rid in ids if reader.relation(rid) is not None]
    for scan in inputs:
        scan.children = []  # Upstream / BatchPlanNode are the fragment's, not the plan's
    analysis = fe.instance.query.check_mv_columns(query or "SELECT 1", fe.query_context(), ())
    names = [c.name for c in analysis.columns]
    if isinstance(stmt, st.CreateSink):
        root = Node(f"StreamSink {{ type: append-only, columns: [{', '.join(names)}] }}")
    else:
        root = Node(
            f"StreamMaterialize {{ columns: [{', '.join(names)}], stream_key: [], "
            "pk_columns: [], pk_conflict: NoCheck }"
        )
    if len(inputs) > 1:
        root.children = [Node("StreamExchange { dist: HashShard }", children=[i]) for i in inputs]
    else:
        root.children = inputs
    return root


# --------------------------------------------------------------------------- EXPLAIN ANALYZE

_ANALYZE_KINDS = {
    "TABLE": ("table", ("table", "materialized view", "index")),
    "MATERIALIZED VIEW": ("table", ("table", "materialized view", "index")),
    "INDEX": ("index", ("index",)),
    "SINK": ("sink", ("sink",)),
}
_NO_PROFILE = (
    "rwshim runs no stream executors, so it has no executor statistics to profile: "
    "EXPLAIN ANALYZE of a streaming job (output rows per second and backpressure per "
    "operator) is not emulated; DESCRIBE FRAGMENTS shows the job's fragments"
)


def handle_explain_analyze_stream_job(
    fe: Frontend, stmt: st.ExplainAnalyzeStreamJob, params: list[object]
) -> Outcome:
    """explain_analyze_stream_job.rs: the target binds as bind_relation does (TABLE and
    MATERIALIZED VIEW by get_any_table_by_name, INDEX by get_any_index_by_name, SINK by
    get_any_sink_by_name; ID through meta's list_table_fragments, whose unknown job is
    fragment.rs:648-651's error); then RisingWave samples its executors' counters for
    duration_secs, which rwshim does not have, so a job found is refused saying so."""
    if stmt.target == "ID":
        if stmt.job_id is None or not fe.instance.catalog_reader.job_visible(stmt.job_id):
            raise MetaRpcError(
                "/meta.StreamManagerService/ListTableFragments",
                f"job {stmt.job_id} not found in database",
            )
        raise RwError(_NO_PROFILE)
    assert stmt.name is not None
    what, kinds = _ANALYZE_KINDS[stmt.target]
    name = engine_name(stmt.name, fe.database)
    if fe.instance.engine.catalog.lookup(fe.ctx(), name, kinds) is None:
        raise CatalogNotFound(what, name.name)
    raise RwError(_NO_PROFILE)


HANDLERS: dict[type[st.Statement], Handler] = {
    st.Explain: handle_explain,
    st.ExplainAnalyzeStreamJob: handle_explain_analyze_stream_job,
    st.DescribeFragment: handle_describe_fragment,
}
