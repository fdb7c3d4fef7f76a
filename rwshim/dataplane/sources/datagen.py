"""The ``datagen`` connector's rows: each split generates ``datagen.rows.per.second`` (split
among the splits) rows per second, its field generators fed by the split's offset.  Pure: the
runtime (runtime.py) asks for the rows due at each barrier.

RisingWave at 448c657:

- ``src/connector/src/source/datagen/mod.rs`` (DatagenProperties: ``datagen.split.num``,
  ``datagen.rows.per.second`` default 10, ``fields.*``), ``enumerator/mod.rs`` (splits 0..n,
  ``split.rs``: the split id ``<num>-<index>``).
- ``source/generator.rs:57-80`` (a split's rows per second: ``rps / n``, one more for the first
  ``rps % n`` splits), ``:170-245`` (into_native_stream: a tokio interval whose first tick is
  immediate, then one second apart; a row is abandoned and the split stops when a sequence
  passes its end; hidden ``_rw_datagen_partition`` / ``_offset`` are the split id and offset).
- ``source/reader.rs:204-336`` (generator_from_data_type: ``fields.<col>.kind`` = sequence
  with ``start`` / ``end``, else random with ``min`` / ``max`` / ``seed``; varchar ``length``;
  timestamps ``max_past`` / ``max_past_mode`` / ``basetime``; the seed is ``seed ^ split
  index``).
- ``src/common/src/field_generator/numeric.rs`` (a sequence's value is ``start + split index +
  split num * cur``, cur from the split's offset; defaults start 0, end and max 32767, min 0).

Sequences are RisingWave's values exactly.  Random values are not: RisingWave draws them from
``StdRng::seed_from_u64(offset ^ seed)`` (rand's ChaCha12 and its uniform sampling), which
rwshim does not reproduce; rwshim draws from Python's generator seeded the same way, within
the same bounds, so a seed still gives the same values at every run (SUPPORTED.md says so).
Struct and list columns nest these generators.
"""

from __future__ import annotations

import datetime as dt
import random
import re
import string
import struct
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

# fields of these types take a numeric generator (sequence or random)
_INTS = {"smallint": 16, "integer": 32, "bigint": 64}
_FLOATS = ("real", "double precision")
_ALNUM = string.ascii_letters + string.digits
_DEFAULT_LENGTH = 10
_I16_MAX = 32767


class GeneratorError(Exception):
    """The split reader cannot be built (RisingWave's actor fails with this text)."""


def _f32(x: float) -> float:
    return float(struct.unpack("f", struct.pack("f", x))[0])


def _parse_number(rw_type: str, text: str) -> float | int:
    """Rust's ``str::parse::<T>`` for the field's type."""
    if rw_type in _INTS:
        if not re.fullmatch(r"[+-]?[0-9]+", text):
            raise GeneratorError(f"invalid digit found in string: {text}")
        bits = _INTS[rw_type]
        n = int(text)
        if not -(2 ** (bits - 1)) <= n < 2 ** (bits - 1):
            raise GeneratorError(f"number too large to fit in target type: {text}")
        return n
    try:
        v = float(text)
    except ValueError:
        raise GeneratorError(f"invalid float literal: {text}") from None
    return _f32(v) if rw_type == "real" else v


Field = Callable[[int], object]  # offset -> value; None ends the split (sequences)


def _sequence(rw_type: str, opts: Mapping[str, str], name: str, index: int, num: int) -> Field:
    start = _parse_number(rw_type, opts.get(f"fields.{name}.start", "0"))
    end = _parse_number(rw_type, opts.get(f"fields.{name}.end", str(_I16_MAX)))
    if start > end:
        raise GeneratorError("assertion failed: start <= end")

    def gen(offset: int) -> object:
        value = start + index + num * offset
        if rw_type == "real":
            value = _f32(_f32(start + index) + _f32(num * offset))
        elif rw_type == "double precision":
            value = float(value)
        return None if value > end else value

    return gen


