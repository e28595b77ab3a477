"""Checking a rules writer's own rule file before it reaches clingo.

A rule file is program text from outside, so it is treated as untrusted:

1. ``#include`` is refused *lexically*, before parsing (clingo's parser would
   read the included file while parsing);
2. the text is parsed into a syntax tree (:func:`clingo.ast.parse_string`)
   and walked: ``#script`` blocks are refused, and so is every ``@``-call
   (external function) whose name is not on the allow-list;
3. program parts must be ones chainjudge grounds (``base``, ``state(s)``,
   ``step(t)``, ``check(t)``), the rule switches ``rule/1`` may not be derived
   or declared, and every integrity constraint must carry a ``rule(Id)`` guard
   (the ``%@rule`` / ``%@text`` / ``%@source`` convention; the comment blocks
   themselves are checked by :mod:`logic.userrules`);
4. the checked statements are added with the program builder
   (:meth:`solver.session.Session.add_statements`), never as text.

Python scripting must be off in the process as well (:mod:`solver.safety`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from clingo import ast

from solver.errors import ProgramError

# @-calls a rule file may make: none.  chainjudge passes no context object to
# grounding, so no external function exists; the list is the one place to add
# a vetted, pure function if one is ever provided.
ALLOWED_CALLS: frozenset[str] = frozenset()
# the program parts the engine grounds, with their number of parameters
PARTS = {"base": 0, "state": 1, "step": 1, "check": 1}
MAX_RULE_BYTES = 1_000_000
_INCLUDE = re.compile(r"#\s*include\b")


@dataclass(frozen=True)
class CheckedProgram:
    """A user rule file that passed every check, ready for the program builder."""

    path: str
    text: str
    statements: tuple[ast.AST, ...]
    guards: tuple[tuple[str, int], ...]  # (guard atom, line) of every integrity constraint

    def with_companions(self) -> list[ast.AST]:
        """The statements with the ``applies`` companions of their constraints,
        as the encodings get them (solver/program.py): explanations of a "yes"
        can then name the user's rules that were checked and held."""
        from solver.program import with_companions

        return with_companions(self.statements)


def check_program(text: str, path: str, allowed_calls: frozenset[str] = ALLOWED_CALLS) -> CheckedProgram:
    """Check a rule file; raise :class:`ProgramError` naming the line and what is wrong."""
    if len(text) > MAX_RULE_BYTES:
        raise ProgramError(f"the rule file is too large ({len(text)} characters; at most {MAX_RULE_BYTES})", path)
    m = _INCLUDE.search(text)
    if m is not None:
        line = text.count("\n", 0, m.start()) + 1
        raise ProgramError("#include is not allowed in a rule file (not even in a comment or a string); "
                           "give each file with its own --rules", f"{path}:{line}")
    if "\x00" in text:
        raise ProgramError("the rule file contains a NUL character", path)
    messages: list[str] = []
    statements: list[ast.AST] = []

    def log(_code: object, message: str) -> None:
        messages.append(message.strip().replace("<string>", path))

    try:
        ast.parse_string(text, statements.append, logger=log, message_limit=5)
    except RuntimeError as exc:
        first = messages[0] if messages else str(exc)
        raise ProgramError(f"cannot parse the rule file: {_strip_location(first, path)}",
                           _location(first, path)) from None
    out: list[ast.AST] = []
    guards: list[tuple[str, int]] = []
    statements = [_relocate(stm, path) for stm in statements]
    for stm in statements:
        line = stm.location.begin.line
        where = f"{path}:{line}"
        kind = stm.ast_type
        if kind == ast.ASTType.Comment:
            continue
        if kind == ast.ASTType.Script:
            raise ProgramError("a #script block is not allowed in a rule file (no code runs inside chainjudge)",
                               where)
        if kind == ast.ASTType.Program:
            want = PARTS.get(stm.name)
            if want is None or len(stm.parameters) != want:
                raise ProgramError(f"#program {stm.name}{_params(stm)} is not a part chainjudge grounds; "
                                   "use #program base, state(s), step(t) or check(t)", where)
        for node in _walk(stm):
            if node.ast_type == ast.ASTType.Function and node.external and node.name not in allowed_calls:
                raise ProgramError(f"the external call @{node.name} is not allowed in a rule file "
                                   f"(allowed: {', '.join(sorted(allowed_calls)) or 'none'})", where)
            if node.ast_type == ast.ASTType.Script:
                raise ProgramError("a #script block is not allowed in a rule file", where)
        if kind == ast.ASTType.External and _is_switch(stm.atom):
            raise ProgramError("rule/1 is the rule switch of chainjudge; a rule file cannot declare it", where)
        if kind == ast.ASTType.Rule:
            if any(_is_switch(n) for n in _walk(stm.head)):
                raise ProgramError("rule/1 is the rule switch of chainjudge; a rule file cannot derive it "
                                   "(guard constraints with it instead)", where)
            if _is_constraint(stm):
                guard = _guard(stm, where)
                guards.append((guard, line))
        out.append(stm)
    return CheckedProgram(path, text, tuple(out), tuple(guards))


