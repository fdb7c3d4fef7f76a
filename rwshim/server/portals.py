"""What the protocol session keeps per connection, apart from the flows themselves: the
connection's process record (SHOW PROCESSLIST, KILL, CancelRequest), prepared statements and
portals, and the small reply pieces built once (CommandComplete per tag, text format codes per
column count).  The registry of live sessions is the server's (rwshim/server/registry.py).

RisingWave: ``src/utils/pgwire/src/pg_protocol.rs`` (the statement and portal maps, the
cancel key).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import TYPE_CHECKING

from msgspec import Struct, field

from rwshim.common.outcome import Outcome, Rows
from rwshim.frontend import Description, Statement
from rwshim.wire import backend
from rwshim.wire.results import RowEncoder

if TYPE_CHECKING:
    from rwshim.dataplane.rerun import Quick

# Parameter type OIDs RisingWave accepts in Parse (DataType::from_oid, postgres_type.rs):
# its base types, their arrays, and text/text[] (read as varchar).  0 means "infer".
PARSE_PARAM_OIDS = frozenset(
    {16, 17, 20, 21, 23, 700, 701, 1043, 1082, 1083, 1114, 1184, 1186, 1700, 3802, 1307}
    | {1000, 1001, 1016, 1005, 1007, 1021, 1022, 1015, 1182, 1183, 1115, 1185, 1187, 1231}
    | {3807, 1308, 25, 1009}
)


class _TextFormats(dict[int, tuple[int, ...]]):
    """n -> (0,) * n, built once per column count (simple queries send text only)."""

    def __missing__(self, n: int) -> tuple[int, ...]:
        value = self[n] = (0,) * n
        return value


TEXT_FORMATS = _TextFormats()
_TAGS: dict[str, bytes] = {}


def command_complete(tag: str) -> bytes:
    """CommandComplete bytes, memoized per tag text (``SELECT 1`` recurs constantly)."""
    msg = _TAGS.get(tag)
    if msg is None:
        if len(_TAGS) > 10000:
            _TAGS.clear()
        msg = _TAGS[tag] = backend.command_complete(tag)
    return msg


# Flush to the socket once this much output is buffered inside one statement.
FLUSH_THRESHOLD = 256 * 1024


class ProcessInfo(Struct):
    """One live connection, as SHOW PROCESSLIST / KILL / CancelRequest see it."""

    pid: int
    key: int
    user: str
    database: str
    client_addr: str
    application_name: str = ""
    connected_at: float = field(default_factory=time.time)
    # The statement running now (or the last one run) and when it started.
    statement: str | None = None
    statement_started: float | None = None
    active: bool = False


class Prepared(Struct):
    sql: str
    stmt: Statement | None  # None: the empty query
    description: Description
    portals: set[str] = field(default_factory=set)
    # The kept run of its data query (rwshim/dataplane/rerun.py), once one ran to its end.
    quick: Quick | None = None


class Portal(Struct):
    statement_name: str
    prepared: Prepared
    params: list[object]
    formats: list[int]
    # The result format codes as Bind sent them (``formats`` is expanded for the described
    # columns; a statement described as NoData may still return rows, e.g. CANCEL JOBS).
    codes: tuple[int, ...] = ()
    # Set while a row-limited Execute left rows to send.
    outcome: Outcome | None = None
    rows: Rows | AsyncIterator[Sequence[object]] | None = None
    encoder: RowEncoder | None = None


async def first_row(rows: Iterator[Sequence[object]] | AsyncIterator[Sequence[object]]) -> object:
    """The next row, or None."""
    if isinstance(rows, AsyncIterator):
        try:
            return await anext(rows)
        except StopAsyncIteration:
            return None
    return next(rows, None)
