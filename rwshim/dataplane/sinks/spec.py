"""A sink as its delivery reads it: the catalog's row (type, target, options, columns), the
``INTO t (cols)`` list of its definition, and its query planned for PostgreSQL (the text
``SELECT`` reads, and the data-plane tables it reads, through materialized views too).

RisingWave: the sink catalog (``src/connector/src/sink/catalog/mod.rs``: sink_type,
target_table, properties, columns) and ``src/frontend/src/handler/create_sink.rs``
(``snapshot``, the INTO column list).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rwshim.binder.relations import Relation, RelKind
from rwshim.errors import RwError

if TYPE_CHECKING:
    from rwshim.dataplane.plane import DataPlane


@dataclass(frozen=True, slots=True)
class SinkSpec:
    id: int
    name: str
    database_id: int
    sink_type: str  # 'append-only', 'force-append-only', 'upsert', 'retract'
    target_id: int | None  # INTO this table
    connector: str | None
    options: dict[str, str]
    columns: tuple[str, ...]  # the sink's visible columns, in order
    rw_types: tuple[str, ...]
    into_columns: tuple[str, ...]
    snapshot: bool
    created: bool
    read_query: str | None
    owner_id: int

    @property
    def append_only(self) -> bool:
        return self.sink_type in ("append-only", "force-append-only")

    @property
    def ignore_delete(self) -> bool:
        """``ignore_delete`` (or its alias ``force_append_only``) = 'true': the sink drops its
        deletes and turns updates into inserts whatever its type (sink.rs:81-92
        force_append_only; stream_sink.rs:705-731 is_user_ignore_delete, which the frontend
        checked at CREATE SINK)."""
        for key in ("ignore_delete", "force_append_only"):
            value = self.options.get(key)
            if value is not None:
                return value.lower() == "true"
        return False


@dataclass(frozen=True, slots=True)
class Planned:
    text: str  # the query as PostgreSQL runs it, its columns named c0, c1, ...
    relation_ids: tuple[int, ...]  # what it reads (their objects must be made)
    tables: frozenset[int]  # the data-plane tables it reads, directly or through views


def column(i: int) -> str:
    return f"c{i}"


def sinks(plane: DataPlane) -> list[SinkSpec]:
    """Every sink of the catalog, by id."""
    conn = plane.relations.conn
    rows = conn.execute(
        "SELECT r.relation_id, r.name, r.database_id, r.sink_type, r.target_table_id,"
        " r.connector, r.with_options, r.definition, j.job_status, r.read_query, r.owner_id"
        " FROM relation r LEFT JOIN streaming_job j ON j.job_id = r.relation_id"
        " WHERE r.kind = 'sink' ORDER BY r.relation_id"
    ).fetchall()
    out = []
    for rid, name, db, sink_type, target, connector, options, definition, status, rq, owner in rows:
        cols = conn.execute(
            "SELECT name, rw_type FROM relation_column WHERE relation_id = ? AND NOT is_hidden"
            " ORDER BY position",
            (rid,),
        ).fetchall()
        opts = {str(k): str(v) for k, v in json.loads(options or "{}").items()}
        out.append(
            SinkSpec(
                id=int(rid),
                name=str(name),
                database_id=int(db),
                sink_type=str(sink_type or "append-only"),
                target_id=None if target is None else int(target),
                connector=None if connector is None else str(connector).lower(),
                options=opts,
                columns=tuple(str(c[0]) for c in cols),
                rw_types=tuple(str(c[1] or "") for c in cols),
                into_columns=_into_columns(str(definition or "")),
                snapshot=opts.get("snapshot", "true").lower() != "false",
                created=status is None or status == "CREATED",
                read_query=None if rq is None else str(rq),
                owner_id=int(owner),
            )
        )
    return out


def _into_columns(definition: str) -> tuple[str, ...]:
    if not definition:
        return ()
    from rwshim.sql import parse
    from rwshim.sql.ast.create import CreateSink

    try:
        parsed = parse(definition)
    except RwError:
        return ()
    stmt = parsed[0] if parsed else None
    return stmt.into_columns if isinstance(stmt, CreateSink) else ()


def plan(plane: DataPlane, spec: SinkSpec) -> Planned:
    """The sink's query on PostgreSQL, planned as a materialized view's definition is
    (plane.definition_routed, plan/views.definition): bound in the sink's database with its
    creator's search_path, its session values those of its creation."""
    from rwshim.dataplane.plan import views

    if spec.read_query is None:
        raise RwError(f"sink {spec.name} has no query")
    rel = Relation(
        id=spec.id, schema="", name=spec.name, kind=RelKind.MATERIALIZED_VIEW, columns=(),
        definition=spec.read_query, database_id=spec.database_id, owner_id=spec.owner_id,
    )  # fmt: skip
    routed = plane.definition_routed(rel)
    if routed is None:
        raise RwError(f"sink {spec.name} reads no user relation")
    # (a sink over a datagen source reads the rows the source made since it was created,
    # not its own readers from offset 0 as RisingWave's sink job does: SUPPORTED.md)
    st = views.definition(plane.relations, rel, routed, own_readers=False)
    if st.changelogs:  # (dataplane/plan/changelogs.py keeps its logs per materialized view)
        raise RwError(f"not supported by rwshim: sink {spec.name} reads a changelog CTE")
    names = ", ".join(column(i) for i in range(len(spec.columns)))
    tables: set[int] = set()
    for dep in st.relation_ids:
        tables.update(o.relation_id for o in plane.objects_for(dep) if o.kind == "table")
    text = f"SELECT * FROM ({st.text}) AS rw_q({names})"
    return Planned(text, tuple(st.relation_ids), frozenset(tables))
