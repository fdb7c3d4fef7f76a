"""RisingWave's row ids on the data plane: ``rwfn.row_id(seq)`` (the generator of the hidden
``_row_id`` and ``_changelog_row_id`` columns) and ``rwfn.serial_to_timestamptz`` (the cast
``serial -> timestamptz``, src/expr/impl/src/scalar/cast.rs:167-172); the layout and the rule
are rwshim/dataplane/plan/row_ids.py's."""

from __future__ import annotations

from rwshim.dataplane.plan.row_ids import SQL
from rwshim.dataplane.plan.sqlfn.common import register

register(SQL)
