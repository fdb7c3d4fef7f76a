"""Secrets and connections: CREATE / ALTER / DROP SECRET and CONNECTION, and the references a
WITH clause makes to them (``key = SECRET name [AS FILE]``, ``connection = name``).

Both are schema objects in the object id space with their own namespace per schema (a secret
may share a name with a table).  A secret's value is kept in the meta store and never read
back by anything but this module; catalogs show its name only.  A relation that references a
secret or a connection records the reference (relation.secret_refs / format_secret_refs /
connection_id), which the store's ``object_dependency`` view turns into dependencies: DROP
refuses while something uses the object, CASCADE takes the users along (``Ddl`` removes them).

RisingWave: frontend ``handler/create_secret.rs``, ``alter_secret.rs``, ``drop_secret.rs``,
``create_connection.rs``, ``drop_connection.rs``, ``alter_owner.rs`` / ``alter_set_schema.rs``
(their SECRET and CONNECTION arms), ``utils/with_options.rs``
(resolve_connection_ref_and_secret_ref), ``session.rs`` (get_secret_by_name,
get_connection_by_name: USAGE), ``catalog/root_catalog.rs`` (the duplicate checks); meta
``controller/catalog/create_op.rs`` (create_secret, create_connection).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from msgspec import Struct, field

from rwshim.common.names import resolve_schema_qualified_name
from rwshim.engine.catalog import Catalog
from rwshim.engine.privileges import ObjectKind
from rwshim.engine.state import Meta
from rwshim.engine.types import Context, ObjectName, Result
from rwshim.engine.users import Users
from rwshim.errors import (
    CatalogDuplicated,
    CatalogNotFound,
    InvalidInputSyntax,
    InvalidParameterValue,
    MetaRpcError,
    PermissionDenied,
    ProtocolError,
    RwError,
)
from rwshim.lazy import lazy_module

if TYPE_CHECKING:
    import json
else:
    json = lazy_module("json")  # on first use: start-up and SELECT 1 read and write no JSON

# create_secret.rs:27-30
SECRET_BACKEND_META = "meta"
SECRET_BACKEND_VAULT = "hashicorp_vault"
_BACKENDS = ",".join((SECRET_BACKEND_META, SECRET_BACKEND_VAULT))

# create_connection.rs:70-86: the `type` of a connection -> ConnectionType's proto name.
CONNECTION_TYPES = {
    "kafka": "CONNECTION_TYPE_KAFKA",
    "iceberg": "CONNECTION_TYPE_ICEBERG",
    "schema_registry": "CONNECTION_TYPE_SCHEMA_REGISTRY",
    "elasticsearch": "CONNECTION_TYPE_ELASTICSEARCH",
}
# The fields ALTER CONNECTION ... CONNECTOR WITH may change, by connection type
# (src/connector/src/allow_alter_on_fly_fields.rs:367-398: KafkaConnection's; no other
# connection type registers any).
_ALTER_ON_THE_FLY: dict[str, frozenset[str]] = {
    "kafka": frozenset(
        f"properties.{f}"
        for f in (
            "security.protocol", "ssl.endpoint.identification.algorithm", "ssl.ca.location",
            "ssl.ca.pem", "ssl.certificate.location", "ssl.certificate.pem",
            "ssl.key.location", "ssl.key.pem", "ssl.key.password", "sasl.mechanism",
            "sasl.username", "sasl.password",
        )
    ),
}  # fmt: skip
# ConnectionType's Debug names (util.rs ensure_connection_type_allowed prints them).
_DEBUG_TYPE = {
    "CONNECTION_TYPE_UNSPECIFIED": "Unspecified",
    "CONNECTION_TYPE_KAFKA": "Kafka",
    "CONNECTION_TYPE_ICEBERG": "Iceberg",
    "CONNECTION_TYPE_SCHEMA_REGISTRY": "SchemaRegistry",
    "CONNECTION_TYPE_ELASTICSEARCH": "Elasticsearch",
}
# The connector a connection type serves (util.rs connection_type_to_connector).
_TYPE_CONNECTOR = {
    "CONNECTION_TYPE_KAFKA": "kafka",
    "CONNECTION_TYPE_ICEBERG": "iceberg",
    "CONNECTION_TYPE_ELASTICSEARCH": "elasticsearch",
}
# Connection types each statement accepts (create_source.rs SOURCE_ALLOWED_CONNECTION_CONNECTOR,
# create_sink.rs SINK_ALLOWED_CONNECTION_CONNECTOR, create_table.rs for tables with a connector),
# printed in this order where RisingWave prints a HashSet.
ALLOWED_CONNECTION_TYPES = {
    "source": ("CONNECTION_TYPE_KAFKA", "CONNECTION_TYPE_ICEBERG", "CONNECTION_TYPE_UNSPECIFIED"),
    "table": ("CONNECTION_TYPE_KAFKA", "CONNECTION_TYPE_ICEBERG", "CONNECTION_TYPE_UNSPECIFIED"),
    "sink": (
        "CONNECTION_TYPE_KAFKA",
        "CONNECTION_TYPE_ICEBERG",
        "CONNECTION_TYPE_ELASTICSEARCH",
        "CONNECTION_TYPE_UNSPECIFIED",
    ),
}


class Named(Struct, frozen=True):
    """A secret or a connection as the handlers find it."""

    id: int
    name: str
    schema_id: int
    schema: str
    owner_id: int


class Refs(Struct):
    """A WITH clause with its references resolved (WithOptionsSecResolved): plain options
    (a connection's properties merged in), secret references by key, the connection."""

    options: list[tuple[str, str]] = field(default_factory=list)
    secret_refs: dict[str, tuple[int, str]] = field(default_factory=dict)
    connection_id: int | None = None
    connection_type: str = "CONNECTION_TYPE_UNSPECIFIED"

    def columns(self) -> dict[str, object]:
        """The relation columns that record the references."""
        return {
            "secret_refs": _refs_json(self.secret_refs),
            "connection_id": self.connection_id,
        }


def _refs_json(refs: dict[str, tuple[int, str]]) -> str:
    return json.dumps(
        {k: {"secret_id": sid, "ref_as": ref_as} for k, (sid, ref_as) in sorted(refs.items())}
    )


def _kind(value: str) -> str:
    return str(getattr(value, "kind", "string"))


def _ref_parts(value: str) -> tuple[tuple[str, ...], str]:
    """(name parts, 'TEXT' | 'FILE') of a `SECRET name [AS FILE]` option value."""
    parts = getattr(value, "parts", None)
    as_file = bool(getattr(value, "as_file", False))
    if parts is None:
        text = str(value)
        as_file = text.upper().endswith(" AS FILE")
        parts = tuple(text[: -len(" AS FILE")].split(".") if as_file else text.split("."))
    return tuple(parts), "FILE" if as_file else "TEXT"


class Secrets:
    """The secret and connection catalog."""

    def __init__(self, meta: Meta, users: Users, catalog: Catalog) -> None:
        self.meta = meta
        self.store = meta.store
        self.conn = meta.conn
        self.users = users
        self.catalog = catalog
        # GRANT / REVOKE ... ON SECRET | CONNECTION find their objects here
        for kind in ("secret", "connection"):
            catalog.privileges.register_kind(kind, self._grant_kind(kind))

    def _grant_kind(self, kind: str) -> ObjectKind:
        def owner_of(oid: int) -> int | None:
            v = self.meta.val(f"SELECT owner_id FROM {kind} WHERE {kind}_id = ?", (oid,))
            return None if v is None else int(v)

        def resolve(ctx: Context, name: ObjectName, args: str | None) -> int:
            found = self._find(ctx, kind, name)
            if found is None:
                raise CatalogNotFound(kind, name.name)
            return found.id

        def in_schema(schema_id: int) -> list[int]:
            rows = self.conn.execute(
                f"SELECT {kind}_id FROM {kind} WHERE schema_id = ? ORDER BY {kind}_id",
                (schema_id,),
            )
            return [int(r[0]) for r in rows]

        return ObjectKind(owner_of, resolve, in_schema)

    # ------------------------------------------------------------------ look-ups

    def _find(self, ctx: Context, table: str, name: ObjectName) -> Named | None:
        """get_secret_by_name / get_connection_by_name (root_catalog.rs): the named schema
        (missing: ``schema not found``), else the first schema of the search path that has it."""
        if name.schema is not None:
            sid = self.catalog.schema_id(ctx.database_id, name.schema)
            if sid is None:
                raise CatalogNotFound("schema", name.schema)
            paths = [(sid, name.schema)]
        else:
            paths = []
            for s in self.catalog.search_path(ctx):
                sid = self.catalog.schema_id(ctx.database_id, s)
                if sid is not None:
                    paths.append((sid, s))
        for sid, schema in paths:
            row = self.meta.q1(
                f"SELECT {table}_id, name, schema_id, owner_id FROM {table} "
                "WHERE schema_id = ? AND name = ?",
                (sid, name.name),
            )
            if row is not None:
                return Named(int(row[0]), str(row[1]), int(row[2]), schema, int(row[3]))
        return None

    def find_secret(self, ctx: Context, name: ObjectName) -> Named | None:
        return self._find(ctx, "secret", name)

    def find_connection(self, ctx: Context, name: ObjectName) -> Named | None:
        return self._find(ctx, "connection", name)

    def _usage(self, ctx: Context, obj: Named, kind: str) -> None:
        """session.rs check_privileges with AclMode::Usage (privilege.rs:68-90)."""
        if self.users.is_super(ctx) or obj.owner_id == ctx.user_id:
            return
        granted = self.meta.q1(
            "SELECT 1 FROM user_privilege WHERE user_id = ? AND oid = ? AND action = 'USAGE'",
            (ctx.user_id, obj.id),
        )
        if granted is None:
            raise PermissionDenied(f'permission denied for {kind} "{obj.name}": "USAGE"')

    def _database_name(self, ctx: Context) -> str:
        return str(
            self.meta.val("SELECT name FROM database WHERE database_id = ?", (ctx.database_id,))
        )

    def _object_name(self, ctx: Context, parts: Sequence[str]) -> ObjectName:
        schema, real = resolve_schema_qualified_name(self._database_name(ctx), parts)
        return ObjectName(real, schema)

    # ------------------------------------------------------------------ WITH references

    def resolve_secret_refs(
        self, ctx: Context, options: Sequence[tuple[str, str]]
    ) -> tuple[list[tuple[str, str]], dict[str, tuple[int, str]]]:
        """resolve_secret_ref_in_with_options (with_options.rs:414-440): plain options, and
        each `SECRET name` looked up (``secret not found``) with USAGE checked."""
        plain: list[tuple[str, str]] = []
        refs: dict[str, tuple[int, str]] = {}
        for key, value in options:
            if _kind(value) != "secret":
                plain.append((key, value))
                continue
            parts, ref_as = _ref_parts(value)
            name = self._object_name(ctx, parts)
            secret = self.find_secret(ctx, name)
            if secret is None:
                raise CatalogNotFound("secret", name.name)
            self._usage(ctx, secret, "secret")
            refs[key] = (secret.id, ref_as)
        return plain, refs

    def resolve(self, ctx: Context, options: Sequence[tuple[str, str]], statement: str) -> Refs:
        """resolve_connection_ref_and_secret_ref (with_options.rs:272-398) for a CREATE SOURCE,
        SINK or TABLE (``statement``: 'source' | 'sink' | 'table'), then the connection type
        and connector checks the handlers make (util.rs:297-329)."""
        conn_values = [v for k, v in options if k.lower() == "connection"]
        rest = [(k, v) for k, v in options if k.lower() != "connection"]
        plain, secret_refs = self.resolve_secret_refs(ctx, rest)
        out = Refs(plain, secret_refs)
        if conn_values:
            value = conn_values[-1]
            parts = getattr(value, "parts", None) or tuple(str(value).split("."))
            name = self._object_name(ctx, parts)
            connection = self.find_connection(ctx, name)
            if connection is None:
                raise CatalogNotFound("connection", name.name)
            self._usage(ctx, connection, "connection")
            ctype, props_json, refs_json = self.meta.q1(
                "SELECT connection_type, properties, secret_refs FROM connection "
                "WHERE connection_id = ?",
                (connection.id,),
            ) or ("", "{}", "{}")
            keys = {k for k, _ in out.options}
            for k, v in sorted(json.loads(props_json).items()):
                if k in keys:
                    raise InvalidParameterValue(
                        f"Duplicated key in both WITH clause and Connection catalog: {k}"
                    )
                out.options.append((k, v))
            for k, ref in sorted(json.loads(refs_json).items()):
                if k in out.secret_refs:
                    raise InvalidParameterValue(
                        f"Duplicated key in both WITH clause and Connection catalog: {k}"
                    )
                out.secret_refs[k] = (int(ref["secret_id"]), str(ref["ref_as"]))
            if ctype == "CONNECTION_TYPE_SCHEMA_REGISTRY" and any(
                k.startswith("aws") for k in [*(k for k, _ in out.options), *out.secret_refs]
            ):
                raise InvalidParameterValue(
                    "Glue related options/secrets are not allowed when using schema registry "
                    "connection"
                )
            out.connection_id = connection.id
            out.connection_type = str(ctype)
        allowed = ALLOWED_CONNECTION_TYPES.get(statement)
        if allowed is not None and out.connection_type not in allowed:
            types = ", ".join(_DEBUG_TYPE[t] for t in allowed)
            raise ProtocolError(
                f"connection type {_DEBUG_TYPE[out.connection_type]} is not allowed, "
                f"allowed types: {{{types}}}"
            )
        if out.connection_id is not None:
            connector = dict(out.options).get("connector")
            if connector is None:
                raise ProtocolError("missing field 'connector' in WITH clause")
            if connector != _TYPE_CONNECTOR.get(out.connection_type):
                raise ProtocolError(
                    f"connector {connector} and connection type "
                    f"{_DEBUG_TYPE[out.connection_type]} are not compatible"
                )
        return out

    # ------------------------------------------------------------------ secrets

    def create_secret(
        self,
        ctx: Context,
        name: ObjectName,
        options: Sequence[tuple[str, str]],
        credential: str | None,
        *,
        if_not_exists: bool = False,
    ) -> Result:
        """CREATE SECRET (create_secret.rs:32-79): the duplicate check first, then no secret
        references in its own options, then the backend's payload."""
        schema_id, _ = self.catalog.creation_schema(ctx, name)
        if self.meta.q1(
            "SELECT 1 FROM secret WHERE schema_id = ? AND name = ?", (schema_id, name.name)
        ):
            if if_not_exists:
                return Result([f'secret "{name.name}" exists, skipping'])
            raise CatalogDuplicated(f"secret named {name.name} already exists")
        if any(_kind(v) == "secret" for _, v in options):
            raise InvalidParameterValue("Secret references are not allowed when creating a secret")
        backend, value, vault = self._payload(options, credential)
        with self.store.transaction():
            sid = self.store.next_id("object")
            self.conn.execute(
                "INSERT INTO secret(secret_id, name, schema_id, database_id, owner_id, backend,"
                " value, vault, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (sid, name.name, schema_id, ctx.database_id, ctx.user_id, backend, value, vault,
                 self.meta.now()),
            )  # fmt: skip
        return Result()

    @staticmethod
    def _payload(
        options: Sequence[tuple[str, str]], credential: str | None
    ) -> tuple[str, bytes | None, str | None]:
        """get_secret_payload (create_secret.rs:92-160): (backend, value, vault config)."""
        opts = dict(options)
        backend = opts.get("backend")
        if backend is None:
            raise InvalidParameterValue(
                "secret backend is not specified in with clause. Supported backends are: "
                + _BACKENDS
            )
        low = backend.lower()
        if low == SECRET_BACKEND_META:
            return SECRET_BACKEND_META, _secret_text(credential).encode(), None
        if low == SECRET_BACKEND_VAULT:
            if credential is not None:
                raise InvalidParameterValue("credential must be null for hashicorp_vault backend")
            # RisingWave reads the Vault configuration and fetches the secret from Vault before
            # it stores anything (create_secret.rs:111-141); rwshim reaches no external service.
            raise RwError(
                "rwshim cannot reach HashiCorp Vault: a hashicorp_vault secret is validated "
                "against Vault when it is created; use backend = 'meta'"
            )
        raise InvalidParameterValue(
            f'secret backend "{backend}" is not supported. Supported backends are: {_BACKENDS}'
        )

    def _secret_for_alter(
        self, ctx: Context, name: ObjectName, if_exists: bool = False
    ) -> Named | None:
        """fetch_secret_catalog_with_db_schema_id (drop_secret.rs:63-95)."""
        secret = self.find_secret(ctx, name)
        if secret is None:
            if if_exists:
                return None
            raise CatalogNotFound("secret", name.name)
        self.catalog.check_drop_alter(ctx, secret)
        return secret

    def alter_secret(
        self,
        ctx: Context,
        name: ObjectName,
        options: Sequence[tuple[str, str]],
        credential: str | None,
    ) -> Result:
        """ALTER SECRET ... [WITH (...)] AS <value> (alter_secret.rs): without options the
        backend stays (a meta secret takes the new value); with options the payload is built
        anew."""
        secret = self._secret_for_alter(ctx, name, if_exists=True)
        if secret is None:
            return Result([f'secret "{name}" does not exist, skipping'])
        if not options:
            backend = self.meta.val("SELECT backend FROM secret WHERE secret_id = ?", (secret.id,))
            if backend == SECRET_BACKEND_VAULT:
                raise InvalidParameterValue(
                    "alter secret with hashicorp_vault backend is not supported"
                )
            payload: tuple[str, bytes | None, str | None] = (
                SECRET_BACKEND_META,
                _secret_text(credential).encode(),
                None,
            )
        else:
            payload = self._payload(options, credential)
        with self.store.transaction():
            self.conn.execute(
                "UPDATE secret SET backend = ?, value = ?, vault = ? WHERE secret_id = ?",
                (*payload, secret.id),
            )
        return Result()

    # ------------------------------------------------------------------ connections

    def create_connection(
        self,
        ctx: Context,
        name: ObjectName,
        options: Sequence[tuple[str, str]],
        *,
        if_not_exists: bool = False,
    ) -> Result:
        """CREATE CONNECTION (create_connection.rs:96-150): the duplicate check, no connection
        reference, secret references resolved, the required ``type``."""
        schema_id, _ = self.catalog.creation_schema(ctx, name)
        if self.meta.q1(
            "SELECT 1 FROM connection WHERE schema_id = ? AND name = ?", (schema_id, name.name)
        ):
            if if_not_exists:
                return Result([f'connection "{name.name}" exists, skipping'])
            raise CatalogDuplicated(f"connection named {name.name} already exists")
        if any(k.lower() == "connection" for k, _ in options):
            raise InvalidParameterValue(
                "Connection reference is not allowed in options in CREATE CONNECTION"
            )
        plain, refs = self.resolve_secret_refs(ctx, options)
        props = dict(plain)
        if "type" not in props:
            raise ProtocolError('Required property "type" is not provided')
        ctype = props.pop("type")
        if ctype == "privatelink":
            # ErrorCode::Deprecated (src/frontend/src/error.rs)
            raise RwError(
                "CREATE CONNECTION to Private Link has been deprecated, please use RisingWave "
                "Cloud Portal (Please refer to the doc "
                "https://docs.risingwave.com/cloud/create-a-connection/) instead."
            )
        if ctype not in CONNECTION_TYPES:
            raise ProtocolError(f'Connection type "{ctype}" is not supported')
        # Meta validates the connection (validate_connection: for Kafka it reaches the
        # brokers); rwshim reaches no external service, as for sources and sinks.
        with self.store.transaction():
            cid = self.store.next_id("object")
            self.conn.execute(
                "INSERT INTO connection(connection_id, name, schema_id, database_id, owner_id,"
                " connection_type, properties, secret_refs, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (cid, name.name, schema_id, ctx.database_id, ctx.user_id, CONNECTION_TYPES[ctype],
                 json.dumps(props, sort_keys=True), _refs_json(refs), self.meta.now()),
            )  # fmt: skip
        return Result()

    def alter_connection_props(
        self, ctx: Context, name: ObjectName, options: Sequence[tuple[str, str]]
    ) -> Result:
        """ALTER CONNECTION ... CONNECTOR WITH (alter_connection_props.rs; meta
        update_connection_and_dependent_objects_props, streaming_job.rs:3182-3330): only the
        fields the connection type may change on the fly (allow_alter_on_fly_fields.rs:367-398),
        merged into the connection and into every source and sink that uses it."""
        connection = self.find_connection(ctx, name)
        if connection is None:
            raise CatalogNotFound("connection", name.name)
        self.catalog.check_drop_alter(ctx, connection)
        plain, refs = self.resolve_secret_refs(ctx, options)
        ctype, props_json, refs_json = self.meta.q1(
            "SELECT connection_type, properties, secret_refs FROM connection "
            "WHERE connection_id = ?",
            (connection.id,),
        ) or ("", "{}", "{}")
        type_name = {v: k for k, v in CONNECTION_TYPES.items()}.get(str(ctype), "")
        allowed = _ALTER_ON_THE_FLY.get(type_name)
        call = "/meta.StreamManagerService/AlterConnectorProps"
        if allowed is None:
            raise MetaRpcError(
                call, f"No allow_alter_on_fly fields registered for connection: {type_name}"
            )
        for key in [k for k, _ in plain] + list(refs):
            if key not in allowed:
                raise MetaRpcError(
                    call,
                    f"Field '{key}' is not allowed to be altered on the fly for connection: "
                    f"{type_name}",
                )
        props = json.loads(props_json)
        secret_refs = json.loads(refs_json)
        for k, v in plain:
            props[k] = v
            secret_refs.pop(k, None)
        for k, (sid, ref_as) in refs.items():
            secret_refs[k] = {"secret_id": sid, "ref_as": ref_as}
            props.pop(k, None)
        with self.store.transaction():
            self.conn.execute(
                "UPDATE connection SET properties = ?, secret_refs = ? WHERE connection_id = ?",
                (json.dumps(props, sort_keys=True), json.dumps(secret_refs, sort_keys=True),
                 connection.id),
            )  # fmt: skip
            for rid, opts_json, rel_refs_json in self.conn.execute(
                "SELECT relation_id, with_options, secret_refs FROM relation "
                "WHERE connection_id = ?",
                (connection.id,),
            ).fetchall():
                rel_opts, rel_refs = json.loads(opts_json), json.loads(rel_refs_json)
                for k, v in plain:
                    rel_opts[k] = v
                    rel_refs.pop(k, None)
                for k, (sid, ref_as) in refs.items():
                    rel_refs[k] = {"secret_id": sid, "ref_as": ref_as}
                    rel_opts.pop(k, None)
                self.conn.execute(
                    "UPDATE relation SET with_options = ?, secret_refs = ? WHERE relation_id = ?",
                    (json.dumps(rel_opts, sort_keys=True), json.dumps(rel_refs, sort_keys=True),
                     rid),
                )  # fmt: skip
        return Result()

    def connection_for_drop(
        self, ctx: Context, name: ObjectName, if_exists: bool
    ) -> Named | Result:
        """drop_connection.rs:30-63: the connection, or the IF EXISTS notice."""
        connection = self.find_connection(ctx, name)
        if connection is None:
            if if_exists:
                return Result([f'connection "{name.name}" does not exist, skipping'])
            raise CatalogNotFound("connection", name.name)
        self.catalog.check_drop_alter(ctx, connection)
        return connection

    def secret_for_drop(self, ctx: Context, name: ObjectName, if_exists: bool) -> Named | Result:
        """drop_secret.rs:27-56: the secret, or the IF EXISTS notice."""
        secret = self._secret_for_alter(ctx, name, if_exists)
        if secret is None:
            return Result([f'secret "{name}" does not exist, skipping'])
        return secret

    def dependents(self, object_id: int) -> tuple[list[int], list[int]]:
        """(relation ids, connection ids) that reference a secret or a connection."""
        rels = [
            int(r[0])
            for r in self.conn.execute(
                "SELECT DISTINCT d.dependent_id FROM object_dependency d "
                "JOIN relation r ON r.relation_id = d.dependent_id "
                "WHERE d.referenced_id = ? ORDER BY 1",
                (object_id,),
            )
        ]
        conns = [
            int(r[0])
            for r in self.conn.execute(
                "SELECT DISTINCT d.dependent_id FROM object_dependency d "
                "JOIN connection c ON c.connection_id = d.dependent_id "
                "WHERE d.referenced_id = ? ORDER BY 1",
                (object_id,),
            )
        ]
        return rels, conns

    def connection_names(self, ids: Sequence[int]) -> list[tuple[str, str]]:
        """(schema, name) of connections, for DROP's DETAIL lines."""
        out = []
        for cid in ids:
            row = self.meta.q1(
                "SELECT s.name, c.name FROM connection c JOIN schema s ON s.schema_id = "
                "c.schema_id WHERE c.connection_id = ?",
                (cid,),
            )
            if row is not None:
                out.append((str(row[0]), str(row[1])))
        return out

    def remove(self, secret_ids: Sequence[int], connection_ids: Sequence[int]) -> None:
        """Delete secrets and connections (inside the caller's transaction), their grants and
        comments with them."""
        for sid in secret_ids:
            self.conn.execute("DELETE FROM secret WHERE secret_id = ?", (sid,))
        for cid in connection_ids:
            self.conn.execute("DELETE FROM connection WHERE connection_id = ?", (cid,))
        self.catalog.privileges.forget_objects([*secret_ids, *connection_ids])
        for oid in [*secret_ids, *connection_ids]:
            self.conn.execute("DELETE FROM comment WHERE object_id = ?", (oid,))

    # ------------------------------------------------------------------ owner, schema

    def alter_owner(self, ctx: Context, kind: str, name: ObjectName, owner: str) -> Result:
        """ALTER SECRET | CONNECTION ... OWNER TO (alter_owner.rs:185-240)."""
        table = _table(kind)
        uid = self.users.user_id(owner)
        if uid is None:
            raise CatalogNotFound("user", owner)
        obj = self._find(ctx, table, name)
        if obj is None:
            raise CatalogNotFound(kind, name.name)
        self.catalog.check_drop_alter(ctx, obj)
        if obj.owner_id == uid:
            return Result()
        admin = self.meta.q1(
            "SELECT name FROM rw_user WHERE user_id = ? AND is_admin = 1", (obj.owner_id,)
        )
        if admin is not None:
            raise PermissionDenied(f"Cannot change owner of {name} owned by admin user {admin[0]}")
        with self.store.transaction():
            self.conn.execute(
                f"UPDATE {table} SET owner_id = ? WHERE {table}_id = ?", (uid, obj.id)
            )
        return Result()

    def set_schema(self, ctx: Context, name: ObjectName, schema: str) -> Result:
        """ALTER CONNECTION ... SET SCHEMA (alter_set_schema.rs:129-142)."""
        obj = self.find_connection(ctx, name)
        if obj is None:
            raise CatalogNotFound("connection", name.name)
        if obj.schema == schema:
            return Result()
        self.catalog.check_drop_alter(ctx, obj)
        sid = self.catalog.schema_id(ctx.database_id, schema)
        if sid is None:
            raise CatalogNotFound("schema", schema)
        if self.meta.q1(
            "SELECT 1 FROM connection WHERE schema_id = ? AND name = ?", (sid, obj.name)
        ):
            raise CatalogDuplicated(f"connection named {obj.name} already exists")
        with self.store.transaction():
            self.conn.execute(
                "UPDATE connection SET schema_id = ? WHERE connection_id = ?", (sid, obj.id)
            )
        return Result()


def _table(kind: str) -> str:
    if kind not in ("secret", "connection"):  # pragma: no cover - the frontend routes these
        raise ValueError(kind)
    return kind


def _secret_text(credential: str | None) -> str:
    """secret_to_str (create_secret.rs:81-90): only a quoted string is a secret value."""
    if credential is None or _kind(credential) not in ("string", "dstring"):
        raise InvalidInputSyntax("secret value should be quoted by ' or \" ")
    return str(credential)


__all__ = ["ALLOWED_CONNECTION_TYPES", "CONNECTION_TYPES", "Named", "Refs", "Secrets"]
