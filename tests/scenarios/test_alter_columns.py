"""ALTER TABLE ... ADD / DROP / ALTER COLUMN and ALTER SOURCE ... ADD COLUMN over real
connections: RisingWave's texts for what it refuses, the catalog afterwards (SHOW CREATE,
rw_columns, information_schema, DESCRIBE), the rows kept on the data plane and materialized
views over an altered table still answering with the columns they were made with
(src/frontend/src/handler/alter_table_column.rs, alter_source_column.rs, create_table.rs,
create_table/col_id_gen.rs; meta stream_graph/fragment.rs; e2e_test/ddl/alter_table_column.slt
is the walk-through the first test follows)."""

from __future__ import annotations

from tests.conftest import Running
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause, run_ticking

ISSUE_6903 = "Tracking issue: https://github.com/risingwavelabs/risingwave/issues/6903"
NO_ISSUE = (
    "No tracking issue yet. Feel free to submit a feature request at "
    "https://github.com/risingwavelabs/risingwave/issues/new?labels=type%2Ffeature"
    "&template=feature_request.yml"
)


def one(text: str) -> str:
    return f"\n\nCaused by:\n  {text}\n"


async def show_create(client: Client, name: str) -> str:
    rows = await client.rows(f"show create table {name}")
    assert len(rows) == 1
    return str(rows[0][1])


async def test_the_alter_table_column_walk_through(client: Client, server: Running) -> None:
    """e2e_test/ddl/alter_table_column.slt: errors, ADD, DROP, re-ADD, and every MV keeping
    the schema it was created with."""
    assert await client.run("create table t (v int)") == "CREATE_TABLE"
    mv = "create materialized view mv as select * from t"
    assert await run_ticking(client, server, mv) == "CREATE_MATERIALIZED_VIEW"
    assert await client.run("insert into t values (1)") == "INSERT 0 1"

    assert await cause(client, "alter table t add column v int") == (
        "XX000",
        one('Invalid input syntax: column "v" of table "t" already exists'),
    )
    assert await cause(client, "alter table t add column v1 int primary key") == (
        "XX000",
        one("Invalid input syntax: alter primary key of table is not supported"),
    )
    assert await cause(client, "alter table mv add column v1 int") == (
        "XX000",
        one('Invalid input syntax: "mv" is not a table or cannot be altered'),
    )
    assert await cause(client, "alter table t drop column v1") == (
        "XX000",
        one('Invalid input syntax: column "v1" of table "t" does not exist'),
    )
    await client.notices()
    assert await client.run("alter table t drop column if exists v1") == "ALTER_TABLE"
    assert await client.notices() == [("NOTICE", "00000", 'column "v1" does not exist, skipping')]
    assert await cause(client, "alter table t drop column v cascade") == (
        "XX000",
        one(f"Feature is not yet implemented: drop column cascade\n{ISSUE_6903}"),
    )

    assert await client.run("alter table t add column r real") == "ALTER_TABLE"
    mv2 = "create materialized view mv2 as select * from t"
    assert await run_ticking(client, server, mv2) == "CREATE_MATERIALIZED_VIEW"
    assert await client.rows("select v, r from t") == [(1, None)]
    assert await show_create(client, "t") == "CREATE TABLE t (v INT, r REAL)"
    assert await client.run("insert into t values (2, 2.5)") == "INSERT 0 1"
    assert await client.run("alter table t add column s varchar") == "ALTER_TABLE"
    mv3 = "create materialized view mv3 as select * from t"
    assert await run_ticking(client, server, mv3) == "CREATE_MATERIALIZED_VIEW"
    assert await show_create(client, "t") == "CREATE TABLE t (v INT, r REAL, s CHARACTER VARYING)"
    assert await client.run("insert into t values (3, 3.5, '3-3')") == "INSERT 0 1"
    await client.run("flush")
    assert await client.rows("select v, r, s from t order by v") == [
        (1, None, None),
        (2, 2.5, None),
        (3, 3.5, "3-3"),
    ]
    # every materialized view keeps the schema it was created with
    assert await client.rows("select * from mv order by v") == [(1,), (2,), (3,)]
    assert await client.rows("select * from mv2 order by v") == [(1, None), (2, 2.5), (3, 3.5)]
    assert await client.rows("select * from mv3 order by v") == [
        (1, None, None),
        (2, 2.5, None),
        (3, 3.5, "3-3"),
    ]
    assert await client.run("update t set r = 1.5, s = '1-1' where v = 1") == "UPDATE 1"
    await client.run("flush")
    assert await client.rows("select * from mv2 order by v") == [(1, 1.5), (2, 2.5), (3, 3.5)]

    assert await cause(client, "alter table t drop column s") == (
        "XX000",
        one(
            "Invalid parameter value: Invalid parameter: unable to drop the column due to being "
            "referenced by downstream materialized views or sinks"
        ),
    )
    assert await run_ticking(client, server, "drop materialized view mv2") == (
        "DROP_MATERIALIZED_VIEW"
    )
    assert await run_ticking(client, server, "drop materialized view mv3") == (
        "DROP_MATERIALIZED_VIEW"
    )
    mv5 = "create materialized view mv5 as select v, s from t"
    assert await run_ticking(client, server, mv5) == "CREATE_MATERIALIZED_VIEW"
    # nothing reads r any more: mv reads t as it was before r (#4529)
    assert await client.run("alter table t drop column r") == "ALTER_TABLE"
    assert await show_create(client, "t") == "CREATE TABLE t (v INT, s CHARACTER VARYING)"
    assert await client.rows("select v, s from t order by v") == [
        (1, "1-1"),
        (2, None),
        (3, "3-3"),
    ]
    assert await client.rows("select v, s from mv5 order by v") == [
        (1, "1-1"),
        (2, None),
        (3, "3-3"),
    ]
    # a column added after a drop takes a new id: the old r's values are gone
    assert await client.run("alter table t add column r real") == "ALTER_TABLE"
    assert await show_create(client, "t") == "CREATE TABLE t (v INT, s CHARACTER VARYING, r REAL)"
    assert await client.rows("select v, s, r from t order by v") == [
        (1, "1-1", None),
        (2, None, None),
        (3, "3-3", None),
    ]
    assert await client.run("insert into t values (4, '4-4', 4.5)") == "INSERT 0 1"
    assert await client.run("update t set r = 2.5 where v = 2") == "UPDATE 1"
    await client.run("flush")
    assert await client.rows("select v, s, r from t order by v") == [
        (1, "1-1", None),
        (2, None, 2.5),
        (3, "3-3", None),
        (4, "4-4", 4.5),
    ]
    assert await client.rows("select * from mv order by v") == [(1,), (2,), (3,), (4,)]


