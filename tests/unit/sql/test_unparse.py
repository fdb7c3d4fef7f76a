"""The printer (rwshim/sql/unparse) against RisingWave's stored texts: the case table of
unparse_cases.py, every case printed once more unchanged (RisingWave re-parses what it
stored), the rename rewrites of src/meta/src/controller/rename.rs's own tests, and the
read-query templates of materialized views."""

from __future__ import annotations

import pytest

from rwshim.sql.unparse import (
    UnparseError,
    definition,
    print_query,
    rename_refs,
    rename_relation,
    view_definition,
    view_sql,
)
from rwshim.sql.unparse.bound import Template, View, render, template
from tests.unit.sql.unparse_cases import CASES


def _print(text: str) -> str:
    return definition(text) if text.lstrip().upper().startswith("CREATE") else print_query(text)


@pytest.mark.parametrize(("text", "stored", "source"), CASES, ids=[c[2] for c in CASES])
def test_stored_text(text: str, stored: str, source: str) -> None:
    assert _print(text) == stored


REPARSED = [c for c in CASES if "cannot re-parse" not in c[2]]


@pytest.mark.parametrize(("text", "stored", "source"), REPARSED, ids=[c[2] for c in REPARSED])
def test_stored_text_is_a_fixed_point(text: str, stored: str, source: str) -> None:
    assert _print(stored) == stored


def test_view_definition_is_the_query_display_after_create_view() -> None:
    # view_catalog.rs:68-74: columns and WITH options are not part of it; the schema only
    # outside public; the name unquoted (create_view.rs:110 stores the query's Display)
    sql = view_sql("create view if not exists v (a) as ( SELECT * FROM t_as WHERE id = 1)")
    assert sql == "(SELECT * FROM t_as WHERE id = 1)"
    assert (
        view_definition("public", "v", sql) == "CREATE VIEW v AS (SELECT * FROM t_as WHERE id = 1)"
    )
    assert view_definition("s", "My V", "SELECT 1") == "CREATE VIEW s.My V AS SELECT 1"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("select * from (t1 join t2 on true) j", "parser.rs:5547-5573: a nested join has no alias"),
        ("select a isnull", "parser.rs:1690: ISNULL has a precedence but no infix parser"),
        ("select array[[array[1, 2]], [[3, 4]]]", "parser.rs:1132-1167: uneven array depth"),
    ],
)
def test_forms_risingwave_rejects_are_refused(text: str, why: str) -> None:
    with pytest.raises(UnparseError):
        print_query(text)


# src/meta/src/controller/rename.rs:505-590 (its unit tests) and e2e_test/ddl/alter_rename.slt
RENAMES = [
    ("CREATE INDEX idx1 ON foo(v1 DESC, v2)", "CREATE INDEX idx1 ON bar(v1 DESC, v2)"),
    (
        "CREATE SINK sink_t FROM foo WITH (connector = 'kafka', format = 'append_only')",
        "CREATE SINK sink_t FROM bar WITH (connector = 'kafka', format = 'append_only')",
    ),
    (
        "CREATE MATERIALIZED VIEW mv1 AS SELECT foo.v1 AS m1v, foo.v2 AS m2v FROM foo",
        "CREATE MATERIALIZED VIEW mv1 AS SELECT foo.v1 AS m1v, foo.v2 AS m2v FROM bar AS foo",
    ),
    (
        "CREATE MATERIALIZED VIEW mv1 AS SELECT bar.v1 AS m1v, (bar.v2).v3 AS m2v FROM foo AS bar"
        " WHERE bar.v1 = 1",
        "CREATE MATERIALIZED VIEW mv1 AS SELECT bar.v1 AS m1v, (bar.v2).v3 AS m2v FROM bar AS bar"
        " WHERE bar.v1 = 1",
    ),
    (
        "CREATE MATERIALIZED VIEW mv1 AS SELECT agg1(foo.v1, func2(foo.v2) ORDER BY (SELECT foo.v3"
        " FROM foo), (SELECT first_value(foo.v4) OVER (PARTITION BY (SELECT foo.v5 FROM foo) ORDER"
        " BY (SELECT foo.v6 FROM foo)) FROM foo)) FROM foo",
        "CREATE MATERIALIZED VIEW mv1 AS SELECT agg1(foo.v1, func2(foo.v2) ORDER BY (SELECT foo.v3"
        " FROM bar AS foo), (SELECT first_value(foo.v4) OVER (PARTITION BY (SELECT foo.v5 FROM bar"
        " AS foo) ORDER BY (SELECT foo.v6 FROM bar AS foo)) FROM bar AS foo)) FROM bar AS foo",
    ),
    (
        "CREATE MATERIALIZED VIEW mv AS WITH a_log AS changelog from foo SELECT * FROM a_log",
        "CREATE MATERIALIZED VIEW mv AS WITH a_log AS changelog from bar SELECT * FROM a_log",
    ),
    (
        # QueryRewriter does not visit CASE (rename.rs:441-447): the subquery keeps the old name
        "CREATE MATERIALIZED VIEW m AS SELECT CASE WHEN (SELECT 1 FROM foo) THEN 1 END FROM foo",
        "CREATE MATERIALIZED VIEW m AS SELECT CASE WHEN (SELECT 1 FROM foo) THEN 1 END FROM bar"
        " AS foo",
    ),
    ("(SELECT * FROM foo WHERE id = 1)", "(SELECT * FROM bar AS foo WHERE id = 1)"),
]


