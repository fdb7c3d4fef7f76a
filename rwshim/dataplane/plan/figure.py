"""PostgreSQL's name for an unaliased output expression (FigureColnameInternal,
src/backend/parser/parse_target.c): the names the rewritten text's result columns carry, which
the data plane needs for star expansion and set operations (rewrite, corresponding)."""

from __future__ import annotations

from rwshim.dataplane.plan import tree

UNNAMED = "?column?"

_SVF_NAMES = {
    "SVFOP_CURRENT_DATE": "current_date",
    "SVFOP_CURRENT_TIME": "current_time",
    "SVFOP_CURRENT_TIME_N": "current_time",
    "SVFOP_CURRENT_TIMESTAMP": "current_timestamp",
    "SVFOP_CURRENT_TIMESTAMP_N": "current_timestamp",
    "SVFOP_LOCALTIME": "localtime",
    "SVFOP_LOCALTIME_N": "localtime",
    "SVFOP_LOCALTIMESTAMP": "localtimestamp",
    "SVFOP_LOCALTIMESTAMP_N": "localtimestamp",
    "SVFOP_CURRENT_ROLE": "current_role",
    "SVFOP_CURRENT_USER": "current_user",
    "SVFOP_USER": "user",
    "SVFOP_SESSION_USER": "session_user",
    "SVFOP_CURRENT_CATALOG": "current_catalog",
    "SVFOP_CURRENT_SCHEMA": "current_schema",
}


def figure_name(val: tree.Node) -> str:
    """PostgreSQL's name for an unaliased output expression (FigureColnameInternal,
    src/backend/parser/parse_target.c), which the rewritten text's result will carry."""
    wrapped = tree._wrapped(val)
    if wrapped is None:
        return UNNAMED
    kind, node = wrapped
    if kind == "ColumnRef":
        fields = node.get("fields") or []
        last = fields[-1].get("String") if fields else None
        return last.get("sval", UNNAMED) if last else UNNAMED
    if kind == "A_Indirection":
        for ind in reversed(node.get("indirection") or []):
            s = ind.get("String")
            if s is not None:
                return str(s.get("sval", UNNAMED))
        return figure_name(node.get("arg") or {})
    if kind == "FuncCall":
        parts = tree._names(node.get("funcname"))
        return parts[-1] if parts else UNNAMED
    if kind == "TypeCast":
        inner = figure_name(node.get("arg") or {})
        if inner != UNNAMED:
            return inner
        parts = tree._names((node.get("typeName") or {}).get("names"))
        return parts[-1] if parts else UNNAMED
    if kind == "CaseExpr":
        return "case"
    if kind == "A_ArrayExpr":
        return "array"
    if kind == "RowExpr":
        return "row"
    if kind == "CoalesceExpr":
        return "coalesce"
    if kind == "MinMaxExpr":
        return "greatest" if node.get("op") == "IS_GREATEST" else "least"
    if kind == "NullIfExpr":
        return "nullif"
    if kind == "SQLValueFunction":
        return _SVF_NAMES.get(node.get("op", ""), UNNAMED)
    if kind == "SubLink":
        t = node.get("subLinkType")
        if t == "EXISTS_SUBLINK":
            return "exists"
        if t == "ARRAY_SUBLINK":
            return "array"
        if t in ("EXPR_SUBLINK", "MULTIEXPR_SUBLINK"):
            sub = (node.get("subselect") or {}).get("SelectStmt") or {}
            targets = sub.get("targetList") or []
            if targets:
                rt = targets[0].get("ResTarget", {})
                return str(rt.get("name") or figure_name(rt.get("val") or {}))
    return UNNAMED
