"""User-defined functions and aggregates: CREATE FUNCTION / AGGREGATE, DROP FUNCTION /
AGGREGATE (RESTRICT refuses while a relation calls the function, CASCADE takes the callers
along), ALTER FUNCTION ... OWNER TO / SET SCHEMA, and the look-ups GRANT ... ON FUNCTION
makes.

A function is a schema object in the object id space, named per schema apart from relations
and overloaded by its argument types.  Which relations call a function is read from their
definitions by the caller (the read path inlines SQL functions; ``callers`` is its answer),
so nothing records the dependency twice.

RisingWave: frontend ``handler/create_function.rs`` / ``create_sql_function.rs`` /
``create_aggregate.rs`` (the catalog write), ``handler/drop_function.rs``,
``handler/alter_owner.rs`` / ``alter_set_schema.rs`` (their FUNCTION arms),
``catalog/root_catalog.rs`` (get_function_by_name_args, get_functions_by_name,
check_function_name_duplicated), ``session.rs:1150-1186``; meta
``controller/catalog/create_op.rs`` (create_function), ``drop_op.rs`` and
``controller/utils.rs:813-990`` (check_object_refer_for_drop).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from rwshim.engine.barrier import Barrier
from rwshim.engine.catalog import Catalog
from rwshim.engine.privileges import ObjectKind
from rwshim.engine.state import Meta
from rwshim.engine.types import Context, ObjectName, Result
from rwshim.errors import CatalogDuplicated, CatalogNotFound, DropDependedOn, RwError


class FunctionCatalogError(RwError):
    """`Catalog error: <detail>` (ErrorCode::CatalogError with a message)."""

    def __init__(self, detail: str) -> None:
        super().__init__("Catalog error", detail)


@dataclass(frozen=True, slots=True)
class NewFunction:
    """A function as the handler bound it (PbFunction's fields)."""

    name: ObjectName
    kind: str  # SCALAR / TABLE / AGGREGATE
    arg_names: tuple[str, ...]
    arg_types: tuple[tuple[int, str], ...]  # (OID, RisingWave's name)
    return_type: tuple[int, str]
    language: str
    definition: str
    runtime: str | None = None
    name_in_runtime: str | None = None
    body: str | None = None
    link: str | None = None
    compressed_binary: bytes | None = None
    always_retry_on_network_error: bool = False
    is_async: bool | None = None
    is_batched: bool | None = None


@dataclass(frozen=True, slots=True)
class FunctionRow:
    id: int
    name: str
    schema_id: int
    schema: str
    owner_id: int
    kind: str
    arg_types: tuple[str, ...]
    language: str

    def signature(self, sep: str = ", ") -> str:
        return f"{self.name}({sep.join(self.arg_types)})"


class Functions:
    """The function catalog."""

    def __init__(self, meta: Meta, catalog: Catalog, barrier: Barrier) -> None:
        self.meta = meta
        self.store = meta.store
        self.conn = meta.conn
        self.catalog = catalog
        self.barrier = barrier
        catalog.privileges.register_kind("function", self._grant_kind())

    def _grant_kind(self) -> ObjectKind:
        def owner_of(oid: int) -> int | None:
            v = self.meta.val("SELECT owner_id FROM function WHERE function_id = ?", (oid,))
            return None if v is None else int(v)

        def resolve(ctx: Context, name: ObjectName, args: str | None) -> int:
            types = None if args is None else _split_types(args)
            return self.resolve(ctx, name, types).id

        def in_schema(schema_id: int) -> list[int]:
            rows = self.conn.execute(
                "SELECT function_id FROM function WHERE schema_id = ? ORDER BY function_id",
                (schema_id,),
            )
            return [int(r[0]) for r in rows]

        return ObjectKind(owner_of, resolve, in_schema)

    # ------------------------------------------------------------------ look-ups

    def _rows(self, schema_id: int, name: str) -> list[FunctionRow]:
        out = []
        schema = self.catalog.schema_name(schema_id)
        for fid, fname, owner, kind, types, lang in self.conn.execute(
            "SELECT function_id, name, owner_id, kind, arg_types, language FROM function "
            "WHERE schema_id = ? AND name = ? ORDER BY function_id",
            (schema_id, name),
        ):
            arg_types = tuple(str(t[1]) for t in json.loads(types))
            out.append(
                FunctionRow(int(fid), fname, schema_id, schema, int(owner), kind, arg_types, lang)
            )
        return out

    def _schemas(self, ctx: Context, schema: str | None) -> list[int]:
        if schema is not None:
            sid = self.catalog.schema_id(ctx.database_id, schema)
            if sid is None:
                raise CatalogNotFound("schema", schema)
            return [sid]
        out = []
        for s in self.catalog.search_path(ctx):
            sid = self.catalog.schema_id(ctx.database_id, s)
            if sid is not None:
                out.append(sid)
        return out

    def resolve(
        self, ctx: Context, name: ObjectName, arg_types: Sequence[str] | None
    ) -> FunctionRow:
        """get_function_by_name_args (with an argument list; root_catalog.rs:1021-1044) or
        get_functions_by_name, which must find exactly one (drop_function.rs:56-70)."""
        for sid in self._schemas(ctx, name.schema):
            rows = self._rows(sid, name.name)
            if arg_types is not None:
                rows = [r for r in rows if list(r.arg_types) == list(arg_types)]
            if not rows:
                continue
            if arg_types is None and len(rows) > 1:
                raise FunctionCatalogError(
                    f'function name "{name.name}" is not unique\nHINT: Specify the argument '
                    "list to select the function unambiguously."
                )
            return rows[0]
        shown = name.name if arg_types is None else f"{name.name}({', '.join(arg_types)})"
        raise CatalogNotFound("function", shown)

    # ------------------------------------------------------------------ CREATE

    def duplicate(self, ctx: Context, fn: NewFunction, *, if_not_exists: bool) -> list[str] | None:
        """check_function_name_duplicated (session.rs:1150-1186) in the schema the function
        goes to (CREATE on it checked first): the IF NOT EXISTS notice, or None."""
        schema_id, _ = self.catalog.creation_schema(ctx, fn.name)
        types = [t[1] for t in fn.arg_types]
        if any(list(r.arg_types) == types for r in self._rows(schema_id, fn.name.name)):
            full = f"{fn.name.name}({','.join(types)})"
            if if_not_exists:
                return [f'function "{full}" already exists, skipping']
            raise CatalogDuplicated(f"function named {full} already exists")
        return None

    def create(self, ctx: Context, fn: NewFunction, *, if_not_exists: bool) -> Result:
        """The catalog write of CREATE FUNCTION / AGGREGATE: the schema (CREATE on it), then
        the duplicate check, then the row."""
        notices = self.duplicate(ctx, fn, if_not_exists=if_not_exists)
        if notices is not None:
            return Result(notices)
        schema_id, _ = self.catalog.creation_schema(ctx, fn.name)
        with self.store.transaction():
            fid = self.store.next_id("object")
            self.conn.execute(
                "INSERT INTO function(function_id, name, schema_id, database_id, owner_id, kind,"
                " arg_names, arg_types, return_type_oid, return_type, language, runtime,"
                " name_in_runtime, body, link, compressed_binary,"
                " always_retry_on_network_error, is_async, is_batched, definition, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    fid, fn.name.name, schema_id, ctx.database_id, ctx.user_id, fn.kind,
                    json.dumps(list(fn.arg_names)), json.dumps([list(t) for t in fn.arg_types]),
                    fn.return_type[0], fn.return_type[1], fn.language, fn.runtime,
                    fn.name_in_runtime, fn.body, fn.link, fn.compressed_binary,
                    int(fn.always_retry_on_network_error), _opt_bool(fn.is_async),
                    _opt_bool(fn.is_batched), fn.definition, self.meta.now(),
                ),
            )  # fmt: skip
            self.catalog.privileges.apply_defaults(
                fid, "function", database_id=ctx.database_id, schema_id=schema_id,
                owner_id=ctx.user_id,
            )  # fmt: skip
        return Result()

    # ------------------------------------------------------------------ DROP

    def for_drop(
        self,
        ctx: Context,
        name: ObjectName,
        arg_types: Sequence[str] | None,
        *,
        aggregate: bool,
        if_exists: bool,
    ) -> FunctionRow | Result:
        """drop_function.rs:41-100: the function (owner or superuser; DROP FUNCTION of an
        aggregate and DROP AGGREGATE of a function refused), or the IF EXISTS notice."""
        try:
            fn = self.resolve(ctx, name, arg_types)
        except CatalogNotFound as e:
            if if_exists and "function not found" in e.chain[-1]:
                return Result([f'function "{name.name}" does not exist, skipping'])
            raise
        self.catalog.privileges.check_drop_alter(ctx, fn.owner_id, fn.schema_id)
        if not aggregate and fn.kind == "AGGREGATE":
            raise FunctionCatalogError(
                f'"{name.name}" is an aggregate function\nHINT:  Use DROP AGGREGATE to drop '
                "aggregate functions."
            )
        if aggregate and fn.kind != "AGGREGATE":
            raise FunctionCatalogError(f'"{name.name}" is not an aggregate')
        return fn

    def drop(self, fn: FunctionRow, callers: Sequence[int], *, cascade: bool) -> Result:
        """drop_op.rs:52-94 for a function: RESTRICT refuses while relations call it
        (utils.rs:975-990, the hint of functions); CASCADE removes them and their
        dependents."""
        if callers and not cascade:
            raise DropDependedOn(
                "function",
                self._caller_lines(callers),
                hint="HINT: DROP the dependent objects first.",
            )
        ids = self.catalog.cascade_closure(callers) if callers else []
        self.catalog.refuse_dropping_creating(ids, "function")
        jobs = [r for r in (self.catalog.relation(i) for i in ids) if r is not None and r.is_job]
        with self.store.transaction():
            if ids:
                self.catalog.remove_relations(ids)
            self.conn.execute("DELETE FROM function WHERE function_id = ?", (fn.id,))
            self.catalog.privileges.forget_objects([fn.id])
            for db in sorted({r.database_id for r in jobs}):
                self.barrier.barrier(db)
        self.meta.commit_actions()
        return Result()

    def _caller_lines(self, ids: Sequence[int]) -> list[str]:
        """`<kind> <schema>.<name> depends on it` (utils.rs:850-970)."""
        out = []
        for rid in ids:
            d = self.catalog.relation(rid)
            if d is None:
                continue
            schema = self.catalog.schema_name(d.schema_id)
            word = "materialized view" if d.kind in ("table", "materialized view") else d.kind
            out.append(f"{word} {schema}.{d.name} depends on it")
        return out

    # ------------------------------------------------------------------ ALTER

    def alter_owner(self, ctx: Context, fn: FunctionRow, owner: str) -> Result:
        """ALTER FUNCTION ... OWNER TO (alter_owner.rs: the new owner exists, the session may
        alter the function, the new owner may create in its schema)."""
        uid = self.catalog.users.user_id(owner)
        if uid is None:
            raise CatalogNotFound("user", owner)
        owner_id = uid
        self.catalog.privileges.check_drop_alter(ctx, fn.owner_id, fn.schema_id)
        self.catalog.privileges.check_new_owner(ctx, owner_id, fn.schema_id)
        if owner_id == fn.owner_id:
            return Result()
        self.catalog.privileges.check_not_owned_by_admin(fn.owner_id, fn.name)
        with self.store.transaction():
            self.conn.execute(
                "UPDATE function SET owner_id = ? WHERE function_id = ?", (owner_id, fn.id)
            )
        self.meta.acl_version += 1
        return Result()

    def alter_schema(self, ctx: Context, fn: FunctionRow, schema: str) -> Result:
        """ALTER FUNCTION ... SET SCHEMA (alter_set_schema.rs: the FUNCTION arm: the same
        name and argument types must not exist in the new schema)."""
        self.catalog.privileges.check_drop_alter(ctx, fn.owner_id, fn.schema_id)
        sid, _ = self.catalog.creation_schema(ctx, ObjectName(fn.name, schema))
        if sid == fn.schema_id:
            return Result()
        if any(r.arg_types == fn.arg_types for r in self._rows(sid, fn.name)):
            raise CatalogDuplicated(
                f"function named {fn.name}({','.join(fn.arg_types)}) already exists"
            )
        with self.store.transaction():
            self.conn.execute(
                "UPDATE function SET schema_id = ? WHERE function_id = ?", (sid, fn.id)
            )
        return Result()


def _opt_bool(v: bool | None) -> int | None:
    return None if v is None else int(v)


def _split_types(text: str) -> list[str]:
    """The argument types of a GRANT's function description, as RisingWave names them."""
    from rwshim.sql.function_def import parse_desc

    desc = parse_desc(f"f({text})")
    return [bind_type_name(t) for t in desc.arg_types or ()]


def bind_type_name(type_text: str) -> str:
    """RisingWave's name of a type as written (bind_data_type's names; a type it does not
    know keeps its text, and matches no function)."""
    from rwshim.common import rwtypes
    from rwshim.sql.columns import canonical_type

    name, dims = canonical_type(type_text)
    base = rwtypes.SCALARS.get(name.lower().removeprefix("pg_catalog."))
    if base is not None:
        return base[1] + "[]" * dims
    try:
        return rwtypes.parse(type_text.strip()).display()
    except rwtypes.TypeSyntaxError:
        return type_text.strip().lower()


__all__ = ["FunctionCatalogError", "FunctionRow", "Functions", "NewFunction", "bind_type_name"]
