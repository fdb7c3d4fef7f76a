"""Statement results rendered into backend messages: the one place that formats replies.

The session produces ``rwshim.common.outcome.Outcome`` values (rows as Python values, a command
tag, notices); this module turns them, and ``RwError``s, into backend messages for the protocol
path in use (RisingWave: ``src/utils/pgwire/src/pg_protocol.rs``, ``pg_message.rs``).
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from datetime import tzinfo

from rwshim.common import pgtypes
from rwshim.common.outcome import Column
from rwshim.errors import RwError
from rwshim.wire import backend, codecs


def render_error(
    err: RwError, envelope: str | None, reword: Callable[[str], str] | None = None
) -> bytes:
    """ErrorResponse with RisingWave's three fields: S, C and the pretty report as M
    (pg_message.rs:731-745, error_or_notice.rs:35-53); ``reword``: the release's wording of
    the report (rwshim.common.releases)."""
    text = err.report(envelope)
    if reword is not None:
        text = reword(text)
    return backend.error_response(err.severity, err.code, text)


def render_notice(text: str) -> bytes:
    return backend.notice_response(text)


def render_row_description(columns: Sequence[Column], formats: Sequence[int]) -> bytes:
    """RowDescription; a column without a size gets its type's typlen (RisingWave's
    PgFieldDescriptor carries the data type's length)."""
    return backend.row_description(
        [
            (
                c.name,
                c.type_oid,
                c.type_size if c.type_size != -1 else pgtypes.type_size(c.type_oid),
                c.type_modifier,
            )
            for c in columns
        ],
        formats,
    )


def result_formats(codes: Sequence[int], ncols: int) -> list[int]:
    """Bind's result format codes expanded to one per column (none = text, one = all)."""
    if not codes:
        return [0] * ncols
    if len(codes) == 1:
        return [codes[0]] * ncols
    return list(codes)


class RowEncoder:
    """Encodes rows of one result shape into DataRow messages (encoders picked once)."""

    __slots__ = ("_encoders", "_ncols", "row_description")

    def __init__(
        self, columns: Sequence[Column], formats: Sequence[int], tz: tzinfo | None = None
    ) -> None:
        self._encoders = [
            codecs.encoder(c.type_oid, f == 1, tz) for c, f in zip(columns, formats, strict=True)
        ]
        self._ncols = len(columns)
        self.row_description = render_row_description(columns, formats)

    def encode(self, row: Sequence[object]) -> bytes:
        if len(row) != self._ncols:
            raise RwError(f"row has {len(row)} values for {self._ncols} columns")
        try:
            if self._ncols == 1:
                v = row[0]
                if v is None:
                    return _NULL_ROW
                b = self._encoders[0](v)
                return b"D" + _DATAROW1.pack(len(b) + 10, 1, len(b)) + b
            return backend.data_row(
                [None if v is None else enc(v) for enc, v in zip(self._encoders, row, strict=False)]
            )
        except codecs.CodecError as e:
            raise RwError(str(e)) from None
        except (TypeError, ValueError, AttributeError, OverflowError) as e:
            raise RwError(f"cannot encode value: {e}") from None


_DATAROW1 = struct.Struct("!ihi")
_NULL_ROW = backend.data_row([None])
_SHAPES: dict[tuple[tuple[Column, ...], tuple[int, ...], tzinfo | None], RowEncoder] = {}
_BY_ID: dict[int, tuple[Sequence[Column], tuple[int, ...], tzinfo | None, RowEncoder]] = {}


def row_encoder(
    columns: Sequence[Column], formats: Sequence[int], tz: tzinfo | None = None
) -> RowEncoder:
    """The RowEncoder of a result shape, cached: repeated queries reuse their encoders and
    their RowDescription bytes.  A frontend that hands back the same ``columns`` object for
    the same statement hits the cheap identity cache."""
    fkey = tuple(formats)
    hit = _BY_ID.get(id(columns))
    if hit is not None and hit[0] is columns and hit[1] == fkey and hit[2] is tz:
        return hit[3]
    key = (tuple(columns), fkey, tz)
    enc = _SHAPES.get(key)
    if enc is None:
        if len(_SHAPES) > 4096:
            _SHAPES.clear()
        enc = _SHAPES[key] = RowEncoder(columns, formats, tz)
    if len(_BY_ID) > 4096:
        _BY_ID.clear()
    # Holding ``columns`` keeps its id from being reused while the entry lives.
    _BY_ID[id(columns)] = (columns, fkey, tz, enc)
    return enc


_COPY_ESCAPES = str.maketrans({"\t": "\\t", "\n": "\\n", "\r": "\\r", "\\": "\\\\"})


def copy_row(columns: Sequence[Column], row: Sequence[object], tz: tzinfo | None = None) -> bytes:
    """One CopyData message as RisingWave writes it (pg_message.rs:767-818): text values
    joined by tabs, ``\\t \\n \\r \\\\`` escaped, NULL as an empty field, newline-ended."""
    fields = []
    for c, v in zip(columns, row, strict=True):
        if v is None:
            fields.append("")
        else:
            text = codecs.encoder(c.type_oid, False, tz)(v).decode()
            fields.append(text.translate(_COPY_ESCAPES))
    return backend.copy_data(("\t".join(fields) + "\n").encode())
