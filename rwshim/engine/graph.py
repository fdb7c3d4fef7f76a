"""The fragment graph and RisingWave's blocked-job rules over it (rw-engine-semantics §2.1, §2.2,
§2.6): which jobs a creating unreschedulable backfill blocks, and whether a reschedule is
rejected at the barrier.  Pure functions over a snapshot read from the store."""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Iterable

from msgspec import Struct, field

ONLINE_UNRESCHEDULABLE = {"SnapshotBackfill"}
LEGACY = {"Backfill", "Chain", "Rearrange"}


def reschedulable(scan_type: str, online: bool, *, upstream_only: bool = True) -> bool:
    """src/prost/src/lib.rs:556-573; ``upstream_only``: whether UpstreamOnly is reschedulable
    (true at 448c657 and v3.0.3; false at v2.8.5:src/prost/src/lib.rs:517, the release's
    ``upstream_only_reschedulable``)."""
    if scan_type == "UpstreamOnly":
        return upstream_only
    if scan_type in ("ArrangementBackfill", "CrossDbSnapshotBackfill"):
        return True
    if scan_type == "SnapshotBackfill":
        return not online
    return False


class Fragment(Struct):
    fragment_id: int
    job_id: int
    scan_type: str | None
    distribution: str


class Graph(Struct):
    fragments: dict[int, Fragment] = field(default_factory=dict)
    # (source, target) -> dispatcher type
    edges: dict[tuple[int, int], str] = field(default_factory=dict)
    job_status: dict[int, str] = field(default_factory=dict)
    job_type: dict[int, str] = field(default_factory=dict)
    job_database: dict[int, int] = field(default_factory=dict)
    job_background: dict[int, bool] = field(default_factory=dict)
    # PbStreamScanType::is_reschedulable(UpstreamOnly) of the release (set by the caller).
    upstream_only_reschedulable: bool = True

    @classmethod
    def load(cls, conn: sqlite3.Connection) -> Graph:
        g = cls()
        for fid, jid, scan, dist in conn.execute(
            "SELECT fragment_id, job_id, scan_type, distribution_type FROM fragment"
        ):
            g.fragments[fid] = Fragment(fid, jid, scan, dist)
        for s, t, d in conn.execute(
            "SELECT source_fragment_id, target_fragment_id, dispatcher_type FROM fragment_relation"
        ):
            g.edges[(s, t)] = d
        for jid, status, jtype, db, ctype in conn.execute(
            "SELECT job_id, job_status, job_type, database_id, create_type FROM streaming_job"
        ):
            g.job_status[jid] = status
            g.job_type[jid] = jtype
            g.job_database[jid] = db
            g.job_background[jid] = ctype == "BACKGROUND"
        return g

    @classmethod
    def load_around(cls, conn: sqlite3.Connection, jobs: Iterable[int]) -> Graph:
        """The part of the graph the rules need for a DDL on ``jobs``, read through indexes so
        its cost does not grow with the number of jobs in the catalog: the fragments of
        ``jobs`` and of every job not yet CREATED, all their edges, everything NoShuffle-
        connected to those (with all edges), and the NoShuffle components of their direct
        neighbours.  Every rule in this module gives the same answer on it as on ``load``."""
        g = cls()
        seeds = set(jobs)
        # The creating set is read through streaming_job_by_status: IN, not != 'CREATED',
        # which SQLite's planner can only answer by scanning every job.
        seeds.update(
            int(j)
            for (j,) in conn.execute(
                "SELECT job_id FROM streaming_job WHERE job_status IN ('INITIAL', 'CREATING')"
            )
        )
        full: list[int] = []
        for jid in sorted(seeds):
            for fid, fjid, scan, dist in conn.execute(
                "SELECT fragment_id, job_id, scan_type, distribution_type FROM fragment"
                " WHERE job_id = ?",
                (jid,),
            ):
                g.fragments[fid] = Fragment(fid, fjid, scan, dist)
                full.append(fid)
        expanded: dict[int, bool] = {}  # fragment -> all edges loaded (else NoShuffle only)
        stack: list[tuple[int, bool]] = [(f, True) for f in full]
        while stack:
            fid, whole = stack.pop()
            done = expanded.get(fid)
            if done is not None and (done or not whole):
                continue
            expanded[fid] = whole
            only_ns = "" if whole else " AND dispatcher_type = 'NoShuffle'"
            rows = conn.execute(
                "SELECT source_fragment_id, target_fragment_id, dispatcher_type"
                f" FROM fragment_relation WHERE source_fragment_id = ?{only_ns}"
                " UNION ALL SELECT source_fragment_id, target_fragment_id, dispatcher_type"
                f" FROM fragment_relation WHERE target_fragment_id = ?{only_ns}",
                (fid, fid),
            ).fetchall()
            for s, t, d in rows:
                g.edges[(s, t)] = d
                other = t if s == fid else s
                if other not in g.fragments:
                    row = conn.execute(
                        "SELECT fragment_id, job_id, scan_type, distribution_type FROM fragment"
                        " WHERE fragment_id = ?",
                        (other,),
                    ).fetchone()
                    if row is None:
                        continue
                    g.fragments[other] = Fragment(*row)
                # NoShuffle partners share the expansion; other neighbours get their
                # NoShuffle components only.
                stack.append((other, whole and d == "NoShuffle"))
        owners = sorted({f.job_id for f in g.fragments.values()} | seeds)
        for i in range(0, len(owners), 500):
            chunk = owners[i : i + 500]
            marks = ",".join("?" * len(chunk))
            for jid, status, jtype, db, ctype in conn.execute(
                "SELECT job_id, job_status, job_type, database_id, create_type FROM streaming_job"
                f" WHERE job_id IN ({marks})",
                chunk,
            ):
                g.job_status[jid] = status
                g.job_type[jid] = jtype
                g.job_database[jid] = db
                g.job_background[jid] = ctype == "BACKGROUND"
        return g

    def fragments_of(self, job_id: int) -> list[int]:
        return sorted(f.fragment_id for f in self.fragments.values() if f.job_id == job_id)

    def upstream(self, fragment_id: int) -> list[int]:
        return sorted(s for (s, t) in self.edges if t == fragment_id)

    def downstream(self, fragment_id: int) -> list[int]:
        return sorted(t for (s, t) in self.edges if s == fragment_id)

    def no_shuffle_closure(self, seeds: set[int]) -> set[int]:
        """Seeds plus every fragment in a NoShuffle component touching them (both directions)."""
        adj: dict[int, set[int]] = defaultdict(set)
        for (s, t), d in self.edges.items():
            if d == "NoShuffle":
                adj[s].add(t)
                adj[t].add(s)
        out = set(seeds)
        stack = list(seeds)
        while stack:
            f = stack.pop()
            for n in adj[f]:
                if n not in out:
                    out.add(n)
                    stack.append(n)
        return out

    def creating_jobs(self, *, background_only: bool = False) -> list[int]:
        """Jobs with status exactly CREATING (metadata.rs:357-365); ``background_only``: the
        background ones (list_background_creating_jobs, v3.0.3 list_op.rs:99-112, :125)."""
        return sorted(
            j
            for j, s in self.job_status.items()
            if s == "CREATING" and (not background_only or self.job_background.get(j, False))
        )

    def owner(self, fragment_id: int) -> int | None:
        f = self.fragments.get(fragment_id)
        return None if f is None else f.job_id

    def unreschedulable_fragments(self, job_id: int, online: bool) -> set[int]:
        return {
            f.fragment_id
            for f in self.fragments.values()
            if f.job_id == job_id
            and f.scan_type is not None
            and not reschedulable(
                f.scan_type, online, upstream_only=self.upstream_only_reschedulable
            )
        }


