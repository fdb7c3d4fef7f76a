"""CANCEL JOBS, KILL, WAIT, FLUSH, RECOVER, BACKUP and REFRESH TABLE.

Mirrors src/sqlparser/src/parser.rs ``parse_cancel_job`` (parser.rs:5336), ``parse_kill_process``
(parser.rs:5355), ``parse_wait`` (parser.rs:6383), ``parse_refresh`` (parser.rs:370) and the bare
keywords ``parse_statement`` answers itself (FLUSH, BACKUP, RECOVER: parser.rs:348-351).
"""

from __future__ import annotations

from typing import Any

from rwshim.sql import statements as st
from rwshim.sql.builder.base import BuildBase


class JobRules(BuildBase):
    """Job and cluster control."""

    def cancel(self, c: list[Any]) -> st.Statement:
        ids = tuple(self.u32_literal(lt) for lt in c[2:] if lt.type == "NUMBER")
        return st.CancelJobs(self.text, ids)

    def kill(self, c: list[Any]) -> st.Statement:
        return st.Kill(self.text, self.tok(c[1]).value)

    def wait(self, c: list[Any]) -> st.Statement:
        if c[1] is None:
            return st.Wait(self.text)
        kind, name = c[1]
        return st.Wait(self.text, kind, name)

    def wait_table(self, c: list[Any]) -> tuple[str, Any]:
        return ("TABLE", c[1])

    def wait_mv(self, c: list[Any]) -> tuple[str, Any]:
        return ("MATERIALIZED VIEW", c[2])

    def wait_sink(self, c: list[Any]) -> tuple[str, Any]:
        return ("SINK", c[1])

    def wait_index(self, c: list[Any]) -> tuple[str, Any]:
        return ("INDEX", c[1])

    def flush(self, c: list[Any]) -> st.Statement:
        return st.Flush(self.text)

    def recover(self, c: list[Any]) -> st.Statement:
        return st.Recover(self.text)

    def backup(self, c: list[Any]) -> st.Statement:
        return st.Backup(self.text)

    def refresh(self, c: list[Any]) -> st.Statement:
        return st.RefreshTable(self.text, c[2])
