"""A table's storage retention (``WITH (retention_seconds = n)``, table TTL) on reads (no I/O).

RisingWave (448c657): a table's ``retention_seconds`` is its state table's TableOption
(handler/create_table.rs:758, optimizer/mod.rs:1108; an index of it gets the same:
handler/create_index.rs:366, :432; a materialized view none: optimizer/mod.rs:1172-1192).  A
read at epoch ``e`` skips every key whose write epoch is below ``gen_min_epoch(e, n)``, ``e``
less n seconds (src/storage/src/store.rs:554-566; the iterators' ``epoch < min_epoch``,
hummock/iterator/forward_user.rs:43-44, :208; hummock/store/version.rs:650-671); compaction
drops them later (compactor/compaction_utils.rs:170-174).  A batch read's epoch is the
committed one, whose time is the batch ``now()`` (scheduler/snapshot.rs:132-145).

Here a table's rows carry their write epoch's time in ``_rw_timestamp`` (rw_timestamp.py), so
a read of a table with retention reads ``source``: its rows whose ``_rw_timestamp`` is not
before the read's ``now()`` (rwfn's, the batch ``now()`` on a reading connection) less n
seconds.  The rows stay in PostgreSQL (as in RisingWave's storage until a compaction).  An
index reads its table (catalog_path/store_source.py), so it hides the same rows.

Differs / refused:
- RisingWave's index writes the rows its backfill copies in the epochs of the backfill, so
  they expire n seconds after the index's creation; here they expire with the table's rows.
- A materialized view's or sink's state in RisingWave keeps what its backfill and the stream
  brought (no delete flows from expiry; its own state has no retention), while rwshim
  computes it again from its query at barriers (dataplane/epochs.py): it would drop the
  expired rows.  A streaming job reading such a table is refused (``streaming_refusal``).
- UPDATE and DELETE of such a table (possible only with
  ``unsafe_enable_storage_retention_for_non_append_only_tables``) are refused: RisingWave's
  scan does not see the expired rows (delete.rs:146-188), PostgreSQL's target would.
- Time travel (``FOR SYSTEM_TIME AS OF``) of such a table is refused.
"""

from __future__ import annotations

from rwshim.binder.relations import Relation, RelKind
from rwshim.dataplane.plan import names, tree
from rwshim.dataplane.plan.names import FUNCTION_SCHEMA as F
from rwshim.dataplane.plan.names import quote_ident as qi
from rwshim.errors import RwError

COLUMN = "_rw_timestamp"  # (rw_timestamp.COLUMN)


def applies(rel: object) -> bool:
    """Whether reads of ``rel`` hide expired rows."""
    return isinstance(rel, Relation) and rel.kind == RelKind.TABLE and rel.retention_seconds > 0


def source(rel: Relation) -> str:
    """What a table with retention reads as: its rows not expired at the read's epoch."""
    cutoff = f"{F}.now() - interval '{int(rel.retention_seconds)} seconds'"
    return f"(SELECT * FROM {names.qualified_table(rel.id)} WHERE {qi(COLUMN)} >= {cutoff})"


def refusal(rel: Relation, what: str) -> RwError:
    """``what`` (a DML, time travel) of a table with retention."""
    return RwError(
        f"not supported by rwshim: {what} of a table with retention_seconds ({rel.name}):"
        " rwshim keeps the expired rows in PostgreSQL and filters them out on reads only"
    )


def streaming_refusal(rel: Relation) -> RwError:
    """A materialized view or sink reading a table with retention."""
    return RwError(
        "not supported by rwshim: a materialized view or sink reading a table with"
        f" retention_seconds ({rel.name}): RisingWave's state keeps the rows its backfill and"
        " stream brought after they expire in the table, rwshim computes the state again from"
        " the table at barriers and would drop them"
    )


def splice(ref: tree.RelRef, rel: object, phys: str) -> str:
    """What the relation named at ``ref`` reads as, ``phys`` its physical object: a table
    with retention read as ``source``, its UPDATE / DELETE target refused (an INSERT's is the
    table)."""
    if not applies(rel):
        return phys
    assert isinstance(rel, Relation)
    if ref.target in ("update", "delete"):
        raise refusal(rel, ref.target.upper())
    return phys if ref.target is not None else source(rel)
