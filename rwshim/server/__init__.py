"""The server: one connection's whole lifecycle over asyncio, as RisingWave's
``src/utils/pgwire`` (``pg_server.rs``, ``pg_protocol.rs``) runs it: the listener (accept, TLS,
cancel keys, the barrier loop, shutdown), the connection (bytes in and out, start-up, login),
the session (the simple and extended query flows over a ``Frontend``), prepared statements and
portals, Bind parameters, and ``shortcuts/``: answers sent again from kept bytes (issue 16).
The only package besides the data plane and the dashboard that owns sockets."""
