"""Parallelism values: parsing (session variables and ALTER values), resolution at creation, and
placement (how many actors a job or fragment gets).

RisingWave sources: ``src/common/src/session_config/parallelism.rs`` (ConfigParallelism),
``src/common/src/system_param/adaptive_parallelism_strategy.rs`` (strategies),
``src/frontend/src/stream_fragmenter/parallelism.rs`` (creation defaults),
``src/frontend/src/handler/alter_parallelism.rs`` (ALTER values),
``src/meta/src/controller/scale.rs:1146-1181`` (effective parallelism).
"""

from __future__ import annotations

import math
import re

from msgspec import Struct

from rwshim.common import session_config as sc
from rwshim.errors import InvalidInputSyntax
from rwshim.store.functions import render_parallelism


class ParseError(Exception):
    """A parse failure; ``str()`` is the compact report RisingWave prints as the cause."""


class Target(Struct, frozen=True):
    """A parallelism as the catalog stores it: Fixed(n) or Adaptive(strategy).

    ``strategy`` is 'AUTO', 'BOUNDED(n)' or 'RATIO(r)' for Adaptive, None for Fixed.
    """

    kind: str  # 'Fixed' | 'Adaptive' | 'Custom'
    fixed: int | None = None
    strategy: str | None = None

    @staticmethod
    def of_fixed(n: int) -> Target:
        return Target("Fixed", n, None)

    @staticmethod
    def adaptive(strategy: str = "AUTO") -> Target:
        return Target("Adaptive", None, strategy)


def parse_uint(s: str, bits: int) -> int:
    """Rust's ``str::parse::<u32>`` / ``<u64>``: ASCII digits after an optional ``+``, with
    ParseIntError's texts (raised bare: callers add RisingWave's prefixes)."""
    try:
        return sc.rust_uint(s, bits)
    except sc.InvalidValue as e:
        raise ParseError(e.compact()) from None


def parse_config_parallelism(s: str) -> Target | None:
    """ConfigParallelism::from_str (session_config/parallelism.rs:65-94), read by the one
    parser SET uses (``rwshim.common.session_config.parallelism``): None for 'default', else a
    Target (0/adaptive/auto/full -> Adaptive AUTO).  ``ParseError`` carries the compact
    report RisingWave embeds (``Parse error: invalid digit found in string``)."""
    try:
        shown = sc.parallelism(s)
    except sc.InvalidValue as e:
        raise ParseError(e.compact()) from None
    return _from_display(shown)


def _from_display(shown: str) -> Target | None:
    """A ConfigParallelism's Display back as the catalog's Target."""
    if shown == "default":
        return None
    if shown == "adaptive":
        return Target.adaptive()
    if shown.startswith(("bounded(", "ratio(")):
        return Target.adaptive(shown.upper())
    return Target.of_fixed(int(shown))


def render(target: Target | None) -> str:
    """How system catalogs print a parallelism (system_catalog/mod.rs:223-254)."""
    if target is None:
        return "unknown"
    return render_parallelism(target.kind, target.fixed, target.strategy)


def parse_alter_value(value: str | None) -> Target:
    """The value of ``ALTER ... SET PARALLELISM`` (alter_parallelism.rs:143-180).

    ``value`` is the value's unquoted text, or None for DEFAULT (which means adaptive here).
    """
    if value is None:
        return Target.adaptive()
    try:
        parsed = parse_config_parallelism(value)
    except ParseError as e:
        raise InvalidInputSyntax(
            f"target parallelism must be a valid number, adaptive, bounded(n), or ratio(r): {e}"
        ) from None
    if parsed is None:
        return Target.adaptive()
    if parsed.kind == "Fixed" and parsed.fixed is not None:
        # alter_parallelism.rs:168 casts to u32 (truncation), as RisingWave does.
        truncated = parsed.fixed & 0xFFFFFFFF
        return Target.adaptive() if truncated == 0 else Target.of_fixed(truncated)
    return parsed


def parse_alter_backfill_value(value: str | None) -> Target | None:
    """``ALTER ... SET BACKFILL_PARALLELISM``: DEFAULT clears the override (None)."""
    if value is None:
        return None
    try:
        parsed = parse_config_parallelism(value)
    except ParseError as e:
        raise InvalidInputSyntax(
            f"target parallelism must be a valid number, adaptive, bounded(n), or ratio(r): {e}"
        ) from None
    if parsed is None:
        return None
    if parsed.kind == "Fixed" and parsed.fixed is not None:
        truncated = parsed.fixed & 0xFFFFFFFF
        return Target.adaptive() if truncated == 0 else Target.of_fixed(truncated)
    return parsed


