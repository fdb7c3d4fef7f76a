"""Coverage-guided fuzzing of the protocol path with atheris (not run in CI).

Each input is split at its first byte's worth of cut points and fed, chunk by chunk, to a
real ``ServerConnection`` + ``Session`` + ``Frontend`` over one shared ``Instance`` (the
sans-I/O driver of ``tests/rel/fuzzkit.py``).  A crash is any exception out of the driver,
a backend stream that does not split into messages, a FATAL other than 08P01/0A000, or an
error text with a traceback or SQLite's words in it.

Run from the repository root (atheris needs a clang-built CPython or its wheel)::

    .venv/bin/pip install atheris
    PYTHONPATH=. .venv/bin/python tests/fuzz/fuzz_protocol.py -max_total_time=600 corpus/

``corpus/`` may start empty; add ``-runs=N`` to bound the run, or pass a crash file to
replay it.
"""

from __future__ import annotations

import asyncio
import sys

from rwshim.instance import Instance
from tests import wirekit as fe
from tests.rel import fuzzkit

LEAKS = ("Traceback", "sqlite", "internal error", "no such table", 'near "')
INSTANCE = Instance(manual_clock=True)


def one_input(data: bytes) -> None:
    if not data:
        return
    cut = data[0]
    body = data[1:]
    chunks = [body[i : i + cut + 1] for i in range(0, len(body), cut + 1)] or [b""]
    driver = fuzzkit.Driver(INSTANCE)
    try:
        r = asyncio.run(driver.feed(chunks, eof=True))
    finally:
        driver.close()
    for m in fe.split(bytes(r.out)):
        if m.tag in "EN":
            text = " ".join(m.fields().values())
            if any(leak in text for leak in LEAKS):
                raise AssertionError(text)
    if r.fatal is not None and r.fatal.sqlstate not in ("08P01", "0A000"):
        raise AssertionError(r.fatal)


def main() -> None:
    import atheris  # type: ignore[import-untyped]

    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
