"""The typed statements' import surface: every statement class as ``st.<Name>``.

The classes live by family in ``rwshim.sql.ast`` (after RisingWave's src/sqlparser/src/ast/:
mod.rs, ddl.rs, statement.rs, query.rs, value.rs); this module re-exports them so callers write
``from rwshim.sql import statements as st`` and need not know which family a statement is in.
``all_statement_classes()`` lists them in the order SUPPORTED.md shows.

A family is imported when one of its names is first read (PEP 562 ``__getattr__`` over the
static ``FAMILY_OF`` table; tests/unit/sql/test_statement_families.py holds it equal to what
the families define): creating the ~100 frozen dataclasses was a third of start-up, and a
server answering ``SELECT 1`` needs only the query family (issue 16).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING

from rwshim.lazy import lazy_attributes
from rwshim.sql.ast.base import *  # noqa: F403
from rwshim.sql.ast.base import Statement

if TYPE_CHECKING:
    from rwshim.sql.ast.alter import *  # noqa: F403
    from rwshim.sql.ast.alter import _ALTER_TAGS as _ALTER_TAGS
    from rwshim.sql.ast.alter import _AlterObject as _AlterObject
    from rwshim.sql.ast.control import *  # noqa: F403
    from rwshim.sql.ast.create import *  # noqa: F403
    from rwshim.sql.ast.drop_grant import *  # noqa: F403
    from rwshim.sql.ast.drop_grant import _DROP_TAGS as _DROP_TAGS
    from rwshim.sql.ast.jobs import *  # noqa: F403
    from rwshim.sql.ast.maintenance import *  # noqa: F403
    from rwshim.sql.ast.query import *  # noqa: F403
    from rwshim.sql.ast.session import *  # noqa: F403
    from rwshim.sql.ast.show import *  # noqa: F403

# The families in the order SUPPORTED.md lists them (the order of the one module they came from).
FAMILIES = (
    "query",
    "session",
    "show",
    "jobs",
    "alter",
    "create",
    "drop_grant",
    "maintenance",
    "control",
)

# Each name a family exports (its ``__all__``, and the private helpers callers read) -> the
# family (a module of rwshim.sql.ast) that defines it.
FAMILY_OF: dict[str, str] = {
    # query
    "CloseCursor": "query",
    "Copy": "query",
    "DeclareCursor": "query",
    "DeclareSubscriptionCursor": "query",
    "Delete": "query",
    "Explain": "query",
    "ExplainAnalyzeStreamJob": "query",
    "FetchCursor": "query",
    "Insert": "query",
    "Query": "query",
    "Truncate": "query",
    "Update": "query",
    # session
    "Abort": "session",
    "Begin": "session",
    "Commit": "session",
    "Deallocate": "session",
    "Discard": "session",
    "Execute": "session",
    "Prepare": "session",
    "Rollback": "session",
    "SetTimeZone": "session",
    "SetTransaction": "session",
    "SetVariable": "session",
    "ShowVariable": "session",
    "StartTransaction": "session",
    "Use": "session",
    # show
    "Describe": "show",
    "DescribeFragment": "show",
    "ShowCreate": "show",
    "ShowObjects": "show",
    # jobs
    "Backup": "jobs",
    "CancelJobs": "jobs",
    "Flush": "jobs",
    "Kill": "jobs",
    "Recover": "jobs",
    "RefreshTable": "jobs",
    "Wait": "jobs",
    # alter
    "AlterBackfillParallelism": "alter",
    "AlterColumn": "alter",
    "AlterCompactionGroup": "alter",
    "AlterConnector": "alter",
    "AlterConnectorProps": "alter",
    "AlterDatabaseParam": "alter",
    "AlterDatabasePause": "alter",
    "AlterDefaultPrivileges": "alter",
    "AlterFragmentParallelism": "alter",
    "AlterFragmentRateLimit": "alter",
    "AlterFunction": "alter",
    "AlterKind": "alter",
    "AlterOperation": "alter",
    "AlterOwner": "alter",
    "AlterParallelism": "alter",
    "AlterRateLimit": "alter",
    "AlterRename": "alter",
    "AlterResetConfig": "alter",
    "AlterResourceGroup": "alter",
    "AlterRetention": "alter",
    "AlterSecretCredential": "alter",
    "AlterSetConfig": "alter",
    "AlterSetSchema": "alter",
    "AlterStreamingOption": "alter",
    "AlterSwap": "alter",
    "AlterSystem": "alter",
    "AlterSystemPause": "alter",
    "AlterTableRenameColumn": "alter",
    "AlterUser": "alter",
    "AlterViewQuery": "alter",
    "_ALTER_TAGS": "alter",
    "_AlterObject": "alter",
    # create
    "CreateConnection": "create",
    "CreateDatabase": "create",
    "CreateFunction": "create",
    "CreateIndex": "create",
    "CreateMaterializedView": "create",
    "CreateSchema": "create",
    "CreateSecret": "create",
    "CreateSink": "create",
    "CreateSource": "create",
    "CreateSubscription": "create",
    "CreateTable": "create",
    "CreateUser": "create",
    "CreateView": "create",
    "FormatEncode": "create",
    "IndexKey": "create",
    # drop_grant
    "Comment": "drop_grant",
    "Drop": "drop_grant",
    "Grant": "drop_grant",
    "Revoke": "drop_grant",
    "_DROP_TAGS": "drop_grant",
    # maintenance
    "Analyze": "maintenance",
    "Vacuum": "maintenance",
    # control
    "ControlBackfill": "control",
    "ControlClock": "control",
    "ControlFault": "control",
    "ControlFaults": "control",
    "ControlJobs": "control",
    "ControlPush": "control",
    "PushMessage": "control",
    "ControlRestart": "control",
    "ControlTick": "control",
}


def family(name: str) -> ModuleType:
    """The module of family ``name`` (one of FAMILIES), imported now if it was not."""
    return importlib.import_module(f"rwshim.sql.ast.{name}")


if not TYPE_CHECKING:
    __getattr__ = lazy_attributes(__name__, FAMILY_OF, "rwshim.sql.ast.")


def all_statement_classes() -> list[type[Statement]]:
    """Every concrete statement class: family by family, each in definition order (this
    imports every family)."""
    out: list[type[Statement]] = []
    for fam in FAMILIES:
        module = family(fam)
        for obj in vars(module).values():
            if (
                isinstance(obj, type)
                and issubclass(obj, Statement)
                and obj.__module__ == module.__name__
                and not obj.__name__.startswith("_")
            ):
                out.append(obj)
    return out
