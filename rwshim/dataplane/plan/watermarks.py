"""Watermarks on the data plane: a table's ``WATERMARK FOR``, its derivation through a
materialized view's query, and what ``EMIT ON WINDOW CLOSE`` shows.

- **A table's watermark filter.**  RisingWave puts a ``WatermarkFilter`` in front of the
  table's own storage (``src/frontend/src/optimizer/mod.rs:1053-1096``).  Per chunk
  (``src/stream/src/executor/watermark_filter.rs:184-250``): the rows are judged against the
  watermark as it was **before** the chunk (``col >= watermark``; no watermark yet: every row
  passes, a NULL time included; once there is one, a NULL time is dropped), then the watermark
  rises to ``max(expr)`` over the chunk's rows (NULLs skipped), never down.  An INSERT
  statement is one chunk.  Here: ``rw."t<id>_wm"`` holds the watermark (one row, the column's
  type, NULL before any) and an AFTER INSERT statement trigger over the statement's rows
  deletes the late ones and raises the watermark, in the epoch's transaction: the late rows
  never become visible, and the statement still counts (and RETURNs) every row it was given,
  as RisingWave's batch insert does (``src/batch/executors/src/executor/insert.rs:108-206``:
  the count is of the rows sent to the DML executor).
- **Derivation** (``src/frontend/src/optimizer/property/monotonicity.rs:177-300``, the
  ``watermark_columns`` of ``stream_project.rs``, ``stream_project_set.rs``,
  ``stream_hop_window.rs:54-66``, ``generic/agg.rs:155-191``): a column carries a watermark
  when it is the table's watermark column, or a non-decreasing expression of one (``col ±
  constant``, ``constant + col``, ``tumble_start(col, ...)``, ``date_trunc(const, col)``),
  ``window_start`` / ``window_end`` of TUMBLE / HOP over it; filters keep them; an
  aggregation keeps those of its group keys, a group top-N its first partition key
  (``stream_group_topn.rs:53``), a hash join the smaller of its sides' on an equi-join key
  and on the larger side of an inequality (``stream_hash_join.rs:107-204``), a temporal join
  its left side's (``temporal_join.rs:303-308``); a source's or view's are those of what it
  reads.  A ``Mark`` carries the watermark's origin (RisingWave's watermark group) and the
  SQL that computes its value now.  What rwshim does not model (set operations, DISTINCT,
  ORDER BY / LIMIT, CTEs, semi / anti joins, AT TIME ZONE, ...) is refused under EMIT ON
  WINDOW CLOSE with a "not supported by rwshim" error rather than guessed: RisingWave's own
  refusals are raised only where its rule is modelled.
- **EMIT ON WINDOW CLOSE** (``src/stream/src/executor/eowc/sort.rs:93-114``, ``sort_buffer.rs:
  137-185``, ``aggregate/hash_agg.rs:411-474``): a row (a group) is emitted once its window
  column is below that column's watermark, strictly, and never changed after.  The view's
  state keeps the rows emitted; each barrier appends those of the query whose window column
  lies in ``[watermark at the last barrier, watermark now)``; ``rw."m<id>_wm"`` remembers the
  former.  Over window functions and GAP_FILL the state is the query over the released rows,
  computed again (``eowc_window.py``).  RisingWave's planning refusals are ``eowc_of``'s
  (``convert.rs:84-110``, ``generic/agg.rs:155-191``, ``logical_agg.rs:1468-1500``,
  ``logical_over_window.rs:658-687``, ``logical_gap_fill.rs:201-215``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlglot import exp

from rwshim.binder.parse import parse
from rwshim.binder.relations import Relation, RelKind
from rwshim.dataplane.plan import eowc_window, names, typemap
from rwshim.dataplane.plan.names import quote_ident as qi
from rwshim.dataplane.plan.names import quote_literal
from rwshim.errors import InvalidInputSyntax, NotSupported, RwError

# a FROM name's parts (real values) -> the user relation it resolves to, or None
Lookup = Callable[[list[str]], Relation | None]
# the read path's resolver (route.resolver): (database, schema, name) -> what it names
Resolve = Callable[[str | None, str | None, str], object]

_F = names.FUNCTION_SCHEMA


class EowcRefused(RwError):
    """A query rwshim cannot run in Emit-On-Window-Close mode though RisingWave may."""

    def __init__(self, what: str) -> None:
        super().__init__(f"not supported by rwshim: EMIT ON WINDOW CLOSE over {what}")


def no_watermark_refusal() -> RwError:
    """convert.rs:84-97 (stream_enforce_eowc_requirement)."""
    return NotSupported(
        "The query cannot be executed in Emit-On-Window-Close mode.",
        "Try define a watermark column in the source, or avoid aggregation without GROUP BY",
    )


def lookup(resolve: Callable[[str | None, str | None, str], object]) -> Lookup:
    """A ``Lookup`` over the read path's resolver (route.resolver)."""

    def find(parts: list[str]) -> Relation | None:
        db = parts[-3] if len(parts) >= 3 else None
        schema = parts[-2] if len(parts) >= 2 else None
        found = resolve(db, schema, parts[-1])
        return found if isinstance(found, Relation) else None

    return find


