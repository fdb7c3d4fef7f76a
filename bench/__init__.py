"""Side-by-side benchmarks of rwshim against PostgreSQL (see README.md)."""
