"""Answers fixed by their statement text, kept encoded: the per-message fast path (issue 16).

A constant ``SELECT`` (``SELECT 1``, ``SELECT 'ok' AS status``: integer and string literals and
integer arithmetic, see ``catalog_path/sqlite/fast_path.py``) answers the same bytes in every
session, whatever its state: RisingWave plans such a statement into a batch Values node and
sends the same RowDescription, DataRow and CommandComplete every time (pg_protocol.rs's simple
and extended query flows).  Health checks, pools and benchmarks send these texts over and over,
so the session encodes the answer once and sends the bytes again for the same text:

- a simple Query of exactly that one statement: RowDescription + DataRows + CommandComplete;
- an Execute of a portal of that statement with these result formats: DataRows +
  CommandComplete; and the Parse of that text: its parsed statement and description.

Only what cannot depend on the session is kept: an answer is recorded after a statement ran
normally (no notice, no parameter change, every row sent) when the frontend marked its outcome
``constant`` and every column's type renders the same under every setting (integers, booleans
and strings: no time zone, DateStyle, extra_float_digits or IntervalStyle in them).  Errors are
never kept: an overflowing ``SELECT 2147483647 + 1`` runs (and fails) every time.  The cache
belongs to the server (``Server.replies``, rwshim/server/listener.py), shared by its sessions (a
new connection's first ``SELECT 1`` hits it), and is bounded: wire bytes are the protocol
layer's, so the instance below it holds none.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rwshim.common import pgtypes
from rwshim.common.outcome import Column
from rwshim.sql.cache import SizedLRU

if TYPE_CHECKING:
    from rwshim.frontend import Description, Statement

# Types whose text and binary renderings read no session setting.
SETTINGS_FREE = frozenset(
    {pgtypes.BOOL, pgtypes.INT2, pgtypes.INT4, pgtypes.INT8, pgtypes.VARCHAR, pgtypes.TEXT}
)

# The cache is bounded by bytes (texts and encoded answers), not by count: a constant
# statement of 5 MB (a long literal) keeps 10 MB (rwshim/sql/cache.py).
MAX_BYTES = 32 * 1024 * 1024


def settings_free(columns: Sequence[Column]) -> bool:
    """Whether every column renders the same in every session."""
    return all(c.type_oid in SETTINGS_FREE for c in columns)


class ReplyCache:
    """Text-keyed encoded answers (simple Query, Execute) and parse results (Parse)."""

    __slots__ = ("executes", "parses", "queries")

    def __init__(self) -> None:
        # Query text -> RowDescription + DataRows + CommandComplete
        self.queries: SizedLRU[str, bytes] = SizedLRU(MAX_BYTES, weigh=len)
        # (text, result formats) -> DataRows + CommandComplete
        self.executes: SizedLRU[tuple[str, tuple[int, ...]], bytes] = SizedLRU(MAX_BYTES, weigh=len)
        # text -> (statement, description) of a Parse without parameter types (the statement
        # holds its text: factor 2)
        self.parses: SizedLRU[str, tuple[Statement | None, Description]] = SizedLRU(
            MAX_BYTES, factor=2
        )

    def put_query(self, sql: str, data: bytes) -> None:
        self.queries.put(sql, data)

    def put_execute(self, sql: str, formats: tuple[int, ...], data: bytes) -> None:
        self.executes.put((sql, formats), data)

    def put_parse(self, sql: str, stmt: Statement | None, description: Description) -> None:
        self.parses.put(sql, (stmt, description))
