"""The Display of the CREATE statements (see ddl.py for the RisingWave sources): what
``HandlerArgs::normalize_sql`` (src/frontend/src/handler/mod.rs:246-302) stores, i.e. the
statement's Display with ``OR REPLACE`` and ``IF NOT EXISTS`` cleared.
"""

from __future__ import annotations

from rwshim.sql.unparse import display as d
from rwshim.sql.unparse import nodes as n


def sql_option(o: n.SqlOption) -> str:
    return f"{d.object_name(o.name)} = {o.value}"


def with_options(opts: list[n.SqlOption]) -> str:
    return f"WITH ({d.comma(opts, sql_option)})" if opts else ""


def format_encode(f: n.FormatEncode) -> str:
    out = f"FORMAT {f.format} ENCODE {f.encode}"
    if f.options:
        out += f" ({d.comma(f.options, sql_option)})"
    if f.key_encode is not None:
        out += f" KEY ENCODE {f.key_encode}"
    return out


def column_option(o: n.ColumnOption) -> str:
    prefix = "" if o.name is None else f"CONSTRAINT {d.ident(o.name)} "
    k = o.kind
    if k == "null":
        text = "NULL"
    elif k == "not_null":
        text = "NOT NULL"
    elif k == "default":
        assert o.expr is not None
        text = f"DEFAULT {d.expr(o.expr)}"
    elif k == "default_internal":
        text = "DEFAULT INTERNAL"
    elif k == "primary":
        text = "PRIMARY KEY"
    elif k == "unique":
        text = "UNIQUE"
    elif k == "references":
        text = f"REFERENCES {o.text}"
    elif k == "check":
        assert o.expr is not None
        text = f"CHECK ({d.expr(o.expr)})"
    else:
        assert o.expr is not None
        text = f"AS {d.expr(o.expr)}"
    return prefix + text


def column_def(c: n.ColumnDef) -> str:
    # ColumnDef's Display prints no COLLATE clause (ddl.rs:1089-1106)
    out = f"{d.ident(c.name)} {'None' if c.data_type is None else d.data_type(c.data_type)}"
    return out + "".join(f" {column_option(o)}" for o in c.options)


def watermark(w: n.Watermark) -> str:
    out = f"WATERMARK FOR {d.ident(w.column)} AS {d.expr(w.expr)}"
    return out + (" WITH TTL" if w.with_ttl else "")


def create_items(s: n.CreateTable | n.CreateSource) -> str:
    """fmt_create_items (statement.rs:405-449)."""
    cols = [column_def(c) for c in s.columns]
    if s.wildcard_idx is not None:
        cols.insert(s.wildcard_idx, "*")
    items = cols + list(s.constraints) + [watermark(w) for w in s.watermarks]
    if not items:
        return ""
    return "(" + ", ".join(items) + ")"


def include_item(i: n.IncludeItem) -> str:
    out = f"INCLUDE {d.ident(i.column_type)}"
    if i.inner_field is not None:
        out += f" '{d.escape(i.inner_field)}'"
        if i.header_type is not None:
            out += f" {d.data_type(i.header_type)}"
    if i.alias is not None:
        out += f" AS {d.ident(i.alias)}"
    return out


def create_table(s: n.CreateTable) -> str:
    out = (
        "CREATE " + ("OR REPLACE " if s.or_replace else "") + ("TEMPORARY " if s.temporary else "")
    )
    out += "TABLE " + ("IF NOT EXISTS " if s.if_not_exists else "") + d.object_name(s.name)
    if s.columns or s.constraints:
        out += " " + create_items(s)
    elif s.query is None:
        out += " ()"
    if s.append_only:
        out += " APPEND ONLY"
    if s.on_conflict is not None:
        out += f" ON CONFLICT {s.on_conflict}"
    if s.version_columns:
        out += f" WITH VERSION COLUMN({d.comma(s.version_columns, d.ident)})"
    if s.include:
        out += " " + " ".join(include_item(i) for i in s.include)
    if s.with_options:
        out += " " + with_options(s.with_options)
    if s.format_encode is not None:
        out += " " + format_encode(s.format_encode)
    if s.query is not None:
        out += f" AS {d.query(s.query)}"
    if s.cdc is not None:
        out += f" FROM {d.object_name(s.cdc[0])} TABLE '{s.cdc[1]}'"
    if s.validate is not None:
        secret, func = s.validate
        out += " VALIDATE" + (f" SECRET {d.object_name(secret)}" if secret is not None else "")
        out += f" AS {d.function(func)}"
    if s.engine_iceberg:
        out += " ENGINE = ICEBERG"
    return out


