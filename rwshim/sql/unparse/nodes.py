"""RisingWave's SQL syntax tree, as far as the statements rwshim stores go: the node types of
``src/sqlparser/src/ast/`` (``mod.rs`` Expr, Function, Window; ``query.rs`` Query, Select,
TableFactor, Join; ``data_type.rs``; ``value.rs``; ``ddl.rs`` ColumnDef, TableConstraint,
SourceWatermark; ``statement.rs`` the CREATE statements), one dataclass per variant, with the
fields RisingWave's Display reads.  Nodes are mutable: the rename rewriter
(``rename.py``) edits them in place, as ``src/meta/src/controller/rename.rs`` does.

A ``TableRef`` also carries the character span of its name in the parsed text, so that a
query can be rewritten by splicing the user's own text (``bound.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

# ---------------------------------------------------------------- names (mod.rs)


@dataclass(slots=True)
class Ident:
    """``Ident``: the value without quotes and the quote style (``"`` or None)."""

    value: str
    quoted: bool = False

    def real_value(self) -> str:
        """Unquoted identifiers fold to lower case (mod.rs Ident::real_value)."""
        return self.value if self.quoted else self.value.lower()


@dataclass(slots=True)
class ObjectName:
    parts: list[Ident]

    def real_value(self) -> str:
        return ".".join(p.real_value() for p in self.parts)


# ---------------------------------------------------------------- data types (data_type.rs)


@dataclass(slots=True)
class DataType:
    """A data type.  ``name`` is the Display text of a simple type (``INT``, ``CHARACTER
    VARYING``, ``NUMERIC(10,2)``, ``TIMESTAMP WITH TIME ZONE``, a custom name as written);
    ``kind`` says which variant it is: ``simple``, ``custom`` (DataType::Custom), ``interval``,
    ``array`` (of ``elem``), ``struct`` (``fields``), ``map`` (``key``, ``elem``)."""

    kind: str
    name: str = ""
    elem: DataType | None = None
    key: DataType | None = None
    fields: list[tuple[Ident, DataType]] = field(default_factory=list)


# ---------------------------------------------------------------- values (value.rs)


@dataclass(slots=True)
class Value:
    """A literal.  ``kind``: ``number``, ``string`` ('..'), ``estring`` (E'..' raw text),
    ``nstring``, ``xstring``, ``dollar`` (its source text), ``dquoted`` (a "..." option value),
    ``bool``, ``null``; ``text`` is what Display needs."""

    kind: str
    text: str


@dataclass(slots=True)
class Interval:
    """``Value::Interval``."""

    value: str
    leading_field: str | None = None
    leading_precision: int | None = None
    last_field: str | None = None
    fractional_precision: int | None = None


# ---------------------------------------------------------------- expressions (mod.rs Expr)


@dataclass(slots=True)
class Identifier:
    ident: Ident


@dataclass(slots=True)
class CompoundIdentifier:
    parts: list[Ident]


@dataclass(slots=True)
class FieldIdentifier:
    """``(expr).a.b``."""

    expr: Expr
    fields: list[Ident]


@dataclass(slots=True)
class IsCheck:
    """``expr IS [NOT] NULL | TRUE | FALSE | UNKNOWN``: ``what`` is the text after IS."""

    expr: Expr
    what: str


@dataclass(slots=True)
class IsDistinctFrom:
    left: Expr
    right: Expr
    negated: bool


@dataclass(slots=True)
class IsJson:
    expr: Expr
    negated: bool
    item_type: str  # "", " ARRAY", " OBJECT", " SCALAR" (JsonPredicateType's Display)
    unique_keys: bool


@dataclass(slots=True)
class InList:
    expr: Expr
    items: list[Expr]
    negated: bool


@dataclass(slots=True)
class InSubquery:
    expr: Expr
    query: Query
    negated: bool


@dataclass(slots=True)
class Between:
    expr: Expr
    low: Expr
    high: Expr
    negated: bool


@dataclass(slots=True)
class Like:
    """LIKE, ILIKE, SIMILAR TO (``op``), with the optional ESCAPE character ('' = empty)."""

    op: str
    expr: Expr
    pattern: Expr
    negated: bool
    escape: str | None = None


@dataclass(slots=True)
class BinaryOp:
    left: Expr
    op: str  # BinaryOperator's Display (``<>`` for ``!=``, ``OPERATOR(s.+)``, ...)
    right: Expr


@dataclass(slots=True)
class Quantified:
    """``SOME(expr)`` / ``ALL(expr)`` (ANY is SOME)."""

    kind: str
    expr: Expr


@dataclass(slots=True)
class UnaryOp:
    op: str
    expr: Expr


@dataclass(slots=True)
class Cast:
    expr: Expr
    data_type: DataType
    try_cast: bool = False


@dataclass(slots=True)
class AtTimeZone:
    timestamp: Expr
    zone: Expr


@dataclass(slots=True)
class Extract:
    field: str  # upper-cased as the parser keeps it
    expr: Expr


@dataclass(slots=True)
class Substring:
    expr: Expr
    start: Expr | None
    length: Expr | None


@dataclass(slots=True)
class Position:
    substring: Expr
    string: Expr


@dataclass(slots=True)
class Overlay:
    expr: Expr
    new_substring: Expr
    start: Expr
    count: Expr | None


@dataclass(slots=True)
class Trim:
    expr: Expr
    where: str | None  # BOTH | LEADING | TRAILING
    what: Expr | None


@dataclass(slots=True)
class Collate:
    expr: Expr
    collation: ObjectName


@dataclass(slots=True)
class Nested:
    expr: Expr


@dataclass(slots=True)
class Parameter:
    index: int


@dataclass(slots=True)
class TypedString:
    data_type: DataType
    value: str


@dataclass(slots=True)
class OrderByExpr:
    expr: Expr
    asc: bool | None = None
    nulls_first: bool | None = None


@dataclass(slots=True)
class FrameBound:
    """``CURRENT ROW`` / ``[<offset> | UNBOUNDED] PRECEDING | FOLLOWING`` (offset None =
    UNBOUNDED)."""

    kind: str  # CURRENT ROW | PRECEDING | FOLLOWING
    offset: Expr | None = None


@dataclass(slots=True)
class WindowFrame:
    """``units start`` / ``units BETWEEN start AND end`` / ``SESSION WITH GAP gap``; the
    EXCLUDE clause is parsed but, as in RisingWave's Display, never printed."""

    units: str  # ROWS | RANGE | GROUPS | SESSION
    start: FrameBound | None
    end: FrameBound | None = None
    gap: Expr | None = None


@dataclass(slots=True)
class WindowSpec:
    partition_by: list[Expr]
    order_by: list[OrderByExpr]
    frame: WindowFrame | None


@dataclass(slots=True)
class FunctionArg:
    """One argument: ``name => arg`` when named.  ``arg`` is an expression or a wildcard."""

    arg: Expr | Wildcard | SecretRef
    name: Ident | None = None


@dataclass(slots=True)
class Function:
    name: ObjectName
    args: list[FunctionArg]
    distinct: bool = False
    variadic: bool = False
    order_by: list[OrderByExpr] = field(default_factory=list)
    ignore_nulls: bool = False
    scalar_as_agg: bool = False
    within_group: OrderByExpr | None = None
    filter: Expr | None = None
    over: WindowSpec | Ident | None = None


@dataclass(slots=True)
class Case:
    operand: Expr | None
    conditions: list[Expr]
    results: list[Expr]
    else_result: Expr | None


@dataclass(slots=True)
class Exists:
    query: Query


@dataclass(slots=True)
class Subquery:
    query: Query


@dataclass(slots=True)
class Grouping:
    """GROUPING SETS / CUBE / ROLLUP (``kind``)."""

    kind: str
    sets: list[list[Expr]]


@dataclass(slots=True)
class Row:
    items: list[Expr]


@dataclass(slots=True)
class Array:
    items: list[Expr]
    named: bool


@dataclass(slots=True)
class ArraySubquery:
    query: Query


@dataclass(slots=True)
class Index:
    obj: Expr
    index: Expr


@dataclass(slots=True)
class ArrayRange:
    obj: Expr
    start: Expr | None
    end: Expr | None


@dataclass(slots=True)
class Lambda:
    args: list[Ident]
    body: Expr


@dataclass(slots=True)
class Map:
    entries: list[tuple[Expr, Expr]]


@dataclass(slots=True)
class Wildcard:
    """``*`` / ``a.b.*`` / ``(expr).a.*``, with an optional EXCEPT list: a select item or a
    function argument (SelectItem / FunctionArgExpr wildcards)."""

    prefix: ObjectName | None = None
    expr: Expr | None = None  # ExprQualifiedWildcard: ``(expr)`` then ``prefix`` fields
    fields: list[Ident] = field(default_factory=list)
    except_: list[Expr] | None = None


@dataclass(slots=True)
class SecretRef:
    name: ObjectName
    as_file: bool = False


Expr = (
    Identifier
    | CompoundIdentifier
    | FieldIdentifier
    | IsCheck
    | IsDistinctFrom
    | IsJson
    | InList
    | InSubquery
    | Between
    | Like
    | BinaryOp
    | Quantified
    | UnaryOp
    | Cast
    | AtTimeZone
    | Extract
    | Substring
    | Position
    | Overlay
    | Trim
    | Collate
    | Nested
    | Value
    | Interval
    | Parameter
    | TypedString
    | Function
    | Case
    | Exists
    | Subquery
    | Grouping
    | Row
    | Array
    | ArraySubquery
    | Index
    | ArrayRange
    | Lambda
    | Map
)

# ---------------------------------------------------------------- queries (query.rs)


@dataclass(slots=True)
class TableAlias:
    name: Ident
    columns: list[Ident] = field(default_factory=list)


@dataclass(slots=True)
class TableRef:
    """``TableFactor::Table``: a named relation.  ``span`` is the (start, end) of its name in
    the parsed text and ``after`` the offset where an alias would go (after ``FOR SYSTEM_TIME
    AS OF ...``); ``as_of`` is the Display of that clause."""

    name: ObjectName
    alias: TableAlias | None = None
    as_of: str = ""
    span: tuple[int, int] = (0, 0)
    after: int = 0


@dataclass(slots=True)
class Derived:
    lateral: bool
    query: Query
    alias: TableAlias | None = None


@dataclass(slots=True)
class TableFunction:
    name: ObjectName
    args: list[FunctionArg]
    with_ordinality: bool = False
    alias: TableAlias | None = None


@dataclass(slots=True)
class NestedJoin:
    inner: TableWithJoins


TableFactor = TableRef | Derived | TableFunction | NestedJoin


@dataclass(slots=True)
class Join:
    relation: TableFactor
    op: str  # "JOIN", "LEFT JOIN", ..., "CROSS JOIN", "ASOF JOIN", "ASOF LEFT JOIN"
    natural: bool = False
    on: Expr | None = None
    using: list[Ident] | None = None


@dataclass(slots=True)
class TableWithJoins:
    relation: TableFactor
    joins: list[Join] = field(default_factory=list)


@dataclass(slots=True)
class SelectItem:
    """An expression (``alias`` optional) or a wildcard."""

    expr: Expr | Wildcard
    alias: Ident | None = None


@dataclass(slots=True)
class NamedWindow:
    name: Ident
    spec: WindowSpec


@dataclass(slots=True)
class Select:
    distinct: bool | list[Expr]  # False: ALL; True: DISTINCT; a list: DISTINCT ON
    projection: list[SelectItem]
    from_: list[TableWithJoins] = field(default_factory=list)
    selection: Expr | None = None
    group_by: list[Expr] = field(default_factory=list)
    having: Expr | None = None
    window: list[NamedWindow] = field(default_factory=list)


@dataclass(slots=True)
class Values:
    rows: list[list[Expr]]


@dataclass(slots=True)
class SetOperation:
    op: str  # UNION | EXCEPT | INTERSECT
    all: bool
    corresponding: list[Ident] | bool  # False: none; True: CORRESPONDING; list: BY
    left: SetExpr
    right: SetExpr


@dataclass(slots=True)
class QueryBody:
    """``SetExpr::Query``: a parenthesised query in a query body."""

    query: Query


SetExpr = Select | Values | SetOperation | QueryBody


@dataclass(slots=True)
class Cte:
    alias: TableAlias
    query: Query | None = None
    changelog: TableRef | None = None  # ``AS changelog FROM <name>``


@dataclass(slots=True)
class Query:
    body: SetExpr
    with_: list[Cte] | None = None
    recursive: bool = False
    order_by: list[OrderByExpr] = field(default_factory=list)
    limit: Expr | None = None
    offset: str | None = None
    fetch: tuple[bool, str | None] | None = None  # (with ties, quantity)


# ---------------------------------------------------------------- DDL (ddl.rs, statement.rs)


@dataclass(slots=True)
class SqlOption:
    """``name = value``: ``value`` is the Display of SqlOptionValue."""

    name: ObjectName
    value: str


@dataclass(slots=True)
class ColumnOption:
    """One column option: ``kind`` is null, not_null, default, default_internal, primary,
    unique, check, generated (with ``expr``) or references (``text`` is its Display after
    REFERENCES); ``name`` is a ``CONSTRAINT <name>``."""

    kind: str
    expr: Expr | None = None
    text: str = ""
    name: Ident | None = None


@dataclass(slots=True)
class ColumnDef:
    name: Ident
    data_type: DataType | None
    collation: ObjectName | None = None
    options: list[ColumnOption] = field(default_factory=list)


@dataclass(slots=True)
class Watermark:
    column: Ident
    expr: Expr
    with_ttl: bool = False


@dataclass(slots=True)
class FormatEncode:
    format: str
    encode: str
    options: list[SqlOption] = field(default_factory=list)
    key_encode: str | None = None


@dataclass(slots=True)
class IncludeItem:
    column_type: Ident
    inner_field: str | None = None
    header_type: DataType | None = None
    alias: Ident | None = None


@dataclass(slots=True)
class CreateTable:
    name: ObjectName
    columns: list[ColumnDef] = field(default_factory=list)
    constraints: list[str] = field(default_factory=list)  # TableConstraint Display texts
    pk_constraint: list[Ident] | None = None  # the columns of PRIMARY KEY (...), if any
    watermarks: list[Watermark] = field(default_factory=list)
    wildcard_idx: int | None = None
    or_replace: bool = False
    temporary: bool = False
    if_not_exists: bool = False
    append_only: bool = False
    on_conflict: str | None = None
    version_columns: list[Ident] = field(default_factory=list)
    include: list[IncludeItem] = field(default_factory=list)
    with_options: list[SqlOption] = field(default_factory=list)
    format_encode: FormatEncode | None = None
    query: Query | None = None
    cdc: tuple[ObjectName, str] | None = None
    validate: tuple[ObjectName | None, Function] | None = None  # webhook VALIDATE [SECRET s] AS
    engine_iceberg: bool = False


@dataclass(slots=True)
class CreateView:
    name: ObjectName
    query: Query
    materialized: bool = False
    or_replace: bool = False
    if_not_exists: bool = False
    columns: list[Ident] = field(default_factory=list)
    with_options: list[SqlOption] = field(default_factory=list)
    emit: str | None = None  # IMMEDIATELY | ON WINDOW CLOSE


@dataclass(slots=True)
class CreateIndex:
    name: ObjectName
    table: ObjectName
    columns: list[OrderByExpr]
    unique: bool = False
    if_not_exists: bool = False
    method: Ident | None = None
    include: list[Ident] = field(default_factory=list)
    distributed_by: list[Expr] = field(default_factory=list)
    with_options: list[SqlOption] = field(default_factory=list)


@dataclass(slots=True)
class CreateSource:
    name: ObjectName
    columns: list[ColumnDef] = field(default_factory=list)
    constraints: list[str] = field(default_factory=list)
    pk_constraint: list[Ident] | None = None
    watermarks: list[Watermark] = field(default_factory=list)
    wildcard_idx: int | None = None
    if_not_exists: bool = False
    include: list[IncludeItem] = field(default_factory=list)
    with_options: list[SqlOption] = field(default_factory=list)
    format_encode: FormatEncode | None = None


@dataclass(slots=True)
class CreateSink:
    name: ObjectName
    from_name: TableRef | None = None
    query: Query | None = None
    if_not_exists: bool = False
    into_table: TableRef | None = None
    columns: list[Ident] = field(default_factory=list)
    emit: str | None = None
    with_options: list[SqlOption] = field(default_factory=list)
    format_encode: FormatEncode | None = None


@dataclass(slots=True)
class CreateSubscription:
    name: ObjectName
    from_name: TableRef
    if_not_exists: bool = False
    with_options: list[SqlOption] = field(default_factory=list)


Statement = CreateTable | CreateView | CreateIndex | CreateSource | CreateSink | CreateSubscription
