"""ALTER {SOURCE | TABLE | SINK} ... CONNECTOR WITH (...): the connector options a running
source, table with connector or sink may change, merged into its catalog row (options, secret
references, whose dependencies follow) and into its definition as meta rewrites it.

RisingWave: ``src/frontend/src/handler/alter_source_props.rs`` (handle_alter_source_connector_
props, handle_alter_table_connector_props, ensure_alter_props_not_set_by_connection),
``alter_table_props.rs``, ``alter_sink_props.rs``; meta ``controller/streaming_job.rs``
(update_source_props_by_source_id 2731-2900, update_sink_props_by_sink_id 2995-3050,
validate_sink_props and update_stmt_with_props 3811-3860) and
``src/connector/src/allow_alter_on_fly_fields.rs`` (the fields each connector may change).
Meta validates the new options against the external system (validate_source_once); rwshim
reaches none, as at CREATE.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rwshim.engine.catalog import Catalog, Rel
from rwshim.engine.kinds import TABLE_NAMESPACE
from rwshim.engine.secrets import Secrets
from rwshim.engine.state import Meta
from rwshim.engine.types import Context, ObjectName, Result
from rwshim.errors import (
    CatalogNotFound,
    InvalidInputSyntax,
    MetaInvalidParameter,
    MetaRpcError,
    RwError,
)
from rwshim.lazy import lazy_module
from rwshim.sql.unparse import parse_create
from rwshim.sql.unparse.cursor import UnparseError

if TYPE_CHECKING:
    from rwshim.sql.unparse import ddl_display
    from rwshim.sql.unparse import display as d
    from rwshim.sql.unparse import nodes as n
else:
    ddl_display = lazy_module("rwshim.sql.unparse.ddl_display")
    d = lazy_module("rwshim.sql.unparse.display")
    n = lazy_module("rwshim.sql.unparse.nodes")

CALL = "/meta.StreamManagerService/AlterConnectorProps"

_KAFKA_COMMON = (
    "sync.call.timeout", "security.protocol", "ssl.endpoint.identification.algorithm",
    "ssl.ca.location", "ssl.ca.pem", "ssl.certificate.location", "ssl.certificate.pem",
    "ssl.key.location", "ssl.key.pem", "ssl.key.password", "sasl.mechanism", "sasl.username",
    "sasl.password", "message.max.bytes", "receive.message.max.bytes",
    "statistics.interval.ms", "client.id", "enable.ssl.certificate.verification",
    "reconnect.backoff.ms", "reconnect.backoff.max.ms", "socket.connection.setup.timeout.ms",
    "retry.backoff.ms", "retry.backoff.max.ms",
)  # fmt: skip
_CDC = (
    "cdc.source.wait.streaming.start.timeout", "debezium.max.queue.size",
    "debezium.queue.memory.ratio",
)  # fmt: skip

_KAFKA_SOURCE = (
    "queued.min.messages", "queued.max.messages.kbytes", "fetch.wait.max.ms",
    "fetch.queue.backoff.ms", "fetch.max.bytes", "enable.auto.commit", "auto.commit.interval.ms",
)  # fmt: skip

# SOURCE_ALLOW_ALTER_ON_FLY_FIELDS, by connector name (allow_alter_on_fly_fields.rs:100-200)
SOURCE_FIELDS: dict[str, frozenset[str]] = {
    "mysql-cdc": frozenset((*_CDC, "hostname", "port", "password")),
    "postgres-cdc": frozenset(
        (*_CDC, "debezium.heartbeat.interval.ms", "hostname", "port", "password")
    ),
    "sqlserver-cdc": frozenset((*_CDC, "hostname", "port", "password")),
    "mongodb-cdc": frozenset(_CDC),
    "kafka": frozenset(
        (
            "group.id.prefix",
            *(f"properties.{f}" for f in _KAFKA_COMMON),
            *(f"properties.{f}" for f in _KAFKA_SOURCE),
        )
    ),
    "google_pubsub": frozenset(("pubsub.ack_deadline_seconds",)),
    "pulsar": frozenset(("pulsar.operation.retry.max.retries", "pulsar.operation.retry.delay")),
}
# for_all_sources: the source connectors RisingWave knows (source_name_to_prop_type_name)
SOURCE_CONNECTORS = frozenset(
    (
        "mysql-cdc", "postgres-cdc", "citus-cdc", "mongodb-cdc", "sqlserver-cdc", "kafka",
        "pulsar", "kinesis", "google_pubsub", "nexmark", "datagen", "s3", "s3_v2", "gcs",
        "azblob", "posix_fs", "__for_testing_only_batch_posix_fs", "iceberg", "mqtt", "nats",
        "test", "adbc_snowflake",
    )
)  # fmt: skip
_CHECKPOINT = frozenset(("commit_checkpoint_interval",))
_SEARCH = frozenset(("batch_num_messages", "batch_size_kb", "concurrent_requests"))
# SINK_ALLOW_ALTER_ON_FLY_FIELDS, by sink name (allow_alter_on_fly_fields.rs:200-400; the JDBC
# sink reuses its connection entry, 472-480)
SINK_FIELDS: dict[str, frozenset[str]] = {
    "clickhouse": _CHECKPOINT,
    "deltalake": _CHECKPOINT,
    "doris": frozenset(("doris.stream_load.http.timeout.ms",)),
    "elasticsearch": _SEARCH,
    "opensearch": _SEARCH,
    "iceberg": frozenset(
        (
            "commit_checkpoint_interval",
            "enable_compaction",
            "compaction_interval_sec",
            "enable_snapshot_expiration",
            "snapshot_expiration_max_age_millis",
            "snapshot_expiration_retain_last",
            "snapshot_expiration_clear_expired_files",
            "snapshot_expiration_clear_expired_meta_data",
            "enable_manifest_rewrite",
            "manifest_rewrite_target_size_bytes",
            "manifest_rewrite_min_count_to_merge",
            "compaction.max_snapshots_num",
            "compaction.small_files_threshold_mb",
            "compaction.delete_files_count_threshold",
            "compaction.trigger_snapshot_count",
            "compaction.target_file_size_mb",
            "compaction.type",
            "compaction.write_parquet_compression",
            "compaction.write_parquet_max_row_group_rows",
            "compaction.write_parquet_max_row_group_bytes",
        )
    ),
    "kafka": frozenset(
        f"properties.{f}"
        for f in (
            *_KAFKA_COMMON,
            "allow.auto.create.topics",
            "queue.buffering.max.messages",
            "queue.buffering.max.kbytes",
            "queue.buffering.max.ms",
            "enable.idempotence",
            "message.send.max.retries",
            "batch.num.messages",
            "batch.size",
            "message.timeout.ms",
            "max.in.flight.requests.per.connection",
            "request.required.acks",
        )
    ),
    "pulsar": frozenset(
        (
            "properties.routing.mode",
            "properties.routing_mode",
            "routing_mode",
            "pulsar.routing_mode",
            "pulsar.routing.mode",
            "pulsar.properties.routing.mode",
            "pulsar.properties.routing_mode",
        )
    ),
    "snowflake_v2": _CHECKPOINT,
    "starrocks": frozenset(
        (
            "starrocks.stream_load.http.timeout.ms",
            "commit_checkpoint_interval",
            "starrocks.max_batch_size_bytes",
        )
    ),
    "turbopuffer": frozenset(("write_batch_size", "max_linger_second")),
    "jdbc": frozenset(("jdbc.url", "user", "password")),
}
# for_all_sinks: the sink names RisingWave knows (sink_name_to_config_type_name)
SINK_CONNECTORS = frozenset(
    (
        "blackhole", "bigquery", "cassandra", "clickhouse", "deltalake", "doris", "dynamodb",
        "elasticsearch", "opensearch", "azblob", "fs", "gcs", "s3", "snowflake", "webhdfs",
        "google_pubsub", "http", "iceberg", "kafka", "kinesis", "mongodb", "mqtt", "nats",
        "postgres", "pulsar", "redis", "redshift", "scylladb", "snowflake_v2", "sqlserver",
        "starrocks", "turbopuffer", "jdbc", "lance",
    )
)  # fmt: skip
# the CDC options the frontend reads as numbers first (alter_source_props.rs:113-150)
_U32 = ("cdc.source.wait.streaming.start.timeout", "debezium.max.queue.size")


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _option(key: str, value_text: str) -> n.SqlOption:
    """``SqlOption::try_from((name, value))`` (sqlparser ast/mod.rs:3314-3336): the name's
    parts from their real values, the value always a string literal."""
    return n.SqlOption(n.ObjectName([d.from_real_value(p) for p in key.split(".")]), value_text)


class AlterProps:
    """CONNECTOR WITH of sources, tables with connector and sinks."""

    def __init__(self, meta: Meta, catalog: Catalog, secrets: Secrets) -> None:
        self.meta = meta
        self.store = meta.store
        self.conn = meta.conn
        self.catalog = catalog
        self.secrets = secrets

    def alter(
        self, ctx: Context, kind: str, name: ObjectName, options: Sequence[tuple[str, str]]
    ) -> Result:
        """``kind``: 'source', 'table' or 'sink'."""
        if kind == "table":
            rel = self.catalog.lookup(ctx, name, TABLE_NAMESPACE)
            if rel is None or rel.status not in (None, "CREATED"):
                raise CatalogNotFound("table", name.name)
            if rel.kind != "table":
                shown = name.name if name.schema is None else f"{name.schema}.{name.name}"
                raise InvalidInputSyntax(f'"{shown}" is not a table or cannot be altered')
            # fetch_table_catalog_for_alter checks the privilege first
            self.catalog.check_drop_alter(ctx, rel)
            if rel.connector is None:
                raise InvalidInputSyntax(
                    "Only table with connector can use ALTER TABLE CONNECTOR syntax."
                )
        elif kind == "source":
            found = self.catalog.lookup(ctx, name, ("source",))
            if found is None:
                table = self.catalog.lookup(ctx, name, ("table",))
                if table is not None and table.connector is not None:
                    raise InvalidInputSyntax("Use `ALTER TABLE` to alter a table with connector.")
                raise CatalogNotFound("source", name.name)
            rel = found
            self.catalog.check_drop_alter(ctx, rel)
        else:
            found = self.catalog.lookup(ctx, name, ("sink",))
            if found is None:
                raise CatalogNotFound("sink", name.name)
            rel = found
            if rel.target_table_id is not None:
                raise InvalidInputSyntax("ALTER SINK CONNECTOR is not for SINK INTO TABLE")
            self.catalog.check_drop_alter(ctx, rel)
        self._not_set_by_connection(rel, options)
        if any(k.lower() == "connection" for k, _ in options):
            what = "SINK" if kind == "sink" else "SOURCE CONNECTOR"
            raise InvalidInputSyntax(f"ALTER {what} does not support CONNECTION")
        plain, refs = self.secrets.resolve_secret_refs(ctx, options)
        if kind == "sink":
            return self._alter_sink(rel, dict(plain))
        return self._alter_source(rel, dict(plain), refs)

    def _not_set_by_connection(self, rel: Rel, options: Sequence[tuple[str, str]]) -> None:
        """ensure_alter_props_not_set_by_connection (alter_source_props.rs:200-226)."""
        row = self.meta.q1(
            "SELECT c.properties, c.secret_refs FROM relation r JOIN connection c"
            " ON c.connection_id = r.connection_id WHERE r.relation_id = ?",
            (rel.id,),
        )
        if row is None:
            return
        taken = set(json.loads(row[0] or "{}")) | set(json.loads(row[1] or "{}"))
        if any(k in taken for k, _ in options):
            raise InvalidInputSyntax(
                "Cannot alter connector properties that are set by CONNECTION.."
            )

    def _row(self, rel: Rel) -> tuple[dict[str, str], dict[str, dict[str, object]]]:
        row = self.meta.q1(
            "SELECT with_options, secret_refs FROM relation WHERE relation_id = ?", (rel.id,)
        )
        assert row is not None
        return json.loads(row[0] or "{}"), json.loads(row[1] or "{}")

    def _alter_source(
        self, rel: Rel, plain: dict[str, str], refs: dict[str, tuple[int, str]]
    ) -> Result:
        """handle_alter_source_props_inner, then meta's update_source_props_by_source_id."""
        for key in _U32:
            value = plain.get(key)
            if value is not None and not (value.isdigit() and int(value) < 2**32):
                raise RwError(f"Invalid value `{value}` for `{key}`")  # error.rs:171
        beat = plain.get("debezium.heartbeat.interval.ms")
        if beat is not None:
            try:
                ok = int(beat) != 0 and -(2**63) <= int(beat) < 2**63
            except ValueError:
                ok = False
            if not ok:
                raise RwError(f"Invalid value `{beat}` for `debezium.heartbeat.interval.ms`")
        options, secret_refs = self._row(rel)
        connector = options.get("connector", rel.connector or "")
        new_connector = plain.get("connector")
        if new_connector is not None and new_connector != connector:
            raise MetaInvalidParameter(
                f"Cannot change connector type from '{connector}' to '{new_connector}'. Drop "
                "and recreate the source instead."
            )
        if connector not in SOURCE_CONNECTORS:
            raise MetaRpcError(CALL, f"Unknown source connector: {connector}")
        allowed = SOURCE_FIELDS.get(connector)
        if allowed is None:
            raise MetaRpcError(
                CALL, f"No allow_alter_on_fly fields registered for connector: {connector}"
            )
        for key in [*plain, *refs]:
            if key not in allowed:
                raise MetaRpcError(
                    CALL,
                    f"Field '{key}' is not allowed to be altered on the fly for connector: "
                    f"{connector}",
                )
        # WithOptionsSecResolved::handle_update: a key is plain or a secret, never both
        for k, v in plain.items():
            options[k] = v
            secret_refs.pop(k, None)
        for k, (sid, ref_as) in refs.items():
            secret_refs[k] = {"secret_id": sid, "ref_as": ref_as}
            options.pop(k, None)
        # the definition's WITH is rebuilt from the options, plain ones then secrets, each in
        # key order; meta quotes each value and SqlOption::try_from quotes it again
        # (streaming_job.rs:2830-2846), so a plain value shows as '''v''' and a secret as
        # 'SECRET name'
        new_opts = [_option(k, _quoted(_quoted(v))) for k, v in sorted(options.items())]
        for k, ref in sorted(secret_refs.items()):
            secret = self.meta.val(
                "SELECT name FROM secret WHERE secret_id = ?", (int(str(ref["secret_id"])),)
            )
            if secret is None:
                raise MetaRpcError(CALL, f"secret not found: {ref['secret_id']}")
            new_opts.append(_option(k, _quoted(f"SECRET {secret}")))
        definition = self._rewritten(rel, new_opts, replace=True)
        with self.store.transaction():
            self.conn.execute(
                "UPDATE relation SET with_options = ?, secret_refs = ?, definition = ?"
                " WHERE relation_id = ?",
                (json.dumps(options, sort_keys=True), json.dumps(secret_refs, sort_keys=True),
                 definition, rel.id),
            )  # fmt: skip
        return Result()

    def _alter_sink(self, rel: Rel, plain: dict[str, str]) -> Result:
        """meta's update_sink_props_by_sink_id: validate_sink_props, then the options merged
        (the secret references of the statement are not passed on, alter_sink_props.rs)."""
        options, _ = self._row(rel)
        connector = options.get("connector")
        if connector is None:
            raise MetaRpcError(
                CALL, "Sink error: config error: connector not specified when alter sink"
            )
        connector = connector.lower()
        allowed = SINK_FIELDS.get(connector)
        if allowed is None:
            text = (
                f"No allow_alter_on_fly fields registered for sink: {connector}"
                if connector in SINK_CONNECTORS
                else f"Unknown sink connector: {connector}"
            )
            raise MetaRpcError(CALL, f"Sink error: config error: {text}")
        for key in sorted(plain):
            if key not in allowed:
                raise MetaRpcError(
                    CALL,
                    "Sink error: config error: "
                    f"Field '{key}' is not allowed to be altered on the fly for sink: {connector}",
                )
        options.update(plain)
        new_opts = [_option(k, _quoted(v)) for k, v in sorted(plain.items())]
        definition = self._rewritten(rel, new_opts, replace=False)
        with self.store.transaction():
            self.conn.execute(
                "UPDATE relation SET with_options = ?, definition = ? WHERE relation_id = ?",
                (json.dumps(options, sort_keys=True), definition, rel.id),
            )
        return Result()

    def _rewritten(self, rel: Rel, new_opts: list[n.SqlOption], *, replace: bool) -> str:
        """The definition with its WITH clause replaced (sources, tables) or updated in place
        with the new options appended (update_stmt_with_props, sinks)."""
        try:
            node = parse_create(rel.definition)
        except UnparseError as e:
            raise MetaRpcError(CALL, f"Failed to parse source definition SQL: {e}") from None
        assert isinstance(node, (n.CreateSource, n.CreateTable, n.CreateSink))
        if replace:
            node.with_options = new_opts
        else:
            merged = {d.object_name(o.name): o for o in node.with_options}
            for o in new_opts:
                merged[d.object_name(o.name)] = o
            node.with_options = list(merged.values())
        return ddl_display.statement(node)
