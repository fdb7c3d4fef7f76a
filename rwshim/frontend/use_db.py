"""USE <database> and SET database: the session moves to another database.

RisingWave: ``src/frontend/src/handler/use_db.rs`` (the name is one identifier, the database
must exist and the user needs CONNECT on it unless superuser or owner; the notice, search_path
reset to its default, the session's database changed) and ``handler/mod.rs:700-721`` (``SET
database = <name>`` runs the same handler and answers SET_VARIABLE with its notices; ``SET
database TO DEFAULT`` looks for a database named ``default``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rwshim.common.names import resolve_single_name
from rwshim.common.outcome import Outcome
from rwshim.errors import CatalogNotFound, PermissionDenied
from rwshim.frontend.common import Handler
from rwshim.sql import statements as st

if TYPE_CHECKING:
    from rwshim.frontend.frontend import Frontend


def use_database(fe: Frontend, database: str) -> list[str]:
    """Move the session to ``database``; the notices to send."""
    reader = fe.instance.catalog_reader
    db = reader.database_by_name(database)
    if db is None:
        raise CatalogNotFound("database", database)
    if not (fe.is_superuser or db.owner_id == fe.user_id or reader.can_connect(fe.user_id, db.id)):
        # privilege.rs:44-63 ObjectCheckItem::error_message (the action in Debug form).
        raise PermissionDenied(f'permission denied for database "{database}": "CONNECT"')
    notice = f'You are now connected to database "{database}" as user "{fe.user}".'
    fe.config.reset("search_path")
    fe.move_to_database(database, db.id)
    return [notice]


def handle_use(fe: Frontend, stmt: st.Use, params: list[object]) -> Outcome:
    database = resolve_single_name(stmt.database.parts, "database name")
    return Outcome(stmt.tag, notices=use_database(fe, database))


HANDLERS: dict[type[st.Statement], Handler] = {
    st.Use: handle_use,
}
