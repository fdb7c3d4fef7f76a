"""SHOW / DESCRIBE layouts and rows (src/frontend/src/handler/show.rs, describe.rs;
e2e_test/ddl/show.slt)."""

from __future__ import annotations

import pytest

from rwshim.catalog_path.system_catalogs import show
from rwshim.catalog_path.system_catalogs.show import ShowContext
from rwshim.common import pgtypes as t
from rwshim.errors import RUN_QUERY, RwError
from tests.unit.catalog.conftest import Store
from tests.unit.catalog.test_rw_catalog import scenario

CTX = ShowContext(database_id=1, user_id=1, user_name="root")


def names(result: show.Result) -> list[tuple[str, int]]:
    return [(c.name, c.type_oid) for c in result[0]]


def t3(store: Store) -> dict[str, int]:
    """e2e_test/ddl/show.slt's t3 (v1, v2, v3 int, hidden _row_id) with comments, idx1."""
    ids = scenario(store)
    ids["t3"] = store.relation(
        "table", "t3", [("v1", t.INT4, "integer"), ("v2", t.INT4, "integer"),
                        ("v3", t.INT4, "integer"), ("_row_id", t.INT8, "serial")],
        pk=[3], hidden=[3], append_only=1,
        definition="CREATE TABLE t3 (v1 INT, v2 INT, v3 INT) APPEND ONLY",
    )  # fmt: skip
    store.conn.executemany(
        "INSERT INTO comment VALUES (?, ?, ?)",
        [(ids["t3"], 0, "volutpat vitae"), (ids["t3"], 1, "turpis vehicula"),
         (ids["t3"], 2, "Lorem ipsum dolor sit amet"), (ids["t3"], 4, "consectetur")],
    )  # fmt: skip
    ids["idx1"] = store.relation(
        "index", "idx1", [("v1", t.INT4, "integer"), ("v2", t.INT4, "integer")],
        primary_table_id=ids["t3"], index_key_columns="[0, 1]", index_include_columns="[2]",
        definition="CREATE INDEX idx1 ON t3(v1, v2)",
    )  # fmt: skip
    return ids


def test_describe_table(store: Store) -> None:
    t3(store)
    result = show.describe(store.conn, CTX, ["t3"])
    assert names(result) == [
        ("Name", t.VARCHAR), ("Type", t.VARCHAR), ("Is Hidden", t.VARCHAR),
        ("Description", t.VARCHAR),
    ]  # fmt: skip
    assert result[1] == [
        ("v1", "integer", "false", "turpis vehicula"),
        ("v2", "integer", "false", "Lorem ipsum dolor sit amet"),
        ("v3", "integer", "false", None),
        ("_row_id", "serial", "true", "consectetur"),
        ("_rw_timestamp", "timestamp with time zone", "true", None),
        ("primary key", "_row_id", None, None),
        ("distribution key", "_row_id", None, None),
        ("idx1", "index(v1 ASC, v2 ASC) include(v3) distributed by(v1)", None, None),
        ("table description", "t3", None, "volutpat vitae"),
    ]


def test_show_columns_and_indexes(store: Store) -> None:
    t3(store)
    assert show.show_columns(store.conn, CTX, ["t3"])[1] == [
        ("v1", "integer", "false", "turpis vehicula"),
        ("v2", "integer", "false", "Lorem ipsum dolor sit amet"),
        ("v3", "integer", "false", None),
        ("_row_id", "serial", "true", "consectetur"),
        ("_rw_timestamp", "timestamp with time zone", "true", None),
    ]
    result = show.show_indexes(store.conn, CTX, ["t3"])
    assert [c.name for c in result[0]] == ["Name", "On", "Key", "Include", "Distributed By"]
    assert result[1] == [("idx1", "t3", "v1 ASC, v2 ASC", "v3", "v1")]


