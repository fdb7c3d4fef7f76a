"""EMIT ON WINDOW CLOSE over window functions: which rows an ``EowcOverWindow`` has emitted.

RisingWave plans such a query as ``EowcSort -> EowcOverWindow``
(``src/frontend/src/optimizer/plan_node/logical_over_window.rs:665-699``): the sort releases
the rows whose ORDER BY column is below its watermark, in order
(``src/stream/src/executor/eowc/sort_buffer.rs:137-185``), and the over window emits a row once
every row its frame needs has been released (``src/stream/src/executor/over_window/eowc.rs:
110-142``): ``lead(x, k)`` and a ``ROWS ... k FOLLOWING`` frame need the k rows after it in
its partition; ``lag``, the numbering functions and frames ending at the current row (peers
included: rows of one ORDER BY value are released together) need none.  The row's values
never change after (every row of its frame is final), so the view's state is the query over
the released rows, keeping those whose frame is complete; it is computed again at each
barrier.

Here the materialized view's PostgreSQL query is printed again (pglast) with its one relation
replaced by the rows below the watermark and, when a frame needs following rows, a count of
the rows after each one in its partition to keep the complete ones.  What rwshim does not model
(several window specifications, a frame reaching UNBOUNDED FOLLOWING or by RANGE/GROUPS
offsets, ntile & co., a query reading more than one relation) is refused.  ``filter_input``
reads a relation below the watermark wherever a query reads it: the sort before an EOWC
GAP_FILL (``logical_gap_fill.rs:201-226``).
"""

from __future__ import annotations

from typing import Any

from pglast import ast, enums, parse_sql
from pglast.stream import RawStream

from rwshim.dataplane.plan import names
from rwshim.dataplane.plan.names import quote_ident as qi
from rwshim.errors import InvalidInputSyntax, NotImplementedError_, RwError

# following rows each window function needs: none
_NO_FOLLOWING = frozenset(
    {"lag", "row_number", "rank", "dense_rank", "first_value", "last_value", "nth_value",
     "min", "max", "sum", "avg", "count", "bool_and", "bool_or", "string_agg", "array_agg",
     "stddev_pop", "stddev_samp", "var_pop", "var_samp"}
)  # fmt: skip
_FOLLOWING = "__rw_following"


def refusal(what: str) -> RwError:
    return RwError(f"not supported by rwshim: EMIT ON WINDOW CLOSE over {what}")


def order_checks(order: list[tuple[str, bool]], partitioned: bool) -> None:
    """RisingWave's checks of the first window function (logical_over_window.rs:658-687);
    ``order`` is its ORDER BY as (column, descending)."""
    if not partitioned:  # :617-625, :659-661
        raise NotImplementedError_(
            "Window function with empty PARTITION BY is not supported because of potential bad"
            " performance. If you really need this, please workaround with something like"
            " `PARTITION BY 1::int`.",
            "Tracking issue: https://github.com/risingwavelabs/risingwave/issues/11505",
        )
    if len(order) != 1 or order[0][1]:
        raise InvalidInputSyntax(
            "Only support window functions order by single column and in ascending order"
        )


def _int(node: Any) -> int | None:
    if isinstance(node, ast.A_Const) and isinstance(node.val, ast.Integer):
        value: Any = node.val.ival
        return int(value)
    return None


def _following(call: Any) -> int:
    """How many rows after it in its partition the function needs to be final."""
    name = call.funcname[-1].sval
    w: Any = call.over
    opts = w.frameOptions or 0
    if name == "lead":
        k = 1 if not call.args or len(call.args) < 2 else _int(call.args[1])
        if k is None:
            raise refusal("lead with an offset that is not a constant")
        return max(k, 0)
    if name not in _NO_FOLLOWING:
        raise refusal(f"the window function {name}")
    if not opts & enums.FRAMEOPTION_NONDEFAULT or not opts & enums.FRAMEOPTION_BETWEEN:
        return 0  # up to the current row (and its peers)
    if opts & enums.FRAMEOPTION_END_UNBOUNDED_FOLLOWING:
        raise refusal("a frame reaching UNBOUNDED FOLLOWING")
    if opts & enums.FRAMEOPTION_END_OFFSET_FOLLOWING:
        k = _int(w.endOffset)
        if not opts & enums.FRAMEOPTION_ROWS or k is None:
            raise refusal("a RANGE or GROUPS frame ending after the current row")
        return k
    return 0


