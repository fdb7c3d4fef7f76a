"""Which handler module of rwshim/frontend/ answers each statement kind, as RisingWave's
``handle()`` picks a handler per ``Statement`` variant (src/frontend/src/handler/mod.rs).

A handler module is imported the first time a session dispatches one of its statements, not
when the server starts (issue 16: a server answering ``SELECT 1`` needs only ``query``).  The
static ``MODULE_OF`` table says where each kind's handler lives;
tests/unit/test_frontend_dispatch.py holds it equal to the modules' ``HANDLERS``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

# The handler modules, in RisingWave's handler/ layout; a later one never overrides an
# earlier one's statement (tests/unit/test_frontend_dispatch.py holds that).
MODULES = (
    "query",
    "variables",
    "use_db",
    "show",
    "explain",
    "create",
    "secrets",
    "functions",
    "subscriptions",
    "users",
    "privilege",
    "alter",
    "alter_columns",
    "drop",
    "jobs",
    "maintenance",
)

# Statement class name -> the module (of rwshim.frontend) whose HANDLERS has it.
MODULE_OF: dict[str, str] = {
    # query
    "Query": "query",
    "Copy": "query",
    "Insert": "query",
    "Update": "query",
    "Delete": "query",
    "DeclareCursor": "query",
    "FetchCursor": "query",
    "CloseCursor": "query",
    # variables
    "SetVariable": "variables",
    "SetTimeZone": "variables",
    "SetTransaction": "variables",
    "ShowVariable": "variables",
    "Begin": "variables",
    "StartTransaction": "variables",
    "Commit": "variables",
    "Rollback": "variables",
    "Abort": "variables",
    "Discard": "variables",
    "Prepare": "variables",
    "Deallocate": "variables",
    # use_db
    "Use": "use_db",
    # show
    "ShowObjects": "show",
    "ShowCreate": "show",
    "Describe": "show",
    # explain
    "Explain": "explain",
    "ExplainAnalyzeStreamJob": "explain",
    "DescribeFragment": "explain",
    # create
    "CreateTable": "create",
    "CreateMaterializedView": "create",
    "CreateView": "create",
    "CreateSource": "create",
    "CreateSink": "create",
    "CreateIndex": "create",
    "CreateSchema": "create",
    "CreateDatabase": "create",
    # secrets
    "CreateSecret": "secrets",
    "AlterSecretCredential": "secrets",
    "CreateConnection": "secrets",
    "AlterConnectorProps": "secrets",
    # functions
    "CreateFunction": "functions",
    "AlterFunction": "functions",
    # subscriptions
    "CreateSubscription": "subscriptions",
    "AlterRetention": "subscriptions",
    "DeclareSubscriptionCursor": "subscriptions",
    # users
    "CreateUser": "users",
    "AlterUser": "users",
    # privilege
    "Grant": "privilege",
    "Revoke": "privilege",
    "AlterDefaultPrivileges": "privilege",
    # alter
    "AlterParallelism": "alter",
    "AlterBackfillParallelism": "alter",
    "AlterRateLimit": "alter",
    "AlterResourceGroup": "alter",
    "AlterSetConfig": "alter",
    "AlterResetConfig": "alter",
    "AlterRename": "alter",
    "AlterSwap": "alter",
    "AlterOwner": "alter",
    "AlterSetSchema": "alter",
    "AlterDatabaseParam": "alter",
    "AlterDatabasePause": "alter",
    "AlterSystemPause": "alter",
    "AlterSystem": "alter",
    "AlterFragmentParallelism": "alter",
    "AlterFragmentRateLimit": "alter",
    # alter_columns
    "AlterColumn": "alter_columns",
    "AlterConnector": "alter_columns",
    "AlterViewQuery": "alter_columns",
    # drop
    "Drop": "drop",
    "Comment": "drop",
    # jobs
    "CancelJobs": "jobs",
    "Kill": "jobs",
    "Wait": "jobs",
    "Flush": "jobs",
    "Recover": "jobs",
    # maintenance
    "Truncate": "maintenance",
    "Analyze": "maintenance",
    "Execute": "maintenance",
    "RefreshTable": "maintenance",
    "Vacuum": "maintenance",
    "Backup": "maintenance",
    "AlterCompactionGroup": "maintenance",
    "AlterStreamingOption": "maintenance",
    "AlterTableRenameColumn": "maintenance",
}


def module(name: str) -> ModuleType:
    """Handler module ``name`` (one of MODULES), imported now if it was not."""
    return importlib.import_module(f"rwshim.frontend.{name}")


def handler_modules() -> tuple[ModuleType, ...]:
    """Every handler module, in MODULES order (imports them all: for SUPPORTED.md and the
    tests, not the start path)."""
    return tuple(module(name) for name in MODULES)
