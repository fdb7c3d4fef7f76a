"""The list of statement kinds rwshim recognises, rendered as SUPPORTED.md.

Generated from the statement classes themselves, so the file and the code cannot drift apart
unnoticed: a unit test compares SUPPORTED.md with ``render_supported_md()``.
"""

from __future__ import annotations

import functools
from collections.abc import Collection
from pathlib import Path

from rwshim.sql import statements as st

_OWNERS = {
    "engine": "engine",
    "read": "read path",
    "session": "session",
    "control": "control (rwshim extension)",
}

IMPLEMENTED = "implemented"
AS_RISINGWAVE = "refused as RisingWave refuses it"
NOT_YET = "not yet implemented"
# A handler that binds the statement as RisingWave does and then refuses, saying what rwshim
# lacks to answer it (RisingWave itself answers it).
NOT_EMULATED = "refused: not emulated"

# Statement kinds that are not (only) implemented: (status, why).  Every other kind is
# implemented; tests/unit/test_frontend_dispatch.py holds that a kind said implemented has a
# handler and that a kind with none is listed here.
STATUS: dict[str, tuple[str, str]] = {
    "Truncate": (AS_RISINGWAVE, "RisingWave parses it and has no handler: "
                 "`Feature is not yet implemented: Unhandled statement: TRUNCATE TABLE t`"),
    "Analyze": (AS_RISINGWAVE, "RisingWave parses it and has no handler: "
                "`Unhandled statement: ANALYZE TABLE t`"),
    "Execute": (AS_RISINGWAVE, "RisingWave parses it and has no handler: "
                "`Unhandled statement: EXECUTE p`"),
    "AlterTableRenameColumn": (AS_RISINGWAVE, "the table looked up, then RisingWave's "
                               "`Unhandled statement: ALTER TABLE t RENAME COLUMN a TO b`"),
    "AlterCompactionGroup": (NOT_EMULATED, "superusers only, as RisingWave; rwshim has no "
                             "storage layer, so a group's config is refused with that reason"),
    "ExplainAnalyzeStreamJob": (NOT_EMULATED, "the target is bound as RisingWave binds it "
                                "(its not-found errors); a job found is refused: rwshim runs "
                                "no stream executors whose statistics it could sample"),
    "AlterViewQuery": (AS_RISINGWAVE, "refused as RisingWave's release build refuses it, "
                       "before any look-up: `Feature is not yet implemented: ALTER VIEW AS QUERY` "
                       "/ `... ALTER MATERIALIZED VIEW AS QUERY` (handler/mod.rs:1212-1220)"),
    "AlterStreamingOption": (AS_RISINGWAVE, "a debug-build-only statement in RisingWave; "
                             "refused as its release build refuses it: `ALTER STREAMING "
                             "ENABLE UNALIGNED JOIN is only supported in debug mode`"),
    "AlterColumn": (IMPLEMENTED, "the columns, the definition and the rows change together "
                    "(ALTER WATERMARK: the watermark's expression in the definition); "
                    "RisingWave's refusals in its texts (key, generated and NOT NULL columns, "
                    "columns downstream jobs read, sink targets, types other than structs); "
                    "changing a struct column's fields is refused: not emulated"),
    "AlterConnector": (IMPLEMENTED, "DROP CONNECTOR keeps the table's columns and rows; RESET "
                       "of a CDC source has no offsets to reset; the forms that read a schema "
                       "registry are refused: rwshim reaches none; RisingWave's refusals in its "
                       "texts"),
    "CreateSink": (IMPLEMENTED, "a sink INTO a table delivers its snapshot and then each "
                   "barrier's changes to the table in that barrier's epoch (upsert by the "
                   "table's key with its ON CONFLICT behaviour, or append-only); `postgres` and "
                   "`jdbc` (`jdbc:postgresql://`) sinks validate their target and write it at "
                   "the barriers; `blackhole` consumes; other connectors keep their definition "
                   "only"),
    "AlterOperation": (NOT_YET, "a safety net only: every ALTER form of RisingWave's parser is "
                       "built as its own kind above; a form the grammar reads and no kind "
                       "takes answers this"),
}  # fmt: skip


def status_of(cls: type[st.Statement]) -> tuple[str, str]:
    """(status, why) of a statement kind."""
    return STATUS.get(cls.__name__, (IMPLEMENTED, ""))


