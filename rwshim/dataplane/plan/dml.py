"""INSERT / UPDATE / DELETE on the data plane: RisingWave's binder checks, the explicit INSERT
column list, and the upsert clause that gives a table RisingWave's conflict behaviour.

The checks follow src/frontend/src/binder/insert.rs (bind_insert, get_col_indices_to_insert),
update.rs (bind_update) and delete.rs (bind_delete), in their order.  The columns an INSERT
fills are the visible, non-generated ones (``TableCatalog::columns_to_insert``); without a
column list the source's width picks the first ones and the rest take their DEFAULT.

A table with a primary key upserts (handler/create_table.rs:671-705, ``EitherOnConflict``):
``overwrite`` (the default) replaces the row, ``ignore`` (ON CONFLICT DO NOTHING) keeps the old
one, ``if_not_null`` (DO UPDATE IF NOT NULL) takes the new row's non-NULL values; with version
columns (WITH VERSION COLUMN) a row older than the stored one changes nothing
(stream/executor/mview/cache.rs versions_are_newer_or_equal).  The clause
spliced is ``ON CONFLICT (<key>) DO UPDATE``, native and linear (bench/ measures it); for
``ignore`` it rewrites the old row with itself, so that PostgreSQL counts every input row as
RisingWave's tag does.  PostgreSQL refuses a key repeated within one statement (SQLSTATE 21000)
where RisingWave keeps the last row (the first for ``ignore``): for that case the rewrite also
gives a second text that numbers the source rows and keeps one per key, and counts the input.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rwshim.binder.relations import Relation, RelColumn
from rwshim.common import rwtypes
from rwshim.dataplane.plan import names, tree, typemap, typenames
from rwshim.dataplane.plan.names import quote_ident as qi
from rwshim.dataplane.plan.route import Routed
from rwshim.dataplane.plan.splice import (
    SpliceError,
    Splicer,
    alias_end,
    expr_end,
    keyword_before,
    name_end,
    paren_end,
    statement_end,
)
from rwshim.errors import BindError, BindExprError, InsertViolation, ItemNotFound
from rwshim.sql import column_exprs

# the system column every table has (src/common/src/catalog/mod.rs RW_TIMESTAMP_COLUMN_NAME)
RW_TIMESTAMP = "_rw_timestamp"

OVERWRITE = "overwrite"
IGNORE = "ignore"
IF_NOT_NULL = "if_not_null"
NO_CHECK = "no_check"


@dataclass(frozen=True, slots=True)
class DmlExtra:
    repeated_key_text: str | None = None
    # the repeated-key text returns one row: the number of input rows (the INSERT's tag)
    repeated_key_counts: bool = False


def insertable(rel: Relation) -> list[RelColumn]:
    """The columns an INSERT may name (visible and not generated)."""
    return [c for c in rel.columns if not c.hidden and c.generated_expr is None]


def user_key(rel: Relation) -> tuple[str, ...]:
    """The table's key when the user declared one (not the hidden ``_row_id``)."""
    hidden = {c.name for c in rel.columns if c.hidden}
    return () if any(k in hidden for k in rel.primary_key) else rel.primary_key


def splice(routed: Routed, sp: Splicer, source_width: int | None) -> DmlExtra:
    shape = routed.shape
    assert shape is not None
    rel = routed.target
    if rel is None:
        return DmlExtra()
    if shape.kind == "insert":
        return _insert(shape, rel, sp, source_width)
    if shape.kind == "update":
        _check_update(shape, rel)
    elif shape.kind == "delete" and shape.returning_level is not None:
        _check_returning(rel)
    return DmlExtra()


def _check_returning(rel: Relation) -> None:
    if any(c.generated_expr is not None for c in rel.columns):
        raise BindError("`RETURNING` clause is not supported for tables with generated columns")


def _generated_violation(name: str) -> InsertViolation:
    return InsertViolation(
        f'cannot insert a non-DEFAULT value into column "{name}"\n'
        f'  DETAIL: Column "{name}" is a generated column.'
    )


