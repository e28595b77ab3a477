"""Loading encodings through the syntax tree.

Each named rule's integrity constraint ``:- context..., violation, rule(Id).``
is kept as written, and a companion rule is added:

    applies(Id, T) :- context...

(the body without its last literal, which by the encodings' convention is
the violation, and without the guard).  ``applies`` records, for a legal
trace, which rules were checked at a step and held -- the "why yes" of an
explanation.  The step term T is the time parameter of the program part
(``t`` in ``#program step(t)``); constraints of other parts get no companion.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path

from clingo import ast

_LOC = ast.Location(ast.Position("<applies>", 1, 1), ast.Position("<applies>", 1, 1))


def _guard(lit: ast.AST) -> str | None:
    if lit.ast_type != ast.ASTType.Literal or lit.sign != ast.Sign.NoSign:
        return None
    atom = lit.atom
    if atom.ast_type != ast.ASTType.SymbolicAtom:
        return None
    term = atom.symbol
    if term.ast_type == ast.ASTType.Function and term.name == "rule" and len(term.arguments) == 1:
        arg = term.arguments[0]
        if arg.ast_type == ast.ASTType.Function and not arg.arguments:
            return str(arg.name)
        if arg.ast_type == ast.ASTType.SymbolicTerm and arg.symbol.type.name == "Function" \
                and not arg.symbol.arguments:
            return str(arg.symbol.name)
    return None


def _companion(stm: ast.AST, step_param: str) -> ast.AST | None:
    if stm.ast_type != ast.ASTType.Rule:
        return None
    head = stm.head
    if not (head.ast_type == ast.ASTType.Literal and head.atom.ast_type == ast.ASTType.BooleanConstant
            and not head.atom.value):
        return None
    body = list(stm.body)
    guards = [g for g in (_guard(b) for b in body) if g]
    if len(guards) != 1:
        return None
    rest = [b for b in body if _guard(b) is None]
    if len(rest) < 2:
        return None
    context = rest[:-1]
    # the context must bind what the companion's head needs: it always has the step term
    head_atom = ast.SymbolicAtom(ast.Function(_LOC, "applies", [ast.Function(_LOC, guards[0], [], False),
                                                                  ast.Variable(_LOC, step_param)
                                                                  if step_param[:1].isupper()
                                                                  else ast.Function(_LOC, step_param, [], False)],
                                              False))
    new_head = ast.Literal(_LOC, ast.Sign.NoSign, head_atom)
    return ast.Rule(_LOC, new_head, context)


@cache
def _parsed(path: str, mtime: float) -> tuple[ast.AST, ...]:
    stms: list[ast.AST] = []
    ast.parse_files([path], stms.append)
    return tuple(with_companions(stms))


def with_companions(stms: Iterable[ast.AST]) -> list[ast.AST]:
    """The statements, each guarded constraint of a ``step`` part followed by
    its ``applies`` companion."""
    out: list[ast.AST] = []
    param: str | None = None
    for stm in stms:
        out.append(stm)
        if stm.ast_type == ast.ASTType.Program:
            param = stm.parameters[0].name if stm.name == "step" and stm.parameters else None
            continue
        if param is not None:
            comp = _companion(stm, param)
            if comp is not None:
                out.append(comp)
    return out


def statements(paths: Sequence[Path], companions: bool = True) -> list[ast.AST]:
    """The statements of our encoding files, with (or without) their ``applies`` companions."""
    out: list[ast.AST] = []
    for p in paths:
        out.extend(_statements_of(str(p), p.stat().st_mtime, companions))
    return out


@cache
def _statements_of(path: str, mtime: float, companions: bool) -> tuple[ast.AST, ...]:
    """One file's statements, parsed once per process (and file version)."""
    stms = _parsed(path, mtime)
    return stms if companions else tuple(x for x in stms if not _is_companion(x))


def _is_companion(stm: ast.AST) -> bool:
    return stm.ast_type == ast.ASTType.Rule and stm.location.begin.filename == "<applies>"
