"""rwshim.cli.main."""
