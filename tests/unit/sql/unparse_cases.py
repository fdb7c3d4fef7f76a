"""The printer's case table: statement or query as typed -> the text RisingWave stores for it.

Each case names where its expected text comes from: a ``formatted_sql`` of RisingWave's parser
tests (``src/sqlparser/tests/testdata/<file>:<line>``), an expectation of its e2e tests
(``e2e_test/...:<line>``, SHOW CREATE or a definition column), or the Display code it follows
(``ast/<file>:<line>``).  ``CREATE`` inputs are printed as stored (``normalize_sql``: OR REPLACE
and IF NOT EXISTS cleared, src/frontend/src/handler/mod.rs:246-302); queries as their Display.
"""

from __future__ import annotations

T = "src/sqlparser/tests/testdata/"

CASES: list[tuple[str, str, str]] = [
    # --- identifiers, names, literals
    ("SELECT sqrt(id) FROM foo", "SELECT sqrt(id) FROM foo", T + "select.yaml:2"),
    ("SELECT INT '1'", "SELECT INT '1'", T + "select.yaml:5"),
    ('SELECT A FROM "T"', 'SELECT A FROM "T"', "ast/mod.rs:209 Ident keeps case and quotes"),
    (
        "select true, false, null",
        "SELECT true, false, NULL",
        "ast/value.rs:58 Boolean is lower-case",
    ),
    ("SELECT 1.25E6", "SELECT 1.25e6", T + "select.yaml:114"),
    ("SELECT -0X40", "SELECT -0x40", T + "select.yaml:126"),
    ("SELECT 0B1101", "SELECT 0b1101", T + "select.yaml:129"),
    ("SELECT +1, - 1, -x", "SELECT 1, -1, - x", "parser.rs:720-735 sign of a number folded"),
    ("SELECT 'a''b'", "SELECT 'a''b'", T + "escape_string.yml:2"),
    ("SELECT e'a''b'", "SELECT E'a\\'b'", T + "escape_string.yml:6"),
    ("SELECT $$a'b$$, $t$x$t$", "SELECT $$a'b$$, $t$x$t$", "ast/value.rs:120 DollarQuotedString"),
    ("select date 't'::date", "SELECT CAST(DATE 't' AS DATE)", T + "select.yaml:228"),
    ("select date t", "SELECT date AS t", T + "select.yaml:231"),
    (
        "SELECT timestamp with time zone '2022-10-01 12:00:00Z' AT TIME ZONE 'US/Pacific'",
        "SELECT TIMESTAMP WITH TIME ZONE '2022-10-01 12:00:00Z' AT TIME ZONE 'US/Pacific'",
        T + "select.yaml:94",
    ),
    (
        "select interval '1' day, interval '1:2' hour to minute, interval '1.5' second (3, 2)",
        "SELECT INTERVAL '1' DAY, INTERVAL '1:2' HOUR TO MINUTE, INTERVAL '1.5' SECOND (3, 2)",
        "ast/value.rs:73-105 Interval",
    ),
    # --- casts and data types
    (
        "select v::int, v::varchar, v::text, v::double precision, v::float8, v::numeric(10,2)",
        "SELECT CAST(v AS INT), CAST(v AS CHARACTER VARYING), CAST(v AS TEXT), CAST(v AS DOUBLE),"
        " CAST(v AS float8), CAST(v AS NUMERIC(10,2))",
        "ast/data_type.rs:75-130; parser_v2/data_type.rs:226-251 (custom names as written)",
    ),
    (
        "select v::timestamptz, v::timestamp without time zone, v::int[][], v::jsonb",
        "SELECT CAST(v AS timestamptz), CAST(v AS TIMESTAMP), CAST(v AS INT[][]), CAST(v AS JSONB)",
        "ast/data_type.rs:75-130",
    ),
    (
        "select null::struct<f1 struct<f2 struct<f3 struct<f4 int>>>>",
        "SELECT CAST(NULL AS STRUCT<f1 STRUCT<f2 STRUCT<f3 STRUCT<f4 INT>>>>)",
        T + "operator.yaml:28",
    ),
    ("SELECT NULL::STRUCT< >", "SELECT CAST(NULL AS STRUCT< >)", T + "struct.yaml:20"),
    ("SELECT (1 * 2, 1.0)::foo", "SELECT CAST(ROW(1 * 2, 1.0) AS foo)", T + "struct.yaml:2"),
    ("select try_cast(a as bigint)", "SELECT TRY_CAST(a AS BIGINT)", "ast/mod.rs:680"),
    # --- operators and precedence (parentheses are kept as written)
    ("select - 3 ^ 2", "SELECT -3 ^ 2", T + "precedence.yaml:8"),
    ("select |/ 4 + 12", "SELECT |/ 4 + 12", T + "precedence.yaml:14"),
    ("select foo +-+ bar", "SELECT foo + - + bar", T + "operator.yaml:23"),
    (
        "select a != b, (a + b) * c",
        "SELECT a <> b, (a + b) * c",
        "tokenizer.rs:635; ast/mod.rs:700",
    ),
    (
        "select 2 * 3 operator(pg_catalog.+) 4",
        "SELECT 2 * 3 OPERATOR(pg_catalog.+) 4",
        T + "qualified_operator.yaml:2",
    ),
    (
        "select a || b, j->>'k', j #> '{a}'",
        "SELECT a || b, j ->> 'k', j #> '{a}'",
        "parser.rs:1312-1326 Op tokens",
    ),
    (
        "SELECT id FROM customer WHERE NOT salary = ''",
        "SELECT id FROM customer WHERE NOT salary = ''",
        T + "select.yaml:38",
    ),
    # --- predicates
    (
        "select a is not null, a is true, a is distinct from b",
        "SELECT a IS NOT NULL, a IS TRUE, a IS DISTINCT FROM b",
        "ast/mod.rs:541-560",
    ),
    (
        "select '123' IS NOT JSON OBJECT WITH UNIQUE",
        "SELECT '123' IS NOT JSON OBJECT WITH UNIQUE KEYS",
        T + "select.yaml:203",
    ),
    (
        "select a between 1 and 2, a not in (1, 2), a in (select 1)",
        "SELECT a BETWEEN 1 AND 2, a NOT IN (1, 2), a IN (SELECT 1)",
        "ast/mod.rs:575-610",
    ),
    ("select 'a' like 'a' escape '\\'", "SELECT 'a' LIKE 'a' ESCAPE '\\'", T + "select.yaml:212"),
    (
        "select 'a' not like ANY(array['a', null])",
        "SELECT 'a' NOT LIKE SOME(ARRAY['a', NULL])",
        T + "select.yaml:215",
    ),
    (
        "select a similar to 'x', a ilike 'y'",
        "SELECT a SIMILAR TO 'x', a ILIKE 'y'",
        "ast/mod.rs:612-670",
    ),
    # --- special forms
    (
        "select case when a then 1 else 2 end, case x when 1 then 'a' end",
        "SELECT CASE WHEN a THEN 1 ELSE 2 END, CASE x WHEN 1 THEN 'a' END",
        "ast/mod.rs:700-718",
    ),
    (
        "select extract(year from ts), extract('dow' from ts)",
        "SELECT EXTRACT(YEAR FROM ts), EXTRACT(DOW FROM ts)",
        "parser_v2/expr.rs:97-117",
    ),
    (
        "select substring(s from 1 for 2), substring(s, 2), position('a' in s)",
        "SELECT SUBSTRING(s FROM 1 FOR 2), SUBSTRING(s FROM 2), POSITION('a' IN s)",
        "ast/mod.rs:760-784",
    ),
    (
        "SELECT OVERLAY('abc' PLACING 'xyz' FROM 1 FOR 2)",
        "SELECT OVERLAY('abc' PLACING 'xyz' FROM 1 FOR 2)",
        T + "overlay.yaml:4",
    ),
    (
        "select trim(both ' ' from s), trim(s), trim(leading from s)",
        "SELECT TRIM(BOTH ' ' FROM s), TRIM(FROM s), TRIM(LEADING FROM s)",
        "ast/mod.rs:789-800",
    ),
    (
        "select current_date, now(), coalesce(a, 0)",
        "SELECT current_date, now(), coalesce(a, 0)",
        "parser.rs:766-777 (an unreserved keyword is an identifier)",
    ),
    # --- arrays, rows, maps, lambdas, fields
    ("SELECT ARRAY[[1,2],[3,4]]", "SELECT ARRAY[[1, 2], [3, 4]]", T + "array.yaml:31"),
    (
        "SELECT (CAST(ARRAY[ARRAY[2, 3]] AS INT[][]))[1][2]",
        "SELECT (CAST(ARRAY[ARRAY[2, 3]] AS INT[][]))[1][2]",
        T + "array.yaml:27",
    ),
    ("SELECT arr[lo:hi], arr[:2] from t", "SELECT arr[lo:hi], arr[:2] FROM t", T + "array.yaml:80"),
    ("SELECT MAP{k:v} from t", "SELECT MAP {k: v} FROM t", T + "array.yaml:83"),
    (
        "select array_transform(array[1,2,3], |x| x * 2)",
        "SELECT array_transform(ARRAY[1, 2, 3], |x| x * 2)",
        T + "lambda.yaml:2",
    ),
    ("SELECT ((((foo).v1)).v2) FROM foo", "SELECT (((foo).v1).v2) FROM foo", T + "select.yaml:9"),
    ("SELECT ((foo.v1).v2).* FROM foo", "SELECT (foo.v1).v2.* FROM foo", T + "select.yaml:24"),
    (
        "select array(select 2 union select 3)",
        "SELECT ARRAY (SELECT 2 UNION SELECT 3)",
        T + "subquery.yaml:24",
    ),
    (
        "select (1, true) < (select 2, false)",
        "SELECT ROW(1, true) < (SELECT 2, false)",
        T + "subquery.yaml:21",
    ),
    # --- functions, aggregates, windows
    (
        "select count(*), count(distinct a), count(all a), string_agg(s, ',' order by s desc)",
        "SELECT count(*), count(DISTINCT a), count(a), string_agg(s, ',' ORDER BY s DESC)",
        "ast/mod.rs:3111-3140 FunctionArgList",
    ),
    (
        "select percentile_cont(0.3) within group (order by x desc) from t",
        "SELECT percentile_cont(0.3) WITHIN GROUP (ORDER BY x DESC) FROM t",
        T + "select.yaml:174",
    ),
    (
        "select sum(a) filter (where a > 1) from t",
        "SELECT sum(a) FILTER (WHERE a > 1) FROM t",
        "ast/mod.rs:3203-3221 Function",
    ),
    (
        "select row_number() over (partition by a order by b rows between 1 preceding and"
        " current row)",
        "SELECT row_number() OVER (PARTITION BY a ORDER BY b ROWS BETWEEN 1 PRECEDING AND"
        " CURRENT ROW)",
        "ast/mod.rs:872-995 WindowSpec, WindowFrame",
    ),
    (
        "select sum(a) over (order by b rows unbounded preceding exclude ties) from t",
        "SELECT sum(a) OVER (ORDER BY b ROWS UNBOUNDED PRECEDING) FROM t",
        "ast/mod.rs:937-952 (EXCLUDE is not printed)",
    ),
    (
        "select sum(a) over w from t window w as (partition by b)",
        "SELECT sum(a) OVER w FROM t WINDOW w AS (PARTITION BY b)",
        "ast/query.rs:733; mod.rs:896",
    ),
    (
        "select aggregate:array_sum(v) from (values (3), (2), (1)) as t(v)",
        "SELECT AGGREGATE:array_sum(v) FROM (VALUES (3), (2), (1)) AS t (v)",
        T + "select.yaml:272",
    ),
    (
        "SELECT my_udf(key => SECRET my_key) FROM t",
        "SELECT my_udf(key => SECRET my_key) FROM t",
        T + "select.yaml:266",
    ),
    # --- query structure
    (
        "select distinct on (a) a, b from t",
        "SELECT DISTINCT ON (a) a, b FROM t",
        "ast/query.rs:290-300",
    ),
    (
        "select all a from t group by grouping sets ((a), ()), rollup (a, (b, c))",
        "SELECT a FROM t GROUP BY GROUPING SETS ((a), ()), ROLLUP (a, (b, c))",
        "ast/mod.rs:719-756",
    ),
    ("SELECT * FROM t OFFSET 2 LIMIT 1", "SELECT * FROM t LIMIT 1 OFFSET 2", T + "select.yaml:249"),
    (
        "select * from t order by a nulls first fetch next 5 rows only",
        "SELECT * FROM t ORDER BY a NULLS FIRST FETCH FIRST 5 ROWS ONLY",
        "ast/query.rs:656-695",
    ),
    (
        "SELECT * EXCEPT (v1), bar.* EXCEPT (foo.v2) FROM foo, bar",
        "SELECT * EXCEPT (v1), bar.* EXCEPT (foo.v2) FROM foo, bar",
        T + "select.yaml:46",
    ),
    (
        "with x (a) as (select 1), y as (select 2) select * from x, y",
        "WITH x (a) AS (SELECT 1), y AS (SELECT 2) SELECT * FROM x, y",
        "ast/query.rs:341-372",
    ),
    (
        'WITH a_log AS changelog from a,\n  "B_log" AS changelog from public."B"\n'
        'SELECT a0 + b0 FROM a_log, "B_log"',
        'WITH a_log AS changelog from a, "B_log" AS changelog from public."B" SELECT a0 + b0'
        ' FROM a_log, "B_log"',
        T + "select.yaml:234",
    ),
    (
        "select * from t1 union all corresponding by (a, b) select v1, v2 from t2",
        "SELECT * FROM t1 UNION ALL CORRESPONDING BY (a, b) SELECT v1, v2 FROM t2",
        T + "union.yaml:2",
    ),
    (
        "(select 1) union (select 2) order by 1",
        "(SELECT 1) UNION (SELECT 2) ORDER BY 1",
        "ast/query.rs:137-160 SetExpr::Query keeps its parentheses",
    ),
    ("values (1, 'a'), (2, 'b')", "VALUES (1, 'a'), (2, 'b')", "ast/query.rs:713"),
    # --- FROM
    (
        "select * from t1 inner join t2 on a = b left outer join t3 using (c) cross join t4",
        "SELECT * FROM t1 JOIN t2 ON a = b LEFT JOIN t3 USING(c) CROSS JOIN t4",
        "ast/query.rs:556-640 Join",
    ),
    (
        "select * from t1 natural full join t2",
        "SELECT * FROM t1 NATURAL FULL JOIN t2",
        "ast/query.rs:556-640",
    ),
    (
        "select * from ((t1 join t2 on true))",
        "SELECT * FROM ((t1 JOIN t2 ON true))",
        "parser.rs:5547-5573 NestedJoin",
    ),
    (
        "select * from lateral (select 1) x, generate_series(1, 3) with ordinality g(i, o)",
        "SELECT * FROM LATERAL (SELECT 1) AS x, generate_series(1, 3) WITH ORDINALITY AS g (i, o)",
        "ast/query.rs:487-538 TableFactor",
    ),
    (
        "select id1, a1, id2, a2 from stream as S join version FOR SYSTEM_TIME AS OF PROCTIME()"
        " AS V"
        " on id1= id2",
        "SELECT id1, a1, id2, a2 FROM stream AS S JOIN version FOR SYSTEM_TIME AS OF PROCTIME()"
        " AS V"
        " ON id1 = id2",
        T + "select.yaml:171",
    ),
    (
        "select * from t1 left join t2 FOR SYSTEM_TIME AS OF NOW() on a1 = a2",
        "SELECT * FROM t1 LEFT JOIN t2 FOR SYSTEM_TIME AS OF NOW() - '0' SECOND ON a1 = a2",
        T + "as_of.yaml:4",
    ),
    (
        "SELECT * FROM t1 asof LEFT JOIN t2 ON t1.v1 = t2.v1 and t1.v2 > t2.v2",
        "SELECT * FROM t1 ASOF LEFT JOIN t2 ON t1.v1 = t2.v1 AND t1.v2 > t2.v2",
        T + "asof_join.yaml:7",
    ),
    # --- CREATE statements, as stored
    (
        "create table if not exists t (v1 int primary key, v2 varchar)",
        "CREATE TABLE t (v1 INT PRIMARY KEY, v2 CHARACTER VARYING)",
        "handler/mod.rs:260-266",
    ),
    (
        "CREATE TABLE t (v1 INT primary key, v2 STRUCT<v1 INT, v2 STRUCT<v1 INT, v2 INT>>)",
        "CREATE TABLE t (v1 INT PRIMARY KEY, v2 STRUCT<v1 INT, v2 STRUCT<v1 INT, v2 INT>>)",
        "e2e_test/ddl/alter_rename.slt:65",
    ),
    (
        "create table t (a int default 1 not null, b timestamptz as proctime(), primary key (a))"
        " append only on conflict do nothing",
        "CREATE TABLE t (a INT DEFAULT 1 NOT NULL, b timestamptz AS proctime(), PRIMARY KEY (a))"
        " APPEND ONLY ON CONFLICT DO NOTHING",
        "ast/mod.rs:2044-2150; ddl.rs:1179-1220",
    ),
    (
        'create table t (v varchar collate "C", w int constraint c not null)',
        "CREATE TABLE t (v CHARACTER VARYING, w INT CONSTRAINT c NOT NULL)",
        "ddl.rs:1089-1106 (ColumnDef prints no COLLATE)",
    ),
    (
        'CREATE TABLE T ("FULL" INT) ON CONFLICT DO UPDATE FULL WITH VERSION COLUMN("FULL")',
        'CREATE TABLE T ("FULL" INT) ON CONFLICT DO UPDATE FULL WITH VERSION COLUMN("FULL")',
        T + "create.yaml:111",
    ),
    (
        "CREATE TABLE t (id INT PRIMARY KEY, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL '1'"
        " MINUTE WITH TTL)",
        "CREATE TABLE t (id INT PRIMARY KEY, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL '1'"
        " MINUTE WITH TTL)",
        T + "create.yaml:67",
    ),
    (
        "CREATE TABLE msrc (v INT) WITH (\n    connector = 'datagen',\n    fields.v.kind ="
        " 'sequence',"
        "\n    datagen.rows.per.second='15'\n) FORMAT PLAIN ENCODE JSON",
        "CREATE TABLE msrc (v INT) WITH (connector = 'datagen', fields.v.kind = 'sequence',"
        " datagen.rows.per.second = '15') FORMAT PLAIN ENCODE JSON",
        "e2e_test/ddl/alter_rename.slt:213",
    ),
    (
        "create table t (v int) with (connector = 'datagen')",
        "CREATE TABLE t (v INT) WITH (connector = 'datagen') FORMAT NATIVE ENCODE NATIVE",
        "statement.rs:270-276 (datagen without FORMAT is NATIVE)",
    ),
    (
        "create table t as select 1 as a",
        "CREATE TABLE t AS SELECT 1 AS a",
        "ast/mod.rs:2102-2109 (no () before AS)",
    ),
    (
        "CREATE MATERIALIZED VIEW IF NOT EXISTS mv AS SELECT v1, (t.v2).v1 AS v21 FROM t",
        "CREATE MATERIALIZED VIEW mv AS SELECT v1, (t.v2).v1 AS v21 FROM t",
        "e2e_test/ddl/alter_rename.slt:10,90",
    ),
    (
        "create or replace materialized view mv (a) with (x = 1) as select 1 from t emit on"
        " window close",
        "CREATE MATERIALIZED VIEW mv WITH (x = 1) (a) AS SELECT 1 FROM t EMIT ON WINDOW CLOSE",
        "ast/mod.rs:2044-2070 (WITH before the column list: RisingWave cannot re-parse it)",
    ),
    (
        "CREATE MATERIALIZED VIEW mv WITH (backfill_order = FIXED(t1 -> t2, t2 -> t3)) AS SELECT *"
        " FROM t1 JOIN t2 ON t1.id = t2.id JOIN t3 ON t2.id = t3.id",
        "CREATE MATERIALIZED VIEW mv WITH (backfill_order = FIXED(t1 -> t2, t2 -> t3)) AS SELECT *"
        " FROM t1 JOIN t2 ON t1.id = t2.id JOIN t3 ON t2.id = t3.id",
        T + "create.yaml:250",
    ),
    (
        "CREATE MATERIALIZED VIEW mv AS\nWITH a_log AS changelog FROM a,\n     b_log AS"
        " changelog FROM"
        " b\nSELECT 'a' AS tbl, * FROM a_log\nUNION ALL\nSELECT 'b', * FROM b_log",
        "CREATE MATERIALIZED VIEW mv AS WITH a_log AS changelog from a, b_log AS changelog from b"
        " SELECT 'a' AS tbl, * FROM a_log UNION ALL SELECT 'b', * FROM b_log",
        "e2e_test/ddl/alter_rename.slt:309",
    ),
    (
        "CREATE index IF NOT EXISTS idx ON t(v1)",
        "CREATE INDEX idx ON t(v1)",
        "e2e_test/ddl/alter_rename.slt:170",
    ),
    (
        "CREATE UNIQUE INDEX idx_name ON test USING hnsw (name, age DESC) INCLUDE(other)"
        " DISTRIBUTED BY(name) WITH (m = 16)",
        "CREATE UNIQUE INDEX idx_name ON test USING hnsw (name, age DESC) INCLUDE(other)"
        " DISTRIBUTED BY(name) WITH (m = 16)",
        T + "create.yaml:247",
    ),
    (
        "create index i on t (a) include (b, c)",
        "CREATE INDEX i ON t(a) INCLUDE(b,c)",
        "ast/mod.rs:2151-2189 (INCLUDE joined by ,)",
    ),
    (
        "CREATE SOURCE src (v INT) WITH (\n    connector = 'datagen',\n    fields.v.end  = '10'\n)"
        " FORMAT PLAIN ENCODE JSON",
        "CREATE SOURCE src (v INT) WITH (connector = 'datagen', fields.v.end = '10') FORMAT PLAIN"
        " ENCODE JSON",
        "e2e_test/ddl/alter_rename.slt:205",
    ),
    (
        'CREATE SOURCE bid (auction INTEGER, WATERMARK FOR auction AS auction - 1, "date_time"'
        " TIMESTAMP) with (connector = 'nexmark', nexmark.table.type = 'Bid')",
        'CREATE SOURCE bid (auction INT, "date_time" TIMESTAMP, WATERMARK FOR auction AS auction'
        " - 1) WITH (connector = 'nexmark', nexmark.table.type = 'Bid') FORMAT NATIVE ENCODE"
        " NATIVE",
        T + "create.yaml:63",
    ),
    (
        "CREATE SOURCE mysql_src with ( connector = 'mysql-cdc', hostname = 'localhost' )",
        "CREATE SOURCE mysql_src WITH (connector = 'mysql-cdc', hostname = 'localhost')",
        T + "create.yaml:43",
    ),
    (
        "CREATE SOURCE s (raw BYTEA) INCLUDE header 'foo' VARCHAR AS foo_str WITH (connector ="
        " 'kafka', topic = 'dummy') FORMAT plain ENCODE bytes",
        "CREATE SOURCE s (raw BYTEA) INCLUDE header 'foo' CHARACTER VARYING AS foo_str WITH"
        " (connector = 'kafka', topic = 'dummy') FORMAT PLAIN ENCODE BYTES",
        T + "create.yaml:87",
    ),
    (
        "CREATE SINK sink AS SELECT mv3.v1 AS v1, mv3.v21 AS v2 FROM mv AS mv3 WITH (\n"
        "    connector = 'blackhole'\n)",
        "CREATE SINK sink AS SELECT mv3.v1 AS v1, mv3.v21 AS v2 FROM mv AS mv3 WITH (connector ="
        " 'blackhole')",
        "e2e_test/ddl/alter_rename.slt:13,108",
    ),
    (
        "CREATE SINK snk FROM mv WITH (connector = 'kafka', connection = connection my_kafka_conn,"
        " topic = 'test_topic') format plain encode json key encode bytes",
        "CREATE SINK snk FROM mv WITH (connector = 'kafka', connection = my_kafka_conn, topic ="
        " 'test_topic') FORMAT PLAIN ENCODE JSON KEY ENCODE BYTES",
        T + "create.yaml:177",
    ),
    ("CREATE SINK snk into t FROM MV", "CREATE SINK snk INTO t FROM MV", T + "create.yaml:181"),
    (
        "create sink s into t (a, b) as select 1, 2",
        "CREATE SINK s INTO t (a, b) AS SELECT 1, 2",
        "statement.rs:587-610",
    ),
    (
        "create sink s from mv with (connector = 'kafka', password = secret p as file)",
        "CREATE SINK s FROM mv WITH (connector = 'kafka', password = secret p AS FILE)",
        "ast/mod.rs:3353-3366 SqlOptionValue",
    ),
    (
        "CREATE SUBSCRIPTION subscription FROM mv WITH (\n    retention = '1D'\n)",
        "CREATE SUBSCRIPTION subscription FROM mv WITH (retention = '1D')",
        "e2e_test/ddl/alter_rename.slt:18,115",
    ),
]
