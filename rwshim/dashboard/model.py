"""What the dashboard shows, as plain JSON-ready values read from one ``Instance``: the
databases' barrier state, the relation graph with each job's status and backfill progress,
a job's fragment graph, and the blocked set.  No I/O and no web library: ``app.py`` serves
these values, and the unit tests call them directly.

The blocked set is asked of the scale part's refusal rules (``Scale.parallelism_refusal``,
``Scale.backfill_parallelism_refusal``, ``Scale.barrier_refusal``,
``Scale.fragment_refusals``), the functions the ALTERs themselves call, so the page can never
disagree with the statement.

RisingWave's own dashboard (``dashboard/`` at the reference commit, served by the meta node on
port 5691) draws the relation graph (``pages/relation_graph.tsx``) and a job's fragment graph
(``pages/fragment_graph.tsx``) from the meta node's catalog and fragment tables; it shows no
reason why a reschedule would be refused, which rwshim can, since it knows its own rules.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from rwshim.control import statements as control
from rwshim.engine import graph as g
from rwshim.engine.scale import (
    ALTER_BACKFILL_PARALLELISM,
    ALTER_PARALLELISM,
    Refusal,
)
from rwshim.engine.types import EPOCH_SHIFT, RISINGWAVE_DATE_EPOCH_MS
from rwshim.errors import RUN_QUERY
from rwshim.store.functions import release_fragment_policy

if TYPE_CHECKING:
    from rwshim.instance import Instance

Json = dict[str, Any]

# Relation kinds as the ALTER statement spells them.
STATEMENT_KIND = {
    "table": "TABLE",
    "materialized view": "MATERIALIZED VIEW",
    "index": "INDEX",
    "sink": "SINK",
    "source": "SOURCE",
}


def overview(instance: Instance, *, control_enabled: bool = False) -> Json:
    """The cluster at a glance: each database's barrier state, the clock, the control flag."""
    engine = instance.engine
    states = instance.catalog_reader.barrier_states()
    databases = []
    for db, name in instance.catalog_reader.databases():
        paused, epoch, count = states.get(db, (False, 0, 0))
        physical = (epoch >> EPOCH_SHIFT) + RISINGWAVE_DATE_EPOCH_MS if epoch else None
        databases.append(
            {
                "id": db,
                "name": name,
                # No checkpoint control yet: the database has had no streaming job (or pause).
                "barrier_state": db in states,
                "paused": paused,
                "epoch": epoch,
                # The epoch's physical part: the clock's ms at that barrier.
                "epoch_time_ms": physical,
                "barrier_count": count,
                "barrier_interval_ms": engine.params.barrier_interval_ms(db),
            }
        )
    return {
        "databases": databases,
        "manual_clock": instance.manual,
        "control": control_enabled,
    }


def _jobs(instance: Instance) -> dict[int, Json]:
    """RWSHIM JOBS' rows (``control.job_rows``) by job id, as dicts."""
    names = [c.name for c in control.JOB_COLUMNS]
    rows: list[Json] = [dict(zip(names, r, strict=True)) for r in control.job_rows(instance)]
    return {int(row["id"]): row for row in rows}


def relations(instance: Instance) -> Json:
    """Every database's relations (internal state tables aside) as a dependency graph: nodes
    with their streaming job (status, progress, parallelism), edges upstream -> downstream."""
    jobs = _jobs(instance)
    nodes: list[Json] = []
    ids: set[int] = set()
    sink_targets: dict[int, int] = {}
    reader = instance.catalog_reader
    for rel in reader.graph_relations():
        ids.add(rel.id)
        if rel.target_table_id is not None:
            sink_targets[rel.id] = rel.target_table_id
        job = jobs.get(rel.id)
        nodes.append(
            {
                "id": rel.id,
                "kind": rel.kind,
                "name": rel.name,
                "schema": rel.schema,
                "database_id": rel.database_id,
                "database": rel.database,
                "definition": rel.definition,
                "shared": rel.shared,
                "job": None if job is None else _job_summary(job),
            }
        )
    edges: list[Json] = []
    for ref, dep in reader.dependencies():
        if ref not in ids or dep not in ids:
            continue
        if sink_targets.get(dep) == ref:
            # A sink into a table writes to it: the data flows from the sink.
            ref, dep = dep, ref
        edges.append({"from": ref, "to": dep})
    return {"nodes": nodes, "edges": edges}


def _job_summary(job: Json) -> Json:
    consumed, total = job["backfill_consumed"], job["backfill_total"]
    status = str(job["status"])
    if status == "CREATED":
        fraction: float | None = 1.0
    elif total:
        fraction = min(int(consumed or 0) / int(total), 1.0)
    else:
        fraction = None if status == "INITIAL" else 0.0
    return {
        "id": job["id"],
        "status": status,
        "create_type": job["create_type"],
        "job_type": job["job_type"],
        "parallelism": job["parallelism"],
        "actors": job["actors"],
        "max_parallelism": job["max_parallelism"],
        "paused": job["paused"],
        "backfill_held": job["backfill_held"],
        "backfill_consumed": consumed,
        "backfill_total": total,
        "progress": job["progress"],
        "fraction": fraction,
    }