def blocked_jobs(graph: Graph, creating: list[int], online: bool) -> set[int]:
    """collect_reschedule_blocked_jobs_for_creating_jobs (metadata.rs:727-790)."""
    seed: set[int] = set()
    for j in creating:
        seed |= graph.unreschedulable_fragments(j, online)
    if not seed:
        return set()
    seed |= {u for f in list(seed) for u in graph.upstream(f)}
    blocked = graph.no_shuffle_closure(seed)
    return {o for f in blocked if (o := graph.owner(f)) is not None}


def blocking_jobs(graph: Graph, creating: list[int], job_id: int, online: bool) -> list[int]:
    """The creating jobs among ``creating`` whose backfill alone puts ``job_id`` in the blocked
    set: the cause of error 1.  The blocked set is a union over the creating jobs (the seeds'
    upstream hop and NoShuffle closure distribute over union), so asking ``blocked_jobs`` one
    creating job at a time names every cause with the same rule."""
    return [j for j in creating if job_id in blocked_jobs(graph, [j], online)]


def online_unreschedulable_jobs(graph: Graph, creating: list[int]) -> set[int]:
    """collect_online_unreschedulable_backfill_jobs (metadata.rs:704-725)."""
    return {j for j in creating if graph.unreschedulable_fragments(j, online=True)}