def _text(nodes: tuple[Any, ...] | None) -> str:
    return ", ".join(str(RawStream()(n)) for n in nodes or ())


def _session(node: Any) -> bool:
    """A SESSION frame's call as sql/session_frames.py writes it: rwfn's 4-argument
    first_value / last_value over the partition's arrays."""
    if not isinstance(node, ast.FuncCall) or node.over is not None:
        return False
    args: Any = node.args or ()
    fname: Any = node.funcname
    return (
        fname[-1].sval in ("first_value", "last_value")
        and len(args) == 4
        and isinstance(args[0], ast.FuncCall)
        and args[0].over is not None
    )


def _calls(node: Any, out: list[Any]) -> None:
    if _session(node):
        out.append(node)
        return
    if isinstance(node, ast.FuncCall) and node.over is not None:
        out.append(node)
    if isinstance(node, ast.Node):
        for name in node:
            _calls(getattr(node, name), out)
    elif isinstance(node, tuple):
        for item in node:
            _calls(item, out)


def window_query(
    pg_query: str,
    columns: int,
    order_column: str,
    watermark: str,
    tie_break: tuple[str, ...] = (),
) -> str:
    """The PostgreSQL query of an EOWC view over window functions (see the module's text):
    ``columns`` is the number of the view's columns, ``order_column`` the ORDER BY column,
    ``watermark`` the SQL of its watermark now, ``tie_break`` the input's stream key, which
    orders rows of one ORDER BY value for row_number (logical_over_window.rs:688-693: the
    sort's tie-break by the input's stream key)."""
    stmt = parse_sql(pg_query)[0].stmt
    if not isinstance(stmt, ast.SelectStmt) or stmt.op != enums.SetOperation.SETOP_NONE:
        raise refusal("a query that is not one SELECT")
    if not stmt.fromClause or len(stmt.fromClause) != 1:
        raise refusal("window functions over more than one relation")
    source = stmt.fromClause[0]
    if not isinstance(source, ast.RangeVar) or source.alias is None:
        raise refusal("window functions over a subquery or a join")
    calls: list[Any] = []
    for target in stmt.targetList or ():
        _calls(target, calls)
    if not calls:
        raise refusal("a query without window functions")
    sessions = [c for c in calls if _session(c)]
    if sessions:
        return _session_query(stmt, source, sessions, calls, columns, order_column, watermark)
    first: Any = calls[0].over
    printed = {(_text(c.over.partitionClause), _text(c.over.orderClause)) for c in calls}
    if len(printed) != 1 or first.refname or first.name:
        raise refusal("window functions of several window specifications")
    need = max(_following(c) for c in calls)
    for c in calls:
        if c.funcname[-1].sval == "row_number" and tie_break:
            keys = [ast.SortBy(node=ast.ColumnRef(fields=(ast.String(k),)), sortby_dir=0,
                               sortby_nulls=0) for k in tie_break]  # fmt: skip
            c.over.orderClause = (*(c.over.orderClause or ()), *keys)
    # the rows the sort released: below the watermark (sort_buffer.rs:137-185)
    alias = source.alias
    source.alias = None
    relation = RawStream()(source)
    released = parse_sql(f"SELECT * FROM {relation} WHERE {qi(order_column)} < ({watermark})")[
        0
    ].stmt
    stmt.fromClause = (ast.RangeSubselect(lateral=False, subquery=released, alias=alias),)
    if need == 0:
        return str(RawStream()(stmt))
    count = ast.FuncCall(
        funcname=(ast.String("count"),),
        agg_star=True,
        funcformat=0,
        over=ast.WindowDef(
            partitionClause=first.partitionClause,
            orderClause=first.orderClause,
            frameOptions=(
                enums.FRAMEOPTION_NONDEFAULT | enums.FRAMEOPTION_ROWS | enums.FRAMEOPTION_BETWEEN
                | enums.FRAMEOPTION_START_OFFSET_FOLLOWING
                | enums.FRAMEOPTION_END_UNBOUNDED_FOLLOWING
            ),
            startOffset=ast.A_Const(isnull=False, val=ast.Integer(1)),
        ),
    )  # fmt: skip
    stmt.targetList = (*(stmt.targetList or ()), ast.ResTarget(val=count))
    names = [f"__rw_{i}" for i in range(columns)]
    inner = RawStream()(stmt)
    cols = ", ".join(qi(n) for n in names)
    return (
        f"SELECT {cols} FROM ({inner}) AS __rw_eowc ({cols}, {qi(_FOLLOWING)})"
        f" WHERE {qi(_FOLLOWING)} >= {need}"
    )


