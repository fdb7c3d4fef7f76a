"""SQL user-defined functions inlined into the text of a statement, as RisingWave's binder
inlines them (src/frontend/src/binder/expr/function/mod.rs:440-500 bind_sql_udf,
740-800 extract_udf_expr / bind_sql_udf_inner; binder/expr/mod.rs:457-520 the parameters).

A call ``f(x, y)`` of a ``LANGUAGE sql`` function becomes the function's body with each
parameter (``$n`` for an unnamed argument, its name for a named one) replaced by the argument
cast to the parameter's type: a body that is a single select item without FROM inlines as
that expression, any other body as a scalar subquery, as extract_udf_expr decides.  The
rewritten text then goes down whichever path the statement takes (in process or the
PostgreSQL data plane) like any other text, so one rule serves ad-hoc queries, queries over
tables and the definitions of views and materialized views, which are inlined each time the
data plane makes their objects.  Calls inside a body are inlined in turn.

Why inlining and not PostgreSQL functions on the data plane: RisingWave inlines (the body is
bound in the caller's binder, so the body's errors and types are RisingWave's), the catalog
path (SQLite) has no functions to define, and a materialized view keeps reading its upstreams
directly (no opaque function call between PostgreSQL and the view's tables).

Calls of functions in other languages are refused here with what rwshim lacks (it embeds no
JavaScript, WebAssembly or Python runtime and reaches no external UDF server).

The core is I/O-free: the caller passes the look-up of functions by name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from rwshim.common.names import quoted
from rwshim.errors import BindError, InvalidInputSyntax, NotImplementedError_, RwError

# bind_sql_udf has no depth limit of its own (a recursive function cannot be created: its body
# is bound before it exists); this bounds the inlining of functions created in a cycle.
MAX_DEPTH = 16


@dataclass(frozen=True, slots=True)
class Udf:
    """A user-defined function as the inliner needs it."""

    id: int
    name: str
    schema: str
    kind: str  # SCALAR / TABLE / AGGREGATE
    language: str
    arg_names: tuple[str, ...]
    arg_types: tuple[str, ...]  # RisingWave's type names
    return_type: str
    body: str | None
    owner_id: int = 0


# (schema or None, function name, number of arguments) -> the candidates of the first schema
# of the search path that has any
Lookup = Callable[[str | None, str, int], list[Udf]]


class UdfInlineError(RwError):
    """A failure while inlining (carries RisingWave's chain)."""


class ExternalFunctionCall(NotImplementedError_):
    """A call of a function rwshim cannot run (not SQL): RisingWave binds it, so the refusals
    its planner makes after binding come first (frontend/plan_checks.py)."""

    def __init__(self, udf: Udf) -> None:
        super().__init__(
            f"calling the {udf.language or 'external'} function {udf.name}: rwshim runs "
            "SQL functions only (it embeds no JavaScript, WebAssembly or Python runtime "
            "and reaches no external UDF server)"
        )
        self.udf = udf


def _words(sql: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-z_][A-Za-z0-9_$]*", sql)}


def may_call(sql: str, names: frozenset[str]) -> bool:
    """Whether ``sql`` mentions any of ``names`` (a cheap test before parsing)."""
    return bool(names) and not _words(sql).isdisjoint(names)


def _children(node: Any) -> Iterator[Any]:
    from pglast.ast import Node

    for slot in getattr(node, "__slots__", ()):
        v = getattr(node, slot, None)
        if isinstance(v, Node):
            yield v
        elif isinstance(v, tuple):
            for x in v:
                if isinstance(x, Node):
                    yield x
                elif isinstance(x, tuple):
                    yield from (y for y in x if isinstance(y, Node))


@dataclass(slots=True)
class _Call:
    start: int
    end: int  # past the closing parenthesis
    args: list[tuple[int, int]]
    udf: Udf
    # a select item that is the call alone is named after the function, as RisingWave derives
    # the alias from the call before inlining it (binder/select.rs derive_alias)
    alias: str | None = None


class Inliner:
    """Inlines the SQL functions ``lookup`` finds into statement texts."""

    def __init__(
        self,
        lookup: Lookup,
        *,
        collect_only: bool = False,
        on_call: Callable[[Udf], None] | None = None,
        database: str | None = None,
    ) -> None:
        self.lookup = lookup
        # the current database: a call named ``database.schema.f`` is ``schema.f``
        # (binder/expr/function/mod.rs:116-128); another database's is left to the binder,
        # which refuses it with RisingWave's text
        self.database = database
        # called with each function a text calls (the EXECUTE privilege check)
        self.on_call = on_call
        # the functions the texts call (through SQL functions' bodies too)
        self.used: set[int] = set()
        # only find the calls (DROP FUNCTION's callers): refuse nothing, expand nothing
        self.collect_only = collect_only
        self._seen: set[int] = set()

    def statement(self, sql: str) -> str:
        """``sql`` with every call of a SQL function inlined (unchanged if pglast cannot
        parse it: the statement's own path reports that).  A call written
        ``aggregate:f(args)`` is first ``f(array_agg(args))``, the call RisingWave binds
        (binder/expr/function/mod.rs:243-256), so a SQL function used so is inlined too."""
        if ":" in sql:
            from rwshim.binder.parse import wrap_scalar_as_agg

            sql = wrap_scalar_as_agg(sql)
        return self._text(sql, 0, sql, aliases=True)

    def expression(self, expr: str, depth: int = 0) -> str:
        prefix = "SELECT "
        out = self._text(prefix + expr, depth, prefix + expr)
        return out[len(prefix) :]

    # ------------------------------------------------------------------ internals

    def _text(self, sql: str, depth: int, shown: str, aliases: bool = False) -> str:
        """``aliases``: name a select item that is a call alone after the function (the
        statement's own select lists; not an argument or a body being inlined)."""
        from pglast import parse_sql
        from pglast.parser import ParseError, scan

        from rwshim.sql import long_names

        masked, long = long_names.mask(sql, chars=True)  # names over 63 bytes read whole
        try:
            stmts = long_names.restore_ast(parse_sql(masked), long)
            toks = scan(sql)
        except ParseError:
            return sql
        calls: list[_Call] = []
        for raw in stmts:
            self._collect(raw.stmt, sql, toks, calls)
        if not calls:
            return sql
        out: list[str] = []
        pos = 0
        for call in sorted(calls, key=lambda c: c.start):
            if call.start < pos:
                continue
            out.append(sql[pos : call.start])
            out.append(self._expand(call, sql, depth))
            if aliases and call.alias is not None and not self.collect_only:
                out.append(" AS " + quoted(call.alias))
            pos = call.end
        out.append(sql[pos:])
        return "".join(out)

    def _collect(self, node: Any, sql: str, toks: list[Any], calls: list[_Call]) -> None:
        from pglast.ast import FuncCall, ResTarget

        if isinstance(node, ResTarget) and node.name is None and isinstance(node.val, FuncCall):
            call = self._match(node.val, sql, toks)
            if call is not None:
                call.alias = getattr((node.val.funcname or ("",))[-1], "sval", None)
                calls.append(call)
                return
        if isinstance(node, FuncCall):
            call = self._match(node, sql, toks)
            if call is not None:
                calls.append(call)
                return  # its arguments are inlined with it
        for child in _children(node):
            self._collect(child, sql, toks, calls)

    def _match(self, node: Any, sql: str, toks: list[Any]) -> _Call | None:
        names = [getattr(n, "sval", "") for n in node.funcname]
        if len(names) == 3 and self.database is not None and names[0] == self.database:
            names = names[1:]
        if len(names) > 2 or (len(names) == 2 and names[0] == "pg_catalog"):
            return None
        schema = names[0] if len(names) == 2 else None
        nargs = len(node.args or ())
        candidates = self.lookup(schema, names[-1], nargs)
        if not candidates:
            return None
        if len(candidates) > 1 and self.collect_only:
            self.used.update(c.id for c in candidates)
            return None
        if len(candidates) > 1:
            raise NotImplementedError_(
                f"calling the overloaded function {names[-1]} with {nargs} arguments: rwshim "
                "picks a user-defined function by its number of arguments"
            )
        udf = candidates[0]
        if self.on_call is not None:
            self.on_call(udf)
        if node.func_variadic:
            # function/mod.rs:484-487
            raise InvalidInputSyntax("`VARIADIC` is not allowed in user-defined function call")
        if node.over is not None or node.agg_filter is not None or node.agg_order:
            raise NotImplementedError_(
                f"a window, FILTER or ORDER BY clause on the user-defined function {udf.name}"
            )
        span = _call_span(sql, toks, node.location)
        if span is None:
            return None
        end, args = span
        if len(args) != nargs:
            return None
        return _Call(node.location, end, args, udf)

    def _expand(self, call: _Call, sql: str, depth: int) -> str:
        udf = call.udf
        if self.collect_only:
            self.used.add(udf.id)
            for s, e in call.args:
                self.expression(sql[s:e].strip(), depth)
            if (
                udf.language == "sql"
                and udf.body
                and depth < MAX_DEPTH
                and udf.id not in self._seen
            ):
                self._seen.add(udf.id)
                try:
                    expr, inline = udf_expression(udf.body)
                except RwError:
                    expr, inline = "", True
                if inline:
                    self.expression(expr, depth + 1)
                else:
                    self._text(expr, depth + 1, expr)
            return sql[call.start : call.end]
        if udf.language != "sql":
            raise ExternalFunctionCall(udf)
        if depth >= MAX_DEPTH:
            raise RwError(f"function {udf.name} calling stack depth limit exceeded")
        self.used.add(udf.id)
        texts = [self.expression(sql[s:e].strip(), depth) for s, e in call.args]
        return self.expand(udf, texts, depth)

    def expand(self, udf: Udf, arg_texts: list[str], depth: int = 0) -> str:
        """The text a call of the SQL function ``udf`` with these arguments becomes."""
        args = [f"CAST(({a}) AS {t})" for a, t in zip(arg_texts, udf.arg_types, strict=True)]
        expr, inline = udf_expression(udf.body or "")
        if inline:
            body = _replace_params(expr, udf.arg_names, args, inline)
            return "(" + self.expression(body, depth + 1) + ")"
        if not args:
            body = _replace_params(expr, udf.arg_names, args, inline)
            return "(" + self._text(body, depth + 1, body) + ")"
        # A subquery body reads its parameters from a derived table of the arguments, named
        # so that no column of the body's own FROM can capture them.
        alias = f"_rw_udf_args{depth}"
        refs = [f'{alias}."a{i}"' for i in range(len(args))]
        body = _replace_params(expr, udf.arg_names, refs, inline)
        cols = ", ".join(f'{a} AS "a{i}"' for i, a in enumerate(args))
        inner = self._text(body, depth + 1, body)
        return f"(SELECT ({inner}) FROM (SELECT {cols}) AS {alias})"


def _call_span(
    sql: str, toks: list[Any], location: int
) -> tuple[int, list[tuple[int, int]]] | None:
    """(end of the call, the argument spans) of the call whose name starts at ``location``."""
    i = next((k for k, t in enumerate(toks) if t.start >= location), None)
    if i is None:
        return None
    while i < len(toks) and toks[i].name != "ASCII_40":
        i += 1
    if i >= len(toks):
        return None
    depth = 0
    args: list[tuple[int, int]] = []
    arg_start = toks[i].end + 1
    for t in toks[i:]:
        if t.name in ("ASCII_40", "ASCII_91"):
            depth += 1
        elif t.name in ("ASCII_41", "ASCII_93"):
            depth -= 1
            if depth == 0:
                if sql[arg_start : t.start].strip():
                    args.append((arg_start, t.start))
                return t.start + 1, args
        elif t.name == "ASCII_44" and depth == 1:
            args.append((arg_start, t.start))
            arg_start = t.start + 1
    return None


def udf_expression(body: str) -> tuple[str, bool]:
    """extract_udf_expr (function/mod.rs:720-745): the body's expression text and whether it
    inlines as an expression (True) or as a scalar subquery (False)."""
    from pglast import parse_sql
    from pglast.ast import SelectStmt
    from pglast.parser import ParseError

    from rwshim.sql import parse
    from rwshim.sql import statements as st

    # RisingWave's parser first (Parser::parse_sql: its errors), then extract_udf_expr
    parsed = parse(body)
    if len(parsed) != 1:
        raise InvalidInputSyntax("the query for sql udf should contain only one statement")
    if not isinstance(parsed[0], st.Query):
        raise InvalidInputSyntax("invalid function definition, please recheck the syntax")
    from rwshim.sql import long_names

    masked, long = long_names.mask(body, chars=True)  # names over 63 bytes read whole
    try:
        stmts = long_names.restore_ast(parse_sql(masked), long)
    except ParseError as e:
        raise UdfInlineError(f"sql parser error: {e}") from None
    stmt = stmts[0].stmt
    if not isinstance(stmt, SelectStmt):
        raise InvalidInputSyntax("invalid function definition, please recheck the syntax")
    single = (
        stmt.op is not None
        and int(stmt.op) == 0
        and stmt.valuesLists is None
        and not stmt.fromClause
        and stmt.whereClause is None
        and not stmt.groupClause
        and stmt.havingClause is None
        and not stmt.sortClause
        and stmt.limitCount is None
        and stmt.limitOffset is None
        and stmt.withClause is None
        and not stmt.distinctClause
        and stmt.targetList is not None
        and len(stmt.targetList) == 1
    )
    text = body.strip().rstrip(";").rstrip()
    if not single:
        return text, False
    target = (stmt.targetList or ())[0]
    start = int(target.location or 0)
    expr = body[start:].strip().rstrip(";").rstrip()
    if target.name:
        # drop `[AS] alias` at the end
        expr = re.sub(r"\s+(?:[Aa][Ss]\s+)?(?:\"[^\"]*\"|[A-Za-z_][A-Za-z0-9_$]*)\s*$", "", expr)
    return expr.strip(), True


def substitute(body: str, arg_names: tuple[str, ...], args: list[str]) -> str:
    """The body's expression (or subquery) with its parameters replaced by ``args``
    (bind_sql_udf_parameter: ``$n`` names the n-th argument when it is unnamed; a name names
    a named argument; anything else is ``failed to find ... parameter``)."""
    expr, inline = udf_expression(body)
    return _replace_params(expr, arg_names, args, inline)


def _replace_params(expr: str, arg_names: tuple[str, ...], args: list[str], inline: bool) -> str:
    from pglast import parse_sql
    from pglast.ast import ColumnRef, ParamRef, String

    wrapped = expr if not inline else "SELECT " + expr
    offset = 0 if not inline else len("SELECT ")
    from rwshim.sql import long_names

    masked, long = long_names.mask(wrapped, chars=True)  # names over 63 bytes read whole
    stmt = long_names.restore_ast(parse_sql(masked)[0].stmt, long)
    named = {n: i for i, n in enumerate(arg_names) if n}
    edits: list[tuple[int, int, str]] = []

    def visit(node: Any) -> None:
        if isinstance(node, ParamRef):
            number = int(node.number or 0)
            loc = int(node.location or 0)
            key = f"${number}"
            i = number - 1
            if not (0 <= i < len(arg_names)) or arg_names[i]:
                raise BindError(f"failed to find unnamed parameter {key}")
            edits.append((loc, loc + len(key), f"({args[i]})"))
            return
        if isinstance(node, ColumnRef):
            fields = node.fields or ()
            if len(fields) == 1 and isinstance(fields[0], String):
                name = fields[0].sval
                if name in named:
                    loc = int(node.location or 0)
                    edits.append((loc, _ident_end(wrapped, loc), f"({args[named[name]]})"))
                elif inline:
                    raise BindError(f"failed to find named parameter {name}")
            return
        for child in _children(node):
            visit(child)

    visit(stmt)
    out = wrapped
    for s, e, new in sorted(edits, reverse=True):
        out = out[:s] + new + out[e:]
    return out[offset:]


_IDENT = re.compile(r'"(?:[^"]|"")*"|[A-Za-z_\x80-\uffff][A-Za-z0-9_$\x80-\uffff]*')


def _ident_end(text: str, pos: int) -> int:
    m = _IDENT.match(text, pos)
    return m.end() if m else pos + 1


def bind_error_expression(body: str) -> str:
    """The body's expression as ``Failed to bind expression`` shows it."""
    try:
        expr, inline = udf_expression(body)
    except RwError:
        return body
    return expr if inline else f"({expr})"


__all__ = [
    "MAX_DEPTH",
    "Inliner",
    "Lookup",
    "Udf",
    "UdfInlineError",
    "bind_error_expression",
    "may_call",
    "substitute",
    "udf_expression",
]
