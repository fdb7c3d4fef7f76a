"""Catalog operations: initial catalog, databases, schemas, users, CREATE/DROP with IF [NOT]
EXISTS, CASCADE and dependency errors, rename/swap/owner/schema, comments, parameters."""

from __future__ import annotations

import pytest

from rwshim.common import pgtypes
from rwshim.engine.types import ColumnSpec, Context, ObjectName
from rwshim.errors import RwError
from tests.unit.engine.helpers import V, ctx, make_engine, mv, rel_id, table


def test_initial_catalog_is_risingwaves() -> None:
    e = make_engine()
    assert e.conn.execute("SELECT user_id, name, is_super FROM rw_user ORDER BY 1").fetchall() == [
        (1, "root", 1),
        (2, "postgres", 1),
        (3, "rwadmin", 1),
    ]
    assert e.conn.execute("SELECT database_id, name, owner_id FROM database").fetchall() == [
        (1, "dev", 1)
    ]
    assert e.conn.execute("SELECT schema_id, name FROM schema ORDER BY 1").fetchall() == [
        (2, "public"),
        (3, "pg_catalog"),
        (4, "information_schema"),
        (5, "rw_catalog"),
    ]
    assert table(e, "t") == 6


def test_table_columns_and_row_id() -> None:
    e = make_engine()
    t = table(e, "t")
    assert e.conn.execute(
        "SELECT position, column_id, name, type_oid, rw_type, is_hidden, pk_position"
        " FROM relation_column WHERE relation_id = ? ORDER BY position",
        (t,),
    ).fetchall() == [
        (0, 1, "v", pgtypes.INT4, "integer", 0, None),
        (1, 0, "_row_id", pgtypes.INT8, "serial", 1, 0),
    ]
    e.ddl.create_table(
        ctx(),
        ObjectName("k"),
        [ColumnSpec("a", pgtypes.INT4, "integer"), ColumnSpec("b", pgtypes.VARCHAR, "varchar")],
        definition="CREATE TABLE k (a INT PRIMARY KEY, b VARCHAR)",
        primary_key=["a"],
    )
    k = rel_id(e, "k")
    assert e.conn.execute(
        "SELECT name, pk_position FROM relation_column WHERE relation_id = ?", (k,)
    ).fetchall() == [("a", 0), ("b", None)]
    with pytest.raises(RwError) as ex:
        e.ddl.create_table(ctx(), ObjectName("z"), V, definition="", primary_key=["nope"])
    assert ex.value.chain == ['Bind error: column "nope" named in key does not exist']


def test_fragments_and_edges_of_an_mv() -> None:
    e = make_engine()
    t = table(e, "t")
    mv(e, "m", [t], ctx(streaming_use_snapshot_backfill="false"))
    m = rel_id(e, "m")
    frags = e.conn.execute(
        "SELECT fragment_id, flags, scan_type, distribution_type FROM fragment WHERE job_id = ?",
        (m,),
    ).fetchall()
    assert len(frags) == 1
    fid, flags, scan, dist = frags[0]
    assert (flags, scan, dist) == ('["MVIEW", "STREAM_SCAN"]', "ArrangementBackfill", "HASH")
    edges = e.conn.execute(
        "SELECT f.job_id, r.dispatcher_type FROM fragment_relation r JOIN fragment f"
        " ON f.fragment_id = r.source_fragment_id WHERE r.target_fragment_id = ?",
        (fid,),
    ).fetchall()
    assert edges == [(t, "Hash")]
    internal = e.conn.execute(
        "SELECT name FROM relation WHERE kind = 'internal' AND owner_job_id = ?", (m,)
    ).fetchall()
    assert len(internal) == 1 and internal[0][0].startswith(f"__internal_m_{fid}_streamscan_")