def parse_fragment_value(value: str | None, *, is_ident: bool) -> Target | None:
    """``ALTER FRAGMENT ... SET PARALLELISM`` (extract_fragment_parallelism,
    alter_parallelism.rs:181-244): DEFAULT -> None, the identifier ``adaptive`` -> Adaptive,
    a number literal parsed as u32 (0 = adaptive).  The frontend refuses every other form
    (``rwshim.frontend.alter_values.fragment_parallelism``) before this is reached."""
    if value is None:
        return None
    if is_ident:
        if value.lower() == "adaptive":
            return Target.adaptive()
        raise InvalidInputSyntax("target parallelism must be a valid number or adaptive")
    try:
        n = parse_uint(value, 32)
    except ParseError as e:
        raise InvalidInputSyntax(
            f"target parallelism must be a valid number or adaptive: {e}"
        ) from None
    return Target.adaptive() if n == 0 else Target.of_fixed(n)


# Creation defaults (session_config/parallelism.rs:39-41).
DEFAULT_GLOBAL = Target.adaptive("BOUNDED(64)")
DEFAULT_TABLE_SOURCE = Target.adaptive("BOUNDED(4)")
DEFAULT_SINK = Target.adaptive("BOUNDED(8)")


def resolve_creation(job_kind: str, specific: Target | None, global_: Target | None) -> Target:
    """derive_parallelism (stream_fragmenter/parallelism.rs:30-88).

    job_kind: 'table', 'source', 'sink', 'materialized view', 'index'.
    """
    if specific is not None:
        return specific
    if global_ is None:
        if job_kind in ("table", "source"):
            return DEFAULT_TABLE_SOURCE
        if job_kind == "sink":
            return DEFAULT_SINK
        return DEFAULT_GLOBAL
    return global_


def resolve_creation_adaptive(
    specific: Target | None, global_: Target | None, strategy: str | None
) -> Target:
    """v2.8.5's derive_parallelism and derive_parallelism_strategy (v2.8.5
    stream_fragmenter/parallelism.rs:21-60): a fixed value of the job type's variable, else of
    streaming_parallelism; otherwise adaptive, with the session's strategy (None: the system
    parameter adaptive_parallelism_strategy, AUTO by default)."""
    chosen = specific if specific is not None else global_
    if chosen is not None and chosen.kind == "Fixed":
        return chosen
    return Target.adaptive(strategy or "AUTO")


def slots_for(target: Target, slots: int) -> int:
    """Actors for a target given the group's total slots
    (adaptive_parallelism_strategy.rs:81-92)."""
    if target.kind == "Fixed" and target.fixed is not None:
        return target.fixed
    strategy = target.strategy or "AUTO"
    if strategy in ("AUTO", "FULL"):
        return slots
    m = re.fullmatch(r"BOUNDED\((\d+)\)", strategy)
    if m:
        return min(int(m.group(1)), slots)
    m = re.fullmatch(r"RATIO\(([\d.]+)\)", strategy)
    if m:
        return max(math.floor(slots * float(m.group(1))), 1)
    return slots


def parse_bool(text: str) -> bool:
    """RisingWave's bool literal parse (src/common/src/cast/mod.rs:28-49)."""
    t = text.strip().lower()
    if t in ("true", "tru", "tr", "t", "on", "1", "yes", "ye", "y"):
        return True
    if t in ("false", "fals", "fal", "fa", "f", "off", "of", "0", "no", "n"):
        return False
    raise ParseError("Invalid bool")


def _format_strategy(strategy: str | None) -> str | None:
    """A stored adaptive strategy as format_streaming_parallelism prints it (None when it is
    not one)."""
    if strategy is None:
        return None
    try:
        shown = sc.parallelism(strategy)
    except sc.InvalidValue:
        return None
    return shown if shown == "adaptive" or shown.startswith(("bounded(", "ratio(")) else None


def format_streaming_parallelism(kind: str, fixed: int | None, strategy: str | None) -> str:
    """format_streaming_parallelism (fragment.rs:1529-1544)."""
    if kind == "Fixed":
        return str(fixed)
    shown = _format_strategy(strategy)
    if shown is not None:
        return shown
    return "custom" if kind == "Custom" else "adaptive"


def parallelism_policy(
    distribution: str,
    override: Target | None,
    job: Target | None,
    roots: list[int],
) -> str:
    """format_fragment_parallelism_policy (fragment.rs:1496-1527)."""
    if distribution == "SINGLE":
        return "single"
    job_strategy = None if job is None else job.strategy
    if override is not None:
        return (
            f"override({format_streaming_parallelism(override.kind, override.fixed, job_strategy)})"
        )
    if roots:
        return f"upstream_fragment([{', '.join(str(r) for r in sorted(set(roots)))}])"
    if job is None:
        return "inherit(unknown)"
    return f"inherit({format_streaming_parallelism(job.kind, job.fixed, job_strategy)})"
