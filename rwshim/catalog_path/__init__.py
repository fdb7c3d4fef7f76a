"""rwshim.catalog_path."""
