"""datagen tables and sources under the manual clock: rows at barrier pace
(``datagen.rows.per.second`` per second, one interval tick per barrier), RisingWave's sequence
values split by ``datagen.split.num``, the split stopping at a sequence's end.  RisingWave:
src/connector/src/source/datagen/source/generator.rs, reader.rs,
src/common/src/field_generator/numeric.rs."""

from __future__ import annotations

import pytest

from rwshim.dataplane.sources import datagen
from rwshim.testing import RwShim
from tests.datapath.conftest import Client


def test_sequences_split_and_end(rw: RwShim, db: Client) -> None:
    db.run(
        "CREATE TABLE g (a int, b double precision, c varchar) WITH (connector = 'datagen',"
        " fields.a.kind = 'sequence', fields.a.start = '1', fields.a.end = '7',"
        " fields.b.kind = 'sequence', fields.b.start = '0.5', fields.c.length = '4',"
        " datagen.rows.per.second = '3', datagen.split.num = '2') FORMAT PLAIN ENCODE JSON"
    )
    assert db.rows("SELECT count(*) FROM g") == [(0,)]
    # split 0 makes 2 rows a second (a = 1 + 2 * offset), split 1 one (a = 2 + 2 * offset)
    rw.tick()
    assert db.rows("SELECT a, b, length(c) FROM g ORDER BY a") == [
        (1, 0.5, 4), (2, 1.5, 4), (3, 2.5, 4),
    ]  # fmt: skip
    rw.tick()
    assert db.rows("SELECT a FROM g ORDER BY a") == [(1,), (2,), (3,), (4,), (5,), (7,)]
    # split 0 passes its end (9 > 7) and stops; split 1 makes 6, then stops at 8
    rw.tick(3)
    assert db.rows("SELECT a, b FROM g ORDER BY a") == [
        (1, 0.5), (2, 1.5), (3, 2.5), (4, 3.5), (5, 4.5), (6, 5.5), (7, 6.5),
    ]  # fmt: skip


def test_default_rate_and_mv_over_source(rw: RwShim, db: Client) -> None:
    db.run("CREATE SOURCE s (a bigint) WITH (connector = 'datagen', fields.a.kind = 'sequence')")
    db.run("CREATE TABLE t (x smallint) WITH (connector = 'datagen', fields.x.kind = 'sequence',"
           " fields.x.start = '100')")  # fmt: skip
    rw.tick()
    (n0,) = db.rows("SELECT count(*) FROM t")[0]
    rw.tick(2)  # ten rows a second by default, a second per barrier
    assert db.rows("SELECT count(*), min(x), max(x) FROM t") == [(n0 + 20, 100, 99 + n0 + 20)]
    db.run("SET BACKGROUND_DDL = true")
    db.run("CREATE MATERIALIZED VIEW m AS SELECT count(*) AS n, min(a) AS lo FROM s")
    rw.tick(3)
    n, lo = db.rows("SELECT n, lo FROM m")[0]
    assert lo == 0 and n % 10 == 0 and n >= 30


def test_random_values_in_bounds_and_seeded() -> None:
    cols = [("r", "integer", True), ("f", "real", True)]
    opts = {"fields.r.min": "5", "fields.r.max": "9", "fields.r.seed": "42",
            "fields.f.min": "1", "fields.f.max": "2"}  # fmt: skip
    rows = datagen.datagen(cols, opts, lambda: 0).due(0)
    again = datagen.datagen(cols, opts, lambda: 0).due(0)
    assert len(rows) == 10 and rows == again
    assert all(5 <= r["r"] <= 9 and 1 <= r["f"] <= 2 for r in rows)  # type: ignore[operator]


def test_bad_options_produce_nothing() -> None:
    with pytest.raises(datagen.GeneratorError, match="assertion failed: start <= end"):
        datagen.datagen(
            [("a", "integer", True)],
            {"fields.a.kind": "sequence", "fields.a.start": "5", "fields.a.end": "1"},
            lambda: 0,
        )
    with pytest.raises(datagen.GeneratorError, match="unimplemented field generator boolean"):
        datagen.datagen([("a", "boolean", True)], {}, lambda: 0)


def test_struct_and_list_fields(rw: RwShim, db: Client) -> None:
    """e2e_test/source_inline/kafka/datagen.slt's struct and list tables (reader.rs:282-318)."""
    db.run(
        "CREATE TABLE s (v struct<w int>, l varchar[]) WITH (connector = 'datagen',"
        " fields.v.w.kind = 'sequence', fields.v.w.start = '1', fields.l.length = '3',"
        " fields.l._.length = '2', datagen.rows.per.second = '4', datagen.split.num = '2')"
    )
    rw.tick()
    rows = db.rows("SELECT (v).w, array_length(l, 1), length(l[1]) FROM s ORDER BY 1")
    assert rows == [(1, 3, 2), (2, 3, 2), (3, 3, 2), (4, 3, 2)]