def _insert(shape: tree.Shape, rel: Relation, sp: Splicer, width: int | None) -> DmlExtra:
    info = shape.insert
    ref = shape.target
    assert info is not None and ref is not None
    text = shape.text
    generated = [c.name for c in rel.columns if c.generated_expr is not None]
    user_cols = [c for c, _ in info.columns]
    if user_cols:
        for c in user_cols:
            if c in generated:
                raise _generated_violation(c)
    if generated and info.returning:
        _check_returning(rel)
    allowed = insertable(rel)
    allowed_names = {c.name for c in allowed}
    seen: set[str] = set()
    for c in user_cols:
        if c in seen:
            raise BindError("Column specified more than once")
        seen.add(c)
        if c not in allowed_names:
            raise BindError(f"Column {c} not found in table {rel.name}")
    if not user_cols and width is not None:
        # the first generated column among all columns must lie past the source's width
        for i, col in enumerate(rel.columns):
            if col.generated_expr is not None:
                if width > i:
                    raise _generated_violation(col.name)
                break
    targets = len(user_cols) if user_cols else len(allowed)
    if width is not None:
        if user_cols and targets > width:
            raise BindError("INSERT has more target columns than expressions")
        if targets < width:
            raise BindError("INSERT has more expressions than target columns")
    # where the target (and its alias) ends: the column list goes there
    after = name_end(text, ref.location, len(ref.parts))
    if ref.alias is not None:
        after = alias_end(text, after, False)
    cols = user_cols or [c.name for c in allowed][: width if width is not None else None]
    source_start = after
    if info.has_source and not user_cols:
        sp.insert(after, " (" + ", ".join(qi(c) for c in cols) + ")")
    elif user_cols:
        source_start = paren_end(text, after)
    _struct_list_casts(shape, rel, cols, sp)
    typenames.inserted_variants(shape, rel, cols, sp)
    key = user_key(rel)
    behaviour = rel.conflict
    if not key or behaviour == NO_CHECK:
        return DmlExtra()
    end = _source_end(shape)
    alias = ref.exposed
    versions = rel.version_columns if behaviour != IGNORE else ()
    clause = upsert_clause(rel, key, behaviour, alias, versions)
    sp.insert(end, clause)
    if not info.has_source:
        return DmlExtra()
    # the source as spliced: its relation names are the physical ones (views.guarded refuses
    # a text naming any other)
    source = sp.section(source_start, end).strip()
    returning = _returning_text(shape)
    fallback = repeated_key_text(rel, key, behaviour, alias, cols, source, returning)
    return DmlExtra(fallback, fallback is not None and not returning)


def _struct_list_casts(shape: tree.Shape, rel: Relation, cols: Sequence[str], sp: Splicer) -> None:
    """An ``ARRAY[...]`` inserted into a list-of-structs column is cast to the column's type:
    RisingWave casts every inserted value to its column's type (insert.rs:397-420
    cast_on_insert, ``cast_assign``), and PostgreSQL coerces a ``ROW(...)`` to a composite
    column by itself but not a ``record[]`` to a composite array.  Only such array literals
    are cast: a cast PostgreSQL makes explicitly (it coerces the rows' fields as an explicit
    cast would) where it would otherwise refuse the statement."""
    info = shape.insert
    if info is None or not info.values_rows:
        return
    by_name = {c.name: c for c in rel.columns}
    targets: dict[int, str] = {}
    for i, name in enumerate(cols):
        col = by_name.get(name)
        if col is None or "struct" not in col.rw_type.lower():
            continue
        try:
            t = rwtypes.parse(col.rw_type)
        except (rwtypes.TypeSyntaxError, ValueError):
            continue
        if t.kind == "list" and t.innermost().kind == "struct":
            targets[i] = typemap.pg_type(t)
    if not targets:
        return
    for row in info.values_rows:
        for i, value in enumerate(row):
            if i not in targets or "A_ArrayExpr" not in value:
                continue
            start = value["A_ArrayExpr"].get("location", -1)
            if start < 0:
                continue
            try:
                end = expr_end(shape.text, start)
            except SpliceError:
                continue
            sp.insert(start, "CAST(")
            sp.insert(end, f" AS {targets[i]})")


def _source_end(shape: tree.Shape) -> int:
    info = shape.insert
    assert info is not None
    if info.returning:
        first = min(rt.get("location", -1) for rt in info.returning)
        return keyword_before(shape.text, first, b"RETURNING")
    return statement_end(shape.text)


def _returning_text(shape: tree.Shape) -> str:
    info = shape.insert
    assert info is not None
    if not info.returning:
        return ""
    start = _source_end(shape)
    return shape.text[start : statement_end(shape.text)].decode()


