"""The release chosen through the pytest plugin (``@pytest.mark.rwshim(rw_version=...)``, and
``$RWSHIM_RW_VERSION`` for the unmarked ones), written as a user writes it: only the
``rwshim`` fixture.  Not collected by the main run: ``test_plugin_marker.py`` runs it in its
own pytest process with ``RWSHIM_RW_VERSION=3.0``."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest


@pytest.mark.rwshim(rw_version="2.8")
def test_marker_chooses_the_release(rwshim: Any) -> None:
    with psycopg.connect(rwshim.dsn, autocommit=True) as conn:
        assert conn.execute("SELECT version()").fetchone() == (
            "PostgreSQL 13.14.0-RisingWave-2.8.5 (02a62d6a46f911c0456e57cf6ee55c50d8150712)",
        )


def test_environment_chooses_the_release(rwshim: Any) -> None:
    with psycopg.connect(rwshim.dsn, autocommit=True) as conn:
        assert conn.execute("SELECT version()").fetchone() == (
            "PostgreSQL 13.14.0-RisingWave-3.0.3 (ec07f2eb759bd2d8a12a55b030bf581b82adb4b9)",
        )
