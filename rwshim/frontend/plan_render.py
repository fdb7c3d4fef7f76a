"""Plan trees printed as RisingWave prints them: the EXPLAIN text layout and the
pretty_xmlish unicode layout of DESCRIBE FRAGMENT(S).

- ``explain_lines``: PlanRef's explain (src/frontend/src/optimizer/plan_node/mod.rs): one
  node a line, ``Name { k: v, ... }``, children under ``└─`` / ``├─`` with ``│ `` carrying on.
- ``unicode_lines``: pretty_xmlish 0.1.13's ``PrettyConfig::unicode`` as describe.rs uses it
  (no boundaries, indent 4): a node is one line ``Name { output: [ a, b ], stream key: [] }``
  when that fits the width; else the name alone and each field on its own ``├── `` line.
  The width is the configured one (80) or wider, as wide as the widest name line needs.

Pure functions over ``Node`` values.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Node:
    """One plan node: its identity (``StreamMaterialize { columns: [...], ... }``), the
    verbose fields describe.rs adds (output, stream key), its inputs."""

    identity: str
    output: list[str] = field(default_factory=list)
    stream_key: list[str] = field(default_factory=list)
    children: list[Node] = field(default_factory=list)


def explain_lines(node: Node) -> list[str]:
    """The EXPLAIN layout: the root, then each input indented under ``└─`` / ``├─``."""
    out: list[str] = [node.identity]

    def walk(n: Node, prefix: str) -> None:
        for i, child in enumerate(n.children):
            last = i == len(n.children) - 1
            out.append(prefix + ("└─" if last else "├─") + child.identity)
            walk(child, prefix + ("  " if last else "│ "))

    walk(node, "")
    return out


def _array(items: list[str]) -> str:
    return "[ " + ", ".join(items) + " ]" if items else "[]"


def _fields(n: Node) -> list[tuple[str, str]]:
    return [("output", _array(n.output)), ("stream key", _array(n.stream_key))]


def _one_line(n: Node) -> str:
    return n.identity + " { " + ", ".join(f"{k}: {v}" for k, v in _fields(n)) + " }"


def required_width(node: Node, width: int = 80, indent: int = 0) -> int:
    """The width a render needs: the configured one, or what the widest name line takes."""
    w = max(width, indent + len(node.identity))
    for child in node.children:
        w = max(w, required_width(child, width, indent + 4))
    return w


def unicode_lines(node: Node, width: int = 80) -> tuple[list[str], int]:
    """The pretty_xmlish unicode layout of ``node`` and the width it used."""
    width = required_width(node, width)
    out: list[str] = []

    def walk(n: Node, indent: int, prefix: str, first: str) -> None:
        line = _one_line(n)
        if indent + len(line) <= width:
            out.append(first + line)
            entries: list[tuple[str, Node | None]] = [("", c) for c in n.children]
        else:
            out.append(first + n.identity)
            entries = [(f"{k}: {v}", None) for k, v in _fields(n)]
            entries += [("", c) for c in n.children]
        for i, (text, child) in enumerate(entries):
            last = i == len(entries) - 1
            lead = prefix + ("└── " if last else "├── ")
            cont = prefix + ("    " if last else "│   ")
            if child is None:
                out.append(lead + text)
            else:
                walk(child, indent + 4, cont, lead)

    walk(node, 0, "", "")
    return out, width


__all__ = ["Node", "explain_lines", "required_width", "unicode_lines"]
