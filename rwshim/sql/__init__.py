"""SQL front end: split, classify, pglast for PostgreSQL syntax, lark for grammar/, typed statements."""
