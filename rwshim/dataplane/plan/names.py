"""Physical names of the data plane: every user relation lives in PostgreSQL under its catalog
id, so renames and SET SCHEMA cost nothing there and dependents keep working.

- schema ``rw``: ``t<id>`` tables, ``v<id>`` views (RisingWave views, materialized views,
  sources, and the readable form of an index), ``i<id>`` indexes; a materialized view also
  has ``q<id>`` (its defining query, a view) and ``m<id>`` (its state at the last barrier, a
  table ``v<id>`` reads: dataplane/epochs.py);
- schema ``rwfn``: functions first in every data session's search_path (before
  ``pg_catalog``, so they shadow it);
- columns under their names, but a name over PostgreSQL's 63 bytes under its physical form
  (``pg_ident``; rwshim/sql/long_names.py), and so every identifier of a text sent to
  PostgreSQL (rewrite.py);
- catalog snapshots for queries that join catalogs with user data: per-session temporary
  tables named after the catalog relation.
"""

from __future__ import annotations

from rwshim.sql import long_names

DATA_SCHEMA = "rw"
FUNCTION_SCHEMA = "rwfn"
# The data sessions' search_path: our functions shadow pg_catalog's (listing pg_catalog
# explicitly after rwfn is what makes the shadowing work).
SEARCH_PATH = f"{FUNCTION_SCHEMA}, pg_catalog"


def quote_ident(name: str) -> str:
    """``name`` as a PostgreSQL quoted identifier, always quoted: SQL for PostgreSQL, not
    RisingWave's QuoteIdent (that one, for texts a client sees, is rwshim.common.names')."""
    return '"' + name.replace('"', '""') + '"'


def pg_ident(name: str) -> str:
    """A user's name (a column's) as PostgreSQL holds it, quoted: the name itself up to 63
    bytes, else its physical form (rwshim/sql/long_names.py), which PostgreSQL would otherwise
    cut, making two names one."""
    return quote_ident(long_names.physical(name))


def quote_literal(text: str) -> str:
    """``text`` as a PostgreSQL string literal (standard_conforming_strings is on)."""
    return "'" + text.replace("'", "''") + "'"


def table_name(relation_id: int) -> str:
    return f"t{relation_id}"


def view_name(relation_id: int) -> str:
    return f"v{relation_id}"


def query_name(relation_id: int) -> str:
    return f"q{relation_id}"


def state_name(relation_id: int) -> str:
    return f"m{relation_id}"


def history_name(relation_id: int) -> str:
    """A table's history: its rows with the epochs they were valid in (dataplane/history.py)."""
    return f"h{relation_id}"


def arrivals_name(relation_id: int) -> str:
    """A materialized view's temporal joins: the epoch each left row arrived in."""
    return f"a{relation_id}"


def reader_name(job_id: int, source_id: int) -> str:
    """A job's own reader of a datagen source: the rows its split readers generated since the
    job was made (each job reads a non-shared source from its start, plane.py)."""
    return f"r{job_id}_{source_id}"


def index_name(relation_id: int) -> str:
    return f"i{relation_id}"


def qualified_table(relation_id: int) -> str:
    return f"{DATA_SCHEMA}.{quote_ident(table_name(relation_id))}"


def qualified_view(relation_id: int) -> str:
    return f"{DATA_SCHEMA}.{quote_ident(view_name(relation_id))}"


def snapshot_name(schema: str, name: str) -> str:
    """The temporary table holding a catalog relation's rows for one data session."""
    return f"rwcat_{schema}_{name}"


def qualified_snapshot(schema: str, name: str) -> str:
    return "pg_temp." + quote_ident(snapshot_name(schema, name))


def parse_physical(name: str) -> tuple[str, int] | None:
    """(kind letter, relation id) of a physical name in schema ``rw``, or None (a
    materialized view's changelog log ``c<view>_<upstream>``: the view's id)."""
    if name[:1] == "r":  # a reader: r<job>_<source>, the job's
        job, _, source = name[1:].partition("_")
        return ("r", int(job)) if job.isdigit() and source.isdigit() else None
    if name[:1] == "c" and "_" in name:
        view, _, upstream = name[1:].partition("_")
        return ("c", int(view)) if view.isdigit() and upstream.isdigit() else None
    if len(name) < 2 or name[0] not in "tvimqha" or not name[1:].isdigit():
        return None
    return name[0], int(name[1:])
