"""The CREATE statements rwshim stores, read and printed as RisingWave does.

Parsing follows src/sqlparser/src/parser.rs: ``parse_create`` (1956-2003),
``parse_create_view`` (2088-2125), ``parse_create_source`` (2127-2169), ``parse_create_index``
(2493-2532), ``parse_create_table`` (2554-2697), ``parse_include_options`` (2699-2752),
``parse_columns_with_watermark`` / ``parse_column_def`` / ``parse_optional_column_option`` /
``parse_optional_watermark`` / ``parse_optional_table_constraint`` (2754-3007), options
(3009-3073), ``parse_emit_mode`` (3159-3173); statement.rs ``parse_format_encode_with_connector``
(235-315), ``parse_schema`` (318-348), CreateSinkStatement and CreateSubscriptionStatement.
Printing follows their Display: ``Statement::fmt_unchecked`` for CreateView / CreateTable /
CreateIndex (src/sqlparser/src/ast/mod.rs:2044-2201), ``fmt_create_items`` and the
CreateSource / CreateSink / CreateSubscription / FormatEncodeOptions / WithProperties Display
(statement.rs:389-675, 912-925), ColumnDef / ColumnOption / TableConstraint / SourceWatermark
(ddl.rs:972-1245), IncludeOptionItem (mod.rs:2586-2608) and SqlOption (mod.rs:3298-3378).
"""

from __future__ import annotations

from rwshim.sql.tokens import Kind
from rwshim.sql.unparse import display as d
from rwshim.sql.unparse import nodes as n
from rwshim.sql.unparse.query import QueryParser
from rwshim.sql.unparse.types import ident_of

_FORMATS = {"DEBEZIUM", "DEBEZIUM_MONGO", "MAXWELL", "CANAL", "PLAIN", "UPSERT", "NATIVE", "NONE"}
_ENCODES = {"AVRO", "TEXT", "BYTES", "CSV", "PROTOBUF", "JSON", "TEMPLATE", "PARQUET", "NATIVE"}
_ENCODES |= {"NONE"}


