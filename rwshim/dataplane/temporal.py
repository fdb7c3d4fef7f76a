"""Time in materialized views: ``now()`` evaluated at barriers (temporal filters).

RisingWave evaluates ``now()`` in a streaming job with the ``Now`` executor
(``src/stream/src/executor/now.rs``): at barrier ``b`` it takes the timestamp of
``b.curr_epoch`` (``now.rs:141-143``), forwards the barrier and *then* emits
``Delete(old), Insert(new)`` (``now.rs:157-167``, ``:216-229``), so the new value belongs to the
epoch the barrier starts and is seen once the *next* barrier commits.  A temporal filter
``col CMP now_expr`` becomes a dynamic filter over that stream
(``src/frontend/src/optimizer/rule/stream/filter_with_now_to_join_rule.rs:30-90``,
``src/stream/src/executor/dynamic_filter.rs``): rows leave (and, for an upper bound, enter)
the view as barriers pass, whether or not an upstream table was written.

Here a materialized view's state is its query computed again at barriers
(``epochs.py``).  The query's ``now()`` is rwfn's ``now()`` (``sqlfn/datetime.py``), which
reads the setting ``rw.stream_now`` when it is set: the barrier's commit sets it (``SET
LOCAL``, in the transaction that refreshes the states) to the timestamp of the epoch the
*previous* barrier started, as the Now executor's output is seen, and every state whose query
calls ``now()`` (and every state downstream of one) is refreshed at every barrier of its
database.  A batch query's (and a DML's) ``now()`` is the setting too, set on its connection
to the time of the last committed epoch (``Clocked.batch_now``, RisingWave's inlined constant:
scheduler/snapshot.rs:132-145), PostgreSQL's ``now()`` before any barrier.

Time travel keeps histories (dataplane/plan/temporal.py) of tables and of made materialized
view states; every 30 s of barrier time the versions that ended before the retention are
deleted (``Clocked.vacuum_sql``), as RisingWave's meta vacuums its time-travel metadata.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from rwshim.dataplane.pgio import PgFailure
from rwshim.dataplane.plan import names, row_ids, rw_timestamp
from rwshim.dataplane.plan import temporal as joins
from rwshim.errors import FeatureNotAvailable, RwError
from rwshim.sql.tokens import Kind, tokenize

if TYPE_CHECKING:
    from rwshim.dataplane.plan.ddl import PgObject
    from rwshim.dataplane.plane import DataPlane, Planned

log = logging.getLogger("rwshim.datapath")

# the setting rwfn.now() reads (sqlfn/datetime.py)
NOW_SETTING = "rw.stream_now"
# RisingWave's epoch: physical milliseconds since 2021-04-01T00:00:00Z, shifted 16 bits
# (src/common/src/util/epoch.rs; rwshim.engine.types)
_EPOCH_BASE_MS = 1_617_235_200_000
_EPOCH_SHIFT = 16
# how often (in barrier time) histories are vacuumed: time_travel_vacuum_interval_sec, 30 s
VACUUM_INTERVAL_MS = 30_000


def _param(relations: object, name: str) -> str | None:
    """A system parameter's stored value (None without a meta store)."""
    conn = getattr(relations, "conn", None)
    if conn is None:
        return None
    row = conn.execute("SELECT value FROM system_parameter WHERE name = ?", (name,)).fetchone()
    return "" if row is None or row[0] is None else str(row[0])


def retention_ms(relations: object) -> int:
    """time_travel_retention_ms (system_param/mod.rs:99: 600000 unless set; 0: off)."""
    value = _param(relations, "time_travel_retention_ms")
    return int(value) if value and value.isdigit() else 600_000


