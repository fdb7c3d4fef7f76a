"""posix_fs over a local directory: files read line by line at barriers, a CSV file's first
line its header, JSON one object a line, new files picked up at the next barrier, the INCLUDE
file and offset columns.  RisingWave: src/connector/src/source/filesystem/opendal_source/
(opendal_reader.rs stream_read_lines), src/connector/src/parser/csv_parser.rs."""

from __future__ import annotations

from pathlib import Path

from rwshim.testing import RwShim
from tests.datapath.conftest import Client


def test_csv_files_picked_up_at_barriers(rw: RwShim, db: Client, tmp_path: Path) -> None:
    (tmp_path / "a.csv").write_text("name,n\nx,1\ny,2\n")
    db.run(
        "CREATE TABLE f (n int, name varchar) INCLUDE file AS fname INCLUDE offset AS off"
        f" WITH (connector = 'posix_fs', posix_fs.root = '{tmp_path}', match_pattern = '*.csv')"
        " FORMAT PLAIN ENCODE CSV (delimiter = ',')"
    )
    rw.tick()
    assert db.rows("SELECT n, name, fname, off FROM f ORDER BY n") == [
        (1, "x", "a.csv", "11"), (2, "y", "a.csv", "15"),
    ]  # fmt: skip
    (tmp_path / "b.csv").write_text("n,name\n3,z\n")
    (tmp_path / "ignored.txt").write_text("n,name\n4,w\n")
    assert db.rows("SELECT count(*) FROM f") == [(2,)]
    rw.tick()
    assert db.rows("SELECT n, name, fname FROM f ORDER BY n") == [
        (1, "x", "a.csv"), (2, "y", "a.csv"), (3, "z", "b.csv"),
    ]  # fmt: skip


def test_json_lines_source_and_mv(rw: RwShim, db: Client, tmp_path: Path) -> None:
    db.run(
        f"CREATE SOURCE s (k varchar, v int) WITH (connector = 'posix_fs',"
        f" posix_fs.root = '{tmp_path}') FORMAT PLAIN ENCODE JSON"
    )
    db.run("SET BACKGROUND_DDL = true")
    db.run("CREATE MATERIALIZED VIEW m AS SELECT k, sum(v) AS t FROM s GROUP BY k")
    rw.tick(3)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "1.json").write_text('{"k": "a", "v": 1}\nbad\n{"k": "a", "v": 2}\n')
    rw.tick()
    assert db.rows("SELECT k, t FROM m") == [("a", 3)]
