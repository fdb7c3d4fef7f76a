"""Rate limits: ALTER <object> SET {SOURCE | BACKFILL | DML | SINK}_RATE_LIMIT and ALTER
FRAGMENT ... SET RATE_LIMIT, which set the limit on the job's fragments and send a barrier
(RisingWave's Throttle command); 0 stops the node, DEFAULT removes the limit.  The backfill
model reads ``backfill_rate_limit`` (engine/backfill.py).

RisingWave: ``src/frontend/src/handler/alter_streaming_rate_limit.rs``, ``handler/mod.rs:
141-155, :1603-1622``, ``src/meta/src/controller/streaming_job.rs`` (update_*_rate_limit_*),
``src/meta/src/barrier/command.rs`` (Command::Throttle).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rwshim.engine.barrier import Barrier
from rwshim.engine.catalog import Catalog
from rwshim.engine.state import Meta
from rwshim.engine.types import Context, ObjectName, Result
from rwshim.errors import (
    CatalogNotFound,
    InvalidInputSyntax,
    MetaCatalogNotFound,
    MetaInvalidParameter,
    NotImplementedError_,
    Uncategorized,
)
from rwshim.lazy import lazy_module

if TYPE_CHECKING:
    import json
else:
    json = lazy_module("json")  # on first use: start-up and SELECT 1 read and write no JSON

RATE_KINDS = ("source", "backfill", "dml", "sink")
# proto/meta.proto:501 (StreamManagerService.ApplyThrottle), the call every rate limit takes.
APPLY_THROTTLE = "/meta.StreamManagerService/ApplyThrottle"


class Throttle:
    """Rate limits of streaming jobs and fragments."""

    def __init__(self, meta: Meta, catalog: Catalog, barrier: Barrier) -> None:
        self.meta = meta
        self.store = meta.store
        self.conn = meta.conn
        self.catalog = catalog
        self.barrier = barrier

    def alter_rate_limit(
        self, ctx: Context, kind: str, name: ObjectName, rate_kind: str, value: int | None
    ) -> Result:
        """ALTER <kind> <name> SET <RATE>_RATE_LIMIT {TO|=} {n|DEFAULT}
        (handler/mod.rs:141-155, alter_streaming_rate_limit.rs).  ``rate_kind`` is 'source',
        'backfill', 'dml' or 'sink'; None removes the limit; 0 stops the node."""
        allowed = {
            "table": ("source", "backfill", "dml"),
            "materialized view": ("backfill",),
            "sink": ("sink", "backfill"),
            "source": ("source",),
        }
        target_word = {
            "table": "TABLE",
            "materialized view": "MATERIALIZED VIEW",
            "sink": "SINK",
            "source": "SOURCE",
            "view": "VIEW",
            "index": "INDEX",
        }[kind]
        if rate_kind not in allowed.get(kind, ()):
            if kind == "view" and rate_kind == "backfill":
                raise NotImplementedError_("ALTER VIEW SET BACKFILL RATE LIMIT")
            raise InvalidInputSyntax(
                f"ALTER {target_word} SET {rate_kind.upper()}_RATE_LIMIT is not supported"
            )
        lookup_kinds = {
            "table": ("table", "materialized view", "index"),
            "materialized view": ("table", "materialized view", "index"),
            "sink": ("sink",),
            "source": ("source",),
        }[kind]
        rel = self.catalog.lookup(ctx, name, lookup_kinds)
        if rel is None:
            raise CatalogNotFound({"materialized view": "table"}.get(kind, kind), name.name)
        if kind == "table" and rel.kind != "table":
            raise InvalidInputSyntax(f'"{name.name}" is not a TABLE')
        if kind == "materialized view" and rel.kind != "materialized view":
            raise InvalidInputSyntax(f'"{name}" is not a materialized view')
        self.catalog.check_drop_alter(ctx, rel)
        if kind == "table" and rate_kind == "source" and not rel.connector:
            raise Uncategorized("ALTER SOURCE_RATE_LIMIT is not for table without source")
        if kind == "table" and rate_kind == "backfill":
            raise InvalidInputSyntax(f'"{name.name}" is not a CDC table')
        if kind == "sink" and rate_kind == "sink" and rel.target_table_id is not None:
            raise Uncategorized("ALTER SINK_RATE_LIMIT is not for sink into table")
        flag = {"source": "SOURCE", "backfill": None, "dml": "DML", "sink": "SINK"}[rate_kind]
        with self.store.transaction():
            for fid, flags, scan_rel in self.conn.execute(
                "SELECT fragment_id, flags, scan_relation_id FROM fragment WHERE job_id = ?",
                (rel.id,),
            ).fetchall():
                fl = json.loads(flags)
                if flag is None and scan_rel is not None:
                    self.conn.execute(
                        "UPDATE fragment SET backfill_rate_limit = ? WHERE fragment_id = ?",
                        (value, fid),
                    )
                elif flag is not None and flag in fl:
                    self.conn.execute(
                        "UPDATE fragment SET rate_limit = ? WHERE fragment_id = ?", (value, fid)
                    )
            if rel.is_job:
                self.barrier.barrier(rel.database_id)
        self.meta.commit_actions()
        return Result()

    def alter_fragment_rate_limit(
        self,
        ctx: Context,
        fragment_ids: Sequence[int],
        value: int | None,
        rate_kind: str = "backfill",
    ) -> Result:
        """ALTER FRAGMENT id SET {RATE_LIMIT | <KIND>_RATE_LIMIT} (mod.rs:1603-1622; the
        session answers tag SET_VARIABLE).  ``RATE_LIMIT`` alone means backfill.  Meta's
        apply_throttle on a fragment (src/meta/service/src/stream_service.rs:186-248,
        controller/streaming_job.rs:3646-3760 and :2569-2610): an unknown fragment is
        catalog_id_not_found (gRPC NotFound, 42704); a fragment without the node the kind
        throttles is an invalid parameter."""
        if len(fragment_ids) != 1:
            raise InvalidInputSyntax(
                "ALTER FRAGMENT ... SET rate limit supports exactly one fragment id"
            )
        fid = fragment_ids[0]
        row = self.meta.q1(
            "SELECT f.flags, f.scan_relation_id, j.database_id, j.job_id FROM fragment f"
            " JOIN streaming_job j ON j.job_id = f.job_id WHERE f.fragment_id = ?",
            (fid,),
        )
        if row is None:
            raise MetaCatalogNotFound(APPLY_THROTTLE, "fragment", fid)
        flags, scan_rel, db, job = json.loads(row[0]), row[1], int(row[2]), int(row[3])
        if not self._has_throttled_node(rate_kind, flags, scan_rel, job):
            raise MetaInvalidParameter(f"fragment id {fid}: rate limit node not found")
        column = "backfill_rate_limit" if rate_kind == "backfill" else "rate_limit"
        with self.store.transaction():
            self.conn.execute(
                f"UPDATE fragment SET {column} = ? WHERE fragment_id = ?", (value, fid)
            )
            self.barrier.barrier(db)
        self.meta.commit_actions()
        return Result()

    def _has_throttled_node(
        self, rate_kind: str, flags: list[str], scan_rel: int | None, job_id: int
    ) -> bool:
        """Whether the fragment has the node a throttle of ``rate_kind`` sets
        (update_fragment_rate_limit_by_fragment_id, streaming_job.rs:3652-3734): a Source with
        a connector (a table without one has none), a StreamScan or SourceBackfill in a
        STREAM_SCAN / SOURCE_SCAN fragment, a Sink in a SINK fragment, a Dml in a DML one."""
        if rate_kind == "backfill":
            return scan_rel is not None and bool({"STREAM_SCAN", "SOURCE_SCAN"} & set(flags))
        if rate_kind == "sink":
            return "SINK" in flags
        if rate_kind == "dml":
            return "DML" in flags
        if "SOURCE" not in flags:
            return False
        rel = self.catalog.relation(job_id)
        return rel is None or rel.kind != "table" or bool(rel.connector)
