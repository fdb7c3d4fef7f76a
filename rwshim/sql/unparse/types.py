"""Names, literals and data types as RisingWave's parser reads them: ``parse_identifier``,
``parse_identifier_non_reserved``, ``parse_object_name``, ``parse_literal_string``,
``parse_value`` (src/sqlparser/src/parser.rs:4188-4560) and ``parser_v2::data_type``
(src/sqlparser/src/parser_v2/data_type.rs: the keyword types, custom names, ``STRUCT<..>`` with
its ``>>`` handling, ``MAP(k,v)``, ``VECTOR(n)``, ``[]`` suffixes).
"""

from __future__ import annotations

from rwshim.common.keywords_generated import RESERVED_FOR_COLUMN_OR_TABLE_NAME
from rwshim.sql.tokens import Kind, Token
from rwshim.sql.unparse import nodes as n
from rwshim.sql.unparse.cursor import Cursor, keyword
from rwshim.sql.unparse.display import object_name


def ident_of(tok: Token) -> n.Ident:
    if tok.kind is not Kind.WORD:
        raise ValueError(tok)
    return n.Ident(tok.value, tok.quoted)


def number_text(raw: str) -> str:
    """A number token's text as RisingWave's tokenizer keeps it (tokenizer.rs:492-546): the
    radix letter of ``0x``/``0o``/``0b`` and the exponent's ``e`` lower-cased."""
    if len(raw) > 2 and raw[0] == "0" and raw[1] in "xXoObB":
        return "0" + raw[1].lower() + raw[2:]
    return raw.replace("E", "e")


