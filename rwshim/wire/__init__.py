"""Sans-I/O PostgreSQL v3 server side (no asyncio, no sockets).

- ``connection``: ``ServerConnection``, the framing and protocol state table (bytes in,
  events out);
- ``events``: the frontend messages as dataclasses;
- ``backend``: encoders of the server's messages;
- ``codecs`` (with ``codec_text``, ``codec_binary``, ``codec_base``): Python values <-> text
  and binary wire forms of the builtin types;
- ``auth``: trust / cleartext / md5 / SCRAM-SHA-256 exchanges.
"""
