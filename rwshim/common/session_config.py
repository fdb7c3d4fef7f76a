"""Session variables: parsing, checks, errors and the SET / SHOW / SHOW ALL behaviour over them.

The variables themselves (names, aliases, types, defaults, flags, check hooks, deprecation
notices, descriptions) are data generated from RisingWave's ``SessionConfig``
(src/common/src/session_config/mod.rs at 448c657) into ``rwshim.common.session_vars_generated``; see
tests/unit/sql/gen_session_vars.py.  What stays here is written by hand after RisingWave's code:

- parsing per field type, each as its ``FromStr``/``Display`` (session_config/*.rs,
  src/common/src/cast/mod.rs for bool); the enum types are read from the generated table;
- the check hooks (session_config/mod.rs:556-616), by the names the table gives;
- what the ``#[derive(SessionConfig)]`` proc macro generates around them
  (src/common/proc_macro/src/session_config.rs): alias resolution, the REPORT and SETTER
  hooks, SHOW ALL without NO_SHOW_ALL entries, NO_ALTER_SYS, deprecation notices;
- the handler rules of src/frontend/src/handler/variable.rs and alter_system.rs.

Errors are ``SessionConfigError`` chains (mod.rs:52-63): ``Failed to get or set session
config`` / ``Invalid value `<v>` for `<entry>``` / causes.  A parse failure quotes the raw
input; a check-hook failure quotes the parsed value's display (session_config.rs:127-136).

Pure: no I/O; imports only rwshim.errors, rwshim.lazy and the generated table.
"""

from __future__ import annotations

import importlib
import math
import re
import struct
from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from msgspec import Struct, field

from rwshim.common.session_vars_generated import (
    BOOL_ERROR,
    BOOL_FALSE,
    BOOL_TRUE,
    ENUMS,
    LIST_SEP,
    VARIABLES,
    VNODE_MAX_COUNT,
)
from rwshim.errors import SessionConfigError, StartupOptionError
from rwshim.lazy import lazy_module, lazy_pattern

if TYPE_CHECKING:
    import zoneinfo

    from rwshim.common.releases import Release
else:
    zoneinfo = lazy_module("zoneinfo")  # SET TimeZone's check only (it pulls sysconfig)

__all__ = [
    "LIST_SEP",
    "VNODE_MAX_COUNT",
    "InvalidValue",
    "SessionConfig",
    "Var",
    "VarTable",
    "apply_startup",
    "entry_name",
    "parallelism",
    "parse_startup_options",
    "parser_for",
    "rust_uint",
    "table_for",
    "variables",
]


class InvalidValue(Exception):
    """A value that does not parse or pass a check: the causes below `Invalid value ...`.

    ``compact()`` is the one-line form RisingWave's handlers embed, e.g. the ALTER ... SET
    PARALLELISM error ``... or ratio(r): Parse error: invalid digit found in string``.
    """

    def __init__(self, *causes: str) -> None:
        super().__init__(*causes)
        self.causes = list(causes)

    def compact(self) -> str:
        return ": ".join(self.causes)


class Var(Struct, frozen=True):
    """One session variable (a field of RisingWave's SessionConfig), from the generated table.

    ``kind`` is the field's Rust type as written (``bool``, ``ConfigParallelism``,
    ``OptionConfig<JoinEncodingType>``, ...); ``line`` is the field's line in mod.rs.
    """

    name: str
    kind: str
    default: str
    aliases: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    check: str | None = None
    deprecated: str | None = None
    doc: str = ""
    line: int = 0

    @property
    def alias(self) -> str | None:
        return self.aliases[0] if self.aliases else None


# The proc macro's flags (session_config.rs:102-287) and where each is honoured here.
KNOWN_FLAGS = {
    "REPORT": "SessionConfig._assign reports a change (session_config.rs:141-149)",
    "SETTER": "_SETTERS: a hand-written setter wraps the generated one (session_config.rs:121)",
    "NO_ALTER_SYS": "SessionConfig.can_alter_system (alter_system.rs:38-44)",
    "NO_SHOW_ALL": "SessionConfig.show_all leaves it out (session_config.rs:253-257)",
    "SESSION_INIT": "seeds from risingwave.toml [session_init]; rwshim has no config file",
}


# ---------------------------------------------------------------------------- value parsing
# Each parser takes the raw text and returns the display of the parsed value, or raises
# InvalidValue with the error chain RisingWave's FromStr gives.

