"""The hidden columns' functions on the data plane: ``rwfn.row_id(seq)`` (the generator of the
hidden ``_row_id`` and ``_changelog_row_id`` columns) and ``rwfn.serial_to_timestamptz`` (the
cast ``serial -> timestamptz``, src/expr/impl/src/scalar/cast.rs:167-172), whose layout and
rule are rwshim/dataplane/plan/row_ids.py's; ``rwfn.write_ts()`` and the trigger stamping a
table's ``_rw_timestamp`` (rwshim/dataplane/plan/rw_timestamp.py)."""

from __future__ import annotations

from rwshim.dataplane.plan import row_ids, rw_timestamp
from rwshim.dataplane.plan.sqlfn.common import register

register(row_ids.SQL)
register(rw_timestamp.SQL)