def time_travel_plan(
    planned: Planned | None,
    relations: object,
    now_ms: int | None,
    vacuumed: int = 0,
    clock_ms: int | None = None,
) -> Planned | None:
    """A plan that reads as of a time-travel point, with the oldest epoch the retention
    keeps as of the last barrier (``now_ms``; the clock's time before any): none at all when
    time travel is off (time_travel.rs:649-657 writes no metadata).  ``clock_ms``: rwshim's
    clock, the frontend's time a ``NOW()`` point reads (the wall clock when None)."""
    if planned is None or not planned.statement.histories:
        return planned
    if _param(relations, "license_key") == "":
        # Feature::TimeTravel.check_available() when the scan's epoch is made
        # (optimizer/plan_node/utils.rs:512), an error of the scheduler; an empty key is the
        # Free tier (engine/state.py, check_feature)
        raise RwError("Scheduler error", FeatureNotAvailable("TimeTravel").chain[0])
    retention = retention_ms(relations)
    wall = int(dt.datetime.now(dt.UTC).timestamp() * 1000)
    clock = wall if clock_ms is None else clock_ms
    if now_ms is None:  # no barrier yet: the clock's time
        now_ms = clock
    if not retention:  # no history is kept: every point is refused (time_travel.rs:649-657)
        table_id, point = planned.statement.histories[0]
        epoch = point_epoch(point, clock)
        raise RwError(f"Time-travel version expired: table {table_id}, epoch {epoch}")
    floor_ms = now_ms - retention
    floor = max(max(floor_ms - _EPOCH_BASE_MS, 0) << _EPOCH_SHIFT, vacuumed)
    st = joins.with_floor(planned.statement, floor, clock)
    return dataclasses.replace(planned, statement=st)


_UNITS_S = {"second": 1, "minute": 60, "hour": 3600, "day": 86400, "week": 604800,
            "month": 2592000, "year": 31536000}  # fmt: skip


def point_epoch(point: tuple[str, str], clock_ms: int | None = None) -> int:
    """A time-travel point's epoch, as the refusal prints it (utils.rs:501-575; rwshim's
    clock, else the wall clock, for NOW(); 0 where the point cannot be read here)."""
    kind, value = point
    try:
        if kind == "num":
            secs = int(value)
        elif kind == "str":
            secs = int(dt.datetime.fromisoformat(value).timestamp())
        else:
            n, unit = value.split()
            now_s = dt.datetime.now(dt.UTC).timestamp() if clock_ms is None else clock_ms / 1000
            secs = int(now_s) - int(n) * _UNITS_S.get(
                unit.lower().rstrip("s"), 1
            )
    except ValueError:
        return 0
    return max((secs + 1) * 1000 - _EPOCH_BASE_MS, 0) << _EPOCH_SHIFT


def epoch_ms(epoch: int) -> int:
    """The Unix milliseconds of an epoch (``Epoch::as_unix_millis``)."""
    return (epoch >> _EPOCH_SHIFT) + _EPOCH_BASE_MS


def timestamp_text(ms: int) -> str:
    """A ``timestamptz`` literal PostgreSQL reads whatever its time zone (ms precision, as
    ``now.rs`` keeps it)."""
    t = dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC)
    return t.isoformat(timespec="milliseconds")


def calls_now(pg_text: str) -> bool:
    """Whether a query text calls ``now()`` (a word ``now`` followed by ``(``; strings and
    quoted names do not count)."""
    if "now" not in pg_text.lower():
        return False
    toks = tokenize(pg_text)
    for i, t in enumerate(toks[:-1]):
        nxt = toks[i + 1]
        if (
            t.kind is Kind.WORD
            and not t.quoted
            and t.value.lower() == "now"
            and nxt.kind is Kind.OP
            and nxt.value == "("
        ):
            return True
    return False