def test_describe_system_view_and_sink(store: Store) -> None:
    ids = scenario(store)
    assert show.describe(store.conn, CTX, ["pg_matviews"])[1] == [
        ("schemaname", "character varying", "false", None),
        ("matviewname", "character varying", "false", None),
        ("matviewowner", "integer", "false", None),
        ("tablespace", "character varying", "false", None),
        ("hasindexes", "boolean", "false", None),
        ("ispopulated", "boolean", "false", None),
        ("definition", "character varying", "false", None),
        ("table description", "pg_matviews", None, None),
    ]
    store.conn.execute("UPDATE relation SET target_table_id = ? WHERE relation_id = ?",
                       (ids["t"], ids["sink"]))  # fmt: skip
    assert show.describe(store.conn, CTX, ["sink"])[1] == [
        ("v1", "integer", "false", None),
        ("table description", "sink", None, None),
        ("target table name", "t", None, None),
    ]
    # A system table has a primary key row but no distribution key.
    rows = show.describe(store.conn, CTX, ["rw_catalog", "rw_tables"])[1]
    assert rows[0] == ("id", "integer", "false", None)
    assert rows[-2:] == [("primary key", "id", None, None), ("table description", "rw_tables",
                                                             None, None)]  # fmt: skip


def test_show_objects(store: Store) -> None:
    ids = t3(store)
    other = store.schema("my_schema")
    store.relation("table", "t4", [("v1", t.INT4, "integer")], schema_id=other)
    assert show.show_objects(store.conn, CTX, "tables") == (
        show.OBJECT_COLUMNS,
        [("public.t",), ("public.t3",)],
    )
    ctx = ShowContext(1, 1, "root", search_path="my_schema, public")
    assert show.show_objects(store.conn, ctx, "tables")[1] == [
        ("my_schema.t4",), ("public.t",), ("public.t3",),
    ]  # fmt: skip
    # The query core's list form, and "$user" resolving to a schema named after the user.
    store.schema("root")
    ctx = ShowContext(1, 1, "root", search_path=("$user", "my_schema"))
    assert ctx.real_path() == ["root", "my_schema"]
    assert show.show_objects(store.conn, ctx, "tables")[1] == [("my_schema.t4",)]
    assert show.show_objects(store.conn, CTX, "tables", schema="public", like="t_")[1] == [
        ("public.t3",)
    ]
    assert show.show_objects(store.conn, CTX, "tables", schema="public", like="_t")[1] == []
    assert show.show_objects(store.conn, CTX, "tables", ilike="T%")[1] == [
        ("public.t",), ("public.t3",),
    ]  # fmt: skip
    # Creating materialized views are not listed.
    assert show.show_objects(store.conn, CTX, "materialized views")[1] == [("public.mv",)]
    assert show.show_objects(store.conn, CTX, "views")[1] == [("public.v",)]
    assert show.show_objects(store.conn, CTX, "sources")[1] == [("public.src",)]
    assert show.show_objects(store.conn, CTX, "sinks")[1] == [("public.sink",)]
    assert show.show_objects(store.conn, CTX, "tables", schema="nosuch")[1] == []
    assert show.show_objects(store.conn, CTX, "views", schema="pg_catalog", like="pg_ma%")[1] == [
        ("pg_catalog.pg_matviews",)
    ]
    assert show.show_objects(store.conn, CTX, "tables", schema="pg_catalog") == (
        show.OBJECT_COLUMNS,
        [],
    )
    assert ids["t3"] > 0


def test_show_where_is_not_implemented(store: Store) -> None:
    with pytest.raises(RwError) as err:
        show.show_objects(store.conn, CTX, "tables", where=True)
    assert err.value.report(RUN_QUERY) == (
        "Failed to run the query\n\nCaused by:\n  Feature is not yet implemented: WHERE clause "
        "in SHOW statement\nNo tracking issue yet. Feel free to submit a feature request at "
        "https://github.com/risingwavelabs/risingwave/issues/new?labels=type%2Ffeature"
        "&template=feature_request.yml\n"
    )


def test_show_databases_and_schemas(store: Store) -> None:
    store.database("db2")
    assert show.show_databases(store.conn, CTX) == (show._cols("Name"), [("dev",), ("db2",)])
    assert show.show_schemas(store.conn, CTX)[1] == [
        ("public",), ("pg_catalog",), ("information_schema",), ("rw_catalog",),
    ]  # fmt: skip


