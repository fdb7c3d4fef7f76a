"""Session variables: every variable set, shown, reset; every bad value's whole error chain."""

from __future__ import annotations

import pytest

from rwshim.common.session_config import (
    InvalidValue,
    SessionConfig,
    apply_startup,
    entry_name,
    parallelism,
    parse_startup_options,
    variables,
)
from rwshim.errors import SessionConfigError, StartupOptionError
from tests.unit.sql.session_cases import DEFAULTS, ERROR_CASES, SET_CASES


@pytest.mark.parametrize(("name", "shown"), sorted(DEFAULTS.items()))
def test_default(name: str, shown: str) -> None:
    assert SessionConfig().get(name) == shown


@pytest.mark.parametrize(("name", "value", "shown"), SET_CASES)
def test_set_show_reset(name: str, value: str, shown: str) -> None:
    cfg = SessionConfig()
    default = cfg.get(name)
    assert cfg.set(name, value) == []
    assert cfg.get(name) == shown
    cfg.reset(name)
    assert cfg.get(name) == default
    cfg.set(name, value)
    cfg.set(name, None)  # SET name = DEFAULT
    assert cfg.get(name) == default


@pytest.mark.parametrize(("name", "value", "chain"), ERROR_CASES)
def test_bad_value_error_chain(name: str, value: str, chain: list[str]) -> None:
    cfg = SessionConfig()
    before = [row[1] for row in cfg.show_all()]
    with pytest.raises(SessionConfigError) as info:
        cfg.set(name, value)
    assert info.value.chain == chain
    assert info.value.code == "XX000"
    assert [row[1] for row in cfg.show_all()] == before  # a failed SET changes nothing


def test_error_report_matches_risingwave_ui() -> None:
    # e2e_test/error_ui/simple/main.slt: `set rw_implicit_flush to maybe;`
    with pytest.raises(SessionConfigError) as info:
        SessionConfig().set("rw_implicit_flush", "maybe")
    assert info.value.report() == (
        "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Failed to get or set session config\n"
        "  2: Invalid value `maybe` for `implicit_flush`\n"
        "  3: Invalid bool\n"
    )


def test_every_variable_round_trips_its_default() -> None:
    cfg = SessionConfig()
    for var in variables():
        cfg.set(var.name, var.default)
        assert cfg.get(var.name) == var.default, var.name
        if var.alias:
            assert cfg.get(var.alias) == var.default


def test_list_values_join_with_comma_space() -> None:
    cfg = SessionConfig()
    cfg.set("search_path", ["s1", "public"])
    assert cfg.get("search_path") == "s1, public"
    assert cfg.search_path == ["pg_catalog", "rw_catalog", "s1", "public"]
    cfg.set("search_path", ["rw_catalog", "pg_catalog"])
    assert cfg.search_path == ["rw_catalog", "pg_catalog"]


def test_deprecated_variable_notice() -> None:
    notice = (
        "The session variable STREAMING_USE_ARRANGEMENT_BACKFILL has been deprecated and is "
        "ignored. Arrangement backfill is always used as the fallback backfill type for new "
        "streaming jobs."
    )
    cfg = SessionConfig()
    assert cfg.set("streaming_use_arrangement_backfill", "false") == [notice]
    assert cfg.set("STREAMING_USE_ARRANGEMENT_BACKFILL", None) == [notice]


def test_show_all_rows() -> None:
    rows = SessionConfig().show_all()
    assert len(rows) == len(variables()) == 85
    assert rows[0] == (
        "implicit_flush",
        "false",
        "If `RW_IMPLICIT_FLUSH` is on, then every INSERT/UPDATE/DELETE statement will block "
        "until the entire dataflow is refreshed. In other words, every related table & MV will "
        "be able to see the write.",
    )
    names = [r[0] for r in rows]
    assert "datestyle" in names and "date_style" not in names  # `rename` wins
    assert len(set(names)) == len(names)


def test_aliases_and_case() -> None:
    assert entry_name("RW_IMPLICIT_FLUSH") == "implicit_flush"
    assert entry_name("rw_streaming_enable_delta_join") == "streaming_enable_delta_join"
    assert entry_name("TimeZone") == "timezone"


def test_two_phase_agg_settings_stay_consistent() -> None:
    cfg = SessionConfig()
    cfg.set("enable_two_phase_agg", "false")
    cfg.set("force_two_phase_agg", "true")
    assert cfg.get("enable_two_phase_agg") == "true"


