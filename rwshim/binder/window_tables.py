"""RisingWave's window table functions in FROM, bound: TUMBLE(t, ts, size [, offset]),
HOP(t, ts, hop, size [, offset]) and GAP_FILL (src/frontend/src/binder/relation/
window_table_function.rs, gap_fill.rs), as the query over their relation they stand for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlglot import exp

from rwshim.binder.parse import ident, parse
from rwshim.binder.resolve import Scope, Source, rename, rename_outputs
from rwshim.errors import NotImplementedError_

if TYPE_CHECKING:
    from rwshim.binder.binder import Binder


def time_window(
    b: Binder,
    item: exp.Table,
    fn: exp.Expr,
    name: str,
    alias: str,
    col_names: list[str],
    scope: Scope,
) -> Source:
    """RisingWave's TUMBLE(t, ts, size [, offset]) and HOP(t, ts, hop, size [, offset]):
    the relation's columns plus window_start and window_end (of the time column's type),
    one row per row (TUMBLE) or per window containing it (HOP)."""
    args = list(fn.expressions)
    want = 1 if name == "gap_fill" else 3
    if len(args) < want or not isinstance(args[0], (exp.Column, exp.Dot, exp.Table)):
        raise NotImplementedError_(f"{name} with these arguments")
    rel_sql = args[0].sql(dialect="postgres")
    if name == "gap_fill":
        # GAP_FILL(t, ts, interval, ...): t's rows and the filled ones, t's columns
        # (binder/relation/gap_fill.rs; the data plane fills: dataplane/plan/gapfill)
        sub = parse(f"SELECT __rw_w.* FROM {rel_sql} AS __rw_w")
        cols = rename(b.query(sub, scope.parent), col_names)
        if col_names:
            rename_outputs(sub, [c.name for c in cols])
        item.replace(exp.Subquery(this=sub, alias=exp.TableAlias(this=ident(alias))))
        return Source(alias, cols)
    ts = args[1]
    if isinstance(ts, exp.Column):
        ts = exp.Column(this=ts.this, table=ident("__rw_w"))
    ts_sql = ts.sql(dialect="postgres")
    rest = [a.sql(dialect="postgres") for a in args[2:]]
    if name == "tumble":
        size = rest[0]
        offset = f", {rest[1]}" if len(rest) > 1 else ""
        text = (
            f"SELECT __rw_w.*, tumble_start({ts_sql}, {size}{offset}) AS window_start, "
            f"tumble_start({ts_sql}, {size}{offset}) + {size} AS window_end "
            f"FROM {rel_sql} AS __rw_w"
        )
    else:
        if len(rest) < 2:
            raise NotImplementedError_("hop with these arguments")
        hop, size = rest[0], rest[1]
        offset = f", {rest[2]}" if len(rest) > 2 else ""
        text = (
            f"SELECT __rw_w.*, __rw_h.window_start, __rw_h.window_start + {size} AS "
            f"window_end FROM {rel_sql} AS __rw_w CROSS JOIN "
            f"unnest(rw_hop_starts({ts_sql}, {hop}, {size}{offset})) AS __rw_h(window_start)"
        )
    sub = parse(text)
    # the relation may be a CTE of this level (window_table_function.rs binds it as any
    # FROM relation): this level's CTEs, not its FROM items
    cols = b.query(sub, Scope(scope.parent, ctes=scope.ctes) if scope.ctes else scope.parent)
    cols = rename(cols, col_names)
    if col_names:
        rename_outputs(sub, [c.name for c in cols])
    item.replace(exp.Subquery(this=sub, alias=exp.TableAlias(this=ident(alias))))
    return Source(alias, cols)
