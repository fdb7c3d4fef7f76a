"""RisingWave's row ids (the hidden ``_row_id`` of a table without a primary key, a changelog
CTE's ``_changelog_row_id``): the layout, the ``serial -> timestamptz`` cast that reads it, and
the SQL that generates them on the data plane (no I/O).

RisingWave (448c657), ``src/common/src/util/row_id.rs``: a row id is a snowflake id,

    | timestamp | vnode & sequence |
    |  41 bits  |     22 bits      |      (row_id.rs:93-100, TIMESTAMP_SHIFT_BITS = 22 :24)

the timestamp in milliseconds since RisingWave's epoch 2021-04-01T00:00:00Z
(``UNIX_RISINGWAVE_DATE_EPOCH``, src/common/src/util/epoch.rs:23-28); the vnode takes 10 bits
for a vnode count up to 1024, else the bits of the next power of two (``bit_for_vnode``
:133-149), the sequence the rest (``sequence_upper_bound`` :183-185).  A generator's ids always
rise: when a millisecond's sequences are used up it waits for the next millisecond
(``try_update_timestamp`` :50-84).  ``row_id_to_unix_millis`` (:120-128) is what the cast
``serial -> timestamptz`` reads (src/expr/impl/src/scalar/cast.rs:167-172,
``serial_to_timestamptz``; cast table: src/frontend/src/expr/type_inference/cast.rs:342, G
to A explicit).

Here the ids of one table (one log of a changelog CTE) come from one PostgreSQL sequence read
through ``rwfn.row_id(seq)``: the id is ``(rwshim's clock in ms since RisingWave's epoch) <<
22`` when the sequence is below that, else the sequence's next value.  So every id decodes
(``unix_millis``) to the time rwshim's clock showed when the row was written, or, past 2**22
rows in one millisecond, to a later millisecond (RisingWave's generator waits for that
millisecond; a manual clock does not move, so the ids take it).  Differs: RisingWave's
generator spreads a millisecond's ids over its actor's vnodes round-robin (the vnode bits
change first, :206-227); rwshim's counts through the 22 low bits (vnode 0's sequences first),
so the ids rise in the order the rows were written.  Every id is still a valid RisingWave id
(``vnode_of`` decodes it).  The clock is the setting ``rw.clock_ms``, set on the connection of
every statement that writes (``dataplane/epochs.py``): an id without it is refused, never made
up.
"""

from __future__ import annotations

from rwshim.dataplane.plan.names import FUNCTION_SCHEMA as F

# row_id.rs:24 / :27; epoch.rs:23 (UNIX_RISINGWAVE_DATE_SEC = 1_617_235_200)
TIMESTAMP_SHIFT_BITS = 22
COMPAT_VNODE_BITS = 10
RISINGWAVE_EPOCH_MS = 1_617_235_200_000
# the connection setting holding rwshim's clock (Unix ms) for the ids a statement makes
CLOCK_SETTING = "rw.clock_ms"


def bit_for_vnode(vnode_count: int) -> int:
    """The bits of the vnode part (row_id.rs:133-149)."""
    if vnode_count <= 1 << COMPAT_VNODE_BITS:
        return COMPAT_VNODE_BITS
    return (vnode_count - 1).bit_length()  # next_power_of_two().ilog2()


def sequence_upper_bound(vnode_count: int) -> int:
    """The sequences of one vnode in one millisecond, exclusive (row_id.rs:183-185)."""
    return 1 << (TIMESTAMP_SHIFT_BITS - bit_for_vnode(vnode_count))


def make(unix_ms: int, vnode: int, sequence: int, vnode_count: int = 256) -> int:
    """The id of ``sequence`` on ``vnode`` at ``unix_ms`` (row_id.rs:222-226)."""
    vnode_bit = bit_for_vnode(vnode_count)
    return (
        (unix_ms - RISINGWAVE_EPOCH_MS) << TIMESTAMP_SHIFT_BITS
        | vnode << (TIMESTAMP_SHIFT_BITS - vnode_bit)
        | sequence
    )


def unix_millis(row_id: int) -> int:
    """``row_id_to_unix_millis`` (row_id.rs:120-128): what ``_row_id::timestamptz`` shows."""
    return (row_id >> TIMESTAMP_SHIFT_BITS) + RISINGWAVE_EPOCH_MS


def vnode_of(row_id: int, vnode_count: int) -> int:
    """``compute_vnode_from_row_id`` (row_id.rs:166-176)."""
    vnode_bit = bit_for_vnode(vnode_count)
    part = (row_id >> (TIMESTAMP_SHIFT_BITS - vnode_bit)) & ((1 << vnode_bit) - 1)
    return part % vnode_count


def next_id(last: int | None, clock_ms: int) -> int:
    """The id rwshim gives after ``last`` (None: the first) at ``clock_ms``: what
    ``rwfn.row_id`` computes in SQL."""
    base = (clock_ms - RISINGWAVE_EPOCH_MS) << TIMESTAMP_SHIFT_BITS
    return base if last is None or last + 1 < base else last + 1


def sequence_sql(qualified_sequence: str) -> str:
    """The sequence of one table's (or log's) ids: it starts at 0, since the clock sets it."""
    return f"CREATE SEQUENCE {qualified_sequence} MINVALUE 0 START WITH 0"


def default_sql(qualified_sequence: str) -> str:
    """A column's DEFAULT giving it the next id from ``qualified_sequence``."""
    literal = qualified_sequence.replace("'", "''")
    return f"{F}.row_id('{literal}'::regclass)"


# The generator (``next_id`` in SQL), called for every row: no SECURITY DEFINER and no SET
# clause (each costs a user switch or a GUC save per call; the data role may use and set the
# sequences of schema rw, roles.py), names qualified.  ``setval`` moves the sequence up to the
# clock once per millisecond; nextval's value is never handed out twice, so a later call sees
# the sequence past it.  Without the clock setting it refuses.
SQL = f"""
CREATE OR REPLACE FUNCTION {F}.row_id(seq regclass) RETURNS bigint LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
  clock text := pg_catalog.current_setting('{CLOCK_SETTING}', true);
  base bigint;
  n bigint;
BEGIN
  IF clock IS NULL OR clock = '' THEN
    RAISE EXCEPTION 'not supported by rwshim: a row id made without rwshim''s clock';
  END IF;
  base := (clock::bigint - {RISINGWAVE_EPOCH_MS}) << {TIMESTAMP_SHIFT_BITS};
  n := pg_catalog.nextval(seq);
  IF n < base THEN
    PERFORM pg_catalog.setval(seq, base);
    RETURN base;
  END IF;
  RETURN n;
END $$;
CREATE OR REPLACE FUNCTION {F}.serial_to_timestamptz(id bigint) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT 'epoch'::pg_catalog.timestamptz
    + ((id >> {TIMESTAMP_SHIFT_BITS}) + {RISINGWAVE_EPOCH_MS}) * interval '1 millisecond'
$$;
"""
