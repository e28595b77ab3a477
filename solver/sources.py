"""Program texts from outside, read once: what was checked is what is loaded.

A rule file (``--rules``) or a modified rulebook (``check --encodings DIR``)
is read one time, checked (:mod:`solver.userrules`), and its text kept here;
every later use -- the checker's rewrites, the registry, an explanation's
quote -- parses or reads this text, never the file again (a file changed
between the check and the load could hold an ``#include`` of anything).
"""

from __future__ import annotations

from pathlib import Path

from clingo import ast

_TEXTS: dict[str, str] = {}


def _key(path: str | Path) -> str:
    return str(Path(path).resolve())


def remember(path: str | Path, text: str) -> None:
    _TEXTS[_key(path)] = text


def known(path: str | Path) -> bool:
    return _key(path) in _TEXTS


def text(path: str | Path) -> str:
    """The checked text of ``path`` if it was read from outside, else the file (one of ours)."""
    got = _TEXTS.get(_key(path))
    return got if got is not None else Path(path).read_text(encoding="utf-8")


def parse(path: str | Path) -> list[ast.AST]:
    """The statements of ``path``: from the checked text if it came from outside
    (located in ``path``), else parsed from our own file."""
    got = _TEXTS.get(_key(path))
    stms: list[ast.AST] = []
    if got is None:
        ast.parse_files([str(path)], stms.append)
        return stms
    from solver.userrules import parse_checked

    return parse_checked(got, str(path))