# --- the table's watermark filter -----------------------------------------------------------


def wm_table(name: str) -> str:
    """The watermark of a table ``t<id>`` or an EOWC view's state ``m<id>``."""
    return f"{names.DATA_SCHEMA}.{qi(name + '_wm')}"


def _filter_function(name: str) -> str:
    return f"{names.DATA_SCHEMA}.{qi(name + '_wm_filter')}"


def table_key(rel: Relation) -> tuple[str, ...]:
    """The columns that tell the statement's rows apart: the key, else ``_row_id``."""
    if rel.primary_key:
        return rel.primary_key
    return tuple(c.name for c in rel.columns if c.name == "_row_id")


def table_statements(rel: Relation, expression: Callable[[str], str]) -> list[str]:
    """The watermark table, the trigger function and its trigger of a table with a
    watermark (idempotent: a migration runs them again); nothing without one."""
    if rel.watermark is None:
        return []
    column, expr_text, ttl = rel.watermark
    col = next((c for c in rel.columns if c.name == column), None)
    key = table_key(rel)
    if col is None or not key:
        return []
    pg_type = typemap.column_type(col.type_oid, col.rw_type)
    name = names.table_name(rel.id)
    wm = wm_table(name)
    table = names.qualified_table(rel.id)
    keys = ", ".join(qi(k) for k in key)
    expr = expression(expr_text)
    body = (
        f"DECLARE w {pg_type}; BEGIN "
        f"SELECT value INTO w FROM {wm}; "
        # rows below the watermark before this chunk are dropped (watermark_filter.rs:196-240)
        f"IF w IS NOT NULL THEN DELETE FROM {table} WHERE ({keys}) IN (SELECT {keys} FROM"
        f" rw_new WHERE ({qi(column)} >= w) IS NOT TRUE); END IF; "
        # then the watermark rises to the chunk's max(expr), NULLs skipped (:209-227)
        f"UPDATE {wm} SET value = greatest(w, (SELECT max({expr}) FROM rw_new)); "
        "RETURN NULL; END"
    )
    out = [
        f"CREATE TABLE IF NOT EXISTS {wm} (value {pg_type})",
        f"INSERT INTO {wm} SELECT NULL WHERE NOT EXISTS (SELECT 1 FROM {wm})",
        f"CREATE OR REPLACE FUNCTION {_filter_function(name)}() RETURNS trigger"
        f" LANGUAGE plpgsql AS $rw$ {body} $rw$",
        f"DROP TRIGGER IF EXISTS {qi('watermark')} ON {table}",
        f"CREATE TRIGGER {qi('watermark')} AFTER INSERT ON {table} REFERENCING NEW TABLE AS"
        f" rw_new FOR EACH STATEMENT EXECUTE FUNCTION {_filter_function(name)}()",
        f"DROP TRIGGER IF EXISTS {qi('watermark_ttl')} ON {table}",
        f"DROP TRIGGER IF EXISTS {qi('watermark_ttl_filter')} ON {table}",
    ]
    if ttl:
        out += _ttl_statements(name, table, column, pg_type)
    return out


