"""Names, values and the ``Statement`` base every statement family builds on.

Mirrors src/sqlparser/src/ast/mod.rs (``Ident`` folding, ``ObjectName``, ``SetVariableValue``,
``SqlOption`` and what every ``Statement`` variant shares) and ast/value.rs (``Value``,
``SecretRefValue``, ``ConnectionRefValue``: what ``OptionValue`` remembers of a WITH value).

Each statement carries ``text`` (its own source text, trimmed) and knows the command tag
RisingWave sends for it: the Debug name of ``StatementType`` (src/utils/pgwire/src/
pg_response.rs:34-127, chosen as in pg_response.rs:255-345 and src/frontend/src/handler/mod.rs).
``OWNER`` says which part of rwshim gives the statement its behaviour: ``engine``,
``read`` (the read and DML path), ``session`` (the front end and the session)
or ``control`` (rwshim's test-control extension).

Values keep what RisingWave's parser keeps: parallelism and SET values as text (the handlers
re-parse them), WITH options as ordered ``(key, value text)`` pairs, object names as
``(database, schema, name)`` folded as RisingWave folds identifiers.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from msgspec import Struct

__all__ = [
    "ObjectName",
    "OptionValue",
    "Options",
    "Owner",
    "SetItemKind",
    "SetValue",
    "Statement",
    "name",
]


Owner = Literal["engine", "read", "session", "control"]


class ObjectName(Struct, frozen=True):
    """A possibly qualified name; parts are folded (unquoted lower-cased, quoted kept)."""

    parts: tuple[str, ...]

    @property
    def name(self) -> str:
        return self.parts[-1]

    @property
    def schema(self) -> str | None:
        return self.parts[-2] if len(self.parts) >= 2 else None

    @property
    def database(self) -> str | None:
        return self.parts[-3] if len(self.parts) >= 3 else None

    def __str__(self) -> str:
        return ".".join(self.parts)


def name(*parts: str) -> ObjectName:
    """Shorthand for tests and callers: ``name("s", "t")``."""
    return ObjectName(tuple(parts))


# What each item of a SetValue was written as: SetVariableValueSingle's Ident, Raw, or the
# Literal's Value variant (src/sqlparser/src/ast/mod.rs:3860-3867, ast/value.rs:24-60).
SetItemKind = Literal[
    "ident",  # Ident (unquoted word)
    "raw",  # Raw: ident(args)
    "number",  # Value::Number
    "string",  # Value::SingleQuotedString
    "dstring",  # Value::DoubleQuotedString ("word": read as a literal first)
    "estring",  # Value::CstyleEscapedString
    "dollar",  # Value::DollarQuotedString
    "nstring",  # Value::NationalStringLiteral
    "xstring",  # Value::HexStringLiteral
    "bool",  # Value::Boolean
    "null",  # Value::Null
]


class SetValue(Struct, frozen=True):
    """The right-hand side of SET / ALTER ... SET PARALLELISM (parser.rs:4250-4288).

    ``kind`` is ``default``, ``single`` or ``list``; ``items`` are the values as the handler
    reads them: literals unquoted, identifiers as written, ``ident(args)`` as raw text.
    ``kinds`` says what each item was written as (the handlers that accept only some forms
    look at it: ALTER FRAGMENT, RESOURCE_GROUP, ALTER DATABASE SET); it does not take part in
    equality, so a value compares by what it says.
    """

    kind: Literal["default", "single", "list"]
    items: tuple[str, ...] = ()
    kinds: tuple[SetItemKind, ...] = ()

    # Equality and hash leave ``kinds`` out (a Struct compares every field).
    def __eq__(self, other: object) -> bool:
        if type(other) is not SetValue:
            return NotImplemented
        return self.kind == other.kind and self.items == other.items

    def __hash__(self) -> int:
        return hash((self.kind, self.items))

    @property
    def item_kind(self) -> SetItemKind | None:
        """The kind of a single value's item (None for DEFAULT, a list, or no kinds known)."""
        return self.kinds[0] if self.kind == "single" and self.kinds else None

    @property
    def text(self) -> str:
        """What RisingWave's handlers turn the value into (`default` or items joined ', ')."""
        return "default" if self.kind == "default" else ", ".join(self.items)


class OptionValue(str):
    """A WITH option's value text, remembering what it was written as.

    ``kind`` is ``string`` (''), ``estring`` (E''), ``number``, ``bool``, ``null``, ``dollar``,
    ``nstring``, ``xstring``, ``secret`` (SECRET name), ``connection`` (a connection name) or
    ``backfill_order``; the handlers accept only some (rwshim.sql.with_options).
    """

    kind: str
    # A reference's name parts (``SECRET s.name``, ``connection = s.name``) and, for a
    # secret, whether it is referenced AS FILE.
    parts: tuple[str, ...] | None
    as_file: bool

    def __new__(
        cls,
        text: str,
        kind: str = "string",
        parts: tuple[str, ...] | None = None,
        as_file: bool = False,
    ) -> OptionValue:
        obj = super().__new__(cls, text)
        obj.kind = kind
        obj.parts = parts
        obj.as_file = as_file
        return obj


Options = tuple[tuple[str, str], ...]


class Statement(Struct, frozen=True):
    """Base: every statement has its source text; subclasses set TAG and OWNER."""

    text: str
    TAG: ClassVar[str] = "OTHER"
    OWNER: ClassVar[Owner] = "engine"

    @property
    def tag(self) -> str:
        return self.TAG
