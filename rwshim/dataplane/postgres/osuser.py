"""Who the PostgreSQL child runs as, and what that user can reach.

PostgreSQL refuses to run as root.  A non-root rwshim runs the child as itself.  A root rwshim
(CI, containers) runs it as a dedicated system user, ``rwshim-pg``, created once per machine
with ``useradd --system`` (or the existing user named by ``$RWSHIM_PG_USER``).  A dedicated
user rather than ``nobody``: the cluster's files and the trust-authenticated socket belong to
that uid, and ``nobody`` is shared by unrelated daemons, any of which could then read the
cluster or connect as PostgreSQL's superuser.  ``nobody`` is used only where no ``useradd``
exists (macOS), with a warning.  rwshim's own files stay root's.
"""

from __future__ import annotations

import logging
import os
import pwd
import shutil
import stat
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from rwshim.dataplane.postgres.errors import DataPlaneError

log = logging.getLogger("rwshim.dataplane")

SERVER_USER = "rwshim-pg"
USER_ENV = "RWSHIM_PG_USER"


@dataclass(frozen=True, slots=True)
class RunAs:
    """The unprivileged identity a root rwshim gives the child (no supplementary groups)."""

    name: str
    uid: int
    gid: int


def is_root() -> bool:
    return os.geteuid() == 0


def server_user(lock_dir: Path) -> RunAs | None:
    """``None`` when rwshim is not root (the child runs as rwshim's own user); otherwise the
    unprivileged user, created on first use (``lock_dir`` holds the lock that makes two
    processes racing to create it wait for each other)."""
    if not is_root():
        return None
    name = os.environ.get(USER_ENV)
    if name:
        try:
            return _checked(pwd.getpwnam(name))
        except KeyError:
            raise DataPlaneError(f"${USER_ENV} names user {name!r}, which does not exist") from None
    try:
        return _checked(pwd.getpwnam(SERVER_USER))
    except KeyError:
        pass
    useradd = shutil.which("useradd") or next(
        (p for p in ("/usr/sbin/useradd", "/sbin/useradd") if os.access(p, os.X_OK)), None
    )
    if useradd is None:
        log.warning("no useradd here: PostgreSQL runs as 'nobody' (set $%s to choose)", USER_ENV)
        try:
            return _checked(pwd.getpwnam("nobody"))
        except KeyError:
            raise DataPlaneError(
                "rwshim runs as root, PostgreSQL refuses root, and there is neither useradd"
                f" nor a 'nobody' user; set ${USER_ENV} to an unprivileged user"
            ) from None
    import fcntl  # POSIX only, as is everything that reaches here

    lock_dir.mkdir(parents=True, exist_ok=True)
    with open(lock_dir / ".useradd.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _create(useradd)


def _create(useradd: str) -> RunAs:
    nologin = next(
        (p for p in ("/usr/sbin/nologin", "/sbin/nologin") if os.path.exists(p)), "/bin/false"
    )
    argv = [
        useradd,
        "--system",
        "--user-group",
        "--no-create-home",
        "--home-dir",
        "/nonexistent",
        "--shell",
        nologin,
        "--comment",
        "rwshim's PostgreSQL server",
        SERVER_USER,
    ]
    for attempt in range(20):
        try:
            return _checked(pwd.getpwnam(SERVER_USER))  # another process made it meanwhile
        except KeyError:
            pass
        done = subprocess.run(argv, capture_output=True, text=True)
        if done.returncode == 0:
            log.info("created system user %s for PostgreSQL (rwshim runs as root)", SERVER_USER)
            return _checked(pwd.getpwnam(SERVER_USER))
        # 9: the name was taken meanwhile (seen on the next turn); 10: /etc/passwd is
        # locked by someone else: try again.
        if done.returncode not in (9, 10):
            raise DataPlaneError(
                f"rwshim runs as root and PostgreSQL refuses root, so rwshim needs the user"
                f" {SERVER_USER}; useradd failed: {done.stderr.strip() or done.returncode}"
                f" (create it, or set ${USER_ENV} to an unprivileged user)"
            )
        time.sleep(0.05 * (attempt + 1))
    raise DataPlaneError(f"useradd {SERVER_USER}: /etc/passwd stayed locked")


def _checked(entry: pwd.struct_passwd) -> RunAs:
    if entry.pw_uid == 0:
        raise DataPlaneError(
            f"user {entry.pw_name!r} has uid 0; PostgreSQL needs an unprivileged user"
        )
    return RunAs(entry.pw_name, entry.pw_uid, entry.pw_gid)


def can_reach(path: Path, who: RunAs) -> bool:
    """Whether ``who`` (no supplementary groups) can search every directory down to
    ``path`` and, when ``path`` is a file, read it."""
    path = path.resolve()
    for directory in [*reversed(path.parents), path]:
        try:
            st = os.stat(directory)
        except OSError:
            return False
        if stat.S_ISDIR(st.st_mode):
            if not _granted(st, who, stat.S_IXUSR, stat.S_IXGRP, stat.S_IXOTH):
                return False
        elif not _granted(st, who, stat.S_IRUSR, stat.S_IRGRP, stat.S_IROTH):
            return False
    return True


def _granted(st: os.stat_result, who: RunAs, user: int, group: int, other: int) -> bool:
    if st.st_uid == who.uid:
        return bool(st.st_mode & user)
    if st.st_gid == who.gid:
        return bool(st.st_mode & group)
    return bool(st.st_mode & other)


def chown_tree(top: Path, who: RunAs | None) -> None:
    if who is None:
        return
    os.chown(top, who.uid, who.gid)
    for dirpath, dirs, files in os.walk(top):
        for name in (*dirs, *files):
            os.chown(os.path.join(dirpath, name), who.uid, who.gid, follow_symlinks=False)
