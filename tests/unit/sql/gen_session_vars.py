"""Regenerate rwshim/common/session_vars_generated.py from RisingWave's source (not a test).

Reads, at the reference commit, the ``SessionConfig`` struct of
src/common/src/session_config/mod.rs and what its ``#[derive(SessionConfig)]`` proc macro
(src/common/proc_macro/src/session_config.rs) makes of each field, and writes them as data:

- every entry: name (``rename`` or the lower-cased field), aliases, field type, default as
  ``Display`` renders it (what SHOW prints), flags, check hook, deprecation notice, and the
  description SHOW ALL prints (the doc lines, each trimmed, joined with a space);
- for every field type that is an enum of unit variants (``QueryMode``, ``SinkDecouple``, the
  ``OptionConfig<..>`` policies, ...): the inputs its ``FromStr`` accepts, the ``Display`` of each
  variant, its error text and how it folds the input;
- the literals of ``str_to_bool`` (src/common/src/cast/mod.rs), which parses every bool field;
- the constants the hand-written rules need (list separator, the vnode maximum).

It evaluates each ``default = ...`` expression the way rustc would for a release build
(``cfg!(debug_assertions)`` is false), resolving constants in RisingWave's source. Anything it
does not recognise stops it with an error naming the field, so a change in RisingWave's source
is a visible failure here rather than a wrong row.

Usage (from the repository root; the generated file is formatted with ruff):

    .venv/bin/python tests/unit/sql/gen_session_vars.py /path/to/risingwave.git \
        > rwshim/common/session_vars_generated.py

``--rev <commit>`` reads another commit than the reference one.
"""

from __future__ import annotations

import argparse
import ast
import operator
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, NoReturn

REFERENCE = "448c6570b1b9d636736708340f61a85900c2b7d7"
MOD_RS = "src/common/src/session_config/mod.rs"
MACRO_RS = "src/common/proc_macro/src/session_config.rs"
CAST_RS = "src/common/src/cast/mod.rs"
VNODE_RS = "src/common/src/hash/consistent_hash/vnode.rs"
COMMON = "src/common/src"
INT_TYPES = {"i32": (-(2**31), 2**31 - 1), "u32": (0, 2**32 - 1), "u64": (0, 2**64 - 1)}
INT_TYPES["usize"] = INT_TYPES["u64"]


class Source:
    """Files of one RisingWave commit, read with git."""

    def __init__(self, repo: str, rev: str) -> None:
        self.repo, self.rev = repo, rev
        self._files: dict[str, str] = {}

    def _git(self, *args: str) -> str:
        return subprocess.run(
            ["git", "-C", self.repo, *args], check=True, capture_output=True, text=True
        ).stdout

    def read(self, path: str) -> str:
        if path not in self._files:
            self._files[path] = self._git("show", f"{self.rev}:{path}")
        return self._files[path]

    def grep(self, pattern: str, under: str = COMMON) -> list[tuple[str, int]]:
        """(path, line) of every line matching the extended regex ``pattern``."""
        try:
            out = self._git("grep", "-n", "-E", pattern, self.rev, "--", under)
        except subprocess.CalledProcessError:
            return []
        hits = []
        for line in out.splitlines():
            _, path, num, _ = line.split(":", 3)
            hits.append((path, int(num)))
        return hits


def fail(msg: str) -> NoReturn:
    raise SystemExit(f"gen_session_vars: {msg}")


# ------------------------------------------------------------------------- Rust text helpers


def rust_str(body: str) -> str:
    """The value of a Rust string literal's body (escapes, line continuations)."""
    body = re.sub(r"\\\n\s*", "", body)
    escapes = {"n": "\n", "t": "\t", "r": "\r", "0": "\0"}
    return re.sub(r"\\(.)", lambda m: escapes.get(m.group(1), m.group(1)), body)


STR_LIT = r'"((?:[^"\\]|\\.)*)"'