def _released(source: Any, order_column: str, watermark: str) -> Any:
    """The rows the sort released: below the watermark (sort_buffer.rs:137-185), under the
    relation's alias."""
    alias = source.alias
    source.alias = None
    relation = RawStream()(source)
    text = f"SELECT * FROM {relation} WHERE {qi(order_column)} < ({watermark})"
    return ast.RangeSubselect(lateral=False, subquery=parse_sql(text)[0].stmt, alias=alias)


def _session_query(
    stmt: Any,
    source: Any,
    sessions: list[Any],
    calls: list[Any],
    columns: int,
    order_column: str,
    watermark: str,
) -> str:
    """SESSION frames in EMIT ON WINDOW CLOSE: a row is emitted once its session is known to
    be over, when a released row of its partition starts a later session; the latest session
    is never taken as complete, whatever the watermark (over_window/eowc.rs with the session
    buffer's ``is_saturated``, src/expr/impl/src/window_function/buffer.rs:510-526).  Its
    first / last values are then final."""
    if len(sessions) != len(calls):
        raise refusal("a SESSION frame with other window functions")
    specs = {(_text(a.over.partitionClause), _text(a.over.orderClause)) for c in sessions
             for a in c.args[:3]}  # fmt: skip
    if len(specs) != 1:
        raise refusal("window functions of several window specifications")
    stmt.fromClause = (_released(source, order_column, watermark),)
    probe: Any = sessions[0]
    closed = ast.FuncCall(
        funcname=(ast.String(names.FUNCTION_SCHEMA), ast.String("session_closed")),
        args=tuple(probe.args[1:]),
        funcformat=0,
    )
    stmt.targetList = (*(stmt.targetList or ()), ast.ResTarget(val=closed))
    cols = ", ".join(qi(f"__rw_{i}") for i in range(columns))
    inner = RawStream()(stmt)
    return f"SELECT {cols} FROM ({inner}) AS __rw_eowc ({cols}, __rw_closed) WHERE __rw_closed"


def filter_input(pg_query: str, relation: str, column: str, watermark: str) -> str:
    """``pg_query`` reading ``rw.<relation>`` only below the watermark of ``column``: the
    EowcSort RisingWave puts before an EOWC GAP_FILL (logical_gap_fill.rs:201-226), whose
    gaps are filled between the rows it released."""
    tree = parse_sql(pg_query)
    released = parse_sql(
        f"SELECT * FROM {names.DATA_SCHEMA}.{qi(relation)} WHERE {qi(column)} < ({watermark})"
    )[0].stmt
    found = False

    def replace(node: Any) -> Any:
        nonlocal found
        if (
            isinstance(node, ast.RangeVar)
            and node.schemaname == names.DATA_SCHEMA
            and node.relname == relation
        ):
            found = True
            alias = node.alias or ast.Alias(aliasname=relation)
            return ast.RangeSubselect(lateral=False, subquery=released, alias=alias)
        if isinstance(node, ast.Node):
            for name in node:
                setattr(node, name, replace(getattr(node, name)))
        elif isinstance(node, tuple):
            return tuple(replace(n) for n in node)
        return node

    stmt: Any = tree[0].stmt
    replace(stmt)
    if not found:
        raise refusal(f"GAP_FILL whose input rwshim does not find in {pg_query}")
    return str(RawStream()(stmt))
