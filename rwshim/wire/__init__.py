"""Sans-I/O PostgreSQL v3 server side: messages, codec, connection state table."""
