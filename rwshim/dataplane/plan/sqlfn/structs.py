"""Casts between struct types, which PostgreSQL's composite types lack.

RisingWave casts a struct to another of as many fields field by field, by position, names
aside, in the context the cast is made in: a field of the same type always, another only where
that field's cast is allowed in the context (src/frontend/src/expr/type_inference/cast.rs
``cast_struct``); so ``INSERT INTO t2 SELECT * FROM t1`` casts ``struct<v1 int>`` into
``struct<v1 varchar>`` (an assignment cast) and ``v::struct<a varchar>`` is an explicit one.

When the data plane makes a struct's composite type (dataplane/plan/typemap.py), ``rw_struct_
casts`` adds a PostgreSQL cast between it and every other struct composite of as many fields,
both ways, whose every field pair has a cast: an SQL function building the target row from the
source's fields cast one by one, declared in the most restrictive of the fields' contexts
(PostgreSQL's ``pg_cast.castcontext`` of each field pair: ``i`` implicit, ``a`` assignment,
``e`` explicit; a pair of one type is implicit; to a string type without a pg_cast row is an
assignment and from one explicit, as PostgreSQL's I/O conversions; lists by their elements;
nested structs by the cast made for them before, innermost first).
"""

from __future__ import annotations

from rwshim.dataplane.plan.sqlfn.common import F, register

SQL = f"""
CREATE OR REPLACE FUNCTION {F}.rw_cast_context(src oid, dst oid) RETURNS "char"
    LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
DECLARE
    c "char";
    se oid;
    de oid;
BEGIN
    IF src = dst THEN
        RETURN 'i';
    END IF;
    SELECT castcontext INTO c FROM pg_catalog.pg_cast
        WHERE castsource = src AND casttarget = dst;
    IF c IS NOT NULL THEN
        RETURN c;
    END IF;
    SELECT t.typelem INTO se FROM pg_catalog.pg_type t
        WHERE t.oid = src AND t.typcategory = 'A';
    SELECT t.typelem INTO de FROM pg_catalog.pg_type t
        WHERE t.oid = dst AND t.typcategory = 'A';
    IF se IS NOT NULL AND de IS NOT NULL THEN
        RETURN {F}.rw_cast_context(se, de);
    END IF;
    IF dst IN ('text'::regtype, 'varchar'::regtype) THEN
        RETURN 'a';
    END IF;
    IF src IN ('text'::regtype, 'varchar'::regtype) THEN
        RETURN 'e';
    END IF;
    RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION {F}.rw_struct_cast(src regtype, dst regtype) RETURNS void
    LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    ctx "char" := 'i';
    c "char";
    fields text[] := '{{}}';
    f record;
    fn text;
BEGIN
    IF EXISTS (SELECT 1 FROM pg_catalog.pg_cast WHERE castsource = src AND casttarget = dst)
    THEN
        RETURN;
    END IF;
    FOR f IN
        SELECT s.attname AS sname, s.atttypid AS stype, d.atttypid AS dtype,
            pg_catalog.format_type(d.atttypid, d.atttypmod) AS dshow
        FROM pg_catalog.pg_attribute s
        JOIN pg_catalog.pg_attribute d ON d.attnum = s.attnum
        WHERE s.attrelid = (SELECT typrelid FROM pg_catalog.pg_type WHERE oid = src)
          AND d.attrelid = (SELECT typrelid FROM pg_catalog.pg_type WHERE oid = dst)
          AND s.attnum > 0 AND NOT s.attisdropped AND NOT d.attisdropped
        ORDER BY s.attnum
    LOOP
        c := {F}.rw_cast_context(f.stype, f.dtype);
        IF c IS NULL THEN
            RETURN;  -- a field pair without a cast: no cast between the structs
        END IF;
        IF c = 'e' OR (c = 'a' AND ctx = 'i') THEN
            ctx := c;
        END IF;
        fields := fields || pg_catalog.format('($1).%I::%s', f.sname, f.dshow);
    END LOOP;
    fn := 'rw_c_' || (SELECT typname FROM pg_catalog.pg_type WHERE oid = src)
        || '_' || (SELECT typname FROM pg_catalog.pg_type WHERE oid = dst);
    EXECUTE pg_catalog.format(
        'CREATE FUNCTION {F}.%I(%s) RETURNS %s LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE'
        ' AS %L', fn, src, dst,
        'SELECT ROW(' || pg_catalog.array_to_string(fields, ', ') || ')::' || dst::text);
    EXECUTE pg_catalog.format('CREATE CAST (%s AS %s) WITH FUNCTION {F}.%I(%s)%s', src, dst, fn,
        src, CASE ctx WHEN 'i' THEN ' AS IMPLICIT' WHEN 'a' THEN ' AS ASSIGNMENT' ELSE '' END);
EXCEPTION WHEN duplicate_object OR duplicate_function OR unique_violation THEN
    NULL;  -- made by another session meanwhile
END $$;
CREATE OR REPLACE FUNCTION {F}.rw_struct_casts(t regtype) RETURNS void
    LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    other regtype;
BEGIN
    FOR other IN
        SELECT o.oid::regtype FROM pg_catalog.pg_type o
        WHERE o.typnamespace = '{F}'::regnamespace AND o.typtype = 'c'
          AND o.typname LIKE 'rw\\_s%' AND o.oid <> t
          AND (SELECT count(*) FROM pg_catalog.pg_attribute a
               WHERE a.attrelid = o.typrelid AND a.attnum > 0 AND NOT a.attisdropped)
            = (SELECT count(*) FROM pg_catalog.pg_attribute a
               WHERE a.attrelid = (SELECT typrelid FROM pg_catalog.pg_type WHERE oid = t)
                 AND a.attnum > 0 AND NOT a.attisdropped)
    LOOP
        PERFORM {F}.rw_struct_cast(other, t);
        PERFORM {F}.rw_struct_cast(t, other);
    END LOOP;
END $$;
"""

register(SQL)
