"""CREATE MATERIALIZED VIEW / VIEW / TABLE / INDEX / FUNCTION / AGGREGATE.

Mirrors src/sqlparser/src/parser.rs: ``parse_create`` (parser.rs:1956), ``parse_create_view``
(parser.rs:2088, materialized views included, with ``parse_emit_mode`` at parser.rs:3159),
``parse_create_table`` (parser.rs:2554-2698) with its clauses (``parse_with_version_columns``
parser.rs:2534, ``parse_on_conflict`` parser.rs:2546, ``parse_include_options`` parser.rs:2699,
``parse_handle_conflict_behavior`` parser.rs:2886), ``parse_create_index`` (parser.rs:2493) and
``parse_create_function`` / ``parse_create_aggregate`` (parser.rs:2215-2285).  SOURCE, SINK and
the other statements RisingWave keeps in ast/statement.rs are in ``connectors``.
"""

from __future__ import annotations

from typing import Any

from lark import Token as LarkToken

from rwshim.sql import statements as st
from rwshim.sql.builder.base import BuildBase, fold
from rwshim.sql.errors_text import expected_error, located
from rwshim.sql.tokens import Kind, Token


class CreateRules(BuildBase):
    """CREATE for the relations (tables, views, materialized views, indexes) and functions."""

    def create(self, c: list[Any]) -> st.Statement:
        out = c[1]
        assert isinstance(out, st.Statement)
        return out

    def if_not_exists(self, c: list[Any]) -> bool:
        return True

    def emit_immediately(self, c: list[Any]) -> bool:
        return False

    def emit_on_window_close(self, c: list[Any]) -> bool:
        return True

    def _columns(self, lt: Any) -> tuple[str, ...]:
        if not isinstance(lt, LarkToken):
            return ()
        inner = str(lt).strip()[1:-1]
        return tuple(p.strip() for p in _split_top(inner) if p.strip())

    def create_mv(self, c: list[Any], or_replace: bool = False) -> st.Statement:
        _mat, _view, ine, name, cols, _with, opts, _as, query, emit = c
        self.check_column_names(cols, definitions=False)
        return st.CreateMaterializedView(
            self.text,
            name,
            str(query).strip(),
            self._columns(cols),
            opts or (),
            bool(ine),
            or_replace,
            bool(emit),
        )

    def create_or_replace_mv(self, c: list[Any]) -> st.Statement:
        return self.create_mv(c[2:], or_replace=True)

    def create_view(self, c: list[Any], or_replace: bool = False) -> st.Statement:
        _view, ine, name, cols, _with, opts, _as, query = c
        self.check_column_names(cols, definitions=False)
        return st.CreateView(
            self.text,
            name,
            str(query).strip(),
            self._columns(cols),
            bool(ine),
            or_replace,
            opts or (),
        )

    def create_or_replace_view(self, c: list[Any]) -> st.Statement:
        return self.create_view(c[2:], or_replace=True)

    # parse_create_database (parser.rs:2026-2086): each option once, in any order.
    def create_database(self, c: list[Any]) -> st.Statement:
        ine, name = c[1], c[2]
        seen: dict[str, Any] = {}
        for kind, value, kw in c[4:]:
            if kind in seen:
                # parser_err! after the repeated word (parser.rs:2042-2075)
                raise located(
                    self.sql, self.after(kw), f"duplicate {kind.upper()} clause in CREATE DATABASE"
                )
            seen[kind] = value
        return st.CreateDatabase(
            self.text,
            name,
            bool(ine),
            seen.get("owner"),
            seen.get("resource_group"),
            seen.get("barrier_interval_ms"),
            seen.get("checkpoint_frequency"),
        )

    def db_owner(self, c: list[Any]) -> tuple[str, Any, LarkToken]:
        return ("owner", c[-1].name, c[0])

    def db_resource_group(self, c: list[Any]) -> tuple[str, Any, LarkToken]:
        return ("resource_group", c[-1], c[0])

    def db_barrier_interval_ms(self, c: list[Any]) -> tuple[str, Any, LarkToken]:
        return ("barrier_interval_ms", self.u32_literal(c[-1]), c[0])

    def db_checkpoint_frequency(self, c: list[Any]) -> tuple[str, Any, LarkToken]:
        return ("checkpoint_frequency", self.u64_literal(c[-1]), c[0])

    def table_prefix(self, c: list[Any]) -> tuple[bool, bool]:
        types = {x.type for x in c if isinstance(x, LarkToken)}
        return ("REPLACE" in types, bool(types & {"TEMP", "TEMPORARY"}))

    def create_table(self, c: list[Any]) -> st.Statement:
        (or_replace, temporary), _table, ine, name, body = c
        return st.CreateTable(
            self.text,
            name,
            if_not_exists=bool(ine),
            or_replace=or_replace,
            temporary=temporary,
            **body,
        )

    def table_body(self, c: list[Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"columns_text": None, "query": None}
        include: list[str] = []
        opts: list[tuple[str, str]] = []
        if isinstance(c[0], LarkToken) and c[0].type == "PARENS":
            self.check_column_names(c[0], definitions=True)
            out["columns_text"] = str(c[0])
        for x in c:
            if isinstance(x, LarkToken) and x.type == "QUERY":
                out["query"] = str(x).strip()
            elif isinstance(x, tuple) and x and x[0] == "clause":
                key, val = x[1], x[2]
                if key == "include":
                    include.append(val)
                elif key == "cdc":
                    out["cdc_source"], out["cdc_table"] = val
                elif key == "with":
                    opts.extend(val)
                else:
                    out[key] = val
        out["include"] = tuple(include)
        out["with_options"] = tuple(opts)
        self.check_implied_format(out["with_options"], out.get("format_encode"), cdc_job=False)
        return out

    def tc_append_only(self, c: list[Any]) -> tuple[str, str, bool]:
        return ("clause", "append_only", True)

    def tc_on_conflict(self, c: list[Any]) -> tuple[str, str, str]:
        return ("clause", "on_conflict", c[2])

    def conflict_nothing(self, c: list[Any]) -> str:
        return "DO NOTHING"

    def conflict_update_full(self, c: list[Any]) -> str:
        return "DO UPDATE FULL"

    def conflict_overwrite(self, c: list[Any]) -> str:
        return "OVERWRITE"

    def conflict_ignore(self, c: list[Any]) -> str:
        return "DO NOTHING"

    def conflict_update_if_not_null(self, c: list[Any]) -> str:
        return "DO UPDATE IF NOT NULL"

    def tc_version_column(self, c: list[Any]) -> tuple[str, str, tuple[str, ...]]:
        # parse_with_version_columns (parser.rs:2534-2544): identifiers, each by its real value
        self.check_column_names(c[3], definitions=False)
        return ("clause", "version_columns", self._identifiers(c[3]))

    def _identifiers(self, lt: LarkToken) -> tuple[str, ...]:
        """``(a, "B")`` read as parse_comma_separated(parse_identifier_non_reserved) then `)`:
        each name by its real value; anything else after a name is `expected )` (expect_token)."""
        i = self.toks.index(self.tok(lt)) + 1
        out: list[str] = []
        while True:
            t = self.toks[i]
            if t.kind is not Kind.WORD:
                raise expected_error(self.sql, t, "identifier")
            out.append(fold(t))
            t = self.toks[i + 1]
            if t.kind is Kind.OP and t.value == ")":
                return tuple(out)
            if not (t.kind is Kind.OP and t.value == ","):
                raise expected_error(self.sql, t, ")")
            i += 2

    def tc_include(self, c: list[Any]) -> tuple[str, str, str]:
        return ("clause", "include", c[0])

    def include_item(self, c: list[Any]) -> str:
        return " ".join(str(x) for x in c if x is not None and not isinstance(x, LarkToken))

    def include_list(self, c: list[Any]) -> tuple[str, ...]:
        return tuple(c)

    def tc_with(self, c: list[Any]) -> tuple[str, str, st.Options]:
        return ("clause", "with", c[1])

    def tc_format(self, c: list[Any]) -> tuple[str, str, st.FormatEncode]:
        return ("clause", "format_encode", c[0])

    def tc_engine(self, c: list[Any]) -> tuple[str, str, str]:
        return ("clause", "engine", c[2])

    def tc_cdc(self, c: list[Any]) -> tuple[str, str, tuple[st.ObjectName, str]]:
        return ("clause", "cdc", (c[1], self.tok(c[3]).value))

    def index_include(self, c: list[Any]) -> tuple[str, ...]:
        self.check_column_names(c[1], definitions=False)
        return self._columns(c[1])

    def index_distributed(self, c: list[Any]) -> tuple[str, ...]:
        return self._columns(c[2])

    def _index_keys(self, lt: Any) -> tuple[st.IndexKey, ...]:
        """The key list of CREATE INDEX, item by item as ``parse_order_by_expr`` reads it
        (parser.rs): <expr> [ASC | DESC] [NULLS {FIRST | LAST}]."""
        if not isinstance(lt, LarkToken):
            return ()
        start = self.toks.index(self.tok(lt))
        items: list[list[Token]] = [[]]
        depth = 0
        for t in self.toks[start:]:
            if t.kind is Kind.OP and t.value in ("(", "["):
                depth += 1
                if depth == 1:
                    continue
            elif t.kind is Kind.OP and t.value in (")", "]"):
                depth -= 1
                if depth == 0:
                    break
            elif depth == 1 and t.kind is Kind.OP and t.value == ",":
                items.append([])
                continue
            items[-1].append(t)
        keys = []
        for item in items:
            nulls_first: bool | None = None
            if len(item) >= 2 and item[-2].upper == "NULLS" and item[-1].upper in ("FIRST", "LAST"):
                nulls_first = item[-1].upper == "FIRST"
                item = item[:-2]
            asc: bool | None = None
            if item and item[-1].upper in ("ASC", "DESC"):
                asc = item[-1].upper == "ASC"
                item = item[:-1]
            if not item:
                continue
            expr = self.sql[item[0].start : item[-1].end]
            plain = len(item) == 1 and item[0].kind is Kind.WORD
            keys.append(st.IndexKey(expr, fold(item[0]) if plain else None, asc, nulls_first))
        return tuple(keys)

    def create_index(self, c: list[Any]) -> st.Statement:
        unique, _idx, ine, name, _on, table, cols, inc, dist, _with, opts = c
        return st.CreateIndex(
            self.text,
            name,
            table,
            self._columns(cols),
            inc or (),
            dist or (),
            bool(ine),
            unique is not None,
            opts or (),
            self._index_keys(cols),
        )

    def create_function(self, c: list[Any]) -> st.Statement:
        return st.CreateFunction(self.text, c[2], bool(c[1]))

    def create_or_replace_function(self, c: list[Any]) -> st.Statement:
        return st.CreateFunction(self.text, c[4], bool(c[3]), or_replace=True)

    def create_aggregate(self, c: list[Any]) -> st.Statement:
        return st.CreateFunction(self.text, c[2], bool(c[1]), aggregate=True)


def _split_top(s: str) -> list[str]:
    """Split on commas outside parentheses and quotes."""
    parts: list[str] = []
    depth = 0
    quote = ""
    cur: list[str] = []
    for ch in s:
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
            continue
        cur.append(ch)
    parts.append("".join(cur))
    return parts
