"""RisingWave's ``map(K,V)`` over a real socket (psycopg, every value read as the server's text):
map columns in tables, ``MAP {k: v}`` literals and their subscripts, the map functions, the
renderings (``{k:v,...}`` in insertion order: src/common/src/array/map_array.rs ToText) and the
refusals with RisingWave's whole texts.  Statements and expectations from
e2e_test/batch/types/map.slt.part and the examples of src/expr/impl/src/scalar/array.rs.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import psycopg
import pytest
from psycopg.types.string import TextLoader

from tests.conftest import Running

# every type a test reads, as the server's text
_TEXT_OIDS = (
    16, 20, 21, 23, 700, 701, 1700, 1043, 2249, 3802, 1000, 1005, 1007, 1016, 1021, 1022, 1015,
    1231, 1303, 1304, 2287,
)  # fmt: skip


@pytest.fixture
async def conn(server: Running) -> AsyncIterator[psycopg.AsyncConnection[tuple[str, ...]]]:
    c = await psycopg.AsyncConnection.connect(server.dsn(), autocommit=True)
    for oid in _TEXT_OIDS:
        c.adapters.register_loader(oid, TextLoader)
    await c.execute("SET RW_IMPLICIT_FLUSH TO true")
    yield c
    await c.close()


async def _rows(conn: psycopg.AsyncConnection[tuple[str, ...]], sql: str) -> list[tuple[str, ...]]:
    cur = await conn.execute(sql)
    return list(await cur.fetchall())


async def _error(conn: psycopg.AsyncConnection[tuple[str, ...]], sql: str) -> str:
    with pytest.raises(psycopg.Error) as info:
        await conn.execute(sql)
    return info.value.diag.message_primary or ""


def _chain(*parts: str) -> str:
    if len(parts) == 1:
        return f"Failed to run the query\n\nCaused by:\n  {parts[0]}\n"
    lines = "".join(f"{i:>3}: {p}\n" for i, p in enumerate(parts, start=1))
    head = "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
    return head + lines


async def test_map_columns_store_and_render_as_risingwave(
    conn: psycopg.AsyncConnection[tuple[str, ...]],
) -> None:
    await conn.execute(
        """create table mt (
            m1 map(varchar, float),
            m2 map(int, bool),
            m3 map(varchar, map(varchar, varchar)),
            l map(varchar,int)[],
            s struct<m map(varchar, struct<x int>)>,
        )"""
    )
    await conn.execute(
        """insert into mt values (
            map_from_key_values(array['a','b','c'], array[1.0,2.0,3.0]::float[]),
            map_from_key_values(array[1,2,3], array[true,false,true]),
            map_from_key_values(array['a','b'], array[
                map_from_key_values(array['a1'], array['a2']),
                map_from_key_values(array['b1'], array['b2'])]),
            array[map_from_key_values(array['a','b','c'], array[1,2,3]),
                  map_from_key_values(array['d','e','f'], array[4,5,6])],
            row(map_from_key_values(array['a','b','c'],
                                    array[row(1),row(2),row(3)]::struct<x int>[])))"""
    )
    # a map(varchar,int) into a map(varchar,double precision) column: the insert's cast
    await conn.execute(
        "insert into mt(m1) values (map_from_key_values(array['c','a','b'], array[1,2,3]))"
    )
    assert sorted(await _rows(conn, "select * from mt")) == [
        ("{a:1,b:2,c:3}", "{1:t,2:f,3:t}", "{a:{a1:a2},b:{b1:b2}}",
         '{"{a:1,b:2,c:3}","{d:4,e:5,f:6}"}', '("{a:(1),b:(2),c:(3)}")'),
        ("{c:1,a:2,b:3}", None, None, None, None),
    ]  # fmt: skip
    assert sorted(
        await _rows(
            conn,
            "select to_jsonb(m1), to_jsonb(m2), to_jsonb(m3), to_jsonb(l), to_jsonb(s) from mt",
        )
    ) == [
        ('{"a": 1.0, "b": 2.0, "c": 3.0}', '{"1": true, "2": false, "3": true}',
         '{"a": {"a1": "a2"}, "b": {"b1": "b2"}}',
         '[{"a": 1, "b": 2, "c": 3}, {"d": 4, "e": 5, "f": 6}]',
         '{"m": {"a": {"x": 1}, "b": {"x": 2}, "c": {"x": 3}}}'),
        ('{"a": 2.0, "b": 3.0, "c": 1.0}', "null", "null", "null", "null"),
    ]  # fmt: skip
    # a column's map functions
    assert await _rows(
        conn,
        "select map_keys(m1), map_values(m1), map_length(m1), map_contains(m1, 'a'),"
        " map_access(m1, 'b'), map_entries(m2) from mt where m2 is not null",
    ) == [("{a,b,c}", "{1,2,3}", "3", "t", "2", '{"(1,t)","(2,f)","(3,t)"}')]
    await conn.execute("drop table mt")


async def test_map_key_types_are_refused_as_risingwave_does(
    conn: psycopg.AsyncConnection[tuple[str, ...]],
) -> None:
    # map_type.rs check_key_type_valid; binder/expr/mod.rs bind_data_type
    assert await _error(conn, "create table bad (m map (float, float))") == _chain(
        "Bind error: invalid map key type: double precision"
    )
    assert await _error(
        conn, "select map_from_key_values(array[1.0,2.0,3.0], array[1,2,3])"
    ) == _chain(
        "Failed to bind expression: map_from_key_values(ARRAY[1.0, 2.0, 3.0], ARRAY[1, 2, 3])",
        "Expr error",
        "invalid map key type: numeric",
    )


@pytest.mark.parametrize(
    ("sql", "call", "cause"),
    [
        ("select map_from_key_values(array[1,1,3], array[1,2,3])",
         "map_from_key_values('{1,1,3}', '{1,2,3}')", "map keys must be unique"),
        ("select map_from_key_values(array[1,null,3], array[1,2,3])",
         "map_from_key_values('{1,NULL,3}', '{1,2,3}')", "map keys must not be NULL"),
        ("select map_from_key_values(array[1,3], array[1,2,3])",
         "map_from_key_values('{1,3}', '{1,2,3}')", "map keys and values have different length"),
        ("select MAP {'a':1,'a':2}", "map_from_key_values('{a,a}', '{1,2}')",
         "map keys must be unique"),
        ("""select jsonb_populate_map(null::map(int, int), '{"a": 1, "b": 2}'::jsonb)""",
         """jsonb_populate_map(NULL, '{"a": 1, "b": 2}')""",
         "Parse error: cannot convert jsonb to a map with non-string keys"),
    ],
)  # fmt: skip
async def test_map_value_errors(
    conn: psycopg.AsyncConnection[tuple[str, ...]], sql: str, call: str, cause: str
) -> None:
    # map_array.rs MapValue::try_from_kv, jsonb.rs to_map, under ExprError's chain
    assert await _error(conn, sql) == _chain(
        "Expr error", f"error while evaluating expression `{call}`", cause
    )


async def test_map_literals_subscripts_and_casts(
    conn: psycopg.AsyncConnection[tuple[str, ...]],
) -> None:
    assert await _rows(
        conn,
        """select
          MAP {'a':1, 'b':2},
          MAP {'a':1, 'b':2}['b'],
          MAP {'a':1, 'b':2}['c'],
          MAP {'a':1, 'b':2}[1],
          MAP {1:1,   '2':2.0}[2],
          MAP {1:MAP{2:3}}[1][2]""",
    ) == [("{a:1,b:2}", "2", None, None, "2.0", "3")]
    assert await _rows(
        conn,
        "select MAP{}::MAP(VARCHAR,INT), MAP{1:'a',2:'b'}::MAP(VARCHAR,VARCHAR),"
        " map_from_key_values(array['a','b','c'], array[1,2,3])::map(varchar,float),"
        " map_from_key_values(array[1,2,3], array[1,null,3])",
    ) == [("{}", "{1:a,2:b}", "{a:1,b:2,c:3}", "{1:1,2:NULL,3:3}")]
    assert await _error(conn, "select MAP {}") == _chain(
        "Failed to bind expression: MAP {}",
        "Bind error: cannot determine type of empty map\n"
        "HINT:  Explicitly cast to the desired type, for example MAP{}::map(int,int).",
    )


async def test_map_functions(conn: psycopg.AsyncConnection[tuple[str, ...]]) -> None:
    # the examples of src/expr/impl/src/scalar/array.rs
    assert await _rows(
        conn,
        "select map_contains(MAP{1:1}, 1), map_contains(MAP{1:1}, 2),"
        " map_contains(MAP{1:1}, NULL), map_contains(MAP{'a':'1','b':'2'}, 'ab')",
    ) == [("t", "f", None, "f")]
    assert await _rows(
        conn,
        "select map_length(NULL::map(int,int)), map_length(MAP {}::map(int,int)),"
        " map_length(MAP {1:1,2:2}::map(int,int))",
    ) == [(None, "0", "2")]
    assert await _rows(
        conn,
        "select map_cat(MAP{'a':1,'b':2},null::map(varchar,int)),"
        " map_cat(MAP{'a':1,'b':2},MAP{'b':3,'c':4}),"
        " map_insert(map{'a':1, 'b':2}, 'c', 3), map_insert(map{'a':1, 'b':2}, 'b', 4),"
        " map_delete(map{'a':1, 'b':2, 'c':3}, 'b'), map_delete(map{'a':1, 'b':2, 'c':3}, 'd'),"
        " map_keys(map{'a':1, 'b':2, 'c':3}), map_values(map{'a':1, 'b':2, 'c':3}),"
        " map_access(map_from_key_values(array['a','b','c'], array[1,2,3]), 'a'),"
        " map_access(map_from_key_values(array['a','b','c'], array[1,2,3]), 'd')",
    ) == [
        ("{a:1,b:2}", "{a:1,b:3,c:4}", "{a:1,b:2,c:3}", "{a:1,b:4}", "{a:1,c:3}",
         "{a:1,b:2,c:3}", "{a,b,c}", "{1,2,3}", "1", None),
    ]  # fmt: skip
    assert await _rows(
        conn,
        "select map_from_entries(array[]::struct<key int, value int>[]),"
        " map_from_entries(null::struct<key int, value int>[])",
    ) == [("{}", None)]
    # jsonb_record.rs jsonb_populate_map: the jsonb's entries over the base map's
    assert await _rows(
        conn,
        """select jsonb_populate_map(null::map(varchar, int), '{"a": 1, "b": 2}'::jsonb),
                  jsonb_populate_map(MAP {'a': 1, 'b': 2}, '{"b": 3, "c": 4}'::jsonb),
                  jsonb_populate_map(MAP {'a': 'a', 'b': 'b'}, '{"b": 3, "c": 4}'::jsonb),
                  jsonb_populate_map(MAP {'a': 1, 'b': 2}, '{"b": "3", "c": 4}'::jsonb)""",
    ) == [("{a:1,b:2}", "{a:1,b:3,c:4}", "{a:a,b:3,c:4}", "{a:1,b:3,c:4}")]


async def test_maps_compare_by_sorted_entries_and_users_cannot_compare_them(
    conn: psycopg.AsyncConnection[tuple[str, ...]],
) -> None:
    # map_array.rs: Eq / Ord over the entries sorted by key (groups, DISTINCT, ORDER BY);
    # no comparison function for a user (map.slt.part)
    await conn.execute("create table mg (m map(int,int))")
    await conn.execute(
        "insert into mg values (MAP{1:1,2:2}), (MAP{2:2,1:1}), (MAP{3:1}), (MAP{1:1})"
    )
    assert await _rows(conn, "select count(*) from (select distinct m from mg) d") == [("3",)]
    assert await _rows(conn, "select map_length(m), count(*) from mg group by m order by m") == [
        ("1", "1"),
        ("2", "2"),
        ("1", "1"),
    ]
    assert await _error(
        conn,
        "select map_from_key_values(array[1,2], array[1,2])"
        " = map_from_key_values(array[2,1], array[2,1])",
    ) == _chain(
        "Failed to bind expression: map_from_key_values(ARRAY[1, 2], ARRAY[1, 2])"
        " = map_from_key_values(ARRAY[2, 1], ARRAY[2, 1])",
        "function equal(map(integer,integer), map(integer,integer)) does not exist",
    )
    await conn.execute("drop table mg")


@pytest.mark.parametrize(
    ("sql", "chain"),
    [
        # map_type.rs try_from_entries, in the function's type inference
        ("select map_from_entries(array[]::int[])",
         ("Failed to bind expression: map_from_entries(CAST(ARRAY[] AS INT[]))", "Expr error",
          "invalid map entries type, expected struct, got: integer")),
        ("select map_from_entries(array[]::struct<key float, value int>[])",
         ("Failed to bind expression: map_from_entries(CAST(ARRAY[] AS STRUCT<key FLOAT, value "
          "INT>[]))", "Expr error", "invalid map key type: double precision")),
        ("select map_from_entries(null)",
         ("Failed to bind expression: map_from_entries(NULL)",
          "Bind error: Cannot implicitly cast 'null:Varchar' to polymorphic type AnyArray")),
        # cast.rs cast_map: a map casts to a map only
        ("select MAP{'a':1}::varchar",
         ('cannot cast type "map(character varying,integer)" to "character varying" in '
          "Explicit context",)),
        # rwshim's limits, said as such
        ("select map_from_entries(array[row('a',1)])",
         ("not supported by rwshim: map_from_entries over an array of ROW(...) values (cast the "
          "array to struct<key K, value V>[])",)),
        ("select (MAP{'a':1})['a']",
         ("not supported by rwshim: a subscript of a map(character varying,integer) value that "
          "is not a MAP {...} literal or a table's column (map_access(m, key) is the same access "
          "with the key cast to the key type)",)),
    ],
)  # fmt: skip
async def test_map_refusals(
    conn: psycopg.AsyncConnection[tuple[str, ...]], sql: str, chain: tuple[str, ...]
) -> None:
    assert await _error(conn, sql) == _chain(*chain)


async def test_map_from_entries_of_a_named_struct_list(
    conn: psycopg.AsyncConnection[tuple[str, ...]],
) -> None:
    # the map type of a struct<key K, value V>[] the statement names is made for it
    entries = "array[row(1, '2024-01-02'::date)]::struct<key int, value date>[]"
    assert await _rows(conn, f"select map_from_entries({entries})") == [("{1:2024-01-02}",)]


async def test_views_over_map_columns_keep_the_map_type(
    conn: psycopg.AsyncConnection[tuple[str, ...]], server: Running
) -> None:
    await conn.execute("create table mv_src (k int primary key, m map(varchar,int))")
    await conn.execute("insert into mv_src values (1, MAP{'a':1}), (2, MAP{'b':2,'a':1})")
    # the CREATE waits for its backfill's barriers (the scenario server's clock is manual)
    task = asyncio.ensure_future(
        conn.execute("create materialized view mvm as select k, m from mv_src")
    )
    for _ in range(50):
        await asyncio.sleep(0.02)
        if task.done():
            break
        server.tick()
    await asyncio.wait_for(task, 5)
    await conn.execute("create view vm as select m from mv_src")
    for name in ("mvm", "vm"):
        described = await _rows(conn, f"describe {name}")
        assert ("m", "map(character varying,integer)") in [(r[0], r[1]) for r in described]
    assert await _rows(conn, "select * from mvm order by k") == [
        ("1", "{a:1}"),
        ("2", "{b:2,a:1}"),
    ]
    await conn.execute("drop view vm")
    await conn.execute("drop materialized view mvm")
    await conn.execute("drop table mv_src")


async def test_maps_of_every_scalar_value_type(
    conn: psycopg.AsyncConnection[tuple[str, ...]],
) -> None:
    # the template holds the map types of every key type and scalar value type; a value in
    # its ToText form (a timestamptz in UTC, as inside a struct or list)
    assert await _rows(
        conn,
        "select map_from_key_values(array['a'], array['2024-01-01'::date]),"
        " map_from_key_values(array[1::bigint], array['1 day'::interval]),"
        " map_from_key_values(array[1::smallint], array['2024-01-01 10:00:00+00'::timestamptz]),"
        " map_from_key_values(array['x'], array[1.5::real])",
    ) == [("{a:2024-01-01}", "{1:1 day}", "{1:2024-01-01 10:00:00+00:00}", "{x:1.5}")]


async def test_subscripts_of_map_columns(conn: psycopg.AsyncConnection[tuple[str, ...]]) -> None:
    # binder/expr/value.rs bind_index: a MapAccess, the key not cast (a key of another type
    # finds nothing); a list inside keeps its own subscript
    await conn.execute(
        "create table ms (k int primary key, m map(varchar,int),"
        " n map(varchar, map(varchar,int)), a int[])"
    )
    await conn.execute(
        "insert into ms values (1, MAP{'a':1}, MAP{'u': MAP{'age': 20}}, array[5,6]),"
        " (2, MAP{'b':2,'a':3}, NULL, NULL)"
    )
    assert await _rows(
        conn, "select k, m['a'], ms.m['b'], m[1], n['u']['age'], a[1] from ms order by k"
    ) == [("1", "1", None, None, "20", "5"), ("2", "3", "2", None, None, None)]
    assert await _rows(conn, "select x.k from ms as x where x.m['a'] > 1") == [("2",)]
    await conn.execute("drop table ms")


async def test_map_filter(conn: psycopg.AsyncConnection[tuple[str, ...]]) -> None:
    # e2e_test/batch/functions/map_filter.slt.part; map_filter.rs: NULL when nothing is kept
    assert await _rows(conn, "SELECT map_filter(MAP{'a':1, 'b':2, 'c':3}, |k, v| v > 1)") == [
        ("{b:2,c:3}",)
    ]
    await conn.execute(
        "CREATE TABLE mft (id INTEGER PRIMARY KEY, map_data MAP(VARCHAR, INTEGER),"
        " nested_map MAP(VARCHAR, MAP(VARCHAR, INTEGER)))"
    )
    await conn.execute(
        "INSERT INTO mft VALUES (1, MAP{'a':1, 'b':2, 'c':3},"
        " MAP{'user1': MAP{'age':20, 'score':85}}), (2, MAP{'x':10, 'y':-5},"
        " MAP{'user2': MAP{'age':16}}), (3, MAP{'k':7}, NULL)"
    )
    assert await _rows(
        conn, "SELECT id, map_filter(map_data, |k, v| v > 0 AND k != 'a') FROM mft ORDER BY id"
    ) == [("1", "{b:2,c:3}"), ("2", "{x:10}"), ("3", "{k:7}")]
    assert await _rows(
        conn, "SELECT id, map_filter(nested_map, |k, v| v['age'] >= 18) FROM mft ORDER BY id"
    ) == [("1", "{user1:{age:20,score:85}}"), ("2", None), ("3", None)]
    lam = "Failed to bind expression: map_filter(MAP {'a': 1, 'b': 2, 'c': 3}, "
    assert await _error(conn, "SELECT map_filter(MAP{'a':1, 'b':2, 'c':3}, |k, v| v + 1)") == (
        _chain(lam + "|k, v| v + 1)", "Bind error: Lambda must return Boolean type, got integer")
    )
    assert await _error(conn, "SELECT map_filter(MAP{'a':1, 'b':2, 'c':3}, |v| v > 1)") == (
        _chain(
            lam + "|v| v > 1)",
            "Bind error: Lambda must have exactly two parameters (key, value), got 1",
        )
    )
    assert await _error(conn, "SELECT map_filter(ARRAY[1,2,3], |k, v| v > 1)") == _chain(
        "Failed to bind expression: map_filter(ARRAY[1, 2, 3], |k, v| v > 1)",
        "Bind error: Input must be Map type, got integer[]",
    )
    await conn.execute("DROP TABLE mft")