def test_cluster_defaults_from_alter_system() -> None:
    cfg = SessionConfig(defaults={"streaming_parallelism": "4"})
    assert cfg.get("streaming_parallelism") == "4"
    cfg.set("streaming_parallelism", "2")
    cfg.reset("streaming_parallelism")
    # reset assigns the declared default, not ALTER SYSTEM's (proc_macro session_config.rs:198-202)
    assert cfg.get("streaming_parallelism") == "default"
    assert SessionConfig.alter_system_notice("streaming_parallelism", "4") == (
        "The config streaming_parallelism of the current session has already been set to 4"
    )
    assert SessionConfig.alter_system_notice("x", None) == (
        "The config x of the current session has already been reset to default"
    )
    assert not SessionConfig.can_alter_system("disable_purify_definition")
    assert SessionConfig.can_alter_system("streaming_parallelism")


def test_typed_accessors() -> None:
    cfg = SessionConfig()
    assert cfg.rate_limit("backfill") is None
    cfg.set("backfill_rate_limit", "0")
    assert cfg.rate_limit("backfill") == 0
    assert cfg.streaming_max_parallelism == 256
    assert cfg.background_ddl is False
    cfg.set("streaming_parallelism_for_materialized_view", "bounded(8)")
    assert cfg.streaming_parallelism_for("materialized_view") == "bounded(8)"
    assert cfg.implicit_flush is False and cfg.streaming_use_snapshot_backfill is True
    assert cfg.statement_timeout_ms == 0


def test_application_name_reports_but_risingwave_does_not_resend_it() -> None:
    cfg = SessionConfig()
    cfg.set("application_name", "dbt")
    assert cfg.take_reports() == [("application_name", "dbt")]
    cfg.set("application_name", "other")
    # handler/variable.rs:62-68 forwards only key "APPLICATION_NAME"; the key is lower case.
    assert cfg.parameter_status_changes() == []


def test_startup_options() -> None:
    # the cases of pg_protocol.rs's own test_parse_options
    assert parse_startup_options("") == []
    assert parse_startup_options("-c a=1 -c b=2") == [("a", "1"), ("b", "2")]
    assert parse_startup_options("-c   key=value") == [("key", "value")]
    assert parse_startup_options("-c key='value'") == [("key", "'value'")]
    assert parse_startup_options(r"-c search_path=my\ schema") == [("search_path", "my schema")]
    assert parse_startup_options("--foo=bar") == [("foo", "bar")]
    assert parse_startup_options("-c a=1 --b-c=2 -cx=1") == [("a", "1"), ("b_c", "2")]
    assert parse_startup_options("-c a=b\\") == [("a", "b")]  # unpaired trailing backslash
    for bad, cause in [
        ("-c", "missing argument for -c"),
        ("-c foo", "invalid config format: foo"),
        ("--foo", "invalid config format: foo"),
    ]:
        with pytest.raises(StartupOptionError) as info:
            parse_startup_options(bad)
        assert info.value.chain == ["Failed to start a new session", cause]
        assert info.value.severity == "FATAL"


def test_apply_startup() -> None:
    cfg = SessionConfig()
    apply_startup(cfg, "-c search_path=s1 -c application_name=x", "dbt")
    assert cfg.get("search_path") == "s1"
    assert cfg.get("application_name") == "dbt"
    with pytest.raises(StartupOptionError) as info:
        apply_startup(SessionConfig(), "-c rw_implicit_flush=maybe", None)
    assert info.value.chain == [
        "Failed to start a new session",
        "Failed to get or set session config",
        "Invalid value `maybe` for `implicit_flush`",
        "Invalid bool",
    ]


def test_show_columns_and_rows() -> None:
    cfg = SessionConfig()
    assert cfg.show("streaming_parallelism") == (["Name"], [("default",)])
    assert cfg.show("transaction_isolation") == (["Name"], [("read committed",)])
    cols, rows = cfg.show("ALL")
    assert cols == ["Name", "Setting", "Description"] and rows == cfg.show_all()
    assert cfg.show("parameters")[0] == ["Name", "Value", "Description", "Mutable"]
    with pytest.raises(SessionConfigError) as info:
        cfg.show("time zone")  # `SHOW TIME ZONE` reads an entry named "time zone"
    assert info.value.chain == [
        "Failed to get or set session config",
        "Unrecognized config entry `time zone`",
    ]


def test_parallelism_parser_for_alter() -> None:
    assert parallelism("BOUNDED(4)") == "bounded(4)"
    assert parallelism("0") == "adaptive"
    with pytest.raises(InvalidValue) as info:
        parallelism("bounded(4, 5)")
    assert info.value.compact() == "Parse error: invalid digit found in string"
