"""GRANT, REVOKE and ALTER DEFAULT PRIVILEGES.

Mirrors src/sqlparser/src/parser.rs ``parse_grant`` (5650-5670), ``parse_privileges``
(5672-5701), ``parse_grant_revoke_privileges_objects`` (5703-5829), ``parse_grant_permission``
(5831-5858), ``parse_revoke`` (5861-5887), ``parse_privilege_object_types`` (5889-5915) and
``parse_alter_default_privileges`` (5917-6000), building ast/mod.rs's ``Statement::Grant``,
``Revoke`` and ``AlterDefaultPrivileges``.  A column list after SELECT / INSERT / UPDATE /
REFERENCES is parsed and not kept: RisingWave's binder drops it too
(user_privilege.rs get_prost_action).
"""

from __future__ import annotations

from typing import Any

from lark import Token as LarkToken
from lark import Tree

from rwshim.errors import SqlParserError
from rwshim.sql import statements as st
from rwshim.sql.builder.base import BuildBase
from rwshim.sql.errors_text import located

# parse_grant_permission (parser.rs:5845-5854): the actions that take a column list.
_COLUMN_ACTIONS = {"INSERT", "REFERENCES", "SELECT", "UPDATE"}


def _words(c: list[Any]) -> list[str]:
    return [x.type for x in c if isinstance(x, LarkToken)]


def _index(c: list[Any], item: object) -> int:
    """The position of ``item`` itself (not of an equal value) among ``c``."""
    return next(i for i, x in enumerate(c) if x is item)


