"""The data plane's rewrite: the user's text with physical names, expanded stars and
session-dependent functions spliced in, everything else as written."""

from __future__ import annotations

import pytest

from rwshim.binder.context import QueryContext
from rwshim.binder.relations import RelKind
from rwshim.dataplane.plan.route import Route
from rwshim.errors import CatalogNotFound, InvalidInputSyntax

from .conftest import INT, VARCHAR, Catalog, pg, route_of


def test_catalog_queries_stay_in_process(catalog: Catalog, ctx: QueryContext) -> None:
    catalog.table("t", [("a", INT)])
    assert route_of(catalog, ctx, "SELECT * FROM rw_catalog.rw_tables") is Route.CATALOG
    assert route_of(catalog, ctx, "SELECT relname FROM pg_class") is Route.CATALOG
    assert route_of(catalog, ctx, "SELECT * FROM t") is Route.DATA


def test_expressions_over_no_relation_run_on_postgres(catalog: Catalog, ctx: QueryContext) -> None:
    # (``SELECT 1`` itself never gets here: the frontend's constant fast path answers it)
    for text in (
        "SELECT 1",
        "SELECT array_min(ARRAY[1, 2])",
        "SELECT * FROM generate_series(1, 3)",
        "WITH c AS (SELECT 1 AS x) SELECT x + 1 FROM c",
        "VALUES (1, 'a'), (2, 'b')",
    ):
        assert route_of(catalog, ctx, text) is Route.DATA, text


def test_catalog_and_session_functions_keep_a_constant_in_process(
    catalog: Catalog, ctx: QueryContext
) -> None:
    for text in (
        "SELECT version()",
        "SELECT current_setting('timezone')",
        "SELECT set_config('search_path', 'public', false)",
        "SELECT pg_catalog.pg_get_userbyid(1)",
        "SELECT 'pg_class'::regclass",
        "SELECT current_user",
        "SELECT 1 + length(current_schema())",
    ):
        assert route_of(catalog, ctx, text) is Route.CATALOG, text


def test_names_become_physical_with_the_written_name_as_alias(
    catalog: Catalog, ctx: QueryContext
) -> None:
    t = catalog.table("t", [("a", INT)], pk=("a",))
    u = catalog.table("u", [("a", INT)], pk=("a",), schema="s")
    out = pg(catalog, ctx, "SELECT t.a, x.a FROM t JOIN s.u AS x ON t.a = x.a WHERE s.u.a > 0")
    assert out.text == (
        f'SELECT t.a, x.a FROM rw."t{t.id}" AS "t" JOIN rw."t{u.id}" AS x ON t.a = x.a '
        "WHERE s.u.a > 0"
    )
    assert sorted(out.relation_ids) == [t.id, u.id]


def test_schema_qualified_column_references_use_the_alias(
    catalog: Catalog, ctx: QueryContext
) -> None:
    u = catalog.table("u", [("a", INT)], pk=("a",), schema="s")
    out = pg(catalog, ctx, "SELECT s.u.a, dev.s.u.a FROM s.u WHERE s.u.a = 1")
    assert out.text == f'SELECT "u".a, "u".a FROM rw."t{u.id}" AS "u" WHERE "u".a = 1'


def test_cte_names_shadow_relations(catalog: Catalog, ctx: QueryContext) -> None:
    t = catalog.table("t", [("a", INT)], pk=("a",))
    out = pg(catalog, ctx, "WITH t AS (SELECT 1 AS a) SELECT * FROM t, public.t AS p")
    # (a table's star is listed out: its state also holds _rw_timestamp, plan/rw_timestamp.py)
    assert out.text == f'WITH t AS (SELECT 1 AS a) SELECT "t".*, "p"."a" FROM t, rw."t{t.id}" AS p'
    # a non-recursive CTE does not see itself: its body reads the table
    out = pg(catalog, ctx, "WITH t AS (SELECT a FROM t) SELECT a FROM t")
    assert out.text == f'WITH t AS (SELECT a FROM rw."t{t.id}" AS "t") SELECT a FROM t'


def test_star_over_hidden_columns_lists_the_visible_ones(
    catalog: Catalog, ctx: QueryContext
) -> None:
    t = catalog.table("t", [("a", INT), ("b", VARCHAR)])
    out = pg(catalog, ctx, "SELECT * FROM t")
    assert out.text == f'SELECT "t"."a", "t"."b" FROM rw."t{t.id}" AS "t"'
    out = pg(catalog, ctx, "SELECT t.*, _row_id FROM t")
    assert out.text == f'SELECT "t"."a", "t"."b", _row_id FROM rw."t{t.id}" AS "t"'
    out = pg(catalog, ctx, "TABLE t")
    assert out.text == f'SELECT "t"."a", "t"."b" FROM rw."t{t.id}" AS "t"'


def test_star_over_a_join_with_using_puts_the_merged_column_first(
    catalog: Catalog, ctx: QueryContext
) -> None:
    t = catalog.table("t", [("k", INT), ("a", INT)])
    u = catalog.table("u", [("b", INT), ("k", INT)], pk=("k",))
    out = pg(catalog, ctx, "SELECT * FROM t JOIN u USING (k)")
    assert out.text == (
        f'SELECT "k", "t"."a", "u"."b" FROM rw."t{t.id}" AS "t" JOIN rw."t{u.id}" AS "u" USING (k)'
    )
    out = pg(catalog, ctx, "SELECT * FROM t NATURAL JOIN (SELECT k, 1 AS c FROM u) s")
    assert out.text.startswith('SELECT "k", "t"."a", "s"."c" FROM')