@functools.cache
def _dynamic_tags() -> dict[type[st.Statement], tuple[str, ...]]:
    """Statement kinds whose tag depends on the object kind or the form (made when asked:
    it names classes of families a start-up does not load)."""
    return {
        st.Insert: ("INSERT", "INSERT_RETURNING"),
        st.Update: ("UPDATE", "UPDATE_RETURNING"),
        st.Delete: ("DELETE", "DELETE_RETURNING"),
        st.Drop: tuple(sorted(set(st._DROP_TAGS.values()))),
        st.CreateFunction: ("CREATE_FUNCTION", "CREATE_AGGREGATE"),
    }


def tags_of(cls: type[st.Statement]) -> tuple[str, ...]:
    """Every command tag a statement kind can complete with."""
    dynamic = _dynamic_tags()
    if cls in dynamic:
        return dynamic[cls]
    if issubclass(cls, st._AlterObject):
        return tuple(sorted(set(st._ALTER_TAGS.values())))
    return (cls.TAG,)


def supported_table() -> list[tuple[str, tuple[str, ...], str, str]]:
    """(statement kind, command tags, who gives it behaviour, what it is) for every kind."""
    rows = []
    for cls in st.all_statement_classes():
        doc = (cls.__doc__ or "").strip().splitlines()[0] if cls.__doc__ else ""
        if doc.startswith(cls.__name__ + "("):  # dataclass's generated signature doc
            doc = ""
        rows.append((cls.__name__, tags_of(cls), _OWNERS[cls.OWNER], doc))
    return rows


