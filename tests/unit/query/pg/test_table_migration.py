"""The data-plane migration of a table ALTER TABLE changed (rwshim/dataplane/plan/ddl.py
``table_migration``): columns matched by name and column id, dropped ones go with CASCADE,
added ones come with their DEFAULT, anything else is refused."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from rwshim.binder.relations import RelColumn
from rwshim.dataplane.plan import ddl
from rwshim.errors import InternalError

from .conftest import INT, VARCHAR, Catalog


def _same(e: str) -> str:
    return e


def test_drop_and_add_by_column_id(catalog: Catalog) -> None:
    t = catalog.table(
        "t",
        [RelColumn("k", INT, column_id=1), RelColumn("a", INT, column_id=2),
         RelColumn("b", VARCHAR, column_id=3)],
        pk=("k",),
    )  # fmt: skip
    old = ddl.table(t, _same).signature
    # b dropped, then a new b (another id) and c added with defaults
    cols = (
        t.columns[0],
        t.columns[1],
        RelColumn("b", VARCHAR, default_expr="'x'", column_id=4),
        RelColumn("c", INT, default_expr="1 + 1", column_id=5),
    )
    q = f'rw."t{t.id}"'
    assert ddl.table_migration(old, replace(t, columns=cols), _same) == [
        f'ALTER TABLE {q} DROP COLUMN "b" CASCADE',
        f"ALTER TABLE {q} ADD COLUMN \"b\" character varying DEFAULT ('x')",
        f'ALTER TABLE {q} ADD COLUMN "c" integer DEFAULT (1 + 1)',
    ]
    # nothing changed: nothing to run
    assert ddl.table_migration(old, t, _same) == []


def test_a_signature_without_ids_matches_by_name(catalog: Catalog) -> None:
    t = catalog.table(
        "t", [RelColumn("a", INT, column_id=1), RelColumn("b", INT, column_id=2)], pk=("a",)
    )
    signature = ddl.table(t, _same).signature
    older = signature.replace(",1]", "]").replace(",2]", "]")  # an rwshim before ids
    assert older != signature
    assert ddl.table_migration(older, t, _same) == []
    dropped = replace(t, columns=(t.columns[0],))
    assert ddl.table_migration(older, dropped, _same) == [
        f'ALTER TABLE rw."t{t.id}" DROP COLUMN "b" CASCADE'
    ]


def test_what_alter_table_never_does_is_refused(catalog: Catalog) -> None:
    t = catalog.table(
        "t", [RelColumn("a", INT, column_id=1), RelColumn("b", INT, column_id=2)], pk=("a",)
    )
    old = ddl.table(t, _same).signature
    retyped = replace(t, columns=(t.columns[0], RelColumn("b", VARCHAR, column_id=2)))
    with pytest.raises(InternalError, match="has another b"):
        ddl.table_migration(old, retyped, _same)
    swapped = replace(t, columns=(t.columns[1], t.columns[0]))  # the key stays a
    with pytest.raises(InternalError, match="in another order"):
        ddl.table_migration(old, swapped, _same)