def split_top(text: str, sep: str) -> list[str]:
    """``text`` split on ``sep`` outside string literals and brackets."""
    parts, depth, cur, i = [], 0, [], 0
    while i < len(text):
        c = text[i]
        if c == '"':
            m = re.match(STR_LIT, text[i:])
            if not m:
                fail(f"unterminated string in {text!r}")
            cur.append(m.group(0))
            i += len(m.group(0))
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if depth == 0 and text.startswith(sep, i):
            parts.append("".join(cur).strip())
            cur, i = [], i + len(sep)
            continue
        cur.append(c)
        i += 1
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def block_after(text: str, header: str) -> str:
    """The brace-balanced body following the first match of the regex ``header``."""
    m = re.search(header, text)
    if not m:
        fail(f"no {header!r}")
    start = text.index("{", m.end() - 1)
    depth = 0
    for i in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return text[start + 1 : i]
    fail(f"unbalanced block after {header!r}")


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


# ------------------------------------------------------------------------- constants


class Consts:
    """``const NAME: T = expr;`` anywhere in src/common/src, evaluated."""

    _BIN: ClassVar[dict[type, Callable[[int, int], int]]] = {
        ast.Add: operator.add,
        ast.Sub: operator.sub,
        ast.Mult: operator.mul,
        ast.LShift: operator.lshift,
    }

    def __init__(self, src: Source) -> None:
        self.src = src

    def _definition(self, name: str, near: str) -> tuple[str, str]:
        """The expression of ``const``/``type`` ``name``; ``Owner::NAME`` is looked up in the
        file that has ``impl Owner``, a bare name in ``near`` first (the file using it)."""
        owner, _, const = name.rpartition("::")
        hits = self.src.grep(rf"^\s*(pub )?(const|type) {const}\b")
        if owner and owner != "Self":
            hits = [h for h in hits if f"impl {owner} " in self.src.read(h[0])]
        elif len(hits) > 1:
            hits = [h for h in hits if h[0] == near] or hits
        if len(hits) != 1:
            fail(f"constant {name}: {len(hits)} definitions")
        path, num = hits[0]
        line = self.src.read(path).splitlines()[num - 1]
        m = re.search(rf"(?:const|type) {const}\b(?:: [^=]+)? = (.+);", line)
        if not m:
            fail(f"constant {name}: cannot read {line!r}")
        return m.group(1).strip(), path

    def value(self, expr: str, near: str = MOD_RS) -> object:
        """A bool, int or str for a constant expression used in the file ``near``."""
        expr = expr.strip()
        if expr in ("true", "false"):
            return expr == "true"
        if expr == "cfg!(debug_assertions)":
            return False  # a release build
        m = re.fullmatch(STR_LIT, expr)
        if m:
            return rust_str(m.group(1))
        m = re.fullmatch(r"(-?[0-9][0-9_]*)(?:_?[iu](?:8|16|32|64|size))?", expr)
        if m:
            return int(m.group(1).replace("_", ""))
        m = re.fullmatch(r"(\w+)::BITS", expr)
        if m:
            alias, _ = self._definition(m.group(1), near)
            bits = re.fullmatch(r"[iu](8|16|32|64)", alias)
            if not bits:
                fail(f"{expr}: {alias}")
            return int(bits.group(1))
        if re.fullmatch(r"(?:\w+::)*[A-Z][A-Z0-9_]*", expr):
            return self.value(*self._definition(expr, near))
        return self._int_expr(expr, near)

    def _int_expr(self, expr: str, near: str) -> int:
        names: dict[str, str] = {}

        def sub(m: re.Match[str]) -> str:
            key = f"_c{len(names)}"
            names[key] = m.group(0)
            return key

        py = re.sub(r"(?:\w+::)*[A-Z][A-Z0-9_]*(?:::BITS)?|\w+::BITS", sub, expr)
        py = re.sub(r"([0-9])_?[iu](?:8|16|32|64|size)\b", r"\1", py)
        try:
            tree = ast.parse(py, mode="eval").body
        except SyntaxError:
            fail(f"cannot evaluate {expr!r}")

        def ev(node: ast.expr) -> int:
            if isinstance(node, ast.Constant) and isinstance(node.value, int):
                return node.value
            if isinstance(node, ast.Name):
                v = self.value(names[node.id], near)
                if not isinstance(v, int) or isinstance(v, bool):
                    fail(f"{names[node.id]} is not an integer")
                return v
            if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
                return -ev(node.operand)
            if isinstance(node, ast.BinOp) and type(node.op) in self._BIN:
                return self._BIN[type(node.op)](ev(node.left), ev(node.right))
            fail(f"cannot evaluate {expr!r}")

        return ev(tree)


