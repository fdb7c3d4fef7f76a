"""A pytest plugin for the SQLAlchemy compliance run (tests/clients/test_sqlarw_compliance.py):
writes one JSON line per test that did not pass or skip, ``[nodeid, first line of the
error]``, to the file named by RWSHIM_COMPLIANCE_OUT."""

from __future__ import annotations

import json
import os
from typing import Any

_OUT = os.environ.get("RWSHIM_COMPLIANCE_OUT", "compliance.jsonl")


def pytest_runtest_logreport(report: Any) -> None:
    if report.passed or report.skipped:
        return
    message = ""
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None:
        message = str(crash.message).splitlines()[0] if crash.message else ""
    with open(_OUT, "a", encoding="utf-8") as f:
        f.write(json.dumps([report.nodeid, report.when, message]) + "\n")
