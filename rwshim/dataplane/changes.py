"""What a subscription sees change in one epoch, from rows as JSON objects (I/O free).

RisingWave's subscription cursor reads the upstream's table change log: per checkpoint epoch,
for each key the value it had before the epoch and the one it has after (the state table's
mem table merges the ops of one key within an epoch), rendered as ops ``Insert`` (no old
value), ``Delete`` (no new value), ``UpdateDelete`` + ``UpdateInsert`` (both), in key order
(src/frontend/src/session/cursor_manager.rs, src/storage/src/hummock/.../change_log).

- ``net_changes``: a table's captured ops (in commit order, from its triggers) to that form,
  keyed by the table's primary key (its hidden ``_row_id`` when it has none);
- ``diff``: a materialized view's contents before and after a barrier to that form, keyed by
  its stream key when all of it is visible; otherwise by the whole row as a multiset, which
  yields ``Delete`` / ``Insert`` where RisingWave (keyed by a hidden column) may say
  ``UpdateDelete`` / ``UpdateInsert``;
- ``before``: a snapshot taken now, with the ops not yet assigned to an epoch undone (what a
  FULL cursor's snapshot shows: the contents as of the last barrier);
- ``stream_key`` / ``key_finder`` / ``Keyed``: a materialized view's key as its definition or
  read query shows it, for these diffs and for the logs of changelog CTEs over a view
  (dataplane/plan/changelogs.py).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, Protocol

from rwshim.binder.relations import Relation, RelKind

Row = dict[str, Any]
Change = tuple[str, Row]
KeyFn = Callable[[Row], Hashable]

INSERT = "Insert"
DELETE = "Delete"
UPDATE_DELETE = "UpdateDelete"
UPDATE_INSERT = "UpdateInsert"
_OLD_SIDE = (DELETE, UPDATE_DELETE)

_ABSENT: Any = object()

# src/common/src/util/epoch.rs: an epoch is milliseconds since 2021-04-01 shifted by 16 bits
_EPOCH_SHIFT = 16
_RISINGWAVE_DATE_EPOCH_MS = 1_617_235_200_000


def epoch_to_ms(epoch: int) -> int:
    """convert_logstore_u64_to_unix_millis (handler/util.rs)."""
    return (epoch >> _EPOCH_SHIFT) + _RISINGWAVE_DATE_EPOCH_MS


def ms_to_epoch(ms: int) -> int:
    """convert_unix_millis_to_logstore_u64 (handler/util.rs)."""
    return max(ms - _RISINGWAVE_DATE_EPOCH_MS, 0) << _EPOCH_SHIFT


def canonical(row: Row) -> str:
    return json.dumps(row, sort_keys=True, separators=(",", ":"))


def key_of(columns: Sequence[str] | None) -> KeyFn:
    """The key of a row: its ``columns`` (None: the whole row)."""
    if columns is None:
        return canonical
    cols = tuple(columns)

    def key(row: Row) -> Hashable:
        values = tuple(row.get(c) for c in cols)
        if all(v is None or isinstance(v, (bool, int, float, str)) for v in values):
            return values
        return canonical({c: row.get(c) for c in cols})

    return key


def _sort_key(row_key: Hashable) -> tuple[int, object]:
    """Key order: numbers by value, then text; NULLs last (RisingWave's default)."""
    if isinstance(row_key, tuple):
        return (
            0,
            tuple(
                (x is None, 0 if isinstance(x, (int, float)) else 1,
                 x if isinstance(x, (int, float)) else str(x))
                for x in row_key
            ),
        )  # fmt: skip
    return (1, str(row_key))


def _pairs_out(pairs: dict[Hashable, list[Any]]) -> list[Change]:
    out: list[Change] = []
    for k in sorted(pairs, key=_sort_key):
        old, new = pairs[k]
        if old is _ABSENT and new is None:
            continue
        if old is _ABSENT or old is None:
            if new is not None:
                out.append((INSERT, new))
        elif new is None:
            out.append((DELETE, old))
        else:
            out += [(UPDATE_DELETE, old), (UPDATE_INSERT, new)]
    return out


def net_changes(events: Iterable[Change], key: KeyFn) -> list[Change]:
    """One epoch's captured ops (commit order) as what changed per key."""
    pairs: dict[Hashable, list[Any]] = {}
    for op, row in events:
        k = key(row)
        slot = pairs.get(k)
        if op in _OLD_SIDE:
            if slot is None:
                pairs[k] = [row, None]
            else:
                slot[1] = None
        elif slot is None:
            pairs[k] = [_ABSENT, row]
        else:
            slot[1] = row
    return _pairs_out(pairs)


def diff(old: Sequence[Row], new: Sequence[Row], key_columns: Sequence[str] | None) -> list[Change]:
    """What changed between two contents of a relation."""
    if key_columns is not None:
        key = key_of(key_columns)
        old_by = {key(r): r for r in old}
        new_by = {key(r): r for r in new}
        if len(old_by) == len(old) and len(new_by) == len(new):
            pairs: dict[Hashable, list[Any]] = {}
            for k in old_by.keys() | new_by.keys():
                o, n = old_by.get(k, _ABSENT), new_by.get(k)
                if o is not _ABSENT and n is not None and canonical(o) == canonical(n):
                    continue
                pairs[k] = [o, n]
            return _pairs_out(pairs)
    # no key (or one that repeats): the rows as a multiset
    before = Counter(canonical(r) for r in old)
    after = Counter(canonical(r) for r in new)
    gone = sorted((before - after).elements())
    came = sorted((after - before).elements())
    return [(DELETE, json.loads(t)) for t in gone] + [(INSERT, json.loads(t)) for t in came]


def before(now: Sequence[Row], pending: Iterable[Change], key: KeyFn) -> list[Row]:
    """The contents ``now`` with ``pending`` ops undone, in key order."""
    by_key = {key(r): r for r in now}
    for op, row in reversed(net_changes(pending, key)):
        k = key(row)
        if op in (INSERT, UPDATE_INSERT):
            by_key.pop(k, None)
        else:
            by_key[k] = row
    return [by_key[k] for k in sorted(by_key, key=_sort_key)]


def ordered(rows: Sequence[Row], key: KeyFn) -> list[Row]:
    return sorted(rows, key=lambda r: _sort_key(key(r)))


def stream_key(
    definition: str, upstream_key: Callable[[str, str | None], tuple[str, ...] | None]
) -> tuple[str, ...] | None:
    """The output columns a materialized view's rows are keyed by, where its definition shows
    them (rwshim keeps no stream key for a materialized view): the GROUP BY columns when each
    is an output column, all of them under DISTINCT, or the upstream's key when it is one
    table or materialized view projected with its key columns kept.  None otherwise (joins,
    unions, expressions over the key, ...): its changes are then a multiset difference.
    ``upstream_key(name, schema)`` gives a FROM relation's key (None when it has none)."""
    try:
        import pglast

        from rwshim.sql import long_names

        masked, long = long_names.mask(definition, chars=True)  # names over 63 bytes read whole
        stmt = long_names.restore_ast(pglast.parse_sql(masked)[0].stmt, long)
    except Exception:
        return None
    # a CREATE statement's query, or the query itself (a view's read query: Relation.definition)
    q: Any = stmt if type(stmt).__name__ == "SelectStmt" else getattr(stmt, "query", None)
    if type(q).__name__ != "SelectStmt" or q.op != pglast.enums.SetOperation.SETOP_NONE:
        return None
    outputs: dict[str, str] = {}  # input column -> output name, plain column references only
    names: list[str] = []
    for t in q.targetList or ():
        val = t.val
        if type(val).__name__ != "ColumnRef" or type(val.fields[-1]).__name__ != "String":
            names.append(t.name or "?")
            continue
        col = val.fields[-1].sval
        out = t.name or col
        outputs.setdefault(col, out)
        names.append(out)
    if q.distinctClause is not None:
        return tuple(names) if "?" not in names else None
    if q.groupClause:
        keys = []
        for g in q.groupClause:
            if type(g).__name__ != "ColumnRef" or g.fields[-1].sval not in outputs:
                return None
            keys.append(outputs[g.fields[-1].sval])
        return tuple(keys)
    frm: Any = q.fromClause or ()
    if len(frm) != 1 or type(frm[0]).__name__ != "RangeVar":
        return None
    up = upstream_key(frm[0].relname, frm[0].schemaname)
    if up is None or any(c not in outputs for c in up):
        return None
    # (an aggregate without GROUP BY cannot sit beside plain columns: no case left here)
    return tuple(outputs[c] for c in up)


class _ByName(Protocol):
    def relation(self, database_id: int, schema: str, name: str) -> Relation | None: ...


class _Relations(_ByName, Protocol):
    def relation_by_id(self, relation_id: int) -> Relation | None: ...


class Keyed:
    """A catalog's relations by id, and a materialized view's stream key (``key_finder``):
    what the logs of changelog CTEs are made from (dataplane/plan/changelogs.py objects)."""

    def __init__(self, relations: _Relations) -> None:
        self.relations = relations
        self.mv_key = key_finder(relations)

    def relation_by_id(self, relation_id: int) -> Relation | None:
        return self.relations.relation_by_id(relation_id)


def key_finder(relations: _ByName, depth: int = 0) -> Callable[[Relation], tuple[str, ...] | None]:
    """A materialized view's stream key as ``stream_key`` reads it from its definition, its
    FROM names looked up in its own schema (a table's key when it declared one); None when
    unknown or not all of it is one of the view's columns."""

    def key(rel: Relation) -> tuple[str, ...] | None:
        if rel.kind != RelKind.MATERIALIZED_VIEW or not rel.definition or depth > 8:
            return None

        def upstream_key(name: str, schema: str | None) -> tuple[str, ...] | None:
            found = relations.relation(rel.database_id, schema or rel.schema, name)
            if found is None:
                return None
            if found.kind == RelKind.TABLE:
                hidden = {c.name for c in found.columns if c.hidden}
                pk = found.primary_key
                return pk if pk and not any(k in hidden for k in pk) else None
            return key_finder(relations, depth + 1)(found)

        got = stream_key(rel.definition, upstream_key)
        if got is None or not set(got) <= {c.name for c in rel.columns}:
            return None
        return got

    return key