def test_drop_restrict_cascade_and_if_exists() -> None:
    e = make_engine()
    t = table(e, "t")
    mv(e, "m", [t])
    e.barrier.tick()
    e.ddl.create_view(
        ctx(),
        ObjectName("v"),
        V,
        sql="SELECT * FROM m",
        upstream_ids=[rel_id(e, "m")],
    )
    e.ddl.create_index(
        ctx(),
        ObjectName("i"),
        ObjectName("t"),
        definition="CREATE INDEX i ON t(v)",
        key_columns=["v"],
    )
    e.barrier.tick()  # the foreground CREATE INDEX returns once the index is Created
    with pytest.raises(RwError) as ex:
        e.ddl.drop_relation(ctx(), "table", ObjectName("t"))
    assert ex.value.report() == (
        "Failed to run the query\n\nCaused by:\n  Permission denied: table used by 1 other "
        "objects. \nDETAIL: materialized view public.m depends on it\nHINT:  Use DROP ... "
        "CASCADE to drop the dependent objects too.\n"
    )
    with pytest.raises(RwError) as ex:
        e.ddl.drop_relation(ctx(), "materialized view", ObjectName("m"))
    assert ex.value.chain == [
        "Permission denied: table used by 1 other objects. \nDETAIL: view public.v depends on "
        "it\nHINT:  Use DROP ... CASCADE to drop the dependent objects too."
    ]
    with pytest.raises(RwError) as ex:
        e.ddl.drop_relation(ctx(), "materialized view", ObjectName("t"))
    assert ex.value.chain == ["Invalid input syntax: Use `DROP TABLE` to drop a table."]
    with pytest.raises(RwError) as ex:
        e.ddl.drop_relation(ctx(), "view", ObjectName("t"))
    assert ex.value.chain == ["Catalog error", "view not found: t"]
    assert e.ddl.drop_relation(ctx(), "sink", ObjectName("nope"), if_exists=True).notices == [
        'sink "nope" does not exist, skipping'
    ]
    e.ddl.drop_relation(ctx(), "table", ObjectName("t"), cascade=True)
    assert e.conn.execute("SELECT count(*) FROM relation").fetchone() == (0,)
    for tbl in ("fragment", "fragment_relation", "actor", "streaming_job", "relation_column"):
        assert e.conn.execute(f"SELECT count(*) FROM {tbl}").fetchone() == (0,), tbl


def test_index_goes_with_its_table_in_restrict_mode() -> None:
    e = make_engine()
    table(e, "t")
    e.ddl.create_index(ctx(), ObjectName("i"), ObjectName("t"), definition="", key_columns=["v"])
    e.barrier.tick()
    e.ddl.drop_relation(ctx(), "table", ObjectName("t"))
    assert e.conn.execute("SELECT count(*) FROM relation").fetchone() == (0,)


def test_databases_schemas_users() -> None:
    e = make_engine()
    e.catalog.create_database(ctx(), "d2")
    assert e.catalog.create_database(ctx(), "d2", if_not_exists=True).notices == [
        'database "d2" exists, skipping'
    ]
    with pytest.raises(RwError) as ex:
        e.catalog.create_database(ctx(), "d2")
    assert (ex.value.code, ex.value.chain) == (
        "42710",
        ["Catalog error", "database named d2 already exists"],
    )
    d2 = e.catalog.database_id("d2")
    assert e.conn.execute(
        "SELECT name FROM schema WHERE database_id = ? ORDER BY schema_id", (d2,)
    ).fetchall() == [("public",), ("pg_catalog",), ("information_schema",), ("rw_catalog",)]
    with pytest.raises(RwError) as ex:
        e.catalog.drop_database(ctx(), "dev")
    assert ex.value.chain == ["Permission denied: cannot drop the currently open database"]
    e.catalog.drop_database(ctx(), "d2")
    with pytest.raises(RwError) as ex:
        e.catalog.drop_database(ctx(), "d2")
    assert (ex.value.code, ex.value.chain) == ("3D000", ["Catalog error", "database not found: d2"])

    e.catalog.create_schema(ctx(), "s")
    table(e, "t", c=ctx(search_path="s"))
    with pytest.raises(RwError) as ex:
        e.catalog.drop_schema(ctx(), "s")
    assert ex.value.chain == ["Permission denied: schema is not empty"]
    with pytest.raises(RwError) as ex:
        e.catalog.drop_schema(ctx(), "rw_catalog")
    assert ex.value.chain == [
        "Protocol error: cannot drop schema rw_catalog because it is required by the database "
        "system"
    ]
    e.catalog.drop_schema(ctx(), "s", cascade=True)

    e.users.create_user(ctx(), "alice", create_db=True)
    alice = Context(user_id=e.users.user_id("alice") or 0)
    with pytest.raises(RwError) as ex:
        e.users.create_user(alice, "eve")
    assert ex.value.chain == ["Permission denied: permission denied to create user"]
    e.catalog.create_database(alice, "ad")
    with pytest.raises(RwError) as ex:
        e.users.drop_user(ctx(), "alice")
    # The database and its four schemas (create_op.rs:111-113 gives them the db's owner).
    assert ex.value.chain == [
        "Permission denied: drop user alice is not allowed, because it owns 5 objects"
    ]
    with pytest.raises(RwError) as ex:
        e.users.drop_user(ctx(), "root")
    assert ex.value.chain == ["Permission denied: current user cannot be dropped"]