class PrivilegeRules(BuildBase):
    """GRANT / REVOKE <privileges> ON <objects>, ALTER DEFAULT PRIVILEGES."""

    # ---------------------------------------------------------------- privileges

    def privileges_all(self, c: list[Any]) -> tuple[str, ...]:
        return ("ALL",)

    def privileges_list(self, c: list[Any]) -> tuple[str, ...]:
        return tuple(x for x in c if isinstance(x, str) and not isinstance(x, LarkToken))

    def grant_action(self, c: list[Any]) -> str:
        kw = c[0]
        assert isinstance(kw, LarkToken)
        lpar = next((x for x in c[1:] if isinstance(x, LarkToken) and x.type == "LPAR"), None)
        if lpar is not None and kw.type not in _COLUMN_ACTIONS:
            # parse_grant_permission reads no list after this keyword: the next one must be
            # `,` or ON (parser.rs:5703-5706)
            raise self.err(self.tok(lpar), "ON")
        return str(kw.type)

    # ---------------------------------------------------------------- objects

    def grant_kind(self, c: list[LarkToken]) -> str:
        return " ".join(x.type for x in c)

    def grant_all_kind(self, c: list[LarkToken]) -> str:
        return " ".join(x.type for x in c)

    def grant_objects(self, c: list[Any]) -> tuple[str, tuple[st.ObjectName, ...], tuple[()]]:
        return (c[0] or "TABLE", c[1], ())

    def grant_mviews(self, c: list[Any]) -> tuple[str, tuple[st.ObjectName, ...], tuple[()]]:
        return ("MATERIALIZED VIEW", c[2], ())

    def grant_all_in_schema(self, c: list[Any]) -> tuple[str, tuple[st.ObjectName, ...], tuple[()]]:
        return (f"ALL {c[1]} IN SCHEMA", c[4], ())

    def function_desc(self, c: list[Any]) -> tuple[st.ObjectName, str | None]:
        args = c[1]
        return c[0], None if args is None else str(args)[1:-1]

    def grant_functions(
        self, c: list[Any]
    ) -> tuple[str, tuple[st.ObjectName, ...], tuple[str | None, ...]]:
        descs = [x for x in c if isinstance(x, tuple)]
        return ("FUNCTION", tuple(d[0] for d in descs), tuple(d[1] for d in descs))

    def ident_list(self, c: list[Any]) -> tuple[str, ...]:
        return tuple(x for x in c if isinstance(x, str) and not isinstance(x, LarkToken))

    # ---------------------------------------------------------------- GRANT / REVOKE

    def grant(self, c: list[Any]) -> st.Statement:
        privileges, (kind, objects, fargs), grantees = c[1], c[3], c[5]
        words = _words(c[6:])
        granted_by = c[-1] if isinstance(c[-1], str) and "GRANTED" in words else None
        return st.Grant(
            self.text,
            privileges,
            kind,
            objects,
            grantees,
            "OPTION" in words,
            granted_by,
            fargs,
        )

    def revoke(self, c: list[Any]) -> st.Statement:
        tuples = [x for x in c if isinstance(x, tuple)]
        privileges, (kind, objects, fargs), grantees = tuples[0], tuples[1], tuples[2]
        head = _words(c[: _index(c, privileges)])
        tail_start = _index(c, grantees) + 1
        tail = c[tail_start:]
        granted_by = next(
            (x for x in tail if isinstance(x, str) and not isinstance(x, LarkToken)), None
        )
        self._check_cascade_restrict(tail)
        return st.Revoke(
            self.text,
            privileges,
            kind,
            objects,
            grantees,
            granted_by,
            "OPTION" in head,
            "CASCADE" in _words(tail),
            fargs,
        )

    def _check_cascade_restrict(self, tail: list[Any]) -> None:
        words = _words(tail)
        if "CASCADE" in words and "RESTRICT" in words:
            # parser.rs:5877-5879 (and 5985-5987), at the token after RESTRICT
            restrict = next(x for x in tail if isinstance(x, LarkToken) and x.type == "RESTRICT")
            raise located(
                self.sql,
                self.after(restrict),
                "Cannot specify both CASCADE and RESTRICT in REVOKE",
            )

    # ---------------------------------------------------------------- ALTER DEFAULT PRIVILEGES

    def adp_kind(self, c: list[LarkToken]) -> str:
        return " ".join(x.type for x in c)

    def adp_grant(self, c: list[Any]) -> dict[str, Any]:
        return {"grant": True, "children": c}

    def adp_revoke(self, c: list[Any]) -> dict[str, Any]:
        return {"grant": False, "children": c}

    def adp_body(self, c: list[Any]) -> st.Statement:
        users: tuple[str, ...] | None = None
        schemas: tuple[st.ObjectName, ...] | None = None
        op: dict[str, Any] = {}
        i = 0
        while i < len(c):
            x = c[i]
            if isinstance(x, LarkToken) and x.type == "FOR":
                users = c[i + 2]
                i += 3
                continue
            if isinstance(x, LarkToken) and x.type == "IN":
                schemas = c[i + 2]
                i += 3
                continue
            if isinstance(x, dict):
                op = x
            i += 1
        ch: list[Any] = op["children"]
        privileges = next(x for x in ch if isinstance(x, tuple))
        kind = next(x for x in ch if isinstance(x, str) and not isinstance(x, LarkToken))
        grantees = [x for x in ch if isinstance(x, tuple)][-1]
        if schemas is not None and kind == "SCHEMAS":
            on = next(x for x in ch if isinstance(x, LarkToken) and x.type == "ON")
            # the token after ON <object type> (one word: SCHEMAS)
            raise located(
                self.sql,
                self._after_n(on, 2),
                "cannot use IN SCHEMA clause when using GRANT/REVOKE ON SCHEMAS",
            )
        head = _words(ch[: _index(ch, privileges)])
        tail = ch[_index(ch, grantees) + 1 :]
        if not op["grant"]:
            self._check_cascade_restrict(tail)
        return st.AlterDefaultPrivileges(
            self.text,
            users,
            schemas,
            op["grant"],
            privileges,
            kind,
            grantees,
            "OPTION" in (_words(tail) if op["grant"] else head),
            "CASCADE" in _words(tail),
        )

    def _after_n(self, lt: LarkToken, n: int) -> Any:
        t = self.tok(lt)
        idx = self.toks.index(t) + n
        return self.toks[idx] if idx < len(self.toks) else self.stop

    def alter_default_privileges(self, c: list[Any]) -> st.Statement:
        out = c[-1]
        if isinstance(out, Tree):  # pragma: no cover - adp_body always builds a statement
            raise SqlParserError("ALTER DEFAULT PRIVILEGES")
        assert isinstance(out, st.Statement)
        return out
