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

Sequences and random values are RisingWave's values exactly: random numbers, strings and
timestamps come from ``StdRng::seed_from_u64(offset ^ seed)`` (rustrand.py reproduces rand
0.9's ChaCha12 and its sampling), the seed ``fields.<c>.seed ^ split index``.  Struct and list
columns nest these generators; a list's elements are all drawn with the row's offset (so
random elements repeat), while a sequence advances at each element, as RisingWave's
stateful sequence generators do (field_generator/mod.rs:258-272, numeric.rs:127-157).
Timestamps: with ``max_past_mode`` other than ``relative`` and no ``basetime`` the base is
the reader's start (``ChronoField::new``), else the time of each row; the server's local
time is UTC (RisingWave's ``Local::now()`` on a UTC host).
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from rwshim.dataplane.sources import rustrand

# fields of these types take a numeric generator (sequence or random)
_INTS = {"smallint": 16, "integer": 32, "bigint": 64}
_FLOATS = ("real", "double precision")
_DEFAULT_LENGTH = 10
_I16_MAX = 32767


class GeneratorError(Exception):
    """The split reader cannot be built (RisingWave's actor fails with this text)."""


_f32 = rustrand.f32


def _parse_number(rw_type: str, text: str) -> float | int:
    """Rust's ``str::parse::<T>`` for the field's type, with its error's text (numeric.rs:
    ``min_option.parse::<T>()?``)."""
    if rw_type in _INTS:
        if not re.fullmatch(r"[+-]?[0-9]+", text):
            raise GeneratorError(
                "cannot parse integer from empty string" if text in ("", "+", "-")
                else "invalid digit found in string"
            )  # fmt: skip
        bits = _INTS[rw_type]
        n = int(text)
        if n >= 2 ** (bits - 1):
            raise GeneratorError("number too large to fit in target type")
        if n < -(2 ** (bits - 1)):
            raise GeneratorError("number too small to fit in target type")
        return n
    try:
        return rustrand.parse_float(text, rw_type == "real")
    except ValueError:
        raise GeneratorError(
            "cannot parse float from empty string" if text == "" else "invalid float literal"
        ) from None


Field = Callable[[int], object]  # offset -> value; None ends the split (sequences)


def _sequence(rw_type: str, opts: Mapping[str, str], name: str, index: int, num: int) -> Field:
    """numeric.rs:97-157: ``start + split index + split num * cur``, ``cur`` from the reader's
    starting offset, one more at each call (each row; each element of a list); past ``end``
    the value is NULL (a top-level column's NULL ends the split)."""
    start = _parse_number(rw_type, opts.get(f"fields.{name}.start", "0"))
    end = _parse_number(rw_type, opts.get(f"fields.{name}.end", str(_I16_MAX)))
    if start > end:
        raise GeneratorError("assertion failed: start <= end")
    cur = [0]

    def gen(offset: int) -> object:
        n = cur[0]
        cur[0] += 1
        value = start + index + num * n
        if rw_type == "real":
            value = _f32(_f32(start + index) + _f32(num * n))
        elif rw_type == "double precision":
            value = float(value)
        return None if value > end else value

    return gen


def _random(rw_type: str, opts: Mapping[str, str], name: str, seed: int) -> Field:
    """numeric.rs:71-95: ``StdRng::seed_from_u64(offset ^ seed).random_range(min..=max)``,
    min 0 and max 32767 by default."""
    lo = _parse_number(rw_type, opts.get(f"fields.{name}.min", "0"))
    hi = _parse_number(rw_type, opts.get(f"fields.{name}.max", str(_I16_MAX)))
    if lo > hi:
        raise GeneratorError("assertion failed: min <= max")
    if rw_type in _INTS:
        bits = _INTS[rw_type]
        return lambda offset: rustrand.random_int_inclusive(
            rustrand.std_rng(offset ^ seed), int(lo), int(hi), bits
        )
    single = rw_type == "real"
    scale = rustrand.float_scale_inclusive(float(lo), float(hi), single)
    if not all(math.isfinite(v) for v in (lo, hi, scale)):
        # UniformFloat's Error::NonFinite: random_range's unwrap panics, the actor fails
        raise GeneratorError("called `Result::unwrap()` on an `Err` value: NonFinite")
    return lambda offset: rustrand.sample_float(
        rustrand.std_rng(offset ^ seed), float(lo), scale, single
    )


def _varchar(opts: Mapping[str, str], name: str, seed: int) -> Field:
    """varchar.rs:52-80: ``length`` (default 10) Alphanumeric characters of
    ``StdRng::seed_from_u64(offset ^ seed)``."""
    text = opts.get(f"fields.{name}.length")
    if text is not None and not re.fullmatch(r"\+?[0-9]+", text):
        raise GeneratorError("failed to parse the length of varchar field")
    length = _DEFAULT_LENGTH if text is None else int(text)
    return lambda offset: rustrand.alphanumeric(rustrand.std_rng(offset ^ seed), length)


def _timestamp(
    rw_type: str,
    opts: Mapping[str, str],
    name: str,
    seed: int,
    now_ms: Callable[[], int],
    start_ms: int | None = None,
) -> Field:
    """field_generator/timestamp.rs: the base (``basetime``; else, unless ``max_past_mode``
    is ``relative``, the time the reader was made; else the time of each row) less a random
    number of milliseconds in ``0..=max_past`` (default one day) drawn from
    ``StdRng::seed_from_u64(offset ^ seed)``.  A timestamp's base from ``basetime`` is its
    wall time in its own offset (``naive_local``)."""
    tz = rw_type == "timestamp with time zone"
    base_text = opts.get(f"fields.{name}.basetime")
    base: dt.datetime | None = None
    if base_text is not None:
        base = _rfc3339(base_text)
        if not tz:
            base = base.replace(tzinfo=None)
    past_ms = 86_400_000
    past_text = opts.get(f"fields.{name}.max_past")
    if past_text is not None:
        past_ms = _duration_ns(past_text) // 1_000_000
    mode = opts.get(f"fields.{name}.max_past_mode")

    def now(ms: int | None = None) -> dt.datetime:
        at = dt.datetime.fromtimestamp((now_ms() if ms is None else ms) / 1000, tz=dt.UTC)
        return at if tz else at.replace(tzinfo=None)

    if base is None and (mode is None or mode.lower() != "relative"):
        base = now(start_ms)  # the reader's start
    fixed = base

    def gen(offset: int) -> object:
        rng = rustrand.std_rng(offset ^ seed)
        back = rustrand.random_int_inclusive(rng, 0, past_ms, 64)
        value = (fixed or now()) - dt.timedelta(milliseconds=back)
        return (value.astimezone(dt.UTC) if tz else value).isoformat(sep=" ")

    return gen


def _rfc3339(text: str) -> dt.datetime:
    """chrono's ``DateTime::parse_from_rfc3339`` (a date, ``T`` or a space, a time, an offset)."""
    m = re.fullmatch(
        r"(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2}(?:\.\d+)?)([Zz]|[+-]\d{2}:\d{2})", text
    )
    if m is None:
        raise GeneratorError(f"cannot parse `{text}` to rfc3339")
    date, time, off = m.groups()
    if "." in time:
        whole, frac = time.split(".")
        time = f"{whole}.{(frac + '000000')[:6]}"
    try:
        return dt.datetime.fromisoformat(f"{date}T{time}{'+00:00' if off in 'Zz' else off}")
    except ValueError:
        raise GeneratorError(f"cannot parse `{text}` to rfc3339") from None


# humantime 2's units (parse_duration), case-sensitive: ``m`` is a minute, ``M`` a month
_UNITS_NS = {
    **dict.fromkeys(("nanos", "nsec", "ns"), 1),
    **dict.fromkeys(("usec", "us", "\u00b5s"), 1_000),
    **dict.fromkeys(("millis", "msec", "ms"), 1_000_000),
    **dict.fromkeys(("seconds", "second", "secs", "sec", "s"), 10**9),
    **dict.fromkeys(("minutes", "minute", "min", "mins", "m"), 60 * 10**9),
    **dict.fromkeys(("hours", "hour", "hr", "hrs", "h"), 3600 * 10**9),
    **dict.fromkeys(("days", "day", "d"), 86400 * 10**9),
    **dict.fromkeys(("weeks", "week", "w"), 7 * 86400 * 10**9),
    **dict.fromkeys(("months", "month", "M"), 2_630_016 * 10**9),
    **dict.fromkeys(("years", "year", "y"), 31_557_600 * 10**9),
}


def _duration_ns(text: str) -> int:
    """A humantime duration (``2h 37min``, ``10s``) in nanoseconds."""
    parts = re.findall(r"\s*([0-9]+)\s*([^\s0-9]+)", text)
    if not parts or "".join(a + b for a, b in parts) != re.sub(r"\s+", "", text):
        raise GeneratorError(f"invalid duration: {text}")
    total = 0
    for n, unit in parts:
        if unit not in _UNITS_NS:
            raise GeneratorError(
                f"unknown time unit {unit!r}, supported units: ns, us, ms, sec, min, hours,"
                " days, weeks, months, years (and few variations)"
            )
        total += int(n) * _UNITS_NS[unit]
    return total


def field_generator(
    rw_type: str,
    opts: Mapping[str, str],
    name: str,
    index: int,
    num: int,
    now_ms: Callable[[], int],
    start_ms: int | None = None,
) -> Field:
    """generator_from_data_type (reader.rs:204-336); ``start_ms``: when the reader was made
    (default now)."""
    seed_text = opts.get(f"fields.{name}.seed")
    seed = index
    if seed_text is not None and re.fullmatch(r"\+?[0-9]+", seed_text) and int(seed_text) < 2**64:
        seed = int(seed_text) ^ index  # (an unreadable seed: the split index, with a warning)
    if rw_type in ("timestamp without time zone", "timestamp with time zone"):
        return _timestamp(rw_type, opts, name, seed, now_ms, start_ms)
    if rw_type in ("character varying", "text"):
        return _varchar(opts, name, seed)
    if rw_type in _INTS or rw_type in _FLOATS:
        if opts.get(f"fields.{name}.kind") == "sequence":
            return _sequence(rw_type, opts, name, index, num)
        return _random(rw_type, opts, name, seed)
    if rw_type.startswith("struct<") or rw_type.endswith("[]"):
        return _nested(rw_type, opts, name, index, num, now_ms, start_ms)
    raise GeneratorError(f"unimplemented field generator {rw_type}")


def _nested(
    rw_type: str,
    opts: Mapping[str, str],
    name: str,
    index: int,
    num: int,
    now_ms: Callable[[], int],
    start_ms: int | None,
) -> Field:
    """A struct's fields (``fields.<col>.<field>.*``) as a tuple, never ending the split; a
    list's ``length`` elements (``fields.<col>._.*``), each drawn with the row's offset
    (reader.rs:282-318, field_generator/mod.rs:258-272)."""
    from rwshim.common import rwtypes

    t = rwtypes.parse(rw_type)
    if t.kind == "struct":
        subs = [
            field_generator(ft.display(), opts, f"{name}.{fname}", index, num, now_ms, start_ms)
            for fname, ft in t.fields
        ]
        return lambda offset: tuple(g(offset) for g in subs)
    if t.kind == "list" and t.elem is not None:
        text = opts.get(f"fields.{name}.length")
        if text is not None and not text.isdigit():
            raise GeneratorError(f"invalid digit found in string: {text}")
        length = _DEFAULT_LENGTH if text is None else int(text)
        elem = field_generator(t.elem.display(), opts, f"{name}._", index, num, now_ms, start_ms)
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
    started = now_ms() if started_ms is None else started_ms
    splits = []
    for index in range(num):
        per = rps // num + (1 if rps % num > index else 0)
        fields: list[tuple[str, Field | None]] = [
            (
                name,
                field_generator(t, options, name, index, num, now_ms, started) if visible else None,
            )
            for name, t, visible in columns
        ]
        splits.append(Split(index, num, per, fields))
    return Datagen(splits, started)