async def test_added_columns_in_the_catalogs(client: Client) -> None:
    assert await client.run("create table t (k int primary key, a varchar)") == "CREATE_TABLE"
    assert await client.run("insert into t values (1, 'x'), (2, 'y')") == "INSERT 0 2"
    assert await cause(client, "alter table t add column n int not null") == (
        "XX000",
        one("Invalid input syntax: alter table add NOT NULL columns must have default value"),
    )
    assert await cause(client, "alter table t add column g int as k + 1") == (
        "XX000",
        one("Invalid input syntax: alter table add generated columns is not supported"),
    )
    assert await cause(client, "alter table t add column _row_id int") == (
        "XX000",
        one('internal error: column name prefixed with "_row_id" are reserved word.'),
    )
    assert await cause(client, "alter table t add column ctid int") == (
        "XX000",
        one('Invalid input syntax: column name "ctid" conflicts with a system column name'),
    )
    assert await client.run("alter table t add column n int not null default 42") == ("ALTER_TABLE")
    assert await client.run("alter table t add column d varchar default 'dd'") == "ALTER_TABLE"
    # the rows there were take the DEFAULT
    assert await client.rows("select k, a, n, d from t order by k") == [
        (1, "x", 42, "dd"),
        (2, "y", 42, "dd"),
    ]
    assert await client.run("insert into t (k, a) values (3, 'z')") == "INSERT 0 1"
    await client.run("flush")
    assert await client.rows("select n, d from t where k = 3") == [(42, "dd")]
    assert await show_create(client, "t") == (
        "CREATE TABLE t (k INT PRIMARY KEY, a CHARACTER VARYING, n INT NOT NULL DEFAULT 42, "
        "d CHARACTER VARYING DEFAULT 'dd')"
    )
    assert await client.rows(
        "select c.name, c.position, c.data_type, c.is_nullable from rw_columns c "
        "join rw_tables t on t.id = c.relation_id where t.name = 't' and not c.is_hidden "
        "order by c.position"
    ) == [
        ("k", 1, "integer", True),
        ("a", 2, "character varying", True),
        ("n", 3, "integer", False),
        ("d", 4, "character varying", True),
    ]
    # the catalogs show the altered table as they show the same table created so
    same = (
        "create table e (k int primary key, a varchar, n int not null default 42, "
        "d varchar default 'dd')"
    )
    assert await client.run(same) == "CREATE_TABLE"
    for query in (
        "select column_name, ordinal_position, column_default, is_nullable, data_type "
        "from information_schema.columns where table_name = '{}' order by ordinal_position",
        "select c.name, c.position, c.is_hidden, c.is_primary_key, c.is_nullable, c.data_type "
        "from rw_columns c join rw_tables t on t.id = c.relation_id where t.name = '{}' "
        "order by c.position",
        "describe {}",
    ):
        shown = [
            tuple("e" if v == "t" else v for v in r) for r in await client.rows(query.format("t"))
        ]
        assert shown == await client.rows(query.format("e")), query
    assert (await show_create(client, "e")).replace(" e ", " t ") == await show_create(client, "t")
    # the key stays, with the columns after the key's
    assert await cause(client, "alter table t drop column k") == (
        "XX000",
        one("Invalid input syntax: alter primary key of table is not supported"),
    )
    assert await client.run("alter table t drop column a") == "ALTER_TABLE"
    assert await client.rows("select * from t order by k") == [
        (1, 42, "dd"),
        (2, 42, "dd"),
        (3, 42, "dd"),
    ]
    # the upsert on the key still works after the migration
    assert await client.run("insert into t values (1, 7, 'u')") == "INSERT 0 1"
    await client.run("flush")
    assert await client.rows("select * from t order by k") == [
        (1, 7, "u"),
        (2, 42, "dd"),
        (3, 42, "dd"),
    ]


