"""Column names RisingWave keeps for itself: refused as a table's column, a materialized view's
column name and a select list's alias (``check_column_name_not_reserved``,
src/frontend/src/catalog/mod.rs:65-91; called by create_table.rs:178 bind_sql_columns,
create_mv.rs:150 for a column-name list, binder/select.rs:355 for every ``expr AS alias``);
and the one check bind_sql_columns makes of a column's COLLATE (create_table.rs:150-167).
"""

from __future__ import annotations

import re

from rwshim.errors import InternalError, InvalidInputSyntax, NotImplementedError_, NotSupported

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


def check_collation(type_text: str, collation: str | None) -> None:
    """A column's ``COLLATE``, as bind_sql_columns checks it (create_table.rs:150-167): only
    ``C`` and ``POSIX`` (the real value: a quoted name as written, so ``"pOsIx"`` fails), and
    only on TEXT, VARCHAR and CHAR, named by the AST type's Display (``INT``)."""
    if collation is None:
        return
    if collation not in ("C", "POSIX"):
        raise NotImplementedError_("Collate collation other than `C` or `POSIX` is not implemented")
    from rwshim.sql.unparse import nodes, parse_create
    from rwshim.sql.unparse.display import data_type

    stmt = parse_create(f"CREATE TABLE t (c {type_text})")
    assert isinstance(stmt, nodes.CreateTable)
    dt = stmt.columns[0].data_type
    if dt is None:
        return
    if dt.kind == "simple" and (
        dt.name in ("TEXT", "CHARACTER VARYING") or re.fullmatch(r"CHAR(\(\d+\))?", dt.name)
    ):
        return
    raise NotSupported(
        f"{data_type(dt)} is not a collatable data type",
        "The only built-in collatable data types are `varchar`, please check your type",
    )
