"""Tree to statements: the lark tree of grammar/risingwave.lark turned into typed statements.

``Build`` is one lark ``Transformer`` composed of a rule class per statement family, laid out
as src/sqlparser/src/parser.rs lays out its parse functions (each module names its sections):

- ``base``: state and token helpers (``BuildBase``); ``values``: names, SET values, WITH
  options, rate limits (``ValueRules``)
- ``alter`` (``AlterRules``), ``create`` (``CreateRules``: tables, views, materialized views,
  indexes, functions), ``connectors`` (``ConnectorRules``: sources, sinks, subscriptions,
  connections, secrets), ``drop_grant`` (``DropGrantRules``: DROP), ``privileges``
  (``PrivilegeRules``: GRANT, REVOKE, ALTER DEFAULT PRIVILEGES)
- ``session`` (``SessionRules``: SET, USE), ``show`` (``ShowRules``: SHOW, DESCRIBE),
  ``jobs`` (``JobRules``: CANCEL, KILL, WAIT, FLUSH, ...), ``control`` (``ControlRules``)

lark calls the method named after each rule or alias, found on whichever family defines it; no
two families define the same name.  Value checks RisingWave's parser makes while reading (rate
limits fit in i32, fragment and job ids in u32, option values are literals) raise its parse
errors here, located at the token.
"""

from __future__ import annotations

from typing import Any

from rwshim.sql import statements as st
from rwshim.sql.builder.alter import AlterRules
from rwshim.sql.builder.connectors import ConnectorRules
from rwshim.sql.builder.control import ControlRules
from rwshim.sql.builder.create import CreateRules
from rwshim.sql.builder.drop_grant import DropGrantRules
from rwshim.sql.builder.jobs import JobRules
from rwshim.sql.builder.privileges import PrivilegeRules
from rwshim.sql.builder.session import SessionRules
from rwshim.sql.builder.show import ShowRules
from rwshim.sql.builder.values import ValueRules


class Build(
    ValueRules,
    AlterRules,
    CreateRules,
    ConnectorRules,
    DropGrantRules,
    PrivilegeRules,
    SessionRules,
    ShowRules,
    JobRules,
    ControlRules,
):
    """Turns the lark tree of one statement into its typed statement."""

    def start(self, c: list[Any]) -> st.Statement:
        out = c[0]
        assert isinstance(out, st.Statement)
        return out


__all__ = ["Build"]