@pytest.mark.parametrize(("before", "after"), RENAMES)
def test_rename_refs(before: str, after: str) -> None:
    assert rename_refs(before, "foo", "bar") == after


def test_rename_relation_names_the_object_with_quote_ident() -> None:
    assert (
        rename_relation("CREATE TABLE foo (a int, b int)", "bar")
        == "CREATE TABLE bar (a INT, b INT)"
    )
    # Ident::from_real_value quotes what QuoteIdent quotes (a keyword, upper case)
    assert rename_relation("CREATE TABLE foo (a INT)", "Select") == 'CREATE TABLE "Select" (a INT)'
    assert rename_refs("CREATE INDEX i ON t(a)", "t", "user") == 'CREATE INDEX i ON "user"(a)'


def test_template_renders_current_names_and_keeps_column_references() -> None:
    ids = {("t",): 1, ("s", "u"): 2}
    q = "select t.a, x.b from t join s.u x on t.a = x.a, (with t as (select 1) select * from t) q"
    tpl = template(q, lambda parts: ids.get(tuple(parts)))
    assert [r.relation_id for r in tpl.refs] == [1, 2]
    now = {1: ("dev", "public", "t"), 2: ("dev", "s", "u")}
    assert render(tpl, now.get, "dev") == (
        'select t.a, x.b from "public"."t" join "s"."u" x on t.a = x.a,'
        " (with t as (select 1) select * from t) q"
    )
    moved = {1: ("dev", "other", "t2"), 2: ("db2", "s", "u")}
    assert render(Template.from_json(tpl.to_json()), moved.get, "dev") == (
        'select t.a, x.b from "other"."t2" AS "t" join "db2"."s"."u" x on t.a = x.a,'
        " (with t as (select 1) select * from t) q"
    )


def test_template_expands_views_as_the_binder_did_at_create() -> None:
    # binder/relation/table_or_source.rs:594-660: a view is bound into the materialized view
    ids = {("v",): 7, ("t",): 1}
    views = {7: View("SELECT * FROM t WHERE a = 1", ("x", "y"))}
    tpl = template("select x from v, v as w", lambda p: ids.get(tuple(p)), views.get)
    assert [r.relation_id for r in tpl.refs] == [1, 1]
    now = {1: ("dev", "s", "t2")}
    assert render(tpl, now.get, "dev") == (
        'select x from (SELECT * FROM (SELECT * FROM "s"."t2" AS "t" WHERE a = 1) AS "v" ("x",'
        ' "y")) AS "v", (SELECT * FROM (SELECT * FROM "s"."t2" AS "t" WHERE a = 1) AS "v" ("x",'
        ' "y")) as w'
    )


@pytest.mark.parametrize(
    ("shape", "expr", "printed"),
    [
        ("a left-deep chain", "+".join(["v"] * 990), " + ".join(["v"] * 990)),
        ("nested calls", "f(" * 990 + "v" + ")" * 990, "f(" * 990 + "v" + ")" * 990),
        (
            "nested arrays",
            "ARRAY[" * 990 + "1" + "]" * 990,
            "ARRAY[" * 990 + "1" + "]" * 990,
        ),
    ],
)
def test_statements_within_the_depth_bound_are_printed(shape: str, expr: str, printed: str) -> None:
    # rwshim/sql/limits.py lets 1,000 levels through; RisingWave stores them (its frontend
    # grows its stack), so the printer must too, and leave the recursion limit as it was.
    import sys

    before = sys.getrecursionlimit()
    assert definition(f"CREATE MATERIALIZED VIEW m AS SELECT {expr} AS x FROM t") == (
        f"CREATE MATERIALIZED VIEW m AS SELECT {printed} AS x FROM t"
    )
    assert sys.getrecursionlimit() == before