def _ttl_statements(name: str, table: str, column: str, pg_type: str) -> list[str]:
    """``WITH TTL`` (the watermark filter in front of the table is RisingWave's for every
    chunk, an upsert's or UPDATE's new rows too): RisingWave's table state forgets a row once
    its watermark column is below the watermark (the materialize executor's state table is
    cleaned by it, src/stream/src/executor/mview/materialize.rs:197-215, 455-460) and adds the
    column to the stream key (optimizer/plan_node/stream_materialize.rs:362-369).  So (the
    cases of e2e_test/streaming/watermark_ttl.slt): a write of a row below the watermark over
    an expired one changes nothing; a new row below the watermark over a live one deletes it
    (the filter after the UPDATE drops the new row); a new row above the watermark over an
    expired one is a new row downstream while the expired one stays there, which rwshim's
    tables and the views computed from them cannot hold (a key twice): refused; a DELETE of
    an expired row changes nothing."""
    fn = f"{names.DATA_SCHEMA}.{qi(name + '_wm_ttl')}"
    col = qi(column)
    message = quote_literal(
        f"not supported by rwshim: an update or upsert of a row whose {column} is below the"
        " watermark of a WATERMARK ... WITH TTL table to a row above it (RisingWave's state"
        " has forgotten the old row, which its downstream jobs keep beside the new one)"
    )
    body = (
        f"DECLARE w {pg_type}; BEGIN SELECT value INTO w FROM {wm_table(name)}; "
        # (the filter's own DELETE of late rows runs in a trigger: not a user's write)
        f"IF w IS NOT NULL AND OLD.{col} < w AND pg_trigger_depth() = 1 THEN "
        f"IF TG_OP = 'DELETE' OR NEW.{col} < w THEN RETURN NULL; END IF; "
        f"RAISE EXCEPTION USING ERRCODE = 'RWERR', MESSAGE = {message}; END IF; "
        "RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END; END"
    )
    return [
        f"CREATE OR REPLACE FUNCTION {fn}() RETURNS trigger LANGUAGE plpgsql AS $rw$ {body} $rw$",
        f"CREATE TRIGGER {qi('watermark_ttl')} BEFORE UPDATE OR DELETE ON {table} FOR EACH ROW"
        f" EXECUTE FUNCTION {fn}()",
        f"CREATE TRIGGER {qi('watermark_ttl_filter')} AFTER UPDATE ON {table} REFERENCING NEW"
        f" TABLE AS rw_new FOR EACH STATEMENT EXECUTE FUNCTION {_filter_function(name)}()",
    ]


def drop_leftovers(name: str) -> list[str]:
    """What dropping the table ``t<id>`` / state ``m<id>`` leaves of its watermark."""
    return [
        f"DROP TABLE IF EXISTS {wm_table(name)}",
        f"DROP FUNCTION IF EXISTS {_filter_function(name)}()",
        f"DROP FUNCTION IF EXISTS {names.DATA_SCHEMA}.{qi(name + '_wm_ttl')}()",
    ]


def table_watermark_sql(rel: Relation) -> str:
    """The table's watermark now (NULL before its first row)."""
    return f"(SELECT value FROM {wm_table(names.table_name(rel.id))})"


# --- derivation -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Mark:
    """A column's watermark: its group (the table column it derives from) and the SQL of its
    value now."""

    group: tuple[object, ...]  # (relation id, column), or a join's pair of them
    sql: str


@dataclass(frozen=True, slots=True)
class Derived:
    """A query's output columns with their watermarks, and whether it aggregates."""

    columns: list[tuple[str, Mark | None]]
    agg: bool = False
    # the group keys that carry a watermark (output name or None when not output)
    agg_keys: tuple[tuple[str | None, Mark], ...] = ()
    # a numbering window function's output (row_number / rank / dense_rank): with a filter on
    # it above, the optimizer makes a group top-N of the window (keeps the first partition
    # key's watermark); else a general over window (keeps none: stream_over_window.rs:43)
    rank_column: str | None = None