_INT_RANGES = {
    "i32": (-(2**31), 2**31 - 1),
    "u32": (0, 2**32 - 1),
    "u64": (0, 2**64 - 1),
    "usize": (0, 2**64 - 1),
}
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _ascii_lower(s: str) -> str:
    """Rust's ``to_ascii_lowercase`` (Python's ``lower`` also folds non-ASCII letters)."""
    return s.translate(_ASCII_LOWER)


def _rust_int(s: str, lo: int, hi: int) -> int:
    """Rust's ``str::parse`` for integers, with its ParseIntError texts."""
    if s == "":
        raise InvalidValue("cannot parse integer from empty string")
    body = s[1:] if s[0] in "+-" else s
    if s[0] == "-" and lo == 0:
        raise InvalidValue("invalid digit found in string")
    if body == "" or not body.isascii() or not body.isdigit():
        raise InvalidValue("invalid digit found in string")
    n = int(s)
    if n > hi:
        raise InvalidValue("number too large to fit in target type")
    if n < lo:
        raise InvalidValue("number too small to fit in target type")
    return n


def rust_uint(s: str, bits: int) -> int:
    """Rust's ``str::parse::<u32>`` (``bits`` 32) or ``<u64>`` (64): InvalidValue with
    ParseIntError's text otherwise.  The engine's value parsers use it too."""
    return _rust_int(s, *_INT_RANGES[f"u{bits}"])


def _int(lo: int, hi: int) -> Callable[[str], str]:
    return lambda s: str(_rust_int(s, lo, hi))


def _bool(s: str) -> str:
    """str_to_bool (src/common/src/cast/mod.rs:28-49): trimmed, ASCII case-insensitive."""
    t = _ascii_lower(s.strip())
    if t in BOOL_TRUE:
        return "true"
    if t in BOOL_FALSE:
        return "false"
    raise InvalidValue(BOOL_ERROR)


