"""The PostgreSQL text of a statement routed to the data plane: the user's text with spans
spliced, never deparsed.

What is spliced (each where the parse tree says):
- every relation name -> its physical object (``rw."t<id>"``, ``rw."v<id>"``, or the session's
  snapshot of a catalog relation), keeping the name the query refers to it by as an alias;
  with an alias column list, a subquery listing the columns in catalog order;
- ``s.t.c`` / ``db.s.t.c`` column references -> ``t.c`` (the alias); two relations of one
  name in different schemas get aliases of their own (``samename``);
- a star over a relation with hidden columns (``_row_id``), or a ``* EXCEPT``, -> the visible
  columns in catalog order (RisingWave's wildcard: binder/select.rs bind_wildcard, USING and
  NATURAL column groups first, iter_column_groups);
- ``current_user`` & co (SQLValueFunctions, which no function can shadow) and
  ``pg_catalog.<overridden>()`` -> schema ``rwfn``'s versions;
- one-word type names PostgreSQL spells otherwise (typemap.QUERY_TYPE_NAMES, spliced by
  typenames, which also gives variant operands their text cast);
- an ``ASOF [LEFT] JOIN`` -> a LATERAL subquery (``asof``);
- DML: see ``dml``.

Results are cached by the caller on (text, database, search_path, catalog version).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rwshim.binder.relations import Relation, RelKind
from rwshim.dataplane.plan import (
    asof,
    avg,
    changelogs,
    checks,
    corresponding,
    dml,
    fulljoin,
    functions,
    gapfill,
    hashkeys,
    ignore_nulls,
    lists,
    mapsyntax,
    names,
    natural,
    retention,
    rw_texts,
    rw_timestamp,
    samename,
    serials,
    stream_rules,
    structs,
    temporal,
    to_char,
    tree,
    typenames,
    wrap_scalar,
)
from rwshim.dataplane.plan.figure import figure_name
from rwshim.dataplane.plan.names import quote_ident as qi
from rwshim.dataplane.plan.prepass import Prepassed
from rwshim.dataplane.plan.route import Route, Routed
from rwshim.dataplane.plan.splice import SpliceError, Splicer, call_args, keyword_before, name_end
from rwshim.errors import NotImplementedError_
from rwshim.sql import long_names


@dataclass(frozen=True, slots=True)
class PgStatement:
    """A statement as the data plane runs it."""

    text: str
    kind: str  # select / insert / update / delete
    relation_ids: tuple[int, ...]  # user relations read or written (to ensure first)
    snapshots: tuple[tuple[str, str], ...]  # catalog relations read: (schema, name)
    param_count: int
    target_id: int | None = None
    # INSERT: run instead when PostgreSQL reports a key twice in the statement (21000)
    repeated_key_text: str | None = None
    # the repeated-key text returns one row holding the number of input rows (the tag)
    repeated_key_counts: bool = False
    # idempotent DDL run before it (the composite types of its struct casts: typemap)
    requires: tuple[str, ...] = ()
    # its temporal joins (a materialized view's; a batch query with one is refused)
    temporal: tuple[temporal.TemporalJoin, ...] = ()
    # the tables it reads as of a time-travel point (their histories)
    histories: tuple[tuple[int, tuple[str, str]], ...] = ()  # (table id, point)
    # names over 63 bytes: (the physical name PostgreSQL answers with, the user's name), for
    # the result columns and errors (rwshim/sql/long_names.py)
    long_names: tuple[tuple[str, str], ...] = ()
    # the tables and sources its changelog CTEs read (a materialized view's: changelogs.py)
    changelogs: tuple[int, ...] = ()
    # a FULL JOIN answered as a nested loop (plan/fulljoin): RisingWave's stream plan refuses it
    nested_loop: bool = False
    # a materialized view's datagen sources, read through its own readers (ddl.reader)
    readers: tuple[Relation, ...] = ()

    def user_name(self, name: str) -> str:
        """A result column's name as the user wrote it (PostgreSQL's holds a long one's
        physical form)."""
        if self.long_names:
            for phys, full in self.long_names:
                if phys == name:
                    return full
        return name


class RewriteRefused(NotImplementedError_):
    """A construct the data plane cannot run faithfully (never approximated)."""


def physical(rel: object) -> str:
    """The PostgreSQL object a relation reads as."""
    if isinstance(rel, Relation):
        if rel.kind == RelKind.TABLE:
            return names.qualified_table(rel.id)
        return names.qualified_view(rel.id)
    return names.qualified_snapshot(rel.schema, rel.name)  # type: ignore[attr-defined]


def visible_names(rel: object, colnames: tuple[str, ...] = ()) -> list[str]:
    """The names a star over ``rel`` yields, an alias column list applied (a catalog
    relation's PostgreSQL-only columns are not in RisingWave's star)."""
    if isinstance(rel, Relation):
        out = [c.name for c in rel.columns if not c.hidden]
    else:
        cols = rel.columns  # type: ignore[attr-defined]
        out = [c.name for c in cols if not getattr(c, "extension", False)]
    return list(colnames) + out[len(colnames) :]


def has_hidden(rel: object) -> bool:
    """Whether a star over ``rel`` leaves columns out (a table's _rw_timestamp: rw_timestamp.py)."""
    if isinstance(rel, Relation):
        return rel.kind == RelKind.TABLE or any(c.hidden for c in rel.columns)
    cols = getattr(rel, "columns", ())
    return any(getattr(c, "extension", False) for c in cols)


_EXPR_HEAD = "SELECT "


def expression(text: str) -> str:
    """A column expression (DEFAULT, generated ``AS``) in PostgreSQL's text: its value
    functions and type names spliced as in a query; it reads no relation."""
    shape = tree.parse(_EXPR_HEAD + text)
    routed = Routed(Route.DATA, Prepassed(_EXPR_HEAD + text), shape)
    rw = _Rewriter(routed)
    try:
        rw.value_functions()
        rw.type_names()
    except SpliceError as e:
        raise RewriteRefused(f"this column expression ({e})") from None
    return long_names.physical_text(rw.sp.result()[len(_EXPR_HEAD) :])[0]


def rewrite(
    routed: Routed, inline: dict[int, str] | None = None, streaming: bool = False
) -> PgStatement:
    """The PostgreSQL text of a statement routed to the data plane; ``inline``: relations
    read as the given subquery text instead of their physical object (a view RisingWave binds
    again in each session, plane.py); ``streaming``: a streaming job's query (its group keys
    always aggregate by hash: hashkeys)."""
    assert routed.route is Route.DATA and routed.shape is not None
    return _Rewriter(routed, inline or {}, streaming).run()


class _Rewriter:
    def __init__(
        self, routed: Routed, inline: dict[int, str] | None = None, streaming: bool = False
    ) -> None:
        assert routed.shape is not None
        self.inline = inline or {}
        self.streaming = streaming
        self.routed = routed
        self.shape = routed.shape
        self.text = self.shape.text
        self.sp = Splicer(self.text)
        self._star_spans: set[int] = set()
        self._temporal: list[temporal.TemporalJoin] = []
        self._histories: list[tuple[int, tuple[str, str]]] = []
        self._changelogs: list[int] = []
        # id(level) of a CORRESPONDING wrapper -> the names it selects (plan/corresponding)
        self.corr_names: dict[int, list[str]] = {}
        # id(level) whose bare star is listed out (a rewritten FULL JOIN: plan/fulljoin)
        self._force_star: set[int] = set()
        self._shared: dict[str, int] = {}  # column name -> FROM items having it (a star's level)

    def run(self) -> PgStatement:
        shape = self.shape
        full_joins: list[fulljoin.FullJoin] = []
        if shape.unsupported:
            raise RewriteRefused(f"{shape.unsupported[0]} on user data")
        try:
            if samename.rename(shape, self.routed.relation_of):
                samename.splice_short_paths(shape, self.text, self.sp)
            corresponding.splice(self)
            full_joins = fulljoin.find(self)
            self._force_star = {id(j.level) for j in full_joins}
            self.stars()
            self.windows()
            asof.splice_asof_joins(
                shape, self.routed.prepassed.asof, self.routed.relation_of, self.sp
            )
            self.relations()
            self.descending_percentiles()
            self.jsonb_values()
            lists.splice(shape, self.sp, self.routed.user_relations())
            structs.splice(shape, self.sp, self.routed.user_relations())
            rw_texts.splice(shape, self.sp)  # EXTRACT, ISO 8601 intervals, jsonb keys
            rw_timestamp.check(shape, self.routed.user_relations())
            serials.splice(shape, self.sp, self.routed.user_relations())
            to_char.splice(shape, self.sp)
            wrap_scalar.splice(self)
            ignore_nulls.splice(self)
            self.column_paths()
            self.value_functions()
            self.type_names()
            fulljoin.splice(self, full_joins)
            stream_rules.splice(self)
            extra = dml.splice(self.routed, self.sp, self.source_width())
            # last: a map column's subscripts, map literals and map_filter calls are rebuilt
            # around their parts' rewritten text
            mapsyntax.splice_all(self.routed, self.sp)
        except SpliceError as e:
            raise RewriteRefused(f"this statement's text on user data ({e})") from None
        text, back = long_names.physical_text(self.sp.result())
        text = avg.rewrite(text)
        text = hashkeys.normalize(
            text, self.streaming, hashkeys.primary_keys(self.routed.user_relations())
        )
        repeated = extra.repeated_key_text
        if repeated is not None:
            repeated, more = long_names.physical_text(repeated)
            back.update(more)
        # a star PostgreSQL expands answers with the physical names of the columns
        for rel in self.routed.user_relations():
            for c in rel.columns:
                if len(c.name) > long_names.LIMIT // 4:  # (a short one is its own name)
                    phys = long_names.physical(c.name)
                    if phys != c.name:
                        back[phys] = c.name
        target = self.routed.target
        return PgStatement(
            text,
            shape.kind,
            tuple(r.id for r in self.routed.user_relations()),
            tuple((r.schema, r.name) for r in self.routed.system_relations()),
            max(shape.params, default=0),
            target.id if target is not None else None,
            repeated,
            extra.repeated_key_counts,
            tuple(self.routed.prepassed.requires),
            tuple(self._temporal),
            tuple(self._histories),
            tuple(back.items()),
            tuple(dict.fromkeys(self._changelogs)),
            nested_loop=bool(full_joins),
        )

    # --- relation names -------------------------------------------------------------------

    def relations(self) -> None:
        sp, text = self.sp, self.text
        under_natural = natural.natural_sides(self.shape)
        for ref in self.shape.refs:
            if ref.cte is not None or ref.window:
                continue
            rel = self.routed.relation_of(ref)
            if rel is None:  # pragma: no cover - route resolved every reference
                raise RewriteRefused(f"relation {ref.name}")
            end = name_end(text, ref.location, len(ref.parts))
            phys = base = retention.splice(ref, rel, self.physical(rel))  # (retention.py)
            if ref.colnames and isinstance(rel, Relation) and ref.target is None:
                phys = natural.renamed(rel, phys, id(ref) in under_natural)
            if isinstance(rel, Relation):  # FOR SYSTEM_TIME AS OF (plan/temporal.py)
                phys = temporal.source(self, ref, rel, end, phys)
            if id(ref) in under_natural and has_hidden(rel) and phys == base:
                phys = f"(SELECT {', '.join(qi(n) for n in visible_names(rel))} FROM {phys})"
            alias = "" if ref.alias is not None else f" AS {qi(ref.exposed)}"
            sp.replace(ref.location, end, phys + alias)

    def physical(self, rel: object) -> str:
        if isinstance(rel, Relation) and rel.changelog:  # a changelog CTE (changelogs.py)
            self._changelogs.append(rel.id)
            return changelogs.placeholder(rel.id)
        if isinstance(rel, Relation) and rel.id in self.inline:
            return self.inline[rel.id]
        return physical(rel)

    def _find_qualified(
        self, level: tree.Level | None, qual: tuple[str, ...]
    ) -> tree.RelRef | None:
        while level is not None:
            for ref in level.relations():
                if ref.cte is not None or ref.alias is not None or ref.name != qual[-1]:
                    continue
                rel = self.routed.relation_of(ref)
                if rel is not None and getattr(rel, "schema", None) == qual[-2]:
                    return ref
            level = level.parent
        return None

    def column_paths(self) -> None:
        for path in self.shape.column_paths:
            if path.location in self._star_spans:
                continue
            qual = path.fields[:-1]
            if len(qual) < 2:
                continue
            ref = self._find_qualified(path.level, qual)
            if ref is None:
                continue
            end = name_end(self.text, path.location, len(qual))
            self.sp.replace(path.location, end, qi(ref.exposed))

    def descending_percentiles(self) -> None:
        """``approx_percentile(q, ...) WITHIN GROUP (ORDER BY x DESC)`` asks for ``1 - q``
        (RisingWave's rewrite, optimizer/plan_node/logical_agg.rs:770-772); PostgreSQL hands an
        ordered-set aggregate its rows unsorted (sqlfn/percentile)."""
        if "approx_percentile" not in self.shape.func_names:
            return
        for call in checks.nodes(self.shape, "FuncCall"):
            name = [n.get("String", {}).get("sval") for n in call.get("funcname") or []]
            order = call.get("agg_order") or []
            if name[-1:] != ["approx_percentile"] or not call.get("agg_within_group"):
                continue
            if not order or order[0].get("SortBy", {}).get("sortby_dir") != "SORTBY_DESC":
                continue
            _, args = call_args(self.text, call.get("location", -1))
            if args:
                self.sp.insert(args[0][0], "(1.0::float8 - (")
                self.sp.insert(args[0][1], "))")

    def jsonb_values(self) -> None:
        """The values ``jsonb_agg(x)``, ``jsonb_object_agg(k, x)``, ``jsonb_build_array(x, ...)``
        and ``jsonb_build_object(k, x, ...)`` put in a jsonb are RisingWave's ``to_jsonb`` of
        them (src/expr/impl/src/aggregate/jsonb_agg.rs and scalar/jsonb_build.rs call
        ``ToJsonb::add_to``, scalar/to_jsonb.rs: a float is an f64, ``1.0``), where
        PostgreSQL's keep a numeric (``1``): each value is spliced as ``rwfn.to_jsonb(x)``, a
        jsonb PostgreSQL embeds as it is (sqlfn/jsonb).  A whole-row ``t.*`` argument and the
        DISTINCT / VARIADIC forms are left as they are."""
        # the function -> (its number of arguments, None for any; which of them are values:
        # every one from ``first`` on, ``step`` apart)
        wanted: dict[str, tuple[int | None, int, int]] = {
            "jsonb_agg": (1, 0, 1),
            "jsonb_object_agg": (2, 1, 1),
            "jsonb_build_array": (None, 0, 1),
            "jsonb_build_object": (None, 1, 2),
        }
        if not wanted.keys() & self.shape.func_names:
            return
        for call in checks.nodes(self.shape, "FuncCall"):
            name = [n.get("String", {}).get("sval") for n in call.get("funcname") or []]
            if not name or name[-1] not in wanted or name[:-1] not in ([], ["pg_catalog"]):
                continue
            if call.get("agg_distinct") or call.get("func_variadic"):
                continue
            nodes = call.get("args") or []
            if any("A_Star" in str(n) for n in nodes):
                continue
            _, args = call_args(self.text, call.get("location", -1))
            count, first, step = wanted[name[-1]]
            if len(args) != len(nodes) or (count is not None and len(args) != count):
                continue
            for start, end in args[first::step]:
                self._to_jsonb(call, start, end)

    def _to_jsonb(self, call: tree.Node, start: int, end: int) -> None:
        order = call.get("agg_order") or []
        if order:  # the last argument's span runs on to ORDER BY ...
            node = order[0].get("SortBy", {}).get("node") or {}
            inner: dict[str, Any] = next(iter(node.values()), {}) if node else {}
            at = int(inner.get("location", -1))
            if start < at < end:
                end = keyword_before(self.text, at, b"ORDER")
        while start < end and self.text[start : start + 1].isspace():
            start += 1
        while end > start and self.text[end - 1 : end].isspace():
            end -= 1
        self.sp.insert(start, f"{names.FUNCTION_SCHEMA}.to_jsonb(")
        self.sp.insert(end, ")")

    # --- TUMBLE / HOP -----------------------------------------------------------------------

    def windows(self) -> None:
        for level in self.shape.levels:
            stack: list[tree.FromItem] = list(level.items)
            while stack:
                item = stack.pop()
                if isinstance(item, tree.JoinItem):
                    stack.extend((item.left, item.right))
                elif isinstance(item, tree.WindowItem):
                    self._window(item)

    def _window(self, item: tree.WindowItem) -> None:
        """The call as a subquery: the input's visible columns, then window_start and
        window_end (RisingWave's tumble_start; HOP: one row per window holding the time)."""
        text = self.text
        end, args = call_args(text, item.location)
        if item.kind == "gap_fill":
            self._gap_fill(item, end, [text[a:b].decode() for a, b in args])
            return
        want = 3 if item.kind == "tumble" else 4
        if len(args) not in (want, want + 1):
            raise RewriteRefused(f"{item.kind} with {len(args)} arguments")
        arg = [text[a:b].decode().strip() for a, b in args]
        ref = item.input
        src = "__rw_w"
        if ref.cte is not None:
            source, cols = qi(ref.name), f"{qi(src)}.*"
        else:
            rel = self.routed.relation_of(ref)
            if rel is None:  # pragma: no cover - route resolved it
                raise RewriteRefused(f"relation {ref.name}")
            source = self.physical(rel)
            cols = ", ".join(f"{qi(src)}.{qi(n)}" for n in visible_names(rel))
        f = names.FUNCTION_SCHEMA
        ts = arg[1]
        if item.kind == "tumble":
            size, offset = arg[2], arg[3:]
            start = f"{f}.tumble_start({', '.join([ts, size, *offset])})"
            body = (
                f"SELECT {cols}, {start} AS window_start, {start} + ({size}) AS window_end"
                f" FROM {source} AS {qi(src)}"
            )
        else:
            hop, size, offset = arg[2], arg[3], arg[4:]
            starts = f"{f}.hop_starts({', '.join([ts, hop, size, *offset])})"
            body = (
                f"SELECT {cols}, __rw_h.window_start, __rw_h.window_start + ({size})"
                f" AS window_end FROM {source} AS {qi(src)}"
                f" CROSS JOIN LATERAL {starts} AS __rw_h(window_start)"
            )
        alias = "" if item.alias is not None else f" AS {qi(item.input.parts[-1])}"
        self.sp.replace(item.location, end, f"({body}){alias}")

    def _gap_fill(self, item: tree.WindowItem, end: int, args: list[str]) -> None:
        rel = None if item.input.cte is not None else self.routed.relation_of(item.input)
        if not isinstance(rel, Relation):
            raise RewriteRefused("GAP_FILL over a CTE or a catalog relation")
        body = gapfill.subquery(rel, physical(rel), args)
        alias = "" if item.alias is not None else f" AS {qi(item.input.parts[-1])}"
        self.sp.replace(item.location, end, f"{body}{alias}")

    def window_names(self, item: tree.WindowItem) -> list[str] | None:
        ref = item.input
        if ref.cte is not None:
            base = list(ref.cte.colnames) or self.query_names(ref.cte.query)
        else:
            rel = self.routed.relation_of(ref)
            base = None if rel is None else visible_names(rel)
        if base is None:
            return None
        out = [*base] if item.kind == "gap_fill" else [*base, "window_start", "window_end"]
        return list(item.colnames) + out[len(item.colnames) :]

    # --- stars ----------------------------------------------------------------------------

    def stars(self) -> None:
        for level in self.shape.levels:
            for star in level.stars:
                exprs = self.star(star)
                if exprs is None:
                    continue
                if not exprs:
                    raise RewriteRefused("a wildcard that leaves no column")
                self._replace_star(star, ", ".join(exprs))

    def _replace_star(self, star: tree.Star, new: str) -> None:
        text = self.text
        if star.location < 0:
            # TABLE name: the implicit star of `TABLE t` is `SELECT <cols> FROM t`
            ref = star.level.relations()[0]
            kw = keyword_before(text, ref.location, b"TABLE")
            self.sp.replace(kw, kw + len(b"TABLE"), f"SELECT {new} FROM")
            return
        start = star.location
        pos = name_end(text, start, len(star.qualifier)) if star.qualifier else start
        end = text.index(b"*", pos) + 1
        self.sp.replace(start, end, new)
        self._star_spans.add(start)

    def star(self, star: tree.Star) -> list[str] | None:
        """The expressions a star becomes, or None to keep it as written."""
        excl = self.shape.star_excludes.get(star.location, frozenset())
        level = star.level
        if excl:
            self.check_excludes(level, excl)
        if star.qualifier:
            item = self._find_item(level, star.qualifier[-1])
            if item is None:
                return None
            if isinstance(item, tree.RelRef):
                rel = self.routed.relation_of(item)
                if not excl and not has_hidden(rel):
                    return None
            elif not excl:
                return None
            cols = self.item_names(item)
            if cols is None:
                raise RewriteRefused("this wildcard on user data")
            q = star.qualifier[-1]
            return [f"{qi(q)}.{qi(n)}" for n in cols if not _excluded(excl, q, n)]
        if (
            not excl
            and id(level) not in self._force_star
            and not any(
                has_hidden(self.routed.relation_of(r)) for r in level.relations() if r.cte is None
            )
        ):
            return None
        out: list[str] = []
        self._shared = self._name_counts(level.items)
        for item in level.items:
            exprs = self.item_exprs(item, excl)
            if exprs is None:
                raise RewriteRefused("this wildcard on user data")
            out.extend(exprs)
        return out

    def _name_counts(self, items: list[tree.FromItem]) -> dict[str, int]:
        """How many FROM items (through joins) have each column name."""
        counts: dict[str, int] = {}
        for item in items:
            if isinstance(item, tree.JoinItem):
                for n, k in self._name_counts([item.left, item.right]).items():
                    counts[n] = counts.get(n, 0) + k
                continue
            for n in set(self.item_names(item) or ()):
                counts[n] = counts.get(n, 0) + 1
        return counts

    def _find_item(self, level: tree.Level | None, name: str) -> tree.FromItem | None:
        while level is not None:
            found = self._item_named(level.items, name)
            if found is not None:
                return found
            level = level.parent
        return None

    def _item_named(self, items: list[tree.FromItem], name: str) -> tree.FromItem | None:
        for item in items:
            if isinstance(item, tree.JoinItem):
                if item.alias == name:
                    return item
                inner = self._item_named([item.left, item.right], name)
                if inner is not None:
                    return inner
            elif _exposed(item) == name or (
                isinstance(item, tree.RelRef) and item.rename is not None and item.name == name
            ):
                return item
        return None

    def item_exprs(self, item: tree.FromItem, excl: frozenset[str]) -> list[str] | None:
        """What a bare star yields for one FROM item (None: unknown)."""
        if isinstance(item, tree.JoinItem):
            if item.alias is not None:
                cols = self.item_names(item)
                if cols is None:
                    return None
                return [f"{qi(item.alias)}.{qi(n)}" for n in cols if n not in excl]
            merged = self.join_using(item)
            if merged is None:
                left = self.item_exprs(item.left, excl)
                right = self.item_exprs(item.right, excl)
                return None if left is None or right is None else left + right
            out = [qi(n) for n in merged if n not in excl]
            for side in (item.left, item.right):
                side_exprs = self.item_exprs(side, excl | frozenset(merged))
                if side_exprs is None:
                    return None
                if any(e.endswith(".*") for e in side_exprs):
                    # a side whose columns are not known cannot drop the merged ones
                    named = self.item_names(side)
                    if named is None:
                        return None
                    exposed = _exposed(side)
                    if exposed is None:
                        return None
                    side_exprs = [
                        f"{qi(exposed)}.{qi(n)}" for n in named if n not in excl and n not in merged
                    ]
                out.extend(side_exprs)
            return out
        exposed = _exposed(item)
        if exposed is None:
            if isinstance(item, tree.SubqueryItem):
                # an unaliased subquery (RisingWave's and PostgreSQL's) cannot be qualified:
                # its names unqualified (one another item shares is PostgreSQL's ambiguity)
                cols = self.item_names(item)
                if cols is None:
                    return None
                cols = [n for n in cols if n not in excl]
                return (
                    None if any(self._shared.get(n, 0) > 1 for n in cols) else list(map(qi, cols))
                )
            return None
        rel = self.routed.relation_of(item) if isinstance(item, tree.RelRef) else None
        if not excl and not has_hidden(rel):
            return [f"{qi(exposed)}.*"]
        cols = self.item_names(item)
        if cols is None:
            return None
        return [f"{qi(exposed)}.{qi(n)}" for n in cols if not _excluded(excl, exposed, n)]

    def check_excludes(self, level: tree.Level, excl: frozenset[str]) -> None:
        """Each name of an EXCEPT list binds to one column of the FROM clause, as RisingWave
        binds it (select.rs generate_except_indices: bind_expr, then an input ref): unknown is
        ``Invalid column``, two so named (one relation's too: bind_context.rs:160-172) ambiguous."""
        from rwshim.errors import BindExprError, InternalError, ItemNotFound

        items: list[tuple[str | None, list[str] | None]] = []
        merged: set[str] = set()  # USING / NATURAL columns: one column of the join

        def collect(item: tree.FromItem) -> None:
            if isinstance(item, tree.JoinItem) and item.alias is None:
                merged.update(self.join_using(item) or ())
                collect(item.left)
                collect(item.right)
                return
            items.append((_exposed(item), self.item_names(item)))

        for it in level.items:
            collect(it)
        if any(names_ is None for _, names_ in items):
            return  # a relation whose columns are not known here: PostgreSQL binds the rest
        for e in sorted(excl):
            qual, _, col = e.rpartition(".")
            found = [x for x, ns in items for n in ns or [] if n == col and qual in ("", x)]
            if not found:
                raise BindExprError(e, ItemNotFound(f"Invalid column: {col}"))
            if len(found) > 1 and col not in merged:
                raise InternalError(f"Ambiguous column name: {col}")

    def join_using(self, item: tree.JoinItem) -> list[str] | None:
        """The merged (USING / NATURAL) column names of a join, None when it has none."""
        if item.using:
            return list(item.using)
        if not item.natural:
            return None
        left, right = self.item_names(item.left), self.item_names(item.right)
        if left is None or right is None:
            raise RewriteRefused("NATURAL JOIN over a relation whose columns are unknown here")
        return [n for n in left if n in right]

    def item_names(self, item: tree.FromItem) -> list[str] | None:
        """The column names a FROM item exposes (visible ones), None when unknown."""
        if isinstance(item, tree.RelRef):
            if item.cte is not None:
                cte = item.cte
                names_ = list(cte.colnames) or self.query_names(cte.query)
                if names_ is None:
                    return None
                return list(item.colnames) + names_[len(item.colnames) :]
            rel = self.routed.relation_of(item)
            return None if rel is None else visible_names(rel, item.colnames)
        if isinstance(item, tree.SubqueryItem):
            sub = self.query_names(item.query)
            if sub is None:
                return list(item.colnames) or None
            return list(item.colnames) + sub[len(item.colnames) :]
        if isinstance(item, tree.WindowItem):
            return self.window_names(item)
        if isinstance(item, tree.FunctionItem):
            if item.colnames:
                return list(item.colnames)
            if len(item.names) == 1 and item.names[0]:
                out = [item.names[0][-1]]
                return out + (["ordinality"] if item.ordinality else [])
            return None
        if isinstance(item, tree.JoinItem):
            merged = self.join_using(item)
            left, right = self.item_names(item.left), self.item_names(item.right)
            if left is None or right is None:
                return None
            if merged is None:
                return left + right
            return (
                merged
                + [n for n in left if n not in merged]
                + [n for n in right if n not in merged]
            )
        return None

    def query_names(self, query: tree.Node) -> list[str] | None:
        """Output names of a query (its leftmost SELECT), None when unknown."""
        level = self.shape.level_of.get(id(query))
        if level is None:
            return None
        if id(level) in self.corr_names:
            return list(self.corr_names[id(level)])
        if level.values is not None:
            width = len(level.values[0]) if level.values else 0
            return [f"column{i + 1}" for i in range(width)]
        out: list[str] = []
        for rt in level.targets:
            if rt.get("name"):
                out.append(rt["name"])
                continue
            val = rt.get("val") or {}
            cref = val.get("ColumnRef")
            if cref is not None and cref.get("fields") and "A_Star" in cref["fields"][-1]:
                loc = cref.get("location", -1)
                star = next((s for s in level.stars if s.location == loc), None)
                if star is None:
                    return None
                expanded = self._star_names(star)
                if expanded is None:
                    return None
                out.extend(expanded)
                continue
            out.append(figure_name(val))
        return out

    def _star_names(self, star: tree.Star) -> list[str] | None:
        excl = self.shape.star_excludes.get(star.location, frozenset())
        if star.qualifier:
            item = self._find_item(star.level, star.qualifier[-1])
            found = None if item is None else self.item_names(item)
            return None if found is None else [n for n in found if n not in excl]
        out: list[str] = []
        for item in star.level.items:
            found = self.item_names(item)
            if found is None:
                return None
            out.extend(n for n in found if n not in excl)
        return out

    def source_width(self) -> int | None:
        """How many columns an INSERT's source produces (None when unknown here)."""
        info = self.shape.insert
        if info is None or info.source is None:
            return None
        if info.values_rows is not None:
            return len(info.values_rows[0]) if info.values_rows else 0
        found = self.query_names(info.source)
        return None if found is None else len(found)

    # --- functions and types --------------------------------------------------------------

    def value_functions(self) -> None:
        for vf in self.shape.value_funcs:
            new = functions.VALUE_FUNCTIONS.get(vf.op)
            if new is None:
                continue
            end = name_end(self.text, vf.location, 1)
            self.sp.replace(vf.location, end, new)
        for fr in self.shape.func_refs:
            # ``db.schema.f``: route checked that db is the current database, in which
            # RisingWave binds the call as ``schema.f`` (binder/expr/function/mod.rs:116-128)
            qualifiers = len(fr.parts) - 1
            schema = fr.parts[-2]
            if schema == "pg_catalog" and fr.parts[-1] in functions.OVERRIDES:
                schema = names.FUNCTION_SCHEMA
            elif qualifiers == 1:
                continue
            else:
                schema = names.quote_ident(schema)
            end = name_end(self.text, fr.location, qualifiers)
            self.sp.replace(fr.location, end, schema)

    def type_names(self) -> None:
        typenames.splice(self.routed, self.sp)


def _excluded(excl: frozenset[str], exposed: str | None, name: str) -> bool:
    """Whether an EXCEPT list leaves column ``name`` of the item ``exposed`` out."""
    return name in excl or (exposed is not None and f"{exposed}.{name}" in excl)


def _exposed(item: tree.FromItem) -> str | None:
    if isinstance(item, tree.RelRef):
        return item.exposed
    if isinstance(item, tree.WindowItem):
        # unaliased, the input relation's name (window_table_function.rs:118-120)
        return item.alias if item.alias is not None else item.input.parts[-1]
    if isinstance(item, tree.FunctionItem):
        if item.alias is not None:
            return item.alias
        return item.names[0][-1] if len(item.names) == 1 and item.names[0] else None
    return item.alias
