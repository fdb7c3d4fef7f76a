"""rwshim.server.listener.shortcuts."""
