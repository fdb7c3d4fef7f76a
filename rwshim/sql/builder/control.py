"""rwshim's ``RWSHIM ...`` test-control statements (an extension: no RisingWave counterpart).

They stand in for risectl's access to the meta node; rwshim/control/statements.py executes them.
"""

from __future__ import annotations

from typing import Any

from rwshim.sql import statements as st
from rwshim.sql.builder.base import BuildBase


class ControlRules(BuildBase):
    """RWSHIM TICK / CLOCK / HOLD / RELEASE / FAULT / FAULTS / RESTART / JOBS."""

    def rwshim(self, c: list[Any]) -> st.Statement:
        stmt = c[1]
        assert isinstance(stmt, st.Statement)
        return stmt

    def rwshim_tick(self, c: list[Any]) -> st.Statement:
        count = 1 if c[1] is None else self.u32_literal(c[1])
        db = None if c[3] is None else c[3].name
        return st.ControlTick(self.text, count, db)

    def rwshim_clock(self, c: list[Any]) -> st.Statement:
        return st.ControlClock(self.text, c[1].type == "MANUAL")

    def rwshim_hold(self, c: list[Any]) -> st.Statement:
        return st.ControlBackfill(self.text, self.u32_literal(c[2]), True)

    def rwshim_release(self, c: list[Any]) -> st.Statement:
        return st.ControlBackfill(self.text, self.u32_literal(c[2]), False)

    def rwshim_fault(self, c: list[Any]) -> st.Statement:
        return st.ControlFault(self.text, str(c[1]), c[2].type == "ON")

    def rwshim_restart(self, c: list[Any]) -> st.Statement:
        return st.ControlRestart(self.text)

    def rwshim_jobs(self, c: list[Any]) -> st.Statement:
        return st.ControlJobs(self.text)

    def rwshim_faults(self, c: list[Any]) -> st.Statement:
        return st.ControlFaults(self.text)

    def rwshim_push(self, c: list[Any]) -> st.Statement:
        partition = None if c[3] is None else self.tok(c[3]).value
        messages = tuple(m for m in c[4:] if isinstance(m, st.PushMessage))
        return st.ControlPush(self.text, c[1], partition, messages)

    def push_message(self, c: list[Any]) -> st.PushMessage:
        key = None if c[0] is None or c[1] is None or c[1].type == "NULL" else c[1]
        payload = c[-1]
        return st.PushMessage(
            None if key is None else self.tok(key).value,
            None if payload.type == "NULL" else self.tok(payload).value,
        )