def _relocate(node: ast.AST, path: str) -> ast.AST:
    """The node with every location naming ``path`` (parse_string says ``<string>``),
    so that clingo's grounding messages name the rule file."""
    changes: dict[str, Any] = {}
    for key in node.child_keys:
        value = getattr(node, key)
        if isinstance(value, ast.AST):
            changes[key] = _relocate(value, path)
        elif value is not None:
            changes[key] = [_relocate(v, path) for v in value]
    if "location" in node.keys():
        loc = node.location
        changes["location"] = ast.Location(
            ast.Position(path, loc.begin.line, loc.begin.column), ast.Position(path, loc.end.line, loc.end.column))
    return node.update(**changes) if changes else node


def _walk(node: ast.AST) -> Iterator[ast.AST]:
    yield node
    for key in node.child_keys:
        value = getattr(node, key)
        if value is None:
            continue
        if isinstance(value, ast.AST):
            yield from _walk(value)
        else:
            for item in value:
                yield from _walk(item)


def _params(stm: ast.AST) -> str:
    return f"({', '.join(p.name for p in stm.parameters)})" if stm.parameters else ""


def _is_switch(node: ast.AST) -> bool:
    """``rule(X)`` as an atom."""
    if node.ast_type != ast.ASTType.SymbolicAtom:
        return False
    sym = node.symbol
    if sym.ast_type == ast.ASTType.Function:
        return sym.name == "rule" and len(sym.arguments) == 1
    if sym.ast_type == ast.ASTType.SymbolicTerm:
        s = sym.symbol
        return getattr(s, "name", None) == "rule" and len(getattr(s, "arguments", [])) == 1
    return False


def _is_constraint(rule: ast.AST) -> bool:
    head = rule.head
    return (head.ast_type == ast.ASTType.Literal and head.atom.ast_type == ast.ASTType.BooleanConstant
            and not head.atom.value)


def _guard(rule: ast.AST, where: str) -> str:
    """The rule id atom of a constraint's ``rule(Id)`` guard."""
    found: list[str] = []
    for lit in rule.body:
        if lit.ast_type != ast.ASTType.Literal or lit.sign != ast.Sign.NoSign or not _is_switch(lit.atom):
            continue
        sym = lit.atom.symbol
        arg = sym.arguments[0] if sym.ast_type == ast.ASTType.Function else None
        name: str | None = None
        if arg is not None and arg.ast_type == ast.ASTType.SymbolicTerm:
            s = arg.symbol
            if s.type.name == "Function" and not s.arguments:
                name = s.name
        elif arg is not None and arg.ast_type == ast.ASTType.Function and not arg.arguments and not arg.external:
            name = arg.name
        if name is None:
            raise ProgramError("the guard rule(...) must name the rule with a constant, e.g. rule(house_no_chain)",
                               where)
        found.append(name)
    if not found:
        raise ProgramError("this constraint has no rule(Id) guard; every restriction is a named rule: add "
                           "'rule(my_rule)' to its body and a %@rule my.rule / %@text / %@source block above it",
                           where)
    if len(set(found)) > 1:
        raise ProgramError(f"this constraint has more than one rule guard ({', '.join(found)}); give it one", where)
    return found[0]


def _location(message: str, path: str) -> str:
    m = re.match(re.escape(path) + r":(\d+):(\d+)", message)
    return f"{path}:{m.group(1)}:{m.group(2)}" if m else path


def _strip_location(message: str, path: str) -> str:
    return re.sub("^" + re.escape(path) + r":[\d:\-]+:\s*(error:\s*)?", "", message)