# ------------------------------------------------------------------------- field types


@dataclass
class EnumType:
    """An enum of unit variants with its FromStr and Display."""

    name: str
    path: str
    line: int
    variants: list[str]
    default: str | None
    display: dict[str, str]
    accepts: list[tuple[str, str]]  # (input after folding, variant)
    error: str
    fold_dashes: bool


class Types:
    """The field types of SessionConfig, found in src/common/src."""

    def __init__(self, src: Source, consts: Consts) -> None:
        self.src, self.consts = src, consts
        self._enums: dict[str, EnumType | None] = {}

    def _file_of(self, kind: str, name: str) -> tuple[str, int]:
        hits = self.src.grep(rf"^\s*pub (enum|struct) {name}\b")
        hits = [h for h in hits if re.search(rf"pub {kind} {name}\b", self._line(h))]
        if len(hits) != 1:
            fail(f"{kind} {name}: {len(hits)} definitions")
        return hits[0]

    def _line(self, hit: tuple[str, int]) -> str:
        return self.src.read(hit[0]).splitlines()[hit[1] - 1]

    def enum(self, name: str) -> EnumType | None:
        """The enum ``name`` if all its variants are units, else None."""
        if name in self._enums:
            return self._enums[name]
        if not self.src.grep(rf"^\s*pub enum {name}\b"):
            self._enums[name] = None
            return None
        path, line = self._file_of("enum", name)
        text = self.src.read(path)
        body = block_after(text, rf"pub enum {name}\b[^{{]*\{{")
        body = re.sub(r"(?m)^\s*//.*$", "", body)
        variants: list[str] = []
        default = None
        for item in split_top(body, ","):
            attrs = re.findall(r"#\[(\w+)\]", item)
            ident = re.sub(r"#\[[^\]]*\]", "", item).strip()
            if not re.fullmatch(r"[A-Z]\w*(?:\s*=\s*\d+)?", ident):
                self._enums[name] = None  # a variant with data: not a plain enum
                return None
            var = ident.split("=")[0].strip()
            variants.append(var)
            if "default" in attrs:
                default = var
        e = EnumType(
            name,
            path,
            line,
            variants,
            default,
            self._display(name, text, variants),
            *self._from_str(name, text, variants),
        )
        self._enums[name] = e
        return e

    def _display(self, name: str, text: str, variants: list[str]) -> dict[str, str]:
        header = rf"impl (?:std::fmt::)?Display for {name}\b"
        if not re.search(header, text):
            attr = re.search(r'#\[display\(style = "snake_case"\)\]\s*pub enum ' + name, text)
            if not attr:
                fail(f"{name}: no Display")
            return {v: re.sub(r"(?<!^)(?=[A-Z])", "_", v).lower() for v in variants}
        body = block_after(text, header + r"[^{]*\{")
        shown: dict[str, str] = {}
        for v in variants:
            arm = re.search(
                rf"(?:Self|{name})::{v}\b\s*=>\s*(?:\{{\s*)?(?:write!\(\s*f,\s*(.+?)\)|{STR_LIT})",
                body,
                re.S,
            )
            if not arm:
                fail(f"{name}::{v}: no Display arm")
            if arm.group(2) is not None:
                shown[v] = rust_str(arm.group(2))
                continue
            args = split_top(arm.group(1), ",")
            fmt = re.fullmatch(STR_LIT, args[0])
            if not fmt:
                fail(f"{name}::{v}: Display {arm.group(1)!r}")
            pieces = rust_str(fmt.group(1)).split("{}")
            if len(pieces) != len(args):
                fail(f"{name}::{v}: Display {arm.group(1)!r}")
            out = pieces[0]
            for arg, rest in zip(args[1:], pieces[1:], strict=True):
                out += str(self.consts.value(arg)) + rest
            shown[v] = out
        return shown

    def _from_str(
        self, name: str, text: str, variants: list[str]
    ) -> tuple[list[tuple[str, str]], str, bool]:
        body = block_after(text, rf"impl (?:std::str::)?FromStr for {name}\b[^{{]*\{{")
        if "to_ascii_lowercase" not in body and "eq_ignore_ascii_case" not in body:
            fail(f"{name}: FromStr does not fold ASCII case")
        fold_dashes = "replace('-', \"_\")" in body
        accepts: list[tuple[str, str]] = []
        for m in re.finditer(
            rf"eq_ignore_ascii_case\({STR_LIT}\)\s*\{{\s*Ok\((?:Self|{name})::(\w+)\)", body
        ):
            accepts.append((rust_str(m.group(1)).lower(), m.group(2)))
        for m in re.finditer(
            rf'((?:"[^"]*"\s*\|\s*)*"[^"]*")\s*=>\s*Ok\((?:Self|{name})::(\w+)\)', body
        ):
            for lit in re.findall(STR_LIT, m.group(1)):
                accepts.append((rust_str(lit), m.group(2)))
        errors = re.findall(rf"Err\(\s*{STR_LIT}\s*,?\s*\)", body)
        if len(errors) != 1 or not accepts:
            fail(f"{name}: FromStr not understood")
        if {v for _, v in accepts} - set(variants):
            fail(f"{name}: FromStr names an unknown variant")
        return accepts, rust_str(errors[0]), fold_dashes

    def struct_default(self, name: str) -> str:
        """``T::default()`` rendered by Display, for the three non-enum types that have one."""
        if name == "SearchPath":
            text = self.src.read(self._file_of("struct", name)[0])
            body = block_after(text, r"impl Default for SearchPath\b[^{]*\{")
            m = re.search(r"\[([\w\s,]+)\]\s*\.join\((\w+)\)", body)
            if not m:
                fail("SearchPath::default not understood")
            sep = self.consts.value(m.group(2))
            parts = [str(self.consts.value(p)) for p in split_top(m.group(1), ",")]
            # FromStr trims each part and drops empty ones; Display prints the joined rest.
            return str(sep).join(p.strip() for p in parts if p.strip())
        if name in ("ConfigNonZeroU64", "StatementTimeout"):
            text = self.src.read(self._file_of("struct", name)[0])
            if not re.search(rf"#\[derive\([^)]*\bDefault\b[^)]*\)\]\s*pub struct {name}\(", text):
                fail(f"{name}: Default is not derived")
            body = block_after(text, rf"impl std::fmt::Display for {name}\b[^{{]*\{{")
            if name == "ConfigNonZeroU64":  # Default is Self(None): the else branch
                m = re.search(rf"else\s*\{{\s*write!\(f,\s*{STR_LIT}\)", body)
                if not m:
                    fail("ConfigNonZeroU64 Display not understood")
                return rust_str(m.group(1))
            m = re.search(rf"write!\(f,\s*{STR_LIT},\s*self\.0\)", body)  # Default is Self(0)
            if not m:
                fail("StatementTimeout Display not understood")
            return rust_str(m.group(1)).replace("{}", "0", 1)
        # An enum with data variants whose #[default] is a unit variant (v2.8's
        # ConfigParallelism, ConfigAdaptiveParallelismStrategy): Display of that variant.
        path, _ = self._file_of("enum", name)
        text = self.src.read(path)
        body = block_after(text, rf"pub enum {name}\b[^{{]*\{{")
        m = re.search(r"#\[default\]\s*([A-Z]\w*)\s*,", body)
        if m:
            return self._display(name, text, [m.group(1)])[m.group(1)]
        fail(f"no rule for {name}::default()")

    def render_default(self, ty: str, expr: str, where: str) -> str:
        """``Display`` of ``default = expr`` for a field of type ``ty``."""
        expr = expr.strip()
        opt = re.fullmatch(r"OptionConfig<(\w+)>", ty)
        if opt:
            if expr != "None":
                fail(f"{where}: OptionConfig default {expr!r}")
            return ""  # OptionConfig's Display of None (opt.rs)
        if ty == "bool":
            v = self.consts.value(expr)
            if not isinstance(v, bool):
                fail(f"{where}: {expr!r} is not a bool")
            return "true" if v else "false"
        if ty in INT_TYPES:
            v = self.consts.value(expr)
            lo, hi = INT_TYPES[ty]
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                fail(f"{where}: {expr!r} is not a {ty}")
            return str(v)
        if ty == "String":
            v = self.consts.value(expr)
            if not isinstance(v, str):
                fail(f"{where}: {expr!r} is not a string")
            return v
        m = re.fullmatch(rf"{ty}::(\w+)(\(\))?", expr)
        if not m:
            fail(f"{where}: default {expr!r} for {ty}")
        e = self.enum(ty)
        if m.group(2):  # T::default()
            if e is None:
                return self.struct_default(ty)
            if e.default is None:
                fail(f"{ty}: no #[default] variant")
            return e.display[str(e.default)]
        variant = m.group(1)
        if e is not None:
            return e.display[variant]
        # An enum with data variants (ConfigParallelism): Display of a unit variant.
        path, _ = self._file_of("enum", ty)
        return self._display(ty, self.src.read(path), [variant])[variant]