def newer_or_equal(versions: Sequence[str], old: str, new: str) -> str:
    """Whether the row ``new`` has versions newer than or equal to ``old``'s, compared
    lexicographically with NULL the smallest value (stream/executor/mview/cache.rs
    ``versions_are_newer_or_equal``: ``cmp_datum`` under ``ascending_nulls_first``)."""
    out = ""
    for i, v in reversed(list(enumerate(versions))):
        o, n = f"{old}.{qi(v)}", f"{new}.{qi(v)}"
        greater = f"({o} IS NOT NULL AND {n} IS NULL) OR COALESCE({o} > {n}, false)"
        if i == len(versions) - 1:
            out = f"NOT ({greater})"
            continue
        less = f"({o} IS NULL AND {n} IS NOT NULL) OR COALESCE({o} < {n}, false)"
        out = f"({less}) OR ({o} IS NOT DISTINCT FROM {n} AND ({out}))"
    return out


def _set_list(
    rel: Relation, key: Sequence[str], behaviour: str, alias: str, versions: Sequence[str]
) -> str:
    updatable = [
        c.name
        for c in rel.columns
        if c.name not in key and c.generated_expr is None and not c.hidden
    ]
    if not updatable:
        # nothing but the key: rewrite the key with itself (the row counts, nothing changes)
        return ", ".join(f"{qi(k)} = {qi(alias)}.{qi(k)}" for k in key[:1])
    if behaviour == IGNORE:
        return ", ".join(f"{qi(c)} = {qi(alias)}.{qi(c)}" for c in updatable)
    if behaviour == IF_NOT_NULL:
        values = {c: f"COALESCE(EXCLUDED.{qi(c)}, {qi(alias)}.{qi(c)})" for c in updatable}
    else:
        values = {c: f"EXCLUDED.{qi(c)}" for c in updatable}
    if versions:
        # an older row leaves the stored one as it is (cache.rs: need_overwrite), and still
        # counts in the tag: the old values are written back rather than the row skipped
        cond = newer_or_equal(versions, qi(alias), "EXCLUDED")
        values = {
            c: f"CASE WHEN {cond} THEN {v} ELSE {qi(alias)}.{qi(c)} END" for c, v in values.items()
        }
    return ", ".join(f"{qi(c)} = {v}" for c, v in values.items())


def upsert_clause(
    rel: Relation, key: Sequence[str], behaviour: str, alias: str, versions: Sequence[str] = ()
) -> str:
    """The ON CONFLICT clause giving the table its conflict behaviour (``versions``: its
    version columns, when the rows it writes were not already compared with the stored ones)."""
    target = ", ".join(qi(k) for k in key)
    return (
        f" ON CONFLICT ({target}) DO UPDATE SET {_set_list(rel, key, behaviour, alias, versions)} "
    )


def repeated_key_text(
    rel: Relation,
    key: Sequence[str],
    behaviour: str,
    alias: str,
    cols: Sequence[str],
    source: str,
    returning: str,
) -> str | None:
    """The INSERT rewritten to keep one row per key of its source (RisingWave's last row, or
    the first for ``ignore``); it counts the input rows unless it has a RETURNING list.

    Only run after the plain text failed with a repeated key, so the source has already been
    type-checked against the columns: the explicit casts here do not widen what is accepted.
    """
    versions = rel.version_columns if behaviour != IGNORE else ()
    if any(k not in cols for k in (*key, *versions)):
        return None
    by_name = {c.name: c for c in rel.columns}
    from rwshim.dataplane.plan.typemap import column_type

    def cast(c: str, expr: str) -> str:
        col = by_name[c]
        return f"{expr}::{column_type(col.type_oid, col.rw_type)}"

    src_cols = ", ".join(qi(c) for c in cols)
    ctes = [
        "rw_s AS (SELECT rw_src.*, row_number() OVER () AS rw_n "
        f"FROM ({source}) AS rw_src({src_cols}))"
    ]
    keys = ", ".join(qi(k) for k in key)
    pick = "min" if behaviour == IGNORE else "max"
    rows = "rw_s"
    if versions:
        # only the rows RisingWave applies, in order, reach the upsert (which then writes
        # them without comparing versions again)
        ctes.extend(_applied_rows(rel, key, versions, cast))
        rows = "rw_applied"
    if behaviour == IF_NOT_NULL:
        items = [
            cast(c, qi(c))
            if c in key
            else cast(
                c, f"(array_agg({qi(c)} ORDER BY rw_n DESC) FILTER (WHERE {qi(c)} IS NOT NULL))[1]"
            )
            for c in cols
        ]
        body = f"SELECT {', '.join(items)} FROM {rows} GROUP BY {keys}"
    else:
        items = [cast(c, f"{rows}.{qi(c)}") for c in cols]
        body = (
            f"SELECT {', '.join(items)} FROM {rows} "
            f"WHERE rw_n IN (SELECT {pick}(rw_n) FROM {rows} GROUP BY {keys})"
        )
    table = f"{names.qualified_table(rel.id)} AS {qi(alias)}"
    insert = f"INSERT INTO {table} ({src_cols}) {body}{upsert_clause(rel, key, behaviour, alias)}"
    if returning:
        return f"WITH {', '.join(ctes)} {insert}{returning}"
    ctes.append(f"rw_i AS ({insert}RETURNING 1)")
    return f"WITH {', '.join(ctes)} SELECT count(*) FROM rw_s"