def test_privilege_on_alter_and_drop() -> None:
    e = make_engine()
    table(e, "t")
    e.users.create_user(ctx(), "bob")
    bob = Context(user_id=e.users.user_id("bob") or 0)
    text = (
        "Permission denied: Only the relation owner, the schema owner, and superuser can drop "
        "or alter a relation."
    )
    for fn in (
        lambda: e.ddl.drop_relation(bob, "table", ObjectName("t")),
        lambda: e.scale.alter_parallelism(bob, "table", ObjectName("t"), "2"),
    ):
        with pytest.raises(RwError) as ex:
            fn()
        assert ex.value.chain == [text]
    with pytest.raises(RwError) as ex:
        e.recovery.adhoc_recover(bob)
    assert ex.value.chain == ["Permission denied: only superusers can trigger adhoc recovery"]
    with pytest.raises(RwError) as ex:
        e.params.alter_system_set(bob, "barrier_interval_ms", "10")
    assert ex.value.chain == [
        "Permission denied: must be superuser to execute ALTER SYSTEM command"
    ]


def test_rename_swap_owner_schema_comment() -> None:
    e = make_engine()
    t = table(e, "t")
    u = table(e, "u")
    e.alter.rename(ctx(), "table", ObjectName("t"), "t2")
    assert rel_id(e, "t2") == t
    with pytest.raises(RwError) as ex:
        e.alter.rename(ctx(), "table", ObjectName("t2"), "u")
    assert ex.value.chain == [  # meta's check_relation_name_duplicate (controller/utils.rs:774)
        "Catalog error",
        "gRPC request to meta service (call `/ddl_service.DdlService/AlterName`) failed: Some"
        " entity that we attempted to create (e.g., file or directory) already exists",
        "table named u already exists",
    ]
    e.alter.swap(ctx(), "table", ObjectName("t2"), ObjectName("u"))
    assert (rel_id(e, "t2"), rel_id(e, "u")) == (u, t)
    e.users.create_user(ctx(), "carol")
    e.alter.alter_owner(ctx(), "table", ObjectName("u"), "carol")
    assert e.catalog.relation(t).owner_id == e.users.user_id("carol")  # type: ignore[union-attr]
    e.catalog.create_schema(ctx(), "s")
    e.alter.set_schema(ctx(), "table", ObjectName("u"), "s")
    assert e.catalog.lookup(ctx(), ObjectName("u")) is None
    assert e.catalog.lookup(ctx(), ObjectName("u", "s")) is not None
    e.catalog.comment_on(ctx(), t, None, "the table")
    e.catalog.comment_on(ctx(), t, "v", "a column")
    assert e.conn.execute("SELECT objsubid, description FROM comment ORDER BY 1").fetchall() == [
        (0, "the table"),
        (1, "a column"),
    ]