# ------------------------------------------------------------------------- SessionConfig


@dataclass
class Entry:
    name: str
    field: str
    ty: str
    default: str
    aliases: tuple[str, ...]
    flags: tuple[str, ...]
    check_hook: str | None
    deprecated: str | None
    description: str
    line: int


PARAM_KEYS = {"rename", "alias", "default", "flags", "check_hook", "deprecated"}


def parse_struct(text: str, types: Types) -> list[Entry]:
    """The fields of ``pub struct SessionConfig``, as the proc macro reads them."""
    start = line_of(text, "pub struct SessionConfig {")
    lines = text.splitlines()
    entries: list[Entry] = []
    docs: list[str] = []
    params: dict[str, str] | None = None
    i = start
    while True:
        raw = lines[i]
        s = raw.strip()
        i += 1
        if s == "}":
            break
        if s.startswith("///"):
            docs.append(s[3:].strip())  # #[doc = "..."], each value trimmed (macro :56-66)
        elif s.startswith("//") or not s:
            continue
        elif s.startswith(("#[doc", "/*")):
            fail(f"line {i}: a doc form this script does not read: {s!r}")
        elif s.startswith("#["):
            attr, depth = s, s.count("[") - s.count("]")
            while depth > 0:
                attr += "\n" + lines[i]
                depth += lines[i].count("[") - lines[i].count("]")
                i += 1
            attr = attr[: attr.rindex("]") + 1]  # a trailing `// comment` is not part of it
            m = re.match(r"#\[parameter\((.*)\)\]", attr, re.S)
            if m:
                params = {}
                for arg in split_top(m.group(1), ","):
                    key, _, value = arg.partition("=")
                    if key.strip() not in PARAM_KEYS:
                        fail(f"line {i}: unknown parameter key {key!r}")
                    params[key.strip()] = value.strip()
        else:
            fm = re.fullmatch(r"(?:pub )?(\w+): (.+),(?:\s*//.*)?", s)
            if not fm or params is None:
                fail(f"line {i}: field not understood: {s!r}")
            field, ty = fm.group(1), re.sub(r"\s+", "", fm.group(2))
            entries.append(_entry(field, ty, params, docs, i, types))
            docs, params = [], None
    return entries