class Deriver:
    """Watermark columns of queries over user relations (sqlglot trees)."""

    def __init__(self, lookup: Lookup) -> None:
        self.lookup = lookup

    def query(self, node: exp.Expr) -> Derived:
        if isinstance(node, exp.Subquery):
            return self.query(node.this)
        if not isinstance(node, exp.Select):
            raise EowcRefused(f"a {type(node).__name__.lower()} query")
        if node.args.get("with_"):
            raise EowcRefused("a query with WITH")
        if node.args.get("distinct"):
            raise EowcRefused("SELECT DISTINCT")
        if node.args.get("limit") or node.args.get("offset") or node.args.get("order"):
            raise EowcRefused("ORDER BY / LIMIT (top-N)")
        scope = self.from_scope(node)
        if any(e.find(exp.Window) for e in node.expressions):
            return self._group_top_n(node, scope)
        group = node.args.get("group")
        aggs = [a for e in node.expressions for a in e.find_all(exp.AggFunc)]
        if group is not None or aggs or node.args.get("having"):
            return self._aggregate(node, scope, group)
        srf = any(
            isinstance(f, (exp.Unnest, exp.Explode))
            or (isinstance(f, exp.Anonymous) and f.name.lower() in ("generate_series", "unnest"))
            for e in node.expressions
            for f in e.find_all(exp.Func)
        )
        out: list[tuple[str, Mark | None]] = []
        for item in node.expressions:
            if isinstance(item, exp.Star) or (
                isinstance(item, exp.Column) and isinstance(item.this, exp.Star)
            ):
                qualifier = item.table if isinstance(item, exp.Column) else ""
                out.extend((n, m) for (q, n), m in scope.items() if not qualifier or q == qualifier)
                continue
            inner = item.this if isinstance(item, exp.Alias) else item
            # ProjectSet passes watermarks of plain columns only (stream_project_set.rs:54-80)
            if srf and any(
                isinstance(f, (exp.Unnest, exp.Explode))
                or (
                    isinstance(f, exp.Anonymous) and f.name.lower() in ("generate_series", "unnest")
                )
                for f in inner.find_all(exp.Func)
            ):
                mark = None  # a set-returning item
            else:
                mark = self.monotone(inner, scope)
            out.append((item.alias_or_name, mark))
        return Derived(out)

    def _group_top_n(self, node: exp.Select, scope: dict[tuple[str, str], Mark | None]) -> Derived:
        """One numbering window function: a group top-N once filtered on (stream_group_topn.rs:
        53 keeps the watermark of its first group key); other window functions: none."""
        windows = [w for e in node.expressions for w in e.find_all(exp.Window)]
        if node.args.get("group") or len(windows) != 1:
            raise EowcRefused("window functions")
        w = windows[0]
        fn = w.this.name.lower() if isinstance(w.this, exp.Anonymous) else w.this.key
        keys = list(w.args.get("partition_by") or [])
        rank = next((it.alias_or_name for it in node.expressions if it.find(exp.Window)), None)
        if fn not in ("row_number", "rownumber", "rank", "dense_rank", "denserank") or not keys:
            return Derived([(it.alias_or_name, None) for it in node.expressions])
        first = self.monotone(keys[0], scope)
        out: list[tuple[str, Mark | None]] = []
        for item in node.expressions:
            if isinstance(item, exp.Star):
                out.extend((n, m if first is not None and m == first else None)
                           for (_, n), m in scope.items())  # fmt: skip
                continue
            inner = item.this if isinstance(item, exp.Alias) else item
            keep = first is not None and _same(inner, keys[0])
            out.append((item.alias_or_name, first if keep else None))
        return Derived(out, rank_column=rank)

    # FROM: (qualifier, column) -> mark, in output order
    def from_scope(self, node: exp.Select) -> dict[tuple[str, str], Mark | None]:
        src = node.args.get("from_") or node.args.get("from")
        if src is None:
            return {}
        where = node.args.get("where")
        if where is not None and where.find(exp.Subquery, exp.Exists):
            # a semi / anti join or a scalar subquery's join (their watermarks: not modelled)
            raise EowcRefused("a WHERE clause with a subquery")
        scope = self._item(src.this, _conjuncts(where.this) if where is not None else [])
        for join in node.args.get("joins") or []:
            if join.args.get("using") or join.method or join.kind.upper() in ("SEMI", "ANTI"):
                raise EowcRefused("a join with USING, NATURAL, SEMI or ANTI")
            right = self._item(join.this)
            if isinstance(join.this, exp.Table) and join.this.args.get("version") is not None:
                # a temporal join forwards its left side's watermarks only
                # (src/stream/src/executor/temporal_join.rs:303-308, :713-716)
                scope = {**scope, **dict.fromkeys(right)}
                continue
            conds = _conjuncts(join.args.get("on"))
            if not join.side and where is not None:  # an inner join's WHERE is its ON
                conds += _conjuncts(where.this)
            scope = self._join(scope, right, conds)
        return scope

    def _join(
        self,
        left: dict[tuple[str, str], Mark | None],
        right: dict[tuple[str, str], Mark | None],
        conds: list[exp.Expr],
    ) -> dict[tuple[str, str], Mark | None]:
        """A hash join forwards a watermark on an equi-join key when both sides have one:
        the smaller of the two, to both key columns; no other (stream_hash_join.rs:107-134,
        hash_join.rs:815-866); an inequality between watermark columns (an interval join)
        forwards the smaller of the two to the larger side's column (stream_hash_join.rs:
        136-204, hash_join.rs:868-900).  The state either cleans can only meet rows the
        watermark filters drop, so the join's output is its query's."""
        out: dict[tuple[str, str], Mark | None] = dict.fromkeys([*left, *right])
        pairs: list[exp.Expr] = []
        for c in conds:
            if isinstance(c, exp.Between):  # two inequalities
                pairs += [exp.GTE(this=c.this, expression=c.args["low"]),
                          exp.LTE(this=c.this, expression=c.args["high"])]  # fmt: skip
            elif isinstance(c, (exp.EQ, exp.GT, exp.GTE, exp.LT, exp.LTE)):
                pairs.append(c)
        # equi-join keys first, then inequalities (stream_hash_join.rs:107-204)
        pairs.sort(key=lambda c: not isinstance(c, exp.EQ))
        flip: dict[type[exp.Expr], type[exp.Expr]] = {
            exp.GT: exp.LT, exp.GTE: exp.LTE, exp.LT: exp.GT, exp.LTE: exp.GTE,
        }  # fmt: skip
        for c in pairs:
            sides = [self.monotone(x, left) for x in (c.this, c.expression)]
            others = [self.monotone(x, right) for x in (c.this, c.expression)]
            kind: type[exp.Expr] = type(c)
            if sides[0] is not None and others[1] is not None:
                lcol, rcol, lm, rm = c.this, c.expression, sides[0], others[1]
            elif others[0] is not None and sides[1] is not None:
                lcol, rcol, lm, rm = c.expression, c.this, sides[1], others[0]
                kind = flip.get(kind, kind)
            else:
                continue
            sql = (
                f"CASE WHEN ({lm.sql}) IS NULL OR ({rm.sql}) IS NULL THEN NULL ELSE"
                f" least({lm.sql}, {rm.sql}) END"
            )
            if kind is exp.EQ:
                # both key columns, one group (the sides' own when they share it)
                group = lm.group if lm.group == rm.group else (lm.group, rm.group)
                self._mark(out, left, lcol, Mark(group, sql), replace=True)
                self._mark(out, right, rcol, Mark(group, sql), replace=True)
            elif kind in (exp.GT, exp.GTE):  # the left side is larger: its column only
                self._mark(out, left, lcol, Mark(("ineq", lm.group, rm.group), sql))
            else:
                self._mark(out, right, rcol, Mark(("ineq", lm.group, rm.group), sql))
        return out

    @staticmethod
    def _mark(
        out: dict[tuple[str, str], Mark | None],
        side: dict[tuple[str, str], Mark | None],
        col: exp.Expr,
        mark: Mark,
        replace: bool = False,
    ) -> None:
        """Give a join's output column a watermark (a plain column of that side only; an
        inequality's only when the column has none yet)."""
        if not isinstance(col, exp.Column):
            return
        for key in side:
            here = key[1] == col.name and (not col.table or key[0] == col.table)
            if here and (replace or out.get(key) is None):
                out[key] = mark

    def _item(
        self, item: exp.Expr, where: list[exp.Expr] | None = None
    ) -> dict[tuple[str, str], Mark | None]:
        alias = item.alias_or_name
        if isinstance(item, exp.Subquery):
            d = self.query(item.this)
            if d.rank_column is not None and not any(
                isinstance(c, (exp.LT, exp.LTE, exp.EQ))
                and isinstance(c.this, exp.Column)
                and c.this.name == d.rank_column
                and isinstance(c.expression, exp.Literal)
                for c in where or []
            ):
                return {(alias, n): None for n, _ in d.columns}  # a general over window
            return {(alias, n): m for n, m in d.columns}
        if isinstance(item, exp.Table) and isinstance(item.this, exp.Func):
            return self._window(item, item.this, alias)
        if isinstance(item, exp.Table):
            rel = self.lookup([p.name for p in item.parts])
            if rel is None:
                raise EowcRefused(f"relation {item.name}")
            return {(alias, n): m for n, m in self.relation(rel)}
        raise EowcRefused(f"FROM item {type(item).__name__}")

    def relation(self, rel: Relation) -> list[tuple[str, Mark | None]]:
        if rel.kind == RelKind.TABLE or rel.kind == RelKind.SOURCE:
            wm = rel.watermark
            out: list[tuple[str, Mark | None]] = []
            for c in rel.visible_columns:
                mark = None
                if wm is not None and wm[0] == c.name and wm[2]:
                    raise EowcRefused(f"{rel.name}, whose watermark is WITH TTL")
                if wm is not None and wm[0] == c.name:
                    # a source's messages are kept in its own rw."t<id>" (ddl.source), filtered
                    # by the same trigger as a table's
                    mark = Mark((rel.id, c.name), table_watermark_sql(rel))
                out.append((c.name, mark))
            return out
        if rel.kind in (RelKind.MATERIALIZED_VIEW, RelKind.VIEW) and rel.definition:
            d = self.query(parse(rel.definition))
            visible = [c.name for c in rel.visible_columns]
            return list(zip(visible, [m for _, m in d.columns], strict=False))
        raise EowcRefused(f"{rel.kind.value} {rel.name}")

    def _window(
        self, item: exp.Table, fn: exp.Func, alias: str
    ) -> dict[tuple[str, str], Mark | None]:
        name = fn.name.lower()
        args = list(fn.expressions)
        if name not in ("tumble", "hop") or len(args) < 3:
            raise EowcRefused(f"table function {name}")
        base = args[0]
        rel = self.lookup([p.name for p in base.parts]) if isinstance(base, exp.Column) else None
        if isinstance(base, exp.Table):
            rel = self.lookup([p.name for p in base.parts])
        if rel is None:
            raise EowcRefused(f"{name} of {base.sql()}")
        cols = self.relation(rel)
        time = args[1].name if isinstance(args[1], exp.Column) else None
        tm = next((m for n, m in cols if n == time), None)
        out: dict[tuple[str, str], Mark | None] = {(alias, n): m for n, m in cols}
        start = end = None
        if tm is not None:
            consts = [a.sql(dialect="postgres") for a in args[2:]]
            if name == "tumble":
                s = f"{_F}.tumble_start({', '.join([tm.sql, *consts])})"
                start, end = Mark(tm.group, s), Mark(tm.group, f"{s} + ({consts[0]})")
            else:
                # the first window start of the watermark (hop_window.rs:195-215)
                s = f"(SELECT min(s) FROM {_F}.hop_starts({', '.join([tm.sql, *consts])}) s)"
                start, end = Mark(tm.group, s), Mark(tm.group, f"{s} + ({consts[1]})")
        out[(alias, "window_start")] = start
        out[(alias, "window_end")] = end
        return out

    def monotone(self, e: exp.Expr, scope: dict[tuple[str, str], Mark | None]) -> Mark | None:
        """monotonicity.rs:177-300, the forms that follow one input column."""
        if isinstance(e, exp.Paren):
            return self.monotone(e.this, scope)
        if isinstance(e, exp.Column):
            hits = [
                m for (q, n), m in scope.items() if n == e.name and (not e.table or q == e.table)
            ]
            return hits[0] if len(hits) == 1 else None
        if isinstance(e, (exp.Add, exp.Sub)):
            left, right = e.this, e.expression
            if _constant(right):
                m = self.monotone(left, scope)
                op = "+" if isinstance(e, exp.Add) else "-"
                return None if m is None else Mark(m.group, f"({m.sql}) {op} ({_pg(right)})")
            if isinstance(e, exp.Add) and _constant(left):
                m = self.monotone(right, scope)
                return None if m is None else Mark(m.group, f"({_pg(left)}) + ({m.sql})")
            return None
        if isinstance(e, exp.TimestampTrunc) and isinstance(e.args.get("unit"), exp.Var):
            # date_trunc(const, col) (monotonicity.rs: DateTrunc); a zone argument: no
            m = self.monotone(e.this, scope)
            if m is not None and e.args.get("zone") is not None:
                raise EowcRefused("a watermark through date_trunc with a time zone")
            if m is None:
                return None
            unit = e.args["unit"].name.lower()
            return Mark(m.group, f"pg_catalog.date_trunc('{unit}', {m.sql})")
        if isinstance(e, (exp.AtTimeZone, exp.UnixToTime)) and self.monotone(e.this, scope):
            # monotone in RisingWave in some cases (monotonicity.rs:177-300), not modelled
            raise EowcRefused(f"a watermark through {e.sql()}")
        if isinstance(e, exp.Anonymous) and e.name.lower() == "tumble_start":
            args = list(e.expressions)
            if args and all(_constant(a) for a in args[1:]):
                m = self.monotone(args[0], scope)
                rest = ", ".join(_pg(a) for a in args[1:])
                return None if m is None else Mark(m.group, f"{_F}.tumble_start({m.sql}, {rest})")
        return None

    def _aggregate(
        self,
        node: exp.Select,
        scope: dict[tuple[str, str], Mark | None],
        group: exp.Group | None,
    ) -> Derived:
        """An aggregation keeps the watermarks of its group keys (generic/agg.rs:155-191)."""
        if group is not None and any(
            group.args.get(k) for k in ("grouping_sets", "rollup", "cube")
        ):
            raise EowcRefused("GROUPING SETS / ROLLUP / CUBE")
        items = [it.this if isinstance(it, exp.Alias) else it for it in node.expressions]
        names_ = [it.alias_or_name for it in node.expressions]
        out: list[tuple[str, Mark | None]] = [(n, None) for n in names_]
        key_marks: list[tuple[str | None, Mark]] = []
        for k in group.expressions if group is not None else []:
            expr: exp.Expr = k
            at: int | None = None
            if isinstance(k, exp.Literal) and k.is_int:  # GROUP BY <ordinal>
                at = int(k.name) - 1
                if not 0 <= at < len(items):
                    continue
                expr = items[at]
            elif (
                isinstance(k, exp.Column)
                and not k.table
                and k.name in names_
                and not any(n == k.name for _, n in scope)
            ):  # GROUP BY <output alias>
                at = names_.index(k.name)
                expr = items[at]
            else:
                at = next((i for i, it in enumerate(items) if _same(it, k)), None)
            mark = self.monotone(expr, scope)
            if mark is None:
                continue
            if at is not None:
                out[at] = (names_[at], mark)
            key_marks.append((None if at is None else names_[at], mark))
        return Derived(out, agg=True, agg_keys=tuple(key_marks))


