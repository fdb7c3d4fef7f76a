"""rwshim.server.listener."""
