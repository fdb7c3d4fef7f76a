"""RisingWave's ``vector(n)`` is pgvector's (RisingWave's vector type and its distance
operators follow pgvector: src/common/src/types/vector.rs, src/expr/impl/src/scalar/
vector.rs); the embedded PostgreSQL ships pgvector, installed into ``rwfn``.  A PostgreSQL
without it (``--postgres-url``) leaves the type missing: a vector column is then PostgreSQL's
``type "vector" does not exist``, never another type.
"""

from __future__ import annotations

from rwshim.dataplane.plan.sqlfn.common import F, register

SQL = f"""
DO $vector$ BEGIN
    CREATE EXTENSION IF NOT EXISTS vector SCHEMA {F};
EXCEPTION WHEN undefined_file OR feature_not_supported OR insufficient_privilege THEN
    RAISE NOTICE 'pgvector is not available: vector columns cannot be made';
END $vector$;
"""

register(SQL)