def _conjuncts(e: exp.Expr | None) -> list[exp.Expr]:
    if e is None:
        return []
    if isinstance(e, exp.Paren):
        return _conjuncts(e.this)
    if isinstance(e, exp.And):
        return _conjuncts(e.this) + _conjuncts(e.expression)
    return [e]


def _same(a: exp.Expr, b: exp.Expr) -> bool:
    if isinstance(a, exp.Column) and isinstance(b, exp.Column):
        return a.name == b.name and (not a.table or not b.table or a.table == b.table)
    return bool(a == b)


def _constant(e: exp.Expr) -> bool:
    return not any(isinstance(n, (exp.Column, exp.Func)) for n in e.walk()) or isinstance(
        e, exp.Interval
    )


def _pg(e: exp.Expr) -> str:
    return e.sql(dialect="postgres")


# --- EMIT ON WINDOW CLOSE -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Eowc:
    """What an EMIT ON WINDOW CLOSE view's state appends at a barrier: the query's rows whose
    ``column`` is below ``watermark`` (its value now) and not below the last barrier's."""

    column: str
    watermark: str
    pg_type: str
    # over window functions: ``column`` is the ORDER BY column of the input, and the state is
    # the query over the released rows, computed again (eowc_window.py)
    window: bool = False
    tie_break: tuple[str, ...] = ()  # the input table's stream key (eowc_window.py)
    # GAP_FILL: the PostgreSQL relation (``t<id>`` / ``v<id>``) whose rows the query reads
    # only below the watermark (the EowcSort before EowcGapFill), computed again
    filter_relation: str | None = None

    @property
    def recomputed(self) -> bool:
        """Whether the state is the (rewritten) query computed again at each barrier."""
        return self.window or self.filter_relation is not None


