"""The statement families of rwshim.sql.ast export what they define, and
rwshim.sql.statements (the import surface every caller uses as ``st``) re-exports all of it,
each family loaded on first use through its static name -> family table."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

from rwshim.sql import ast
from rwshim.sql import statements as st
from rwshim.sql.ast import base

# What a family exports beyond its __all__: private helpers other modules read through ``st``.
PRIVATE = {"_ALTER_TAGS": "alter", "_AlterObject": "alter", "_DROP_TAGS": "drop_grant"}


def families() -> list[object]:
    return [st.family(f) for f in st.FAMILIES]


def test_each_family_exports_every_public_class_it_defines() -> None:
    missing = []
    for family in (base, *families()):
        defined = {
            n
            for n, obj in vars(family).items()
            if isinstance(obj, type) and obj.__module__ == family.__name__ and n[0] != "_"
        }
        missing += [f"{family.__name__}.{n}" for n in sorted(defined - set(family.__all__))]
    assert missing == []


def test_the_name_table_is_what_the_families_define() -> None:
    want: dict[str, str] = dict(PRIVATE)
    clashes = []
    for name in st.FAMILIES:
        for n in st.family(name).__all__:
            if n in want or n in base.__all__:
                clashes.append(n)
            want[n] = name
    assert clashes == []
    assert want == st.FAMILY_OF
    # every family of rwshim.sql.ast (but base, imported eagerly) is listed
    on_disk = {m.name for m in pkgutil.iter_modules(ast.__path__)} - {"base"}
    assert sorted(on_disk) == sorted(st.FAMILIES)


def test_the_import_surface_reexports_every_family() -> None:
    for family in (base, *families()):
        for n in family.__all__:
            assert getattr(st, n) is getattr(family, n), f"st.{n} is not {family.__name__}.{n}"
    for n, fam in PRIVATE.items():
        assert getattr(st, n) is getattr(st.family(fam), n)


def test_an_unknown_name_is_an_attribute_error() -> None:
    try:
        st.NoSuchStatement  # noqa: B018
    except AttributeError as e:
        assert str(e) == "module 'rwshim.sql.statements' has no attribute 'NoSuchStatement'"
    else:
        raise AssertionError("st.NoSuchStatement resolved")


def test_a_family_loads_on_first_use() -> None:
    # A fresh interpreter: importing the surface loads no family; reading st.<Name> loads
    # that name's family (and only it), and all_statement_classes() loads them all.
    script = (
        "import sys\n"
        "from rwshim.sql import statements as st\n"
        "def fams(): return sorted(m[15:] for m in sys.modules"
        " if m.startswith('rwshim.sql.ast.') and m != 'rwshim.sql.ast.base')\n"
        "print(fams())\n"
        "st.AlterParallelism\n"
        "print(fams())\n"
        "st.all_statement_classes()\n"
        "print(fams())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    ).stdout.splitlines()
    # importing rwshim.sql (the package) loads what its parser needs: the query family
    assert out[0] == "['query']"
    assert out[1] == "['alter', 'query']"
    assert out[2] == str(sorted(st.FAMILIES))


def test_every_statement_subclass_is_in_a_listed_family() -> None:
    # A family module left out of FAMILIES would drop its statements from SUPPORTED.md.
    classes = st.all_statement_classes()  # loads every family
    seen: set[type[st.Statement]] = set()
    todo = [st.Statement]
    while todo:
        for sub in todo.pop().__subclasses__():
            seen.add(sub)
            todo.append(sub)
    # slots=True dataclasses replace the class they decorate: keep the one its module binds.
    public = {
        c
        for c in seen
        if c.__module__.startswith("rwshim.")
        and vars(sys.modules[c.__module__]).get(c.__name__) is c
        and not c.__name__.startswith("_")
    }
    assert len(classes) == len(set(classes))
    assert public == set(classes)
    # in SUPPORTED.md's order: family by family, each in definition order
    assert [c.__module__ for c in classes] == sorted(
        (c.__module__ for c in classes), key=lambda m: st.FAMILIES.index(m.rsplit(".", 1)[1])
    )


def test_statement_kinds_have_no_subclasses() -> None:
    # check_with_options (rwshim/sql/with_options.py) and the frontend's dispatch pick a
    # statement's kind by its class name: no kind may stand for a subclass of it.
    classes = st.all_statement_classes()
    assert [
        (a.__name__, b.__name__)
        for a in classes
        for b in classes
        if a is not b and issubclass(a, b)
    ] == []
    assert len({c.__name__ for c in classes}) == len(classes)