def independent_inflight(graph: Graph, database_id: int) -> list[int]:
    """Snapshot-backfill / batch-refresh jobs still creating in a database: they run in their
    own partial graph (control.rs:743-770)."""
    return sorted(
        j
        for j, s in graph.job_status.items()
        if s == "CREATING"
        and graph.job_database.get(j) == database_id
        and graph.job_type.get(j) in ("SnapshotBackfill", "BatchRefresh")
    )


def reschedule_fragments(graph: Graph, job_id: int) -> set[int]:
    """The fragments a reschedule of a job touches: its fragments and their NoShuffle
    ensembles (scale.rs:456-503)."""
    return graph.no_shuffle_closure(set(graph.fragments_of(job_id)))


def barrier_rejected_jobs(
    graph: Graph, database_id: int, fragments: set[int], *, seeds: Iterable[int] | None = None
) -> set[int]:
    """The barrier-level check of a resolved reschedule (control.rs:64-89, 866-966): the jobs
    among the reschedule's affected fragments that in-flight independent jobs block.
    ``seeds`` limits the blocking side to some of the in-flight jobs (to name the causes)."""
    independent = independent_inflight(graph, database_id)
    if not independent:
        return set()
    independent_set = set(independent)
    seed: set[int] = set()
    for j in independent if seeds is None else [j for j in independent if j in set(seeds)]:
        own = graph.unreschedulable_fragments(j, online=True)
        seed |= own
        seed |= {u for f in own for u in graph.upstream(f)}
    blocked_fr = graph.no_shuffle_closure(seed)
    blocked = {
        o
        for f in blocked_fr
        if (o := graph.owner(f)) is not None
        and o not in independent_set
        and graph.job_database.get(o) == database_id
    }
    affected = set(fragments)
    for f in fragments:
        affected |= {u for u in graph.upstream(f) if graph.edges[(u, f)] != "NoShuffle"}
        affected |= {d for d in graph.downstream(f) if graph.edges[(f, d)] != "NoShuffle"}
    owners = {o for f in affected if (o := graph.owner(f)) is not None and o not in independent_set}
    return owners & blocked


def barrier_blocking_jobs(graph: Graph, database_id: int, fragments: set[int]) -> list[int]:
    """The in-flight independent jobs that alone make the barrier reject a reschedule of
    ``fragments``: the cause of error 6 (the same rule, one in-flight job at a time; its seed
    is a union over them, like ``blocked_jobs``)."""
    return [
        j
        for j in independent_inflight(graph, database_id)
        if barrier_rejected_jobs(graph, database_id, fragments, seeds=[j])
    ]


def ensemble_roots(graph: Graph, fragment_id: int) -> list[int]:
    """The entry fragments of the NoShuffle ensemble a fragment belongs to, empty when the
    fragment is itself an entry or has no ensemble (fragment.rs:1467-1493)."""
    component = graph.no_shuffle_closure({fragment_id})
    if len(component) == 1:
        return []
    roots = sorted(
        f
        for f in component
        if not any(graph.edges.get((u, f)) == "NoShuffle" for u in graph.upstream(f))
    )
    return [] if fragment_id in roots else roots


def ensemble_entries(graph: Graph, component: set[int]) -> list[int]:
    """The entry fragments of a NoShuffle ensemble: those with no NoShuffle upstream inside
    it (find_no_shuffle_graphs, src/meta/src/controller/scale.rs:1636-1690), sorted."""
    return sorted(
        f
        for f in component
        if not any(
            graph.edges.get((u, f)) == "NoShuffle" and u in component for u in graph.upstream(f)
        )
    )