def eowc_of(query: str, lookup: Lookup) -> tuple[str, Mark]:
    """The window column of an EOWC query and its watermark, or RisingWave's refusal
    (convert.rs:84-110, generic/agg.rs:155-191, logical_agg.rs:1468-1500)."""
    tree = parse(query)
    fill = _gap_fill_call(tree)
    if fill is not None:
        time, time_mark, _ = _gap_fill(fill, lookup)
        return time, time_mark
    if isinstance(tree, exp.Select) and any(e.find(exp.Window) for e in tree.expressions):
        return _over_window(tree, Deriver(lookup))
    d = Deriver(lookup).query(tree)
    if d.agg:
        if tree.args.get("group") is None:
            raise InvalidInputSyntax(
                "`EMIT ON WINDOW CLOSE` cannot be used for aggregation without `GROUP BY`"
            )
        if not d.agg_keys:
            raise NotSupported(
                "Emit-On-Window-Close mode requires a watermark column in GROUP BY.",
                "Please try to GROUP BY a watermark column",
            )
        groups = {m.group for _, m in d.agg_keys}
        if len(groups) > 1:
            raise NotSupported(
                "Emit-On-Window-Close mode requires that watermark columns in GROUP BY are "
                "derived from the same upstream column.",
                "Please try to remove undesired columns from GROUP BY",
            )
        key, key_mark = d.agg_keys[0]
        if key is None:
            raise EowcRefused("a GROUP BY watermark column the query does not output")
        return key, key_mark
    for name, mark in d.columns:
        if mark is not None:
            return name, mark
    raise no_watermark_refusal()


