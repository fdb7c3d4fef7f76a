"""ALTER: every object kind's operations, built into the rwshim.sql.ast.alter statements.

Mirrors ``parse_alter`` and the per-kind parsers it dispatches to in src/sqlparser/src/parser.rs
(parser.rs:3175-4123: ``parse_alter_database``, ``parse_alter_schema``, ``parse_alter_table``,
``parse_alter_index``, ``parse_alter_view``, ``parse_alter_sink``, ``parse_alter_subscription``,
``parse_alter_source``, ``parse_alter_function``, ``parse_alter_connection``,
``parse_alter_system``, ``parse_alter_secret``, ``parse_alter_fragment``,
``parse_alter_compaction_group``); ALTER DEFAULT PRIVILEGES is ``privileges``'s.
"""

from __future__ import annotations

from typing import Any, Literal

from lark import Token as LarkToken
from lark import Tree

from rwshim.sql import statements as st
from rwshim.sql.builder.base import BuildBase, fold
from rwshim.sql.tokens import Kind, Token


class AlterRules(BuildBase):
    """ALTER <kind> <name> <operation>, ALTER SYSTEM, ALTER FRAGMENT and the kept-as-text forms."""

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
                return st.AlterRetention(text, kind, name, self.tok(ch[3]).value)
            if data == "op_secret_credential":
                opts = ch[1] if len(ch) == 4 else ()
                return st.AlterSecretCredential(text, kind, name, opts or (), ch[-1])
            if data == "op_connector" and kind in ("CONNECTION", "SOURCE", "SINK", "TABLE"):
                return st.AlterConnectorProps(text, kind, name, ch[2])
            if (data == "op_add" and kind in ("TABLE", "SOURCE")) or (
                data in ("op_drop_column", "op_alter_column") and kind == "TABLE"
            ):
                return self._column_op(kind, name, data, self.tok(ch[0]))
            connector_ops: dict[str, Literal["DROP CONNECTOR", "REFRESH SCHEMA", "RESET"]] = {
                "op_drop_connector": "DROP CONNECTOR",
                "op_refresh_schema": "REFRESH SCHEMA",
                "op_reset_source": "RESET",
            }
            if data in connector_ops:
                return st.AlterConnector(text, kind, name, connector_ops[data])
            if data == "op_format":
                first = self.tok(ch[0])
                rest = text[first.end : self.toks[-1].end].strip()
                return st.AlterConnector(text, kind, name, "FORMAT", rest)
            if data == "op_rename_column" and kind == "TABLE":
                renamed = self._rename_column()
                if renamed is not None:
                    return st.AlterTableRenameColumn(text, kind, name, renamed)
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

    def _column_op(self, kind: str, name: st.ObjectName, data: str, first: Token) -> st.Statement:
        """ADD / DROP / ALTER [COLUMN] / ALTER WATERMARK as parse_alter_table reads them
        (parser.rs:3302-3450; parse_alter_source's ADD, 3870-3874)."""
        toks = self.toks
        i = toks.index(first) + 1

        def at(j: int) -> Token:
            return toks[j] if j < len(toks) else self.stop

        def word(j: int, *words: str) -> bool:
            t = at(j)
            return t.kind is Kind.WORD and not t.quoted and t.upper in words

        def rest(j: int) -> str:
            return self.sql[at(j).start : toks[-1].end] if j < len(toks) else ""

        if data == "op_add":
            if kind == "TABLE" and word(i, "CONSTRAINT", "PRIMARY", "UNIQUE", "FOREIGN", "CHECK"):
                return st.AlterColumn(self.text, kind, name, "ADD CONSTRAINT", column_def=rest(i))
            if word(i, "COLUMN"):
                i += 1
            if word(i, "IF") and word(i + 1, "NOT") and word(i + 2, "EXISTS"):
                i += 3
            col = at(i)
            if col.kind is not Kind.WORD:
                raise self.err(col, "identifier")
            return st.AlterColumn(
                self.text, kind, name, "ADD", fold(col), col.display(), column_def=rest(i)
            )
        if data == "op_drop_column":
            if word(i, "COLUMN"):
                i += 1
            if_exists = word(i, "IF") and word(i + 1, "EXISTS")
            if if_exists:
                i += 2
            col = at(i)
            if col.kind is not Kind.WORD:
                raise self.err(col, "identifier")
            cascade = word(i + 1, "CASCADE")
            end = i + 2 if cascade else i + 1
            if end < len(toks):
                raise self.err(toks[end], "end of statement")
            return st.AlterColumn(
                self.text, kind, name, "DROP", fold(col), col.display(),
                if_exists=if_exists, cascade=cascade,
            )  # fmt: skip
        if word(i, "WATERMARK") and word(i + 1, "FOR"):
            # parser.rs:3411-3426: FOR <col> AS <expr> [WITH TTL], nothing after
            col = at(i + 2)
            if col.kind is not Kind.WORD:
                raise self.err(col, "identifier")
            if not word(i + 3, "AS"):
                raise self.err(at(i + 3), "AS")
            end = len(toks)
            with_ttl = word(end - 2, "WITH") and word(end - 1, "TTL") and end - 2 > i + 4
            if with_ttl:
                end -= 2
            if end <= i + 4:
                raise self.err(at(i + 4), "an expression")
            expr = self.sql[toks[i + 4].start : toks[end - 1].end]
            return st.AlterColumn(
                self.text, kind, name, "ALTER WATERMARK", fold(col), col.display(),
                argument=expr, with_ttl=with_ttl,
            )  # fmt: skip
        if word(i, "COLUMN"):
            i += 1
        col = at(i)
        if col.kind is not Kind.WORD:
            raise self.err(col, "identifier")
        i += 1
        argument = using = ""
        if word(i, "SET") and word(i + 1, "NOT") and word(i + 2, "NULL"):
            op, i = "SET NOT NULL", i + 3
        elif word(i, "DROP") and word(i + 1, "NOT") and word(i + 2, "NULL"):
            op, i = "DROP NOT NULL", i + 3
        elif word(i, "SET") and word(i + 1, "DEFAULT"):
            op, argument, i = "SET DEFAULT", rest(i + 2), len(toks)
        elif word(i, "DROP") and word(i + 1, "DEFAULT"):
            op, i = "DROP DEFAULT", i + 2
        elif (word(i, "SET") and word(i + 1, "DATA") and word(i + 2, "TYPE")) or word(i, "TYPE"):
            i += 3 if word(i, "SET") else 1
            j = i
            while j < len(toks) and not word(j, "USING"):
                j += 1
            if j == i:
                raise self.err(at(i), "a data type name")
            argument = self.sql[toks[i].start : toks[j - 1].end]
            using = rest(j + 1) if j < len(toks) else ""
            op, i = "SET DATA TYPE", len(toks)
        else:
            raise self.err(
                at(i), "SET/DROP NOT NULL, SET DEFAULT, SET DATA TYPE after ALTER COLUMN"
            )
        if i < len(toks):
            raise self.err(toks[i], "end of statement")
        return st.AlterColumn(
            self.text, kind, name, "ALTER", fold(col), col.display(),
            alter=op, argument=argument, using=using,
        )  # fmt: skip

    def _rename_column(self) -> str | None:
        """RisingWave's Display of ``ALTER TABLE [ONLY] <name> RENAME [COLUMN | CONSTRAINT]
        <old> TO <new>`` (ast/ddl.rs:476-502: ``RENAME COLUMN`` also for the form without
        COLUMN; ONLY is not kept; idents as typed, quoted ones quoted), or None for a shape
        left to the generic ALTER operation.  A missing TO or trailing words fail as
        parser.rs:3318-3334 fails."""
        toks = self.toks
        i = 3 if len(toks) > 2 and toks[2].upper == "ONLY" and not toks[2].quoted else 2
        name: list[Token] = []
        while i < len(toks) and toks[i].kind is Kind.WORD:
            name.append(toks[i])
            i += 1
            if i < len(toks) and toks[i].kind is Kind.OP and toks[i].value == ".":
                i += 1
                continue
            break
        if not name or i >= len(toks) or toks[i].upper != "RENAME" or toks[i].quoted:
            return None
        i += 1
        what = "COLUMN"
        if i < len(toks) and not toks[i].quoted and toks[i].upper in ("COLUMN", "CONSTRAINT"):
            what = toks[i].upper
            i += 1
        at = toks[i] if i < len(toks) else self.stop
        if at.kind is not Kind.WORD or (at.upper == "TO" and not at.quoted):
            return None  # (a reserved word: parse_identifier_non_reserved's own error)
        old = at
        at = toks[i + 1] if i + 1 < len(toks) else self.stop
        if at.upper != "TO" or at.quoted:
            raise self.err(at, "TO")
        at = toks[i + 2] if i + 2 < len(toks) else self.stop
        if at.kind is not Kind.WORD:
            return None
        new = at
        if i + 3 < len(toks):
            raise self.err(toks[i + 3], "end of statement")
        shown = ".".join(t.display() for t in name)
        return f"ALTER TABLE {shown} RENAME {what} {old.display()} TO {new.display()}"

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
        from rwshim.sql.function_def import parse_alter

        desc, operation, target = parse_alter(self.text)
        return st.AlterFunction(
            self.text, "FUNCTION", st.ObjectName(desc.parts), desc.arg_types, operation, target
        )

    def alter_connection(self, c: list[Any]) -> st.Statement:
        return self._alter("CONNECTION", c[1], c[2])

    def alter_secret(self, c: list[Any]) -> st.Statement:
        return self._alter("SECRET", c[1], c[2])

    def alter_compaction(self, c: list[Any]) -> st.Statement:
        return st.AlterCompactionGroup(self.text)

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
        return tuple(self.u32_literal(lt) for lt in c if lt.type == "NUMBER")

    def alter_fragment(self, c: list[Any]) -> st.Statement:
        ids, op = c[1], c[2]
        data = str(op.data)
        ch = op.children
        if data == "op_fragment_parallelism":
            return st.AlterFragmentParallelism(self.text, ids, ch[3])
        if data == "op_fragment_rate_limit":
            return st.AlterFragmentRateLimit(self.text, ids, ch[3])
        typ, n = ch[1]
        return st.AlterFragmentRateLimit(self.text, ids, n, typ)