def test_show_create(store: Store) -> None:
    t3(store)
    assert show.show_create(store.conn, CTX, "table", ["t3"]) == (
        show.CREATE_COLUMNS,
        [("public.t3", "CREATE TABLE t3 (v1 INT, v2 INT, v3 INT) APPEND ONLY")],
    )
    assert [c.name for c in show.CREATE_COLUMNS] == ["Name", "Create Sql"]
    assert show.show_create(store.conn, CTX, "materialized view", ["public", "mv"])[1] == [
        ("public.mv", "CREATE MATERIALIZED VIEW mv AS SELECT v1 FROM t")
    ]
    assert show.show_create(store.conn, CTX, "index", ["idx1"])[1] == [
        ("public.idx1", "CREATE INDEX idx1 ON t3(v1, v2)")
    ]
    assert show.show_create(store.conn, CTX, "view", ["pg_namespace"])[1] == [
        ("pg_catalog.pg_namespace",
         "CREATE VIEW pg_catalog.pg_namespace AS SELECT id AS oid, name AS nspname, owner AS "
         "nspowner, acl AS nspacl FROM rw_catalog.rw_schemas"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("call", "message", "code"),
    [
        (lambda c: show.show_create(c, CTX, "materialized view", ["mv2"]),
         "materialized view not found: mv2", "42704"),
        (lambda c: show.show_create(c, CTX, "table", ["mv"]), "table not found: mv", "42704"),
        (lambda c: show.show_create(c, CTX, "sink", ["Nope"]), 'sink not found: "Nope"',
         "42704"),
        (lambda c: show.show_create(c, CTX, "table", ["nosuch", "t"]),
         "schema not found: nosuch", "42704"),
        (lambda c: show.describe(c, CTX, ["nosuch"]),
         "table, source, sink or view not found: nosuch", "42704"),
        (lambda c: show.show_columns(c, CTX, ["mv2"]),
         "table, source, sink or view not found: mv2", "42704"),
        (lambda c: show.show_indexes(c, CTX, ["v"]), "table or source not found: v", "42704"),
    ],
)  # fmt: skip
def test_not_found_errors(store: Store, call: object, message: str, code: str) -> None:
    scenario(store)
    assert callable(call)
    with pytest.raises(RwError) as err:
        call(store.conn)
    assert err.value.report(RUN_QUERY) == (
        f"Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
        f"  1: Catalog error\n  2: {message}\n"
    )
    assert err.value.code == code


def test_qualified_name_errors(store: Store) -> None:
    with pytest.raises(RwError) as err:
        show.describe(store.conn, CTX, ["other", "public", "t"])
    assert err.value.compact() == (
        'Invalid input syntax: cross-database references are not implemented: "other.public.t"'
    )
    with pytest.raises(RwError) as err:
        show.describe(store.conn, CTX, ["a", "b", "c", "d"])
    assert err.value.compact() == (
        "Invalid input syntax: improper qualified name (too many dotted names): a.b.c.d"
    )


def test_describe_mv_index_source(store: Store) -> None:
    scenario(store)
    assert show.describe(store.conn, CTX, ["mv"])[1] == [
        ("v1", "integer", "false", None),
        ("_row_id", "serial", "true", None),
        ("_rw_timestamp", "timestamp with time zone", "true", None),
        ("primary key", "_row_id", None, None),
        ("distribution key", "_row_id", None, None),
        ("table description", "mv", None, None),
    ]
    assert show.describe(store.conn, CTX, ["public", "idx"])[1] == [
        ("v1", "integer", "false", None),
        ("v2", "character varying", "false", None),
        ("_row_id", "serial", "false", None),
        ("_rw_timestamp", "timestamp with time zone", "true", None),
        ("primary key", "v1, _row_id", None, None),
        ("distribution key", "v1", None, None),
        ("table description", "idx", None, None),
    ]
    assert show.describe(store.conn, CTX, ["src"])[1] == [
        ("k", "integer", "false", None),
        ("table description", "src", None, None),
    ]
    # A creating MV cannot be described yet.
    with pytest.raises(RwError) as err:
        show.describe(store.conn, CTX, ["mv2"])
    assert err.value.compact() == "Catalog error: table, source, sink or view not found: mv2"