def _lit(expr: str, where: str) -> str:
    m = re.fullmatch(STR_LIT, expr.strip())
    if not m:
        fail(f"{where}: expected a string literal, got {expr!r}")
    return rust_str(m.group(1))


def _entry(
    field: str, ty: str, params: dict[str, str], docs: list[str], line: int, types: Types
) -> Entry:
    where = f"{MOD_RS}:{line} {field}"
    name = _lit(params["rename"], where) if "rename" in params else field.lower()
    aliases = tuple(_lit(a, where) for a in split_top(params.get("alias", ""), "|"))
    flags: tuple[str, ...] = ()
    if "flags" in params:
        flags = tuple(f.strip() for f in _lit(params["flags"], where).split("|") if f.strip())
    hook = params.get("check_hook")
    if hook is not None and not re.fullmatch(r"\w+", hook):
        fail(f"{where}: check hook {hook!r}")
    deprecated = _lit(params["deprecated"], where) if "deprecated" in params else None
    default = types.render_default(ty, params["default"], where)
    return Entry(name, field, ty, default, aliases, flags, hook, deprecated, " ".join(docs), line)


def check_hooks(text: str, entries: list[Entry]) -> dict[str, int]:
    """Each named check hook's ``fn`` line in mod.rs."""
    out = {}
    for hook in sorted({e.check_hook for e in entries if e.check_hook}):
        m = re.search(rf"(?m)^fn {hook}\(", text)
        if not m:
            fail(f"check hook {hook} not defined in {MOD_RS}")
        out[hook] = text[: m.start()].count("\n") + 1
    return out


