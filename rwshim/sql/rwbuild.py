"""Tree to statements: the lark tree of grammar/risingwave.lark turned into typed statements.

Value checks RisingWave's parser makes while reading (rate limits fit in i32, fragment and job
ids in u32, option values are literals) raise its parse errors here, located at the token.
"""

from __future__ import annotations

from typing import Any

from lark import Token as LarkToken
from lark import Transformer, Tree

from rwshim.errors import SqlParserError
from rwshim.sql import statements as st
from rwshim.sql.errors_text import expected_error, located
from rwshim.sql.tokens import Kind, Token, unescape_c_style


class _Ident(str):
    """A folded identifier that remembers its token (values need the text as written)."""

    tok: Token


def _fold(tok: Token) -> str:
    return tok.value if tok.quoted else tok.value.lower()


def _unquote_literal(tok: Token) -> str:
    """A literal's value: E'' strings unescaped (their token keeps the raw text)."""
    return unescape_c_style(tok.value) if tok.kind is Kind.ESTRING else tok.value


def _value_display(t: Token) -> str:
    """A literal as RisingWave's ``Value`` prints it (ast/value.rs:55-115)."""
    if t.kind is Kind.STRING:
        return "'" + t.value.replace("'", "''") + "'"
    if t.kind is Kind.WORD:
        if t.quoted:
            return '"' + t.value + '"'
        return {"TRUE": "true", "FALSE": "false"}.get(t.upper, "NULL")
    return t.display()


