"""RisingWave head's ``variant`` over a real socket (psycopg): columns of it, ``to_variant`` and
``'...'::variant`` with the types they keep (``variant_typeof``), ``variant_get`` /
``try_variant_get``, the casts, RisingWave's text of each value (parquet-variant-json's
``to_json_string``: compact, object fields by name), the OIDs a client sees (1307, 1308), and
the refusals with RisingWave's whole texts (src/common/src/types/variant.rs, src/expr/impl/
src/scalar/variant.rs, src/frontend/src/optimizer/variant_key.rs,
plan_visitor/jsonb_stream_key_checker.rs, handler/create_source.rs, create_function.rs,
src/meta/src/stream/sink.rs; statements from e2e_test/ddl/variant.slt and
e2e_test/streaming/variant.slt).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import psycopg
import pytest
from psycopg.types.string import TextLoader

from tests.conftest import Running
from tests.scenarios.pg15 import Pg15, cdc_options

_TEXT_OIDS = (16, 20, 21, 23, 1043, 3802, 1307, 1308)

HINT = (
    "VARIANT values only have byte-wise equality and ordering, so they cannot be used as a "
    "key: in a primary key, index, grouping or join key, ORDER BY, or set operation."
)


@pytest.fixture
async def server(rw_server_factory: Callable[..., Awaitable[Running]]) -> Running:
    # barriers on the wall clock: CREATE MATERIALIZED VIEW waits for its backfill's barrier
    return await rw_server_factory()


@pytest.fixture
async def conn(server: Running) -> AsyncIterator[psycopg.AsyncConnection[tuple[str, ...]]]:
    c = await psycopg.AsyncConnection.connect(server.dsn(), autocommit=True)
    for oid in _TEXT_OIDS:
        c.adapters.register_loader(oid, TextLoader)
    await c.execute("SET RW_IMPLICIT_FLUSH TO true")
    yield c
    await c.close()


Conn = psycopg.AsyncConnection[tuple[str, ...]]


async def _rows(conn: Conn, sql: str, params: list[object] | None = None) -> list[tuple[str, ...]]:
    cur = await conn.execute(sql, params)
    return list(await cur.fetchall())


async def _error(conn: Conn, sql: str) -> str:
    with pytest.raises(psycopg.Error) as info:
        await conn.execute(sql)
    return info.value.diag.message_primary or ""


def _chain(*parts: str, head: str = "Failed to run the query") -> str:
    if len(parts) == 1:
        return f"{head}\n\nCaused by:\n  {parts[0]}\n"
    lines = "".join(f"{i:>3}: {p}\n" for i, p in enumerate(parts, start=1))
    return f"{head}\n\nCaused by these errors (recent errors listed first):\n" + lines


def _key(what: str) -> str:
    return _chain(f"Not supported: {what}\nHINT: {HINT}")


async def test_columns_store_and_render_as_risingwave(conn: Conn) -> None:
    await conn.execute("create table vt (id int primary key, v variant, l variant[])")
    await conn.execute(
        """insert into vt values
            (1, '{"b":[1,2.5,null],"a":"x","aa":{"z":true}}'::variant, array['1'::variant]),
            (2, to_variant('plain'::varchar), null),
            (3, '"tab\\tquote\\"é"', null),
            (4, null, null)"""
    )
    cur = await conn.execute("select id, v, l from vt order by id")
    # the OIDs RisingWave reports (postgres_type.rs: variant 1307, its list 1308)
    assert [d.type_code for d in cur.description or []] == [23, 1307, 1308]
    assert await cur.fetchall() == [
        ("1", '{"a":"x","aa":{"z":true},"b":[1,2.5,null]}', "{1}"),
        ("2", '"plain"', None),
        ("3", '"tab\\tquote\\"é"', None),
        ("4", None, None),
    ]


async def test_to_variant_keeps_the_sql_types(conn: Conn) -> None:
    # e2e_test/ddl/variant.slt:9-19 and the full-type table (:64-137)
    assert await _rows(
        conn,
        """select variant_typeof('1'::variant), variant_typeof('1.5'::variant),
            variant_typeof(to_variant(1::int4)), variant_typeof(to_variant(1::int8)),
            variant_typeof(to_variant(1.0::decimal)),
            variant_typeof(to_variant(1.0::double precision)),
            variant_typeof(to_variant(1::smallint)), variant_typeof(to_variant(true)),
            variant_typeof(to_variant('\\x1234'::bytea)),
            variant_typeof(to_variant(date '2024-01-02')),
            variant_typeof(to_variant(time '03:04:05.006')),
            variant_typeof(to_variant(timestamp '2024-01-02 03:04:05.006')),
            variant_typeof(to_variant('2024-01-02 03:04:05.006+00:00'::timestamptz)),
            variant_typeof(to_variant(null::int)), variant_typeof('null'::variant),
            variant_typeof(to_variant(interval '1 day'))""",
    ) == [
        (
            "int64", "double", "int32", "int64", "decimal16", "double", "int16", "boolean",
            "binary", "date", "time", "timestamp_ntz_micros", "timestamp_micros", "null",
            "null", "string",
        )
    ]  # fmt: skip
    # each as parquet-variant-json writes it (to_json.rs: base64 binary, %Y-%m-%d dates, RFC
    # 3339 instants, six-digit naive timestamps, a time's fraction without trailing zeros)
    assert await _rows(
        conn,
        """select to_variant(123.450::decimal), to_variant(1.5::real),
            to_variant('\\x1234'::bytea), to_variant(date '2024-01-02'),
            to_variant(time '03:04:05.006'), to_variant(time '03:04:05'),
            to_variant(timestamp '2024-01-02 03:04:05.006'),
            to_variant('2024-01-02 03:04:05.006+00:00'::timestamptz),
            to_variant(1e20::float8), to_variant('-0'::float8)""",
    ) == [
        (
            "123.45", "1.5", '"EjQ="', '"2024-01-02"', '"03:04:05.006"', '"03:04:05.0"',
            '"2024-01-02T03:04:05.006000"', '"2024-01-02T03:04:05.006+00:00"',
            "100000000000000000000", "0",
        )
    ]  # fmt: skip


async def test_nested_values_and_paths(conn: Conn) -> None:
    assert await _rows(
        conn,
        """with v as (select '{"a":[1,1.5,true,null,"x",{"b":[2]}]}'::variant as value)
        select variant_typeof(variant_get(value, '$.a')),
            variant_typeof(variant_get(value, '$.a[1]')),
            variant_typeof(variant_get(value, '$.a[5].b[0]')),
            variant_get(value, '$.a[-1]'), variant_get(value, 'a[5]["b"]'),
            variant_get(value, '$.missing') is null,
            try_variant_get(value, '$.') is null
        from v""",
    ) == [("array", "double", "int64", '{"b":[2]}', "[2]", "t", "t")]
    assert await _rows(
        conn,
        """select to_variant(array[array[1, 2], array[3, 4]]::int[][]),
            variant_typeof(variant_get(to_variant(array[array[1, 2]]::int[][]), '$[0][0]')),
            to_variant(row(1, 'a')::struct<b int, a varchar>),
            variant_typeof(variant_get(to_variant(map {'k': 1}), '$.k')),
            variant_typeof(variant_get(
                to_variant(array[to_variant(1::smallint), '1'::variant]::variant[]), '$[0]'))""",
    ) == [("[[1,2],[3,4]]", "int32", '{"a":"a","b":1}', "int32", "int16")]
    # an anonymous row is RisingWave's struct of fields f1, f2, ... (sorted by name), an
    # untyped literal a varchar
    assert await _rows(
        conn,
        """select to_variant(row(1, 'x', row(2.5::float8, null), 4, 5, 6, 7, 8, 9, 10)),
            variant_typeof(variant_get(to_variant(row(interval '1 day')), '$.f1')),
            to_variant('abc'), variant_typeof(to_variant(null))""",
    ) == [
        (
            '{"f1":1,"f10":10,"f2":"x","f3":{"f1":2.5,"f2":null},"f4":4,"f5":5,"f6":6,"f7":7,'
            '"f8":8,"f9":9}',
            "string",
            '"abc"',
            "null",
        )
    ]


async def test_casts(conn: Conn) -> None:
    # cast.rs: varchar -> variant, jsonb <-> variant, variant -> varchar
    assert await _rows(
        conn,
        """select '{"a":1}'::variant::jsonb = '{"a":1}'::jsonb,
            '{"b": 2.5, "a": [1]}'::jsonb::variant,
            to_variant(1::int)::varchar,
            to_jsonb(to_variant(array[1, 2])),
            to_variant('NaN'::float8), to_variant(array[1.0::float8, 'NaN'])""",
    ) == [("t", '{"a":[1],"b":2.5}', "1", "[1, 2]", '"NaN"', '[1.0,"NaN"]')]
    # an unaliased cast is named after the type (binder/select.rs data_type_to_alias)
    cur = await conn.execute("select '1'::variant, to_variant(1)")
    assert [d.name for d in cur.description or []] == ["variant", "to_variant"]
    # a parameter and a literal inserted into a variant column are parsed as JSON
    await conn.execute("create table vp (id int, v variant)")
    await conn.execute("insert into vp values (%s, %s)", [1, '{"k": [true]}'])
    await conn.execute("insert into vp values (2, '[1,2]')")
    assert await _rows(conn, "select %s::variant", ['{"z":1,"y":2}']) == [('{"y":2,"z":1}',)]
    assert await _rows(conn, "select v, variant_typeof(v) from vp order by id") == [
        ('{"k":[true]}', "object"),
        ("[1,2]", "array"),
    ]


async def test_errors(conn: Conn) -> None:
    # variant.rs:907-976 parse_path, under ExprError::InvalidParam
    assert await _error(conn, "select variant_get('{\"a\":[1]}'::variant, '$.')") == _chain(
        "Expr error", "Invalid parameter variant_get: invalid variant path `$.`"
    )
    # what rwshim does not emulate is refused by name
    assert await _error(conn, "select 'nope'::variant") == _chain(
        "not supported by rwshim: the text of serde_json's error for variant input that is not JSON"
    )
    assert await _error(conn, "select to_variant(row(1, 'x')::struct<a int, a varchar>)") == (
        _chain(
            "not supported by rwshim: struct<a integer, a character varying> (a struct with a "
            "duplicate field name has no PostgreSQL form here)"
        )
    )


async def test_binary_format_is_refused_by_name(server: Running) -> None:
    async with await psycopg.AsyncConnection.connect(server.dsn(), autocommit=True) as c:
        cur = c.cursor(binary=True)
        with pytest.raises(psycopg.Error) as info:
            await cur.execute("select to_variant(1)")
        assert info.value.diag.message_primary == _chain(
            "not supported by rwshim: the binary format of variant values",
            head="Failed to execute the statement",
        )


async def test_key_refusals(conn: Conn) -> None:
    await conn.execute("create table vb (id int, v variant, s struct<v variant>, arr variant[])")
    group = 'VARIANT column "vb.v" should not be in the aggregation group key.'
    assert await _error(conn, "select v, count(*) from vb group by v") == _key(group)
    assert await _error(conn, "select distinct v from vb") == _key(group)
    assert await _error(conn, "select v from vb union select v from vb") == _key(group)
    assert await _error(conn, "select distinct s from vb") == _key(
        'VARIANT column "vb.s" should not be in the aggregation group key.'
    )
    assert await _error(conn, "select v from vb order by v") == _key(
        'VARIANT column "vb.v" should not be in the ORDER BY.'
    )
    assert await _error(conn, "select v from vb order by v limit 10") == _key(
        'VARIANT column "vb.v" should not be in the TopN order key.'
    )
    assert await _error(conn, "select array_agg(id order by v) from vb") == _key(
        'VARIANT column "vb.v" should not be in the aggregation order key.'
    )
    assert await _error(conn, "select array_agg(distinct v) from vb") == _key(
        'VARIANT column "vb.v" should not be in the distinct aggregation argument.'
    )
    assert await _error(conn, "select a.id from vb a join vb b on a.arr = b.arr") == _key(
        'VARIANT column "a.arr" should not be in the join key.'
    )
    assert await _error(conn, "select a.id from vb a join vb b on a.v = b.v") == _chain(
        "Failed to bind expression: a.v = b.v", "function equal(variant, variant) does not exist"
    )
    # positions that neither compare nor deduplicate
    assert await _rows(conn, "select v from vb union all select v from vb") == []
    assert await _rows(conn, "select count(*) from vb") == [("0",)]


async def test_ddl_refusals(conn: Conn) -> None:
    storage = 'VARIANT column "{}" is part of the storage primary key'
    assert await _error(conn, "create table vk (v variant primary key)") == _key(
        storage.format("v")
    )
    assert await _error(conn, "create table vk (s struct<v variant> primary key)") == _key(
        storage.format("s")
    )
    await conn.execute("create table vs (id int primary key, payload variant)")
    assert await _error(conn, "create index vi on vs (payload)") == _key(storage.format("payload"))
    assert await _error(
        conn, "create materialized view vm as select payload from vs order by payload"
    ) == _key(storage.format("payload"))
    assert await _error(
        conn,
        "create materialized view vm as select payload, count(*) from vs group by payload",
    ) == _key('VARIANT column "vs.payload" should not be in the aggregation group key.')
    assert await _error(
        conn,
        "create table vj (id int, payload variant) with (connector = 'posix_fs',"
        " posix_fs.root = '/tmp', match_pattern = '*.json') format plain encode json",
    ) == _chain(
        'Not supported: VARIANT column "payload" is not supported for this source encoding yet'
        "\nHINT: VARIANT columns are not supported for this source encoding yet"
    )
    assert await _error(
        conn,
        "create function vf(variant) returns int as 'vf' using link 'http://localhost:8815'",
    ) == _chain(
        "Not supported: VARIANT type in function signature\nHINT: VARIANT is not supported in"
        " UDFs yet"
    )
    assert await _error(
        conn,
        "create sink vsk from vs with (connector = 'kafka',"
        " properties.bootstrap.server = 'localhost:29092', topic = 'v') format upsert encode json",
    ) == _chain(
        "Invalid parameter value: Invalid parameter: sinking VARIANT columns is not supported"
        " yet: column `payload`"
    )
    await conn.execute("create sink vbh from vs with (connector = 'blackhole')")
    await conn.execute("drop sink vbh")


async def test_materialized_view_reads_variants(conn: Conn) -> None:
    # e2e_test/streaming/variant.slt:24-51
    await conn.execute("create table vst (id int primary key, payload variant)")
    await conn.execute(
        "create materialized view vsm as select id, payload, variant_get(payload, '$.a') as a,"
        " variant_typeof(payload) as kind from vst"
    )
    await conn.execute(
        'insert into vst values (1, \'{"a":10,"b":[1,2]}\'::variant),'
        " (2, to_variant('plain'::varchar))"
    )
    await conn.execute("update vst set payload = '{\"a\":20}'::variant where id = 1")
    assert await _rows(conn, "select id, a::varchar, kind from vsm order by id") == [
        ("1", "20", "object"),
        ("2", None, "string"),
    ]


async def test_catalogs_name_the_type(conn: Conn) -> None:
    await conn.execute("create table vc (id int, v variant, l variant[])")
    assert await _rows(
        conn,
        "select column_name, data_type from information_schema.columns"
        " where table_name = 'vc' order by ordinal_position",
    ) == [("id", "integer"), ("v", "variant"), ("l", "variant[]")]
    assert await _rows(conn, "select oid::int, typname from pg_type where oid in (1307, 1308)"
                       " order by oid") == [("1307", "variant"), ("1308", "_variant")]  # fmt: skip


async def test_cdc_tables_refuse_variant_columns(conn: Conn, cdc_upstream: Pg15) -> None:
    # e2e_test/source_inline/cdc/postgres/postgres_variant_reject.slt: refused before the
    # upstream is read (create_table.rs:1648-1653), on ALTER TABLE ADD COLUMN too
    refusal = _chain(
        'Not supported: VARIANT column "{0}" is not supported on a table created from a CDC '
        "source yet\nHINT: VARIANT columns are not supported on a table created from a CDC "
        "source yet"
    )
    await conn.execute(f"create source pg with ({cdc_options(cdc_upstream)})")
    for column in ("x variant", "x struct<v variant>"):
        assert await _error(
            conn,
            f"create table vr (id int primary key, v varchar, {column}) from pg table 'public.t'",
        ) == refusal.format("x")
    await conn.execute("create table vr (id int primary key, v varchar) from pg table 'public.t'")
    assert await _error(conn, "alter table vr add column x variant") == refusal.format("x")
