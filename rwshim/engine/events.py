"""The event log meta keeps (``rw_catalog.rw_event_logs``): the events rwshim has a cause for.
So far a sink's failure, ``SINK_FAIL`` (``EventSinkFail``: sink id, name, connector, error),
which RisingWave's compute node reports when a sink's writer fails
(src/rpc_client/src/meta_client.rs:1910-1930, ``add_sink_fail_evet``).

RisingWave: ``src/meta/src/manager/event_log.rs`` (a bounded channel per event type, listed
by ``list_event_log``), ``proto/meta.proto`` (EventLog), the catalog's rows
(src/frontend/src/catalog/system_catalog/rw_catalog/rw_event_logs.rs: ``info`` is the event
as JSON, without its id and timestamp).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from rwshim.engine.state import Meta
from rwshim.lazy import lazy_module

if TYPE_CHECKING:
    import json
    import uuid
else:
    json = lazy_module("json")  # on first use: start-up and SELECT 1 read and write no JSON
    uuid = lazy_module("uuid")

# event_log.rs: each channel keeps its latest events (event_log_channel_max_size, default 10)
CHANNEL_MAX = 10


class Events:
    """meta's event log."""

    def __init__(self, meta: Meta) -> None:
        self.meta = meta

    def add(self, event_type: str, info: dict[str, object]) -> None:
        """One event now (its channel keeps the latest ``CHANNEL_MAX``)."""
        now = datetime.fromtimestamp(self.meta.clock.now_ms() / 1000, tz=UTC)
        stamp = now.strftime("%Y-%m-%d %H:%M:%S.") + f"{now.microsecond:06d}+00:00"
        with self.meta.store.transaction() as conn:
            conn.execute(
                "INSERT INTO event_log (unique_id, timestamp, event_type, info)"
                " VALUES (?, ?, ?, ?)",
                (str(uuid.uuid4()), stamp, event_type, json.dumps(info, sort_keys=True)),
            )
            conn.execute(
                "DELETE FROM event_log WHERE event_type = ? AND rowid NOT IN (SELECT rowid FROM"
                " event_log WHERE event_type = ? ORDER BY rowid DESC LIMIT ?)",
                (event_type, event_type, CHANNEL_MAX),
            )

    def sink_fail(self, sink_id: int, name: str, connector: str, error: str) -> None:
        self.add(
            "SINK_FAIL",
            {
                "sinkFail": {
                    "sinkId": sink_id,
                    "sinkName": name,
                    "connector": connector,
                    "error": error,
                }
            },
        )
