"""CREATE / ALTER / DROP SECRET and CONNECTION: the statements handed to ``engine.secrets``
(and ``engine.ddl`` for DROP, which may take the objects that use one along).

RisingWave: ``src/frontend/src/handler/create_secret.rs``, ``alter_secret.rs``,
``drop_secret.rs``, ``create_connection.rs``, ``alter_connection_props.rs``,
``drop_connection.rs``, and the SECRET / CONNECTION arms of ``alter_owner.rs`` and
``alter_set_schema.rs`` (dispatched from ``rwshim.frontend.alter``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rwshim.common.outcome import Outcome
from rwshim.errors import InvalidInputSyntax
from rwshim.frontend.common import Handler, engine_name
from rwshim.sql import statements as st

if TYPE_CHECKING:
    from rwshim.frontend.frontend import Frontend


async def handle_create_secret(
    fe: Frontend, stmt: st.CreateSecret, params: list[object]
) -> Outcome:
    return await fe.engine_call(
        stmt.tag,
        lambda: fe.instance.engine.secrets.create_secret(
            fe.ctx(),
            engine_name(stmt.name, fe.database),
            stmt.with_options,
            stmt.credential,
            if_not_exists=stmt.if_not_exists,
        ),
    )


async def handle_alter_secret(
    fe: Frontend, stmt: st.AlterSecretCredential, params: list[object]
) -> Outcome:
    return await fe.engine_call(
        stmt.tag,
        lambda: fe.instance.engine.secrets.alter_secret(
            fe.ctx(), engine_name(stmt.name, fe.database), stmt.with_options, stmt.credential
        ),
    )


async def handle_create_connection(
    fe: Frontend, stmt: st.CreateConnection, params: list[object]
) -> Outcome:
    return await fe.engine_call(
        stmt.tag,
        lambda: fe.instance.engine.secrets.create_connection(
            fe.ctx(),
            engine_name(stmt.name, fe.database),
            stmt.with_options,
            if_not_exists=stmt.if_not_exists,
        ),
    )


async def handle_alter_connector_props(
    fe: Frontend, stmt: st.AlterConnectorProps, params: list[object]
) -> Outcome:
    if stmt.kind != "CONNECTION":
        # a source, table with connector or sink (alter_source_props.rs, alter_sink_props.rs)
        return await fe.engine_call(
            stmt.tag,
            lambda: fe.instance.engine.alter_props.alter(
                fe.ctx(), stmt.kind.lower(), engine_name(stmt.name, fe.database), stmt.with_options
            ),
        )
    if any(k.lower() == "connection" for k, _ in stmt.with_options):
        # alter_connection_props.rs:56-61
        raise InvalidInputSyntax(
            "ALTER CONNECTION CONNECTOR does not support nested CONNECTION references"
        )
    return await fe.engine_call(
        stmt.tag,
        lambda: fe.instance.engine.secrets.alter_connection_props(
            fe.ctx(), engine_name(stmt.name, fe.database), stmt.with_options
        ),
    )


HANDLERS: dict[type[st.Statement], Handler] = {
    st.CreateSecret: handle_create_secret,
    st.AlterSecretCredential: handle_alter_secret,
    st.CreateConnection: handle_create_connection,
    st.AlterConnectorProps: handle_alter_connector_props,
}
