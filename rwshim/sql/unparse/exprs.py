"""Expressions as RisingWave's parser reads them (src/sqlparser/src/parser.rs): the Pratt
parser ``parse_subexpr`` / ``parse_prefix`` (584-783) / ``parse_infix`` (1300-1486) with
``get_next_precedence`` (1649-1716) and RisingWave's ``Precedence`` (174-193), the special
forms of ``parser_v2/expr.rs`` (CASE, CAST, EXTRACT, SUBSTRING, POSITION, OVERLAY) and
TRIM, intervals, arrays, maps, function calls with their argument lists (849-905,
6039-6097), window specifications (6350-6381) and ``parse_wildcard_or_expr`` (397-559).

What the tree keeps is what RisingWave's keeps: parentheses as written (``Nested``), ``::``
as a CAST, ``+1`` as ``1`` and ``-1`` as the number ``-1``, identifiers as typed.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable

from rwshim.common.keywords_generated import RESERVED_FOR_COLUMN_OR_TABLE_NAME
from rwshim.sql.tokens import Kind, Token
from rwshim.sql.unparse import nodes as n
from rwshim.sql.unparse.cursor import UnparseError, keyword
from rwshim.sql.unparse.types import TypeParser, ident_of

# Precedence (parser.rs:174-193)
ZERO, OR, XOR, AND, UNARY_NOT, IS, CMP, LIKE, BETWEEN, OTHER = range(10)
PLUS_MINUS, MUL_DIV, EXP, AT, COLLATE, UNARY_POS_NEG, ARRAY, DOUBLE_COLON = range(10, 18)

_OP_CHARS = set("+-*/<>=~!@#%^&|`?")
_CMP = {"=", "<", "<=", "<>", ">", ">="}
# Operators the tokenizer gives their own token (tokenizer.rs:620-640); the rest are Op(..).
_FIXED = {"+", "-", "*", "/", "%", "^", "<", ">", "=", "=>", "<=", ">=", "<>", "|"}
_LITERALS = (Kind.NUMBER, Kind.STRING, Kind.DOLLAR, Kind.NSTRING, Kind.XSTRING, Kind.ESTRING)
_DATE_FIELDS = ("YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND")


def is_operator(tok: Token) -> bool:
    return tok.kind is Kind.OP and bool(tok.value) and set(tok.value) <= _OP_CHARS


class ExprParser(TypeParser):
    """Expressions; queries come from the subclass (``parse_query``)."""

    @abstractmethod
    def parse_query(self) -> n.Query: ...

    def parse_expr(self) -> n.Expr:
        return self.parse_subexpr(ZERO)

    def parse_subexpr(self, precedence: int) -> n.Expr:
        e = self.parse_prefix()
        while True:
            nxt = self.next_precedence()
            if precedence >= nxt:
                return e
            e = self.parse_infix(e, nxt)

    # --- prefix ------------------------------------------------------------------------

    def parse_prefix(self) -> n.Expr:
        typed = self.maybe(self._typed_string)
        if typed is not None:
            return typed
        t = self.peek()
        if t.kind is Kind.WORD:
            e = self._prefix_word(t)
        elif t.kind is Kind.OP and t.value in ("-", "+"):
            self.next()
            sub = self.parse_subexpr(UNARY_POS_NEG)
            if isinstance(sub, n.Value) and sub.kind == "number":
                e = n.Value("number", "-" + sub.text) if t.value == "-" else sub
            else:
                e = n.UnaryOp(t.value, sub)
        elif is_operator(t) and t.value not in _FIXED:
            self.next()
            e = n.UnaryOp(t.value, self.parse_subexpr(OTHER))
        elif t.kind in _LITERALS:
            e = self.parse_value()
        elif t.kind is Kind.PARAM:
            self.next()
            if not t.value.isdigit():
                raise self.error("invalid parameter index")
            e = n.Parameter(int(t.value))
        elif t.kind is Kind.OP and t.value == "|":
            self.next()
            args = self.comma_separated(self.parse_identifier)
            self.expect("|")
            e = n.Lambda(args, self.parse_expr())
        elif t.kind is Kind.OP and t.value == "(":
            e = self._prefix_paren()
        else:
            raise self.error("expected an expression")
        if self.parse_keyword("COLLATE"):
            return n.Collate(e, self.parse_object_name())
        return e

    def _typed_string(self) -> n.Expr:
        """``<data type> 'literal'`` (not for custom type names) or an INTERVAL literal."""
        dt = self.parse_data_type()
        if dt.kind == "interval":
            return self.parse_literal_interval()
        if dt.kind == "custom":
            raise UnparseError("not a typed string")
        return n.TypedString(dt, self.parse_literal_string())

    def _prefix_word(self, t: Token) -> n.Expr:
        kw = keyword(t)
        if kw in ("TRUE", "FALSE", "NULL"):
            return self.parse_value()
        if kw in _SPECIAL:
            self.next()
            return _SPECIAL[kw](self)
        if kw == "NOT":
            self.next()
            return n.UnaryOp("NOT", self.parse_subexpr(UNARY_NOT))
        if kw == "ROW":
            self.next()
            self.expect("(")
            items = [] if self.peek_op(")") else self.comma_separated(self.parse_expr)
            self.expect(")")
            return n.Row(items)
        if kw == "ARRAY" and self.peek_op("(", 1):
            self.i += 2
            q = self.parse_query()
            self.expect(")")
            return n.ArraySubquery(q)
        if kw == "ARRAY" and self.peek_op("[", 1):
            self.next()
            return n.Array(self._array_inner(0, [None]), True)
        if kw == "MAP" and self.peek_op("{", 1):
            self.i += 2
            return self._map()
        if kw in ("LEFT", "RIGHT", "AGGREGATE"):
            return self.parse_function()
        if kw == "OPERATOR" and self.peek_op("(", 1):
            self.next()
            return n.UnaryOp(self._qualified_operator(), self.parse_subexpr(OTHER))
        if kw in ("ALL", "ANY", "SOME"):
            self.next()
            return self._quantified(kw)
        if kw in RESERVED_FOR_COLUMN_OR_TABLE_NAME:
            raise self.error("syntax error")
        if self.peek_op("(", 1) or self.peek_op(".", 1):
            saved = self.i
            name = self.maybe(self.parse_object_name)
            if name is not None and not self.peek_op("("):
                return n.CompoundIdentifier(name.parts)
            self.i = saved
            return self.parse_function()
        self.next()
        return n.Identifier(ident_of(t))

    def _prefix_paren(self) -> n.Expr:
        self.expect("(")
        e: n.Expr
        if self.peek_kw() in ("SELECT", "WITH"):
            e = n.Subquery(self.parse_query())
        else:
            items = self.comma_separated(self.parse_expr)
            e = n.Nested(items[0]) if len(items) == 1 else n.Row(items)
        self.expect(")")
        if self.peek_op(".") and isinstance(e, n.Nested):
            inner: n.Expr = e
            while isinstance(inner, n.Nested):
                inner = inner.expr
            return n.FieldIdentifier(inner, self._fields())
        return e

    def _fields(self) -> list[n.Ident]:
        out = []
        while self.consume("."):
            out.append(self.parse_identifier())
        return out

    def _quantified(self, kw: str) -> n.Expr:
        self.expect("(")
        sub = self.parse_expr()
        self.expect(")")
        if isinstance(sub, n.Subquery):
            raise self.error("ANY/SOME/ALL(Subquery) is not implemented")
        return n.Quantified("ALL" if kw == "ALL" else "SOME", sub)

    def _qualified_operator(self) -> str:
        """``OPERATOR([schema.]op)`` (parse_qualified_operator), as QualifiedOperator prints."""
        self.expect("(")
        schema = ""
        t = self.peek()
        if t.kind is Kind.WORD and self.peek_op(".", 1):
            schema = self.parse_identifier_non_reserved().value + "."
            self.expect(".")
        op = self.next()
        if not is_operator(op):
            raise self.error("expected an operator")
        self.expect(")")
        return f"OPERATOR({schema}{op.value})"

    def _array_inner(self, depth: int, expected: list[int | None]) -> list[n.Expr]:
        self.expect("[")
        if expected[0] is not None and depth > expected[0]:
            raise self.error("expected ]")
        if self.peek_op("["):
            items: list[n.Expr] = self.comma_separated(
                lambda: n.Array(self._array_inner(depth + 1, expected), False)
            )
        else:
            if expected[0] is None:
                expected[0] = depth
            elif depth < expected[0]:
                raise self.error("expected [")
            if self.consume("]"):
                return []
            items = self.comma_separated(self.parse_expr)
        self.expect("]")
        return items

    def _map(self) -> n.Expr:
        if self.consume("}"):
            return n.Map([])

        def entry() -> tuple[n.Expr, n.Expr]:
            k = self.parse_expr()
            self.expect(":")
            return k, self.parse_expr()

        entries = self.comma_separated(entry)
        self.expect("}")
        return n.Map(entries)

    def parse_literal_interval(self) -> n.Expr:
        """parse_literal_interval (parser.rs:1233-1298)."""
        iv = n.Interval(self.parse_literal_string())
        if self.peek_kw() in _DATE_FIELDS:
            iv.leading_field = self.next().value.upper()
        if iv.leading_field == "SECOND":
            if self.consume("("):
                iv.leading_precision = self.parse_literal_u64()
                if self.consume(","):
                    iv.fractional_precision = self.parse_literal_u64()
                self.expect(")")
        else:
            iv.leading_precision = self._precision()
            if self.parse_keyword("TO"):
                if self.peek_kw() not in _DATE_FIELDS:
                    raise self.error("expected date/time field")
                iv.last_field = self.next().value.upper()
                if iv.last_field == "SECOND":
                    iv.fractional_precision = self._precision()
        return iv

    # --- infix -------------------------------------------------------------------------

    def next_precedence(self) -> int:
        t = self.peek()
        kw = keyword(t)
        if kw is not None:
            if kw == "OR":
                return OR
            if kw == "XOR":
                return XOR
            if kw == "AND":
                return AND
            if kw == "AT":
                return AT if self.peek_kw(1) == "TIME" and self.peek_kw(2) == "ZONE" else ZERO
            if kw == "NOT":
                k1 = self.peek_kw(1)
                if k1 in ("BETWEEN", "IN"):
                    return BETWEEN
                return LIKE if k1 in ("LIKE", "ILIKE", "SIMILAR") else ZERO
            if kw in ("IS", "ISNULL", "NOTNULL"):
                return IS
            if kw in ("IN", "BETWEEN"):
                return BETWEEN
            if kw in ("LIKE", "ILIKE", "SIMILAR"):
                return LIKE
            if kw in ("ALL", "ANY", "SOME"):
                return OTHER
            if kw == "OPERATOR" and self.peek_op("(", 1):
                return OTHER
            return ZERO
        if t.kind is not Kind.OP:
            return ZERO
        v = t.value
        if v in _CMP:
            return CMP
        if v in ("+", "-"):
            return PLUS_MINUS
        if v in ("*", "/", "%"):
            return MUL_DIV
        if v == "^":
            return EXP
        if v == "[":
            return ARRAY
        if v == "::":
            return DOUBLE_COLON
        if v == "=>":
            return ZERO
        return OTHER if is_operator(t) else ZERO

    def parse_infix(self, left: n.Expr, precedence: int) -> n.Expr:
        t = self.peek()
        kw = keyword(t)
        if t.kind is Kind.OP and is_operator(t):
            self.next()
            return n.BinaryOp(left, t.value, self.parse_subexpr(precedence))
        if kw in ("AND", "OR", "XOR"):
            self.next()
            return n.BinaryOp(left, kw, self.parse_subexpr(precedence))
        if kw == "OPERATOR":
            self.next()
            op = self._qualified_operator()
            return n.BinaryOp(left, op, self.parse_subexpr(precedence))
        if kw == "IS":
            self.next()
            return self._infix_is(left)
        if kw == "AT":
            self.next()
            self.expect_keyword("TIME", "ZONE")
            return n.AtTimeZone(left, self.parse_subexpr(precedence))
        if kw in ("ALL", "ANY", "SOME"):
            self.next()
            return self._quantified(kw)
        if kw in ("NOT", "IN", "BETWEEN", "LIKE", "ILIKE", "SIMILAR"):
            return self._infix_predicate(left)
        if t.kind is Kind.OP and t.value == "::":
            self.next()
            return n.Cast(left, self.parse_data_type())
        if t.kind is Kind.OP and t.value == "[":
            self.next()
            return self._array_index(left)
        raise self.error("no infix parser")

    def _infix_is(self, left: n.Expr) -> n.Expr:
        for words in (("TRUE",), ("NOT", "TRUE"), ("FALSE",), ("NOT", "FALSE"), ("UNKNOWN",)):
            if self.parse_keywords(*words):
                return n.IsCheck(left, " ".join(words))
        for words in (("NOT", "UNKNOWN"), ("NULL",), ("NOT", "NULL")):
            if self.parse_keywords(*words):
                return n.IsCheck(left, " ".join(words))
        if self.parse_keywords("DISTINCT", "FROM"):
            return n.IsDistinctFrom(left, self.parse_expr(), False)
        if self.parse_keywords("NOT", "DISTINCT", "FROM"):
            return n.IsDistinctFrom(left, self.parse_expr(), True)
        negated = self.parse_keyword("NOT")
        if not self.parse_keyword("JSON"):
            raise self.error("expected [NOT] { TRUE | FALSE | UNKNOWN | NULL | ... } after IS")
        item = {"VALUE": "", "ARRAY": " ARRAY", "OBJECT": " OBJECT", "SCALAR": " SCALAR"}
        item_type = ""
        if self.peek_kw() in item:
            item_type = item[self.next().value.upper()]
        unique = self.parse_one_of("WITH", "WITHOUT")
        if unique is not None:
            self.expect_keyword("UNIQUE")
            self.parse_keyword("KEYS")
        return n.IsJson(left, negated, item_type, unique == "WITH")

    def _infix_predicate(self, left: n.Expr) -> n.Expr:
        negated = self.parse_keyword("NOT")
        if self.parse_keyword("IN"):
            self.expect("(")
            e: n.Expr
            if self.peek_kw() in ("SELECT", "WITH"):
                e = n.InSubquery(left, self.parse_query(), negated)
            else:
                e = n.InList(left, self.comma_separated(self.parse_expr), negated)
            self.expect(")")
            return e
        if self.parse_keyword("BETWEEN"):
            low = self.parse_subexpr(BETWEEN)
            self.expect_keyword("AND")
            return n.Between(left, low, self.parse_subexpr(BETWEEN), negated)
        for words in (("LIKE",), ("ILIKE",), ("SIMILAR", "TO")):
            if self.parse_keywords(*words):
                pattern = self.parse_subexpr(LIKE)
                esc = None
                if self.parse_keyword("ESCAPE"):
                    esc = self.parse_literal_string()
                    if len(esc) > 1:
                        raise self.error("Escape string must be empty or one character")
                return n.Like(" ".join(words), left, pattern, negated, esc)
        raise self.error("expected IN, BETWEEN or SIMILAR TO after NOT")

    def _array_index(self, obj: n.Expr) -> n.Expr:
        """parse_array_index: ``[i]``, ``[a:b]``, ``[:b]``, ``[a:]``, ``[:]``, repeated."""
        e: n.Expr
        if self.consume(":"):
            end = None if self.peek_op("]") else self.parse_expr()
            e = n.ArrayRange(obj, None, end)
        else:
            index = self.parse_expr()
            if self.consume(":"):
                end = None if self.peek_op("]") else self.parse_expr()
                e = n.ArrayRange(obj, index, end)
            else:
                e = n.Index(obj, index)
        self.expect("]")
        if self.consume("["):
            return self._array_index(e)
        return e

    # --- functions, windows, wildcards ---------------------------------------------------

    def parse_function(self) -> n.Function:
        scalar_as_agg = False
        if self.parse_keyword("AGGREGATE"):
            self.expect(":")
            scalar_as_agg = True
        f = self.parse_argument_list(self.parse_object_name())
        f.scalar_as_agg = scalar_as_agg
        if self.parse_keywords("WITHIN", "GROUP"):
            self.expect("(")
            self.expect_keyword("ORDER", "BY")
            f.within_group = self.parse_order_by_expr()
            self.expect(")")
        if self.parse_keyword("FILTER"):
            self.expect("(")
            self.expect_keyword("WHERE")
            f.filter = self.parse_expr()
            self.expect(")")
        if self.parse_keyword("OVER"):
            if self.consume("("):
                f.over = self.parse_window_spec()
                self.expect(")")
            else:
                f.over = self.parse_identifier()
        return f

    def parse_argument_list(self, name: n.ObjectName) -> n.Function:
        """parse_argument_list (parser.rs:6060-6097); ``ALL`` is read and dropped."""
        f = n.Function(name, [])
        self.expect("(")
        if self.consume(")"):
            return f
        if self.parse_keyword("ALL"):
            if self.peek_kw() == "DISTINCT":
                raise self.error("Cannot specify both ALL and DISTINCT")
        else:
            f.distinct = self.parse_keyword("DISTINCT")
        args = self.comma_separated(self._function_arg)
        if any(v for v, _ in args[:-1]):
            raise self.error("VARIADIC argument must be the last")
        f.variadic = args[-1][0]
        f.args = [a for _, a in args]
        if self.parse_keywords("ORDER", "BY"):
            f.order_by = self.comma_separated(self.parse_order_by_expr)
        f.ignore_nulls = self.parse_keywords("IGNORE", "NULLS")
        self.expect(")")
        return f

    def _function_arg(self) -> tuple[bool, n.FunctionArg]:
        variadic = self.parse_keyword("VARIADIC")
        name = None
        if self.peek_op("=>", 1):
            name = self.parse_identifier()
            self.expect("=>")
        arg: n.Expr | n.Wildcard | n.SecretRef
        if self.parse_keyword("SECRET"):
            secret = self.parse_object_name()
            arg = n.SecretRef(secret, self.parse_keywords("AS", "FILE"))
        else:
            arg = self.parse_wildcard_or_expr()
        return variadic, n.FunctionArg(arg, name)

    def parse_wildcard_or_expr(self) -> n.Expr | n.Wildcard:
        saved = self.i
        t = self.peek()
        if t.kind is Kind.WORD and self.peek_op(".", 1):
            self.next()
            w = self._simple_wildcard(saved)
            if isinstance(w, n.Wildcard):
                prefix = [ident_of(t)] + ([] if w.prefix is None else w.prefix.parts)
                return n.Wildcard(n.ObjectName(prefix), except_=w.except_)
            return w
        if t.kind is Kind.OP and t.value == "*":
            self.next()
            return n.Wildcard(except_=self._except())
        if t.kind is Kind.OP and t.value == "(":
            self.next()
            inner = self.maybe(self.parse_expr)
            if inner is not None and self.consume(")"):
                while isinstance(inner, n.Nested):
                    inner = inner.expr
                w = self._simple_wildcard(saved)
                if isinstance(w, n.Wildcard):
                    return self._expr_wildcard(inner, w, saved)
                return w
        self.i = saved
        return self.parse_expr()

    def _simple_wildcard(self, saved: int) -> n.Expr | n.Wildcard:
        parts: list[n.Ident] = []
        while self.consume("."):
            t = self.next()
            if t.kind is Kind.WORD:
                parts.append(ident_of(t))
            elif t.kind is Kind.OP and t.value == "*":
                prefix = n.ObjectName(parts) if parts else None
                return n.Wildcard(prefix, except_=self._except())
            else:
                raise self.error("an identifier or a '*' after '.'")
        self.i = saved
        return self.parse_expr()

    def _expr_wildcard(self, inner: n.Expr, w: n.Wildcard, saved: int) -> n.Expr | n.Wildcard:
        fields: list[n.Ident] = []
        if isinstance(inner, n.FieldIdentifier):
            fields.extend(inner.fields)
            inner = inner.expr
        elif not isinstance(inner, (n.Identifier, n.CompoundIdentifier, n.Cast, n.Function)):
            # expr_concat_wildcard_expr (parser.rs:466-516): another expression is taken
            # alone and the `.*` after it is dropped
            return inner
        if w.except_ is not None:
            raise self.error("Expr quantified wildcard does not support except")
        fields.extend([] if w.prefix is None else w.prefix.parts)
        return n.Wildcard(expr=inner, fields=fields)

    def _except(self) -> list[n.Expr] | None:
        if not self.parse_keyword("EXCEPT"):
            return None
        self.expect("(")
        items = self.comma_separated(self.parse_expr)
        self.expect(")")
        return items

    def parse_order_by_expr(self) -> n.OrderByExpr:
        o = n.OrderByExpr(self.parse_expr())
        if self.parse_keyword("ASC"):
            o.asc = True
        elif self.parse_keyword("DESC"):
            o.asc = False
        if self.parse_keywords("NULLS", "FIRST"):
            o.nulls_first = True
        elif self.parse_keywords("NULLS", "LAST"):
            o.nulls_first = False
        return o

    def parse_window_spec(self) -> n.WindowSpec:
        spec = n.WindowSpec([], [], None)
        if self.parse_keywords("PARTITION", "BY"):
            spec.partition_by = self.comma_separated(self.parse_expr)
        if self.parse_keywords("ORDER", "BY"):
            spec.order_by = self.comma_separated(self.parse_order_by_expr)
        if not self.peek_op(")"):
            spec.frame = self._window_frame()
        return spec

    def _window_frame(self) -> n.WindowFrame:
        units = self.parse_one_of("ROWS", "RANGE", "GROUPS", "SESSION")
        if units is None:
            raise self.error("expected ROWS, RANGE, or GROUPS")
        if self.parse_keyword("BETWEEN"):
            start = self._frame_bound()
            self.expect_keyword("AND")
            frame = n.WindowFrame(units, start, self._frame_bound())
        elif self.parse_keywords("WITH", "GAP"):
            frame = n.WindowFrame(units, None, gap=self.parse_expr())
        else:
            frame = n.WindowFrame(units, self._frame_bound())
        if self.parse_keyword("EXCLUDE"):
            for words in (("CURRENT", "ROW"), ("GROUP",), ("TIES",), ("NO", "OTHERS")):
                if self.parse_keywords(*words):
                    break
            else:
                raise self.error("expected CURRENT ROW, GROUP, TIES, or NO OTHERS")
        return frame

    def _frame_bound(self) -> n.FrameBound:
        if self.parse_keywords("CURRENT", "ROW"):
            return n.FrameBound("CURRENT ROW")
        offset = None if self.parse_keyword("UNBOUNDED") else self.parse_expr()
        kind = self.parse_one_of("PRECEDING", "FOLLOWING")
        if kind is None:
            raise self.error("expected PRECEDING or FOLLOWING")
        return n.FrameBound(kind, offset)

    def parse_group_by_expr(self) -> n.Expr:
        if self.parse_keywords("GROUPING", "SETS"):
            return n.Grouping("GROUPING SETS", self._tuples(allow_empty=True))
        kw = self.parse_one_of("CUBE", "ROLLUP")
        if kw is not None:
            return n.Grouping(kw, self._tuples(allow_empty=False))
        return self.parse_expr()

    def _tuples(self, allow_empty: bool) -> list[list[n.Expr]]:
        self.expect("(")

        def one() -> list[n.Expr]:
            if not self.consume("("):
                return [self.parse_expr()]
            if allow_empty and self.consume(")"):
                return []
            items = self.comma_separated(self.parse_expr)
            self.expect(")")
            return items

        out = self.comma_separated(one)
        self.expect(")")
        return out


# ---------------------------------------------------------------- special forms


def _case(p: ExprParser) -> n.Expr:
    operand = None if p.peek_kw() == "WHEN" else p.parse_expr()
    conds: list[n.Expr] = []
    results: list[n.Expr] = []
    while p.parse_keyword("WHEN"):
        conds.append(p.parse_expr())
        p.expect_keyword("THEN")
        results.append(p.parse_expr())
    if not conds:
        raise p.error("expected WHEN")
    else_ = p.parse_expr() if p.parse_keyword("ELSE") else None
    p.expect_keyword("END")
    return n.Case(operand, conds, results, else_)


def _cast(p: ExprParser, try_cast: bool = False) -> n.Expr:
    p.expect("(")
    e = p.parse_expr()
    p.expect_keyword("AS")
    dt = p.parse_data_type()
    p.expect(")")
    return n.Cast(e, dt, try_cast)


def _exists(p: ExprParser) -> n.Expr:
    p.expect("(")
    q = p.parse_query()
    p.expect(")")
    return n.Exists(q)


def _extract(p: ExprParser) -> n.Expr:
    p.expect("(")
    t = p.next()
    if t.kind not in (Kind.WORD, Kind.STRING):
        raise p.error("expected date/time field")
    p.expect_keyword("FROM")
    e = p.parse_expr()
    p.expect(")")
    return n.Extract(t.value.upper(), e)


def _substring(p: ExprParser) -> n.Expr:
    p.expect("(")
    e = p.parse_expr()
    start = p.parse_expr() if p.consume(",") or p.parse_keyword("FROM") else None
    length = p.parse_expr() if p.consume(",") or p.parse_keyword("FOR") else None
    p.expect(")")
    return n.Substring(e, start, length)


def _position(p: ExprParser) -> n.Expr:
    p.expect("(")
    sub = p.parse_subexpr(BETWEEN)
    p.expect_keyword("IN")
    string = p.parse_subexpr(BETWEEN)
    p.expect(")")
    return n.Position(sub, string)


def _overlay(p: ExprParser) -> n.Expr:
    p.expect("(")
    e = p.parse_expr()
    p.expect_keyword("PLACING")
    new = p.parse_expr()
    p.expect_keyword("FROM")
    start = p.parse_expr()
    count = p.parse_expr() if p.parse_keyword("FOR") else None
    p.expect(")")
    return n.Overlay(e, new, start, count)


def _trim(p: ExprParser) -> n.Expr:
    p.expect("(")
    where = p.parse_one_of("BOTH", "LEADING", "TRAILING")
    what: n.Expr | None = None
    if p.parse_keyword("FROM"):
        e = p.parse_expr()
    else:
        e = p.parse_expr()
        if p.parse_keyword("FROM"):
            what, e = e, p.parse_expr()
    if what is None and p.consume(","):
        what = p.parse_expr()
    p.expect(")")
    return n.Trim(e, where, what)


_SPECIAL: dict[str, Callable[[ExprParser], n.Expr]] = {
    "CASE": _case,
    "CAST": _cast,
    "TRY_CAST": lambda p: _cast(p, True),
    "EXISTS": _exists,
    "EXTRACT": _extract,
    "SUBSTRING": _substring,
    "POSITION": _position,
    "OVERLAY": _overlay,
    "TRIM": _trim,
    "INTERVAL": lambda p: p.parse_literal_interval(),
}
