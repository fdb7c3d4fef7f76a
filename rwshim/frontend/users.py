"""CREATE USER and ALTER USER (their options, the password stored as RisingWave stores it,
RENAME TO).  GRANT / REVOKE are ``privilege``'s.

RisingWave: ``src/frontend/src/handler/create_user.rs``, ``handler/alter_user.rs``,
``src/sqlparser/src/parser.rs`` (parse_create_user, UserOption); the permission checks are the
engine's (``engine/users.py``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rwshim.common.outcome import Outcome
from rwshim.common.passwords import encrypted_password
from rwshim.frontend.common import Handler
from rwshim.sql import statements as st

if TYPE_CHECKING:
    from rwshim.frontend.frontend import Frontend

_USER_OPTION = re.compile(
    r"\b(NOSUPERUSER|SUPERUSER|NOCREATEDB|CREATEDB|NOCREATEUSER|CREATEUSER|NOLOGIN|LOGIN)\b"
    r"|\bPASSWORD\s+(NULL|'(?:[^']|'')*')",
    re.IGNORECASE,
)


def user_options(text: str) -> dict[str, object]:
    """CREATE USER options (parser.rs parse_create_user / UserOption)."""
    opts: dict[str, object] = {}
    for m in _USER_OPTION.finditer(text):
        if m.group(1):
            word = m.group(1).lower()
            if word.startswith("no"):
                opts[word[2:]] = False
            else:
                opts[word] = True
        else:
            pw = m.group(2)
            opts["password"] = None if pw.upper() == "NULL" else pw[1:-1].replace("''", "'")
    return opts


async def handle_create_user(fe: Frontend, stmt: st.CreateUser, params: list[object]) -> Outcome:
    opts = user_options(stmt.text)
    password = opts.get("password")
    stored = encrypted_password(stmt.user, password) if isinstance(password, str) else None
    return await fe.engine_call(
        stmt.tag,
        lambda: fe.instance.engine.users.create_user(
            fe.ctx(),
            stmt.user,
            superuser=opts.get("superuser", False) is True,
            create_db=opts.get("createdb", False) is True,
            create_user=opts.get("createuser", False) is True,
            login=opts.get("login", True) is True,
            auth_type=stored.auth_type if stored else None,
            auth_value=stored.value if stored else None,
        ),
    )


_RENAME_TO = re.compile(
    r"(?is)^\s*ALTER\s+USER\s+(?:\"(?:[^\"]|\"\")*\"|\S+)\s+RENAME\s+TO\s+(\"(?:[^\"]|\"\")*\"|[^\s;]+)"
)


async def handle_alter_user(fe: Frontend, stmt: st.AlterUser, params: list[object]) -> Outcome:
    m = _RENAME_TO.match(stmt.text)
    if m is not None:
        word = m.group(1)
        new = word[1:-1].replace('""', '"') if word.startswith('"') else word.lower()
        return await fe.engine_call(
            stmt.tag,
            lambda: fe.instance.engine.users.rename_user(fe.ctx(), stmt.user, new),
        )
    opts = user_options(stmt.text)
    flags = {k: v is True for k, v in opts.items() if k != "password"}
    auth: tuple[str | None, str | None] | None = None
    if "password" in opts:
        password = opts["password"]
        stored = encrypted_password(stmt.user, password) if isinstance(password, str) else None
        auth = (stored.auth_type, stored.value) if stored else (None, None)
    return await fe.engine_call(
        stmt.tag,
        lambda: fe.instance.engine.users.alter_user(fe.ctx(), stmt.user, flags=flags, auth=auth),
    )


HANDLERS: dict[type[st.Statement], Handler] = {
    st.CreateUser: handle_create_user,
    st.AlterUser: handle_alter_user,
}