def test_parameters() -> None:
    e = make_engine()
    names = [r[0] for r in e.params.show_parameters().rows]
    assert names[:2] == ["barrier_interval_ms", "checkpoint_frequency"]
    e.params.alter_system_set(ctx(), "barrier_interval_ms", "250")
    assert e.params.barrier_interval_ms(1) == 250
    e.params.alter_database_param(ctx(), "dev", "barrier_interval_ms", 50)
    assert e.params.barrier_interval_ms(1) == 50
    with pytest.raises(RwError) as ex:
        e.params.alter_database_param(ctx(), "dev", "foo", 1)
    assert ex.value.chain == ["Invalid input syntax: Unsupported database config parameter: foo"]
    # OverrideValidate on meta's side (system_param/mod.rs:451-453), after the catalog lookup.
    with pytest.raises(RwError) as ex:
        e.params.alter_database_param(ctx(), "dev", "barrier_interval_ms", 49)
    assert ex.value.chain == [
        "gRPC request to meta service (call `/ddl_service.DdlService/AlterDatabaseParam`) "
        "failed: Internal error",
        "value 49 out of range, expect 50..",
    ]
    assert e.params.barrier_interval_ms(1) == 50


def test_table_fragments_and_the_mv_reads_the_materialize_fragment() -> None:
    e = make_engine()
    t = table(e, "t")
    rows = e.conn.execute(
        "SELECT fragment_id, flags, distribution_type, state_table_ids FROM fragment"
        " WHERE job_id = ? ORDER BY fragment_id",
        (t,),
    ).fetchall()
    assert [r[1:] for r in rows] == [
        ('["MVIEW", "UPSTREAM_SINK_UNION"]', "HASH", f"[{t}]"),
        ('["SOURCE", "DML"]', "HASH", "[]"),
    ]
    mview_fragment = rows[0][0]
    mv(e, "m", [t])
    m = rel_id(e, "m")
    assert e.conn.execute(
        "SELECT r.source_fragment_id, f.flags, r.dispatcher_type FROM fragment_relation r"
        " JOIN fragment f ON f.fragment_id = r.target_fragment_id WHERE f.job_id = ?",
        (m,),
    ).fetchall() == [
        (mview_fragment, '["MVIEW", "STREAM_SCAN", "SNAPSHOT_BACKFILL_STREAM_SCAN"]', "Hash")
    ]


def test_sink_into_table_goes_with_the_table() -> None:
    e = make_engine()
    t = table(e, "t")
    u = table(e, "u")
    e.ddl.create_sink(
        ctx(),
        ObjectName("s"),
        [],
        definition="CREATE SINK s INTO u FROM t",
        upstream_ids=[t],
        into_table=ObjectName("u"),
    )
    e.barrier.tick()  # the foreground CREATE SINK returns once the sink is Created
    s = rel_id(e, "s")
    assert e.conn.execute(
        "SELECT job_type FROM streaming_job WHERE job_id = ?", (s,)
    ).fetchone() == ("SinkIntoTable",)
    e.ddl.drop_relation(ctx(), "table", ObjectName("u"))
    assert e.catalog.relation(s) is None and e.catalog.relation(u) is None
    assert e.catalog.lookup(ctx(), ObjectName("t")) is not None


def test_license_key_is_never_shown() -> None:
    e = make_engine()

    def shown() -> object:
        return next(r[1] for r in e.params.show_parameters().rows if r[0] == "license_key")

    assert shown() == "<default>"
    e.params.alter_system_set(ctx(), "license_key", "secret-key")
    assert shown() == "<redacted>"
    with pytest.raises(RwError) as ex:
        e.params.alter_system_set(ctx(), "nope", "1")
    assert ex.value.chain[-1] == 'System parameters error: unrecognized system parameter "nope"'
    with pytest.raises(RwError) as ex:
        e.params.alter_system_set(ctx(), "state_store", "x")
    assert ex.value.chain[-1] == 'System parameters error: "state_store" is immutable'
    with pytest.raises(RwError) as ex:
        e.params.alter_system_set(ctx(), "barrier_interval_ms", "fast")
    assert ex.value.chain == [
        "gRPC request to meta service (call `/meta.SystemParamsService/SetSystemParam`) failed: "
        "Internal error",
        "System parameters error: cannot parse parameter value: invalid digit found in string",
    ]