def render_supported_md(answered: Collection[str]) -> str:
    """SUPPORTED.md; ``answered`` names the statement kinds the frontend has a handler for
    (``rwshim.frontend.frontend.answered_kinds()``: this package cannot import it)."""
    lines = [
        "# Statements rwshim recognises",
        "",
        "Generated by `rwshim.sql.supported.render_supported_md()`; a unit test fails when this",
        "file and the code disagree (regenerate with `python -c 'import rwshim.frontend.frontend",
        "as f, rwshim.sql.supported as s; s.write_supported_md(f.answered_kinds())'`).",
        "",
        "Every statement is parsed by `rwshim.sql.parse()`; *behaviour* names the part of",
        "rwshim that executes it; *status* is `implemented`, `refused as RisingWave refuses it`",
        "(the answer is RisingWave's own), `refused: not emulated` (RisingWave answers it; rwshim",
        "checks it as RisingWave does, then refuses saying what it lacks), or `not yet",
        "implemented` (no handler: rwshim answers `Feature is not yet implemented: <kind>`;",
        "the notes say what is missing).",
        "Within an implemented kind, what RisingWave refuses (a form, an option, an object)",
        "rwshim refuses with RisingWave's text.",
        "",
        "| statement kind | command tag(s) | behaviour | status | notes |",
        "|---|---|---|---|---|",
    ]
    for name, tags, owner, doc in supported_table():
        tag_text = ", ".join(f"`{t}`" for t in tags)
        note = doc.replace("|", "\\|")
        status, why = STATUS.get(name, (IMPLEMENTED, ""))
        if name not in answered:
            status = NOT_YET
        if why:
            why = why.replace("|", "\\|")
            note = f"{note} {why}." if note else f"{why}."
        lines.append(f"| `{name}` | {tag_text} | {owner} | {status} | {note} |")
    lines += [
        "",
        "## Extensions",
        "",
        "- `ALTER DATABASE <name> PAUSE` / `ALTER DATABASE <name> RESUME` (tag `ALTER_DATABASE`)",
        "- `ALTER SYSTEM PAUSE` / `ALTER SYSTEM RESUME` (tag `ALTER_SYSTEM`)",
        "- Test control, superuser only (tag `RWSHIM`): `RWSHIM TICK [n] [DATABASE name]`,",
        "  `RWSHIM CLOCK {MANUAL | AUTO}`, `RWSHIM {HOLD | RELEASE} BACKFILL <job id>`,",
        "  `RWSHIM FAULT <name> {ON | OFF}`, `RWSHIM FAULTS`, `RWSHIM RESTART`, `RWSHIM JOBS`,",
        "  `RWSHIM PUSH <source or table> [PARTITION '<p>'] [KEY {'<k>' | NULL}] {'<payload>' |",
        "  NULL} [, ...]`",
        "",
        "## Connector sources",
        "",
        "Sources and tables with a connector produce rows (rwshim/dataplane/sources/), seen at the",
        "next barrier:",
        "",
        "- message brokers (kafka, pulsar, kinesis, nats, mqtt, google_pubsub, redis): the",
        "  messages `RWSHIM PUSH` delivers, decoded by FORMAT PLAIN (ENCODE JSON, CSV, BYTES),",
        "  UPSERT JSON (the message key is the INCLUDE KEY column; a NULL payload deletes) and",
        "  DEBEZIUM JSON, with the INCLUDE key / partition / offset (per partition, from 0) /",
        "  timestamp (the push's clock time) / payload columns; headers are NULL (a pushed",
        "  message has none).  A message the parser cannot read is skipped and logged, a",
        "  non-key value that does not convert is NULL, as RisingWave's parser does.  A source",
        "  keeps every row delivered (a materialized view over it reads them from the",
        "  earliest, Kafka's default `scan.startup.mode`; other startup modes and UPSERT /",
        "  DEBEZIUM sources are refused by PUSH).  Offsets restart at 0 with the process.",
        "- datagen: `datagen.rows.per.second` (default 10) rows a second split among",
        "  `datagen.split.num` splits, one second per barrier under a manual clock; sequences",
        "  (`fields.<c>.kind = 'sequence'`, `start`, `end`) are RisingWave's values, the split",
        "  stopping past its end; random numbers (`min`, `max`, `seed`), strings (`length`) and",
        "  timestamps (`max_past`, `max_past_mode`, `basetime`) are RisingWave's values too:",
        "  rand 0.9's ChaCha12 `StdRng` seeded with `offset ^ seed ^ split index` and its",
        "  uniform samplers (checked against rand's own vectors and RisingWave's reader test).",
        "  A timestamp's base without `basetime` is the reader's start (or each row's time with",
        "  `max_past_mode = 'relative'`), in UTC.  Struct and list columns nest them.  A",
        "  materialized view over a datagen source has its own readers, from offset 0 when the",
        "  view is created (through plain views too), as each RisingWave job has; NOT yet a",
        "  sink over it: a sink reads the rows the source made since its first barrier.  A",
        "  table's associated source is a catalog object of its",
        "  own (rw_sources, rw_relations, pg_class, SHOW SOURCES; GRANT ON SOURCE does not",
        "  reach it yet).",
        "- posix_fs: the files under `posix_fs.root` (`match_pattern` a glob), each read once,",
        "  line by line (CSV with a header line per file, JSON one object a line), new files at",
        "  the next barrier; compressed files are not read (logged).",
        "- postgres-cdc (a shared source, then `CREATE TABLE t (...) FROM s TABLE",
        "  'schema.table'`): CREATE SOURCE and CREATE TABLE validate the upstream PostgreSQL as",
        "  RisingWave's connector node does, with its texts (wal_level, slot, roles,",
        "  publication, the table, its key and columns); the source makes its publication and",
        "  pgoutput slot; a table gets the upstream table's snapshot at the first barrier, then",
        "  its INSERT / UPDATE / DELETE read from the slot at each barrier (TRUNCATE ignored, as",
        "  Debezium's default); DROP leaves the slot, as RisingWave does.  A CDC table with its",
        "  own connector is refused as 448c657 refuses it; a `(*)` table takes the upstream",
        "  table's columns and key (no column defaults); SECRET options and auto schema change",
        "  are not emulated.",
        "- other connectors (mysql-cdc and the other CDC ones, s3, gcs, iceberg, ...) keep their",
        "  definition only.",
        "",
        "## Rejected as RisingWave rejects them",
        "",
        "Statements RisingWave's parser has no rule for fail with `expected statement, found:",
        "<word>`: among those clients send, `RESET`, `SAVEPOINT`, `RELEASE`, `LISTEN`,",
        "`UNLISTEN`, `NOTIFY` and `DO`. PostgreSQL DML forms RisingWave's grammar lacks",
        "(`DELETE ... AS alias`, `DELETE ... USING`, `UPDATE ... AS alias`, `UPDATE ... FROM`,",
        "`INSERT ... ON CONFLICT`) fail with RisingWave's `expected ..., found: ...` text.",
        "",
    ]
    return "\n".join(lines)


def supported_md_path() -> Path:
    return Path(__file__).resolve().parents[2] / "SUPPORTED.md"


def write_supported_md(answered: Collection[str]) -> None:
    supported_md_path().write_text(render_supported_md(answered))
