"""The ``posix_fs`` file source over a local directory: the files under ``posix_fs.root``
(recursively, those ``match_pattern`` matches) are read once each, line by line, each line a
message; files that appear later are picked up at the next barrier.

RisingWave at 448c657, under ``src/connector/src/source/filesystem/opendal_source/``:
``mod.rs:198-215`` (PosixFsProperties: ``posix_fs.root``, ``match_pattern`` a glob),
``posix_fs_source.rs`` (the listing), ``opendal_reader.rs:159-250`` (stream_read_lines: each
line with its newline is a message, its offset the byte offset after it, its split id the
file's path under the root; a file is read once, from its start).  RisingWave lists the
directory periodically; rwshim lists it at every barrier of the relation's database.  Only
uncompressed CSV and JSON (one object per line) are read; a ``.gz`` file is skipped with a
log line (not supported by rwshim).
"""

from __future__ import annotations

import fnmatch
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

log = logging.getLogger("rwshim.datapath")


@dataclass(frozen=True, slots=True)
class Line:
    """One message: the file (split id), the line's bytes and the offset after it."""

    file: str
    payload: bytes
    offset: int


@dataclass(slots=True)
class Directory:
    """What a posix_fs relation has read: the files seen, by path under the root."""

    root: str
    pattern: str | None
    seen: set[str] = field(default_factory=set)

    def new_lines(self) -> list[tuple[str, list[Line]]]:
        """The lines of the files not read yet, file by file in path order."""
        base = Path(self.root)
        if not base.is_dir():
            return []
        found: list[str] = []
        for dirpath, _dirs, files in os.walk(base):
            for name in files:
                rel = os.path.relpath(os.path.join(dirpath, name), base)
                if rel in self.seen:
                    continue
                if self.pattern is not None and not fnmatch.fnmatchcase(rel, self.pattern):
                    continue
                found.append(rel)
        out: list[tuple[str, list[Line]]] = []
        for rel in sorted(found):
            self.seen.add(rel)
            if rel.endswith((".gz", ".gzip")):
                log.error("posix_fs: %s: compressed files are not supported by rwshim", rel)
                continue
            try:
                data = (base / rel).read_bytes()
            except OSError as e:
                log.error("posix_fs: reading %s: %s", rel, e)
                continue
            lines: list[Line] = []
            offset = 0
            for chunk in data.splitlines(keepends=True):
                offset += len(chunk)
                text = chunk.rstrip(b"\r\n")
                if text:
                    lines.append(Line(rel, text, offset))
            out.append((rel, lines))
        return out
