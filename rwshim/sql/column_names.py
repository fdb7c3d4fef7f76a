"""Column names RisingWave keeps for itself: refused as a table's column, a materialized view's
column name and a select list's alias (``check_column_name_not_reserved``,
src/frontend/src/catalog/mod.rs:65-91; called by create_table.rs:178 bind_sql_columns,
create_mv.rs:150 for a column-name list, binder/select.rs:355 for every ``expr AS alias``).
"""

from __future__ import annotations

from rwshim.errors import InternalError, InvalidInputSyntax

ROW_ID_COLUMN_NAME = "_row_id"  # src/common/src/catalog/mod.rs:119
RW_RESERVED_COLUMN_NAME_PREFIX = "_rw_"  # src/common/src/catalog/mod.rs:93
SYSTEM_COLUMNS = ("tableoid", "xmin", "cmin", "xmax", "cmax", "ctid")


def check_not_reserved(name: str) -> None:
    """Refuse a column name (its real value: folded unless quoted) RisingWave reserves."""
    for prefix in (ROW_ID_COLUMN_NAME, RW_RESERVED_COLUMN_NAME_PREFIX):
        if name.startswith(prefix):
            raise InternalError(f'column name prefixed with "{prefix}" are reserved word.')
    if name in SYSTEM_COLUMNS:
        raise InvalidInputSyntax(f'column name "{name}" conflicts with a system column name')
