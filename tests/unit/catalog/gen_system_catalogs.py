"""Regenerate rwshim/catalog_path/system_catalogs/system_catalogs.py from RisingWave's source (not
a test).

Reads every ``#[system_catalog(kind, "schema.name"[, "sql"])]`` under
src/frontend/src/catalog/system_catalog/ at the reference commit and writes each builtin
catalog's schema, name, kind (table/view), columns (name, PostgreSQL type OID) and primary
key: the facts rwshim needs to list the system catalogs as RisingWave does (rw_system_tables,
rw_columns, pg_class, ids = SYS_CATALOG_START_ID + rank by full name).

Usage: python tests/unit/catalog/gen_system_catalogs.py /path/to/risingwave.git > out.py
"""

from __future__ import annotations

import re
import subprocess
import sys

BASE = "src/frontend/src/catalog/system_catalog"

SCALAR = {
    "bool": 16,
    "i16": 21,
    "i32": 23,
    "i64": 20,
    "f32": 700,
    "F32": 700,
    "f64": 701,
    "F64": 701,
    "Decimal": 1700,
    "String": 1043,
    "&str": 1043,
    "char": 1043,
    "Context": 1043,
    "Date": 1082,
    "Time": 1083,
    "Timestamp": 1114,
    "Timestamptz": 1184,
    "Interval": 1186,
    "JsonbVal": 3802,
    "Vec<u8>": 17,
    "Int256": 1301,
}
U32_IDS = {
    "TableId",
    "JobId",
    "DatabaseId",
    "SchemaId",
    "FragmentId",
    "ActorId",
    "WorkerId",
    "SinkId",
    "SourceId",
    "SubscriptionId",
    "IndexId",
    "ViewId",
    "FunctionId",
    "ConnectionId",
    "SecretId",
    "SubscriberId",
    "LocalOperatorId",
    "UserId",
    "RelationId",
    "ObjectId",
}
U64_IDS = {
    "HummockSstableObjectId",
    "HummockSstableId",
    "HummockVersionId",
    "CompactionGroupId",
    "HummockRawObjectId",
    "IcebergCompactionTaskId",
}
ARRAY_OF = {
    16: 1000,
    21: 1005,
    23: 1007,
    20: 1016,
    700: 1021,
    701: 1022,
    1043: 1015,
    1700: 1231,
    1184: 1185,
    3802: 3807,
    17: 1001,
}


def type_oid(ty: str) -> int:
    ty = ty.strip().replace("&'static str", "&str")
    m = re.fullmatch(r"Option<(.+)>", ty)
    if m:
        return type_oid(m.group(1))
    if ty in SCALAR:
        return SCALAR[ty]
    if ty in U32_IDS:
        return 23
    if ty in U64_IDS:
        return 20
    m = re.fullmatch(r"Vec<(.+)>", ty)
    if m:
        return ARRAY_OF[type_oid(m.group(1))]
    raise ValueError(f"unknown type {ty}")


def git(repo: str, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", repo, *args], check=True, capture_output=True, text=True
    ).stdout


def structs(src: str) -> dict[str, tuple[list[tuple[str, int]], list[int]]]:
    out = {}
    for m in re.finditer(r"((?:#\[[^\]]*\]\s*)*)(?:pub )?struct (\w+) \{(.*?)\n\}", src, re.S):
        attrs, name, body = m.groups()
        cols: list[tuple[str, int]] = []
        pk: list[int] = []
        field_pk = False
        for line in body.splitlines():
            line = line.split("//")[0].strip()
            if not line:
                continue
            if line.startswith("#[primary_key"):
                field_pk = True
                continue
            if line.startswith("#["):
                continue
            fm = re.fullmatch(r"(?:pub(?:\(\w+\))? )?(r#)?(\w+): (.+?),?", line)
            if not fm:
                continue
            try:
                oid = type_oid(fm.group(3))
            except (ValueError, KeyError):
                cols = []
                break
            if field_pk:
                pk.append(len(cols))
                field_pk = False
            cols.append((fm.group(2), oid))
        sm = re.search(r"#\[primary_key\(([^)]*)\)\]", attrs)
        if sm:
            names = [n.strip() for n in sm.group(1).split(",")]
            pk = [i for n in names for i, c in enumerate(cols) if c[0] == n]
        if cols:
            out[name] = (cols, pk)
    return out


