"""rwshim.control.statements."""
