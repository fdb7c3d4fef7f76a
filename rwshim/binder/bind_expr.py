"""Expression binding: one expression bound inside one scope, typed, and lowered.

Mirrors RisingWave's expression binder (src/frontend/src/binder/expr/mod.rs: ``bind_expr``
dispatching on the AST node, value.rs for literals, column.rs for column references,
subquery.rs, bind_param.rs for ``$n`` parameters).  ``ExprBinder.bind`` dispatches on the
sqlglot node class to a handler (this module's leaves and composites, bind_ops.py for operators
and casts, bind_func.py for function calls and aggregates, bind_catalog.py for the catalog
rewrites); each handler returns the node that replaces the input and its type.  Every
engine-specific form comes from the binder's ``Lowering`` (``self.low``), so this module and
the handlers are the same for any engine.  A top-level failure is wrapped in RisingWave's
``Failed to bind expression: <expr>`` (binder/expr/mod.rs:57-64).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from sqlglot import exp

from rwshim.binder import bind_func, bind_ops, types, variant_keys
from rwshim.binder.binder_checks import ignore_nulls_window
from rwshim.binder.parse import expr_text, lit_str, param_number
from rwshim.binder.resolve import Scope, lookup
from rwshim.binder.type_inference import (
    UNKNOWN,
    at_bind,
    common_type,
    func_name,
    literal_default,
    number_type,
    type_oid_of,
)
from rwshim.common import pgtypes
from rwshim.errors import (
    BindError,
    BindExprError,
    InvalidInputSyntax,
    ItemNotFound,
    NoFunction,
    NotImplementedError_,
    RwError,
)

if TYPE_CHECKING:
    from rwshim.binder.binder import Binder

Handler = Callable[["ExprBinder", exp.Expr], tuple[exp.Expr, int]]


class ExprBinder:
    """Binds expressions in one scope of one statement."""

    def __init__(self, binder: Binder, scope: Scope) -> None:
        self.b = binder
        self.scope = scope
        self.low = binder.low

    def bind_top(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        """Bind a root expression; errors get RisingWave's ``Failed to bind expression``."""
        original = expr_text(node)
        try:
            return self.bind(node)
        except BindExprError as e:
            # a subquery's own root expression failed: RisingWave wraps again at the boundary
            # (binder/expr/mod.rs:50-56)
            raise BindExprError(original, e) from None
        except RwError as e:
            if getattr(e, "at_bind", False) or (
                e.chain
                and e.chain[0].startswith(
                    ("Item not found", "Invalid reference", "internal error", "function ")
                )
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
            return bind_func.func(self, node)
        if isinstance(node, (exp.Predicate, exp.Connector)):
            self.children(node)
            return node, pgtypes.BOOL
        self.children(node)
        return node, pgtypes.VARCHAR

    def children(self, node: exp.Expr) -> list[int]:
        """Bind every child of ``node`` in place; their types."""
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

    def binary_operands(self, node: exp.Binary) -> tuple[int, int]:
        """Bind both operands of ``node`` in place; a parameter takes the type of the other
        side (PostgreSQL's unknown resolution)."""
        left, right = node.this, node.expression
        lt = self.peek_type(left)
        rt = self.peek_type(right)
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

    def peek_type(self, node: exp.Expr) -> int | None:
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
                self.b.note_read(src, col.name)
                return src.ref(col.name), col.type_oid
            except RwError as e:
                if err is None or isinstance(err, ItemNotFound):
                    err = e
                if not isinstance(e, ItemNotFound):
                    raise
            scope = scope.parent
        if table is None and name.lower() in bind_func.KEYWORD_FUNCS:
            return bind_func.keyword_func(self, name.lower())
        if table is None and name == "ctid":
            return lit_str(""), pgtypes.VARCHAR
        # an output alias referenced in ORDER BY/GROUP BY inside an expression is not valid
        assert err is not None
        raise err

    def _literal(self, node: exp.Literal) -> tuple[exp.Expr, int]:
        if node.is_string:
            return node, UNKNOWN
        return node, number_type(node.this)

    def _param(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        n = param_number(node)
        assert n is not None
        self.b.max_param = max(self.b.max_param, n)
        return self.low.param(n), self.b.params.get(n, UNKNOWN)

    def _boolean(self, node: exp.Boolean) -> tuple[exp.Expr, int]:
        return self.low.boolean(bool(node.this)), pgtypes.BOOL

    def _null(self, node: exp.Null) -> tuple[exp.Expr, int]:
        return node, UNKNOWN

    def _interval(self, node: exp.Interval) -> tuple[exp.Expr, int]:
        text = node.this.name if node.this is not None else ""
        unit = node.args.get("unit")
        if unit is not None:
            text = f"{text} {unit.name.lower()}"
        return self.low.interval(text), pgtypes.INTERVAL

    def _bytestring(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        # sqlglot reads E'...' as a ByteString already unescaped
        return lit_str(node.this), UNKNOWN

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
            lowered = self.low.array_subquery(q, [c.name for c in cols])
            return lowered, types.array_of(literal_default(elem))
        items = []
        elem = UNKNOWN
        for x in node.expressions:
            new, oid = self.bind(x)
            items.append(new)
            if elem == UNKNOWN:
                elem = oid
        return self.low.array(items), types.array_of(literal_default(elem))

    def _bracket(self, node: exp.Bracket) -> tuple[exp.Expr, int]:
        new, oid = self.bind(node.this)
        idx, _ = self.bind(node.expressions[0])
        return self.low.subscript(new, idx), types.element_of(oid) or pgtypes.VARCHAR

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
            cols = self.b.query(q, self.scope)
            # ``x IN (subquery)`` is a semi join on x (jsonb_stream_key_checker.rs join keys)
            if len(cols) == 1:
                variant_keys.comparison(exp.EQ(), lo, cols[0].type_oid)
                variant_keys.refuse(lo, new, "join key")
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

    def _neg(self, node: exp.Neg) -> tuple[exp.Expr, int]:
        new, oid = self.bind(node.this)
        node.set("this", new)
        return node, oid

    def _not(self, node: exp.Not) -> tuple[exp.Expr, int]:
        new, _ = self.bind(node.this)
        node.set("this", new)
        return node, pgtypes.BOOL

    def struct_field(self, value: exp.Expr, oid: int, field: str) -> tuple[exp.Expr, int]:
        """``(value).field`` of a bound struct (binder/expr/mod.rs ``bind_field``)."""
        fields = types.struct_fields(oid)
        names = [f for f, _ in fields or ()]
        if fields is None or field.lower() not in names:
            raise ItemNotFound(f"Invalid field name: {field}")
        i = names.index(field.lower())
        return self.low.struct_field(value, i), fields[i][1]

    def _dot(self, node: exp.Dot) -> tuple[exp.Expr, int]:
        left = node.this
        if isinstance(left, exp.Paren):
            new, oid = self.bind(left.this)
            return self.struct_field(new, oid, node.expression.name)
        if isinstance(left, exp.Dot) and isinstance(node.expression, exp.Func):
            return self.bind(self._database_qualified(left, node.expression))
        if (
            isinstance(left, (exp.Identifier, exp.Var))
            and left.name.lower() == "pg_catalog"
            and (isinstance(node.expression, exp.Func))
        ):
            return self.bind(node.expression)
        if (
            isinstance(left, (exp.Identifier, exp.Var))
            and left.name.lower() == "information_schema"
            and isinstance(node.expression, exp.Func)
        ):
            if func_name(node.expression) == "_pg_expandarray":
                return self.bind(node.expression)
            # binder/expr/function/mod.rs:96-110
            raise at_bind(
                NotImplementedError_(
                    "Unsupported function name under schema: information_schema",
                    "Tracking issue: https://github.com/risingwavelabs/risingwave/issues/12422",
                )
            )
        if isinstance(node.expression, exp.Func):
            raise NoFunction(f"{left.name}.{func_name(node.expression)}")
        self.children(node)
        return node, pgtypes.VARCHAR

    def _database_qualified(self, left: exp.Dot, call: exp.Func) -> exp.Dot:
        """``db.schema.f(...)``: the call as ``schema.f(...)`` when ``db`` is the current
        database, else RisingWave's refusal (binder/expr/function/mod.rs:116-131, before any
        argument is bound); a longer name is not implemented (mod.rs:130)."""
        parts: list[exp.Expr] = []
        head: exp.Expr = left
        while isinstance(head, exp.Dot):
            parts.insert(0, head.expression)
            head = head.this
        parts.insert(0, head)
        if len(parts) != 2 or not all(isinstance(p, exp.Identifier) for p in parts):
            name = ".".join([*(expr_text(p) for p in parts), _function_ident(call)])
            raise at_bind(
                NotImplementedError_(
                    f"qualified function {name}",
                    "Tracking issue: https://github.com/risingwavelabs/risingwave/issues/112",
                )
            )
        database, schema = parts
        assert isinstance(database, exp.Identifier)
        if _real_value(database) != self.b.ctx.database:
            # the message shows the function's Ident (quoted as written), not the whole name
            raise at_bind(
                BindError(f"Cross-database function call is not supported: {_function_ident(call)}")
            )
        return exp.Dot(this=schema, expression=call)

    def _window(self, node: exp.Window) -> tuple[exp.Expr, int]:
        if isinstance(node.this, exp.IgnoreNulls):
            # RisingWave's rules (window.rs:86-103, the data plane's plan/ignore_nulls), then
            # the call binds as written without the words
            ignore_nulls_window(func_name(node.this.this).lower())
            node.set("this", node.this.this)
        new, oid = self.bind(node.this)
        node.set("this", new)
        parts = []
        for p in node.args.get("partition_by") or []:
            bound, part_oid = self.bind(p)
            variant_keys.refuse(part_oid, bound, "over window partition key")
            parts.append(bound)
        node.set("partition_by", parts)
        order = node.args.get("order")
        if order is not None:
            for o in order.expressions:
                key, key_oid = self.bind(o.this)
                variant_keys.refuse(key_oid, key, "over window order by key")
                o.set("this", key)
        return node, oid

    def _ignore_nulls(self, node: exp.IgnoreNulls) -> tuple[exp.Expr, int]:
        # not under OVER (binder/expr/function/mod.rs:338-341)
        raise InvalidInputSyntax(
            "`IGNORE NULLS` is not allowed in aggregate/scalar/table function call"
        )

    def _filter(self, node: exp.Filter) -> tuple[exp.Expr, int]:
        new, oid = self.bind(node.this)
        node.set("this", new)
        where = node.expression
        where.set("this", self.bind(where.this)[0])
        return node, oid


def _real_value(ident: exp.Identifier) -> str:
    """An Ident's real_value (sqlparser ast/mod.rs): as written when quoted, else lower-case."""
    return str(ident.this) if ident.quoted else ident.name.lower()


def _function_ident(call: exp.Func) -> str:
    """The function's Ident as RisingWave's Display prints it (quoted when it was)."""
    this = call.this if isinstance(call, exp.Anonymous) else None
    if isinstance(this, exp.Identifier):
        return expr_text(this)
    return this if isinstance(this, str) else func_name(call)


_HANDLERS: dict[type[exp.Expr], Handler] = {
    exp.Column: ExprBinder._column,  # type: ignore[dict-item]
    exp.Literal: ExprBinder._literal,  # type: ignore[dict-item]
    exp.Parameter: ExprBinder._param,
    exp.Placeholder: ExprBinder._param,
    exp.Boolean: ExprBinder._boolean,  # type: ignore[dict-item]
    exp.Null: ExprBinder._null,  # type: ignore[dict-item]
    exp.Interval: ExprBinder._interval,  # type: ignore[dict-item]
    exp.ByteString: ExprBinder._bytestring,
    exp.Array: ExprBinder._array,  # type: ignore[dict-item]
    exp.Bracket: ExprBinder._bracket,  # type: ignore[dict-item]
    exp.Subquery: ExprBinder._subquery,  # type: ignore[dict-item]
    exp.Exists: ExprBinder._exists,  # type: ignore[dict-item]
    exp.In: ExprBinder._in,  # type: ignore[dict-item]
    exp.Case: ExprBinder._case,  # type: ignore[dict-item]
    exp.Paren: ExprBinder._paren,  # type: ignore[dict-item]
    exp.Neg: ExprBinder._neg,  # type: ignore[dict-item]
    exp.Not: ExprBinder._not,  # type: ignore[dict-item]
    exp.Dot: ExprBinder._dot,  # type: ignore[dict-item]
    exp.Window: ExprBinder._window,  # type: ignore[dict-item]
    exp.Filter: ExprBinder._filter,  # type: ignore[dict-item]
    exp.IgnoreNulls: ExprBinder._ignore_nulls,  # type: ignore[dict-item]
    **bind_ops.HANDLERS,
    **bind_func.HANDLERS,
}
