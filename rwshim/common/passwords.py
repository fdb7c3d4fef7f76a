"""Users' passwords as RisingWave stores and checks them.

``CREATE USER ... PASSWORD 'p'`` stores ``md5(p + name)`` (``encrypted_password``,
src/frontend/src/user/user_authentication.rs:68-103): an empty password means none, a value
already in ``md5<32 hex>`` or ``SHA-256:<64 hex>`` form is stored as given.  At login the
stored form picks the exchange (src/frontend/src/session.rs:1700-1733): md5 -> the md5
challenge over the stored hash, plaintext -> cleartext, anything else -> a protocol error.
rwshim keeps the type name and the value with RisingWave's printed prefix (``md5...``,
``SHA-256:...``) in ``rw_user.auth_type`` / ``auth_value``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import Struct

from rwshim.lazy import lazy_module

if TYPE_CHECKING:
    import hashlib
else:
    hashlib = lazy_module("hashlib")  # the md5 of a password given: trust sets none


class StoredPassword(Struct, frozen=True):
    """``auth_type`` is 'md5', 'sha256' or 'plaintext'; ``value`` as stored."""

    auth_type: str
    value: str


def encrypted_password(name: str, password: str) -> StoredPassword | None:
    """What RisingWave stores for ``PASSWORD 'password'`` of user ``name``
    (user_authentication.rs:68-92; the checks are by prefix and length, as there)."""
    if password == "":
        return None
    if password.startswith("SHA-256:") and len(password) == len("SHA-256:") + 64:
        return StoredPassword("sha256", password)
    if password.startswith("md5") and len(password) == 3 + 32:
        return StoredPassword("md5", password)
    digest = hashlib.md5((password + name).encode()).hexdigest()
    return StoredPassword("md5", "md5" + digest)
