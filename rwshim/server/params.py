"""A Bind message's parameters decoded: the count and format-code checks of PostgreSQL's
exec_bind_message (src/backend/tcop/postgres.c), then each value through its type's codec
(rwshim/wire/codecs: RisingWave's from_text / from_binary), with the texts a value that does
not decode gets (src/frontend/src/binder/bind_param.rs for UTF-8).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

from rwshim import errors
from rwshim.common import pgtypes
from rwshim.errors import RwError
from rwshim.wire import codecs
from rwshim.wire import events as ev


def decode_params(oids: Sequence[int], msg: ev.Bind) -> list[object]:
    """A Bind's parameter values decoded by their types' codecs (RisingWave's
    ScalarImpl::from_text / from_binary through wire/codecs), with the texts and SQLSTATEs
    RisingWave and PostgreSQL answer a count, format or value that does not fit."""
    values = msg.params
    if len(values) != len(oids):
        raise RwError(
            f"bind message supplies {len(values)} parameters, but prepared statement "
            f'"{msg.statement}" requires {len(oids)}',
            sqlstate="08P01",
        )
    pformats = msg.param_formats
    nf = len(pformats)
    if nf not in (0, 1, len(values)):
        raise errors.BindError(
            f"format codes length {nf} is not 0, 1 or equal to actual length {len(values)}"
        )
    out: list[object] = []
    for i, raw in enumerate(values):
        if raw is None:
            out.append(None)
            continue
        binary = (pformats[i] if nf > 1 else pformats[0] if nf else 0) == 1
        try:
            out.append(codecs.decoder(oids[i], binary)(raw))
        except codecs.CodecError as e:
            if str(e) == "incorrect binary data format in bind parameter":
                # PostgreSQL's text names the parameter (postgres.c exec_bind_message)
                raise RwError(f"{e} {i + 1}", sqlstate="22P03") from None
            raise RwError(str(e)) from None
        except UnicodeDecodeError as e:
            raise RwError(_utf8_error_text(e)) from None
        except (ValueError, OverflowError, ArithmeticError, IndexError, struct.error):
            # A decoder's own failure: PostgreSQL's texts for a parameter that does not
            # convert (src/backend/tcop/postgres.c exec_bind_message), never Python's.
            if binary:
                raise RwError(
                    f"incorrect binary data format in bind parameter {i + 1}",
                    sqlstate="22P03",
                ) from None
            name = pgtypes.BY_OID[oids[i]].name if oids[i] in pgtypes.BY_OID else "text"
            text = raw.decode(errors="replace")
            raise RwError(
                f'invalid input syntax for type {name}: "{text}"', sqlstate="22P02"
            ) from None
    return out


def _utf8_error_text(e: UnicodeDecodeError) -> str:
    """Rust's ``Utf8Error`` display, which RisingWave answers a parameter that is not UTF-8
    with (src/frontend/src/binder/bind_param.rs:65-77 ``std::str::from_utf8``)."""
    if e.reason == "unexpected end of data":
        return f"incomplete utf-8 byte sequence from index {e.start}"
    return f"invalid utf-8 sequence of {e.end - e.start} bytes from index {e.start}"
