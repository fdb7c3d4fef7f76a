"""Actors: the cluster's streaming workers, how many actors each fragment of a job gets (the
effective parallelism of the job or fragment, NoShuffle ensembles, vnode and max-parallelism
caps), re-rendering a job's actors from the catalog, and the parallelism policy rw_fragments
shows.

RisingWave: ``src/meta/src/controller/scale.rs`` (render_actor_assignments, render_actors,
NoShuffleEnsemble, effective parallelism :1146-1181), ``src/meta/src/controller/cluster.rs``
(the workers and their parallelism), ``src/meta/src/stream/stream_graph/schedule.rs``,
``src/meta/src/controller/fragment.rs`` (parallelism policy), ``src/meta/src/rpc/
stream_service.rs:87-102`` (the parallelism rw_streaming_jobs renders).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rwshim.engine import graph as g
from rwshim.engine import parallelism as par
from rwshim.engine.state import Meta


class Actors:
    """Actor placement and rendering."""

    def __init__(self, meta: Meta) -> None:
        self.meta = meta
        self.store = meta.store
        self.conn = meta.conn

    def actor_count(self, fragment_id: int) -> int:
        """The actors a fragment has now."""
        return int(
            self.meta.val("SELECT count(*) FROM actor WHERE fragment_id = ?", (fragment_id,))
        )

    def ensure_workers(self) -> None:
        """The emulated cluster's workers (rw_worker_nodes): one frontend, one compute node
        with ``streaming_slots`` of parallelism, for a store that has none yet."""
        if self.meta.val("SELECT count(*) FROM worker") == 0:
            now = self.meta.now()
            self.conn.execute(
                "INSERT INTO worker(worker_id, worker_type, host, port, parallelism,"
                " resource_group, is_streaming, is_serving, started_at) VALUES"
                " (1, 'WORKER_TYPE_FRONTEND', '127.0.0.1', 4566, 0, NULL, 0, 0, ?),"
                " (2, 'WORKER_TYPE_COMPUTE_NODE', '127.0.0.1', 5688, ?, 'default', 1, 1, ?)",
                (now, self.meta.streaming_slots, now),
            )

    def slots(self, resource_group: str) -> int:
        """The streaming parallelism of a resource group's running workers."""
        v = self.meta.val(
            "SELECT sum(parallelism) FROM worker WHERE is_streaming = 1 AND state = 'RUNNING'"
            " AND coalesce(resource_group, 'default') = ?",
            (resource_group,),
        )
        return int(v) if v else 0

    def job_target(self, job_id: int) -> tuple[par.Target, int, str]:
        """Effective parallelism (scale.rs:1146-1181): the backfill override while not
        CREATED; plus max parallelism and resource group."""
        row = self.meta.q1(
            "SELECT j.job_status, j.parallelism_kind, j.parallelism_fixed,"
            " j.adaptive_parallelism_strategy, j.backfill_parallelism_kind,"
            " j.backfill_parallelism_fixed, j.backfill_adaptive_parallelism_strategy,"
            " j.max_parallelism, coalesce(j.specific_resource_group, d.resource_group)"
            " FROM streaming_job j JOIN database d ON d.database_id = j.database_id"
            " WHERE j.job_id = ?",
            (job_id,),
        )
        assert row is not None
        status = str(row[0])
        target = par.Target(str(row[1]), row[2], row[3])
        if status != "CREATED" and row[4] is not None:
            target = par.Target(str(row[4]), row[5], row[6])
        return target, int(row[7]), str(row[8])

    def planned_actor_counts(self, job_ids: Iterable[int]) -> dict[int, int]:
        """Actor count per fragment of the given jobs, as a re-render would place them.  Reads
        only those jobs' fragments and their NoShuffle upstream chains (indexed look-ups)."""
        out: dict[int, int] = {}
        jobs = set(job_ids)
        frags: dict[int, tuple[Any, ...] | None] = {}
        for jid in sorted(jobs):
            for r in self.conn.execute(
                "SELECT fragment_id, job_id, distribution_type, parallelism_override_kind,"
                " parallelism_override_fixed, vnode_count FROM fragment WHERE job_id = ?",
                (jid,),
            ).fetchall():
                frags[int(r[0])] = r
        own = sorted(frags)

        def frag(fid: int) -> tuple[Any, ...] | None:
            if fid not in frags:
                frags[fid] = self.meta.q1(
                    "SELECT fragment_id, job_id, distribution_type, parallelism_override_kind,"
                    " parallelism_override_fixed, vnode_count FROM fragment"
                    " WHERE fragment_id = ?",
                    (fid,),
                )
            return frags[fid]

        def no_shuffle_up(fid: int) -> int | None:
            v = self.meta.val(
                "SELECT source_fragment_id FROM fragment_relation WHERE target_fragment_id = ?"
                " AND dispatcher_type = 'NoShuffle'",
                (fid,),
            )
            return None if v is None else int(v)

        targets: dict[int, tuple[par.Target, int, str]] = {}

        def count(fid: int, depth: int = 0) -> int:
            if fid in out:
                return out[fid]
            r = frag(fid)
            assert r is not None
            jid = int(r[1])
            if jid not in jobs:
                current = self.actor_count(fid)
                return current
            up = None if r[2] == "SINGLE" or depth >= 64 else no_shuffle_up(fid)
            if r[2] == "SINGLE":
                n = 1
            elif up is not None and frag(up) is not None:
                n = count(up, depth + 1)
            else:
                if jid not in targets:
                    targets[jid] = self.job_target(jid)
                target, max_p, group = targets[jid]
                if r[3] is not None:
                    target = par.Target(str(r[3]), r[4], "AUTO" if r[3] == "Adaptive" else None)
                slots = self.slots(group) or self.meta.streaming_slots
                n = min(par.slots_for(target, slots), int(r[5]), max_p)
            out[fid] = max(n, 1)
            return out[fid]

        for fid in own:
            count(fid)
        return out

    def render_job(self, job_id: int, *, with_ensembles: bool = True) -> g.Graph:
        """Re-render the actors of a job (and of its NoShuffle ensembles) from the catalog.
        Returns the graph around the job it read (actors are not part of it)."""
        graph = g.Graph.load_around(self.conn, [job_id])
        fragments = (
            g.reschedule_fragments(graph, job_id)
            if with_ensembles
            else set(graph.fragments_of(job_id))
        )
        self.render_jobs({graph.fragments[f].job_id for f in fragments})
        return graph

    def store_policies(self, jobs: Iterable[int], graph: g.Graph | None = None) -> None:
        """Keep fragment.parallelism_policy (rw_fragments) in step with the catalog.  ``graph``:
        ``Graph.load_around`` of these jobs, when the caller has it and nothing changed the
        fragments, edges or jobs since."""
        jobs = list(jobs)
        if graph is None:
            graph = g.Graph.load_around(self.conn, jobs)
        for jid in jobs:
            row = self.meta.q1(
                "SELECT parallelism_kind, parallelism_fixed, adaptive_parallelism_strategy"
                " FROM streaming_job WHERE job_id = ?",
                (jid,),
            )
            job = None if row is None else par.Target(str(row[0]), row[1], row[2])
            for fid, dist, okind, ofixed in self.conn.execute(
                "SELECT fragment_id, distribution_type, parallelism_override_kind,"
                " parallelism_override_fixed FROM fragment WHERE job_id = ?",
                (jid,),
            ).fetchall():
                override = None if okind is None else par.Target(str(okind), ofixed, None)
                policy = par.parallelism_policy(
                    str(dist), override, job, g.ensemble_roots(graph, int(fid))
                )
                self.conn.execute(
                    "UPDATE fragment SET parallelism_policy = ? WHERE fragment_id = ?",
                    (policy, fid),
                )

    def render_jobs(self, jobs: set[int]) -> None:
        """Re-render the actors of the given jobs where their planned count changed."""
        counts = self.planned_actor_counts(jobs)
        current = {fid: self.actor_count(fid) for fid in counts}
        worker = int(self.meta.val("SELECT min(worker_id) FROM worker WHERE is_streaming = 1") or 0)
        for fid, n in sorted(counts.items()):
            if current.get(fid, 0) == n:
                continue
            self.conn.execute("DELETE FROM actor WHERE fragment_id = ?", (fid,))
            first = self.store.next_id("actor", n)
            self.conn.executemany(
                "INSERT INTO actor(actor_id, fragment_id, worker_id) VALUES (?, ?, ?)",
                [(first + i, fid, worker) for i in range(n)],
            )

    def rendered_parallelism(self, job_id: int) -> dict[int, int]:
        """Actor count per fragment of a job as currently rendered."""
        return {
            int(r[0]): int(r[1])
            for r in self.conn.execute(
                "SELECT f.fragment_id, count(a.actor_id) FROM fragment f LEFT JOIN actor a"
                " ON a.fragment_id = f.fragment_id WHERE f.job_id = ? GROUP BY f.fragment_id",
                (job_id,),
            )
        }

    def catalog_parallelism(self, job_id: int) -> str:
        """rw_streaming_jobs.parallelism: the effective value, rendered
        (stream_service.rs:87-102)."""
        target, _, _ = self.job_target(job_id)
        return par.render(target)
