"""Where a CREATE refuses a ``variant`` column (head only; the releases without the type refuse
its name: ``check_available``).

- a table's primary key: the storage primary key (src/frontend/src/optimizer/plan_node/
  stream_materialize.rs:350-360; an index's key: engine/ddl.py create_index);
- a source or a table with a connector whose FORMAT / ENCODE has no variant parser: every
  encoding but ``FORMAT NONE ENCODE NONE`` and ``ENCODE PARQUET``
  (handler/create_source.rs:851-867); a table from a CDC source (create_table.rs:1653);
- a non-SQL function's or aggregate's signature (handler/create_function.rs:26-40);
- a sink that encodes its rows: any but a sink into a table and ``blackhole``
  (src/meta/src/stream/sink.rs:41-70, meta's ``validate_sink``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from rwshim.common import rwtypes
from rwshim.errors import (
    MetaInvalidParameter,
    NotImplementedError_,
    NotSupported,
    RwError,
    VariantKeyError,
)

if TYPE_CHECKING:
    from rwshim.common.releases import Release
    from rwshim.engine.types import ColumnSpec
    from rwshim.sql.ast.create import FormatEncode


def check_available(release: Release, rw_types: Sequence[str]) -> None:
    """A release before the type binds ``variant`` as an unknown type name, inside a list or
    struct too: ``unsupported data type: variant`` (v3.0.3 binder/expr/mod.rs:1067, 1099;
    v2.8.5 likewise)."""
    if release.variant_type:
        return
    if any(rwtypes.contains_variant(t) for t in rw_types):
        raise NotImplementedError_("unsupported data type: variant")


def table(release: Release, cols: Sequence[ColumnSpec], key: Sequence[str]) -> None:
    """A new table's columns: the type known to the release, no VARIANT in its key."""
    check_available(release, [c.rw_type for c in cols])
    storage_key({c.name: c.rw_type for c in cols}, key)


def storage_key(types: Mapping[str, str], key: Sequence[str]) -> None:
    """A key column (``types``: the relation's column types by name) holding a VARIANT
    (stream_materialize.rs:350-360)."""
    for name in key:
        if rwtypes.contains_variant(types.get(name, "")):
            raise VariantKeyError(f'VARIANT column "{name}" is part of the storage primary key')


def source_encoding(release: Release, cols: Sequence[ColumnSpec], fmt: FormatEncode | None) -> None:
    """reject_variant_columns_for_unsupported_encoding (create_source.rs:851-867), once the
    release knows the type."""
    check_available(release, [c.rw_type for c in cols])
    f = (fmt.format if fmt else "NONE").upper()
    e = (fmt.encode if fmt else "NONE").upper()
    if (f, e) == ("NONE", "NONE") or e == "PARQUET":
        return
    cdc_table(cols, "for this source encoding")


def cdc_table(
    cols: Sequence[ColumnSpec], context: str = "on a table created from a CDC source"
) -> None:
    """reject_variant_columns (create_source.rs:836-848): the first VARIANT column."""
    for c in cols:
        if rwtypes.contains_variant(c.rw_type):
            raise rwtypes.variant_column_refusal(c.name, context)


def udf_signature(rw_types: Sequence[str], kind: str) -> None:
    """reject_variant_in_udf_signature (create_function.rs:26-40): ``kind`` is ``function`` or
    ``aggregate function``."""
    if any(rwtypes.contains_variant(t) for t in rw_types):
        raise NotSupported(
            f"VARIANT type in {kind} signature", "VARIANT is not supported in UDFs yet"
        )


def sink(options: dict[str, str], cols: Sequence[ColumnSpec], into: bool) -> None:
    """reject_variant_sink (sink.rs:49-70): not a sink into a table nor a blackhole one."""
    if into or options.get("connector", "").lower() == "blackhole":
        return
    for c in cols:
        if rwtypes.contains_variant(c.rw_type):
            raise MetaInvalidParameter(
                f"sinking VARIANT columns is not supported yet: column `{c.name}`"
            )


# the variant functions (head's src/expr/impl/src/scalar/variant.rs)
_FUNCTIONS = frozenset({"to_variant", "variant_get", "try_variant_get", "variant_typeof"})


def refuse_in_query(release: str, functions: Iterable[str], type_names: Iterable[str]) -> None:
    """Under a release without the type, a query naming it or calling its functions (the data
    plane has them for head): refused by name, where the in-process binder does not give the
    release's own text (``function to_variant(integer) does not exist``, ``unsupported data
    type: variant``)."""
    used = sorted(set(functions) & _FUNCTIONS) + sorted(
        {"variant"} & {t.lower() for t in type_names}
    )
    if used:
        raise RwError(
            f"not supported by rwshim: {', '.join(used)} under RisingWave {release}, which has"
            " no variant type"
        )
