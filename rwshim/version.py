"""The RisingWave version rwshim is: the reference commit's cargo version and git sha, and
``current_cluster_version()`` (src/common/src/lib.rs:142-147), which ``version()`` answers and
the catalogs' ``*_cluster_version`` columns hold."""

from __future__ import annotations

PG_VERSION = "13.14.0"
RW_VERSION = "3.2.0-alpha"
GIT_SHA = "448c6570b1b9d636736708340f61a85900c2b7d7"


def cluster_version(git_sha: str = GIT_SHA) -> str:
    """``PostgreSQL {PG_VERSION}-RisingWave-{RW_VERSION} ({GIT_SHA})``."""
    return f"PostgreSQL {PG_VERSION}-RisingWave-{RW_VERSION} ({git_sha})"


CLUSTER_VERSION = cluster_version()
