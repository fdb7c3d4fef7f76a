"""rwshim.common."""