def test_parallelism_policy_of_fragments() -> None:
    e = make_engine()
    t = table(e, "t")

    def policies(job: int) -> list[str]:
        return [
            r[0]
            for r in e.conn.execute(
                "SELECT parallelism_policy FROM fragment WHERE job_id = ? ORDER BY fragment_id",
                (job,),
            )
        ]

    assert policies(t) == ["inherit(bounded(4))", "inherit(bounded(4))"]
    e.scale.alter_parallelism(ctx(), "table", ObjectName("t"), "2")
    assert policies(t) == ["inherit(2)", "inherit(2)"]
    e.ddl.create_materialized_view(
        ctx(),
        ObjectName("k"),
        V,
        definition="CREATE MATERIALIZED VIEW k AS SELECT 1",
        upstream_ids=[],
        has_values=True,
    )
    assert policies(rel_id(e, "k")) == ["single"]
    e.ddl.create_source(
        ctx(), ObjectName("src"), [], definition="", with_options=[("connector", "kafka")]
    )
    src = rel_id(e, "src")
    mv(e, "m", [src])
    e.barrier.tick()
    m = rel_id(e, "m")
    src_fragment = e.conn.execute(
        "SELECT fragment_id FROM fragment WHERE job_id = ?", (src,)
    ).fetchone()[0]
    assert policies(m) == [f"upstream_fragment([{src_fragment}])"]
    assert policies(src) == ["inherit(bounded(4))"]
    mf = e.conn.execute("SELECT fragment_id FROM fragment WHERE job_id = ?", (m,)).fetchone()[0]
    # Only the entry of a NoShuffle ensemble takes the override; the request must name it
    # (reschedule_fragment_inplace, src/meta/src/stream/scale.rs:376-393).
    with pytest.raises(RwError) as ex:
        e.scale.alter_fragment_parallelism(ctx(), [mf], "3")
    assert ex.value.chain == [
        f"Invalid parameter value: Invalid parameter: none of the entry fragments [{src_fragment}]"
        " were included in the reschedule request; provide at least one entry fragment id"
    ]
    e.scale.alter_fragment_parallelism(ctx(), [mf, src_fragment], "3")
    assert policies(src) == ["override(3)"]
    assert policies(m) == [f"upstream_fragment([{src_fragment}])"]
    assert set(e.actors.rendered_parallelism(m).values()) == {3}
    mv(e, "m2", [t])
    e.barrier.tick()
    m2 = rel_id(e, "m2")
    f2 = e.conn.execute("SELECT fragment_id FROM fragment WHERE job_id = ?", (m2,)).fetchone()[0]
    e.scale.alter_fragment_parallelism(ctx(), [f2], "adaptive", is_ident=True)
    assert policies(m2) == ["override(bounded(64))"]  # Adaptive shows the job's strategy


@pytest.mark.parametrize(
    ("definition", "renamed"),
    [
        (
            "CREATE MATERIALIZED VIEW mv AS SELECT * FROM t",
            "CREATE MATERIALIZED VIEW zz AS SELECT * FROM t",
        ),
        ("CREATE TABLE public.t (v INT)", "CREATE TABLE public.zz (v INT)"),
        ('CREATE TABLE "My T" (v INT)', "CREATE TABLE zz (v INT)"),
        ("CREATE INDEX i ON t(v)", "CREATE INDEX zz ON t(v)"),
        ("", ""),
    ],
)
def test_rename_rewrites_the_created_name(definition: str, renamed: str) -> None:
    from rwshim.sql.unparse import rename_relation

    assert rename_relation(definition, "zz") == renamed


def test_rename_and_swap_update_definitions() -> None:
    e = make_engine()
    e.ddl.create_table(ctx(), ObjectName("a"), V, definition="CREATE TABLE a (v INT)")
    e.ddl.create_table(ctx(), ObjectName("b"), V, definition="CREATE TABLE b (v INT, w INT)")
    e.alter.rename(ctx(), "table", ObjectName("a"), "c")
    assert e.catalog.relation(rel_id(e, "c")).definition == "CREATE TABLE c (v INT)"  # type: ignore[union-attr]
    e.alter.swap(ctx(), "table", ObjectName("c"), ObjectName("b"))
    assert e.catalog.relation(rel_id(e, "b")).definition == "CREATE TABLE b (v INT)"  # type: ignore[union-attr]
    assert e.catalog.relation(rel_id(e, "c")).definition == "CREATE TABLE c (v INT, w INT)"  # type: ignore[union-attr]
