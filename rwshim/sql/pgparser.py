"""PostgreSQL-syntax statements: checked with pglast, turned into typed statements.

pglast (PostgreSQL's own parser) validates the statement; the node it returns decides the
statement kind and gives the target relation.  When pglast rejects a statement, the error is
reported in RisingWave's form at the token PostgreSQL stopped at (see ``_pg_error``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

from pglast import parse_sql
from pglast.parser import ParseError

from rwshim.common.names import too_many_dotted_names
from rwshim.errors import SqlParserError
from rwshim.sql import long_names, pgjson
from rwshim.sql import statements as st
from rwshim.sql.errors_text import expected_error
from rwshim.sql.lenient import PgText, pg_text
from rwshim.sql.tokens import Kind, Token

T = TypeVar("T")

# RisingWave-only query syntax PostgreSQL rejects; blanked (offsets kept) before pglast reads
# a query, so that the rest of the query is still checked (parser.rs parse_table_factor,
# parse_join, parse_wildcard_or_expr):
#   temporal joins   FOR SYSTEM_TIME AS OF PROCTIME() | NOW() [- '<n>' <unit>] | '<lit>' | <num>
#   ASOF joins       ASOF [LEFT] JOIN
#   * EXCEPT (cols)  a wildcard without some columns
#   STRUCT<...>      RisingWave's struct type (parse_data_type): the angle brackets blanked
#   aggregate:f(...) a scalar function over the group's array (parse_function: scalar_as_agg)
#   CORRESPONDING [BY (cols)] after UNION / EXCEPT / INTERSECT [ALL] (parse_corresponding)
#   f(args IGNORE NULLS) the end of an argument list (parse_argument_list)
_RW_QUERY_ONLY = [
    re.compile(
        r"(?i)\bFOR\s+SYSTEM_(?:TIME|VERSION)\s+AS\s+OF\s+"
        r"(?:PROCTIME\s*\(\s*\)|NOW\s*\(\s*\)(?:\s*-\s*'[^']*'\s*[A-Za-z]+)?|'[^']*'|\d+)"
    ),
    re.compile(r"(?i)\bASOF(?=\s+(?:LEFT\s+)?JOIN\b)"),
    re.compile(r"(?i)(?<=\*)\s*EXCEPT\s*\([^()]*\)"),
    re.compile(r"(?i)\baggregate\s*:(?=\s*[A-Za-z_\"])"),
    re.compile(r"(?i)\bIGNORE\s+NULLS(?=\s*\))"),
]
# (its group 1 is blanked)
_CORRESPONDING = re.compile(
    r"(?i)\b(?:UNION|EXCEPT|INTERSECT)(?:\s+(?:ALL|DISTINCT))?\s+"
    r"(CORRESPONDING(?:\s+BY\s*\([^()]*\))?)"
)


_STRUCT = re.compile(r"(?i)\bstruct\s*<")
_CURSOR_FOR = re.compile(r"(?is)\bCURSOR\b.*?\bFOR\s")


def _blank_struct_types(text: str) -> str:
    """``STRUCT<...>`` (nested, quoted field names allowed) as ``STRUCT`` and spaces: a type
    name pglast reads (the field list is RisingWave's; the binder reads it)."""
    out = text
    for m in reversed(list(_STRUCT.finditer(text))):
        depth, i, end = 0, m.end() - 1, None
        while i < len(text):
            c = text[i]
            if c == '"':
                j = text.find('"', i + 1)
                if j < 0:
                    break
                i = j + 1
                continue
            if c in "';":
                break
            if c == "<":
                depth += 1
            elif c == ">":
                depth -= 1
                if depth == 0:
                    end = i + 1
                    break
            i += 1
        if end is not None:
            start = m.start() + len("struct")
            out = out[:start] + " " * (end - start) + out[end:]
    return out


def blank_rw_query_syntax(text: str) -> str:
    """``text`` with RisingWave-only query constructs replaced by spaces (same length)."""
    for rx in _RW_QUERY_ONLY:
        text = rx.sub(lambda m: " " * len(m.group(0)), text)
    if "corresponding" in text.lower():
        text = _CORRESPONDING.sub(
            lambda m: m.group(0)[: m.start(1) - m.start(0)] + " " * len(m.group(1)), text
        )
    if "<" in text:
        text = _blank_struct_types(text)
    if "{" in text:
        # MAP {k: v} literals as row constructors (rwshim.sql.map_literals)
        from rwshim.sql import map_literals

        text = map_literals.placeholder(text)
    return text


# PostgreSQL's own message for more than three dotted parts (gram.y makeRangeVarFromAnyName);
# RisingWave's binder says the same words of the name as written (rwshim.common.names)
_TOO_MANY_DOTS = "improper qualified name (too many dotted names): "


def _dotted_at(toks: list[Token], offset: int) -> str:
    """The dotted name starting at ``offset`` (relative to the statement), as written."""
    base = toks[0].start
    i = next((k for k, t in enumerate(toks) if t.start - base >= offset), 0)
    j = i
    while j + 2 < len(toks) and toks[j + 1].kind is Kind.OP and toks[j + 1].value == ".":
        j += 2
    return "".join(t.raw or t.value for t in toks[i : j + 1])


def check_pg(sql: str, text: str, toks: list[Token], stop: Token, query: bool = False) -> Any:
    """Parse ``text`` (the statement made of ``toks``) with pglast; the one node, or raise.

    ``query`` says the text stands where RisingWave parses a query (parse_query).
    """
    return check_pg_text(sql, text, toks, stop, query)[0]


def check_pg_text(
    sql: str, text: str, toks: list[Token], stop: Token, query: bool = False
) -> tuple[Any, PgText]:
    """``check_pg``, also returning the text pglast read (rwshim.sql.lenient: the forms
    RisingWave accepts and PostgreSQL does not, rewritten) to map its locations back."""
    pg = pg_text(text, toks)
    nodes = _checked(sql, toks, stop, query, pg, parse_sql)
    if len(nodes) != 1:  # pragma: no cover - the splitter hands over one statement
        raise expected_error(sql, stop, "end of statement")
    return nodes[0].stmt, pg


def check_pg_json(
    sql: str, text: str, toks: list[Token], stop: Token
) -> tuple[str, dict[str, Any], PgText]:
    """``check_pg_text`` on PostgreSQL's JSON tree (rwshim.sql.pgjson), without pglast's
    Python AST: (the statement's node type, the whole tree, the text pglast read)."""
    pg = pg_text(text, toks)
    tree = _checked(sql, toks, stop, False, pg, pgjson.parse)
    stmts = tree.get("stmts") or []
    if len(stmts) != 1:  # pragma: no cover - the splitter hands over one statement
        raise expected_error(sql, stop, "end of statement")
    ((kind, _),) = stmts[0]["stmt"].items()
    return kind, tree, pg


def _checked(
    sql: str, toks: list[Token], stop: Token, query: bool, pg: PgText, parse: Callable[[str], T]
) -> T:
    # identifiers over 63 bytes are read whole (rwshim/sql/long_names.py; pgjson.parse does
    # it itself, in bytes: the Python AST counts characters)
    masked, long = (pg.text, {}) if parse is pgjson.parse else long_names.mask(pg.text, True)
    try:
        out = parse(masked)
    except ParseError as e:
        if len(e.args) > 1 and isinstance(e.args[1], int):
            e.args = (e.args[0], pg.original_offset(e.args[1]), *e.args[2:])
            if str(e.args[0]).startswith(_TOO_MANY_DOTS):
                # RisingWave parses any number of dotted parts and its binder refuses more
                # than three (binder/relation/mod.rs:255-270): the name as written.
                raise too_many_dotted_names(_dotted_at(toks, e.args[1])) from None
        raise _pg_error(sql, toks, stop, e, query) from None
    empty = _empty_select_list(toks, stop)
    if empty is not None:
        raise expected_error(sql, empty, "an expression")
    if long:
        long_names.restore_ast(out, long)
    return out


# Words that end a select list; right after SELECT [ALL | DISTINCT [ON (...)]] they mean
# the list is empty, which PostgreSQL allows and RisingWave does not: its parse_select
# parses at least one select item (parser.rs:5014-5017, e2e_test/batch/duckdb/projection/
# test_scalar_projection.slt.part: "SELECT" and "SELECT FROM ..." are errors).
_END_OF_SELECT_LIST = {
    "FROM", "WHERE", "GROUP", "HAVING", "WINDOW", "ORDER", "LIMIT", "OFFSET", "FETCH",
    "UNION", "INTERSECT", "EXCEPT", "INTO",
}  # fmt: skip


def _empty_select_list(toks: list[Token], stop: Token) -> Token | None:
    """The token where an empty select list ends (RisingWave's error position), or None."""
    n = len(toks)
    for i, t in enumerate(toks):
        if t.upper != "SELECT":
            continue
        j = i + 1
        if j < n and toks[j].upper == "ALL":
            j += 1
        elif j < n and toks[j].upper == "DISTINCT":
            j += 1
            if j < n and toks[j].upper == "ON":
                depth = 0
                j += 1
                while j < n:
                    v = toks[j].value if toks[j].kind is Kind.OP else ""
                    depth += (v == "(") - (v == ")")
                    j += 1
                    if depth <= 0:
                        break
        nxt = toks[j] if j < n else stop
        if nxt is stop or nxt.kind is Kind.EOF or nxt.upper in _END_OF_SELECT_LIST:
            return nxt
        if nxt.kind is Kind.OP and nxt.value in (")", ";"):
            return nxt
    return None


_NAME_FOLLOWS = {"FROM", "JOIN", "INTO", "UPDATE", "TABLE"}


def _pg_error(
    sql: str, toks: list[Token], stop: Token, e: ParseError, query: bool = False
) -> SqlParserError:
    """RisingWave's form of a failure PostgreSQL found.

    The token is the one PostgreSQL stopped at.  What RisingWave says it expected there
    follows its parser's general habits: a query that does not start like one expects
    ``SELECT, VALUES, or a subquery in the query body``; after FROM/JOIN/INTO/UPDATE/TABLE a
    relation name (``identifier``); with a parenthesis open, ``)``; at the end, or after an
    operator, ``an expression``; after a complete construct, ``end of statement``.
    """
    offset = e.args[1] if len(e.args) > 1 else None
    base = toks[0].start
    at = stop
    if offset is not None:
        for t in toks:
            if t.start - base >= offset:
                at = t
                break
    prior = [t for t in toks if t.start < at.start] if at is not stop else toks
    depth = sum(
        1 if t.value == "(" else -1 if t.value == ")" else 0 for t in prior if t.kind is Kind.OP
    )
    if query and at is toks[0]:
        what = "SELECT, VALUES, or a subquery in the query body"  # parser.rs:4955
    elif (
        prior and prior[-1].upper in _NAME_FOLLOWS and not (at.kind is Kind.OP and at.value == "(")
    ):
        what = "identifier"  # a relation name is due (parse_object_name, parser.rs:4538-4544)
    elif at is stop:
        what = ")" if depth > 0 else "an expression"
    elif depth > 0:
        what = ")"
    elif prior and prior[-1].kind is Kind.OP and prior[-1].value not in (")", "]"):
        what = "an expression"
    else:
        what = "end of statement"
    return expected_error(sql, at, what)


def rw_restrictions(
    sql: str, node: Any, toks: list[Token], stop: Token, pg: PgText | None = None
) -> None:
    """Reject what PostgreSQL accepts but RisingWave's grammar does not, as RisingWave does.

    DELETE is ``DELETE FROM <name> [WHERE ...] [RETURNING ...]`` (parser.rs:4641-4665) and
    UPDATE is ``UPDATE <name> SET ... [WHERE ...] [RETURNING ...]`` (parser.rs:6005-6022): no
    alias, USING or FROM.  INSERT has no ON CONFLICT (parser.rs:5970-6003).  A statement
    that starts with WITH is a query.
    """
    kind = type(node).__name__
    if toks[0].upper == "WITH" and kind != "SelectStmt":
        # WITH starts a query in RisingWave (parser.rs:287-290): its body must be a query.
        verbs = [_word(toks, w) for w in ("INSERT", "UPDATE", "DELETE")]
        verb = min((t for t in verbs if t is not None), key=lambda t: t.start, default=stop)
        raise expected_error(sql, verb, "SELECT, VALUES, or a subquery in the query body")
    if kind not in ("DeleteStmt", "UpdateStmt", "InsertStmt"):
        return
    after_name = _after_relation(toks, node.relation, pg)
    if kind == "DeleteStmt":
        if node.relation.alias is not None and after_name is not None:
            raise expected_error(sql, after_name, "end of statement")
        if node.usingClause:
            raise expected_error(sql, _word(toks, "USING") or stop, "end of statement")
    elif kind == "UpdateStmt":
        if node.relation.alias is not None and after_name is not None:
            raise expected_error(sql, after_name, "SET")
        if node.fromClause:
            raise expected_error(sql, _word(toks, "FROM") or stop, "end of statement")
    elif node.onConflictClause is not None:
        raise expected_error(sql, _word(toks, "ON") or stop, "end of statement")


def _after_relation(toks: list[Token], rv: Any, pg: PgText | None) -> Token | None:
    """The token after a relation name (name parts joined by dots) starting at rv.location."""
    base = toks[0].start
    loc = pg.original_offset(rv.location) if pg is not None else rv.location
    i = next((k for k, t in enumerate(toks) if t.start - base >= loc), len(toks))
    while i < len(toks):
        i += 1  # a name part
        if i < len(toks) and toks[i].kind is Kind.OP and toks[i].value == ".":
            i += 1
            continue
        break
    return toks[i] if i < len(toks) else None


def _word(toks: list[Token], word: str) -> Token | None:
    depth = 0
    for t in toks:
        if t.kind is Kind.OP and t.value == "(":
            depth += 1
        elif t.kind is Kind.OP and t.value == ")":
            depth -= 1
        elif depth == 0 and t.upper == word:
            return t
    return None


def _name(rv: Any, pg: PgText | None = None) -> st.ObjectName:
    parts = [
        p
        for p in (getattr(rv, "catalogname", None), getattr(rv, "schemaname", None), rv.relname)
        if p
    ]
    if pg is not None and rv.location in pg.names and len(parts) == 1:
        parts = [pg.names[rv.location]]  # a keyword RisingWave takes as a name
    return st.ObjectName(tuple(parts))


def _strings(seq: Any) -> tuple[str, ...]:
    return tuple(getattr(x, "sval", str(x)) for x in (seq or ()))


def build(node: Any, text: str, pg: PgText | None = None) -> st.Statement:
    """The typed statement for a pglast node (dispatched on the node's class name)."""
    kind = type(node).__name__
    n: Any = node
    if kind == "SelectStmt":
        return st.Query(text)
    if kind in ("InsertStmt", "UpdateStmt", "DeleteStmt"):
        cls = {"InsertStmt": st.Insert, "UpdateStmt": st.Update, "DeleteStmt": st.Delete}[kind]
        return cls(text, _name(n.relation, pg), n.returningClause is not None)
    if kind == "CopyStmt":
        return st.Copy(text, _name(n.relation, pg) if n.relation else None, not n.is_from)
    if kind == "DeclareCursorStmt":
        # the query follows the first FOR after CURSOR (any whitespace around it)
        m = _CURSOR_FOR.search(text)
        return st.DeclareCursor(text, n.portalname, text[m.end() :].strip() if m else "")
    if kind == "FetchStmt":
        many = int(n.howMany)
        return st.FetchCursor(text, n.portalname, None if many >= 2**63 - 1 else many)
    if kind == "ClosePortalStmt":
        return st.CloseCursor(text, n.portalname)
    if kind == "TruncateStmt":
        return st.Truncate(text, _name(n.relations[0], pg))
    if kind == "TransactionStmt":
        tk = n.kind.name
        if tk == "TRANS_STMT_BEGIN":
            return st.Begin(text)
        if tk == "TRANS_STMT_START":
            return st.StartTransaction(text)
        if tk == "TRANS_STMT_COMMIT":
            return st.Commit(text)
        if tk == "TRANS_STMT_ROLLBACK":
            return st.Rollback(text)
    if kind == "PrepareStmt":
        return st.Prepare(text, n.name)
    if kind == "ExecuteStmt":
        return st.Execute(text, n.name)
    if kind == "DeallocateStmt":
        return st.Deallocate(text, n.name)
    if kind == "DiscardStmt":
        return st.Discard(text)
    if kind == "CommentStmt":
        obj = n.object
        parts = _strings(obj) if isinstance(obj, tuple) else _strings(getattr(obj, "names", ()))
        objtype = n.objtype.name.removeprefix("OBJECT_").replace("_", " ")
        return st.Comment(text, objtype, st.ObjectName(parts or ("",)), n.comment)
    if kind == "CreateSchemaStmt":
        owner = n.authrole.rolename if n.authrole else None
        return st.CreateSchema(
            text, st.ObjectName((n.schemaname or owner or "",)), bool(n.if_not_exists), owner
        )
    if kind == "CreatedbStmt":
        # OWNER [=] <user> (parser.rs parse_create_database); the other options are not kept
        owners = [o.arg.sval for o in n.options or () if o.defname == "owner"]
        return st.CreateDatabase(
            text, st.ObjectName((n.dbname,)), owner=owners[-1] if owners else None
        )
    user = pg.name_for if pg is not None else (lambda w: w)
    if kind == "CreateRoleStmt":
        return st.CreateUser(text, user(n.role))
    if kind == "AlterRoleStmt":
        return st.AlterUser(text, user(n.role.rolename))
    if kind == "RenameStmt" and n.renameType.name == "OBJECT_ROLE":
        return st.AlterUser(text, user(n.subname))
    if kind == "VacuumStmt":
        return st.Vacuum(text) if n.is_vacuumcmd else st.Analyze(text)
    # A statement pglast accepts but RisingWave's grammar has no such form for.
    raise NotImplementedError(kind)
