"""The records a server creates at start-up are msgspec Structs, not dataclasses (issue 16,
start-up to first answered query): a dataclass class costs 0.6-1 ms to create on this kind of
machine and 84 of them were a third of rwshim's own import time; a Struct class ~20 us.

A fresh interpreter imports what ``python -m rwshim`` imports and builds a ``Server``; every
class a loaded rwshim module defines is then looked at: none is a dataclass, and the
``dataclasses`` module itself (with ``copy``) is not loaded.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import inspect, json, sys

import rwshim.cli.main
rwshim.cli.main.build_parser()
from rwshim.config import Config
from rwshim.server.listener import Server

Server(Config(host="127.0.0.1", port=0, dashboard_port=None))
found = {"dataclasses": [], "structs": 0, "module": "dataclasses" in sys.modules}
import dataclasses  # only now: the check above is of what start-up loaded
for name, mod in sorted(sys.modules.items()):
    if not name.startswith("rwshim"):
        continue
    for cls in vars(mod).values():
        if inspect.isclass(cls) and cls.__module__ == name:
            if dataclasses.is_dataclass(cls):
                found["dataclasses"].append(f"{name}.{cls.__qualname__}")
            elif hasattr(cls, "__struct_fields__"):
                found["structs"] += 1
print(json.dumps(found))
"""


def test_start_up_creates_no_dataclasses() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.splitlines()[-1])
    assert found["dataclasses"] == []
    assert not found["module"]
    # the records did not vanish: the wire events alone are 20 Structs
    assert found["structs"] >= 60


def test_the_records_with_a_field_left_out_of_equality() -> None:
    from rwshim.binder.context import QueryContext
    from rwshim.sql.ast.base import SetValue

    a = QueryContext(1, "dev", 1, "root", variables={"timezone": "UTC"})
    b = QueryContext(1, "dev", 1, "root", variables={"timezone": "Asia/Tokyo"})
    assert a == b and hash(a) == hash(b)
    assert a != QueryContext(1, "dev", 2, "u") and a != QueryContext(2, "other", 1, "root")
    assert SetValue("single", ("4",), ("number",)) == SetValue("single", ("4",), ("ident",))
    assert hash(SetValue("single", ("4",), ("number",))) == hash(SetValue("single", ("4",)))
    assert SetValue("single", ("4",)) != SetValue("single", ("5",))
    assert SetValue("default") != SetValue("single", ("default",))