def eowc_state(rel: Relation, resolve: Callable[[str | None, str | None, str], object]) -> Eowc:
    """What an EMIT ON WINDOW CLOSE view's state appends at barriers, its upstreams resolved
    by the read path's resolver (route.resolver)."""
    if rel.definition is None:
        raise EowcRefused(f"{rel.name}, which has no query")
    column, mark = eowc_of(rel.definition, lookup(resolve))
    tree = parse(rel.definition)
    fill = _gap_fill_call(tree)
    if fill is not None:
        source = _gap_fill(fill, lookup(resolve))[2]
        kind = names.table_name if source.kind == RelKind.TABLE else names.view_name
        return Eowc(column, mark.sql, "", filter_relation=kind(source.id))
    if isinstance(tree, exp.Select) and any(e.find(exp.Window) for e in tree.expressions):
        return Eowc(column, mark.sql, "", window=True, tie_break=_stream_key(tree, resolve))
    col = next((c for c in rel.columns if c.name == column), None)
    if col is None:
        raise EowcRefused(f"{rel.name}, whose window column {column} is not among its columns")
    return Eowc(column, mark.sql, typemap.column_type(col.type_oid, col.rw_type))


def _gap_fill_call(tree: exp.Expr) -> exp.GapFill | None:
    """The GAP_FILL call a query reads FROM, if it is its one FROM item."""
    src = tree.args.get("from_") if isinstance(tree, exp.Select) else None
    item = src.this if src is not None else None
    if isinstance(item, exp.Table) and isinstance(item.this, exp.GapFill):
        if tree.args.get("joins"):
            raise EowcRefused("GAP_FILL joined with another relation")
        return item.this
    return None


