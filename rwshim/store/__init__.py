"""SQLite meta store: schema, transactions, recovery on open."""
