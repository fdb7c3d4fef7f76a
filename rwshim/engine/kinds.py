"""Relation kinds and the words RisingWave uses for them: which kinds share a namespace, the
meta call that creates each, the proto and statement names its errors print, and the hint a
DROP of the wrong kind gives."""

from __future__ import annotations

from rwshim.errors import DDL

# Tables, materialized views and indexes share one namespace in RisingWave's frontend.
TABLE_NAMESPACE = ("table", "materialized view", "index")

# Relation kinds that are streaming jobs (a source only when shared).
STREAMING_KINDS = ("table", "materialized view", "index", "sink")

CREATE_CALL = {
    "materialized view": DDL + "CreateMaterializedView",
    "table": DDL + "CreateTable",
    "index": DDL + "CreateIndex",
    "sink": DDL + "CreateSink",
    "source": DDL + "CreateSource",
}

# proto names of table types (proto/catalog.proto:405-412) and statement types.
PROTO_KIND = {"table": "TABLE", "materialized view": "MATERIALIZED_VIEW", "index": "INDEX"}
STMT_KIND = {
    "table": "ALTER_TABLE",
    "materialized view": "ALTER_MATERIALIZED_VIEW",
    "index": "ALTER_INDEX",
    "sink": "ALTER_SINK",
    "source": "ALTER_SOURCE",
}
DROP_HINT = {
    "table": "Use `DROP TABLE` to drop a table.",
    "materialized view": "Use `DROP MATERIALIZED VIEW` to drop a materialized view.",
    "index": "Use `DROP INDEX` to drop an index.",
    "sink": "Use `DROP SINK` to drop a sink.",
    "source": "Use `DROP SOURCE` to drop a source.",
    "view": "Use `DROP VIEW` to drop a view.",
}
