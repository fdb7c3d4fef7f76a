"""The transformer's state and token helpers that every statement family's rules share.

``BuildBase`` is a lark ``Transformer`` over the tree of grammar/risingwave.lark that also keeps
the statement's token stream, so a rule can raise RisingWave's parse error at the token
RisingWave's parser stops at: ``expected`` / ``expected_at`` (src/sqlparser/src/parser.rs:
1768-1779) and ``parse_literal_u32`` (parser.rs:4327-4330).  Identifiers fold as
``Ident::real_value`` does (src/sqlparser/src/ast/mod.rs:165-175).
"""

from __future__ import annotations

from typing import Any

from lark import Token as LarkToken
from lark import Transformer

from rwshim.errors import SqlParserError
from rwshim.sql import statements as st
from rwshim.sql.errors_text import expected_error, located
from rwshim.sql.lenient import reserved_name_error_at
from rwshim.sql.tokens import Kind, Token

# Table constraints a column-definition list may hold instead of a column (parser.rs
# parse_optional_table_constraint), and its other items (WATERMARK FOR, `*`).
_NOT_A_COLUMN = {"CONSTRAINT", "PRIMARY", "UNIQUE", "FOREIGN", "CHECK", "WATERMARK"}


class Ident(str):
    """A folded identifier that remembers its token (values need the text as written)."""

    tok: Token


def fold(tok: Token) -> str:
    """An identifier as names are looked up: unquoted lower-cased, quoted kept."""
    return tok.value if tok.quoted else tok.value.lower()


class BuildBase(Transformer[Any, Any]):
    """One statement being built: the query string, the statement's text, its tokens and the
    token after them (where an error at the end of the statement points)."""

    def __init__(self, sql: str, text: str, toks: list[Token], stop: Token) -> None:
        super().__init__()
        self.sql = sql
        self.text = text
        self.toks = toks
        self.stop = stop
        self.by_start = {t.start: t for t in toks}

    def tok(self, lt: LarkToken) -> Token:
        return self.by_start[lt.start_pos or 0]

    def after(self, lt: LarkToken) -> Token:
        t = self.tok(lt)
        idx = self.toks.index(t)
        return self.toks[idx + 1] if idx + 1 < len(self.toks) else self.stop

    def err(self, at: Token, what: str | None) -> SqlParserError:
        return expected_error(self.sql, at, what)

    def u64_literal(self, lt: LarkToken) -> int:
        """A number token read as ``literal_u64`` reads it (parser_v2/number.rs:37-45)."""
        t = self.tok(lt)
        if t.value.isdigit() and int(t.value) < 1 << 64:
            return int(t.value)
        cause = (
            "number too large to fit in target type"
            if t.value.isdigit()
            else "invalid digit found in string"
        )
        raise located(self.sql, t, f"invalid u64\n{cause}")

    def check_column_names(self, lt: Any, definitions: bool) -> None:
        """The names of a parenthesised column list (``definitions``: column definitions, whose
        items may also be constraints and watermarks) read as ``parse_identifier_non_reserved``
        reads them (parser.rs:4548-4559): a word RisingWave reserves fails with
        `syntax error at or near <word>`, located after it."""
        if not isinstance(lt, LarkToken) or lt.type != "PARENS":
            return
        start = self.toks.index(self.tok(lt))
        depth = 0
        for i in range(start, len(self.toks)):
            t = self.toks[i]
            if t.kind is Kind.OP and t.value in ("(", "["):
                depth += 1
                if depth == 1:
                    self._check_name(i + 1, definitions)
            elif t.kind is Kind.OP and t.value in (")", "]"):
                depth -= 1
                if depth == 0:
                    return
            elif depth == 1 and t.kind is Kind.OP and t.value == ",":
                self._check_name(i + 1, definitions)

    def _check_name(self, i: int, definitions: bool) -> None:
        if i >= len(self.toks):
            return
        t = self.toks[i]
        if definitions and t.upper in _NOT_A_COLUMN:
            return
        at = reserved_name_error_at(self.toks, i)
        if at is not None:
            raise located(self.sql, at, f"syntax error at or near {t.value}")

    def u32_literal(self, lt: LarkToken) -> int:
        """A number token read as ``literal_u32`` reads it (parser.rs:4327-4330, ids of jobs
        and fragments); out of range it fails with `invalid u32` and the Rust parse error."""
        t = self.tok(lt)
        if t.value.isdigit() and int(t.value) < 1 << 32:
            return int(t.value)
        cause = (
            "number too large to fit in target type"
            if t.value.isdigit()
            else "invalid digit found in string"
        )
        raise located(self.sql, t, f"invalid u32\n{cause}")

    def check_implied_format(
        self, opts: st.Options, fe: st.FormatEncode | None, cdc_job: bool
    ) -> None:
        """parse_format_encode_with_connector (src/sqlparser/src/ast/statement.rs:234-300):
        a CDC, nexmark or iceberg connector implies its FORMAT ... ENCODE; one written must be
        exactly it (no options, no KEY ENCODE), else ``parser_err!`` where the clause ends."""
        connector = str(dict(opts).get("connector", ""))
        if fe is None or not connector:
            return
        if "-cdc" in connector:
            kind = "CDC"
            expected = ("PLAIN", "JSON") if cdc_job else ("DEBEZIUM", "JSON")
            if not cdc_job and "mongodb" in connector:
                expected = ("DEBEZIUM_MONGO", "JSON")
        elif "nexmark" in connector:
            kind, expected = "nexmark", ("NATIVE", "NATIVE")
        elif "iceberg" in connector or "adbc_snowflake" in connector:
            kind, expected = "iceberg", ("NONE", "NONE")
        else:
            return
        end, key_encode = self._after_format()
        if (fe.format, fe.encode) != expected or fe.options or key_encode:
            raise located(
                self.sql,
                end,
                f"Row format for {kind} connectors should be either omitted or set to "
                f"`FORMAT {expected[0]} ENCODE {expected[1]}`",
            )

    def _after_format(self) -> tuple[Token, bool]:
        """The token after the statement's ``FORMAT f ENCODE e [(...)] [KEY ENCODE k
        [(...)]]`` clause, and whether it has KEY ENCODE."""
        toks = self.toks
        depth = 0
        i = 0
        while i < len(toks):
            v = toks[i].value if toks[i].kind is Kind.OP else ""
            depth += (v == "(") - (v == ")")
            if depth == 0 and toks[i].upper == "FORMAT" and not toks[i].quoted:
                break
            i += 1
        i += 4  # FORMAT f ENCODE e
        key_encode = False
        while i < len(toks):
            if toks[i].kind is Kind.OP and toks[i].value == "(":
                depth = 0
                while i < len(toks):
                    v = toks[i].value if toks[i].kind is Kind.OP else ""
                    depth += (v == "(") - (v == ")")
                    i += 1
                    if depth == 0:
                        break
            elif toks[i].upper == "KEY" and not key_encode:
                key_encode = True
                i += 3  # KEY ENCODE k
            else:
                break
        return (toks[i] if i < len(toks) else self.stop), key_encode
