"""Queries as RisingWave's parser reads them (src/sqlparser/src/parser.rs): ``parse_query``
(4843-4895), CTEs including ``AS changelog FROM`` (4897-4940), the set-operation Pratt parser
``parse_query_body`` (4942-4987), ``parse_select`` (5014-5094), ``parse_table_and_joins`` /
``parse_table_factor`` / ``parse_derived_table_factor`` / ``parse_join_constraint``
(5418-5648), ``parse_as_of`` (4408-4474), aliases (4364-4406), LIMIT / OFFSET / FETCH /
VALUES (6145-6199).
"""

from __future__ import annotations

from rwshim.common.keywords_generated import (
    RESERVED_FOR_COLUMN_ALIAS,
    RESERVED_FOR_TABLE_ALIAS,
)
from rwshim.sql.tokens import Kind
from rwshim.sql.unparse import display
from rwshim.sql.unparse import nodes as n
from rwshim.sql.unparse.cursor import UnparseError
from rwshim.sql.unparse.exprs import ExprParser
from rwshim.sql.unparse.types import ident_of


class QueryParser(ExprParser):
    """Queries (and, through ExprParser, the expressions inside them)."""

    def parse_query(self) -> n.Query:
        with_: list[n.Cte] | None = None
        recursive = False
        if self.parse_keyword("WITH"):
            recursive = self.parse_keyword("RECURSIVE")
            with_ = self.comma_separated(self._cte)
        q = n.Query(self._query_body(0), with_, recursive)
        if self.parse_keywords("ORDER", "BY"):
            q.order_by = self.comma_separated(self.parse_order_by_expr)
        limit_seen = False
        for _ in range(2):
            if not limit_seen and self.parse_keyword("LIMIT"):
                limit_seen = True
                q.limit = None if self.parse_keyword("ALL") else self.parse_expr()
            if q.offset is None and self.parse_keyword("OFFSET"):
                q.offset = self._offset()
        if self.parse_keyword("FETCH"):
            if q.limit is not None:
                raise self.error("Cannot specify both LIMIT and FETCH")
            q.fetch = self._fetch()
            if q.fetch[0] and not q.order_by:
                raise self.error("WITH TIES cannot be specified without ORDER BY clause")
        return q

    def _offset(self) -> str:
        v = self.parse_value()
        if v.kind != "number":
            raise self.error("expected literal number")
        if self.consume("::"):
            self.expect_keyword("BIGINT")
        self.parse_one_of("ROW", "ROWS")
        return v.text

    def _fetch(self) -> tuple[bool, str | None]:
        if self.parse_one_of("FIRST", "NEXT") is None:
            raise self.error("expected FIRST or NEXT")
        quantity = None
        if self.parse_one_of("ROW", "ROWS") is None:
            v = self.parse_value()
            if v.kind != "number":
                raise self.error("expected literal number")
            quantity = v.text
            if self.parse_one_of("ROW", "ROWS") is None:
                raise self.error("expected ROW or ROWS")
        if self.parse_keyword("ONLY"):
            return False, quantity
        if self.parse_keywords("WITH", "TIES"):
            return True, quantity
        raise self.error("expected one of ONLY or WITH TIES")

    def _cte(self) -> n.Cte:
        name = self.parse_identifier_non_reserved()
        columns = [] if self.peek_kw() == "AS" else self.parse_column_list()
        self.expect_keyword("AS")
        alias = n.TableAlias(name, columns)
        if self.consume("("):
            q = self.parse_query()
            self.expect(")")
            return n.Cte(alias, q)
        word = self.parse_identifier_non_reserved()
        if word.value.lower() != "changelog":
            raise self.error("Expected 'changelog'")
        self.expect_keyword("FROM")
        return n.Cte(alias, changelog=self._table_name_ref())

    def _query_body(self, precedence: int) -> n.SetExpr:
        body: n.SetExpr
        if self.parse_keyword("SELECT"):
            body = self._select()
        elif self.consume("("):
            body = n.QueryBody(self.parse_query())
            self.expect(")")
        elif self.parse_keyword("VALUES"):
            body = n.Values(self.comma_separated(self._values_row))
        else:
            raise self.error("expected SELECT, VALUES, or a subquery in the query body")
        while True:
            op = self.peek_kw()
            if op in ("UNION", "EXCEPT"):
                nxt = 10
            elif op == "INTERSECT":
                nxt = 20
            else:
                return body
            if precedence >= nxt:
                return body
            self.next()
            all_ = self.parse_keyword("ALL")
            corr: list[n.Ident] | bool = False
            if self.parse_keyword("CORRESPONDING"):
                corr = self.parse_column_list(optional=False) if self.parse_keyword("BY") else True
            body = n.SetOperation(op, all_, corr, body, self._query_body(nxt))

    def _values_row(self) -> list[n.Expr]:
        self.expect("(")
        row = self.comma_separated(self.parse_expr)
        self.expect(")")
        return row

    def _select(self) -> n.Select:
        distinct: bool | list[n.Expr] = False
        if self.parse_keywords("DISTINCT", "ON"):
            self.expect("(")
            distinct = self.comma_separated(self.parse_expr)
            self.expect(")")
        elif self.parse_keyword("DISTINCT"):
            distinct = True
        else:
            self.parse_keyword("ALL")
        s = n.Select(distinct, self.comma_separated(self._select_item))
        if self.parse_keyword("FROM"):
            s.from_ = self.comma_separated(self.parse_table_and_joins)
        if self.peek_kw() == "LATERAL" and self.peek_kw(1) == "VIEW":
            raise self.error("LATERAL VIEW is not supported by the printer")
        if self.parse_keyword("WHERE"):
            s.selection = self.parse_expr()
        if self.parse_keywords("GROUP", "BY"):
            s.group_by = self.comma_separated(self.parse_group_by_expr)
        if self.parse_keyword("HAVING"):
            s.having = self.parse_expr()
        if self.parse_keyword("WINDOW"):
            s.window = self.comma_separated(self._named_window)
        return s

    def _named_window(self) -> n.NamedWindow:
        name = self.parse_identifier()
        self.expect_keyword("AS")
        self.expect("(")
        spec = self.parse_window_spec()
        self.expect(")")
        return n.NamedWindow(name, spec)

    def _select_item(self) -> n.SelectItem:
        e = self.parse_wildcard_or_expr()
        if isinstance(e, n.Wildcard):
            return n.SelectItem(e)
        return n.SelectItem(e, self._optional_alias(RESERVED_FOR_COLUMN_ALIAS))

    def _optional_alias(self, reserved: frozenset[str]) -> n.Ident | None:
        after_as = self.parse_keyword("AS")
        t = self.peek()
        if t.kind is Kind.WORD and (after_as or self.peek_kw() not in reserved):
            self.next()
            return ident_of(t)
        if after_as:
            raise self.error("expected an identifier after AS")
        return None

    def _table_alias(self) -> n.TableAlias | None:
        name = self._optional_alias(RESERVED_FOR_TABLE_ALIAS)
        if name is None:
            return None
        return n.TableAlias(name, self.parse_column_list())

    # --- FROM ----------------------------------------------------------------------------

    def parse_table_and_joins(self) -> n.TableWithJoins:
        t = n.TableWithJoins(self.parse_table_factor())
        while True:
            if self.parse_keyword("CROSS"):
                self.expect_keyword("JOIN")
                t.joins.append(n.Join(self.parse_table_factor(), "CROSS JOIN"))
                continue
            natural_asof = self.parse_one_of("NATURAL", "ASOF")
            natural, asof = natural_asof == "NATURAL", natural_asof == "ASOF"
            kw = self.peek_kw()
            if kw in ("INNER", "JOIN"):
                self.parse_keyword("INNER")
                self.expect_keyword("JOIN")
                op = "ASOF JOIN" if asof else "JOIN"
            elif kw in ("LEFT", "RIGHT", "FULL"):
                self.next()
                self.parse_keyword("OUTER")
                self.expect_keyword("JOIN")
                if asof and kw != "LEFT":
                    raise self.error("LEFT after ASOF. RIGHT or FULL are not supported")
                op = "ASOF LEFT JOIN" if asof else f"{kw} JOIN"
            elif natural or asof or kw == "OUTER":
                raise self.error("expected a join type")
            else:
                return t
            j = n.Join(self.parse_table_factor(), op, natural)
            if not natural:
                if self.parse_keyword("ON"):
                    j.on = self.parse_expr()
                elif self.parse_keyword("USING"):
                    j.using = self.parse_column_list(optional=False)
                elif op in ("JOIN", "ASOF JOIN", "ASOF LEFT JOIN"):
                    raise self.error("expected join constraint")
            t.joins.append(j)

    def parse_table_factor(self) -> n.TableFactor:
        if self.parse_keyword("LATERAL"):
            self.expect("(")
            return self._derived(True)
        if self.consume("("):
            if self.peek_kw() in ("SELECT", "WITH", "VALUES"):
                return self._derived(False)
            if self.peek_op("("):
                saved = self.i
                derived = self.maybe(lambda: self._derived(False))
                if derived is not None:
                    return derived
                self.i = saved
            inner = self.parse_table_and_joins()
            if inner.joins or isinstance(inner.relation, n.NestedJoin):
                self.expect(")")
                return n.NestedJoin(inner)
            raise self.error("Expected joined table")
        start = self.peek().start
        name = self.parse_object_name()
        if self.peek_op("("):
            f = self.parse_argument_list(name)
            if f.distinct or f.order_by or f.ignore_nulls:
                raise self.error("not supported in table-valued function calls")
            ordinality = self.parse_keywords("WITH", "ORDINALITY")
            return n.TableFunction(name, f.args, ordinality, self._table_alias())
        end = self.toks[self.i - 1].end
        ref = n.TableRef(name, span=(start, end), after=end)
        if self.peek_kw() == "FOR":
            ref.as_of = self._as_of()
            ref.after = self.toks[self.i - 1].end
        ref.alias = self._table_alias()
        return ref

    def _table_name_ref(self) -> n.TableRef:
        """A relation named by an object name alone (CTE changelog, sink FROM, ...)."""
        start = self.peek().start
        name = self.parse_object_name()
        end = self.toks[self.i - 1].end
        return n.TableRef(name, span=(start, end), after=end)

    def _derived(self, lateral: bool) -> n.TableFactor:
        q = self.parse_query()
        self.expect(")")
        return n.Derived(lateral, q, self._table_alias())

    def _as_of(self) -> str:
        """``FOR SYSTEM_TIME | SYSTEM_VERSION AS OF ...`` as AsOf's Display prints it
        (mod.rs:3903-3923)."""
        self.expect_keyword("FOR")
        if self.parse_keywords("SYSTEM_VERSION", "AS", "OF"):
            v = self.parse_value()
            if v.kind == "string":
                return f" FOR SYSTEM_VERSION AS OF '{v.text}'"
            return f" FOR SYSTEM_VERSION AS OF {int(v.text)}"
        self.expect_keyword("SYSTEM_TIME", "AS", "OF")
        t = self.peek()
        if t.kind is Kind.WORD and t.value.lower() in ("now", "proctime") and not t.quoted:
            func = t.value.lower()
            self.next()
            self.expect("(")
            self.expect(")")
            if func == "proctime":
                return " FOR SYSTEM_TIME AS OF PROCTIME()"
            if self.consume("-"):
                iv = self.parse_literal_interval()
                assert isinstance(iv, n.Interval)
                if iv.leading_field is None:
                    raise self.error("expect duration unit")
                return f" FOR SYSTEM_TIME AS OF NOW() - '{iv.value}' {iv.leading_field}"
            return " FOR SYSTEM_TIME AS OF NOW() - '0' SECOND"
        v = self.parse_value()
        if v.kind == "string":
            return f" FOR SYSTEM_TIME AS OF '{v.text}'"
        if v.kind == "number":
            return f" FOR SYSTEM_TIME AS OF {int(v.text)}"
        raise UnparseError("expected proctime(), now(), number or string")


def parse_query(text: str) -> n.Query:
    """The query ``text`` (the whole text: nothing may follow it)."""
    p = QueryParser(text)
    q = p.parse_query()
    if not p.at_end():
        raise p.error("expected end of statement")
    return q


def print_query(text: str) -> str:
    """A query's text as RisingWave prints it."""
    return display.query(parse_query(text))