def _f32_display(x: float) -> str:
    """Rust's Display of an f32: the shortest decimal that reads back as the same f32, never
    in exponent form (``1`` for 1.0, ``0.5``, ``-0`` for negative zero)."""
    f = struct.unpack("f", struct.pack("f", x))[0]
    if f == 0:
        return "-0" if math.copysign(1.0, f) < 0 else "0"
    cand = repr(f)
    for prec in range(1, 10):
        cand = f"{f:.{prec}g}"
        if struct.unpack("f", struct.pack("f", float(cand)))[0] == f:
            break
    text = format(Decimal(cand), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


# parse_strategy's patterns (adaptive_parallelism_strategy.rs:94-144).  Rust's ``^...$``
# without multi-line mode ends at the end of the text, so these are matched whole
# (``fullmatch``; Python's ``$`` would also match before a trailing newline).  ``\d`` is
# Unicode in both; the number itself is then parsed by Rust's ASCII-only ``str::parse``.
_BOUNDED = lazy_pattern(r"bounded\((\d+)\)")
_RATIO = lazy_pattern(r"ratio\(([+-]?\d+(?:\.\d+)?)\)")


def parallelism(s: str) -> str:
    """ConfigParallelism (session_config/parallelism.rs:65-94); returns its Display
    (``default``, ``adaptive``, ``n``, ``bounded(n)``, ``ratio(r)``) or raises InvalidValue.
    ALTER ... SET [BACKFILL_]PARALLELISM values are read with it too
    (``rwshim.engine.parallelism.parse_config_parallelism``)."""
    key = _ascii_lower(s)  # to_ascii_lowercase, parallelism.rs:69
    if key == "default":
        return "default"
    if key in ("adaptive", "auto"):
        return "adaptive"
    low = s.lower()  # parse_strategy lower-cases with to_lowercase
    if low in ("auto", "full"):
        return "adaptive"
    m = _BOUNDED.fullmatch(low)
    if m:
        try:
            n = _rust_int(m.group(1), *_INT_RANGES["usize"])
        except InvalidValue as e:
            raise InvalidValue("Parse error", *e.causes) from None
        if n == 0:
            raise InvalidValue("Invalid value for Bounded strategy: must be positive integer")
        return f"bounded({n})"
    m = _RATIO.fullmatch(low)
    if m:
        if not m.group(1).isascii():
            # Rust's f32 FromStr takes ASCII digits only (ParseFloatError's text).
            raise InvalidValue("Parse error", "invalid float literal")
        r32 = struct.unpack("f", struct.pack("f", float(m.group(1))))[0]
        if not (0.0 <= r32 <= 1.0) or math.isnan(r32):
            raise InvalidValue("Invalid value for Ratio strategy: must be between 0.0 and 1.0")
        return f"ratio({_f32_display(r32)})"
    try:
        n = _rust_int(s, *_INT_RANGES["u64"])
    except InvalidValue as e:
        raise InvalidValue("Parse error", *e.causes) from None
    return "adaptive" if n == 0 else str(n)


def parallelism_without_strategies(s: str) -> str:
    """v2.8.5's ConfigParallelism (v2.8.5 session_config/parallelism.rs:35-51): default,
    adaptive / auto, or a u64 (0 = adaptive); its error is the bare ParseIntError."""
    key = s.lower()  # to_lowercase
    if key == "default":
        return "default"
    if key in ("adaptive", "auto"):
        return "adaptive"
    n = _rust_int(key, *_INT_RANGES["u64"])
    return "adaptive" if n == 0 else str(n)


def adaptive_strategy(s: str) -> str:
    """v2.8.5's ConfigAdaptiveParallelismStrategy (session_config/parallelism.rs:77-89, its
    Display :119-134): ``default`` (ASCII case-insensitive), else parse_strategy
    (system_param/adaptive_parallelism_strategy.rs:94-144) shown as AUTO, FULL,
    BOUNDED(n), RATIO(r); ``Unsupported strategy: <s>`` otherwise."""
    if _ascii_lower(s) == "default":
        return "default"
    low = s.lower()
    if low in ("auto", "full"):
        return low.upper()
    if _BOUNDED.fullmatch(low) or _RATIO.fullmatch(low):
        return parallelism(s).upper()
    raise InvalidValue(f"Unsupported strategy: {s}")


def _statement_timeout(s: str) -> str:
    """StatementTimeout (session_config/statement_timeout.rs): ``<u32>[unit]``, shown in ms."""
    s = s.strip()
    if s == "0":
        return "0ms"
    idx = next((i for i, c in enumerate(s) if not c.isnumeric()), None)
    val, unit = (s, "ms") if idx is None else (s[:idx], s[idx:])
    try:
        n = _rust_int(val, *_INT_RANGES["u32"])
    except InvalidValue:
        raise InvalidValue(f'parsing u32 failed: "{val}"') from None
    mul = {"ms": 1, "s": 1000, "min": 60_000, "h": 3_600_000, "d": 86_400_000}.get(unit.strip())
    if mul is None:
        raise InvalidValue(f'invalid time unit: "{unit}"')
    if n * mul > _INT_RANGES["u32"][1]:
        raise InvalidValue("overflow")
    return f"{n * mul}ms"


def _search_path(s: str) -> str:
    """SearchPath (session_config/search_path.rs:57-70): parts trimmed, empty ones dropped."""
    parts = [p.strip() for p in s.split(LIST_SEP)]
    return LIST_SEP.join(p for p in parts if p)


def _enum(type_name: str) -> Callable[[str], str]:
    """A unit-variant enum's FromStr then Display, from the generated table."""
    _, pairs, error, fold_dashes = ENUMS[type_name]
    shown = dict(pairs)

    def parse(s: str) -> str:
        key = _ascii_lower(s)
        if fold_dashes:
            key = key.replace("-", "_")
        if key not in shown:
            raise InvalidValue(error)
        return shown[key]

    return parse


def _optional(inner: Callable[[str], str]) -> Callable[[str], str]:
    """OptionConfig<T> (session_config/opt.rs): empty text is None, shown as empty."""
    return lambda s: "" if s == "" else inner(s)


_PARSERS: dict[str, Callable[[str], str]] = {
    "bool": _bool,
    **{name: _int(lo, hi) for name, (lo, hi) in _INT_RANGES.items()},
    "String": lambda s: s,
    # ConfigNonZeroU64 (session_config/non_zero64.rs): a u64, 0 meaning none, shown as 0.
    "ConfigNonZeroU64": _int(*_INT_RANGES["u64"]),
    # ConfigBackfillParallelism parses as ConfigParallelism does (parallelism.rs:139-170).
    "ConfigParallelism": parallelism,
    "ConfigBackfillParallelism": parallelism,
    "ConfigAdaptiveParallelismStrategy": adaptive_strategy,
    "SearchPath": _search_path,
    "StatementTimeout": _statement_timeout,
    **{name: _enum(name) for name in ENUMS},
}
_OPTION = re.compile(r"OptionConfig<(\w+)>")


def parser_for(
    kind: str, overrides: dict[str, Callable[[str], str]] | None = None
) -> Callable[[str], str]:
    """The parser of a field type (``overrides``: a release's own, by type); KeyError for a
    type this module does not know."""
    parsers = _PARSERS if not overrides else {**_PARSERS, **overrides}
    m = _OPTION.fullmatch(kind)
    return _optional(parsers[m.group(1)]) if m else parsers[kind]


# ---------------------------------------------------------------------------- check hooks
# (session_config/mod.rs:556-616, lines in session_vars_generated.CHECK_HOOKS); each raises
# InvalidValue with its message.


def _check_timezone(v: str) -> None:
    zones = _timezones()
    # Without a tz database on this host, accept what looks like a zone name rather than
    # reject every zone but UTC.
    known = v.lower() in zones if len(zones) > 3 else bool(_ZONE_LIKE.fullmatch(v))
    if not known:
        raise InvalidValue("Not a valid timezone")


_ZONE_LIKE = lazy_pattern(r"[A-Za-z][A-Za-z0-9_+\-]*(?:/[A-Za-z0-9_+\-]+)*")
_TZ_CACHE: set[str] = set()


def _timezones() -> set[str]:
    """IANA zone names, lower-cased (chrono-tz's from_str_insensitive accepts any case)."""
    if not _TZ_CACHE:
        _TZ_CACHE.update(z.lower() for z in zoneinfo.available_timezones())
        _TZ_CACHE.update({"utc", "gmt", "etc/utc"})
    return _TZ_CACHE


_TZ_NAMES: dict[str, str] = {}


def zone_name(name: str) -> str | None:
    """The IANA name that a zone name written in any case stands for (RisingWave resolves it
    with chrono-tz's ``Tz::from_str_insensitive``: src/common/src/types/timestamptz.rs:164,
    session_config/mod.rs:569-573), None when there is no such zone."""
    if not _TZ_NAMES:
        _TZ_NAMES.update({z.lower(): z for z in zoneinfo.available_timezones()})
    return _TZ_NAMES.get(name.lower())


def _check_client_encoding(v: str) -> None:
    if re.sub(r"[^A-Za-z0-9]", "", v).upper() != "UTF8":
        raise InvalidValue("Only support 'UTF8' for CLIENT_ENCODING")


def _check_bytea_output(v: str) -> None:
    if v != "hex":
        raise InvalidValue("Only support 'hex' for BYTEA_OUTPUT")


def _check_streaming_max_parallelism(v: str) -> None:
    n = int(v)
    if n in (0, 1):
        raise InvalidValue("STREAMING_MAX_PARALLELISM must be greater than 1")
    if n > VNODE_MAX_COUNT:
        raise InvalidValue(
            f"STREAMING_MAX_PARALLELISM must be less than or equal to {VNODE_MAX_COUNT}"
        )


def _check_streaming_parallelism_for_backfill(v: str) -> None:
    if v != "default" and not v.isdigit():
        raise InvalidValue(
            "Only `default` or fixed backfill parallelism is supported here; adaptive backfill "
            "strategy is deferred to a later change."
        )


def _check_iceberg_engine_connection(v: str) -> None:
    if v and len(v.split(".")) != 2:
        raise InvalidValue(
            "Invalid iceberg engine connection format, Should be set to this format: "
            "schema_name.connection_name."
        )


_CHECKS: dict[str, Callable[[str], None]] = {
    "check_timezone": _check_timezone,
    "check_client_encoding": _check_client_encoding,
    "check_bytea_output": _check_bytea_output,
    "check_streaming_max_parallelism": _check_streaming_max_parallelism,
    "check_streaming_parallelism_for_backfill": _check_streaming_parallelism_for_backfill,
    "check_iceberg_engine_connection": _check_iceberg_engine_connection,
}


# ---------------------------------------------------------------------------- SETTER entries
# A SETTER-flagged entry's typed setter is hand-written in RisingWave and wraps the generated
# one; each function here runs after the value is stored (SET only: the generated reset does
# not call it).  enable_two_phase_agg and force_two_phase_agg keep each other consistent
# (session_config/mod.rs:618-644).


def _after_force_two_phase_agg(values: dict[str, str]) -> None:
    if values["force_two_phase_agg"] == "true":
        values["enable_two_phase_agg"] = "true"


def _after_enable_two_phase_agg(values: dict[str, str]) -> None:
    if values["force_two_phase_agg"] != "true":
        values["force_two_phase_agg"] = "false"


_SETTERS: dict[str, Callable[[dict[str, str]], None]] = {
    "force_two_phase_agg": _after_force_two_phase_agg,
    "enable_two_phase_agg": _after_enable_two_phase_agg,
}


# ---------------------------------------------------------------------------- the table


class VarTable:
    """One release's session variables (rwshim.common.releases: ``session_vars`` names the
    generated module, read from that release's tag) and its own parsers by field type."""

    def __init__(
        self, variables: Iterable[Any], parsers: dict[str, Callable[[str], str]] | None = None
    ) -> None:
        self.vars: tuple[Var, ...] = tuple(
            Var(
                e.name,
                e.type,
                e.default,
                e.aliases,
                e.flags,
                e.check_hook,
                e.deprecated,
                e.description,
                e.line,
            )
            for e in variables
        )
        self.by_name: dict[str, Var] = {v.name: v for v in self.vars}
        self.aliases: dict[str, str] = {a: v.name for v in self.vars for a in v.aliases}
        self.parsers = parsers or {}

    def entry_name(self, name: str) -> str:
        key = name.lower()
        return self.aliases.get(key, key)


HEAD_TABLE = VarTable(VARIABLES)
_TABLE = HEAD_TABLE.vars
_BY_NAME = HEAD_TABLE.by_name
_ALIASES = HEAD_TABLE.aliases
_TABLES: dict[str, VarTable] = {"session_vars_generated": HEAD_TABLE}


def table_for(release: Release) -> VarTable:
    """The session variables of ``release`` (its generated module, imported on first use)."""
    found = _TABLES.get(release.session_vars)
    if found is None:
        module = importlib.import_module(f"rwshim.common.{release.session_vars}")
        parsers: dict[str, Callable[[str], str]] = {}
        if not release.config_parallelism_strategies:
            parsers["ConfigParallelism"] = parallelism_without_strategies
        found = _TABLES[release.session_vars] = VarTable(module.VARIABLES, parsers)
    return found


# The job types with a streaming_parallelism_for_<type> entry, and the <kind>_rate_limit kinds
# (what the typed accessors below accept).
PARALLELISM_JOB_TYPES = ("table", "source", "sink", "index", "materialized_view", "backfill")
RATE_LIMIT_KINDS = ("backfill", "source", "dml", "sink")


def entry_name(name: str) -> str:
    """RisingWave's alias_to_entry_name: lower-case, then resolve aliases."""
    key = name.lower()
    return _ALIASES.get(key, key)


def variables() -> tuple[Var, ...]:
    """Every session variable, in RisingWave's declaration order (the SHOW ALL order)."""
    return _TABLE


class SessionConfig(Struct):
    """One session's variables.  ``defaults`` are the cluster-wide values ALTER SYSTEM SET
    stored, which a new session starts from."""

    defaults: dict[str, str] = field(default_factory=dict)
    # The release's variables (table_for); head's by default.
    table: VarTable = field(default_factory=lambda: HEAD_TABLE)
    _values: dict[str, str] = field(default_factory=dict)
    _reports: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for v in self.table.vars:
            self._values[v.name] = self.defaults.get(v.name, v.default)

    # -- the generic interface (SET / SHOW / RESET / SHOW ALL)

    def set(self, name: str, value: str | list[str] | tuple[str, ...] | None) -> list[str]:
        """SET name = value (``None`` for DEFAULT); returns the notices to send.

        A list is joined with ``", "`` as RisingWave's handler does (handler/variable.rs:30-40).
        """
        var = self._var(name)
        if value is None:
            self.reset(var.name)
        else:
            raw = value if isinstance(value, str) else LIST_SEP.join(value)
            self._assign(var, self.parse_value(var.name, raw))
            if "SETTER" in var.flags:
                _SETTERS[var.name](self._values)
        # handler/variable.rs:87-89: the notice follows a successful SET, DEFAULT included.
        return [var.deprecated] if var.deprecated else []

    def parse_value(self, name: str, raw: str) -> str:
        """The value ``raw`` would be stored as (its display), or the SessionConfigError."""
        var = self._var(name)
        try:
            shown = parser_for(var.kind, self.table.parsers)(raw)
        except InvalidValue as e:
            raise SessionConfigError(f"Invalid value `{raw}` for `{var.name}`", *e.causes) from None
        if var.check:
            try:
                _CHECKS[var.check](shown)
            except InvalidValue as e:
                raise SessionConfigError(
                    f"Invalid value `{shown}` for `{var.name}`", *e.causes
                ) from None
        return shown

    def get(self, name: str) -> str:
        """SHOW name: the value as RisingWave displays it."""
        return self._values[self._var(name).name]

    def reset(self, name: str) -> None:
        """Back to RisingWave's declared default (SET name = DEFAULT).

        The generated ``reset_<field>`` assigns the ``#[parameter(default = ..)]`` value
        (session_config.rs:193-203), not the cluster-wide one ALTER SYSTEM SET stored: that
        one only seeds a new session (``defaults``).
        """
        var = self._var(name)
        self._assign(var, var.default)

    def show(self, name: str) -> tuple[list[str], list[tuple[str, ...]]]:
        """SHOW <name>: the column names and rows RisingWave returns (handler/variable.rs:150-230).

        ``all`` gives Name/Setting/Description rows; ``parameters`` (system parameters, which
        the engine owns) gives only its columns Name/Value/Description/Mutable here; any other
        name is one ``Name`` column holding the value (``Mutable`` is boolean, the rest
        varchar).
        """
        key = name.lower()
        if key == "all":
            return (["Name", "Setting", "Description"], list(self.show_all()))
        if key == "parameters":
            return (["Name", "Value", "Description", "Mutable"], [])
        return (["Name"], [(self.get(name),)])

    def show_all(self) -> list[tuple[str, str, str]]:
        """SHOW ALL rows: (Name, Setting, Description), NO_SHOW_ALL entries left out."""
        return [
            (v.name, self._values[v.name], v.doc)
            for v in self.table.vars
            if "NO_SHOW_ALL" not in v.flags
        ]

    def take_reports(self) -> list[tuple[str, str]]:
        """Changes of REPORT-flagged variables since the last call (entry name, new value)."""
        out, self._reports = self._reports, []
        return out

    def parameter_status_changes(self) -> list[tuple[str, str]]:
        """What RisingWave re-reports as ParameterStatus after SET.

        Its handler forwards a report only when the key equals ``APPLICATION_NAME``
        (handler/variable.rs:62-68) while the config reports the entry name
        ``application_name``, so nothing is re-reported: this returns [] after draining the
        reports, which keeps that behaviour visible in one place.
        """
        return [(k, v) for k, v in self.take_reports() if k == "APPLICATION_NAME"]

    @staticmethod
    def alter_system_notice(name_as_typed: str, value: str | None) -> str:
        """The NOTICE of ALTER SYSTEM SET on a session variable (handler/alter_system.rs:37-60)."""
        if value is None:
            return (
                f"The config {name_as_typed} of the current session has already been reset "
                "to default"
            )
        return f"The config {name_as_typed} of the current session has already been set to {value}"

    @staticmethod
    def can_alter_system(name: str, table: VarTable = HEAD_TABLE) -> bool:
        """False for NO_ALTER_SYS variables (`session param <n> cannot be altered system wide`)."""
        var = table.by_name.get(table.entry_name(name))
        return var is not None and "NO_ALTER_SYS" not in var.flags

    @staticmethod
    def is_known(name: str, table: VarTable = HEAD_TABLE) -> bool:
        return table.entry_name(name) in table.by_name

    # -- typed accessors for the engine and the read path

    @property
    def streaming_parallelism(self) -> str:
        return self._values["streaming_parallelism"]

    def streaming_parallelism_for(self, job_type: str) -> str:
        """``streaming_parallelism_for_<job_type>`` (table, source, sink, index,
        materialized_view, backfill), as displayed: default, adaptive, n, bounded(n), ratio(r)."""
        return self._values[f"streaming_parallelism_for_{job_type}"]

    @property
    def streaming_max_parallelism(self) -> int:
        return int(self._values["streaming_max_parallelism"])

    @property
    def streaming_use_snapshot_backfill(self) -> bool:
        return self._values["streaming_use_snapshot_backfill"] == "true"

    @property
    def streaming_use_shared_source(self) -> bool:
        return self._values["streaming_use_shared_source"] == "true"

    @property
    def background_ddl(self) -> bool:
        return self._values["background_ddl"] == "true"

    @property
    def implicit_flush(self) -> bool:
        return self._values["implicit_flush"] == "true"

    @property
    def dml_wait_persistence(self) -> bool:
        # v2.8.5 has no such variable (its session_config/mod.rs): a DML never waits there
        return self._values.get("dml_wait_persistence") == "true"

    def rate_limit(self, kind: str) -> int | None:
        """``<kind>_rate_limit`` (backfill, source, dml, sink); None when disabled (< 0)."""
        n = int(self._values[f"{kind}_rate_limit"])
        return None if n < 0 else n

    @property
    def search_path(self) -> list[str]:
        """The effective search path: pg_catalog and rw_catalog first unless listed
        (session_config/search_path.rs:22-80); ``"$user"`` kept for the binder to resolve."""
        real = [p for p in self._values["search_path"].split(LIST_SEP) if p]
        path = list(real)
        if "rw_catalog" not in real:
            path.insert(0, "rw_catalog")
        if "pg_catalog" not in real:
            path.insert(0, "pg_catalog")
        return path

    @property
    def timezone(self) -> str:
        return self._values["timezone"]

    @property
    def application_name(self) -> str:
        return self._values["application_name"]

    @property
    def slow_ddl_notification_secs(self) -> int:
        return int(self._values["slow_ddl_notification_secs"])

    @property
    def statement_timeout_ms(self) -> int:
        return int(self._values["statement_timeout"].removesuffix("ms"))

    # -- internals

    def _var(self, name: str) -> Var:
        key = self.table.entry_name(name)
        var = self.table.by_name.get(key)
        if var is None:
            raise SessionConfigError(f"Unrecognized config entry `{key}`")
        return var

    def _assign(self, var: Var, shown: str) -> None:
        # the REPORT hook of the generated setter and reset (session_config.rs:141-149)
        if "REPORT" in var.flags and self._values[var.name] != shown:
            self._reports.append((var.name, shown))
        self._values[var.name] = shown


def parse_startup_options(options: str) -> list[tuple[str, str]]:
    """The settings in a StartupMessage ``options`` string, as RisingWave reads them
    (pg_protocol.rs:1590-1660): words split on unescaped ASCII whitespace, backslash escapes
    the next character (quotes are literal), ``-c key=value`` and ``--key=value`` pairs with
    ``-`` in keys read as ``_``; other words are ignored.

    Raises StartupOptionError (``invalid config format: <arg>`` / ``missing argument for -c``).
    """
    words: list[str] = []
    cur: list[str] = []
    it = iter(options)
    for ch in it:
        if ch == "\\":
            cur.append(next(it, ""))
        elif ch in " \t\n\r\x0c":
            if cur:
                words.append("".join(cur))
                cur = []
        else:
            cur.append(ch)
    if cur:
        words.append("".join(cur))
    pairs: list[tuple[str, str]] = []
    i = 0
    while i < len(words):
        w = words[i]
        i += 1
        if w == "-c":
            if i >= len(words):
                raise StartupOptionError("missing argument for -c")
            w = words[i]
            i += 1
        elif w.startswith("--"):
            w = w[2:]
        else:
            continue  # "ignoring unrecognized option for backward compatibility"
        if "=" not in w:
            raise StartupOptionError(f"invalid config format: {w}")
        key, value = w.split("=", 1)
        pairs.append((key.replace("-", "_"), value))
    return pairs


def apply_startup(cfg: SessionConfig, options: str | None, application_name: str | None) -> None:
    """Apply a StartupMessage's ``options`` then ``application_name`` (which wins), as
    pg_protocol.rs:742-755 does; a bad value is a StartupOptionError over the config error."""
    settings = parse_startup_options(options) if options else []
    if application_name is not None:
        settings.append(("application_name", application_name))
    for key, value in settings:
        try:
            cfg.set(key, value)
        except SessionConfigError as e:
            raise StartupOptionError(*e.chain) from None