class DdlParser(QueryParser):
    """CREATE TABLE / [MATERIALIZED] VIEW / INDEX / SOURCE / SINK / SUBSCRIPTION."""

    def parse_create(self) -> n.Statement:
        self.expect_keyword("CREATE")
        or_replace = self.parse_keywords("OR", "REPLACE")
        temporary = self.parse_one_of("TEMP", "TEMPORARY") is not None
        if self.parse_keyword("TABLE"):
            return self._create_table(or_replace, temporary)
        if self.parse_keyword("VIEW"):
            return self._create_view(False, or_replace)
        if self.parse_keywords("MATERIALIZED", "VIEW"):
            return self._create_view(True, or_replace)
        if self.parse_keyword("SOURCE"):
            return self._create_source()
        if self.parse_keyword("SINK"):
            return self._create_sink()
        if self.parse_keyword("SUBSCRIPTION"):
            return self._create_subscription()
        if self.parse_keyword("INDEX"):
            return self._create_index(False)
        if self.parse_keywords("UNIQUE", "INDEX"):
            return self._create_index(True)
        raise self.error("the printer reads no such CREATE statement")

    # --- options ---------------------------------------------------------------------------

    def parse_options(self) -> list[n.SqlOption]:
        """``( name = value, ... )`` with an optional trailing comma (parse_options_inner)."""
        self.expect("(")
        out = []
        while True:
            out.append(self._sql_option())
            comma = self.consume(",")
            if self.consume(")"):
                return out
            if not comma:
                raise self.error("expected ',' or ')' after option definition")

    def _with_options(self) -> list[n.SqlOption]:
        if self.parse_keyword("WITH"):
            return self.parse_options()
        return []

    def _sql_option(self) -> n.SqlOption:
        name = self.parse_object_name()
        self.expect("=")
        key = name.real_value().lower()
        if key == "connection":
            conn = self.parse_object_name()
            if len(conn.parts) == 1 and conn.parts[0].real_value() == "connection":
                conn = self.parse_object_name()
            return n.SqlOption(name, d.object_name(conn))
        if key == "backfill_order":
            return n.SqlOption(name, self._backfill_order())
        t = self.peek()
        if t.kind is Kind.WORD and t.quoted:
            self.next()
            return n.SqlOption(name, d.value(n.Value("dquoted", t.value)))
        if self.parse_keyword("SECRET"):
            secret = self.parse_object_name()
            ref = n.SecretRef(secret, self.parse_keywords("AS", "FILE"))
            return n.SqlOption(name, "secret " + d.secret_ref(ref))
        return n.SqlOption(name, d.value(self.parse_value()))

    def _backfill_order(self) -> str:
        kw = self.parse_one_of("DEFAULT", "NONE", "AUTO")
        if kw is not None:
            return kw
        t = self.next()
        if not (t.kind is Kind.WORD and t.value.upper() == "FIXED" and not t.quoted):
            raise self.error("expected backfill order strategy")
        self.expect("(")
        edges = []
        while not self.peek_op(")"):
            start = self.parse_object_name()
            self.expect("->")
            edges.append(f"{d.object_name(start)} -> {d.object_name(self.parse_object_name())}")
            if not self.consume(","):
                break
        self.expect(")")
        return f"FIXED({', '.join(edges)})"

    def _format_encode(self, required: bool = True) -> n.FormatEncode | None:
        """parse_schema: ``FORMAT f ENCODE e [(options)] [KEY ENCODE k]``."""
        if not self.parse_keyword("FORMAT"):
            if required:
                raise self.error("expected description of the format")
            return None
        fmt = self.parse_identifier().value.upper()
        if fmt not in _FORMATS:
            raise self.error("expected PROTOBUF | DEBEZIUM | PLAIN | NATIVE | NONE after FORMAT")
        self.expect_keyword("ENCODE")
        enc = self.parse_identifier().value.upper()
        if enc not in _ENCODES:
            raise self.error("expected AVRO | BYTES | CSV | ... after Encode")
        fe = n.FormatEncode(fmt, enc, self.parse_options() if self.peek_op("(") else [])
        if self.parse_keywords("KEY", "ENCODE"):
            fe.key_encode = self.parse_identifier().value.upper()
        return fe

    def _connector_format(self, options: list[n.SqlOption], cdc_job: bool) -> n.FormatEncode:
        """parse_format_encode_with_connector: what the connector implies or allows."""
        connector = next((o.value for o in options if o.name.real_value() == "connector"), "")
        if "-cdc" in connector:
            if cdc_job:
                implied = n.FormatEncode("PLAIN", "JSON")
            elif "mongodb" in connector:
                implied = n.FormatEncode("DEBEZIUM_MONGO", "JSON")
            else:
                implied = n.FormatEncode("DEBEZIUM", "JSON")
            return self._implied_format(implied, "CDC")
        if "nexmark" in connector:
            return self._implied_format(n.FormatEncode("NATIVE", "NATIVE"), "nexmark")
        if "datagen" in connector:
            return self._format_encode(required=False) or n.FormatEncode("NATIVE", "NATIVE")
        if "iceberg" in connector or "adbc_snowflake" in connector:
            return self._implied_format(n.FormatEncode("NONE", "NONE"), "iceberg")
        fe = self._format_encode()
        assert fe is not None
        return fe

    def _implied_format(self, expected: n.FormatEncode, kind: str) -> n.FormatEncode:
        """A FORMAT ... ENCODE the connector implies: one written must be it, options and
        KEY ENCODE included (statement.rs:243-291, ``schema != expected``)."""
        given = self._format_encode(required=False)
        if given is not None and given != expected:
            raise self.error(
                f"Row format for {kind} connectors should be either omitted or set to "
                f"`FORMAT {expected.format} ENCODE {expected.encode}`"
            )
        return expected

    # --- columns ---------------------------------------------------------------------------

    def _columns(self, s: n.CreateTable | n.CreateSource) -> None:
        """parse_columns_with_watermark into ``s``."""
        if not self.consume("(") or self.consume(")"):
            return
        while True:
            if self.consume("*"):
                s.wildcard_idx = len(s.columns)
            elif not self._constraint(s):
                if self.parse_keyword("WATERMARK"):
                    self.expect_keyword("FOR")
                    col = self.parse_identifier_non_reserved()
                    self.expect_keyword("AS")
                    e = self.parse_expr()
                    s.watermarks.append(n.Watermark(col, e, self.parse_keywords("WITH", "TTL")))
                elif self.peek().kind is Kind.WORD:
                    s.columns.append(self._column_def())
                else:
                    raise self.error("expected column name or constraint definition")
            comma = self.consume(",")
            if self.consume(")"):
                return
            if not comma:
                raise self.error("expected ',' or ')' after column definition")

    def _constraint(self, s: n.CreateTable | n.CreateSource) -> bool:
        saved = self.i
        name = self.parse_identifier_non_reserved() if self.parse_keyword("CONSTRAINT") else None
        prefix = f"CONSTRAINT {d.ident(name)} " if name is not None else ""
        kw = self.parse_one_of("PRIMARY", "UNIQUE", "FOREIGN", "CHECK")
        if kw is None:
            if name is not None:
                raise self.error("expected PRIMARY, UNIQUE, FOREIGN, or CHECK")
            self.i = saved
            return False
        if kw == "CHECK":
            self.expect("(")
            e = self.parse_expr()
            self.expect(")")
            s.constraints.append(f"{prefix}CHECK ({d.expr(e)})")
            return True
        if kw != "UNIQUE":
            self.expect_keyword("KEY")
        cols = self.parse_column_list(optional=False)
        if kw == "FOREIGN":
            self.expect_keyword("REFERENCES")
            table = self.parse_object_name()
            referred = self.parse_column_list(optional=False)
            text = f"{prefix}FOREIGN KEY ({d.comma(cols, d.ident)}) REFERENCES "
            text += f"{d.object_name(table)}({d.comma(referred, d.ident)}){self._actions()}"
            s.constraints.append(text)
            return True
        what = "PRIMARY KEY" if kw == "PRIMARY" else "UNIQUE"
        s.constraints.append(f"{prefix}{what} ({d.comma(cols, d.ident)})")
        if kw == "PRIMARY":
            s.pk_constraint = cols
        return True

    def _actions(self) -> str:
        out = ""
        seen: set[str] = set()
        while True:
            for which in ("DELETE", "UPDATE"):
                if which not in seen and self.parse_keywords("ON", which):
                    seen.add(which)
                    out += f" ON {which} {self._referential_action()}"
                    break
            else:
                return out

    def _referential_action(self) -> str:
        for words in (("RESTRICT",), ("CASCADE",), ("SET", "NULL"), ("NO", "ACTION")):
            if self.parse_keywords(*words):
                return " ".join(words)
        if self.parse_keywords("SET", "DEFAULT"):
            return "SET DEFAULT"
        raise self.error("expected one of RESTRICT, CASCADE, SET NULL, NO ACTION or SET DEFAULT")

    def _column_def(self) -> n.ColumnDef:
        name = self.parse_identifier_non_reserved()
        dt = self.parse_data_type() if self.peek().kind is Kind.WORD else None
        col = n.ColumnDef(name, dt)
        if self.parse_keyword("COLLATE"):
            col.collation = self.parse_object_name()
        while True:
            cname = None
            if self.parse_keyword("CONSTRAINT"):
                cname = self.parse_identifier_non_reserved()
            opt = self._column_option()
            if opt is None:
                if cname is not None:
                    raise self.error("expected constraint details after CONSTRAINT <name>")
                return col
            opt.name = cname
            col.options.append(opt)

    def _column_option(self) -> n.ColumnOption | None:
        if self.parse_keywords("NOT", "NULL"):
            return n.ColumnOption("not_null")
        if self.parse_keyword("NULL"):
            return n.ColumnOption("null")
        if self.parse_keyword("DEFAULT"):
            if self.parse_keyword("INTERNAL"):
                return n.ColumnOption("default_internal")
            return n.ColumnOption("default", self.parse_expr())
        if self.parse_keywords("PRIMARY", "KEY"):
            return n.ColumnOption("primary")
        if self.parse_keyword("UNIQUE"):
            return n.ColumnOption("unique")
        if self.parse_keyword("REFERENCES"):
            table = d.object_name(self.parse_object_name())
            cols = self.parse_column_list()
            text = table + (f" ({d.comma(cols, d.ident)})" if cols else "") + self._actions()
            return n.ColumnOption("references", text=text)
        if self.parse_keyword("CHECK"):
            self.expect("(")
            e = self.parse_expr()
            self.expect(")")
            return n.ColumnOption("check", e)
        if self.parse_keyword("AS"):
            return n.ColumnOption("generated", self.parse_expr())
        return None

    def _include(self) -> list[n.IncludeItem]:
        out = []
        while self.parse_keyword("INCLUDE"):
            item = n.IncludeItem(self.parse_identifier())
            if self.peek().kind is Kind.STRING:
                item.inner_field = self.next().value
                # a custom type name is not taken: it may be the next INCLUDE or WITH
                saved = self.i
                dt = self.maybe(self.parse_data_type)
                if dt is None or dt.kind == "custom":
                    self.i = saved
                    dt = None
                item.header_type = dt
            if self.parse_keyword("AS"):
                item.alias = self.parse_identifier()
            out.append(item)
            self.consume(",")  # tolerated since RisingWave's bug #18800
        return out

    # --- statements ------------------------------------------------------------------------

    def _create_table(self, or_replace: bool, temporary: bool) -> n.CreateTable:
        s = n.CreateTable(n.ObjectName([]), or_replace=or_replace, temporary=temporary)
        s.if_not_exists = self.parse_keywords("IF", "NOT", "EXISTS")
        s.name = self.parse_object_name()
        self._columns(s)
        if self.parse_keyword("APPEND"):
            self.expect_keyword("ONLY")
            s.append_only = True
        if self.parse_keywords("ON", "CONFLICT"):
            s.on_conflict = self._on_conflict()
        if self.parse_keywords("WITH", "VERSION", "COLUMN"):
            self.expect("(")
            s.version_columns = self.comma_separated(self.parse_identifier_non_reserved)
            self.expect(")")
        s.include = self._include()
        s.with_options = self._with_options()
        connector = next(
            (o.value for o in s.with_options if o.name.real_value() == "connector"), None
        )
        webhook = connector is not None and "webhook" in connector
        if connector is not None and not webhook:
            s.format_encode = self._connector_format(s.with_options, False)
        if self.parse_keyword("AS"):
            s.query = self.parse_query()
        if self.parse_keyword("FROM"):
            source = self.parse_object_name()
            self.expect_keyword("TABLE")
            s.cdc = (source, self.parse_literal_string())
        if self.parse_keyword("VALIDATE"):
            if not webhook:
                raise self.error("VALIDATE is only supported for tables created with webhook")
            secret = None
            if self.parse_keyword("SECRET"):
                secret = self.parse_object_name()
                if self.parse_keywords("AS", "FILE"):
                    raise self.error("Secret for SECURE_COMPARE() does not support AS FILE")
            self.expect_keyword("AS")
            s.validate = (secret, self.parse_function())
        if self.parse_keyword("ENGINE"):
            self.expect("=")
            engine = self.parse_object_name().real_value().lower()
            if engine not in ("iceberg", "hummock"):
                raise self.error("Unsupported engine")
            s.engine_iceberg = engine == "iceberg"
        return s

    def _on_conflict(self) -> str | None:
        if self.parse_keyword("OVERWRITE"):
            return "DO UPDATE FULL"
        if self.parse_keyword("IGNORE"):
            return "DO NOTHING"
        if self.parse_keywords("DO", "UPDATE", "IF", "NOT", "NULL"):
            return "DO UPDATE IF NOT NULL"
        if self.parse_keywords("DO", "UPDATE", "FULL"):
            return "DO UPDATE FULL"
        if self.parse_keywords("DO", "NOTHING"):
            return "DO NOTHING"
        return None

    def _create_view(self, materialized: bool, or_replace: bool) -> n.CreateView:
        if_not_exists = self.parse_keywords("IF", "NOT", "EXISTS")
        name = self.parse_object_name()
        columns = self.parse_column_list()
        with_options = self._with_options()
        self.expect_keyword("AS")
        q = self.parse_query()
        emit = self._emit() if materialized else None
        return n.CreateView(
            name, q, materialized, or_replace, if_not_exists, columns, with_options, emit
        )

    def _emit(self) -> str | None:
        if not self.parse_keyword("EMIT"):
            return None
        if self.parse_keyword("IMMEDIATELY"):
            return "IMMEDIATELY"
        self.expect_keyword("ON", "WINDOW", "CLOSE")
        return "ON WINDOW CLOSE"

    def _create_source(self) -> n.CreateSource:
        s = n.CreateSource(n.ObjectName([]))
        s.if_not_exists = self.parse_keywords("IF", "NOT", "EXISTS")
        s.name = self.parse_object_name()
        self._columns(s)
        s.include = self._include()
        s.with_options = self._with_options()
        connector = next(
            (o.value for o in s.with_options if o.name.real_value() == "connector"), ""
        )
        if "webhook" in connector:
            raise self.error("the printer reads no webhook source")
        s.format_encode = self._connector_format(s.with_options, "-cdc" in connector)
        return s

    def _create_sink(self) -> n.CreateSink:
        s = n.CreateSink(n.ObjectName([]))
        s.if_not_exists = self.parse_keywords("IF", "NOT", "EXISTS")
        s.name = self.parse_object_name()
        if self.parse_keyword("INTO"):
            s.into_table = self._table_name_ref()
            s.columns = self.parse_column_list()
        if self.parse_keyword("FROM"):
            s.from_name = self._table_name_ref()
        elif self.parse_keyword("AS"):
            s.query = self.parse_query()
        else:
            raise self.error("expected FROM or AS after CREATE SINK sink_name")
        s.emit = self._emit()
        s.with_options = self._with_options()
        s.format_encode = self._format_encode(required=False)
        return s

    def _create_subscription(self) -> n.CreateSubscription:
        if_not_exists = self.parse_keywords("IF", "NOT", "EXISTS")
        name = self.parse_object_name()
        self.expect_keyword("FROM")
        s = n.CreateSubscription(name, self._table_name_ref(), if_not_exists)
        s.with_options = self._with_options()
        return s

    def _create_index(self, unique: bool) -> n.CreateIndex:
        if_not_exists = self.parse_keywords("IF", "NOT", "EXISTS")
        name = self.parse_object_name()
        self.expect_keyword("ON")
        s = n.CreateIndex(name, self.parse_object_name(), [], unique, if_not_exists)
        if self.parse_keyword("USING"):
            s.method = self.parse_identifier()
        self.expect("(")
        s.columns = self.comma_separated(self.parse_order_by_expr)
        self.expect(")")
        if self.parse_keyword("INCLUDE"):
            self.expect("(")
            s.include = self.comma_separated(self.parse_identifier_non_reserved)
            self.expect(")")
        if self.parse_keywords("DISTRIBUTED", "BY"):
            self.expect("(")
            s.distributed_by = self.comma_separated(self.parse_expr)
            self.expect(")")
        s.with_options = self._with_options()
        return s


def parse_create(text: str) -> n.Statement:
    """The CREATE statement ``text`` (one statement, an optional trailing ``;``)."""
    p = DdlParser(text)
    stmt = p.parse_create()
    if not p.at_end():
        raise p.error("expected end of statement")
    return stmt


__all__ = ["DdlParser", "ident_of", "parse_create"]
