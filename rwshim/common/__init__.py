"""What every layer of rwshim shares, as RisingWave's ``src/common`` is shared by its crates:
PostgreSQL's builtin types (``pgtypes``), RisingWave's type texts and column types (``rwtypes``),
identifier quoting and qualified names (``names``), the privilege model (``acl``), stored
passwords (``passwords``), session variables (``session_config`` over the generated
``session_vars_generated``), and what a statement produced before any wire (``outcome``).

Plain values and pure functions: nothing here imports another rwshim package but the leaves
(``errors``, ``lazy``), and nothing does I/O (tests/unit/test_layering.py).
"""
