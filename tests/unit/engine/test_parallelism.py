"""Parallelism values: parsing and rendering (rw-sql-surface §1.2, §1.4), creation-time
resolution (§4.7), placement (rw-engine-semantics §1.5)."""

from __future__ import annotations

import pytest

from rwshim.engine import parallelism as par
from rwshim.errors import RwError

PREFIX = (
    "Invalid input syntax: target parallelism must be a valid number, adaptive, bounded(n), "
    "or ratio(r): "
)


@pytest.mark.parametrize(
    ("text", "rendered", "strategy"),
    [
        ("4", "4", None),
        ("0", "adaptive", "AUTO"),
        ("00", "adaptive", "AUTO"),
        ("ADAPTIVE", "adaptive", "AUTO"),
        ("auto", "adaptive", "AUTO"),
        ("full", "adaptive", "AUTO"),
        ("FULL", "adaptive", "AUTO"),
        (None, "adaptive", "AUTO"),  # DEFAULT
        ("default", "adaptive", "AUTO"),
        ("bounded(4)", "bounded(4)", "BOUNDED(4)"),
        ("BOUNDED(4)", "bounded(4)", "BOUNDED(4)"),
        ("ratio(0.5)", "ratio(0.5)", "RATIO(0.5)"),
        ("Ratio(+0.5)", "ratio(0.5)", "RATIO(0.5)"),
        ("ratio(1.0)", "ratio(1)", "RATIO(1)"),
        ("ratio(0.50)", "ratio(0.5)", "RATIO(0.5)"),
        ("4294967297", "1", None),  # u32 truncation of alter_parallelism.rs:168
        ("4294967296", "adaptive", "AUTO"),
    ],
)
def test_alter_values(text: str | None, rendered: str, strategy: str | None) -> None:
    t = par.parse_alter_value(text)
    assert par.render(t) == rendered
    assert t.strategy == strategy


@pytest.mark.parametrize(
    ("text", "cause"),
    [
        ("foo", "Parse error: invalid digit found in string"),
        ("true", "Parse error: invalid digit found in string"),
        ("2.5", "Parse error: invalid digit found in string"),
        ("bounded", "Parse error: invalid digit found in string"),
        ("bounded(4, 5)", "Parse error: invalid digit found in string"),
        ("ratio(.5)", "Parse error: invalid digit found in string"),
        ("", "Parse error: cannot parse integer from empty string"),
        ("99999999999999999999", "Parse error: number too large to fit in target type"),
        ("bounded(0)", "Invalid value for Bounded strategy: must be positive integer"),
        ("ratio(1.5)", "Invalid value for Ratio strategy: must be between 0.0 and 1.0"),
        ("ratio(-0.5)", "Invalid value for Ratio strategy: must be between 0.0 and 1.0"),
        # Rust's `$` ends at the end of the text (no match before a trailing newline), then
        # u64::from_str fails (adaptive_parallelism_strategy.rs:107-110, parallelism.rs:79).
        ("bounded(4)\n", "Parse error: invalid digit found in string"),
        ("4\n", "Parse error: invalid digit found in string"),
        # `\d` is Unicode in Rust's regex too, but usize / f32 FromStr take ASCII digits only.
        ("bounded(\u0664)", "Parse error: invalid digit found in string"),
        ("ratio(\uff10.5)", "Parse error: invalid float literal"),
        ("\u0664", "Parse error: invalid digit found in string"),
    ],
)
def test_alter_value_errors(text: str, cause: str) -> None:
    with pytest.raises(RwError) as ex:
        par.parse_alter_value(text)
    assert ex.value.chain == [PREFIX + cause]


def test_backfill_default_clears_and_fragment_values() -> None:
    assert par.parse_alter_backfill_value(None) is None
    assert par.parse_alter_backfill_value("default") is None
    assert par.render(par.parse_alter_backfill_value("bounded(3)")) == "bounded(3)"
    assert par.parse_fragment_value(None, is_ident=False) is None
    assert par.render(par.parse_fragment_value("adaptive", is_ident=True)) == "adaptive"
    assert par.render(par.parse_fragment_value("0", is_ident=False)) == "adaptive"
    assert par.render(par.parse_fragment_value("3", is_ident=False)) == "3"
    # A number literal is parsed as u32 (alter_parallelism.rs:220-225) ...
    with pytest.raises(RwError) as ex:
        par.parse_fragment_value("1.5", is_ident=False)
    assert ex.value.chain == [
        "Invalid input syntax: target parallelism must be a valid number or adaptive: "
        "invalid digit found in string"
    ]
    with pytest.raises(RwError) as ex:
        par.parse_fragment_value("4294967296", is_ident=False)
    assert ex.value.chain == [
        "Invalid input syntax: target parallelism must be a valid number or adaptive: "
        "number too large to fit in target type"
    ]
    # ... an identifier other than adaptive is refused without a cause (:227-233).
    with pytest.raises(RwError) as ex:
        par.parse_fragment_value("auto", is_ident=True)
    assert ex.value.chain == [
        "Invalid input syntax: target parallelism must be a valid number or adaptive"
    ]


# e2e_test/ddl/streaming_parallelism/*.slt truth tables (global x type-specific).
@pytest.mark.parametrize(
    ("kind", "specific", "global_", "expected"),
    [
        ("table", "default", "default", "bounded(4)"),
        ("source", "default", "default", "bounded(4)"),
        ("sink", "default", "default", "bounded(8)"),
        ("materialized view", "default", "default", "bounded(64)"),
        ("index", "default", "default", "bounded(64)"),
        ("table", "default", "8", "8"),
        ("sink", "default", "adaptive", "adaptive"),
        ("materialized view", "2", "8", "2"),
        ("table", "bounded(3)", "default", "bounded(3)"),
        ("materialized view", "0", "default", "adaptive"),
    ],
)
def test_creation_resolution(kind: str, specific: str, global_: str, expected: str) -> None:
    t = par.resolve_creation(
        kind, par.parse_config_parallelism(specific), par.parse_config_parallelism(global_)
    )
    assert par.render(t) == expected


@pytest.mark.parametrize(
    ("target", "slots", "actors"),
    [
        (par.Target.of_fixed(3), 8, 3),
        (par.Target.adaptive(), 8, 8),
        (par.Target.adaptive("BOUNDED(4)"), 8, 4),
        (par.Target.adaptive("BOUNDED(64)"), 8, 8),
        (par.Target.adaptive("RATIO(0.5)"), 8, 4),
        (par.Target.adaptive("RATIO(0.1)"), 8, 1),
    ],
)
def test_placement(target: par.Target, slots: int, actors: int) -> None:
    assert par.slots_for(target, slots) == actors