class TypeParser(Cursor):
    """Identifiers, object names, literals and data types."""

    # ``>`` still owed by a ``>>`` consumed inside STRUCT<...> (data_type.rs remaining_close)
    _owed_close = 0

    # --- names ---------------------------------------------------------------------------

    def parse_identifier(self) -> n.Ident:
        t = self.peek()
        if t.kind is not Kind.WORD:
            raise self.error("expected identifier")
        if t.quoted and t.value == "":
            raise self.error("zero-length delimited identifier")
        self.next()
        return ident_of(t)

    def parse_identifier_non_reserved(self) -> n.Ident:
        t = self.peek()
        if t.kind is Kind.WORD and keyword(t) in RESERVED_FOR_COLUMN_OR_TABLE_NAME:
            raise self.error("syntax error")
        return self.parse_identifier()

    def parse_object_name(self) -> n.ObjectName:
        parts = [self.parse_identifier()]
        while self.consume("."):
            parts.append(self.parse_identifier())
        return n.ObjectName(parts)

    def parse_column_list(self, optional: bool = True) -> list[n.Ident]:
        """parse_parenthesized_column_list."""
        if self.consume("("):
            cols = self.comma_separated(self.parse_identifier_non_reserved)
            self.expect(")")
            return cols
        if optional:
            return []
        raise self.error("expected a list of columns in parentheses")

    # --- literals ------------------------------------------------------------------------

    def parse_literal_string(self) -> str:
        t = self.peek()
        if t.kind is Kind.STRING or t.kind is Kind.DOLLAR:
            self.next()
            return t.value
        raise self.error("expected literal string")

    def parse_literal_u64(self) -> int:
        t = self.peek()
        if t.kind is Kind.NUMBER and t.value.isdigit():
            self.next()
            return int(t.value)
        raise self.error("expected literal unsigned integer")

    def parse_value(self) -> n.Value:
        """parse_value_and_obj_ref::<true>: a literal (TRUE/FALSE print lower-case)."""
        t = self.peek()
        kw = keyword(t)
        if kw in ("TRUE", "FALSE"):
            self.next()
            return n.Value("bool", kw.lower())
        if kw == "NULL":
            self.next()
            return n.Value("null", "NULL")
        kinds = {
            Kind.NUMBER: "number",
            Kind.STRING: "string",
            Kind.ESTRING: "estring",
            Kind.NSTRING: "nstring",
            Kind.XSTRING: "xstring",
            Kind.DOLLAR: "dollar",
        }
        kind = kinds.get(t.kind)
        if kind is None:
            raise self.error("expected a value")
        self.next()
        if kind == "number":
            return n.Value(kind, number_text(t.value))
        return n.Value(kind, t.raw if t.kind is Kind.DOLLAR else t.value)

    # --- data types ----------------------------------------------------------------------

    def parse_data_type(self) -> n.DataType:
        """parser_v2::data_type: a type, then no ``>`` may be left owed."""
        saved = self._owed_close
        self._owed_close = 0
        try:
            dt = self._data_type()
            if self._owed_close:
                raise self.error("unconsumed `>>`")
            return dt
        finally:
            self._owed_close = saved

    def _data_type(self) -> n.DataType:
        base = self._keyword_type()
        if base is None:
            base = self._named_type()
        if self._owed_close:
            return base
        while self.peek_op("[") and self.peek_op("]", 1):
            self.i += 2
            base = n.DataType("array", elem=base)
        return base

    def _keyword_type(self) -> n.DataType | None:
        kw = self.peek_kw()
        simple = {
            "BOOLEAN": "BOOLEAN",
            "BOOL": "BOOLEAN",
            "REAL": "REAL",
            "SMALLINT": "SMALLINT",
            "INT": "INT",
            "INTEGER": "INT",
            "BIGINT": "BIGINT",
            "STRING": "CHARACTER VARYING",
            "VARCHAR": "CHARACTER VARYING",
            "UUID": "UUID",
            "DATE": "DATE",
            "TEXT": "TEXT",
            "BYTEA": "BYTEA",
        }
        if kw in simple:
            self.next()
            return n.DataType("simple", simple[kw])
        if kw == "DOUBLE":
            self.next()
            self.parse_keyword("PRECISION")
            return n.DataType("simple", "DOUBLE")
        if kw == "FLOAT":
            self.next()
            p = self._precision()
            if p is not None and not 1 <= p < 54:
                raise self.error("precision out of range")
            return n.DataType("simple", "FLOAT" if p is None else f"FLOAT({p})")
        if kw in ("CHAR", "CHARACTER"):
            self.next()
            if self.parse_keyword("VARYING"):
                return n.DataType("simple", "CHARACTER VARYING")
            p = self._precision()
            return n.DataType("simple", "CHAR" if p is None else f"CHAR({p})")
        if kw in ("TIMESTAMP", "TIME"):
            self.next()
            tz = False
            if self.parse_keywords("WITH", "TIME", "ZONE"):
                tz = True
            else:
                self.parse_keywords("WITHOUT", "TIME", "ZONE")
            return n.DataType("simple", kw + (" WITH TIME ZONE" if tz else ""))
        if kw == "INTERVAL":
            self.next()
            return n.DataType("interval", "INTERVAL")
        if kw == "STRUCT":
            self.next()
            return n.DataType("struct", fields=self._struct_fields())
        if kw in ("NUMERIC", "DECIMAL", "DEC"):
            self.next()
            if not self.consume("("):
                return n.DataType("simple", "NUMERIC")
            p = self.parse_literal_u64()
            s = self.parse_literal_u64() if self.consume(",") else None
            self.expect(")")
            return n.DataType("simple", f"NUMERIC({p})" if s is None else f"NUMERIC({p},{s})")
        return None

    def _precision(self) -> int | None:
        if not self.consume("("):
            return None
        p = self.parse_literal_u64()
        self.expect(")")
        return p

    def _named_type(self) -> n.DataType:
        parts = [self.parse_identifier_non_reserved()]
        while self.consume("."):
            parts.append(self.parse_identifier_non_reserved())
        name = n.ObjectName(parts)
        # data_type.rs non_keyword_datatype: the Display text lower-cased
        text = object_name(name).lower()
        fixed = {"jsonb": "JSONB", "variant": "VARIANT", "regclass": "REGCLASS"}
        fixed["regproc"] = "REGPROC"
        if text in fixed:
            return n.DataType("simple", fixed[text])
        if text == "map":
            self.expect("(")
            key = self._keyword_type()
            if key is None:
                raise self.error("expected a map key type")
            self.expect(",")
            value = self._data_type()
            self.expect(")")
            return n.DataType("map", key=key, elem=value)
        if text == "vector":
            size = self._precision()
            if size is None:
                raise self.error("expected (")
            return n.DataType("simple", f"VECTOR({size})")
        return n.DataType("custom", object_name(name))

    def _struct_fields(self) -> list[tuple[n.Ident, n.DataType]]:
        self.expect("<")
        fields: list[tuple[n.Ident, n.DataType]] = []
        if self._struct_close():
            return fields
        while True:
            fname = self.parse_identifier_non_reserved()
            fields.append((fname, self._data_type()))
            if self._struct_close():
                return fields
            if self._owed_close:
                raise self.error("expected >")
            self.expect(",")

    def _struct_close(self) -> bool:
        """Consume one ``>``: owed by an earlier ``>>``, a ``>`` token, or a ``>>...`` token
        (the rest becomes owed)."""
        if self._owed_close:
            self._owed_close -= 1
            return True
        t = self.peek()
        if t.kind is Kind.OP and t.value and set(t.value) == {">"}:
            self.next()
            self._owed_close = len(t.value) - 1
            return True
        return False