def field_enums(entries: list[Entry], types: Types) -> list[EnumType]:
    found: dict[str, EnumType] = {}
    for entry in entries:
        inner = re.fullmatch(r"OptionConfig<(\w+)>", entry.ty)
        ty = inner.group(1) if inner else entry.ty
        enum = types.enum(ty)
        if enum is not None:
            found.setdefault(ty, enum)
    return list(found.values())


def bool_literals(src: Source) -> tuple[list[str], list[str], str, int]:
    text = src.read(CAST_RS)
    body = block_after(text, r"pub fn str_to_bool\b[^{]*\{")
    true = re.search(r"TRUE_BOOL_LITERALS: \[&str; \d+\] = \[(.*?)\];", body, re.S)
    false = re.search(r"FALSE_BOOL_LITERALS: \[&str; \d+\] = \[(.*?)\];", body, re.S)
    err = re.search(rf"Err\({STR_LIT}\.into\(\)\)", body)
    if not (true and false and err and "eq_ignore_ascii_case" in body and ".trim()" in body):
        fail("str_to_bool not understood")
    lits = [[rust_str(x) for x in re.findall(STR_LIT, g.group(1))] for g in (true, false)]
    return lits[0], lits[1], rust_str(err.group(1)), line_of(text, "pub fn str_to_bool")


# ------------------------------------------------------------------------- output


