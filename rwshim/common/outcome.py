"""What a statement produced, before any wire: ``Column``, ``Outcome``, kept and streaming rows,
and the command tag an outcome completes with.

Every layer that runs a statement (the catalog path, the data plane, the frontend's handlers)
returns these; only ``rwshim/wire/results.py`` turns them into backend messages.  RisingWave:
``src/utils/pgwire/src/pg_response.rs`` (PgResponse, StatementType), ``pg_field_descriptor.rs``.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence

from msgspec import Struct, field


class Column(Struct, frozen=True):
    """One RowDescription field. Table OID and attnum are always 0, as in RisingWave
    (clients.md §8.5)."""

    name: str
    type_oid: int
    type_size: int = -1
    type_modifier: int = -1


class Outcome(Struct):
    """What one statement produced.

    ``columns`` is None for statements without a result set (no RowDescription).  ``rows``
    yields tuples of Python values (None = NULL) in column order; it may be a lazy iterator
    so large results stream.  When ``count_rows`` is set the tag gets the number of rows sent
    appended (``SELECT 3``, ``FETCH 2``); otherwise ``tag`` is sent verbatim (``INSERT 0 1``,
    ``CREATE_TABLE``, ``SHOW_COMMAND``).
    """

    tag: str
    columns: list[Column] | None = None
    # an AsyncIterator of rows too: the data plane streams (the session iterates it with
    # ``async for`` and closes it with ``aclose`` when it stops early)
    rows: Iterable[Sequence[object]] | AsyncIterator[Sequence[object]] = ()
    count_rows: bool = False
    notices: list[str] = field(default_factory=list)
    # COPY ... TO STDOUT: rows go out as CopyData (tab-separated text) between
    # CopyOutResponse and CopyDone, then ``COPY n`` (pg_protocol.rs:889-910).
    copy_out: bool = False
    # The answer is fixed by the statement's text (a constant SELECT): the session may keep
    # it encoded and send it again for the same text (rwshim/server/shortcuts/replies.py).
    constant: bool = False


class KeptRows(list[tuple[object, ...]]):
    """Rows a cache hands out again, the same object while they stay valid (the read path's
    kept catalog results, catalog_path/result_cache.py): never changed once made, so a session may
    keep their encoding for as long as it gets this very object back."""

    __slots__ = ()


_LIST_ITERATOR: type = type(iter([]))


class Rows:
    """A result's rows as they stream, which another session's write can turn into a list.

    Rows are read lazily from the store's one SQLite connection: while a statement is active
    there (a result streaming to a slow client, a suspended portal, an open cursor) SQLite
    refuses DROP TABLE on that connection (``database table is locked``) to every session.
    So before a write the store asks every session to ``materialise`` what it holds open:
    the rest of the rows is read into memory (the statement ends) and iteration goes on
    from the list, for whoever is iterating now.  An error met while reading the rest is
    raised where the rows are next read, in the session they belong to.
    """

    __slots__ = ("_it",)

    def __init__(self, rows: Iterable[Sequence[object]]) -> None:
        self._it: Iterator[Sequence[object]] = iter(rows)

    def __iter__(self) -> Rows:
        return self

    def __next__(self) -> Sequence[object]:
        return next(self._it)

    def materialise(self) -> None:
        if type(self._it) is _LIST_ITERATOR:
            return
        rest: list[Sequence[object]] = []
        try:
            rest.extend(self._it)
        except Exception as e:  # the reader's error, for the reader
            self._it = itertools.chain(rest, _raising(e))
            return
        self._it = iter(rest)


def _raising(e: Exception) -> Iterator[Sequence[object]]:
    raise e
    yield  # pragma: no cover - makes this a generator


def command_tag(outcome: Outcome, rows_sent: int) -> str:
    """The CommandComplete tag: ``SELECT n`` / ``FETCH n`` when rows are counted, else the
    tag as the statement gave it (pg_message.rs:566-589)."""
    if outcome.count_rows:
        return f"{outcome.tag} {rows_sent}"
    return outcome.tag
