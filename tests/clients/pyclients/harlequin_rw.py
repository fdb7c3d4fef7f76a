"""harlequin-risingwave (Harlequin's RisingWave adapter) against a server, without a terminal
UI: ``python harlequin_rw.py <host> <port>``.  The adapter is loaded the way Harlequin loads it
(its ``harlequin.adapter`` entry point), connects, lists the catalog, runs queries and reads
the completions; prints JSON lines."""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import Any

from emit import attempt, dsn_args, emit


def tree(items: Any, depth: int) -> list[Any]:
    """The catalog as [label, type, children] down to ``depth`` levels (children fetched
    lazily, as Harlequin's tree does when a node is expanded)."""
    out: list[Any] = []
    for item in items:
        kids = item.fetch_children() if depth > 1 else []
        out.append([item.label, item.type_label, tree(kids, depth - 1)])
    return out


def main() -> None:
    host, port = dsn_args()
    [ep] = [e for e in entry_points(group="harlequin.adapter") if e.name == "risingwave"]
    adapter_cls = ep.load()
    emit("adapter", f"{adapter_cls.__module__}.{adapter_cls.__name__}")
    adapter = adapter_cls(conn_str=[f"host={host} port={port} user=root dbname=dev"])
    conn = adapter.connect()
    setup = conn.execute(
        "CREATE TABLE sensors (id int PRIMARY KEY, site varchar, reading double precision)"
    )
    emit("ddl cursor", setup is None)
    for sql in (
        "INSERT INTO sensors VALUES (1, 'north', 1.5), (2, 'south', 2.5)",
        "FLUSH",
        "CREATE MATERIALIZED VIEW by_site AS SELECT site, avg(reading) AS r FROM sensors"
        " GROUP BY site",
        "CREATE VIEW high AS SELECT * FROM sensors WHERE reading > 2",
    ):
        conn.execute(sql)
    cur = conn.execute("SELECT id, site, reading FROM sensors ORDER BY id")
    emit("columns", cur.columns())
    data = cur.fetchall()
    emit("rows", [list(r) for r in data] if isinstance(data, list) else repr(data))
    catalog = conn.get_catalog()
    emit("databases", tree(catalog.items, 1))
    [dev] = [d for d in catalog.items if d.label == "dev"]
    emit("schemas", sorted(s.label for s in dev.fetch_children()))
    [public] = [s for s in dev.fetch_children() if s.label == "public"]
    emit("public", sorted([r.label, r.type_label] for r in public.fetch_children()))
    [table] = [r for r in public.fetch_children() if r.label == "sensors"]
    emit("sensors columns", [[c.label, c.type_label] for c in table.fetch_children()])
    attempt("bad query", lambda: conn.execute("SELECT * FROM nosuch"))
    completions = conn.get_completions()
    emit("completions", len(completions) > 0, sorted({c.type_label for c in completions}))
    conn.close()


if __name__ == "__main__":
    main()
