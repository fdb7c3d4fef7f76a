"""CREATE USER and ALTER USER (their options, the password stored as RisingWave stores it,
RENAME TO).  GRANT / REVOKE are ``privilege``'s.

RisingWave: ``src/frontend/src/handler/create_user.rs``, ``handler/alter_user.rs``,
``src/sqlparser/src/parser.rs`` (parse_create_user, UserOption); the permission checks are the
engine's (``engine/users.py``).
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from rwshim.common.outcome import Outcome
from rwshim.common.passwords import encrypted_password
from rwshim.errors import InvalidParameterValue
from rwshim.frontend.common import Handler
from rwshim.sql import statements as st
from rwshim.sql.tokens import tokenize
from rwshim.sql.user_options import UserOption
from rwshim.sql.user_options import parse as parse_user_options

if TYPE_CHECKING:
    from rwshim.frontend.frontend import Frontend


def user_options(text: str) -> list[UserOption]:
    """The options of a CREATE / ALTER USER the parser accepted (rwshim.sql.user_options)."""
    toks = tokenize(text)
    return parse_user_options(text, toks[:-1], 3, toks[-1])


def _auth(name: str, option: UserOption) -> tuple[tuple[str | None, str | None], str | None]:
    """The stored (auth_type, auth_value) of a password option and its notice
    (create_user.rs:100-126, alter_user.rs:112-137)."""
    if option.kind == "oauth":
        meta = dict(option.metadata)
        if "jwks_url" not in meta or "issuer" not in meta:
            # user_authentication.rs:37-50 build_oauth_info
            raise InvalidParameterValue("jwks_url and issuer must be provided")
        return ("oauth", json.dumps(meta, sort_keys=True)), None
    stored = encrypted_password(name, option.value) if option.value else None
    if stored is None:
        return (None, None), "empty string is not a valid password, clearing password"
    return (stored.auth_type, stored.value), None


async def handle_create_user(fe: Frontend, stmt: st.CreateUser, params: list[object]) -> Outcome:
    flags: dict[str, bool] = {"login": True}  # LOGIN is implied (create_user.rs:45-46)
    auth: tuple[str | None, str | None] = (None, None)
    notices: list[str] = []
    for option in user_options(stmt.text):
        if option.kind in ("password", "encrypted_password", "oauth"):
            auth, notice = _auth(stmt.user, option)
            notices += [notice] if notice else []
        else:
            flags[option.kind.removeprefix("no")] = not option.kind.startswith("no")
    if flags.get("admin") and not flags.get("superuser"):
        # create_user.rs:129-133 (the engine makes the admin a superuser after its checks)
        notices.append("Admin users are always superusers")
    out = await fe.engine_call(
        stmt.tag,
        lambda: fe.instance.engine.users.create_user(
            fe.ctx(),
            stmt.user,
            superuser=flags.get("superuser", False),
            create_db=flags.get("createdb", False),
            create_user=flags.get("createuser", False),
            login=flags["login"],
            admin=flags.get("admin", False),
            auth_type=auth[0],
            auth_value=auth[1],
        ),
    )
    out.notices[:0] = notices
    return out


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
    flags: dict[str, bool] = {}
    auth: tuple[str | None, str | None] | None = None
    options = user_options(stmt.text)
    for option in options:
        if option.kind in ("password", "encrypted_password", "oauth"):
            # the notice of an empty password is the engine's (alter_user.rs:116-136)
            auth = _auth(stmt.user, option)[0]
        else:
            flags[option.kind.removeprefix("no")] = not option.kind.startswith("no")
    return await fe.engine_call(
        stmt.tag,
        lambda: fe.instance.engine.users.alter_user(fe.ctx(), stmt.user, flags=flags, auth=auth),
    )


HANDLERS: dict[type[st.Statement], Handler] = {
    st.CreateUser: handle_create_user,
    st.AlterUser: handle_alter_user,
}
