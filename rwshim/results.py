"""Statement results and their rendering into wire messages: the one place that formats replies.

The session produces ``Outcome`` values (rows as Python values, a command tag, notices); this
module turns them, and ``RwError``s, into backend messages for the protocol path in use.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Column:
    """One RowDescription field. Table OID and attnum are always 0, as in RisingWave
    (clients.md §8.5)."""

    name: str
    type_oid: int
    type_size: int = -1
    type_modifier: int = -1


@dataclass(slots=True)
class Outcome:
    """What one statement produced.

    ``columns`` is None for statements without a result set (no RowDescription).  ``rows``
    yields tuples of Python values (None = NULL) in column order; it may be a lazy iterator
    so large results stream.  When ``count_rows`` is set the tag gets the number of rows sent
    appended (``SELECT 3``, ``FETCH 2``); otherwise ``tag`` is sent verbatim (``INSERT 0 1``,
    ``CREATE_TABLE``, ``SHOW_COMMAND``).
    """

    tag: str
    columns: list[Column] | None = None
    rows: Iterable[Sequence[object]] = ()
    count_rows: bool = False
    notices: list[str] = field(default_factory=list)
