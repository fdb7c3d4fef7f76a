"""The connector-source tests' server: a fresh rwshim per test under the manual clock (rows
appear at the barriers the test makes), and a psycopg client over it."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest

from rwshim.testing import RwShim
from tests.datapath.conftest import Client


@pytest.fixture
def rw() -> Iterator[RwShim]:
    server = RwShim(manual=True)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def db(rw: RwShim) -> Iterator[Client]:
    with psycopg.connect(rw.dsn, autocommit=True) as conn:
        yield Client(conn)