async def test_key_constraint_and_generated_columns(client: Client, server: Running) -> None:
    assert (
        await client.run("create table t (a int, b int, g int as a + b, primary key (a))")
        == "CREATE_TABLE"
    )
    assert await cause(client, "alter table t drop column b") == (
        "XX000",
        one('failed to drop column "b" because it\'s referenced by a generated column "g"'),
    )
    # the key is checked once the generated columns are: a key declared as a constraint
    # names a column that is gone
    assert await client.run("alter table t drop column g") == "ALTER_TABLE"
    assert await cause(client, "alter table t drop column a") == (
        "XX000",
        one('Bind error: column "a" named in key does not exist'),
    )
    assert await client.run("alter table t drop column b") == "ALTER_TABLE"
    assert await show_create(client, "t") == "CREATE TABLE t (a INT, PRIMARY KEY (a))"
    assert await cause(client, "alter table t add column c int primary key") == (
        "XX000",
        one("Bind error: multiple primary keys are not allowed"),
    )
    assert await cause(client, "alter table t add constraint u unique (a)") == (
        "XX000",
        one(f"Feature is not yet implemented: Unhandled statement: ALTER TABLE t ADD "
            f"CONSTRAINT u UNIQUE (a)\n{NO_ISSUE}"),
    )  # fmt: skip
    # no handler whatever the table catalog's kind (mod.rs:1012-1020)
    mv = "create materialized view m as select * from t"
    assert await run_ticking(client, server, mv) == "CREATE_MATERIALIZED_VIEW"
    assert await cause(client, "alter table m add constraint u unique (a)") == (
        "XX000",
        one(
            "Feature is not yet implemented: Unhandled statement: ALTER TABLE m ADD "
            f"CONSTRAINT u UNIQUE (a)\n{NO_ISSUE}"
        ),
    )
    assert await cause(client, "alter table nope add column c int") == (
        "42704",
        "\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Catalog error\n  2: table not found: nope\n",
    )


async def test_alter_column_forms(client: Client) -> None:
    assert await client.run("create table t (v int, s struct<a int>)") == "CREATE_TABLE"
    for form, shown in [
        ("set not null", "SET NOT NULL"),
        ("drop not null", "DROP NOT NULL"),
        ("set default 1 + 2", "SET DEFAULT 1 + 2"),
        ("drop default", "DROP DEFAULT"),
        ("type bigint using v + 1", "SET DATA TYPE BIGINT USING v + 1"),
    ]:
        assert await cause(client, f"alter table t alter column v {form}") == (
            "XX000",
            one(f"Feature is not yet implemented: {shown}\n{ISSUE_6903}"),
        ), form
    assert await cause(client, "alter table t alter column w type bigint") == (
        "XX000",
        one('Invalid input syntax: column "w" of table "t" does not exist'),
    )
    assert await cause(client, "alter table t alter column v type bigint") == (
        "XX000",
        one('column "v" cannot be altered; only types containing struct can be altered'),
    )
    assert await cause(client, "alter table t alter column s type struct<a int, b int>") == (
        "XX000",
        one(
            "rwshim does not emulate changing the fields of a struct column (ALTER TABLE ... "
            "ALTER COLUMN ... TYPE of a type containing a struct)"
        ),
    )
    # the same type: the definition takes the type as written
    assert await client.run("alter table t alter column v set data type integer") == ("ALTER_TABLE")
    assert await show_create(client, "t") == "CREATE TABLE t (v INT, s STRUCT<a INT>)"


