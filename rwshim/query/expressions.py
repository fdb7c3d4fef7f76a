"""Expression binding and rewriting: each PostgreSQL construct turned into what SQLite runs.

``ExprBinder.bind`` resolves columns, infers the PostgreSQL type of every expression (for
RowDescription and parameter inference) and rewrites in place: casts into ``rw_cast``,
``~``/``OPERATOR(pg_catalog.~)`` into ``rw_regex``, ``= ANY(array)`` into ``rw_any_eq``,
``ARRAY[...]``/``ARRAY(SELECT ...)`` into JSON text, ``COLLATE pg_catalog.default`` dropped,
``$n`` into ``?n``, integer and numeric arithmetic into the checked ``rw_arith``, ``LIKE`` with
PostgreSQL's backslash escape, ordered aggregates, catalog functions as correlated subqueries.
Errors at the root of an expression get RisingWave's ``Failed to bind expression: <expr>``
(src/frontend/src/binder/expr/mod.rs:57-64).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import sqlglot
from sqlglot import exp

from rwshim import pgtypes
from rwshim.errors import (
    BindExprError,
    CatalogNotFound,
    ItemNotFound,
    NoFunction,
    NotImplementedError_,
    RwError,
)
from rwshim.query import types
from rwshim.query.names import (
    func_name,
)
from rwshim.query.parsing import (
    expr_text,
    type_oid_of,
)
from rwshim.query.scope import (
    UNKNOWN,
    Scope,
    SystemRelation,
    call,
    cast_call,
    lit_int,
    lit_str,
    literal_default,
    lookup,
    rename_outputs,
)

if TYPE_CHECKING:
    from rwshim.query.binder import Binder


# Return types of functions by lower-case PostgreSQL name; "arg0" = type of the first argument.
_FUNC_TYPES: dict[str, int | str] = {
    "count": pgtypes.INT8,
    "sum": "sum",
    "avg": "avg",
    "min": "arg0",
    "max": "arg0",
    "bool_and": pgtypes.BOOL,
    "bool_or": pgtypes.BOOL,
    "every": pgtypes.BOOL,
    "array_agg": "array",
    "string_agg": pgtypes.VARCHAR,
    "coalesce": "common",
    "nullif": "arg0",
    "greatest": "common",
    "least": "common",
    "abs": "arg0",
    "round": "arg0",
    "ceil": "arg0",
    "ceiling": "arg0",
    "floor": "arg0",
    "trunc": pgtypes.FLOAT8,
    "sqrt": pgtypes.FLOAT8,
    "power": pgtypes.FLOAT8,
    "pow": pgtypes.FLOAT8,
    "exp": pgtypes.FLOAT8,
    "ln": pgtypes.FLOAT8,
    "log10": pgtypes.FLOAT8,
    "pi": pgtypes.FLOAT8,
    "random": pgtypes.FLOAT8,
    "sign": "arg0",
    "mod": "arg0",
    "length": pgtypes.INT4,
    "char_length": pgtypes.INT4,
    "character_length": pgtypes.INT4,
    "octet_length": pgtypes.INT4,
    "strpos": pgtypes.INT4,
    "position": pgtypes.INT4,
    "array_position": pgtypes.INT4,
    "array_length": pgtypes.INT4,
    "cardinality": pgtypes.INT4,
    "array_upper": pgtypes.INT4,
    "array_lower": pgtypes.INT4,
    "row_number": pgtypes.INT8,
    "rank": pgtypes.INT8,
    "dense_rank": pgtypes.INT8,
    "lag": "arg0",
    "lead": "arg0",
    "first_value": "arg0",
    "last_value": "arg0",
    "now": pgtypes.TIMESTAMPTZ,
    "current_timestamp": pgtypes.TIMESTAMPTZ,
    "current_date": pgtypes.DATE,
    "date_trunc": "arg1",
    "date_part": pgtypes.FLOAT8,
    "extract": pgtypes.NUMERIC,
    "to_timestamp": pgtypes.TIMESTAMPTZ,
    "pg_table_is_visible": pgtypes.BOOL,
    "pg_relation_is_publishable": pgtypes.BOOL,
    "pg_collation_is_visible": pgtypes.BOOL,
    "starts_with": pgtypes.BOOL,
    "pg_table_size": pgtypes.INT8,
    "pg_relation_size": pgtypes.INT8,
    "pg_total_relation_size": pgtypes.INT8,
    "to_regtype": types.REGTYPE_TAG,
    "json_build_object": pgtypes.JSONB,
    "jsonb_build_object": pgtypes.JSONB,
    "generate_subscripts": pgtypes.INT4,
    "tumble_start": "arg0",
    "rw_hop_starts": "array",
    "rw_ts_add": "arg0",
    "unnest": "elem",
    "generate_series": "arg0",
    "pg_advisory_unlock_all": pgtypes.VARCHAR,
    "current_schemas": pgtypes.VARCHAR_ARRAY,
    "rw_current_database_id": pgtypes.INT4,
    "rw_current_user_id": pgtypes.INT4,
}


# Functions whose pg_catalog-qualified or bare PostgreSQL name maps to a registered helper.
_RENAMED: dict[str, str] = {
    "version": "rw_version",
    "now": "rw_now",
    "current_database": "rw_current_database",
    "current_schemas": "rw_current_schemas",
    "concat": "rw_concat",
    "round": "rw_round",
    "date_part": "date_part",
    "string_agg": "rw_string_agg",
    # LEFT and RIGHT are join keywords in SQLite
    "left": "rw_left",
    "right": "rw_right",
    "array_agg": "rw_array_agg",
}


_KEYWORD_FUNCS = {
    "current_user",
    "session_user",
    "user",
    "current_role",
    "current_catalog",
    "current_schema",
}


class ExprBinder:
    """Expression binding and rewriting inside one scope."""

    def __init__(self, binder: Binder, scope: Scope) -> None:
        self.b = binder
        self.scope = scope

    def bind_top(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        """Bind a root expression; errors get RisingWave's ``Failed to bind expression``."""
        original = expr_text(node)
        try:
            return self.bind(node)
        except BindExprError:
            raise
        except RwError as e:
            if e.chain and e.chain[0].startswith(
                ("Item not found", "Invalid reference", "internal error", "function ")
            ):
                raise BindExprError(original, e) from None
            raise

    def hint_param(self, node: exp.Expr, oid: int) -> None:
        """Record the type a ``$n`` parameter takes from its context (if not given)."""
        n = param_number(node)
        if n is not None and n not in self.b.params and oid not in (UNKNOWN,):
            self.b.params[n] = oid

    def bind(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        handler = _HANDLERS.get(type(node))
        if handler is not None:
            return handler(self, node)
        if isinstance(node, exp.Func):
            return self._func(node)
        if isinstance(node, (exp.Predicate, exp.Connector)):
            self._children(node)
            return node, pgtypes.BOOL
        self._children(node)
        return node, pgtypes.VARCHAR

    def _children(self, node: exp.Expr) -> list[int]:
        oids = []
        for key, value in list(node.args.items()):
            if isinstance(value, exp.Expr):
                new, oid = self.bind(value)
                if new is not value:
                    node.set(key, new)
                oids.append(oid)
            elif isinstance(value, list):
                out = []
                for v in value:
                    if isinstance(v, exp.Expr):
                        new, oid = self.bind(v)
                        out.append(new)
                        oids.append(oid)
                    else:
                        out.append(v)
                node.set(key, out)
        return oids

    # --- leaves --------------------------------------------------------------------------

    def _column(self, node: exp.Column) -> tuple[exp.Expr, int]:
        name = node.name
        table = node.table or None
        schema = node.db or None
        if isinstance(node.this, exp.Star):
            raise RwError("Bind error: * is only allowed in the select list")
        scope: Scope | None = self.scope
        err: RwError | None = None
        while scope is not None:
            try:
                src, col = lookup(scope, schema, table, name)
                return src.ref(col.name), col.type_oid
            except RwError as e:
                if err is None or isinstance(err, ItemNotFound):
                    err = e
                if not isinstance(e, ItemNotFound):
                    raise
            scope = scope.parent
        if table is None and name.lower() in _KEYWORD_FUNCS:
            return self._keyword_func(name.lower())
        if table is None and name == "ctid":
            return lit_str(""), pgtypes.VARCHAR
        # an output alias referenced in ORDER BY/GROUP BY inside an expression is not valid
        assert err is not None
        raise err

    def _keyword_func(self, name: str) -> tuple[exp.Expr, int]:
        if name in ("current_user", "session_user", "user", "current_role"):
            return call("rw_current_user"), pgtypes.VARCHAR
        if name == "current_catalog":
            return call("rw_current_database"), pgtypes.VARCHAR
        return call("rw_current_schema"), pgtypes.VARCHAR

    def _literal(self, node: exp.Literal) -> tuple[exp.Expr, int]:
        if node.is_string:
            return node, UNKNOWN
        text = node.this
        if any(c in text for c in ".eE"):
            return node, pgtypes.NUMERIC
        v = int(text)
        if v <= 2**31 - 1:
            return node, pgtypes.INT4
        if v <= 2**63 - 1:
            return node, pgtypes.INT8
        return node, pgtypes.NUMERIC

    def _param(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        n = param_number(node)
        assert n is not None
        self.b.max_param = max(self.b.max_param, n)
        # SQLite's numbered form (sqlglot would print ":n", which SQLite numbers by position)
        return exp.Var(this=f"?{n}"), self.b.params.get(n, UNKNOWN)

    # --- operators -----------------------------------------------------------------------

    def _binary_operands(self, node: exp.Binary) -> tuple[int, int]:
        left, right = node.this, node.expression
        # a parameter takes the type of the other side (PostgreSQL's unknown resolution)
        lt = self._peek_type(left)
        rt = self._peek_type(right)
        if param_number(left) is not None and rt not in (None, UNKNOWN):
            self.hint_param(left, rt)
        if param_number(right) is not None and lt not in (None, UNKNOWN):
            self.hint_param(right, lt)
        new_l, lo = self.bind(left)
        new_r, ro = self.bind(right)
        node.set("this", new_l)
        node.set("expression", new_r)
        if param_number(left) is not None and lo == UNKNOWN and ro != UNKNOWN:
            self.hint_param(left, ro)
            lo = ro
        if param_number(right) is not None and ro == UNKNOWN and lo != UNKNOWN:
            self.hint_param(right, lo)
            ro = lo
        return lo, ro

    def _peek_type(self, node: exp.Expr) -> int | None:
        """The type of a column reference or cast without binding it (for parameter hints)."""
        if isinstance(node, (exp.Cast, exp.TryCast)):
            return type_oid_of(node.args["to"])
        if isinstance(node, exp.Column) and not isinstance(node.this, exp.Star):
            scope: Scope | None = self.scope
            while scope is not None:
                try:
                    return lookup(scope, node.db or None, node.table or None, node.name)[1].type_oid
                except RwError:
                    scope = scope.parent
        return None

    def _compare(self, node: exp.Binary) -> tuple[exp.Expr, int]:
        right = node.expression
        if isinstance(right, exp.Anonymous) and right.name.upper() in ("ALL", "ANY", "SOME"):
            quant = exp.All if right.name.upper() == "ALL" else exp.Any
            right = quant(this=right.expressions[0])
            node.set("expression", right)
        if isinstance(right, (exp.Any, exp.All)):
            return self._any(node)
        lo, ro = self._binary_operands(node)
        if pgtypes.BOOL in (lo, ro):
            for side, other in (("this", ro), ("expression", lo)):
                val = node.args[side]
                if isinstance(val, exp.Literal) and val.is_string and other == pgtypes.BOOL:
                    node.set(side, cast_call(val, UNKNOWN, pgtypes.BOOL))
        return node, pgtypes.BOOL

    def _any(self, node: exp.Binary) -> tuple[exp.Expr, int]:
        quant = node.expression
        inner = quant.this
        while isinstance(inner, exp.Paren):
            inner = inner.this
        left_t = self._peek_type(node.this)
        if isinstance(inner, (exp.Select, exp.Union, exp.Subquery)):
            new_l, _ = self.bind(node.this)
            self.b.query(inner, self.scope)
            q = inner.this if isinstance(inner, exp.Subquery) else inner
            result: exp.Expr = exp.In(this=new_l, query=exp.Subquery(this=q))
            if isinstance(node, exp.NEQ) and isinstance(quant, exp.All):
                result = exp.Not(this=result)
            return result, pgtypes.BOOL
        if left_t is not None:
            self.hint_param(inner, types.array_of(types.external(left_t)))
        new_l, lo = self.bind(node.this)
        new_arr, _ao = self.bind(inner)
        if param_number(inner) is not None and lo != UNKNOWN:
            self.hint_param(inner, types.array_of(types.external(lo)))
        made = call("rw_any_eq", new_l, new_arr)
        if isinstance(node, exp.EQ) and isinstance(quant, exp.Any):
            return made, pgtypes.BOOL
        if isinstance(node, exp.NEQ) and isinstance(quant, exp.All):
            return exp.Not(this=made), pgtypes.BOOL
        raise NotImplementedError_(f"{type(node).__name__} with {type(quant).__name__}")

    def _arith(self, node: exp.Binary) -> tuple[exp.Expr, int]:
        lo, ro = self._binary_operands(node)
        lo = pgtypes.INT4 if lo == UNKNOWN and isinstance(node.this, exp.Placeholder) else lo
        op = {exp.Add: "+", exp.Sub: "-", exp.Mul: "*", exp.Div: "/", exp.Mod: "%"}[type(node)]
        temporal = {lo, ro} & types.TEMPORAL_OIDS
        if temporal:
            return self._temporal_arith(node, op, lo, ro)
        if lo == UNKNOWN:
            lo = ro
        if ro == UNKNOWN:
            ro = lo
        result = types.wider_numeric(lo, ro)
        if result in types.INTEGER_OIDS or result == pgtypes.NUMERIC or op in "/%":
            return call(
                "rw_arith", lit_str(op), lit_int(result), node.this, node.expression
            ), result
        return node, result

    def _temporal_arith(self, node: exp.Binary, op: str, lo: int, ro: int) -> tuple[exp.Expr, int]:
        a, b = node.this, node.expression
        if (
            op in "+-"
            and ro == pgtypes.INTERVAL
            and lo in (pgtypes.TIMESTAMP, pgtypes.TIMESTAMPTZ, pgtypes.DATE)
        ):
            out = pgtypes.TIMESTAMP if lo == pgtypes.DATE else lo
            return call("rw_ts_add", a, b, lit_int(1 if op == "+" else -1)), out
        if (
            op == "+"
            and lo == pgtypes.INTERVAL
            and ro in (pgtypes.TIMESTAMP, pgtypes.TIMESTAMPTZ, pgtypes.DATE)
        ):
            out = pgtypes.TIMESTAMP if ro == pgtypes.DATE else ro
            return call("rw_ts_add", b, a, lit_int(1)), out
        if op == "-" and lo in (pgtypes.TIMESTAMP, pgtypes.TIMESTAMPTZ) and ro == lo:
            return call("rw_ts_diff", a, b), pgtypes.INTERVAL
        if op == "-" and lo == pgtypes.DATE and ro == pgtypes.DATE:
            return exp.Cast(
                this=exp.Sub(this=call("julianday", a), expression=call("julianday", b)),
                to=exp.DataType.build("int"),
            ), pgtypes.INT4
        if op in "+-" and lo == pgtypes.DATE and ro in types.INTEGER_OIDS:
            days = exp.Concat(expressions=[lit_str("+" if op == "+" else "-"), b, lit_str(" days")])
            return call("date", a, days), pgtypes.DATE
        from rwshim.query.casts import DISPLAY

        fname = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide", "%": "modulus"}[op]
        raise NoFunction(
            f"{fname}({DISPLAY.get(types.external(lo), 'unknown')}, "
            f"{DISPLAY.get(types.external(ro), 'unknown')})"
        )

    def _concat(self, node: exp.DPipe) -> tuple[exp.Expr, int]:
        lo, ro = self._binary_operands(node)
        if types.is_array(lo) or types.is_array(ro):
            if types.is_array(lo) and types.is_array(ro):
                return call("rw_array_cat", node.this, node.expression), lo
            if types.is_array(lo):
                return call("rw_array_append", node.this, node.expression), lo
        parts = []
        for side, oid in ((node.this, lo), (node.expression, ro)):
            if oid not in types.STRING_OIDS and oid != UNKNOWN:
                side = cast_call(side, oid, pgtypes.VARCHAR)
            parts.append(side)
        return exp.DPipe(this=parts[0], expression=parts[1]), pgtypes.VARCHAR

    def _regex(self, node: exp.Expr, ci: bool) -> tuple[exp.Expr, int]:
        new_l, _ = self.bind(node.this)
        new_r, _ = self.bind(node.expression)
        return call("rw_regex", new_l, new_r, lit_int(1 if ci else 0)), pgtypes.BOOL

    def _operator(self, node: exp.Operator) -> tuple[exp.Expr, int]:
        op = str(node.args.get("operator") or "").replace(" ", "").lower()
        op = op.removeprefix("pg_catalog.")
        if op in ("~", "~*", "!~", "!~*"):
            res, oid = self._regex(node, "*" in op)
            return (exp.Not(this=res) if op.startswith("!") else res), oid
        simple = {
            "=": exp.EQ,
            "<>": exp.NEQ,
            "!=": exp.NEQ,
            "<": exp.LT,
            ">": exp.GT,
            "<=": exp.LTE,
            ">=": exp.GTE,
            "~~": exp.Like,
            "!~~": None,
        }
        cls = simple.get(op)
        if cls is not None:
            return self.bind(cls(this=node.this, expression=node.expression))
        raise NotImplementedError_(f"operator {op}")

    def _like(
        self, node: exp.Expr, escape: exp.Expr | None = None, ci: bool = False
    ) -> tuple[exp.Expr, int]:
        new_l, _ = self.bind(node.this)
        new_r, _ = self.bind(node.expression)
        esc = self.bind(escape)[0] if escape is not None else exp.Null()
        if not ci and escape is None and isinstance(new_r, exp.Literal) and "\\" not in new_r.this:
            return exp.Like(this=new_l, expression=new_r), pgtypes.BOOL
        return call("rw_like", new_l, new_r, esc, lit_int(1 if ci else 0)), pgtypes.BOOL

    def _escape(self, node: exp.Escape) -> tuple[exp.Expr, int]:
        inner = node.this
        ci = isinstance(inner, exp.ILike)
        res, oid = self._like(inner, node.expression, ci)
        return res, oid

    def _collate(self, node: exp.Collate) -> tuple[exp.Expr, int]:
        # PostgreSQL's "default" collation is SQLite's BINARY: the clause is dropped
        return self.bind(node.this)

    def _cast(self, node: exp.Cast) -> tuple[exp.Expr, int]:
        to = type_oid_of(node.args["to"])
        inner = node.this
        # a parameter cast to a reg* type is sent as the object's name
        reg = to in (types.REGTYPE_TAG, types.REGNAMESPACE_TAG) or is_regclass(node.args["to"])
        self.hint_param(inner, pgtypes.VARCHAR if reg else types.external(to))
        if to == pgtypes.INT4 and is_regclass(node.args["to"]):
            return self._regclass(inner)
        new, frm = self.bind(inner)
        if to == types.REGTYPE_TAG and frm in types.STRING_OIDS | {UNKNOWN}:
            return call("to_regtype", new), to
        if to == types.REGNAMESPACE_TAG and frm in types.STRING_OIDS | {UNKNOWN}:
            return self._regnamespace(new), to
        if to in types.STRING_OIDS and frm == types.REGTYPE_TAG:
            return call("format_type", new, exp.Null()), pgtypes.VARCHAR
        if to in types.STRING_OIDS and frm == types.REGNAMESPACE_TAG:
            return self._nspname(new), pgtypes.VARCHAR
        if (
            frm == to
            or (to in types.STRING_OIDS and frm in types.STRING_OIDS)
            or (
                to in types.INTEGER_OIDS | {types.REGTYPE_TAG, types.REGNAMESPACE_TAG}
                and frm in types.INTEGER_OIDS | {types.REGTYPE_TAG, types.REGNAMESPACE_TAG}
                and to != pgtypes.INT2
            )
        ):
            return new, to
        return cast_call(new, frm, to), to

    def _regclass(self, inner: exp.Expr) -> tuple[exp.Expr, int]:
        new, frm = self.bind(inner)
        if frm in types.INTEGER_OIDS:
            return new, pgtypes.INT4
        if isinstance(new, exp.Literal) and new.is_string:
            const = self._regclass_const(new.this)
            if const is not None:
                return lit_int(const), pgtypes.INT4
        # by name at run time: through pg_class of the visible schemas
        path = ", ".join(f"'{s}'" for s in self.b.ctx.resolved_path())
        sub = sqlglot.parse_one(
            "SELECT __rw_c.oid FROM pg_catalog.pg_class AS __rw_c "
            "JOIN pg_catalog.pg_namespace AS __rw_n ON __rw_n.oid = __rw_c.relnamespace "
            f"WHERE __rw_c.relname = ? AND __rw_n.nspname IN ({path}) LIMIT 1",
            read="postgres",
        )
        sub.find(exp.Placeholder).replace(new)  # type: ignore[union-attr]
        self.b.query(sub, self.scope)
        return exp.Subquery(this=sub), pgtypes.INT4

    def _regclass_const(self, text: str) -> int | None:
        """The oid of a user relation named by a constant; None for a system relation (looked
        up in pg_class at run time)."""
        parts = [p.strip('"') for p in text.split(".")]
        name = parts[-1]
        schema = parts[-2] if len(parts) >= 2 else None
        try:
            rel = self.b.resolve_relation(None, schema, name)
        except (CatalogNotFound, NotImplementedError_):
            raise CatalogNotFound("relation", text) from None
        if isinstance(rel, SystemRelation):
            return None
        return rel.id

    def _regnamespace(self, new: exp.Expr) -> exp.Expr:
        sub = sqlglot.parse_one(
            "SELECT __rw_n.oid FROM pg_catalog.pg_namespace AS __rw_n WHERE __rw_n.nspname = ?",
            read="postgres",
        )
        sub.find(exp.Placeholder).replace(new)  # type: ignore[union-attr]
        self.b.query(sub, self.scope)
        return exp.Subquery(this=sub)

    def _nspname(self, new: exp.Expr) -> exp.Expr:
        sub = sqlglot.parse_one(
            "SELECT __rw_n.nspname FROM pg_catalog.pg_namespace AS __rw_n WHERE __rw_n.oid = ?",
            read="postgres",
        )
        sub.find(exp.Placeholder).replace(new)  # type: ignore[union-attr]
        self.b.query(sub, self.scope)
        return exp.Subquery(this=sub)

    # --- composite -----------------------------------------------------------------------

    def _array(self, node: exp.Array) -> tuple[exp.Expr, int]:
        if len(node.expressions) == 1 and isinstance(
            node.expressions[0], (exp.Select, exp.Union, exp.Subquery)
        ):
            q = node.expressions[0]
            cols = self.b.query(q, self.scope)
            if isinstance(q, exp.Subquery):
                q = q.this
            elem = cols[0].type_oid if cols else pgtypes.VARCHAR
            agg = sqlglot.parse_one(
                'SELECT COALESCE(rw_array_agg("__v"), \'[]\') FROM ? AS "__a"', read="sqlite"
            )
            name = cols[0].name if cols else "?column?"
            rename_outputs(q, ["__v"] + [c.name for c in cols[1:]])
            del name
            agg.find(exp.Placeholder).replace(exp.Subquery(this=q))  # type: ignore[union-attr]
            return exp.Subquery(this=agg), types.array_of(literal_default(elem))
        items = []
        elem = UNKNOWN
        for x in node.expressions:
            new, oid = self.bind(x)
            items.append(new)
            if elem == UNKNOWN:
                elem = oid
        return call("rw_array", *items), types.array_of(literal_default(elem))

    def _bracket(self, node: exp.Bracket) -> tuple[exp.Expr, int]:
        new, oid = self.bind(node.this)
        idx, _ = self.bind(node.expressions[0])
        # sqlglot stores PostgreSQL's 1-based subscript 0-based
        one_based: exp.Expr = (
            exp.Literal.number(int(idx.this) + 1)
            if isinstance(idx, exp.Literal) and not idx.is_string
            else exp.Add(this=idx, expression=exp.Literal.number(1))
        )
        return call("rw_array_get", new, one_based), types.element_of(oid) or pgtypes.VARCHAR

    def _subquery(self, node: exp.Subquery) -> tuple[exp.Expr, int]:
        cols = self.b.query(node.this, self.scope)
        return node, cols[0].type_oid if cols else pgtypes.VARCHAR

    def _exists(self, node: exp.Exists) -> tuple[exp.Expr, int]:
        self.b.query(node.this, self.scope)
        return node, pgtypes.BOOL

    def _in(self, node: exp.In) -> tuple[exp.Expr, int]:
        new, lo = self.bind(node.this)
        node.set("this", new)
        q = node.args.get("query")
        if q is not None:
            self.b.query(q, self.scope)
        out = []
        for x in node.expressions:
            self.hint_param(x, lo)
            out.append(self.bind(x)[0])
        node.set("expressions", out)
        return node, pgtypes.BOOL

    def _case(self, node: exp.Case) -> tuple[exp.Expr, int]:
        oids = []
        if node.this is not None:
            node.set("this", self.bind(node.this)[0])
        for ifn in node.args.get("ifs") or []:
            ifn.set("this", self.bind(ifn.this)[0])
            new, oid = self.bind(ifn.args["true"])
            ifn.set("true", new)
            oids.append(oid)
        default = node.args.get("default")
        if default is not None:
            new, oid = self.bind(default)
            node.set("default", new)
            oids.append(oid)
        return node, common_type(oids)

    def _paren(self, node: exp.Paren) -> tuple[exp.Expr, int]:
        new, oid = self.bind(node.this)
        node.set("this", new)
        return node, oid

    def _boolean(self, node: exp.Boolean) -> tuple[exp.Expr, int]:
        return exp.Literal.number(1 if node.this else 0), pgtypes.BOOL

    def _null(self, node: exp.Null) -> tuple[exp.Expr, int]:
        return node, UNKNOWN

    def _neg(self, node: exp.Neg) -> tuple[exp.Expr, int]:
        new, oid = self.bind(node.this)
        node.set("this", new)
        return node, oid

    def _not(self, node: exp.Not) -> tuple[exp.Expr, int]:
        new, _ = self.bind(node.this)
        node.set("this", new)
        return node, pgtypes.BOOL

    def _distinct_from(self, node: exp.Binary) -> tuple[exp.Expr, int]:
        self._binary_operands(node)
        made = call("rw_distinct", node.this, node.expression)
        if isinstance(node, exp.NullSafeEQ):
            return exp.Not(this=made), pgtypes.BOOL
        return made, pgtypes.BOOL

    def _json_get(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        """``->`` / ``->>``: sqlglot already turned the key into SQLite's JSON path."""
        new, _ = self.bind(node.this)
        node.set("this", new)
        if isinstance(node, exp.JSONExtractScalar):
            # ->> of an object or array is its jsonb text, spaced as RisingWave prints it
            as_json = exp.JSONExtract(**{k: v for k, v in node.args.items()})
            return call("rw_json_text", as_json), pgtypes.VARCHAR
        return node, pgtypes.JSONB

    def _contains_all(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        a, ao = self.bind(node.this)
        b, bo = self.bind(node.expression)
        if types.is_array(ao) or types.is_array(bo):
            return call("rw_array_contains_all", a, b), pgtypes.BOOL
        return call("rw_jsonb_contains", a, b), pgtypes.BOOL

    def _contained_by(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        a, ao = self.bind(node.this)
        b, bo = self.bind(node.expression)
        if types.is_array(ao) or types.is_array(bo):
            return call("rw_array_contains_all", b, a), pgtypes.BOOL
        return call("rw_jsonb_contains", b, a), pgtypes.BOOL

    def _similar_to(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        a, _ = self.bind(node.this)
        b, _ = self.bind(node.expression)
        return call("rw_similar", a, b), pgtypes.BOOL

    def _interval(self, node: exp.Interval) -> tuple[exp.Expr, int]:
        text = node.this.name if node.this is not None else ""
        unit = node.args.get("unit")
        if unit is not None:
            text = f"{text} {unit.name.lower()}"
        return cast_call(lit_str(text), UNKNOWN, pgtypes.INTERVAL), pgtypes.INTERVAL

    def _bytestring(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        # sqlglot reads E'...' as a ByteString already unescaped
        return lit_str(node.this), UNKNOWN

    def _dot(self, node: exp.Dot) -> tuple[exp.Expr, int]:
        left = node.this
        if (
            isinstance(left, (exp.Identifier, exp.Var))
            and left.name.lower() == "pg_catalog"
            and (isinstance(node.expression, exp.Func))
        ):
            return self.bind(node.expression)
        if isinstance(node.expression, exp.Func):
            raise NoFunction(f"{left.name}.{func_name(node.expression)}")
        self._children(node)
        return node, pgtypes.VARCHAR

    def _window(self, node: exp.Window) -> tuple[exp.Expr, int]:
        new, oid = self.bind(node.this)
        node.set("this", new)
        for key in ("partition_by",):
            parts = node.args.get(key) or []
            node.set(key, [self.bind(p)[0] for p in parts])
        order = node.args.get("order")
        if order is not None:
            for o in order.expressions:
                o.set("this", self.bind(o.this)[0])
        return node, oid

    def _filter(self, node: exp.Filter) -> tuple[exp.Expr, int]:
        new, oid = self.bind(node.this)
        node.set("this", new)
        where = node.expression
        where.set("this", self.bind(where.this)[0])
        return node, oid

    # --- functions -----------------------------------------------------------------------

    def _func(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        name = func_name(node)
        special = _SPECIAL_FUNCS.get(name)
        if special is not None:
            return special(self, node)
        args = func_args(node)
        bound = [self.bind(a) for a in args]
        new_args = [b[0] for b in bound]
        oids = [b[1] for b in bound]
        rtype = _FUNC_TYPES.get(name)
        oid = result_type(rtype, oids)
        if isinstance(node, exp.Anonymous):
            target = _RENAMED.get(name, name)
            if self.b.functions is not None and target not in self.b.functions:
                from rwshim.query.casts import DISPLAY

                sig = ", ".join(DISPLAY.get(types.external(o), "unknown") for o in oids)
                raise NoFunction(f"{name}({sig})")
            node.set("this", target)
            node.set("expressions", new_args)
            return node, oid
        if name in _RENAMED:
            return call(_RENAMED[name], *new_args), oid
        # a typed sqlglot node sqlite can print: rebind its children in place
        self._rebind_args(node, args, new_args)
        return node, oid

    def _rebind_args(self, node: exp.Expr, old: list[exp.Expr], new: list[exp.Expr]) -> None:
        mapping = {id(o): n for o, n in zip(old, new, strict=True)}
        for key, value in list(node.args.items()):
            if isinstance(value, exp.Expr) and id(value) in mapping:
                node.set(key, mapping[id(value)])
            elif isinstance(value, list):
                node.set(
                    key,
                    [mapping.get(id(v), v) if isinstance(v, exp.Expr) else v for v in value],
                )

    def _agg_ordered(
        self, node: exp.Expr, helper: str, extra: list[exp.Expr]
    ) -> tuple[exp.Expr, int]:
        this = node.this
        keys: list[exp.Expr] = []
        distinct = False
        if isinstance(this, exp.Order):
            for o in this.expressions:
                keys.append(self.bind(o.this)[0])
                keys.append(lit_int(1 if o.args.get("desc") else 0))
            this = this.this
        if isinstance(this, exp.Distinct):
            distinct = True
            this = this.expressions[0]
        new, oid = self.bind(this)
        bound_extra = [self.bind(x)[0] for x in extra]
        made = call(helper, new, *bound_extra, *keys)
        if distinct:
            made.set("expressions", [exp.Distinct(expressions=[new])])
        return made, oid

    def _array_agg(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        made, oid = self._agg_ordered(node, "rw_array_agg", [])
        return made, types.array_of(types.external(literal_default(oid)))

    def _string_agg(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        sep = node.args.get("separator")
        if isinstance(node, exp.Anonymous):
            args = node.expressions
            node = exp.GroupConcat(this=args[0], separator=args[1] if len(args) > 1 else None)
            sep = node.args.get("separator")
        made, _ = self._agg_ordered(node, "rw_string_agg", [sep if sep is not None else exp.Null()])
        return made, pgtypes.VARCHAR

    def _count(self, node: exp.Count) -> tuple[exp.Expr, int]:
        if node.this is not None and not isinstance(node.this, exp.Star):
            node.set("this", self.bind(node.this)[0])
        return node, pgtypes.INT8

    def _sum_avg(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        inner = node.this
        distinct = isinstance(inner, exp.Distinct)
        if distinct:
            inner = inner.expressions[0]
        new, oid = self.bind(inner)
        if distinct:
            node.set("this", exp.Distinct(expressions=[new]))
        else:
            node.set("this", new)
        is_avg = isinstance(node, exp.Avg)
        if oid in types.FLOAT_OIDS:
            return node, pgtypes.FLOAT8 if is_avg else oid
        if not is_avg and oid in (pgtypes.INT2, pgtypes.INT4):
            return node, pgtypes.INT8
        # numeric results are computed in decimal, as RisingWave's rust_decimal does
        arg: exp.Expr = exp.Distinct(expressions=[new]) if distinct else new
        return call("rw_avg_dec" if is_avg else "rw_sum_dec", arg), pgtypes.NUMERIC

    def _extract(self, node: exp.Extract) -> tuple[exp.Expr, int]:
        unit = node.this.name.lower() if node.this is not None else ""
        new, _ = self.bind(node.expression)
        return call("rw_extract", lit_str(unit), new), pgtypes.NUMERIC

    def _date_trunc(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        args = func_args(node)
        if isinstance(node, (exp.TimestampTrunc, exp.DateTrunc)):
            unit = node.args.get("unit")
            unit_text = unit.name.lower() if unit is not None else "day"
            new, oid = self.bind(node.this)
            out = pgtypes.TIMESTAMP if oid == pgtypes.DATE else oid
            return call("date_trunc", lit_str(unit_text), new), out
        u, _ = self.bind(args[0])
        new, oid = self.bind(args[1])
        return call("date_trunc", u, new), oid

    def _now(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        return call("rw_now"), pgtypes.TIMESTAMPTZ

    def _current_date(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        return call(
            "substr", call("rw_now"), exp.Literal.number(1), exp.Literal.number(10)
        ), pgtypes.DATE

    def _current_user(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        return call("rw_current_user"), pgtypes.VARCHAR

    def _current_schema(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        return call("rw_current_schema"), pgtypes.VARCHAR

    def _version(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        return call("rw_version"), pgtypes.VARCHAR

    def _round(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        args = func_args(node)
        bound = [self.bind(a) for a in args]
        return call("rw_round", *[b[0] for b in bound]), bound[0][1]

    def _concat_fn(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        bound = [self.bind(a) for a in func_args(node)]
        return call(
            "rw_concat",
            *[
                b[0]
                if b[1] in types.STRING_OIDS | {UNKNOWN}
                else cast_call(b[0], b[1], pgtypes.VARCHAR)
                for b in bound
            ],
        ), pgtypes.VARCHAR

    def _catalog_predicate(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        """pg_table_is_visible / pg_get_userbyid / obj_description ...: correlated subqueries
        over the catalog views, so the answer follows the catalog."""
        name = func_name(node)
        args = [self.bind(a)[0] for a in func_args(node)]
        path = ", ".join(f"'{s}'" for s in self.b.ctx.resolved_path())
        # aliases are prefixed so they never capture the caller's correlated names
        templates = {
            # RisingWave: system catalogs are always visible, others when their schema is on
            # the search path, else NULL (expr/function_impl/pg_table_is_visible.rs:33-70)
            "pg_table_is_visible": (
                "SELECT __rw_c.oid FROM pg_catalog.pg_class AS __rw_c JOIN "
                "pg_catalog.pg_namespace AS __rw_n ON __rw_n.oid = __rw_c.relnamespace "
                f"WHERE __rw_n.nspname IN ({path}, 'information_schema')",
                pgtypes.BOOL,
            ),
            "pg_get_userbyid": (
                "SELECT COALESCE((SELECT __rw_r.rolname FROM pg_catalog.pg_roles AS __rw_r "
                "WHERE __rw_r.oid = ? LIMIT 1), 'unknown (OID=' || ? || ')')",
                pgtypes.VARCHAR,
            ),
            "obj_description": (
                "SELECT __rw_d.description FROM pg_catalog.pg_description AS __rw_d "
                "WHERE __rw_d.objoid = ? AND __rw_d.objsubid = 0 LIMIT 1",
                pgtypes.VARCHAR,
            ),
            "col_description": (
                "SELECT __rw_d.description FROM pg_catalog.pg_description AS __rw_d "
                "WHERE __rw_d.objoid = ? AND __rw_d.objsubid = ? LIMIT 1",
                pgtypes.VARCHAR,
            ),
            "pg_get_viewdef": (
                "SELECT __rw_r.definition FROM rw_catalog.rw_relations AS __rw_r "
                "WHERE __rw_r.id = ? LIMIT 1",
                pgtypes.VARCHAR,
            ),
            "pg_get_indexdef": (
                "SELECT __rw_r.definition FROM rw_catalog.rw_relations AS __rw_r "
                "WHERE __rw_r.id = ? LIMIT 1",
                pgtypes.VARCHAR,
            ),
        }
        sql, oid = templates[name]
        try:
            sub = sqlglot.parse_one(sql, read="postgres")
            holes = list(sub.find_all(exp.Placeholder))
            if name == "pg_get_userbyid":
                args = [args[0], args[0].copy()]
            for hole, arg in zip(holes, args, strict=False):
                hole.replace(arg)
            for hole in holes[len(args) :]:
                hole.replace(exp.Null())
            self.b.query(sub, self.scope)
            if name == "pg_table_is_visible":
                # an uncorrelated IN list SQLite builds once per statement, not once per row
                visible = exp.In(this=args[0], query=exp.Subquery(this=sub))
                return exp.Case(
                    ifs=[exp.If(this=visible, true=exp.Literal.number(1))], default=exp.Null()
                ), oid
        except (CatalogNotFound, NotImplementedError_):
            # the catalog relation it needs is not installed: PostgreSQL's neutral answer
            return (exp.Null() if oid == pgtypes.VARCHAR else exp.Literal.number(1)), oid
        return exp.Subquery(this=sub), oid

    def _generate_subscripts(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        raise NotImplementedError_("generate_subscripts outside FROM")


_AGG_HELPERS = frozenset(
    {
        "rw_array_agg",
        "rw_string_agg",
        "bool_and",
        "bool_or",
        "every",
        "rw_sum_dec",
        "rw_avg_dec",
        "count",
        "sum",
        "avg",
        "min",
        "max",
        "total",
        "group_concat",
    }
)


def is_agg(node: exp.Expr) -> bool:
    if isinstance(node, (exp.AggFunc, exp.WithinGroup)):
        return True
    return isinstance(node, exp.Anonymous) and node.name.lower() in _AGG_HELPERS


def has_agg(node: exp.Expr) -> bool:
    """An aggregate call at this query level (not inside a subquery or a window)."""
    if is_agg(node):
        return True
    if isinstance(node, (exp.Subquery, exp.Select, exp.Window, exp.Exists)):
        return False
    return any(has_agg(c) for c in node.iter_expressions())


_SRF_NAMES = frozenset({"unnest", "generate_series", "generate_subscripts"})


def is_srf(node: exp.Expr) -> bool:
    return isinstance(node, exp.Func) and func_name(node) in _SRF_NAMES


def param_number(node: exp.Expr | None) -> int | None:
    if isinstance(node, exp.Parameter):
        inner = node.this
        try:
            return int(inner.name if isinstance(inner, exp.Expr) else str(inner))
        except ValueError:
            return None
    if isinstance(node, exp.Placeholder) and node.name.isdigit():
        return int(node.name)
    return None


def is_regclass(to: exp.Expr) -> bool:
    return isinstance(to, exp.ObjectIdentifier) and to.name.lower() == "regclass"


def func_args(node: exp.Expr) -> list[exp.Expr]:
    if isinstance(node, exp.Anonymous):
        return list(node.expressions)
    out: list[exp.Expr] = []
    for key in node.arg_types:
        v = node.args.get(key)
        if isinstance(v, exp.Expr):
            out.append(v)
        elif isinstance(v, list):
            out.extend(x for x in v if isinstance(x, exp.Expr))
    return out


def common_type(oids: list[int]) -> int:
    known = [o for o in oids if o != UNKNOWN]
    if not known:
        return UNKNOWN
    out = known[0]
    for o in known[1:]:
        if o in types.NUMERIC_OIDS and out in types.NUMERIC_OIDS:
            out = types.wider_numeric(out, o)
    return out


def result_type(rtype: int | str | None, oids: list[int]) -> int:
    if rtype is None:
        return pgtypes.VARCHAR
    if isinstance(rtype, int):
        return rtype
    if rtype == "arg0":
        return oids[0] if oids else pgtypes.VARCHAR
    if rtype == "arg1":
        return oids[1] if len(oids) > 1 else pgtypes.VARCHAR
    if rtype == "common":
        return common_type(oids)
    if rtype == "array":
        return types.array_of(oids[0]) if oids else pgtypes.VARCHAR_ARRAY
    if rtype == "elem":
        return (types.element_of(oids[0]) or pgtypes.VARCHAR) if oids else pgtypes.VARCHAR
    return pgtypes.VARCHAR


_HANDLERS: dict[type[exp.Expr], Callable[[ExprBinder, exp.Expr], tuple[exp.Expr, int]]] = {
    exp.Column: ExprBinder._column,  # type: ignore[dict-item]
    exp.Literal: ExprBinder._literal,  # type: ignore[dict-item]
    exp.Parameter: ExprBinder._param,
    exp.Placeholder: ExprBinder._param,
    exp.EQ: ExprBinder._compare,  # type: ignore[dict-item]
    exp.NEQ: ExprBinder._compare,  # type: ignore[dict-item]
    exp.GT: ExprBinder._compare,  # type: ignore[dict-item]
    exp.GTE: ExprBinder._compare,  # type: ignore[dict-item]
    exp.LT: ExprBinder._compare,  # type: ignore[dict-item]
    exp.LTE: ExprBinder._compare,  # type: ignore[dict-item]
    exp.Add: ExprBinder._arith,  # type: ignore[dict-item]
    exp.Sub: ExprBinder._arith,  # type: ignore[dict-item]
    exp.Mul: ExprBinder._arith,  # type: ignore[dict-item]
    exp.Div: ExprBinder._arith,  # type: ignore[dict-item]
    exp.Mod: ExprBinder._arith,  # type: ignore[dict-item]
    exp.DPipe: ExprBinder._concat,  # type: ignore[dict-item]
    exp.RegexpLike: lambda s, n: s._regex(n, False),
    exp.RegexpILike: lambda s, n: s._regex(n, True),
    exp.Operator: ExprBinder._operator,  # type: ignore[dict-item]
    exp.Like: lambda s, n: s._like(n),
    exp.ILike: lambda s, n: s._like(n, None, True),
    exp.Escape: ExprBinder._escape,  # type: ignore[dict-item]
    exp.Collate: ExprBinder._collate,  # type: ignore[dict-item]
    exp.Cast: ExprBinder._cast,  # type: ignore[dict-item]
    exp.TryCast: ExprBinder._cast,  # type: ignore[dict-item]
    exp.Array: ExprBinder._array,  # type: ignore[dict-item]
    exp.Bracket: ExprBinder._bracket,  # type: ignore[dict-item]
    exp.Subquery: ExprBinder._subquery,  # type: ignore[dict-item]
    exp.Exists: ExprBinder._exists,  # type: ignore[dict-item]
    exp.In: ExprBinder._in,  # type: ignore[dict-item]
    exp.Case: ExprBinder._case,  # type: ignore[dict-item]
    exp.Paren: ExprBinder._paren,  # type: ignore[dict-item]
    exp.Boolean: ExprBinder._boolean,  # type: ignore[dict-item]
    exp.Null: ExprBinder._null,  # type: ignore[dict-item]
    exp.Neg: ExprBinder._neg,  # type: ignore[dict-item]
    exp.Not: ExprBinder._not,  # type: ignore[dict-item]
    exp.NullSafeEQ: ExprBinder._distinct_from,  # type: ignore[dict-item]
    exp.NullSafeNEQ: ExprBinder._distinct_from,  # type: ignore[dict-item]
    exp.Interval: ExprBinder._interval,  # type: ignore[dict-item]
    exp.JSONExtract: ExprBinder._json_get,
    exp.JSONExtractScalar: ExprBinder._json_get,
    exp.ArrayContainsAll: ExprBinder._contains_all,
    exp.ArrayContainedBy: ExprBinder._contained_by,
    exp.SimilarTo: ExprBinder._similar_to,
    exp.ByteString: ExprBinder._bytestring,
    exp.Dot: ExprBinder._dot,  # type: ignore[dict-item]
    exp.Window: ExprBinder._window,  # type: ignore[dict-item]
    exp.Filter: ExprBinder._filter,  # type: ignore[dict-item]
    exp.Count: ExprBinder._count,  # type: ignore[dict-item]
    exp.Sum: ExprBinder._sum_avg,
    exp.Avg: ExprBinder._sum_avg,
    exp.Extract: ExprBinder._extract,  # type: ignore[dict-item]
    exp.CurrentTimestamp: ExprBinder._now,
    exp.CurrentDate: ExprBinder._current_date,
    exp.CurrentUser: ExprBinder._current_user,
    exp.CurrentSchema: ExprBinder._current_schema,
    exp.CurrentVersion: ExprBinder._version,
    exp.Round: ExprBinder._round,
    exp.Concat: ExprBinder._concat_fn,
    exp.ArrayAgg: ExprBinder._array_agg,
    exp.GroupConcat: ExprBinder._string_agg,
    exp.TimestampTrunc: ExprBinder._date_trunc,
    exp.DateTrunc: ExprBinder._date_trunc,
}


_SPECIAL_FUNCS: dict[str, Callable[[ExprBinder, exp.Expr], tuple[exp.Expr, int]]] = {
    "pg_table_is_visible": ExprBinder._catalog_predicate,
    "pg_get_userbyid": ExprBinder._catalog_predicate,
    "obj_description": ExprBinder._catalog_predicate,
    "col_description": ExprBinder._catalog_predicate,
    "pg_get_viewdef": ExprBinder._catalog_predicate,
    "pg_get_indexdef": ExprBinder._catalog_predicate,
    "array_agg": ExprBinder._array_agg,
    "string_agg": ExprBinder._string_agg,
    "date_trunc": ExprBinder._date_trunc,
    "now": ExprBinder._now,
    "current_schema": ExprBinder._current_schema,
    "current_user": ExprBinder._current_user,
    "session_user": ExprBinder._current_user,
    "version": ExprBinder._version,
    "concat": ExprBinder._concat_fn,
    "round": ExprBinder._round,
}
