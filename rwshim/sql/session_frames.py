"""RisingWave's SESSION window frame, ``f(x) OVER (PARTITION BY k ORDER BY ts SESSION WITH GAP
g)``, in texts the other parsers read.

RisingWave parses ``SESSION WITH GAP <expr>`` as a frame of its own (src/sqlparser/src/ast,
``WindowFrameUnits::Session``); rows of a partition, in order, are one session while each
row's order value is below the previous one's plus the gap: a row at or past ``prev + gap``
starts a new session (src/expr/impl/src/window_function/buffer.rs:529-600,
``appended_key.order_key >= minimal_next_start``; ``minimal_next_start_of`` is ``prev + gap``,
src/expr/core/src/window_function/session.rs:202-207), and a row's frame is its whole
session (first_value gives the session's first row, last_value its last).  In a stream it runs
in EMIT ON WINDOW CLOSE only (logical_over_window.rs:705-715).

- ``blanked``: the frame clause replaced by spaces, for the readers that only check syntax or
  type the call (pglast's syntax check, the binder: the frame changes no type);
- ``for_postgres``: the data plane's text, where ``first_value`` / ``last_value`` over a session
  frame become ``first_value(vals, orders, nexts, cur)`` (rwfn's) over the whole partition
  (``array_agg`` of the values, the order values and ``order + gap``), which picks the value of
  the current row's session (sqlfn/sessions.py).  Another function over a session frame, a
  descending order, an ``IGNORE NULLS`` or a named window are refused (not supported by rwshim).

Pure functions of the text's tokens.
"""

from __future__ import annotations

import re

from rwshim.errors import RwError
from rwshim.sql.tokens import Kind, Token, tokenize

_QUICK = re.compile(r"(?is)\bsession\s+with\s+gap\b")


def mentions(text: str) -> bool:
    return _QUICK.search(text) is not None


def _is(tok: Token, value: str) -> bool:
    return tok.kind is Kind.OP and tok.value == value


def _word(tok: Token, value: str) -> bool:
    return tok.kind is Kind.WORD and not tok.quoted and tok.upper == value


class _Frame:
    """One OVER (...) holding a session frame: token indexes."""

    def __init__(self, over: int, open_: int, session: int, close: int) -> None:
        self.over = over  # OVER
        self.open = open_  # its (
        self.session = session  # SESSION
        self.close = close  # its )


def _frames(toks: list[Token]) -> list[_Frame]:
    out = []
    stack: list[int] = []
    opened: dict[int, int] = {}
    for i, t in enumerate(toks):
        if _is(t, "("):
            stack.append(i)
        elif _is(t, ")") and stack:
            opened[i] = stack.pop()
    closing = {v: k for k, v in opened.items()}
    for i, t in enumerate(toks):
        if not (
            _word(t, "SESSION")
            and i + 2 < len(toks)
            and _word(toks[i + 1], "WITH")
            and _word(toks[i + 2], "GAP")
        ):
            continue
        # the innermost parenthesis around it, opened right after OVER
        enclosing = [o for o in opened.values() if o < i < closing[o]]
        if not enclosing:
            continue
        open_ = max(enclosing)
        if open_ == 0 or not _word(toks[open_ - 1], "OVER"):
            continue
        out.append(_Frame(open_ - 1, open_, i, closing[open_]))
    return out


def blanked(text: str) -> str:
    """``text`` with each ``SESSION WITH GAP <expr>`` of an OVER clause blanked."""
    if not mentions(text):
        return text
    try:
        toks = [t for t in tokenize(text) if t.kind is not Kind.EOF]
    except Exception:  # the statement's own parse reports what is wrong with it
        return text
    chars = list(text)
    for f in _frames(toks):
        start, end = toks[f.session].start, toks[f.close].start
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def _refused(what: str) -> RwError:
    return RwError(f"not supported by rwshim: {what} over a SESSION frame")


def for_postgres(text: str) -> str:
    """``text`` with each first_value / last_value over a session frame made PostgreSQL's (see
    the docstring); other uses refused."""
    if not mentions(text):
        return text
    try:
        toks = [t for t in tokenize(text) if t.kind is not Kind.EOF]
    except Exception:
        return text
    edits: list[tuple[int, int, str]] = []
    for f in _frames(toks):
        edits.append(_call(text, toks, f))
    out: list[str] = []
    prev = 0
    for s, e, new in sorted(edits):
        out.append(text[prev:s])
        out.append(new)
        prev = e
    out.append(text[prev:])
    return "".join(out)


def _span(text: str, toks: list[Token], a: int, b: int) -> str:
    """The text of tokens ``a`` to ``b`` (exclusive)."""
    if a >= b:
        return ""
    return text[toks[a].start : toks[b - 1].end]


def _call(text: str, toks: list[Token], f: _Frame) -> tuple[int, int, str]:
    close = f.over - 1  # the call's )
    if close < 0 or not _is(toks[close], ")"):
        raise _refused("this window function")
    depth = 0
    open_ = close
    while open_ >= 0:
        if _is(toks[open_], ")"):
            depth += 1
        elif _is(toks[open_], "("):
            depth -= 1
            if depth == 0:
                break
        open_ -= 1
    name = toks[open_ - 1] if open_ > 0 else None
    if name is None or name.kind is not Kind.WORD:
        raise _refused("this window function")
    fn = name.value if name.quoted else name.value.lower()
    if fn not in ("first_value", "last_value"):
        raise _refused(f"{fn}()")
    args = _span(text, toks, open_ + 1, close)
    if any(_word(t, "IGNORE") or _word(t, "RESPECT") for t in toks[open_ + 1 : close]):
        raise _refused(f"{fn}() IGNORE NULLS")
    # the spec: [PARTITION BY ...] ORDER BY <order> SESSION ...
    spec = toks[f.open + 1 : f.session]
    order_at = next(
        (k for k in range(len(spec) - 1) if _word(spec[k], "ORDER") and _word(spec[k + 1], "BY")),
        None,
    )
    if order_at is None:
        raise _refused("a window without ORDER BY")
    order = spec[order_at + 2 :]
    if order and _word(order[-1], "ASC"):
        order = order[:-1]
    if (
        not order
        or any(_word(t, w) for t in order for w in ("DESC", "NULLS"))
        or any(_is(t, ",") for t in order)
    ):
        raise _refused("an ORDER BY other than one ascending column")
    head = _span(text, toks, f.open + 1, f.open + 1 + order_at + 2 + len(order))
    order_text = text[order[0].start : order[-1].end]
    gap = _span(text, toks, f.session + 3, f.close)
    window = f"OVER ({head} ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)"
    new = (
        f"{fn}(array_agg({args}) {window}, array_agg({order_text}) {window},"
        f" array_agg(({order_text}) + ({gap})) {window}, {order_text})"
    )
    return name.start, toks[f.close].end, new