def _random(rw_type: str, opts: Mapping[str, str], name: str, seed: int) -> Field:
    lo = _parse_number(rw_type, opts.get(f"fields.{name}.min", "0"))
    hi = _parse_number(rw_type, opts.get(f"fields.{name}.max", str(_I16_MAX)))
    if lo > hi:
        raise GeneratorError("assertion failed: min <= max")

    def gen(offset: int) -> object:
        rng = random.Random(offset ^ seed)
        if rw_type in _INTS:
            return rng.randint(int(lo), int(hi))
        v = rng.uniform(float(lo), float(hi))
        return _f32(v) if rw_type == "real" else v

    return gen


def _varchar(opts: Mapping[str, str], name: str, seed: int) -> Field:
    text = opts.get(f"fields.{name}.length")
    if text is not None and not text.isdigit():
        raise GeneratorError("failed to parse the length of varchar field")
    length = _DEFAULT_LENGTH if text is None else int(text)

    def gen(offset: int) -> object:
        rng = random.Random(offset ^ seed)
        return "".join(rng.choice(_ALNUM) for _ in range(length))

    return gen


def _timestamp(
    rw_type: str, opts: Mapping[str, str], name: str, seed: int, now_ms: Callable[[], int]
) -> Field:
    """field_generator/timestamp.rs: a random instant up to ``max_past`` (default one day)
    before the base time (``basetime``, else now)."""
    base_text = opts.get(f"fields.{name}.basetime")
    base: dt.datetime | None = None
    if base_text is not None:
        try:
            base = dt.datetime.fromisoformat(base_text.replace("Z", "+00:00"))
        except ValueError:
            raise GeneratorError(f"cannot parse `{base_text}` to rfc3339") from None
    past_s = 86400.0
    past_text = opts.get(f"fields.{name}.max_past")
    if past_text is not None:
        past_s = _duration_s(past_text)

    def gen(offset: int) -> object:
        at = base or dt.datetime.fromtimestamp(now_ms() / 1000, tz=dt.UTC)
        rng = random.Random(offset ^ seed)
        value = at - dt.timedelta(seconds=rng.uniform(0, past_s))
        if rw_type == "timestamp without time zone":
            return value.replace(tzinfo=None).isoformat(sep=" ")
        return value.isoformat(sep=" ")

    return gen


def _duration_s(text: str) -> float:
    """A humantime duration (``2h 37min``, ``10s``)."""
    units = {
        "s": 1, "sec": 1, "secs": 1, "m": 60, "min": 60, "mins": 60, "h": 3600, "hr": 3600,
        "hrs": 3600, "d": 86400, "days": 86400, "day": 86400, "ms": 0.001,
    }  # fmt: skip
    total = 0.0
    parts = re.findall(r"([0-9]+)\s*([a-z]+)", text.lower())
    if not parts or "".join(a + b for a, b in parts) != re.sub(r"\s+", "", text.lower()):
        raise GeneratorError(f"invalid duration: {text}")
    for n, unit in parts:
        if unit not in units:
            raise GeneratorError(f"unknown time unit {unit!r}")
        total += int(n) * units[unit]
    return total


def field_generator(
    rw_type: str,
    opts: Mapping[str, str],
    name: str,
    index: int,
    num: int,
    now_ms: Callable[[], int],
) -> Field:
    """generator_from_data_type (reader.rs:204-336)."""
    seed_text = opts.get(f"fields.{name}.seed")
    seed = index
    if seed_text is not None and seed_text.isdigit() and int(seed_text) < 2**64:
        seed = int(seed_text) ^ index  # (an unreadable seed: the split index, with a warning)
    if rw_type in ("timestamp without time zone", "timestamp with time zone"):
        return _timestamp(rw_type, opts, name, seed, now_ms)
    if rw_type in ("character varying", "text"):
        return _varchar(opts, name, seed)
    if rw_type in _INTS or rw_type in _FLOATS:
        if opts.get(f"fields.{name}.kind") == "sequence":
            return _sequence(rw_type, opts, name, index, num)
        return _random(rw_type, opts, name, seed)
    if rw_type.startswith("struct<") or rw_type.endswith("[]"):
        return _nested(rw_type, opts, name, index, num, now_ms)
    raise GeneratorError(f"unimplemented field generator {rw_type}")