def create_view(s: n.CreateView) -> str:
    out = "CREATE " + ("OR REPLACE " if s.or_replace else "")
    out += ("MATERIALIZED " if s.materialized else "") + "VIEW "
    out += ("IF NOT EXISTS " if s.if_not_exists else "") + d.object_name(s.name)
    if s.with_options:
        out += " " + with_options(s.with_options)
    if s.columns:
        out += f" ({d.comma(s.columns, d.ident)})"
    out += f" AS {d.query(s.query)}"
    return out + (f" EMIT {s.emit}" if s.emit is not None else "")


def create_index(s: n.CreateIndex) -> str:
    out = "CREATE " + ("UNIQUE " if s.unique else "") + "INDEX "
    out += ("IF NOT EXISTS " if s.if_not_exists else "") + d.object_name(s.name)
    out += f" ON {d.object_name(s.table)}"
    if s.method is not None:
        out += f" USING {d.ident(s.method)} "
    out += f"({d.comma(s.columns, d.order_by)})"
    if s.include:
        out += f" INCLUDE({','.join(d.ident(i) for i in s.include)})"
    if s.distributed_by:
        out += f" DISTRIBUTED BY({','.join(d.expr(e) for e in s.distributed_by)})"
    if s.with_options:
        out += " " + with_options(s.with_options)
    return out


def create_source(s: n.CreateSource) -> str:
    parts = ["IF NOT EXISTS"] if s.if_not_exists else []
    parts.append(d.object_name(s.name))
    items = create_items(s)
    if items:
        parts.append(items)
    parts.extend(include_item(i) for i in s.include)
    if s.with_options:
        parts.append(with_options(s.with_options))
    # the format of a CDC source is not printed (statement.rs:470-480)
    is_cdc = any(
        o.name.real_value().lower() == "connector" and "cdc" in o.value for o in s.with_options
    )
    if s.format_encode is not None and not is_cdc:
        parts.append(format_encode(s.format_encode))
    return "CREATE SOURCE " + " ".join(parts)


def create_sink(s: n.CreateSink) -> str:
    parts = ["IF NOT EXISTS"] if s.if_not_exists else []
    parts.append(d.object_name(s.name))
    if s.into_table is not None:
        parts += ["INTO", d.object_name(s.into_table.name)]
        if s.columns:
            parts.append(f"({d.comma(s.columns, d.ident)})")
    if s.from_name is not None:
        parts.append(f"FROM {d.object_name(s.from_name.name)}")
    else:
        assert s.query is not None
        parts.append(f"AS {d.query(s.query)}")
    if s.emit is not None:
        parts.append(f"EMIT {s.emit}")
    if s.with_options:
        parts.append(with_options(s.with_options))
    if s.format_encode is not None:
        parts.append(format_encode(s.format_encode))
    return "CREATE SINK " + " ".join(parts)


def create_subscription(s: n.CreateSubscription) -> str:
    parts = ["IF NOT EXISTS"] if s.if_not_exists else []
    parts += [d.object_name(s.name), f"FROM {d.object_name(s.from_name.name)}"]
    if s.with_options:
        parts.append(with_options(s.with_options))
    return "CREATE SUBSCRIPTION " + " ".join(parts)


def statement(s: n.Statement) -> str:
    if isinstance(s, n.CreateTable):
        return create_table(s)
    if isinstance(s, n.CreateView):
        return create_view(s)
    if isinstance(s, n.CreateIndex):
        return create_index(s)
    if isinstance(s, n.CreateSource):
        return create_source(s)
    if isinstance(s, n.CreateSink):
        return create_sink(s)
    return create_subscription(s)


def normalized(s: n.Statement) -> str:
    """normalize_sql: the Display with OR REPLACE and IF NOT EXISTS cleared."""
    if isinstance(s, (n.CreateTable, n.CreateView)):
        s.or_replace = False
    s.if_not_exists = False
    return statement(s)