def test_seeded_random_values_are_risingwaves(rw: RwShim, db: Client) -> None:
    """Random numbers, strings and timestamps drawn as RisingWave draws them:
    ``StdRng::seed_from_u64(offset ^ seed ^ split index)`` (rand 0.9's ChaCha12) sampled
    with rand's uniform samplers.  The first row is reader.rs test_generator's (533,
    533.14886, 1, (1533)); the rest follow from the same algorithm (tests/unit/datapath/
    test_rustrand.py checks it against rand's own vectors).  Split 1's seed is ``seed ^ 1``,
    so its offset 0 draws what split 0 draws at offset 1."""
    db.run(
        "CREATE TABLE r (i int, f real, q int, s struct<i int>, c varchar, t timestamp,"
        " b bigint, g double precision) WITH (connector = 'datagen',"
        " fields.i.min = '1', fields.i.max = '1000', fields.i.seed = '12345',"
        " fields.f.min = '1', fields.f.max = '1000', fields.f.seed = '12345',"
        " fields.q.kind = 'sequence', fields.q.start = '1',"
        " fields.s.i.min = '1001', fields.s.i.max = '2000', fields.s.i.seed = '12345',"
        " fields.c.length = '5', fields.c.seed = '7',"
        " fields.t.basetime = '2024-01-01T00:00:00Z', fields.t.max_past = '1h',"
        " fields.t.seed = '3', fields.b.min = '-9000000000', fields.b.max = '9000000000',"
        " fields.g.min = '-1', fields.g.max = '1',"
        " datagen.rows.per.second = '4', datagen.split.num = '2')"
    )
    rw.tick()
    rows = db.rows("SELECT q, i, f::varchar, (s).i, c, t::varchar, b, g::varchar FROM r ORDER BY q")
    first = ("533", "533.14886", "1533", "aBJTD", "2023-12-31 23:54:17.247", "4160041486",
             "0.4622268317274092")  # fmt: skip
    second = ("833", "833.0495", "1833", "HVur4", "2023-12-31 23:42:09.627", "8536405271",
              "0.9484894745168058")  # fmt: skip
    as_rows = [(q, int(v[0]), v[1], int(v[2]), v[3], v[4], int(v[5]), v[6])
               for q, v in ((1, first), (2, second), (3, second), (4, first))]  # fmt: skip
    assert rows == as_rows


def test_each_job_reads_the_source_from_its_start(rw: RwShim, db: Client) -> None:
    """A materialized view over a (non-shared) datagen source has its own source executor,
    whose split readers start at offset 0 when the job is made (datagen/source/reader.rs:63-70:
    no start offset; generator.rs: the first interval tick at once): a view made later sees
    the sequence from its start, not the rows made since the source was created."""
    db.run(
        "CREATE SOURCE s (a int, r int) WITH (connector = 'datagen', fields.a.kind = 'sequence',"
        " fields.a.start = '1', fields.r.min = '1', fields.r.max = '1000', fields.r.seed = '12345',"
        " datagen.rows.per.second = '2')"
    )
    db.run("CREATE MATERIALIZED VIEW m1 AS SELECT a, r FROM s")
    rw.tick(3)
    # its creation's barrier ticks its readers once at once (2 rows), then 2 rows a second
    first = [(1, 533), (2, 833), (3, 738), (4, 344), (5, 525), (6, 425), (7, 29), (8, 201)]
    assert db.rows("SELECT a, r FROM m1 ORDER BY a") == first  # 533: reader.rs test_generator
    db.run("CREATE MATERIALIZED VIEW m2 AS SELECT a, r FROM s")
    rw.tick()
    # its own readers from offset 0: the same values as m1's first, not m1's rows since
    assert db.rows("SELECT a, r FROM m2 ORDER BY a") == first[:4]
    assert db.rows("SELECT a, r FROM m1 ORDER BY a") == [*first, (9, 215), (10, 419)]
    db.run("DROP MATERIALIZED VIEW m1")
    rw.tick()
    assert db.rows("SELECT count(*) FROM m2") == [(6,)]


def test_a_view_between_is_bound_into_the_job(rw: RwShim, db: Client) -> None:
    """RisingWave binds a plain view into the materialized view's plan: a job reading a
    datagen source through a view has its own readers too (and one reading the source twice,
    through the view and directly, reads the same reader)."""
    db.run(
        "CREATE SOURCE s (a int) WITH (connector = 'datagen', fields.a.kind = 'sequence',"
        " fields.a.start = '1', datagen.rows.per.second = '2')"
    )
    rw.tick()
    rw.tick()  # (the source's own log has 4 rows by now: the views do not read them)
    db.run("CREATE VIEW v AS SELECT a * 10 AS b FROM s")
    db.run("CREATE MATERIALIZED VIEW m1 AS SELECT b FROM v")
    rw.tick(2)
    assert db.rows("SELECT b FROM m1 ORDER BY b") == [(10,), (20,), (30,), (40,), (50,), (60,)]
    db.run("CREATE MATERIALIZED VIEW m2 AS SELECT b, a FROM v JOIN s ON b = a * 10")
    rw.tick()
    assert db.rows("SELECT b, a FROM m2 ORDER BY a") == [(10, 1), (20, 2), (30, 3), (40, 4)]
