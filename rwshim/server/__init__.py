"""The PostgreSQL server side over asyncio: RisingWave's src/utils/pgwire (pg_server.rs,
pg_protocol.rs) plus the session registry of src/frontend/src/session.rs.

- ``listener.py``: ``Server`` (listen, TLS context, accept, barrier loop, shutdown);
- ``connection.py``: ``ClientProtocol``, one connection from start-up and login to its end;
- ``session.py``: the simple and extended query flows over a ``Frontend``;
- ``portals.py``: prepared statements, portals, the process record; ``params.py``: Bind
  parameters; ``registry.py``: the live sessions (PROCESSLIST, KILL, CancelRequest);
- ``shortcuts/``: answers sent from kept bytes (issue 16).

Imports run one way: listener -> connection -> session -> shortcuts, portals, params;
registry -> portals (and session, for types).  Nothing here is imported by the layers below.
"""
