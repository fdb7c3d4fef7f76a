"""rwshim.binder."""
