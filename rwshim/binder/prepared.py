"""A statement bound and lowered for the catalog path (``Prepared``), and the ``Executor`` that
runs it.

``Prepared`` is what the catalog path caches per statement text and context: SQLite's text,
the typed output and parameter columns, and for DML the target relation (DML is bound for
RisingWave's errors and types but never runs in process: user data is on the PostgreSQL data
plane).  ``Executor`` is the second half of the boundary between the binder and SQLite (the
first is ``lowering.Lowering``): it makes a statement's lowering, decodes SQLite's values, binds
parameters, and runs queries.  Its one implementation is
``catalog_path.sqlite.executor.SqliteExecutor`` on the meta store's connection.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Protocol

from msgspec import Struct, field

from rwshim.binder import types
from rwshim.binder.relations import Relation
from rwshim.common import pgtypes
from rwshim.common.outcome import Column
from rwshim.errors import RwError

if TYPE_CHECKING:
    from rwshim.binder.lowering import Lowering
    from rwshim.binder.resolve import OutColumn


class Prepared(Struct):
    kind: str  # "select" or "insert"/"update"/"delete"
    sql: str  # SQLite's text of a query ("" for DML, which never runs here)
    columns: list[OutColumn]
    param_oids: list[int]
    # how many parameters the engine's text binds
    nbind: int = 0
    decoders: list[Callable[[object], object]] = field(default_factory=list)
    # DML: the table it writes, and whether it has RETURNING (``columns``)
    target: Relation | None = None
    returning: bool = False
    # ids of the user relations the statement reads or writes
    upstreams: list[int] = field(default_factory=list)
    # ``columns`` as a client sees them, built once: handing back the same list for every
    # execution lets ``wire.results.row_encoder`` find its encoder by identity
    client_columns: list[Column] = field(default_factory=list)


def column_of(c: OutColumn) -> Column:
    """An output column as a client sees it (its external OID and that type's size)."""
    oid = types.external(c.type_oid)
    return Column(c.name, oid, pgtypes.type_size(oid))


class Executor(Protocol):
    """Runs prepared queries on one SQLite connection."""

    def lowering(self) -> Lowering:
        """A fresh lowering for one statement."""
        ...

    def decoder(self, oid: int) -> Callable[[object], object]:
        """The function turning the engine's value of a column typed ``oid`` into the Python
        value the wire layer encodes."""
        ...

    def param_count(self, sql: str) -> int:
        """How many parameters the engine's text ``sql`` binds."""
        ...

    def encode_param(self, value: object, oid: int) -> object:
        """A decoded parameter value (by its OID) as the engine binds it."""
        ...

    def select(self, prep: Prepared, args: Sequence[object]) -> Iterator[tuple[object, ...]]:
        """Run a query; its rows, decoded lazily (an engine failure raised as RisingWave's
        error by the iterator)."""
        ...

    def failure(self, e: Exception) -> RwError | None:
        """An engine failure escaping a statement in RisingWave's words, None for another
        exception."""
        ...