class Build(Transformer[Any, Any]):
    """Turns the lark tree into statements; RisingWave-side value checks raise parse errors."""

    def __init__(self, sql: str, text: str, toks: list[Token], stop: Token) -> None:
        super().__init__()
        self.sql = sql
        self.text = text
        self.toks = toks
        self.stop = stop
        self.by_start = {t.start: t for t in toks}

    # -- helpers
    def tok(self, lt: LarkToken) -> Token:
        return self.by_start[lt.start_pos or 0]

    def after(self, lt: LarkToken) -> Token:
        t = self.tok(lt)
        idx = self.toks.index(t)
        return self.toks[idx + 1] if idx + 1 < len(self.toks) else self.stop

    def err(self, at: Token, what: str | None) -> SqlParserError:
        return expected_error(self.sql, at, what)

    def u32_error(self, t: Token) -> SqlParserError:
        """literal_u32's failure on a number token: `invalid u32` and the Rust parse error."""
        cause = (
            "number too large to fit in target type"
            if t.value.isdigit()
            else "invalid digit found in string"
        )
        return located(self.sql, t, f"invalid u32\n{cause}")

    # -- names and values
    def ident(self, c: list[LarkToken]) -> str:
        t = self.tok(c[0])
        out = _Ident(_fold(t))
        out.tok = t
        return out

    def object_name(self, c: list[Any]) -> st.ObjectName:
        return st.ObjectName(
            tuple(
                x
                for x in c
                if isinstance(x, str) and not (isinstance(x, LarkToken) and x.type == "DOT")
            )
        )

    def object_names(self, c: list[Any]) -> tuple[st.ObjectName, ...]:
        return tuple(x for x in c if isinstance(x, st.ObjectName))

    def literal(self, c: list[LarkToken]) -> LarkToken:
        return c[0]

    def value_default(self, c: list[Any]) -> st.SetValue:
        return st.SetValue("default")

    def value_items(self, c: list[Any]) -> st.SetValue:
        items = tuple(x for x in c if isinstance(x, str) and not isinstance(x, LarkToken))
        return st.SetValue("single" if len(items) == 1 else "list", items)

    def vs_literal(self, c: list[LarkToken]) -> str:
        # SetVariableValueSingle::to_string_unquoted (ast/mod.rs:3869-3878): quoted strings
        # lose their quotes, every other literal prints as its Value Display.
        t = self.tok(c[0])
        if t.kind is Kind.STRING:
            return t.value
        return _value_display(t)

    def vs_ident(self, c: list[Any]) -> str:
        # A word written "like this" is read as a string literal first (parser.rs:4208-4210);
        # `default` after a comma is rejected (parser.rs:4271-4273).
        t = c[0].tok
        if not t.quoted and t.value == "default":
            raise self.err(t, "parameter list value")
        return str(t.value)

    def vs_raw(self, c: list[Any]) -> str:
        name_tok = next(x for x in c if isinstance(x, _Ident)).tok.display()
        args = [
            _value_display(self.tok(x))
            for x in c
            if isinstance(x, LarkToken) and x.type not in ("LPAR", "RPAR", "COMMA")
        ]
        return f"{name_tok}({', '.join(args)})"

    def to_eq(self, c: list[Any]) -> None:
        return None

    def options(self, c: list[Any]) -> st.Options:
        return tuple(x for x in c if isinstance(x, tuple))

    def option(self, c: list[Any]) -> tuple[str, str]:
        """``key = value`` (parser.rs:3046-3068): a literal or ``SECRET name``; for the key
        ``connection`` a connection name (anything else is `expected identifier`), for
        ``backfill_order`` a strategy; any other word is `expected a concrete value`
        (parser.rs:4197-4234)."""
        key = ".".join(c[0].parts)
        form, value, tok = c[2]
        low = key.lower()
        if low == "connection" and form != "ident":
            raise self.err(tok, "identifier")
        if form == "ident" and low not in ("connection", "backfill_order"):
            raise self.err(tok, "a concrete value")
        if form == "call" and low != "backfill_order":
            raise self.err(tok, "a concrete value")
        if form == "ident":
            value = st.OptionValue(value, "connection" if low == "connection" else "backfill_order")
        return (key, value)

    def ov_literal(self, c: list[Any]) -> tuple[str, st.OptionValue, Token]:
        t = self.tok(c[0])
        kinds = {
            Kind.STRING: "string",
            Kind.ESTRING: "string",
            Kind.NUMBER: "number",
            Kind.DOLLAR: "dollar",
            Kind.NSTRING: "nstring",
            Kind.XSTRING: "xstring",
        }
        if t.kind is Kind.WORD:
            if t.upper == "NULL":
                return ("literal", st.OptionValue("NULL", "null"), t)
            return ("literal", st.OptionValue(t.value.lower(), "bool"), t)
        return ("literal", st.OptionValue(_unquote_literal(t), kinds.get(t.kind, "string")), t)

    def ov_secret(self, c: list[Any]) -> tuple[str, st.OptionValue, Token]:
        name = c[1]
        text = ".".join(name.parts) + (" AS FILE" if c[2] is not None else "")
        return ("secret", st.OptionValue(text, "secret"), self.tok(c[0]))

    def ov_ident(self, c: list[Any]) -> tuple[str, st.OptionValue, Token]:
        return ("ident", st.OptionValue(str(c[0]), "connection"), c[0].tok)

    def ov_call(self, c: list[Any]) -> tuple[str, st.OptionValue, Token]:
        # backfill_order = FIXED(a -> b, ...) (parser.rs:4290-4316): kept as written.
        start = c[0].tok.start
        end = c[-1].end_pos
        return ("call", st.OptionValue(self.sql[start:end], "backfill_order"), c[0].tok)

    def rate_limit_kw(self, c: list[LarkToken]) -> str:
        return c[0].type.removesuffix("_RATE_LIMIT")

    def rate_value(self, c: list[LarkToken]) -> int:
        lt = c[0]
        if lt.type == "DEFAULT":
            return -1
        t = self.tok(lt)
        try:
            n = int(t.value)
        except ValueError:
            n = 1 << 40
        if not (-(1 << 31) <= n < (1 << 31)):
            raise self.err(self.after(lt), "number or DEFAULT")
        return n

    def rate_limit(self, c: list[Any]) -> tuple[str, int]:
        return (c[0], c[2])

    # -- ALTER
    def alter(self, c: list[Any]) -> st.Statement:
        out = c[1]
        assert isinstance(out, st.Statement)
        return out

    def _alter(self, kind: str, name: st.ObjectName, op: Any) -> st.Statement:
        text = self.text
        if isinstance(op, Tree):
            data = str(op.data)
            ch: list[Any] = list(op.children)
            if data == "op_parallelism":
                return st.AlterParallelism(text, kind, name, ch[3], ch[4] is not None)
            if data == "op_backfill_parallelism":
                return st.AlterBackfillParallelism(text, kind, name, ch[3], ch[4] is not None)
            if data == "op_rate_limit":
                typ, n = ch[1]
                return st.AlterRateLimit(text, kind, name, typ, n)
            if data == "op_set_resource_group":
                return st.AlterResourceGroup(text, kind, name, ch[3], ch[4] is not None)
            if data == "op_reset_resource_group":
                return st.AlterResourceGroup(text, kind, name, None, ch[2] is not None)
            if data == "op_set_config":
                return st.AlterSetConfig(text, kind, name, ch[2])
            if data == "op_reset_config":
                keys = tuple(".".join(n.parts) for n in ch[3])
                return st.AlterResetConfig(text, kind, name, keys)
            if data == "op_rename":
                return st.AlterRename(text, kind, name, ch[2])
            if data == "op_owner":
                return st.AlterOwner(text, kind, name, ch[2])
            if data == "op_set_schema":
                return st.AlterSetSchema(text, kind, name, ch[2])
            if data == "op_swap":
                return st.AlterSwap(text, kind, name, ch[2])
            if data == "op_unaligned":
                return st.AlterStreamingOption(
                    text, kind, name, "STREAMING_ENABLE_UNALIGNED_JOIN", ch[3].type == "TRUE"
                )
            if data == "op_as_query":
                return st.AlterViewQuery(text, kind, name, str(ch[1]).strip())
            if data == "op_retention":
                return st.AlterSetConfig(text, kind, name, (("retention", self.tok(ch[3]).value),))
            ops = {
                "op_add": "ADD COLUMN",
                "op_drop_connector": "DROP CONNECTOR",
                "op_drop_column": "DROP COLUMN",
                "op_rename_column": "RENAME COLUMN",
                "op_alter_column": "ALTER COLUMN",
                "op_connector": "CONNECTOR WITH",
                "op_refresh_schema": "REFRESH SCHEMA",
                "op_reset_source": "RESET",
                "op_format": "FORMAT ENCODE",
            }
            if data in ops:
                return st.AlterOperation(text, kind, name, ops[data])
        raise AssertionError(f"unhandled ALTER operation {op!r}")  # pragma: no cover

    def alter_table(self, c: list[Any]) -> st.Statement:
        return self._alter("TABLE", c[2], c[3])

    def alter_mv(self, c: list[Any]) -> st.Statement:
        return self._alter("MATERIALIZED VIEW", c[2], c[3])

    def alter_view(self, c: list[Any]) -> st.Statement:
        return self._alter("VIEW", c[1], c[2])

    def alter_index(self, c: list[Any]) -> st.Statement:
        return self._alter("INDEX", c[1], c[2])

    def alter_sink(self, c: list[Any]) -> st.Statement:
        return self._alter("SINK", c[1], c[2])

    def alter_source(self, c: list[Any]) -> st.Statement:
        return self._alter("SOURCE", c[1], c[2])

    def alter_schema(self, c: list[Any]) -> st.Statement:
        return self._alter("SCHEMA", c[1], c[2])

    def alter_subscription(self, c: list[Any]) -> st.Statement:
        return self._alter("SUBSCRIPTION", c[1], c[2])

    def alter_function(self, c: list[Any]) -> st.Statement:
        return st.AlterOperation(self.text, "FUNCTION", c[1], "ALTER FUNCTION")

    def alter_connection(self, c: list[Any]) -> st.Statement:
        return st.AlterOperation(self.text, "CONNECTION", c[1], "ALTER CONNECTION")

    def alter_secret(self, c: list[Any]) -> st.Statement:
        return st.AlterOperation(self.text, "SECRET", c[1], "ALTER SECRET")

    def alter_compaction(self, c: list[Any]) -> st.Statement:
        return st.AlterCompactionGroup(self.text)

    def alter_default_privileges(self, c: list[Any]) -> st.Statement:
        return st.AlterDefaultPrivileges(self.text)

    def alter_database(self, c: list[Any]) -> st.Statement:
        name, op = c[1], c[2]
        data = str(op.data)
        ch = op.children
        if data == "op_pause":
            return st.AlterDatabasePause(self.text, name, True)
        if data == "op_resume":
            return st.AlterDatabasePause(self.text, name, False)
        if data == "op_db_param":
            return st.AlterDatabaseParam(self.text, name, ch[1], ch[3])
        if data == "op_db_set_resource_group":
            return st.AlterResourceGroup(self.text, "DATABASE", name, ch[3], True)
        if data == "op_db_reset_resource_group":
            return st.AlterResourceGroup(self.text, "DATABASE", name, None, True)
        return self._alter("DATABASE", name, op)

    def alter_system(self, c: list[Any]) -> st.Statement:
        op = c[1]
        data = str(op.data)
        if data == "op_pause":
            return st.AlterSystemPause(self.text, True)
        if data == "op_resume":
            return st.AlterSystemPause(self.text, False)
        # The name as written: RisingWave's notice prints the Ident (alter_system.rs:37-60).
        return st.AlterSystem(self.text, op.children[1].tok.display(), op.children[3])

    def fragment_ids(self, c: list[LarkToken]) -> tuple[int, ...]:
        ids = []
        for lt in c:
            if lt.type != "NUMBER":
                continue
            t = self.tok(lt)
            if not t.value.isdigit() or int(t.value) >= 1 << 32:
                raise self.u32_error(t)
            ids.append(int(t.value))
        return tuple(ids)

    def alter_fragment(self, c: list[Any]) -> st.Statement:
        ids, op = c[1], c[2]
        data = str(op.data)
        ch = op.children
        if data == "op_fragment_parallelism":
            return st.AlterFragmentParallelism(self.text, ids, ch[3])
        if data == "op_fragment_rate_limit":
            return st.AlterFragmentRateLimit(self.text, ids, ch[3])
        return st.AlterFragmentRateLimit(self.text, ids, ch[1][1])

    # -- CREATE
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

    def conflict_update_if_not_null(self, c: list[Any]) -> str:
        return "DO UPDATE IF NOT NULL"

    def tc_version_column(self, c: list[Any]) -> tuple[str, str, None]:
        return ("clause", "version", None)

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

    def format_encode(self, c: list[Any]) -> st.FormatEncode:
        return st.FormatEncode(c[1].upper(), c[3].upper(), c[4] or ())

    def create_source(self, c: list[Any]) -> st.Statement:
        _src, ine, name, cols, include, _with, opts, fe = c
        return st.CreateSource(
            self.text,
            name,
            str(cols) if cols is not None else None,
            bool(ine),
            opts or (),
            fe,
            include or (),
        )

    def into_table(self, c: list[Any]) -> st.ObjectName:
        return c[1]  # type: ignore[no-any-return]

    def sink_from_name(self, c: list[Any]) -> tuple[str, Any]:
        return ("from", c[1])

    def sink_as_query(self, c: list[Any]) -> tuple[str, Any]:
        return ("query", str(c[1]).strip())

    def create_sink(self, c: list[Any]) -> st.Statement:
        _sink, ine, name, (how, what), _emit, _with, opts, fe = c
        if not opts:
            # statement.rs:567-569: parser_err! at the token after the WITH (...) list
            raise located(self.sql, self._after_with_options(), "sink properties not provided")
        return self._sink(name, how, what, None, ine, opts, fe)

    def create_sink_into(self, c: list[Any]) -> st.Statement:
        _sink, ine, name, into, (how, what), _emit, _with, opts, fe = c
        return self._sink(name, how, what, into, ine, opts or (), fe)

    def _sink(
        self, name: Any, how: str, what: Any, into: Any, ine: Any, opts: Any, fe: Any
    ) -> st.Statement:
        return st.CreateSink(
            self.text,
            name,
            what if how == "from" else None,
            what if how == "query" else None,
            into,
            bool(ine),
            opts,
            fe,
        )

    def _after_with_options(self) -> Token:
        toks = self.toks
        depth = 0
        for i, t in enumerate(toks):
            v = t.value if t.kind is Kind.OP else ""
            if v == "(":
                depth += 1
            elif v == ")":
                depth -= 1
            elif (
                depth == 0 and t.upper == "WITH" and i + 1 < len(toks) and toks[i + 1].value == "("
            ):
                j = i + 2
                while j < len(toks) and not (toks[j].kind is Kind.OP and toks[j].value == ")"):
                    j += 1
                return toks[j + 1] if j + 1 < len(toks) else self.stop
        return self.stop

    def index_include(self, c: list[Any]) -> tuple[str, ...]:
        return self._columns(c[1])

    def index_distributed(self, c: list[Any]) -> tuple[str, ...]:
        return self._columns(c[2])

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
        )

    def create_subscription(self, c: list[Any]) -> st.Statement:
        _sub, ine, name, _from, src, _with, opts = c
        return st.CreateSubscription(self.text, name, src, bool(ine), opts or ())

    def create_connection(self, c: list[Any]) -> st.Statement:
        _conn, ine, name, _with, opts = c
        return st.CreateConnection(self.text, name, bool(ine), opts or ())

    def create_secret(self, c: list[Any]) -> st.Statement:
        return st.CreateSecret(self.text, c[2], bool(c[1]))

    def create_function(self, c: list[Any]) -> st.Statement:
        return st.CreateFunction(self.text, c[2], bool(c[1]))

    def create_or_replace_function(self, c: list[Any]) -> st.Statement:
        return st.CreateFunction(self.text, c[4], bool(c[3]), or_replace=True)

    def create_aggregate(self, c: list[Any]) -> st.Statement:
        return st.CreateFunction(self.text, c[2], bool(c[1]), aggregate=True)

    # -- DROP
    def drop(self, c: list[Any]) -> st.Statement:
        _drop, kind, if_, _exists, name, behaviour = c
        return st.Drop(
            self.text,
            kind,
            (name,),
            if_ is not None,
            behaviour is not None and behaviour.type == "CASCADE",
        )

    def drop_function(self, c: list[Any]) -> st.Statement:
        return st.Drop(self.text, "FUNCTION", (), c[2] is not None)

    def drop_aggregate(self, c: list[Any]) -> st.Statement:
        return st.Drop(self.text, "AGGREGATE", (), c[2] is not None)

    def dk_table(self, c: list[Any]) -> str:
        return "TABLE"

    def dk_materialized_view(self, c: list[Any]) -> str:
        return "MATERIALIZED VIEW"

    def dk_view(self, c: list[Any]) -> str:
        return "VIEW"

    def dk_index(self, c: list[Any]) -> str:
        return "INDEX"

    def dk_source(self, c: list[Any]) -> str:
        return "SOURCE"

    def dk_sink(self, c: list[Any]) -> str:
        return "SINK"

    def dk_subscription(self, c: list[Any]) -> str:
        return "SUBSCRIPTION"

    def dk_schema(self, c: list[Any]) -> str:
        return "SCHEMA"

    def dk_database(self, c: list[Any]) -> str:
        return "DATABASE"

    def dk_user(self, c: list[Any]) -> str:
        return "USER"

    def dk_connection(self, c: list[Any]) -> str:
        return "CONNECTION"

    def dk_secret(self, c: list[Any]) -> str:
        return "SECRET"

    # -- SET / SHOW
    def set_stmt(self, c: list[Any]) -> st.Statement:
        modifier, body = c[1], c[2]
        local = modifier is not None and modifier.type == "LOCAL"
        if isinstance(body, st.SetVariable):
            return st.SetVariable(self.text, body.variable, body.value, local)
        if isinstance(body, st.SetTimeZone):
            return st.SetTimeZone(self.text, body.value, local, body.local_zone)
        assert isinstance(body, st.Statement)
        return body

    def set_variable(self, c: list[Any]) -> st.Statement:
        name_tok = c[0]
        value = c[2]
        # A quoted name keeps its case; RisingWave's handler folds config names anyway.
        return st.SetVariable(self.text, name_tok, value)

    def set_time_zone(self, c: list[Any]) -> st.Statement:
        if c[2] is None:
            return st.SetTimeZone(self.text, "", local_zone=True)
        return st.SetTimeZone(self.text, c[2])

    def tz_value(self, c: list[Any]) -> str | None:
        x = c[0]
        if isinstance(x, LarkToken):
            if x.type == "DEFAULT":
                return "UTC"
            if x.type == "LOCAL":
                return None
            if x.type == "INTERVAL":
                t = self.tok(c[1])
                if t.value != "+00:00":
                    raise SqlParserError('only support "+00:00" ')
                return "UTC"
            return self.tok(x).value
        return str(x)

    def set_transaction(self, c: list[Any]) -> st.Statement:
        return st.SetTransaction(self.text)

    def show(self, c: list[Any]) -> st.Statement:
        if c[1] is None:
            return st.ShowVariable(self.text, "")
        out = c[1]
        assert isinstance(out, st.Statement)
        return out

    def from_schema(self, c: list[Any]) -> st.ObjectName:
        return st.ObjectName((c[1],))

    def filter_like(self, c: list[Any]) -> tuple[str, str]:
        return ("like", self.tok(c[1]).value)

    def filter_ilike(self, c: list[Any]) -> tuple[str, str]:
        return ("ilike", self.tok(c[1]).value)

    def filter_where(self, c: list[Any]) -> tuple[str, str]:
        return ("where", str(c[1]).strip())

    def _show(self, what: str, c: list[Any]) -> st.Statement:
        schema = next((x for x in c if isinstance(x, st.ObjectName)), None)
        flt = next((x for x in c if isinstance(x, tuple)), None)
        kw: dict[str, str] = {flt[0]: flt[1]} if flt else {}
        return st.ShowObjects(self.text, what, schema, **kw)

    def show_tables(self, c: list[Any]) -> st.Statement:
        return self._show("TABLES", c)

    def show_internal_tables(self, c: list[Any]) -> st.Statement:
        return self._show("INTERNAL TABLES", c)

    def show_sources(self, c: list[Any]) -> st.Statement:
        return self._show("SOURCES", c)

    def show_sinks(self, c: list[Any]) -> st.Statement:
        return self._show("SINKS", c)

    def show_subscriptions(self, c: list[Any]) -> st.Statement:
        return self._show("SUBSCRIPTIONS", c)

    def show_databases(self, c: list[Any]) -> st.Statement:
        return self._show("DATABASES", c)

    def show_schemas(self, c: list[Any]) -> st.Statement:
        return self._show("SCHEMAS", c)

    def show_views(self, c: list[Any]) -> st.Statement:
        return self._show("VIEWS", c)

    def show_materialized_views(self, c: list[Any]) -> st.Statement:
        return self._show("MATERIALIZED VIEWS", c)

    def show_columns(self, c: list[Any]) -> st.Statement:
        return self._show("COLUMNS", c)

    def show_secrets(self, c: list[Any]) -> st.Statement:
        return self._show("SECRETS", c)

    def show_connections(self, c: list[Any]) -> st.Statement:
        return self._show("CONNECTIONS", c)

    def show_functions(self, c: list[Any]) -> st.Statement:
        return self._show("FUNCTIONS", c)

    def show_indexes(self, c: list[Any]) -> st.Statement:
        return self._show("INDEXES", c)

    def show_cluster(self, c: list[Any]) -> st.Statement:
        return self._show("CLUSTER", c)

    def show_jobs(self, c: list[Any]) -> st.Statement:
        return self._show("JOBS", c)

    def show_processlist(self, c: list[Any]) -> st.Statement:
        return self._show("PROCESSLIST", c)

    def show_cursors(self, c: list[Any]) -> st.Statement:
        return self._show("CURSORS", c)

    def show_subscription_cursors(self, c: list[Any]) -> st.Statement:
        return self._show("SUBSCRIPTION CURSORS", c)

    def show_isolation(self, c: list[Any]) -> st.Statement:
        return st.ShowVariable(self.text, "transaction_isolation")

    def show_create_kind(self, c: list[LarkToken]) -> str:
        return " ".join(x.type for x in c)

    def show_create(self, c: list[Any]) -> st.Statement:
        return st.ShowCreate(self.text, c[1], c[2])

    def show_variable(self, c: list[Any]) -> st.Statement:
        # parse_identifiers (parser.rs:4521-4535): every word up to the end, other tokens skipped.
        start = self.tok(c[0])
        words = [_fold(t) for t in self.toks[self.toks.index(start) :] if t.kind is Kind.WORD]
        return st.ShowVariable(self.text, " ".join(words))

    # -- jobs and the rest
    def cancel(self, c: list[Any]) -> st.Statement:
        ids = []
        for lt in c[2:]:
            if lt.type == "NUMBER":
                t = self.tok(lt)
                if not t.value.isdigit() or int(t.value) >= 1 << 32:
                    raise self.u32_error(t)
                ids.append(int(t.value))
        return st.CancelJobs(self.text, tuple(ids))

    def kill(self, c: list[Any]) -> st.Statement:
        return st.Kill(self.text, self.tok(c[1]).value)

    def wait(self, c: list[Any]) -> st.Statement:
        if c[1] is None:
            return st.Wait(self.text)
        kind, name = c[1]
        return st.Wait(self.text, kind, name)

    def wait_table(self, c: list[Any]) -> tuple[str, Any]:
        return ("TABLE", c[1])

    def wait_mv(self, c: list[Any]) -> tuple[str, Any]:
        return ("MATERIALIZED VIEW", c[2])

    def wait_sink(self, c: list[Any]) -> tuple[str, Any]:
        return ("SINK", c[1])

    def wait_index(self, c: list[Any]) -> tuple[str, Any]:
        return ("INDEX", c[1])

    def flush(self, c: list[Any]) -> st.Statement:
        return st.Flush(self.text)

    def recover(self, c: list[Any]) -> st.Statement:
        return st.Recover(self.text)

    def backup(self, c: list[Any]) -> st.Statement:
        return st.Backup(self.text)

    def use(self, c: list[Any]) -> st.Statement:
        return st.Use(self.text, c[1].name)

    def refresh(self, c: list[Any]) -> st.Statement:
        return st.RefreshTable(self.text, c[2])

    # --- rwshim's control statements (extension)

    def _job_id(self, lt: LarkToken) -> int:
        t = self.tok(lt)
        if not t.value.isdigit() or int(t.value) >= 1 << 32:
            raise self.u32_error(t)
        return int(t.value)

    def rwshim(self, c: list[Any]) -> st.Statement:
        stmt = c[1]
        assert isinstance(stmt, st.Statement)
        return stmt

    def rwshim_tick(self, c: list[Any]) -> st.Statement:
        count = 1 if c[1] is None else self._job_id(c[1])
        db = None if c[3] is None else c[3].name
        return st.ControlTick(self.text, count, db)

    def rwshim_clock(self, c: list[Any]) -> st.Statement:
        return st.ControlClock(self.text, c[1].type == "MANUAL")

    def rwshim_hold(self, c: list[Any]) -> st.Statement:
        return st.ControlBackfill(self.text, self._job_id(c[2]), True)

    def rwshim_release(self, c: list[Any]) -> st.Statement:
        return st.ControlBackfill(self.text, self._job_id(c[2]), False)

    def rwshim_fault(self, c: list[Any]) -> st.Statement:
        return st.ControlFault(self.text, str(c[1]), c[2].type == "ON")

    def rwshim_restart(self, c: list[Any]) -> st.Statement:
        return st.ControlRestart(self.text)

    def rwshim_jobs(self, c: list[Any]) -> st.Statement:
        return st.ControlJobs(self.text)

    def rwshim_faults(self, c: list[Any]) -> st.Statement:
        return st.ControlFaults(self.text)

    def describe(self, c: list[Any]) -> st.Statement:
        return st.Describe(self.text, c[-1], c[1] is not None)

    def describe_fragment(self, c: list[Any]) -> st.Statement:
        t = self.tok(c[2])
        if not t.value.isdigit() or int(t.value) >= 1 << 32:
            raise self.u32_error(t)
        return st.DescribeFragment(self.text, int(t.value))

    def privileges_all(self, c: list[Any]) -> tuple[str, ...]:
        return ("ALL",)

    def privileges_list(self, c: list[Any]) -> tuple[str, ...]:
        return tuple(x for x in c if isinstance(x, str) and not isinstance(x, LarkToken))

    def privilege(self, c: list[Any]) -> str:
        x = c[0]
        return x.type if isinstance(x, LarkToken) else str(x).upper()

    def grant_kind(self, c: list[LarkToken]) -> str:
        return " ".join(x.type for x in c)

    def grant_all_kind(self, c: list[LarkToken]) -> str:
        return " ".join(x.type for x in c)

    def grant_objects(self, c: list[Any]) -> tuple[str, tuple[st.ObjectName, ...]]:
        return (c[0] or "TABLE", c[1])

    def grant_all_in_schema(self, c: list[Any]) -> tuple[str, tuple[st.ObjectName, ...]]:
        return (f"ALL {c[1]} IN SCHEMA", c[4])

    def grantee(self, c: list[Any]) -> str:
        return str(c[-1])

    def grantees(self, c: list[Any]) -> tuple[str, ...]:
        return tuple(x for x in c if isinstance(x, str) and not isinstance(x, LarkToken))

    def grant(self, c: list[Any]) -> st.Statement:
        kind, objs = c[3]
        return st.Grant(self.text, c[1], kind, objs, c[5])

    def revoke(self, c: list[Any]) -> st.Statement:
        privs = next(
            x
            for x in c
            if isinstance(x, tuple)
            and all(isinstance(p, str) for p in x)
            and x
            and not isinstance(x[1] if len(x) > 1 else "", tuple)
        )
        kind, objs = next(
            x
            for x in c
            if isinstance(x, tuple)
            and len(x) == 2
            and isinstance(x[1], tuple)
            and x[1]
            and isinstance(x[1][0], st.ObjectName)
        )
        grantees = [x for x in c if isinstance(x, tuple)][-1]
        return st.Revoke(self.text, privs, kind, objs, grantees)

    def start(self, c: list[Any]) -> st.Statement:
        out = c[0]
        assert isinstance(out, st.Statement)
        return out


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