def _applied_rows(
    rel: Relation, key: Sequence[str], versions: Sequence[str], cast: Callable[[str, str], str]
) -> list[str]:
    """CTEs ending in ``rw_applied``: the source rows (of ``rw_s``) a table with version
    columns applies, in RisingWave's order (cache.rs: each row against the one stored before
    it, the table's or an earlier row of the statement): those whose versions are newer than
    or equal to every version before them.  Versions are ranked by RisingWave's order (NULL
    the smallest) among the stored row and the statement's rows of each key."""
    table = names.qualified_table(rel.id)
    kv = [*key, *versions]
    same_key = " AND ".join(f"rw_t.{qi(k)} IS NOT DISTINCT FROM rw_s.{qi(k)}" for k in key)
    keys = ", ".join(qi(k) for k in key)
    order = ", ".join(f"{qi(v)} NULLS FIRST" for v in versions)
    source_kv = ", ".join(f"{cast(c, 'rw_s.' + qi(c))} AS {qi(c)}" for c in kv)
    stored_kv = ", ".join(f"rw_t.{qi(c)}" for c in kv)
    return [
        f"rw_v AS (SELECT {source_kv}, rw_n FROM rw_s UNION ALL SELECT {stored_kv}, 0 "
        f"FROM {table} AS rw_t WHERE EXISTS (SELECT 1 FROM rw_s WHERE {same_key}))",
        f"rw_r AS (SELECT rw_n, dense_rank() OVER (PARTITION BY {keys} ORDER BY {order}) "
        f"AS rw_rank, {keys} FROM rw_v)",
        f"rw_m AS (SELECT rw_n, rw_rank, max(rw_rank) OVER (PARTITION BY {keys} ORDER BY rw_n "
        "ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS rw_prev FROM rw_r)",
        "rw_applied AS (SELECT * FROM rw_s WHERE rw_n IN (SELECT rw_n FROM rw_m "
        "WHERE rw_n > 0 AND (rw_prev IS NULL OR rw_rank >= rw_prev)))",
    ]


def _check_update(shape: tree.Shape, rel: Relation) -> None:
    info = shape.update
    assert info is not None
    if shape.returning_level is not None:
        _check_returning(rel)
    by_name = {c.name: c for c in rel.columns}
    seen: set[str] = set()
    for name, _loc, _ind in info.assignments:
        if name not in by_name and name != RW_TIMESTAMP:
            raise BindExprError(name, ItemNotFound(f"Invalid column: {name}"))
        if name in seen:
            raise BindError("multiple assignments to the same column")
        seen.add(name)
    # columns a generated key column reads (update.rs cols_refed_by_generated_pk)
    names = [c.name for c in rel.columns]
    refed_by_generated_pk = {
        ref
        for c in rel.columns
        if c.generated_expr is not None and c.name in rel.primary_key
        for ref in column_exprs.column_refs(c.generated_expr, names)
    }
    for name in seen:
        if name == RW_TIMESTAMP:  # a system column: not can_dml (update.rs:278-280)
            raise BindError(f"update modifying column `{name}` is unsupported")
        col = by_name[name]
        if name in rel.primary_key:
            raise BindError("update modifying the PK column is unsupported")
        if col.generated_expr is not None:
            raise BindError("update modifying the generated column is unsupported")
        if name in refed_by_generated_pk:
            raise BindError(
                "update modifying the column referenced by generated columns that are part of "
                "the primary key is not allowed"
            )
