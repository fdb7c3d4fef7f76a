"""Read path: binder, sqlglot translation, catalog views, PostgreSQL functions, result types."""
