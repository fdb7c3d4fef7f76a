"""The generated session-variable table and the hand-written code over it agree.

rwshim/common/session_vars_generated.py is generated from RisingWave's source
(tests/unit/sql/gen_session_vars.py); rwshim/common/session_config.py names check hooks, flags,
field types and variables of its own.  A regeneration that brings a new hook, flag, type or
enum, or drops a variable the code relies on, fails here instead of at a client's SET.
"""

from __future__ import annotations

import pytest

from rwshim.common import session_config as sc
from rwshim.common import session_vars_generated as gen
from rwshim.errors import SessionConfigError

VARS = sc.variables()


def test_every_check_hook_named_in_the_table_is_implemented_and_no_other() -> None:
    named = {v.check for v in VARS if v.check}
    assert named == set(gen.CHECK_HOOKS)
    assert set(sc._CHECKS) == named


def test_every_flag_in_the_table_is_one_the_code_knows() -> None:
    used = {f for v in VARS for f in v.flags}
    assert used <= set(sc.KNOWN_FLAGS), used - set(sc.KNOWN_FLAGS)


def test_setter_entries_are_exactly_the_hand_written_setters() -> None:
    assert {v.name for v in VARS if "SETTER" in v.flags} == set(sc._SETTERS)


def test_every_field_type_has_a_parser() -> None:
    missing = []
    for v in VARS:
        try:
            sc.parser_for(v.kind)
        except KeyError:
            missing.append((v.name, v.kind))
    assert missing == []


@pytest.mark.parametrize("var", VARS, ids=lambda v: v.name)
def test_default_parses_with_its_own_parser_and_renders_back(var: sc.Var) -> None:
    assert sc.parser_for(var.kind)(var.default) == var.default
    assert sc.SessionConfig().parse_value(var.name, var.default) == var.default  # hook passes


@pytest.mark.parametrize("type_name", sorted(gen.ENUMS))
def test_enum_display_reads_back_as_itself(type_name: str) -> None:
    _, pairs, error, _ = gen.ENUMS[type_name]
    parse = sc.parser_for(type_name)
    for accepted, shown in pairs:
        assert parse(accepted) == shown
        assert parse(accepted.upper()) == shown  # FromStr folds ASCII case
        assert parse(shown) == shown
    with pytest.raises(sc.InvalidValue) as info:
        parse("no such value")
    assert info.value.causes == [error]


def test_enum_defaults_are_among_their_displays() -> None:
    for v in VARS:
        inner = v.kind.removeprefix("OptionConfig<").removesuffix(">")
        if inner in gen.ENUMS and v.default != "":
            assert v.default in {shown for _, shown in gen.ENUMS[inner][1]}, v.name


def test_every_variable_the_code_names_is_in_the_table() -> None:
    cfg = sc.SessionConfig()
    # the typed accessors read these by name; each raises KeyError if one were missing
    for job_type in sc.PARALLELISM_JOB_TYPES:
        assert cfg.streaming_parallelism_for(job_type) == "default"
    for kind in sc.RATE_LIMIT_KINDS:
        assert cfg.rate_limit(kind) is None
    properties = [n for n, a in vars(sc.SessionConfig).items() if isinstance(a, property)]
    assert len(properties) >= 10
    for name in properties:
        getattr(cfg, name)
    names = {v.name for v in VARS}
    assert set(sc._SETTERS) <= names
    assert {"force_two_phase_agg", "enable_two_phase_agg"} <= names


def test_names_and_aliases_are_unique_and_lower_case() -> None:
    names = [v.name for v in VARS]
    aliases = [a for v in VARS for a in v.aliases]
    assert len(set(names)) == len(names)
    assert len(set(aliases)) == len(aliases)
    assert not set(names) & set(aliases)
    assert all(n == n.lower() and n.isascii() for n in names + aliases)


def test_the_variable_record_keeps_the_generated_fields() -> None:
    for e, var in zip(gen.VARIABLES, VARS, strict=True):
        assert (var.name, var.kind, var.default, var.aliases, var.flags, var.line) == (
            e.name,
            e.type,
            e.default,
            e.aliases,
            e.flags,
            e.line,
        )
        assert (var.check, var.deprecated, var.doc) == (e.check_hook, e.deprecated, e.description)


def test_no_show_all_entries_are_left_out_of_show_all_but_still_shown() -> None:
    hidden = [v.name for v in VARS if "NO_SHOW_ALL" in v.flags]
    cfg = sc.SessionConfig()
    shown = [row[0] for row in cfg.show_all()]
    assert shown == [v.name for v in VARS if v.name not in hidden]
    for name in hidden:
        cfg.get(name)


def test_no_alter_sys_follows_the_flag() -> None:
    for v in VARS:
        assert sc.SessionConfig.can_alter_system(v.name) == ("NO_ALTER_SYS" not in v.flags)


def test_deprecated_entries_send_their_notice() -> None:
    cfg = sc.SessionConfig()
    for v in VARS:
        if v.deprecated:
            assert cfg.set(v.name, v.default) == [v.deprecated]


def test_check_hook_failure_quotes_the_parsed_value() -> None:
    # session_config.rs:127-136: the hook sees the parsed value; its error quotes val.to_string()
    with pytest.raises(SessionConfigError) as info:
        sc.SessionConfig().set("streaming_parallelism_for_backfill", "AUTO")
    assert info.value.chain == [
        "Failed to get or set session config",
        "Invalid value `adaptive` for `streaming_parallelism_for_backfill`",
        "Only `default` or fixed backfill parallelism is supported here; adaptive backfill "
        "strategy is deferred to a later change.",
    ]