def render(src: Source, rev: str) -> str:
    text = src.read(MOD_RS)
    if 'doc_list.join(" ")' not in src.read(MACRO_RS):
        fail("the proc macro no longer joins doc lines with a space")
    consts = Consts(src)
    types = Types(src, consts)
    entries = parse_struct(text, types)
    hooks = check_hooks(text, entries)
    enums = field_enums(entries, types)
    true, false, bool_err, bool_line = bool_literals(src)
    sep = consts.value("SESSION_CONFIG_LIST_SEP")
    sep_line = line_of(text, "pub const SESSION_CONFIG_LIST_SEP")
    vnode_max = consts.value("VirtualNode::MAX_COUNT")
    vnode_line = line_of(src.read(VNODE_RS), "pub const MAX_COUNT:")
    out = [
        "# ruff: noqa: E501",
        f'"""RisingWave\'s session variables at commit {rev[:7]} (generated; do not edit).',
        "",
        "Generated by tests/unit/sql/gen_session_vars.py from the ``SessionConfig`` struct of",
        f"{MOD_RS} and the types of its fields; see that script for what each",
        "value is and how it is read.  The behaviour over this data is",
        "rwshim/common/session_config.py.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import NamedTuple",
        "",
        f"LIST_SEP = {sep!r}  # SESSION_CONFIG_LIST_SEP ({MOD_RS}:{sep_line})",
        f"VNODE_MAX_COUNT = {vnode_max!r}  # VirtualNode::MAX_COUNT ({VNODE_RS}:{vnode_line})",
        "",
        f"# str_to_bool ({CAST_RS}:{bool_line}): trimmed, ASCII case-insensitive.",
        f"BOOL_TRUE: tuple[str, ...] = {tuple(true)!r}",
        f"BOOL_FALSE: tuple[str, ...] = {tuple(false)!r}",
        f"BOOL_ERROR = {bool_err!r}",
        "",
        f"# Check hooks named by the entries: hook -> line of its fn in {MOD_RS}.",
        f"CHECK_HOOKS: dict[str, int] = {hooks!r}",
        "",
        "# Enums of unit variants used as field types: name -> (source, ((input, display), ...)",
        "#  as FromStr accepts them after folding, FromStr's error, whether FromStr also reads",
        "#  '-' as '_'; FromStr always folds ASCII case).",
        "ENUMS: dict[str, tuple[str, tuple[tuple[str, str], ...], str, bool]] = {",
    ]
    for en in enums:
        pairs = tuple((inp, en.display[v]) for inp, v in en.accepts)
        where = f"{en.path}:{en.line}"
        out.append(f"    {en.name!r}: ({where!r}, {pairs!r}, {en.error!r}, {en.fold_dashes!r}),")
    out += [
        "}",
        "",
        "",
        "class Entry(NamedTuple):",
        f'    """One field of SessionConfig ({MOD_RS})."""',
        "",
        "    name: str  # the entry name: `rename`, else the field name lower-cased",
        "    type: str  # the field's Rust type as written",
        "    default: str  # the default as Display renders it (what SHOW prints)",
        "    aliases: tuple[str, ...] = ()",
        "    flags: tuple[str, ...] = ()  # REPORT, SETTER, NO_ALTER_SYS, SESSION_INIT, ...",
        "    check_hook: str | None = None",
        "    deprecated: str | None = None  # the NOTICE a SET of it sends",
        "    description: str = ''  # the doc lines, each trimmed, joined with a space (SHOW ALL)",
        "    line: int = 0  # of the field in mod.rs",
        "",
        "",
        "# Every entry in declaration order (the SHOW ALL order).",
        "VARIABLES: tuple[Entry, ...] = (",
    ]
    for e in entries:
        args = [repr(e.name), repr(e.ty), repr(e.default)]
        for key, value, empty in (
            ("aliases", e.aliases, ()),
            ("flags", e.flags, ()),
            ("check_hook", e.check_hook, None),
            ("deprecated", e.deprecated, None),
            ("description", e.description, ""),
        ):
            if value != empty:
                args.append(f"{key}={value!r}")
        args.append(f"line={e.line}")
        out.append(f"    Entry({', '.join(args)}),")
    out += [")", ""]
    return "\n".join(out)


def ruff_format(code: str) -> str:
    try:
        done = subprocess.run(
            [sys.executable, "-m", "ruff", "format", "--stdin-filename", "generated.py", "-"],
            input=code,
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"gen_session_vars: not formatted ({e})", file=sys.stderr)
        return code
    return done.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("repo", help="RisingWave's git directory")
    ap.add_argument("--rev", default=REFERENCE)
    args = ap.parse_args()
    sys.stdout.write(ruff_format(render(Source(args.repo, args.rev), args.rev)))


if __name__ == "__main__":
    main()
