"""Bounds on a statement checked on its tokens before any parser sees it: how deep it nests.

pglast (libpg_query in C) and the Python walks after it (the lark transformer, the binder,
the printers) recurse once per level of the expression tree.  A left-deep chain such as
``SELECT 1+1+...+1`` with ~24,000 terms overflows the C stack inside pglast and kills the
whole server (a segmentation fault, every session with it).  So the depth is estimated here,
on the token list (a flat, iterative walk), and a statement past ``MAX_DEPTH`` is refused
before pglast or lark is called.

RisingWave at 448c657 has no such bound: its parser (src/sqlparser/src/parser.rs) counts no
recursion depth and has no error for too-deep input, and its frontend grows the stack as it
recurses (src/common/src/util/recursive.rs, ``stacker::maybe_grow``).  rwshim cannot grow a
C stack, so it answers as PostgreSQL answers an expression too deep for its stack:
``stack depth limit exceeded``, SQLSTATE 54001 (src/backend/tcop/postgres.c
``check_stack_depth``).  PostgreSQL's HINT names its ``max_stack_depth`` setting, which
rwshim has not, so it is left out.

The estimate over-counts on purpose (it never under-counts a tree's depth): at each
parenthesis/bracket level it counts the operators since the last comma of that level, and a
token's depth is the number of open levels plus those counts along the way.  A left-deep
chain of ``n`` operators is a tree ``n`` deep; ``a = 1 AND b = 2 AND ...`` is counted at
about twice its depth.  Lists (``VALUES (..), (..)``, ``IN (...)``, select lists) reset the
count at each comma and cost nothing.
"""

from __future__ import annotations

from rwshim.errors import StackDepthExceeded
from rwshim.sql.tokens import Kind, Token

# Measured (see the reliability notes in README.md): pglast overflows a 512 KiB thread stack
# between 1,000 and 2,000 levels of ``1+1+...`` and the main thread's 8 MiB at ~24,000;
# rwshim's read path (sqlglot) stops at about 500 levels with its own error anyway.
MAX_DEPTH = 1000

_OPEN = frozenset({"(", "["})
_CLOSE = frozenset({")", "]"})
# Punctuation that builds no tree level.
_NOT_OPERATORS = frozenset({",", ";", "."})
# Keywords that are operators (each one makes a level of the expression tree).
_WORD_OPERATORS = frozenset(
    {"AND", "OR", "NOT", "IS", "IN", "LIKE", "ILIKE", "SIMILAR", "BETWEEN", "AT", "COLLATE"}
    | {"CASE", "WHEN", "ARRAY", "ROW", "SELECT", "EXISTS", "ANY", "ALL", "SOME", "STRUCT"}
    # EXPLAIN EXPLAIN ...: each one is a level of the parser's own recursion
    | {"EXPLAIN"}
)


def depth_estimate(toks: list[Token]) -> int:
    """An upper bound of the expression-tree depth of the statement made of ``toks``."""
    counts = [0]  # operators since the last comma, per open level
    total = 0  # sum(counts)
    deepest = 0
    for tok in toks:
        kind = tok.kind
        if kind is Kind.OP:
            v = tok.value
            if v in _OPEN:
                counts.append(0)
            elif v in _CLOSE:
                if len(counts) > 1:
                    total -= counts.pop()
                continue
            elif v == ",":
                total -= counts[-1]
                counts[-1] = 0
                continue
            elif v in _NOT_OPERATORS:
                continue
            else:
                counts[-1] += 1
                total += 1
        elif kind is Kind.WORD and tok.upper in _WORD_OPERATORS:
            counts[-1] += 1
            total += 1
        else:
            continue
        depth = len(counts) + total
        if depth > deepest:
            deepest = depth
    return deepest


def check_depth(toks: list[Token]) -> None:
    """Raise ``StackDepthExceeded`` when the statement may nest deeper than ``MAX_DEPTH``."""
    if len(toks) > MAX_DEPTH and depth_estimate(toks) > MAX_DEPTH:
        raise StackDepthExceeded()
