"""The server's registry of live sessions: their process ids and cancel keys, for SHOW
PROCESSLIST, SHOW CURSORS, KILL and CancelRequest, and the release of every session's open
reads before a write (``Instance.registry``, typed there by the ``Sessions`` protocol).

RisingWave: ``src/frontend/src/session.rs`` (the session map behind KILL and CancelRequest),
``src/utils/pgwire/src/pg_protocol.rs`` (the cancel key).
"""

from __future__ import annotations

import itertools
import os
from typing import TYPE_CHECKING

from rwshim.lazy import lazy_module
from rwshim.server.portals import ProcessInfo

if TYPE_CHECKING:
    import hmac

    from rwshim.server.session import Session
else:
    hmac = lazy_module("hmac")  # CancelRequest's key check only


class SessionRegistry:
    """Live sessions by process id (SHOW PROCESSLIST, KILL) and cancel key (CancelRequest)."""

    def __init__(self) -> None:
        self._next_pid = itertools.count(1)
        self._sessions: dict[int, Session] = {}

    def new_process(self, user: str, database: str, client_addr: str, app: str) -> ProcessInfo:
        pid = next(self._next_pid)
        # secrets.randbits(31) as it computes it (SystemRandom: os.urandom, the top 31 bits
        # of 4 bytes) without importing secrets, random and hmac with every start-up
        key = int.from_bytes(os.urandom(4), "big") >> 1
        return ProcessInfo(pid, key, user, database, client_addr, app)

    def add(self, session: Session) -> None:
        self._sessions[session.process.pid] = session

    def remove(self, session: Session) -> None:
        if self._sessions.get(session.process.pid) is session:
            del self._sessions[session.process.pid]

    def release_reads(self) -> None:
        """Every session's open results into memory, before a write (``Session.release_reads``)."""
        for session in list(self._sessions.values()):
            session.release_reads()

    def processes(self) -> list[ProcessInfo]:
        return [s.process for s in self._sessions.values()]

    def sessions(self) -> list[Session]:
        """The live sessions (SHOW CURSORS / SUBSCRIPTION CURSORS list their cursors)."""
        return list(self._sessions.values())

    def get(self, pid: int) -> Session | None:
        return self._sessions.get(pid)

    def kill(self, pid: int) -> bool:
        """KILL: cancel pid's running statement (RisingWave's handle_kill_local cancels the
        session's queries, it does not close the connection); False if no such session."""
        session = self._sessions.get(pid)
        if session is None:
            return False
        session.cancel()
        return True

    def cancel(self, pid: int, key: int) -> bool:
        """CancelRequest: cancel pid's running statement if the key matches."""
        session = self._sessions.get(pid)
        if session is None or not hmac.compare_digest(
            session.process.key.to_bytes(4, "big"), (key & 0xFFFFFFFF).to_bytes(4, "big")
        ):
            return False
        return session.cancel()

    def __len__(self) -> int:
        return len(self._sessions)