def _nested(
    rw_type: str,
    opts: Mapping[str, str],
    name: str,
    index: int,
    num: int,
    now_ms: Callable[[], int],
) -> Field:
    """A struct's fields (``fields.<col>.<field>.*``) as a tuple, never ending the split; a
    list's ``length`` elements (``fields.<col>._.*``), each drawn with the row's offset
    (reader.rs:282-318, field_generator/mod.rs:258-272)."""
    from rwshim.common import rwtypes

    t = rwtypes.parse(rw_type)
    if t.kind == "struct":
        subs = [
            field_generator(ft.display(), opts, f"{name}.{fname}", index, num, now_ms)
            for fname, ft in t.fields
        ]
        return lambda offset: tuple(g(offset) for g in subs)
    if t.kind == "list" and t.elem is not None:
        text = opts.get(f"fields.{name}.length")
        if text is not None and not text.isdigit():
            raise GeneratorError(f"invalid digit found in string: {text}")
        length = _DEFAULT_LENGTH if text is None else int(text)
        elem = field_generator(t.elem.display(), opts, f"{name}._", index, num, now_ms)
        return lambda offset: [elem(offset) for _ in range(length)]
    raise GeneratorError(f"unimplemented field generator {rw_type}")


@dataclass(slots=True)
class Split:
    """One split's reader: its generators and offset."""

    index: int
    num: int
    rows_per_second: int
    fields: list[tuple[str, Field | None]]  # column -> generator (None: a hidden column)
    offset: int = 0
    ended: bool = False

    @property
    def split_id(self) -> str:
        return f"{self.num}-{self.index}"

    def rows(self, count: int) -> list[dict[str, object]]:
        """Up to ``count`` rows (fewer when a sequence ends: the split stops)."""
        out: list[dict[str, object]] = []
        while len(out) < count and not self.ended:
            row: dict[str, object] = {}
            for name, gen in self.fields:
                if gen is None:
                    row[name] = {
                        "_rw_datagen_partition": self.split_id,
                        "_rw_datagen_offset": str(self.offset),
                    }.get(name)
                    continue
                value = gen(self.offset)
                if value is None:
                    self.ended = True  # break 'outer: the row is abandoned
                    break
                row[name] = value
            if self.ended:
                break
            out.append(row)
            self.offset += 1
        return out


@dataclass(slots=True)
class Datagen:
    """A datagen relation's readers, and when it started (the first interval tick)."""

    splits: list[Split]
    started_ms: int
    seconds_done: int = field(default=0)

    def due(self, now_ms: int) -> list[dict[str, object]]:
        """The rows generated up to ``now_ms``: every split's rows of each second whose
        interval tick came (the first at the start)."""
        ticks = max(0, (now_ms - self.started_ms) // 1000 + 1)
        out: list[dict[str, object]] = []
        while self.seconds_done < ticks:
            self.seconds_done += 1
            for split in self.splits:
                out.extend(split.rows(split.rows_per_second))
        return out


def datagen(
    columns: Sequence[tuple[str, str, bool]],
    options: Mapping[str, str],
    now_ms: Callable[[], int],
    started_ms: int | None = None,
) -> Datagen:
    """The readers of a datagen relation over ``columns`` (name, RisingWave type, visible),
    started at ``started_ms`` (default now)."""
    rps_text = str(options.get("datagen.rows.per.second", "10"))
    if not rps_text.isdigit():
        raise GeneratorError(f"invalid digit found in string: {rps_text}")
    rps = int(rps_text)
    num_text = str(options.get("datagen.split.num", "1"))
    try:
        num = int(num_text)
    except ValueError:
        raise GeneratorError("failed to parse datagen split num") from None
    splits = []
    for index in range(num):
        per = rps // num + (1 if rps % num > index else 0)
        fields: list[tuple[str, Field | None]] = [
            (name, field_generator(t, options, name, index, num, now_ms) if visible else None)
            for name, t, visible in columns
        ]
        splits.append(Split(index, num, per, fields))
    return Datagen(splits, now_ms() if started_ms is None else started_ms)
