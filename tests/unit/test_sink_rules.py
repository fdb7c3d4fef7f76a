"""The I/O-free rules of sinks: the sink type derived from the input's stream kind
(stream_sink.rs:742-807), the target columns a sink into a table fills
(create_sink.rs:980-1038), and the statements applying a sink's changes to a table."""

from __future__ import annotations

import pytest

from rwshim.binder.relations import Relation, RelColumn, RelKind
from rwshim.common import pgtypes
from rwshim.dataplane.sinks import into_table
from rwshim.dataplane.sinks.spec import SinkSpec
from rwshim.errors import InvalidInputSyntax
from rwshim.frontend.sink_rules import derive_sink_type


def _table(
    cols: list[RelColumn], pk: tuple[str, ...] = (), conflict: str = "overwrite"
) -> Relation:
    return Relation(7, "public", "t", RelKind.TABLE, tuple(cols), primary_key=pk, conflict=conflict)


def _spec(
    columns: tuple[str, ...], sink_type: str = "upsert", into: tuple[str, ...] = ()
) -> SinkSpec:
    return SinkSpec(
        id=9, name="s", database_id=1, sink_type=sink_type, target_id=7, connector=None,
        options={}, columns=columns, rw_types=("integer",) * len(columns), into_columns=into,
        snapshot=True, created=True, read_query="SELECT 1", owner_id=1,
    )  # fmt: skip


INT = pgtypes.INT4


def test_derive_sink_type() -> None:
    assert derive_sink_type(True, {}, None) == ("append-only", False)
    assert derive_sink_type(False, {}, None) == ("upsert", False)
    assert derive_sink_type(False, {"type": "append-only", "force_append_only": "true"}, None) == (
        "append-only",
        True,
    )
    with pytest.raises(InvalidInputSyntax) as e:
        derive_sink_type(False, {"type": "append-only"}, None)
    assert str(e.value).startswith(
        "Invalid input syntax: The sink of retract stream cannot be append-only."
    )
    with pytest.raises(InvalidInputSyntax) as e:
        derive_sink_type(True, {"type": "sideways"}, None)
    assert str(e.value) == (
        "Invalid input syntax: `type` must be append-only, retract, upsert, or debezium"
    )
    with pytest.raises(InvalidInputSyntax) as e:
        derive_sink_type(True, {"force_append_only": "yes"}, None)
    assert str(e.value) == "Invalid input syntax: `force_append_only` must be true or false"


def test_column_mapping_by_position_and_by_name() -> None:
    target = _table(
        [
            RelColumn("v1", INT),
            RelColumn("v2", INT),
            RelColumn("g", INT, generated_expr="v1 + v2"),
            RelColumn("v3", INT, default_expr="1000"),
            RelColumn("_row_id", pgtypes.INT8, hidden=True),
        ]
    )
    # by position over all the table's columns: the generated one is skipped, not shifted past
    assert into_table.column_mapping(target, ["a", "b", "c"], ()) == [("v1", 0), ("v2", 1)]
    assert into_table.column_mapping(target, ["a", "b", "c", "d"], ()) == [
        ("v1", 0),
        ("v2", 1),
        ("v3", 3),
    ]
    assert into_table.column_mapping(target, ["x", "y"], ("v3", "v1")) == [("v1", 1), ("v3", 0)]


def test_apply_upserts_by_the_key_and_appends_without_one() -> None:
    keyed = _table([RelColumn("a", INT), RelColumn("b", INT)], pk=("a",))
    stmts = into_table.apply(_spec(("a", "b")), keyed)
    # a key both gone and new is an update: OVERWRITE applies only its UpdateInsert
    # (mview/cache.rs:306-322); IGNORE deletes the row first; a NULL key is a value, deleted
    # by IS NOT DISTINCT FROM (issue_23857.slt)
    assert stmts[0] == (
        'DELETE FROM rw."t7" AS rw_x WHERE EXISTS (SELECT FROM (SELECT c0 FROM rwsink_g9'
        ' EXCEPT SELECT c0 FROM rwsink_c9) AS rw_g WHERE rw_x."a" IS NOT DISTINCT FROM rw_g.c0)'
    )
    assert stmts[1].startswith("WITH rw_s AS (") and "ON CONFLICT" in stmts[1]
    ignoring = _table([RelColumn("a", INT), RelColumn("b", INT)], pk=("a",), conflict="ignore")
    assert into_table.apply(_spec(("a", "b")), ignoring)[0] == (
        'DELETE FROM rw."t7" AS rw_x WHERE EXISTS (SELECT FROM (SELECT c0 FROM rwsink_g9)'
        ' AS rw_g WHERE rw_x."a" IS NOT DISTINCT FROM rw_g.c0)'
    )
    appended = into_table.apply(_spec(("a", "b"), "force-append-only"), keyed)
    assert not any(s.startswith("DELETE") for s in appended)
    row_id = _table(
        [RelColumn("a", INT), RelColumn("b", INT), RelColumn("_row_id", pgtypes.INT8, hidden=True)],
        pk=("_row_id",),
        conflict="no_check",
    )
    assert into_table.apply(_spec(("a", "b"), "append-only"), row_id) == [
        'INSERT INTO rw."t7" ("a", "b") SELECT c0, c1 FROM rwsink_c9'
    ]