def rust_str(lit: str) -> str:
    """The value of a Rust string literal body (escapes and line continuations)."""
    lit = re.sub(r"\\\n\s*", "", lit)
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), lit)


DISPLAY = {
    16: "boolean",
    21: "smallint",
    23: "integer",
    20: "bigint",
    700: "real",
    701: "double precision",
    1700: "numeric",
    1043: "character varying",
    1082: "date",
    1083: "time without time zone",
    1114: "timestamp without time zone",
    1184: "timestamp with time zone",
    1186: "interval",
    3802: "jsonb",
    17: "bytea",
    1301: "rw_int256",
}
ELEM = {v: k for k, v in ARRAY_OF.items()}


def display(oid: int) -> str:
    return DISPLAY[ELEM[oid]] + "[]" if oid in ELEM else DISPLAY[oid]


def dummy_sql(cols: list[tuple[str, int]]) -> str:
    """system_catalog/mod.rs infer_dummy_view_sql."""
    return "SELECT {} WHERE 1 != 1".format(", ".join(f"NULL::{display(o)} AS {c}" for c, o in cols))


def main(repo: str) -> None:
    files = [
        f
        for f in git(repo, "ls-tree", "-r", "--name-only", "HEAD", BASE).split()
        if f.endswith(".rs")
    ]
    sources = {f: re.sub(r"(?m)^\s*//.*$", "", git(repo, "show", f"HEAD:{f}")) for f in files}
    all_structs: dict[str, tuple[list[tuple[str, int]], list[int]]] = {}
    for s in sources.values():
        all_structs.update(structs(s))
    attr = re.compile(
        r'#\[system_catalog\(\s*(table|view)\s*,\s*"([\w.]+)"\s*(?:,\s*"((?:[^"\\]|\\.)*)"\s*)?\)\]'
        r"(.*?)(?:\n(?:pub )?(?:async )?fn (\w+)[^{]*?->\s*([^{]+)\{|\n(?:pub )?struct (\w+))",
        re.S,
    )
    rows = []
    for f, s in sorted(sources.items()):
        for m in attr.finditer(s):
            kind, full, sql, _, _fn, ret, sname = m.groups()
            if ret:
                inner = re.findall(r"Vec<(?:[\w:]+::)?(\w+)>", ret)
                if not inner:
                    raise SystemExit(f"{f}: {full}: return type {ret!r}")
                sname = inner[0]
            cols, pk = {**all_structs, **structs(s)}[sname]
            schema, name = full.split(".", 1)
            view_sql = None
            if kind == "view":
                view_sql = rust_str(sql) if sql is not None else dummy_sql(cols)
            rows.append((schema, name, kind, cols, pk, view_sql, f.rsplit("/", 1)[1]))
    rows.sort(key=lambda r: f"{r[0]}.{r[1]}")
    print("# ruff: noqa: E501")
    print('"""RisingWave\'s builtin system catalogs at the reference commit 448c657 (generated).')
    print()
    print("Generated by tests/unit/catalog/gen_system_catalogs.py from")
    print(f"{BASE}/**: each catalog's schema, name, kind,")
    print("columns (name, PostgreSQL type OID), primary key and view SQL, sorted by full name as")
    print("RisingWave ranks them")
    print("(system_catalog/mod.rs: id = SYS_CATALOG_START_ID + rank).  Do not edit by hand.")
    print('"""')
    print()
    print("from __future__ import annotations")
    print()
    print("SYS_CATALOG_START_ID = 2147483647 - 5000  # src/common/src/catalog/mod.rs:75-76")
    print()
    print("# (schema, name, kind, ((column, type_oid), ...), primary key indices,")
    print("#  view SQL text as RisingWave stores it (None for tables), source file)")
    print("SYSTEM_CATALOGS: tuple[")
    print(
        "    tuple[str, str, str, tuple[tuple[str, int], ...], tuple[int, ...], str | None, str],"
    )
    print("    ...,")
    print("] = (")
    for schema, name, kind, cols, pk, view_sql, fname in rows:
        print(f"    ({schema!r}, {name!r}, {kind!r}, (")
        for c, o in cols:
            print(f"        ({c!r}, {o}),")
        print(f"    ), {tuple(pk)!r},")
        print(f"    {view_sql!r},")
        print(f"    {fname!r}),")
    print(")")


if __name__ == "__main__":
    main(sys.argv[1])