def _gap_fill(fill: exp.GapFill, find: Lookup) -> tuple[str, Mark, Relation]:
    """GAP_FILL in EMIT ON WINDOW CLOSE mode sorts its input by the time column's watermark
    first (logical_gap_fill.rs:201-226): the time column, its watermark and the relation."""
    base, time = fill.this, fill.args.get("ts_column")
    rel = find([p.name for p in base.parts]) if isinstance(base, exp.Table) else None
    if rel is None or not isinstance(time, exp.Column):
        raise EowcRefused("GAP_FILL of anything but a relation's column")
    marks = dict(Deriver(find).relation(rel))
    mark = marks.get(time.name)
    if mark is None:
        index = next((i for i, c in enumerate(rel.columns) if c.name == time.name), -1)
        raise NotSupported(
            "GAP_FILL with EMIT ON WINDOW CLOSE requires a watermark on the time column.",
            f"Please define a watermark on the time column (column index {index}).",
        )
    return time.name, mark, rel


def _over_window(tree: exp.Select, deriver: Deriver) -> tuple[str, Mark]:
    """An EOWC over window: RisingWave's checks of its first window function
    (logical_over_window.rs:658-687); the ORDER BY column (of the input) and its watermark."""
    first = next(w for w in tree.find_all(exp.Window))
    scope = deriver.from_scope(tree)
    order = first.args.get("order")
    ordered = list(order.expressions) if order is not None else []
    eowc_window.order_checks(
        [(o.this.sql(), bool(o.args.get("desc"))) for o in ordered],
        bool(first.args.get("partition_by")),
    )
    col = ordered[0].this
    mark = deriver.monotone(col, scope)
    if mark is None or not isinstance(col, exp.Column):
        raise InvalidInputSyntax(f"The ORDER BY column `{col.sql()}` must be a watermark column")
    return col.name, mark


def _stream_key(
    tree: exp.Select, resolve: Callable[[str | None, str | None, str], object]
) -> tuple[str, ...]:
    """The stream key of a query's one table: its primary key, else ``_row_id``."""
    src = tree.args.get("from_") or tree.args.get("from")
    item = src.this if src is not None else None
    if tree.args.get("joins") or not isinstance(item, exp.Table) or isinstance(item.this, exp.Func):
        return ()
    rel = lookup(resolve)([p.name for p in item.parts])
    return table_key(rel) if rel is not None and rel.kind == RelKind.TABLE else ()


def state_statements(state: str, query: str, eowc: Eowc) -> tuple[str, ...]:
    """Make the state of an EOWC view: the rows closed now, and the watermark they were
    closed at."""
    wm = wm_table(state)
    target = f"{names.DATA_SCHEMA}.{qi(state)}"
    return (
        f"CREATE TABLE {target} AS SELECT * FROM {query} WHERE {qi(eowc.column)} <"
        f" ({eowc.watermark})",
        f"DROP TABLE IF EXISTS {wm}",
        f"CREATE TABLE {wm} (value {eowc.pg_type})",
        f"INSERT INTO {wm} VALUES (({eowc.watermark})::{eowc.pg_type})",
    )


def refresh_sql(state: str, query: str, eowc: Eowc) -> str:
    """A barrier's step of an EOWC view: append what closed since, remember the watermark."""
    wm = wm_table(state)
    target = f"{names.DATA_SCHEMA}.{qi(state)}"
    col = qi(eowc.column)
    return (
        f"INSERT INTO {target} SELECT q.* FROM {query} q, (SELECT ({eowc.watermark})::"
        f"{eowc.pg_type} AS new, (SELECT value FROM {wm}) AS old) w WHERE q.{col} < w.new AND"
        f" (w.old IS NULL OR q.{col} >= w.old); UPDATE {wm} SET value ="
        f" greatest(value, ({eowc.watermark})::{eowc.pg_type})"
    )
