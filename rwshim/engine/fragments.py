"""Fragments: the fragment graph a new streaming job gets (its fragments, their flags,
distribution, scan type, state tables and rate limits, the edges inside the job), the
barrier job type that follows from it, and the edges from its upstreams' output fragments
that its first barrier adds.

RisingWave: ``src/frontend/src/stream_fragmenter/`` (what fragments a plan becomes),
``src/meta/src/stream/stream_graph/fragment.rs`` and ``src/meta/src/rpc/ddl_controller.rs``
(prepare the job's fragments), ``src/meta/src/stream/stream_manager.rs:669-725`` (the job
type), ``src/meta/src/controller/streaming_job.rs:1204-1230`` (post_collect_job_fragments:
the upstream edges), ``src/common/src/catalog/mod.rs:320-342`` (FragmentTypeFlag).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import Struct, field

from rwshim.engine import graph as g
from rwshim.engine import options as opts
from rwshim.engine.catalog import Rel
from rwshim.engine.kinds import CREATE_CALL
from rwshim.engine.state import Meta
from rwshim.engine.types import Context, JobSpec
from rwshim.errors import MetaRpcError
from rwshim.lazy import lazy_module

if TYPE_CHECKING:
    import json
else:
    json = lazy_module("json")  # on first use: start-up and SELECT 1 read and write no JSON

# FragmentTypeFlag order (src/common/src/catalog/mod.rs:320-342): rw_fragments lists flags so.
FLAG_ORDER = (
    "SOURCE",
    "MVIEW",
    "SINK",
    "NOW",
    "STREAM_SCAN",
    "BARRIER_RECV",
    "VALUES",
    "DML",
    "CDC_FILTER",
    "SKIPPED1",
    "SOURCE_SCAN",
    "SNAPSHOT_BACKFILL_STREAM_SCAN",
    "FS_FETCH",
    "CROSS_DB_SNAPSHOT_BACKFILL_STREAM_SCAN",
    "STREAM_CDC_SCAN",
    "VECTOR_INDEX_WRITE",
    "UPSTREAM_SINK_UNION",
    "LOCALITY_PROVIDER",
)
SCAN_FLAG = {
    "SnapshotBackfill": "SNAPSHOT_BACKFILL_STREAM_SCAN",
    "CrossDbSnapshotBackfill": "CROSS_DB_SNAPSHOT_BACKFILL_STREAM_SCAN",
}


class FragSpec(Struct):
    key: int
    flags: list[str]
    distribution: str
    scan_type: str | None = None
    scan_relation_id: int | None = None
    state_kinds: list[str] = field(default_factory=list)
    owns_job_table: bool = False
    rate_limit: int | None = None  # the Source / Sink / DML node
    backfill_rate_limit: int | None = None  # the StreamScan / SourceBackfill node


class Fragments:
    """Builds and connects the fragment graphs of new jobs."""

    def __init__(self, meta: Meta) -> None:
        self.meta = meta
        self.store = meta.store
        self.conn = meta.conn

    def build(
        self,
        job_id: int,
        spec: JobSpec,
        ctx: Context,
        inputs: list[Rel],
        scan_type: str,
        batch_refresh: bool,
    ) -> str:
        """Insert the job's fragments and job-internal edges (prepare_stream_job_fragments);
        return the barrier job type (stream_manager.rs:669-725)."""
        frags: list[FragSpec] = []
        internal_edges: list[tuple[int, int, str]] = []
        backfill_rl = opts.rate(spec.options, ctx, "backfill_rate_limit")
        source_rl = opts.rate(spec.options, ctx, "source_rate_limit")
        if spec.kind == "table":
            # A table: Materialize + UpstreamSinkUnion at the root, and the DML fragment with
            # the table's (possibly connector-less) Source node feeding it
            # (e2e_test/source_legacy/cdc/cdc.share_stream.slt:126-131).
            root = FragSpec(0, ["MVIEW", "UPSTREAM_SINK_UNION"], "HASH", owns_job_table=True)
            dml = FragSpec(
                1, ["SOURCE", "DML"], "HASH", rate_limit=opts.rate({}, ctx, "dml_rate_limit")
            )
            if spec.extra.get("connector"):
                dml.state_kinds.append("source")
            frags = [root, dml]
            internal_edges = [(1, 0, "Hash")]
        elif spec.kind == "source":
            frags = [FragSpec(0, ["SOURCE"], "HASH", state_kinds=["source"], rate_limit=source_rl)]
        else:
            top_flags = ["SINK"] if spec.kind == "sink" else ["MVIEW"]
            ins: list[FragSpec] = []
            for rel in inputs:
                if rel.kind == "source" and rel.is_shared:
                    ins.append(
                        FragSpec(
                            0,
                            ["SOURCE_SCAN"],
                            "HASH",
                            scan_relation_id=rel.id,
                            state_kinds=["sourcebackfill"],
                            backfill_rate_limit=backfill_rl,
                        )
                    )
                elif rel.kind == "source":
                    ins.append(
                        FragSpec(
                            0, ["SOURCE"], "HASH", state_kinds=["source"], rate_limit=source_rl
                        )
                    )
                else:
                    st = (
                        scan_type
                        if rel.database_id == ctx.database_id
                        else "CrossDbSnapshotBackfill"
                    )
                    scan_flags = ["STREAM_SCAN"] + ([SCAN_FLAG[st]] if st in SCAN_FLAG else [])
                    ins.append(
                        FragSpec(
                            0,
                            scan_flags,
                            "HASH",
                            scan_type=st,
                            scan_relation_id=rel.id,
                            state_kinds=["streamscan"],
                            backfill_rate_limit=backfill_rl,
                        )
                    )
            sink_rl = (
                opts.rate(spec.options, ctx, "sink_rate_limit") if spec.kind == "sink" else None
            )
            owns = spec.kind != "sink"
            if not ins:
                flags = top_flags + (["VALUES"] if spec.has_values else [])
                frags = [FragSpec(0, flags, "SINGLE", owns_job_table=owns, rate_limit=sink_rl)]
            else:
                if len(ins) == 1:
                    f = ins[0]
                    f.flags = top_flags + f.flags
                    f.owns_job_table = owns
                    if spec.kind == "sink":
                        f.rate_limit = sink_rl
                    frags = [f]
                else:
                    # The root fragment takes the first fragment id, its inputs the next ones.
                    top = FragSpec(0, top_flags, "HASH", owns_job_table=owns, rate_limit=sink_rl)
                    for i, f in enumerate(ins, start=1):
                        f.key = i
                    frags = [top, *ins]
                    internal_edges = [(i, 0, "Hash") for i in range(1, len(ins) + 1)]
                if spec.has_values:
                    # A Values leaf beside the scans: its own singleton fragment, exchanged
                    # into the root (StreamValues is Single-distributed; the Values flag is
                    # what recovery looks for, fragment.rs:145-147).
                    frags.append(FragSpec(len(frags), ["VALUES"], "SINGLE"))
                    internal_edges.append((len(frags) - 1, 0, "Hash"))
        for f in frags:
            f.flags = sorted(set(f.flags), key=FLAG_ORDER.index)
        ids: dict[int, int] = {}
        vnode = int(
            self.meta.val("SELECT max_parallelism FROM streaming_job WHERE job_id = ?", (job_id,))
        )
        for f in frags:
            fid = self.store.next_id("fragment")
            ids[f.key] = fid
            state_ids: list[int] = [job_id] if f.owns_job_table else []
            for kind in f.state_kinds:
                tid = self.store.next_id("object")
                state_ids.append(tid)
                self.conn.execute(
                    "INSERT INTO relation(relation_id, kind, name, schema_id, database_id,"
                    " owner_id, owner_job_id, fragment_id, initialized_at, created_at,"
                    " initialized_at_cluster_version, created_at_cluster_version)"
                    " VALUES (?, 'internal', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        tid,
                        f"__internal_{spec.name}_{fid}_{kind}_{tid}",
                        spec.schema_id,
                        ctx.database_id,
                        ctx.user_id,
                        job_id,
                        fid,
                        self.meta.now(),
                        self.meta.now(),
                        self.meta.release.cluster_version,
                        self.meta.release.cluster_version,
                    ),
                )
            self.conn.execute(
                "INSERT INTO fragment(fragment_id, job_id, flags, distribution_type, scan_type,"
                " scan_relation_id, state_table_ids, vnode_count, rate_limit,"
                " backfill_rate_limit)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    fid,
                    job_id,
                    json.dumps(f.flags),
                    f.distribution,
                    f.scan_type,
                    f.scan_relation_id,
                    json.dumps(state_ids),
                    1 if f.distribution == "SINGLE" else vnode,
                    f.rate_limit,
                    f.backfill_rate_limit,
                ),
            )
        for a, b, d in internal_edges:
            self.conn.execute("INSERT INTO fragment_relation VALUES (?, ?, ?)", (ids[a], ids[b], d))
        has_snapshot = any(f.scan_type == "SnapshotBackfill" for f in frags)
        if batch_refresh:
            if not has_snapshot:
                raise MetaRpcError(
                    CREATE_CALL[spec.kind],
                    "batch refresh materialized view must have snapshot backfill upstream",
                )
            src = [ids[f.key] for f in frags if {"SOURCE", "SOURCE_SCAN"} & set(f.flags)]
            if src:
                raise MetaRpcError(
                    CREATE_CALL[spec.kind],
                    "batch refresh materialized views must not depend on sources directly; "
                    f"fragment {src[0]} has source/source-backfill nodes",
                )
            job_type = "BatchRefresh"
        elif has_snapshot:
            job_type = "SnapshotBackfill"
        elif spec.kind == "sink" and spec.extra.get("target_table_id") is not None:
            job_type = "SinkIntoTable"
        else:
            job_type = "Normal"
        self.conn.execute(
            "UPDATE streaming_job SET job_type = ?, backfill_type = ? WHERE job_id = ?",
            (
                job_type,
                "SNAPSHOT_BACKFILL" if has_snapshot else "NORMAL_BACKFILL",
                job_id,
            ),
        )
        return job_type

    def output_fragment(self, relation_id: int) -> int | None:
        """The fragment downstream jobs read from: the Materialize fragment of a table, MV or
        index; the Source fragment of a shared source."""
        row = self.meta.q1(
            "SELECT fragment_id FROM fragment WHERE job_id = ? AND (flags LIKE '%\"MVIEW\"%'"
            " OR flags LIKE '%\"SOURCE\"%')"
            " ORDER BY (flags LIKE '%\"MVIEW\"%') DESC, fragment_id",
            (relation_id,),
        )
        return None if row is None else int(row[0])

    def connect_upstreams(self, job_id: int) -> list[tuple[int, str | None, int]]:
        """The job's first barrier: each scan fragment gets the edge from its upstream's
        output fragment (NoShuffle for source backfill, UpstreamOnly and legacy scans, Hash
        otherwise; post_collect_job_fragments, streaming_job.rs:1204-1230).  A cross-database
        snapshot backfill reads no edge.  Returns (fragment, scan type, upstream) of the scans
        connected."""
        connected: list[tuple[int, str | None, int]] = []
        for fid, scan_type, scan_rel, flags in self.conn.execute(
            "SELECT fragment_id, scan_type, scan_relation_id, flags FROM fragment"
            " WHERE job_id = ? AND scan_relation_id IS NOT NULL",
            (job_id,),
        ).fetchall():
            if scan_type == "CrossDbSnapshotBackfill":
                continue
            up = self.output_fragment(int(scan_rel))
            if up is None:
                continue
            if "SOURCE_SCAN" in json.loads(flags) or scan_type in ("UpstreamOnly", *g.LEGACY):
                disp = "NoShuffle"
            else:
                disp = "Hash"
            self.conn.execute(
                "INSERT OR IGNORE INTO fragment_relation VALUES (?, ?, ?)", (up, fid, disp)
            )
            connected.append((int(fid), scan_type, int(scan_rel)))
        return connected