def test_star_without_hidden_columns_is_kept(catalog: Catalog, ctx: QueryContext) -> None:
    t = catalog.table("t", [("a", INT)], pk=("a",))
    m = catalog.view("m", "SELECT a FROM t", [("a", INT)], RelKind.MATERIALIZED_VIEW)
    out = pg(catalog, ctx, "SELECT * FROM (SELECT * FROM m) AS s")
    assert out.text == f'SELECT * FROM (SELECT * FROM rw."v{m.id}" AS "m") AS s'
    # a table's is listed out, its key or not: its state also holds the system column
    # _rw_timestamp (plan/rw_timestamp.py)
    out = pg(catalog, ctx, "SELECT * FROM (SELECT * FROM t) AS s")
    assert out.text == f'SELECT * FROM (SELECT "t"."a" FROM rw."t{t.id}" AS "t") AS s'


def test_star_except_leaves_columns_out(catalog: Catalog, ctx: QueryContext) -> None:
    t = catalog.table("t", [("a", INT), ("b", INT), ("c", INT)], pk=("a",))
    out = pg(catalog, ctx, "SELECT * EXCEPT (b, C) FROM t")
    assert out.text.startswith('SELECT "t"."a"') and "EXCEPT" not in out.text
    assert out.text.endswith(f'FROM rw."t{t.id}" AS "t"')


def test_alias_column_list_reads_in_catalog_order(catalog: Catalog, ctx: QueryContext) -> None:
    t = catalog.table("t", [("a", INT), ("b", INT)])
    out = pg(catalog, ctx, "SELECT * FROM t AS x(p, q)")
    assert out.text == (
        f'SELECT "x"."p", "x"."q" FROM (SELECT "a", "b", "_row_id", "_rw_timestamp" FROM'
        f' rw."t{t.id}") AS x(p, q)'
    )


def test_value_functions_read_the_session(catalog: Catalog, ctx: QueryContext) -> None:
    t = catalog.table("t", [("a", INT)], pk=("a",))
    out = pg(
        catalog,
        ctx,
        "SELECT current_user, CURRENT_CATALOG, pg_catalog.current_database(), now() FROM t",
    )
    assert out.text == (
        'SELECT rwfn."current_user"(), rwfn.current_catalog(), rwfn.current_database(), now() '
        f'FROM rw."t{t.id}" AS "t"'
    )


def test_non_ascii_text_keeps_byte_offsets(catalog: Catalog, ctx: QueryContext) -> None:
    t = catalog.table("tä", [("é", INT)], pk=("é",))
    out = pg(catalog, ctx, 'SELECT \'ü\', "é" FROM "tä" WHERE "é" = 1')
    assert out.text == f'SELECT \'ü\', "é" FROM rw."t{t.id}" AS "tä" WHERE "é" = 1'


def test_unknown_relation_is_risingwaves_error(catalog: Catalog, ctx: QueryContext) -> None:
    catalog.table("t", [("a", INT)], pk=("a",))
    with pytest.raises(CatalogNotFound) as e:
        pg(catalog, ctx, "SELECT * FROM t, nosuch")
    assert e.value.chain == ["Catalog error", "table or source not found: nosuch"]


def test_cross_database_read_resolves_in_the_other_database(
    catalog: Catalog, ctx: QueryContext
) -> None:
    o = catalog.table("t", [("a", INT)], pk=("a",), db=2)
    out = pg(catalog, ctx, "SELECT a FROM other.public.t")
    assert out.text == f'SELECT a FROM rw."t{o.id}" AS "t"'
    with pytest.raises(InvalidInputSyntax) as e:
        pg(catalog, ctx, "INSERT INTO other.public.t VALUES (1)")
    assert str(e.value) == (
        'Invalid input syntax: cross-database references are not implemented: "other.public.t"'
    )


def test_double_type_name(catalog: Catalog, ctx: QueryContext) -> None:
    t = catalog.table("t", [("a", INT)], pk=("a",))
    out = pg(catalog, ctx, "SELECT a::double FROM t")
    assert out.text == f'SELECT a::double precision FROM rw."t{t.id}" AS "t"'


def test_tumble_and_hop_read_their_relation(catalog: Catalog, ctx: QueryContext) -> None:
    t = catalog.table("ev", [("id", INT), ("ts", INT)])
    out = pg(catalog, ctx, "SELECT * FROM TUMBLE(ev, ts, INTERVAL '1 minute') WHERE id = 1")
    assert out.text == (
        'SELECT * FROM (SELECT "__rw_w"."id", "__rw_w"."ts", '
        "rwfn.tumble_start(ts, INTERVAL '1 minute') AS window_start, "
        "rwfn.tumble_start(ts, INTERVAL '1 minute') + (INTERVAL '1 minute') AS window_end "
        f'FROM rw."t{t.id}" AS "__rw_w") AS "ev" WHERE id = 1'
    )
    assert out.relation_ids == (t.id,)
    out = pg(catalog, ctx, "SELECT h.window_start FROM hop(ev, ts, '1 m', '2 m', '0 s') AS h")
    assert "rwfn.hop_starts(ts, '1 m', '2 m', '0 s') AS __rw_h(window_start)" in out.text
    assert out.text.endswith(") AS h")
