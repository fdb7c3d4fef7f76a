"""The values of ALTER statements, read as RisingWave's handlers read a ``SetVariableValue``:
which forms each ALTER accepts (a single value, a number literal, an identifier, a string,
DEFAULT, a list) and the texts it refuses the others with.  What a value then means is the
engine's business (``rwshim.engine.parallelism``, ``engine.params``).

RisingWave: ``src/frontend/src/handler/alter_parallelism.rs:143-244``
(parse_single_parallelism_value, extract_simple_adaptive_or_fixed_parallelism),
``handler/alter_resource_group.rs:57-76`` (resolve_resource_group),
``handler/mod.rs:767-828`` (ALTER DATABASE SET barrier_interval_ms | checkpoint_frequency),
``handler/variable.rs:30-40`` (set_var_to_param_str: ALTER SYSTEM SET).
"""

from __future__ import annotations

from rwshim.engine import parallelism as par
from rwshim.errors import InvalidInputSyntax
from rwshim.sql import statements as st


def parallelism_text(value: st.SetValue) -> str | None:
    """parse_single_parallelism_value (alter_parallelism.rs:188-197): the one value's text
    (None for DEFAULT); a list is refused before anything else is looked at."""
    if value.kind == "default":
        return None
    if value.kind == "list":
        raise InvalidInputSyntax("target parallelism must be a single value")
    return value.items[0]


def simple_parallelism_text(value: st.SetValue) -> str | None:
    """v2.8.5's extract_table_parallelism (v2.8.5 alter_parallelism.rs:83-124) for ALTER ...
    SET PARALLELISM: DEFAULT, the identifier ``adaptive`` or a number literal (0 =
    adaptive), as the text the engine reads (None: DEFAULT, which is adaptive); the same
    refusals as ALTER FRAGMENT's."""
    text, is_ident = fragment_parallelism(value)
    target = par.parse_fragment_value(text, is_ident=is_ident)
    if target is None or target.kind != "Fixed":
        return None
    return str(target.fixed)


def fragment_parallelism(value: st.SetValue) -> tuple[str | None, bool]:
    """extract_fragment_parallelism (alter_parallelism.rs:181-244): DEFAULT, the identifier
    ``adaptive`` or a number literal; ``(text, is_ident)``.  Anything else, a list or a
    quoted string included, is ``target parallelism must be a valid number or adaptive``."""
    if value.kind == "default":
        return None, False
    kind = value.item_kind
    if kind == "ident":
        return value.items[0], True
    if kind == "number":
        return value.items[0], False
    raise InvalidInputSyntax("target parallelism must be a valid number or adaptive")


def resource_group(value: st.SetValue | None) -> str | None:
    """resolve_resource_group (alter_resource_group.rs:57-76): an identifier (folded) or a
    single-quoted string names the group, ``'default'`` (any case) and DEFAULT mean none;
    every other form is refused.  None (RESET) means none too."""
    if value is None or value.kind == "default":
        return None
    kind = value.item_kind
    if kind == "ident":
        return value.items[0].lower()  # Ident::real_value of an unquoted word
    if kind == "string":
        text = value.items[0]
        return None if text.lower() == "default" and text.isascii() else text
    raise InvalidInputSyntax("target resource group must be a valid string or default")


# ALTER DATABASE SET <param>: the parameter's integer type (handler/mod.rs:770-818).
DATABASE_PARAMS = {"barrier_interval_ms": 32, "checkpoint_frequency": 64}


def database_param(param: str, value: st.SetValue) -> int | None:
    """ALTER DATABASE <db> SET barrier_interval_ms | checkpoint_frequency (mod.rs:767-828):
    DEFAULT (None) or a number literal parsed as u32 / u64.  ``param`` is the parameter's
    real (folded) name; another name is `Unsupported database config parameter`."""
    bits = DATABASE_PARAMS.get(param.lower())
    if bits is None:
        raise InvalidInputSyntax(f"Unsupported database config parameter: {param}")
    name = param.lower()
    if value.kind == "default":
        return None
    if value.item_kind != "number":
        raise InvalidInputSyntax(f"{name} must be a u{bits} integer or DEFAULT")
    try:
        return par.parse_uint(value.items[0], bits)
    except par.ParseError as e:
        raise InvalidInputSyntax(f"{name} must be a u{bits} integer: {e}") from None


def param_text(value: st.SetValue) -> str | None:
    """set_var_to_param_str (variable.rs:30-40): items unquoted and joined with ', ' (None
    for DEFAULT), as ALTER SYSTEM SET sends its value to meta."""
    return None if value.kind == "default" else value.text