def _refusal(refusal: Refusal | None, names: dict[int, str]) -> Json:
    if refusal is None:
        return {"refused": False}
    err = refusal.error
    return {
        "refused": True,
        # "always": any value is refused; "layout change": the barrier rejects a value that
        # changes the actors (the same value again is a no-op and succeeds).
        "when": "layout change" if refusal.at_barrier else "always",
        "message": err.meta_message,
        "error": err.report(RUN_QUERY),
        "sqlstate": err.code,
        "call": err.call,
        "causes": [{"id": c, "name": names.get(c, str(c))} for c in refusal.causes],
    }


def blocked(instance: Instance) -> Json:
    """For every streaming job: would ``ALTER ... SET PARALLELISM``,
    ``SET BACKFILL_PARALLELISM`` and ``ALTER FRAGMENT ... SET PARALLELISM`` be refused now,
    with RisingWave's error and the creating jobs that cause it."""
    scale = instance.engine.scale
    graph = instance.catalog_reader.graph()
    names = instance.catalog_reader.job_names()
    out = []
    for jid, status in sorted(graph.job_status.items()):
        if status == "INITIAL":
            continue  # invisible to the frontend: no ALTER can name it
        db = graph.job_database[jid]
        touched = g.reschedule_fragments(graph, jid)
        parallelism = scale.parallelism_refusal(jid, graph=graph) or scale.barrier_refusal(
            db, touched, ALTER_PARALLELISM, graph=graph
        )
        backfill = scale.backfill_parallelism_refusal(jid, graph=graph)
        if backfill is None and status != "CREATED":
            # A creating job's new backfill parallelism is applied at once (scale.rs:280-321).
            backfill = scale.barrier_refusal(db, touched, ALTER_BACKFILL_PARALLELISM, graph=graph)
        fragments = scale.fragment_refusals(jid, graph=graph)
        out.append(
            {
                "job_id": jid,
                "name": names.get(jid, str(jid)),
                "status": status,
                "parallelism": _refusal(parallelism, names),
                "backfill_parallelism": _refusal(backfill, names),
                "fragments": {
                    str(fid): _refusal(fragments.get(fid), names) for fid in graph.fragments_of(jid)
                },
            }
        )
    return {"jobs": out}


def job(instance: Instance, job_id: int, blocked_set: Json | None = None) -> Json | None:
    """One streaming job: its fragments (type, distribution, backfill, parallelism, actors, rate
    limits), the edges among them and to the fragments of its upstream and downstream jobs,
    and its blocked-set entry (from ``blocked_set`` when the caller has it).  None when there
    is no such job."""
    jobs = _jobs(instance)
    if job_id not in jobs:
        return None
    reader = instance.catalog_reader
    names = reader.relation_names()
    own = reader.fragment_ids(job_id)
    edges: list[Json] = []
    linked: set[int] = set(own)
    for fid in own:
        for s, t, d in reader.fragment_edges(fid):
            edge = {"source": s, "target": t, "dispatcher": d}
            if edge not in edges:
                edges.append(edge)
            linked.update((s, t))
    fragments = [_fragment(instance, fid, job_id, names) for fid in sorted(linked)]
    blocked_set = blocked_set or blocked(instance)
    entry = next((b for b in blocked_set["jobs"] if b["job_id"] == job_id), None)
    row = jobs[job_id]
    name, kind = names.get(job_id, (str(job_id), ""))
    rel = reader.relation(job_id)
    assert rel is not None  # a job's relation (RWSHIM JOBS joins them)
    definition = rel.definition
    return {
        "job": {
            **_job_summary(row),
            "name": name,
            "kind": kind,
            "statement_kind": STATEMENT_KIND.get(kind, kind.upper()),
            "database": row["database"],
            "definition": definition,
        },
        "fragments": fragments,
        "edges": sorted(edges, key=lambda e: (e["source"], e["target"])),
        "blocked": entry,
    }


def _fragment(instance: Instance, fid: int, job_id: int, names: dict[int, tuple[str, str]]) -> Json:
    row = instance.catalog_reader.fragment(fid)
    assert row is not None  # an id just read from the fragment graph
    owner = int(row["job_id"])
    scan_rel = row["scan_relation_id"]
    rate, bf_rate = row["rate_limit"], row["backfill_rate_limit"]
    return {
        "id": fid,
        "job_id": owner,
        "job_name": names.get(owner, (str(owner), ""))[0],
        # A fragment of an upstream or downstream job, drawn for context.
        "external": owner != job_id,
        "flags": json.loads(row["flags"]),
        "distribution": str(row["distribution_type"]),
        "scan_type": row["scan_type"],
        "scan_relation": None
        if scan_rel is None
        else {"id": int(scan_rel), "name": names.get(int(scan_rel), (str(scan_rel), ""))[0]},
        "actors": instance.engine.actors.actor_count(fid),
        "parallelism_policy": release_fragment_policy(
            str(row["parallelism_policy"]), instance.release
        ),
        "max_parallelism": int(row["vnode_count"]),
        "rate_limit": None if rate is None else int(rate),
        "backfill_rate_limit": None if bf_rate is None else int(bf_rate),
        "backfill": None
        if scan_rel is None
        else {
            "consumed": int(row["backfill_consumed"]),
            "total": row["backfill_total"],
            "done": bool(row["backfill_done"]),
        },
    }


def snapshot(
    instance: Instance, *, job_id: int | None = None, control_enabled: bool = False
) -> Json:
    """Everything a page draws, in one value (what the event stream sends)."""
    out: Json = {
        "overview": overview(instance, control_enabled=control_enabled),
        "relations": relations(instance),
        "blocked": blocked(instance),
    }
    if job_id is not None:
        out["job"] = job(instance, job_id, out["blocked"])
    return out
