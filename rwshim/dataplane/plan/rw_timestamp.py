"""The hidden system column ``_rw_timestamp`` on the data plane (no I/O).

RisingWave (448c657): every table, materialized view and index has the system column
``_rw_timestamp`` (timestamptz, column id -1), added to the catalog and never stored
(src/frontend/src/catalog/table_catalog.rs:815-820, src/common/src/catalog/column.rs:404-415,
mod.rs:128-129); a batch scan that reads it gives each row the epoch of the row's version in
the state store, the epoch the write happened in, as a time (src/storage/src/table/
batch_table/mod.rs:451-463, :611-633: ``Epoch::from(key.epoch_with_gap.pure_epoch())
.as_scalar()``; src/common/src/util/epoch.rs:91-106).  A star leaves it out; a streaming
query may not read it (src/frontend/src/optimizer/mod.rs:720-725, RwTimestampValidator).

Here a table ``rw."t<id>"`` stores it as a real column (after the catalog's columns, so every
star over a table is listed out: rewrite.py ``has_hidden``): its DEFAULT is the setting
``rw.write_ts``, the time of the epoch the writing statement runs in, which the epoch writer
sets before each statement (dataplane/epochs.py: the epoch the last barrier started, the one
the next barrier commits: the same epoch the barrier's ``now()`` and the temporal joins label
its writes with, dataplane/temporal.py), and a BEFORE UPDATE trigger gives an updated row
that time too, unless the update left the row as it was (which RisingWave does not write:
src/batch/executors/src/executor/update.rs:184-190).  It costs each written row a default or
a trigger call and nothing at a barrier.  Without the setting a write is refused, never
stamped with a made-up time.

Differs: a materialized view's or index's ``_rw_timestamp`` is refused (``refusal``): their
state is computed again at the barriers (epochs.py), which keeps no write epoch per row.
Rows of a table made by an older rwshim, before the column existed, read NULL.  With
``checkpoint_frequency`` above 1 the epoch is the last checkpoint's (non-checkpoint barriers
do not reach the data plane).
"""

from __future__ import annotations

from collections.abc import Iterable

from rwshim.binder.relations import Relation, RelKind
from rwshim.dataplane.plan import names, tree
from rwshim.dataplane.plan.checks import nodes
from rwshim.dataplane.plan.names import FUNCTION_SCHEMA as F
from rwshim.dataplane.plan.names import quote_ident as qi
from rwshim.errors import RwError

COLUMN = "_rw_timestamp"  # src/common/src/catalog/mod.rs:128
# the connection setting holding the time of the epoch a statement writes in
SETTING = "rw.write_ts"
_TRIGGER = "rw_timestamp"  # (fires after ``conflict``: BEFORE triggers fire by name)

# ``write_ts()`` is inlined in the DEFAULT (a SQL function of one expression), so a row costs
# a setting read (the refusal is STABLE too, else the body would not inline; it runs only where
# the setting is missing).  No SET clause on the functions: each costs a GUC save per call.
SQL = f"""
CREATE OR REPLACE FUNCTION {F}.no_write_epoch() RETURNS text LANGUAGE plpgsql STABLE AS $$
BEGIN
  RAISE EXCEPTION 'not supported by rwshim: a write outside an epoch (no _rw_timestamp)';
END $$;
CREATE OR REPLACE FUNCTION {F}.write_ts() RETURNS timestamptz LANGUAGE sql STABLE AS $$
  SELECT COALESCE(
    NULLIF(pg_catalog.current_setting('{SETTING}', true), ''), {F}.no_write_epoch()
  )::pg_catalog.timestamptz
$$;
CREATE OR REPLACE FUNCTION {F}.rw_timestamp_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW::text IS DISTINCT FROM OLD::text THEN
    NEW.{COLUMN} := {F}.write_ts();
  END IF;
  RETURN NEW;
END $$;
"""


def column_sql() -> str:
    return f"{qi(COLUMN)} timestamptz DEFAULT {F}.write_ts()"


def table_statements(rel: Relation) -> list[str]:
    """After ``CREATE TABLE`` (whose column list ends with ``column_sql``): the trigger
    stamping updated rows."""
    return [
        f"CREATE TRIGGER {qi(_TRIGGER)} BEFORE UPDATE ON {names.qualified_table(rel.id)}"
        f" FOR EACH ROW EXECUTE FUNCTION {F}.rw_timestamp_stamp()"
    ]


def migration(rel: Relation) -> list[str]:
    """A table made before the column: it gains it (its rows read NULL) and the trigger."""
    table = names.qualified_table(rel.id)
    return [
        f"ALTER TABLE {table} ADD COLUMN {qi(COLUMN)} timestamptz",
        f"ALTER TABLE {table} ALTER COLUMN {qi(COLUMN)} SET DEFAULT {F}.write_ts()",
        *table_statements(rel),
    ]


def check(shape: tree.Shape, relations: Iterable[Relation]) -> None:
    """A statement naming ``_rw_timestamp`` while reading a materialized view or an index is
    refused (``refusal``): which of its relations the name is of is PostgreSQL's to resolve."""
    if COLUMN.encode() not in shape.text:
        return
    named = any(
        (ref.get("fields") or [{}])[-1].get("String", {}).get("sval") == COLUMN
        for ref in nodes(shape, "ColumnRef")
    )
    if not named:
        return
    for rel in relations:
        if rel.kind in (RelKind.MATERIALIZED_VIEW, RelKind.INDEX):
            raise refusal(rel)


def refusal(rel: Relation) -> RwError:
    kind = {RelKind.MATERIALIZED_VIEW: "a materialized view", RelKind.INDEX: "an index"}.get(
        rel.kind, "this relation"
    )
    return RwError(
        f"not supported by rwshim: {COLUMN} of {kind} ({rel.name}): rwshim computes its state"
        " again at each barrier and keeps no write epoch per row"
    )
