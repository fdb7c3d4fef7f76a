"""The token-level pre-pass: RisingWave-only syntax made PostgreSQL-parsable before the parse,
with the side information the rewriter needs.

Every pass keeps byte offsets (it blanks what it removes), so the parse tree's locations are
locations in the user's text.  A pass that cannot keep a construct's meaning must leave the
text alone: PostgreSQL then fails to parse it, the statement goes to the catalog path, and that
path refuses it if it reads user data (never a construct silently dropped).

First, the one step that lengthens the text (``subscripted_arrays``): ``ARRAY[...][i]`` as
``(ARRAY[...])[i]``.

Built in (RisingWave's parser, src/sqlparser/src/parser.rs):
- ``* EXCEPT (a, b)`` / ``t.* EXCEPT (a, u.b)`` (parse_wildcard_or_expr): blanked to ``*``;
  the star leaves a, b out (a name qualified as ``u.b``: only u's b; a name given twice is
  ``Duplicate entry in except list``, src/frontend/src/binder/select.rs);
- ``FOR SYSTEM_TIME AS OF PROCTIME()`` / ``NOW()`` on a join's right side
  (parse_table_factor): blanked; a batch query reads the current version, which is what a
  plain join reads;
- ``ASOF [LEFT] JOIN`` (parse_join): blanked to ``[LEFT] JOIN``, the join remembered for the
  rewriter (plan/asof), which turns it into a LATERAL subquery or refuses it;
- ``STRUCT<...>`` in a type position (parse_data_type): the struct's composite type
  (query/pg/typemap), whose DDL goes to ``requires``;
- ``map(K,V)`` types and ``MAP {...}`` literals (dataplane/plan/mapsyntax.py);
- ``f(x) OVER (... SESSION WITH GAP g)`` (parse_window_frame): ``first_value`` /
  ``last_value`` over the whole partition, rwfn's 4-argument ones picking the session
  (rwshim/sql/session_frames.py, run before the others);
- ``::char(n)`` / ``::character(n)`` / ``::bpchar``, ``CAST(x AS char(n))``: RisingWave has
  no char type and binds it as varchar (src/frontend/src/binder/expr/mod.rs bind_data_type,
  AstDataType::Char), the length ignored (``text`` where ``varchar`` does not fit in place).

Register more with ``register(fn)``: ``fn(text, state)`` edits ``state`` (a ``Prepassed``)
and is called only when ``fn.trigger`` (a lower-case word) occurs in the text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rwshim.errors import RwError
from rwshim.sql import session_frames
from rwshim.sql.tokens import Kind, Token, tokenize

_LITERALS = frozenset(
    {Kind.NUMBER, Kind.STRING, Kind.ESTRING, Kind.NSTRING, Kind.XSTRING, Kind.DOLLAR}
)


@dataclass(slots=True)
class Prepassed:
    text: str
    # byte offset of a star -> the column names it leaves out (``* EXCEPT``)
    star_excludes: dict[int, frozenset[str]] = field(default_factory=dict)
    tokens: list[Token] | None = None
    # idempotent DDL the rewritten text needs first (composite types of struct casts)
    requires: list[str] = field(default_factory=list)
    # byte offsets of the blanked ``FOR SYSTEM_TIME AS OF PROCTIME()`` (temporal joins, read
    # by the rewriter: dataplane/plan/temporal.py)
    temporal_at: list[int] = field(default_factory=list)
    # byte offset of a blanked ``FOR SYSTEM_TIME AS OF <point>`` (time travel) -> the point:
    # ("num", seconds) | ("str", text) | ("now", "<n> <unit>")
    time_travel_at: dict[int, tuple[str, str]] = field(default_factory=dict)
    # byte offset of the JOIN keyword of an ``ASOF [LEFT] JOIN`` -> LEFT (plan/asof)
    asof: dict[int, bool] = field(default_factory=dict)
    # byte offsets of the calls written ``aggregate:f(...)`` (their array_agg is spliced in)
    scalar_as_agg: list[int] = field(default_factory=list)
    # byte spans of a call's blanked ``IGNORE NULLS`` (plan/ignore_nulls)
    ignore_nulls: list[tuple[int, int]] = field(default_factory=list)
    # the ``MAP {...}`` literals (dataplane/plan/mapsyntax.py MapSpan), rebuilt by the rewriter
    map_literals: list[Any] = field(default_factory=list)

    def blank(self, start: int, end: int) -> None:
        """Replace characters [start, end) with spaces (offsets are kept)."""
        self.text = self.text[:start] + " " * (end - start) + self.text[end:]

    def replace(self, start: int, end: int, new: str) -> None:
        """Put ``new`` in place of characters [start, end), padded with spaces to the same
        length in bytes (byte offsets of the parse tree stay those of the user's text)."""
        width = len(self.text[start:end].encode())
        if len(new.encode()) > width:
            raise ValueError(f"{new!r} does not fit in {self.text[start:end]!r}")
        pad = width - len(new.encode())
        # characters after the span keep their byte offsets; a multi-byte character in the
        # span leaves the character offsets of what follows shorter: re-tokenize
        self.text = self.text[:start] + new + " " * pad + self.text[end:]
        self.tokens = None

    def byte_offset(self, char_offset: int) -> int:
        return len(self.text[:char_offset].encode())


Pass = Callable[[str, Prepassed], None]
_PASSES: list[tuple[str, Pass]] = []


def register(trigger: str, fn: Pass) -> None:
    """Run ``fn`` on texts that contain the word ``trigger`` (case-insensitive)."""
    _PASSES.append((trigger.lower(), fn))


def prepass(text: str) -> Prepassed:
    # SESSION frames first (their text grows): the other passes see PostgreSQL's form
    text = session_frames.for_postgres(text)
    if "[" in text and "array" in text.lower():
        text = subscripted_arrays(text)
    out = Prepassed(text)
    lower: str | None = None
    for trigger, fn in _PASSES:
        if lower is None:
            lower = text.lower()
        if trigger in lower:
            fn(text, out)
    return out


def subscripted_arrays(text: str) -> str:
    """``ARRAY[...]`` followed by a subscript as ``(ARRAY[...])``: RisingWave's parser
    subscripts any expression (parser.rs parse_array_index), PostgreSQL's grammar only a
    parenthesized one.  The one step that lengthens the text: it runs before every pass, so
    the offsets the passes record are the parsed text's."""
    try:
        toks = tokenize(text)
    except RwError:
        return text
    spans: list[tuple[int, int]] = []
    for i, t in enumerate(toks[:-1]):
        if t.kind is not Kind.WORD or t.quoted or t.upper != "ARRAY" or toks[i + 1].value != "[":
            continue
        depth, j = 0, i + 1
        while j < len(toks):
            if toks[j].kind is Kind.OP and toks[j].value == "[":
                depth += 1
            elif toks[j].kind is Kind.OP and toks[j].value == "]":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        if j + 1 < len(toks) and toks[j + 1].kind is Kind.OP and toks[j + 1].value == "[":
            spans.append((t.start, toks[j].end))
    inserts = [(start, "(") for start, _ in spans] + [(end, ")") for _, end in spans]
    for at, mark in sorted(inserts, key=lambda x: x[0], reverse=True):
        text = text[:at] + mark + text[at:]
    return text


def _tokens(state: Prepassed) -> list[Token]:
    if state.tokens is None:
        try:
            state.tokens = tokenize(state.text)
        except RwError:
            state.tokens = []
    return state.tokens


def _star_except(text: str, state: Prepassed) -> None:
    toks = _tokens(state)
    for i, t in enumerate(toks):
        if not (t.kind is Kind.OP and t.value == "*") or i + 2 >= len(toks):
            continue
        kw, lp = toks[i + 1], toks[i + 2]
        if not (kw.kind is Kind.WORD and not kw.quoted and kw.upper == "EXCEPT"):
            continue
        if not (lp.kind is Kind.OP and lp.value == "("):
            continue
        names: list[str] = []
        j = i + 3
        ok = False
        while j < len(toks):
            # a column, or qualified: `a.v1` (RisingWave binds each in the FROM clause)
            if j < len(toks) and toks[j].kind in _LITERALS:
                from rwshim.errors import BindError

                # a constant binds to no column (select.rs generate_except_indices:
                # anything but an InputRef)
                raise BindError("Only support column name in except list")
            parts: list[str] = []
            while j < len(toks) and toks[j].kind is Kind.WORD:
                w = toks[j]
                # an unquoted name folds to lower case (RisingWave's Ident::real_value)
                parts.append(w.value if w.quoted else w.value.lower())
                dot = toks[j + 1] if j + 1 < len(toks) else None
                if dot is not None and dot.kind is Kind.OP and dot.value == ".":
                    j += 2
                    continue
                break
            if not parts or j >= len(toks) or toks[j].kind is not Kind.WORD:
                break
            if len(parts) > 2:
                break
            name = ".".join(parts)
            if name in names:
                from rwshim.errors import BindError

                # select.rs generate_except_indices
                raise BindError("Duplicate entry in except list")
            names.append(name)
            sep = toks[j + 1] if j + 1 < len(toks) else None
            if sep is not None and sep.kind is Kind.OP and sep.value == ")":
                ok = True
                j += 1
                break
            if sep is None or not (sep.kind is Kind.OP and sep.value == ","):
                break
            j += 2
        if not ok or not names:
            continue
        # the star's offset in the parse tree: a qualified star (`t.*`) starts at `t`
        k = i
        while k >= 2 and toks[k - 1].kind is Kind.OP and toks[k - 1].value == ".":
            if toks[k - 2].kind is not Kind.WORD:
                break
            k -= 2
        state.star_excludes[state.byte_offset(toks[k].start)] = frozenset(names)
        state.blank(kw.start, toks[j].end)


def _temporal_join(text: str, state: Prepassed) -> None:
    """``FOR SYSTEM_TIME AS OF PROCTIME()`` (a temporal join) and ``FOR SYSTEM_TIME AS OF
    <point>`` (time travel: ``NOW()``, ``NOW() - '<n>' <unit>``, a string, a number;
    parser.rs:4408-4472) blanked, their places and points kept for the rewriter."""
    toks = _tokens(state)
    words = ("FOR", ("SYSTEM_TIME", "SYSTEM_VERSION"), "AS", "OF")
    spans: list[tuple[int, int, tuple[str, str] | None]] = []
    for i in range(len(toks) - 4):
        if not all(
            toks[i + k].kind is Kind.WORD
            and not toks[i + k].quoted
            and toks[i + k].upper in (w if isinstance(w, tuple) else (w,))
            for k, w in enumerate(words)
        ):
            continue
        if toks[i + 1].upper == "SYSTEM_VERSION":
            continue  # As Of Version: left for the parse to refuse
        found = _as_of_point(toks, i + 4)
        if found is not None:
            end, point = found
            spans.append((toks[i].start, end, point))
    for start, end, point in spans:
        if point is None:
            state.temporal_at.append(state.byte_offset(start))
        else:
            state.time_travel_at[state.byte_offset(start)] = point
        state.blank(start, end)
    if spans:
        state.tokens = None


def _as_of_point(toks: list[Token], j: int) -> tuple[int, tuple[str, str] | None] | None:
    """(end offset, point) of the ``AS OF`` operand at token ``j``; point None for
    ``PROCTIME()``."""

    def op(k: int, value: str) -> bool:
        return k < len(toks) and toks[k].kind is Kind.OP and toks[k].value == value

    t = toks[j] if j < len(toks) else None
    if t is None:
        return None
    if t.kind is Kind.NUMBER and t.value.isdigit():
        return t.end, ("num", t.value)
    if t.kind is Kind.STRING:
        return t.end, ("str", t.value)
    if t.kind is not Kind.WORD or t.quoted or not (op(j + 1, "(") and op(j + 2, ")")):
        return None
    if t.upper == "PROCTIME":
        return toks[j + 2].end, None
    if t.upper != "NOW":
        return None
    n, unit = j + 4, j + 5
    if (
        op(j + 3, "-")
        and n < len(toks)
        and toks[n].kind is Kind.STRING
        and unit < len(toks)
        and toks[unit].kind is Kind.WORD
    ):
        return toks[unit].end, ("now", f"{toks[n].value} {toks[unit].value}")
    return toks[j + 2].end, ("now", "0 second")


def _angle_end(text: str, start: int) -> int | None:
    """The offset just past the ``>`` closing the ``<`` at ``start`` (quoted names skipped)."""
    depth = 0
    i = start
    while i < len(text):
        c = text[i]
        if c == '"':
            j = text.find('"', i + 1)
            while j >= 0 and text[j + 1 : j + 2] == '"':
                j = text.find('"', j + 2)
            if j < 0:
                return None
            i = j + 1
            continue
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
            if depth == 0:
                return i + 1
        elif c in ";'":
            return None
        i += 1
    return None


def _struct_types(text: str, state: Prepassed) -> None:
    from rwshim.common import rwtypes
    from rwshim.dataplane.plan import typemap
    from rwshim.errors import RwError as _RwError

    toks = _tokens(state)
    spans: list[tuple[int, int, rwtypes.RwType]] = []
    covered = -1
    for i, t in enumerate(toks):
        if t.start < covered or i + 1 >= len(toks):
            continue
        if not (t.kind is Kind.WORD and not t.quoted and t.upper == "STRUCT"):
            continue
        nxt = toks[i + 1]
        if not (nxt.kind is Kind.OP and nxt.value.startswith("<")):
            continue
        end = _angle_end(state.text, nxt.start)
        if end is None:
            continue
        # a list of structs: the brackets after the struct belong to the type
        while state.text[end : end + 2] == "[]":
            end += 2
        try:
            typ = rwtypes.parse(state.text[t.start : end])
        except (rwtypes.TypeSyntaxError, _RwError):
            continue
        spans.append((t.start, end, typ))
        covered = end
    for start, end, typ in reversed(spans):
        state.replace(start, end, typemap.pg_type(typ).removeprefix("rwfn."))
        for sql in typemap.type_ddl(typ):
            if sql not in state.requires:
                state.requires.append(sql)


def _char_casts(text: str, state: Prepassed) -> None:
    toks = _tokens(state)
    spans: list[tuple[int, int]] = []
    for i in range(1, len(toks)):
        t, before = toks[i], toks[i - 1]
        if t.kind is not Kind.WORD or t.quoted or t.upper not in ("CHAR", "CHARACTER", "BPCHAR"):
            continue
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if nxt is not None and nxt.kind is Kind.WORD and nxt.upper == "VARYING":
            continue
        end = t.end
        sized = (
            i + 3 < len(toks)
            and toks[i + 1].value == "("
            and toks[i + 2].kind is Kind.NUMBER
            and toks[i + 3].value == ")"
        )
        if sized:
            end = toks[i + 3].end
        cast = before.kind is Kind.OP and before.value == "::"
        # CAST(x AS char(n)): AS, the sized type, then the closing parenthesis
        in_cast = (
            before.kind is Kind.WORD
            and before.upper == "AS"
            and sized
            and i + 4 < len(toks)
            and toks[i + 4].value == ")"
        )
        if cast or in_cast:
            spans.append((t.start, end))
    for start, end in reversed(spans):
        width = len(state.text[start:end].encode())
        state.replace(start, end, "varchar" if width >= len("varchar") else "text")


def _asof_join(text: str, state: Prepassed) -> None:
    """``ASOF [LEFT] JOIN`` (parser.rs parse_join: RIGHT or FULL after ASOF is refused) as
    ``[LEFT] JOIN``, the JOIN keyword's offset kept: the rewriter makes it a LATERAL
    subquery (plan/asof), or refuses it; never a plain join."""
    toks = _tokens(state)
    spans = []
    for i, t in enumerate(toks[:-1]):
        if t.kind is not Kind.WORD or t.quoted or t.upper != "ASOF":
            continue
        j = i + 1
        left = toks[j].kind is Kind.WORD and not toks[j].quoted and toks[j].upper == "LEFT"
        if left:
            j += 1
        kw = toks[j] if j < len(toks) else None
        if kw is None or kw.kind is not Kind.WORD or kw.quoted or kw.upper != "JOIN":
            continue
        state.asof[state.byte_offset(kw.start)] = left
        spans.append((t.start, t.end))
    for start, end in spans:
        state.blank(start, end)
    if spans:
        state.tokens = None


def _scalar_as_agg(text: str, state: Prepassed) -> None:
    """``aggregate:f(args)`` (parser.rs parse_function, ``scalar_as_agg``): ``aggregate:``
    blanked, the call's offset kept; the rewriter makes it ``f(array_agg(args))``."""
    toks = _tokens(state)
    spans = []
    for i in range(len(toks) - 3):
        t, colon, name = toks[i], toks[i + 1], toks[i + 2]
        if t.kind is not Kind.WORD or t.quoted or t.upper != "AGGREGATE":
            continue
        if colon.kind is not Kind.OP or colon.value != ":" or name.kind is not Kind.WORD:
            continue
        state.scalar_as_agg.append(state.byte_offset(name.start))
        spans.append((t.start, colon.end))
    for start, end in spans:
        state.blank(start, end)
    if spans:
        state.tokens = None


def _ignore_nulls(text: str, state: Prepassed) -> None:
    """``f(args IGNORE NULLS)`` (parser.rs parse_argument_list: the last thing before the
    closing parenthesis) blanked, its span kept for the rewriter (plan/ignore_nulls)."""
    toks = _tokens(state)
    spans = []
    for i in range(len(toks) - 2):
        t, nulls, close = toks[i], toks[i + 1], toks[i + 2]
        if t.kind is not Kind.WORD or t.quoted or t.upper != "IGNORE":
            continue
        if nulls.kind is not Kind.WORD or nulls.quoted or nulls.upper != "NULLS":
            continue
        if close.kind is Kind.OP and close.value == ")":
            state.ignore_nulls.append((state.byte_offset(t.start), state.byte_offset(nulls.end)))
            spans.append((t.start, nulls.end))
    for start, end in spans:
        state.blank(start, end)
    if spans:
        state.tokens = None


register("except", _star_except)
register("ignore", _ignore_nulls)
register("aggregate", _scalar_as_agg)
register("asof", _asof_join)
register("system_", _temporal_join)
register("struct", _struct_types)
register("char", _char_casts)

# RisingWave's map types and literals: a pass of its own module, registered on import