async def test_dependents_of_an_altered_table(client: Client, server: Running) -> None:
    assert await client.run("create table t (a int, b int, c int)") == "CREATE_TABLE"
    assert await client.run("insert into t values (1, 2, 3)") == "INSERT 0 1"
    assert await client.run("create view v as select a, c from t") == "CREATE_VIEW"
    assert (
        await run_ticking(client, server, "create materialized view over_view as select * from v")
        == "CREATE_MATERIALIZED_VIEW"
    )
    assert (
        await run_ticking(
            client, server, "create materialized view counted as select count(*) as n from t"
        )
        == "CREATE_MATERIALIZED_VIEW"
    )
    assert await run_ticking(client, server, "create index ib on t (b)") == "CREATE_INDEX"
    sink = "create sink sk as select c from t with (connector = 'blackhole')"
    assert await run_ticking(client, server, sink) == "CREATE_SINK"
    refused = one(
        "Invalid parameter value: Invalid parameter: unable to drop the column due to being "
        "referenced by downstream materialized views or sinks"
    )
    # a (through the view), b (the index), c (the sink and the view) are read downstream
    for col in ("a", "b", "c"):
        assert await cause(client, f"alter table t drop column {col}") == ("XX000", refused), col
    assert await client.run("alter table t add column d int default 4") == "ALTER_TABLE"
    assert await client.rows("select * from over_view") == [(1, 3)]
    assert await client.rows("select * from counted") == [(1,)]
    assert await client.rows("select * from t") == [(1, 2, 3, 4)]
    # nothing reads d: it goes, and so does the index's hold on b once the index does
    assert await client.run("alter table t drop column d") == "ALTER_TABLE"
    assert await run_ticking(client, server, "drop index ib") == "DROP_INDEX"
    assert await client.run("alter table t drop column b") == "ALTER_TABLE"
    assert await client.rows("select * from t") == [(1, 3)]
    assert await client.rows("select * from over_view") == [(1, 3)]
    assert await client.rows("select * from counted") == [(1,)]


async def test_sink_into_an_altered_table(client: Client, server: Running) -> None:
    assert await client.run("create table target (a int, b int)") == "CREATE_TABLE"
    # an append-only upstream: a row-id target takes append-only sinks only (stream_sink.rs
    # :334-342, e2e_test/sink/sink_into_table/basic.slt:51)
    assert await client.run("create table src (a int, b int) append only") == "CREATE_TABLE"
    sink = "create sink si into target from src"
    assert await run_ticking(client, server, sink) == "CREATE_SINK"
    assert await cause(client, "alter table target drop column b") == (
        "XX000",
        one("Invalid input syntax: dropping columns in target table of sinks is not supported"),
    )
    assert await client.run("alter table target add column c int") == "ALTER_TABLE"


async def test_alter_source_add_column(client: Client, server: Running) -> None:
    assert (
        await client.run(
            "create source s (v int) with (connector = 'kafka', topic = 't', "
            "properties.bootstrap.server = 'b:9092') format plain encode json"
        )
        == "CREATE_SOURCE"
    )
    assert (
        await client.run(
            "create source sa (v int) with (connector = 'kafka', topic = 't', "
            "properties.bootstrap.server = 'b:9092') format plain encode avro "
            "(schema.registry = 'http://r')"
        )
        == "CREATE_SOURCE"
    )
    assert (
        await client.run(
            "create table tk (v int) with (connector = 'kafka', topic = 't', "
            "properties.bootstrap.server = 'b:9092') format plain encode json"
        )
        == "CREATE_TABLE"
    )
    mv = "create materialized view ms as select * from s"
    assert await run_ticking(client, server, mv) == "CREATE_MATERIALIZED_VIEW"
    assert await client.run("alter source s add column w varchar") == "ALTER_SOURCE"
    # the materialized view keeps the source's columns it was made with
    assert await client.rows(
        "select c.name from rw_columns c join rw_materialized_views m on m.id = c.relation_id"
        " where m.name = 'ms' and not c.is_hidden"
    ) == [("v",)]
    # (a union with a row of the width expected fails if the width is another)
    assert await client.rows("select * from ms union all select 1") == [(1,)]
    assert await client.rows("select * from s union all select 1, 'a'") == [(1, "a")]
    assert await client.rows("select definition from rw_sources where name = 's'") == [
        (
            "CREATE SOURCE s (v INT, w CHARACTER VARYING) WITH (connector = 'kafka', "
            "topic = 't', properties.bootstrap.server = 'b:9092') FORMAT PLAIN ENCODE JSON",
        )
    ]
    assert await cause(client, "alter source s add column w int") == (
        "XX000",
        one('Invalid input syntax: column "w" of source "s" already exists'),
    )
    assert await cause(client, "alter source sa add column w int") == (
        "XX000",
        one(
            "Not supported: alter source with schema registry\n"
            "HINT: try `ALTER SOURCE .. FORMAT .. ENCODE .. (...)` instead"
        ),
    )
    assert await cause(client, "alter source tk add column w int") == (
        "XX000",
        one(
            "Not supported: alter table with connector with ALTER SOURCE statement\n"
            "HINT: try to use ALTER TABLE instead"
        ),
    )
    assert await client.rows(
        "select c.name, c.data_type from rw_columns c join rw_sources s on s.id = c.relation_id"
        " where s.name = 's' and not c.is_hidden order by c.position"
    ) == [("v", "integer"), ("w", "character varying")]


