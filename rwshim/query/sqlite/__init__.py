"""Everything that exists only because today's engine is SQLite (filled in below)."""