class Clocked:
    """Which made view states move with time, and the ``now()`` of each barrier."""

    def __init__(self, plane: DataPlane) -> None:
        self.plane = plane
        # object name -> (signature, calls now()): a definition is read once per signature
        self._seen: dict[str, tuple[str, bool]] = {}
        # database id -> the epoch its last barrier started (the Now executor's next value)
        self._started: dict[int, int] = {}
        # database id -> the epoch the last barrier ended (temporal joins look up at its end)
        self._prev: dict[int, int] = {}
        # database id -> the now() (Unix ms) its last barrier committed
        self._now: dict[int, int] = {}
        # a materialized view's temporal joins (dataplane/plan/temporal.py), once planned
        self.joins: dict[int, tuple[joins.TemporalJoin, ...]] = {}
        # database id -> the barrier time (Unix ms) of its histories' last vacuum, and the
        # epoch below which that vacuum deleted the versions
        self._vacuumed: dict[int, int] = {}
        # rwshim's clock (Unix ms; the instance sets it): what a time-travel NOW() reads
        self.clock_ms: Callable[[], int] | None = None
        self._watermark: dict[int, int] = {}
        # the engine's current epoch of a database (the instance sets it)
        self.epoch_of: Callable[[int], int] | None = None

    def advance(self, database_id: int, epoch: int) -> int:
        """The ``now()`` (Unix ms) a barrier of ``database_id`` starting ``epoch`` commits:
        the timestamp of the epoch the barrier before it started (now.rs:141-167)."""
        prev = self._started.get(database_id)
        self._started[database_id] = epoch
        self._prev[database_id] = prev if prev is not None else epoch
        now = self._now[database_id] = epoch_ms(epoch if prev is None else prev)
        return now

    def current(self, database_id: int | None = None) -> int | None:
        """The ``now()`` the last barrier committed (of a database, or the latest of any), if
        a barrier ran."""
        if database_id is not None:
            return self._now.get(database_id)
        return max(self._now.copy().values(), default=None)  # (read from other threads)

    def batch_now(self, barrier_read: bool) -> str:
        """What a batch query's ``now()`` is (``rw.stream_now`` on its connection; '' for
        PostgreSQL's clock before any barrier): RisingWave inlines the physical time of the
        largest committed epoch of the pinned snapshot, or the current time when it reads
        barriers (visibility_mode = all) (src/frontend/src/scheduler/snapshot.rs:132-145,
        expr/now.rs:47-84) -- here the time of the epoch the last barrier started, so that
        under the manual clock it is the clock's."""
        if barrier_read:
            started = max(self._started.copy().values(), default=None)
            ms = None if started is None else epoch_ms(started)
        else:
            ms = self.current()
        return "" if ms is None else timestamp_text(ms)

    def setting(
        self, now_ms: int | None, database_id: int | None = None, barrier: bool = False
    ) -> list[str]:
        """The statements setting ``now()`` for a refresh (none when no barrier ran yet),
        and the epochs temporal joins read at and stamp with (dataplane/plan/temporal.py);
        and rwshim's clock, which the row ids written meanwhile carry (``clock_sql``)."""
        clock = self.clock_sql(local=True)
        if now_ms is None:
            return clock
        out = [*clock, f"SET LOCAL {NOW_SETTING} = {names.quote_literal(timestamp_text(now_ms))}"]
        started = (
            self._started.get(database_id)
            if database_id is not None
            else max(self._started.values(), default=None)
        )
        if started is not None:
            # what a commit writes is labelled with the epoch it was written in, as
            # RisingWave's committed epochs are (a barrier's commit: the epoch it ends; another
            # commit, a DDL's: the open one); a left row of that epoch looks up the versions
            # of the epochs before it (temporal_join.rs:257-313)
            stamp = self._prev.get(database_id or 0, started) if barrier else started
            out.append(f"SET LOCAL {joins.EPOCH_SETTING} = '{stamp - 1}'")
            out.append(f"SET LOCAL {joins.STAMP_SETTING} = '{stamp}'")
            # what the commit writes into tables (a sink's rows) is of that epoch too
            ts = timestamp_text(epoch_ms(stamp))
            out.append(f"SET LOCAL {rw_timestamp.SETTING} = '{ts}'")
        return out

    def write_sql(self, database_id: int, local: bool = False) -> list[str]:
        """Setting, on a connection about to write, rwshim's clock (``clock_sql``) and the time
        of the epoch the writes belong to, which a table's ``_rw_timestamp`` takes
        (plan/rw_timestamp.py): the epoch the database's last barrier started, or before any
        reached the data plane the engine's current one (``epoch_of``), or before the
        database's first barrier rwshim's clock (the epoch a barrier would start now)."""
        out = self.clock_sql(local)
        epoch = self._started.get(database_id)
        if epoch is None and self.epoch_of is not None:
            try:
                epoch = self.epoch_of(database_id) or None  # (0: no barrier yet)
            except (TypeError, ValueError):  # no barrier state for the database yet
                epoch = None
        ms = epoch_ms(epoch) if epoch is not None else None
        if ms is None and self.clock_ms is not None:
            ms = int(self.clock_ms())
        if ms is not None:
            scope = "SET LOCAL" if local else "SET"
            out.append(f"{scope} {rw_timestamp.SETTING} = '{timestamp_text(ms)}'")
        return out

    def clock_sql(self, local: bool = False) -> list[str]:
        """Setting rwshim's clock (Unix ms) on a connection about to write: the hidden row ids
        its rows get read it (dataplane/plan/row_ids.py; RisingWave's RowIdGenerator reads
        the wall clock as each row passes it, row_id.rs:47-49)."""
        if self.clock_ms is None:
            return []
        scope = "SET LOCAL" if local else "SET"
        return [f"{scope} {row_ids.CLOCK_SETTING} = '{int(self.clock_ms())}'"]

    def joins_sql(self, dirty: set[int], refresh: list[int]) -> list[str]:
        """Before a commit's refresh: the histories of the tables the epoch wrote brought up
        to date, then the arrivals of the refreshed views' temporal joins."""
        out: list[str] = []
        for name in self.plane.made_names():
            parsed = names.parse_physical(name)
            if parsed is not None and parsed[0] == "h" and parsed[1] in dirty:
                out += joins.history_update(parsed[1])
        for mv in refresh:
            found = self.joins.get(mv)
            if found and names.arrivals_name(mv) in self.plane.made_names():
                out += joins.arrivals_update(mv, list(found))
        return out

    def _calls_now(self, name: str, relation_id: int) -> bool:
        try:
            objects = self.plane.objects_for(relation_id)
        except RwError:
            return False
        query = next((o for o in objects if o.name == names.query_name(relation_id)), None)
        if query is None:
            return False
        seen = self._seen.get(name)
        if seen is not None and seen[0] == query.signature:
            return seen[1]
        found = any(calls_now(sql) for sql in query.create)
        self._seen[name] = (query.signature, found)
        return found

    def states(self, database_id: int) -> list[int]:
        """The made states of a database that a barrier refreshes because time moved: those
        whose query calls ``now()``, and those reading one of them."""
        timed: set[int] = set()
        states: list[tuple[int, int]] = []
        for name in self.plane.made_names():
            parsed = names.parse_physical(name)
            if parsed is None or parsed[0] != "m":
                continue
            rel = self.plane.relations.relation_by_id(parsed[1])
            if rel is None or rel.database_id != database_id:
                continue
            if self._calls_now(name, parsed[1]):
                timed.add(parsed[1])
            states.append((parsed[1], rel.id))
        if not timed:
            return []
        out = set(timed)
        for _, rid in states:
            try:
                objects = self.plane.objects_for(rid)
            except RwError:
                continue
            if any(o.kind == "state" and o.relation_id in timed for o in objects):
                out.add(rid)
        return sorted(out)

    async def refresh(
        self, database_id: int, now_ms: int, sql: Callable[[list[int]], list[str]]
    ) -> None:
        """A barrier that wrote nothing in the database: its time-moved states computed again
        in a transaction of their own (the caller holds the admin lock).  A state that cannot
        be computed keeps its rows, as in a barrier's commit."""
        try:
            states = self.states(database_id)
            statements = self.setting(now_ms, database_id, True) + sql(states)
            statements += self.view_histories_sql(states)
            await self.script(["BEGIN", *statements, "COMMIT"])
        except PgFailure as e:
            log.warning("refreshing materialized views: %s", e.error.message)
            with contextlib.suppress(Exception):
                await self.script(["ROLLBACK"])

    async def script(self, statements: list[str]) -> None:
        """Statements on rwshim's own connection (the caller holds the admin lock)."""
        conn = await self.plane._admin_conn()
        await conn.script(";\n".join(statements))

    def join_objects(
        self,
        view_id: int,
        found: tuple[joins.TemporalJoin, ...],
        mv: list[PgObject],
        deps: list[PgObject],
    ) -> list[PgObject]:
        """A materialized view's temporal-join objects (before its own), its joins noted for
        the barriers' arrivals."""
        self.joins[view_id] = found
        return joins.objects(view_id, found, mv[0].signature, deps)

    def view_objects(
        self,
        view_id: int,
        found: tuple[joins.TemporalJoin, ...],
        mv: list[PgObject],
        deps: list[PgObject],
    ) -> list[PgObject]:
        """A materialized view's objects: its temporal joins', its own, then its history
        (while time travel is on)."""
        return self.join_objects(view_id, found, mv, deps) + mv + self.history(view_id, mv[1])

    def time_travel(self, planned: Planned | None, database_id: int) -> Planned | None:
        """A plan reading as of a time-travel point, with the floor of now."""
        clock = None if self.clock_ms is None else self.clock_ms()
        now, floor = self.current(database_id), self.floor(database_id)
        return time_travel_plan(planned, self.plane.relations, now, floor, clock)

    def history(self, relation_id: int, obj: PgObject) -> list[PgObject]:
        """A table's history object while time travel is on (retention > 0), or a
        materialized view's (``obj`` its state)."""
        if not retention_ms(self.plane.relations):
            return []
        return [joins.history_object(relation_id, obj.signature, obj.kind == "state")]

    def view_histories_sql(self, mvs: list[int]) -> list[str]:
        """After a commit's refresh: the histories of the refreshed views brought up to
        date."""
        made = set(self.plane.made_names())
        out: list[str] = []
        for mv in mvs:
            if names.history_name(mv) in made:
                out += joins.mv_history_update(mv)
        return out

    def vacuum_sql(self, database_id: int, now_ms: int) -> list[str]:
        """Every ``VACUUM_INTERVAL_MS`` of barrier time: the versions of the database's
        histories that no read can see any more deleted (RisingWave's meta vacuums time-travel
        metadata every time_travel_vacuum_interval_sec, 30 s: src/meta/src/hummock/mod.rs:
        115-146, src/common/src/config/mod.rs:294-296; below Epoch::now() less the retention,
        gc.rs:478-495).  The watermark only rises, and a read's floor is never below it
        (``floor``): what is deleted was unreadable already."""
        last = self._vacuumed.get(database_id)
        if last is not None and now_ms - last < VACUUM_INTERVAL_MS:
            return []
        self._vacuumed[database_id] = now_ms
        # (retention 0, time travel off: no version older than now is kept, time_travel.rs:
        # 649-657 writes none)
        retention = retention_ms(self.plane.relations)
        mark = max(now_ms - retention - _EPOCH_BASE_MS, 0) << _EPOCH_SHIFT
        mark = max(mark, self._watermark.get(database_id, 0))
        self._watermark[database_id] = mark
        out: list[str] = []
        for name in self.plane.made_names():
            parsed = names.parse_physical(name)
            if parsed is None or parsed[0] != "h":
                continue
            rel = self.plane.relations.relation_by_id(parsed[1])
            if rel is not None and rel.database_id == database_id:
                out.append(joins.vacuum(parsed[1], mark))
        return out

    def floor(self, database_id: int) -> int:
        """The oldest epoch a time-travel read may ask for: none below the last vacuum's
        watermark (a larger retention set later does not bring deleted versions back)."""
        return self._watermark.get(database_id, 0)
