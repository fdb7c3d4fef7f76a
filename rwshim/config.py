"""Server settings: listen address, authentication, TLS, data directory, limits, logging."""

from __future__ import annotations

import ipaddress
from pathlib import Path

from msgspec import Struct, field

AUTH_METHODS = ("scram", "md5", "cleartext", "trust")


def loopback(host: str) -> bool | None:
    """Whether ``host`` (an address, or a name) is a loopback address; None for a name other
    than localhost or "" (every interface): it may be reachable from other hosts."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return None


class Config(Struct):
    """Settings of one rwshim server (defaults: RisingWave's port, user and database)."""

    host: str = "127.0.0.1"
    port: int = 4566
    user: str = "root"
    database: str = "dev"
    data_dir: Path | None = None
    # The user's PostgreSQL (>= 16) for table data instead of rwshim's own child
    # (rwshim.dataplane.postgres); its database holds rwshim's schemas rw and rwfn.
    postgres_url: str | None = None
    # PostgreSQL connections the sessions' data statements share (rwshim.dataplane.pool): a
    # statement waits up to its statement_timeout for one, then fails naming this limit.
    data_pool_size: int = 64
    # When set, every user must give this password, checked with ``auth``.
    password: str | None = None
    # Serve a non-loopback address with no password (the CLI refuses it otherwise).
    allow_remote_without_password: bool = False
    auth: str = "scram"
    tls_cert: Path | None = None
    tls_key: Path | None = None
    # Refuse plain connections (RisingWave's RW_SSL_ENFORCE).
    tls_required: bool = False
    log_level: str = "INFO"
    max_connections: int = 1000
    # Largest Query/Parse/Bind/CopyData body accepted; a larger length prefix is FATAL 08P01.
    max_message_size: int = 64 * 1024 * 1024
    # Largest Query/Parse/Bind body served; a longer one is dropped unread and answered with
    # RisingWave's ``max_single_query_size_bytes`` error (the session goes on).  RisingWave's
    # default is 1 GiB; parsing costs about 300 bytes of memory per token, so rwshim's keeps
    # a dense statement within a few GB (README, Reliability).
    max_query_size: int = 8 * 1024 * 1024
    # Seconds a client has to finish startup and authentication.
    startup_timeout: float = 60.0
    use_uvloop: bool = True
    # The web dashboard (rwshim.dashboard) on ``host``: None = off, 0 = a port the OS picks.
    dashboard_port: int | None = None
    # A dashboard port in use is a warning, not a failure (the CLI's default port, so that a
    # second rwshim on the same machine still starts).
    dashboard_optional: bool = False
    # Let the dashboard pause/resume, tick, take the clock and hold backfills.
    dashboard_control: bool = False
    # Manual clock: no barrier loop; barriers only when a test (or `rwshim ctl tick`) steps them.
    manual_clock: bool = False
    server_version: str = "13.14.0"
    # The RisingWave release answered as: a key of rwshim.common.releases.RELEASES (head, 3.0,
    # 2.8), checked when the instance is made (config is below common/ and cannot read it).
    rw_version: str = "head"
    # Startup ParameterStatus values beyond the per-session ones (clients.md §1 item 4).
    extra_parameters: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.auth not in AUTH_METHODS:
            raise ValueError(f"auth must be one of {', '.join(AUTH_METHODS)}")
        if (self.tls_cert is None) != (self.tls_key is None):
            raise ValueError("--tls-cert and --tls-key must be given together")
        if self.tls_required and self.tls_cert is None:
            raise ValueError("--tls-required needs --tls-cert and --tls-key")

    def exposed_without_password(self) -> bool:
        """Listening beyond loopback with no password, and not told that this is wanted."""
        if self.password is not None or self.allow_remote_without_password:
            return False
        return loopback(self.host.strip("[]")) is not True

    @property
    def auth_method(self) -> str:
        """The method actually used: trust when no password is configured."""
        return "trust" if self.password is None else self.auth