async def test_alter_view_as_query(client: Client) -> None:
    """Refused before any look-up, as the release build refuses it (handler/mod.rs:1212)."""
    assert await cause(client, "alter view nope as select 1") == (
        "XX000",
        one(f"Feature is not yet implemented: ALTER VIEW AS QUERY\n{NO_ISSUE}"),
    )
    assert await cause(client, "alter materialized view nope as select 1") == (
        "XX000",
        one(f"Feature is not yet implemented: ALTER MATERIALIZED VIEW AS QUERY\n{NO_ISSUE}"),
    )


async def test_alter_watermark(client: Client) -> None:
    assert (
        await client.run(
            "create table t (v int, ts timestamp, watermark for ts as ts - interval '5' second) "
            "append only"
        )
        == "CREATE_TABLE"
    )
    assert await client.run("insert into t values (1, '2026-01-01 00:00:00')") == "INSERT 0 1"
    assert (
        await client.run("alter table t alter watermark for ts as ts - interval '10' second")
        == "ALTER_TABLE"
    )
    assert await show_create(client, "t") == (
        "CREATE TABLE t (v INT, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL '10' SECOND) "
        "APPEND ONLY"
    )
    assert await cause(client, "alter table t alter watermark for v as v") == (
        "XX000",
        one('Invalid input syntax: no watermark defined on column "v" of table "t"'),
    )
    assert await cause(client, "alter table t alter watermark for ts as ts with ttl") == (
        "XX000",
        one(
            "Not supported: toggling WITH TTL via ALTER WATERMARK is not supported\n"
            "HINT: drop and recreate the table"
        ),
    )
    # a column added keeps the watermark after the columns
    assert await client.run("alter table t add column w int") == "ALTER_TABLE"
    assert await show_create(client, "t") == (
        "CREATE TABLE t (v INT, ts TIMESTAMP, w INT, WATERMARK FOR ts AS ts - INTERVAL '10' "
        "SECOND) APPEND ONLY"
    )
    assert await client.rows("select v, w from t") == [(1, None)]


async def test_column_forms_after_other_statements_of_one_query(client: Client) -> None:
    """A column definition or type is read from where it stands in the whole query string,
    not at its offset in a statement that does not start the string (this failed with
    ``internal error: not one column definition``)."""
    await client.simple(
        "create table ms (v int); alter table ms add column w int default 5; "
        "alter table ms add column s struct<a int>"
    )
    assert await show_create(client, "ms") == (
        "CREATE TABLE ms (v INT, w INT DEFAULT 5, s STRUCT<a INT>)"
    )
    await client.simple("select 1;  alter table ms alter column s type struct<a int>")
    assert await show_create(client, "ms") == (
        "CREATE TABLE ms (v INT, w INT DEFAULT 5, s STRUCT<a INT>)"
    )


async def test_a_reserved_word_as_the_added_columns_type(client: Client) -> None:
    """`ADD ADD COLUMN b int` reads a column `add` of type `COLUMN b int`: answered as CREATE
    TABLE answers that column list, not as an internal error (a fuzzer's find)."""
    assert await client.run("create table rw (v int)") == "CREATE_TABLE"
    for sql, shown in [
        ("alter table rw add add column b int", "column b int"),
        ("alter table rw add column b column", "column"),
    ]:
        assert await cause(client, sql) == (
            "XX000",
            one(f"Feature is not yet implemented: unsupported data type: {shown}\n{NO_ISSUE}"),
        ), sql
        create = sql.replace("alter table rw add column", "create table rw2 (").replace(
            "alter table rw add", "create table rw2 ("
        )
        assert await cause(client, create + ")") == await cause(client, sql), create
