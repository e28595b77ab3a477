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
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from clingo import ast

from solver.errors import ProgramError

# @-calls a rule file may make: none.  chainjudge passes no context object to
# grounding, so no external function exists; the list is the one place to add
# a vetted, pure function if one is ever provided.
ALLOWED_CALLS: frozenset[str] = frozenset()
# the program parts a rule file may add to, with their number of parameters
# (check(t), the engine's questions, is not one: a rule there would only hold
# while a question is asked, and could hide the traces that are still going on)
PARTS = {"base": 0, "state": 1, "step": 1}
MAX_RULE_BYTES = 1_000_000
MAX_STATEMENTS = 20_000  # statements of one file (the bundled encodings have about 2,000 in all)
MAX_DEPTH = 50  # brackets open at once
MAX_OPERATORS = 400  # arithmetic operators in one statement (each nests the syntax tree one level)
_INCLUDE = re.compile(r"#\s*include\b")
_OPERATORS = frozenset("+-*/\\^&|?")
_QUOTES = {"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'", "\u2013": "-", "\u2212": "-", "\u00a0": "a space"}


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


def scan(text: str, path: str, what: str = "rule file") -> None:
    """Lexical checks before clingo sees the text: its size, ``#include``
    (even in a comment or a string: clingo's parser would read the file), NUL,
    any character outside ASCII except in a string or a comment (clingo's
    parser cannot report it: its message is cut inside the character), and
    nesting a parser would follow without bound (brackets, or a long chain
    of operators such as ``1+1+...``: each nests the syntax tree once more)."""
    if len(text) > MAX_RULE_BYTES:
        raise ProgramError(f"the {what} is too large ({len(text)} characters; at most {MAX_RULE_BYTES})", path)
    m = _INCLUDE.search(text)
    if m is not None:
        line = text.count("\n", 0, m.start()) + 1
        fix = "give each file with its own --rules" if what == "rule file" else "put every file in the folder itself"
        raise ProgramError(f"#include is not allowed in a {what} (not even in a comment or a string); {fix}",
                           f"{path}:{line}")
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise ProgramError(f"the {what} contains a NUL character", f"{path}:{line}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        line = text.count("\n", 0, exc.start) + 1
        raise ProgramError(f"the {what} holds a character that is not text (U+{ord(text[exc.start]):04X}, a lone "
                           "surrogate)", f"{path}:{line}") from None
    line, col, depth, ops, i, n = 1, 1, 0, 0, 0, len(text)
    statements = 0
    while i < n:
        ch = text[i]
        if ch == "\n":
            line, col, i = line + 1, 1, i + 1
            continue
        if ch == "%":
            if text.startswith("%*", i):  # a block comment, up to *%
                end = text.find("*%", i + 2)
                end = n if end < 0 else end + 2
            else:
                end = text.find("\n", i)
                end = n if end < 0 else end
            chunk = text[i:end]
            nl = chunk.count("\n")
            line, col = (line + nl, len(chunk) - chunk.rfind("\n")) if nl else (line, col + len(chunk))
            i = end
            continue
        if ch == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            if j >= n or text[j] == "\n":
                raise ProgramError("a string is not closed on its line (a '\"' is missing)", f"{path}:{line}:{col}")
            col += j + 1 - i
            i = j + 1
            continue
        if ord(ch) > 127:
            like = _QUOTES.get(ch)
            hint = f" (did you mean {like}? text pasted from a word processor has curly quotes and dashes)" \
                if like else ""
            shown = f"'{ch}' " if ch.isprintable() and not ch.isspace() else ""
            raise ProgramError(f"the character {shown}(U+{ord(ch):04X}) can only be written inside a string "
                               f"or a comment{hint}", f"{path}:{line}:{col}")
        if ch in "([{":
            depth += 1
            if depth > MAX_DEPTH:
                raise ProgramError(f"brackets are nested too deeply (more than {MAX_DEPTH})", f"{path}:{line}:{col}")
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif ch in _OPERATORS:
            ops += 1
            if ops > MAX_OPERATORS:
                raise ProgramError(f"this statement is too long (more than {MAX_OPERATORS} operators); "
                                   "split it into several rules", f"{path}:{line}:{col}")
        elif ch == "." and depth == 0 and not text.startswith("..", i) and (i == 0 or text[i - 1] != "."):
            ops = 0
            statements += 1
            if statements > MAX_STATEMENTS:
                raise ProgramError(f"the {what} has too many statements (more than {MAX_STATEMENTS})",
                                   f"{path}:{line}:{col}")
        col += 1
        i += 1


def parse_checked(text: str, path: str, what: str = "rule file",
                  allowed_calls: frozenset[str] = ALLOWED_CALLS) -> list[ast.AST]:
    """The statements of a program text that passed :func:`scan` and holds no
    ``#script`` and no ``@``-call, located in ``path``: the checks every program
    text from outside gets (a rule file, or a modified rulebook given with
    ``check --encodings``)."""
    scan(text, path, what)
    messages: list[str] = []
    statements: list[ast.AST] = []

    def log(_code: object, message: str) -> None:
        messages.append(message.strip().replace("<string>", path))

    try:
        # clingo's messages may be cut inside a character outside ASCII, and its
        # Python logger then fails (a PANIC): parse first a copy where each of
        # them (only in strings and comments, see scan) is an 'x'; if the copy
        # parses, so does the text, and without a message
        shadow = "".join(ch if ord(ch) < 128 else "x" for ch in text)
        if shadow != text:
            ast.parse_string(shadow, lambda _stm: None, logger=log, message_limit=5)
        ast.parse_string(text, statements.append, logger=log, message_limit=5)
    except RuntimeError as exc:
        first = messages[0] if messages else str(exc)
        raise ProgramError(f"cannot parse the {what}: {_strip_location(first, path)}",
                           _location(first, path)) from None
    try:
        statements = [_relocate(stm, path) for stm in statements]
        for stm in statements:
            where = f"{path}:{stm.location.begin.line}"
            for node in _walk(stm):
                if node.ast_type == ast.ASTType.Function and node.external and node.name not in allowed_calls:
                    raise ProgramError(f"the external call @{node.name} is not allowed in a {what} "
                                       f"(allowed: {', '.join(sorted(allowed_calls)) or 'none'})", where)
                if node.ast_type == ast.ASTType.Script:
                    raise ProgramError(f"a #script block is not allowed in a {what} "
                                       "(no code runs inside chainjudge)", where)
    except RecursionError:
        raise ProgramError(f"the {what} is nested too deeply", path) from None
    return statements


def check_program(text: str, path: str, allowed_calls: frozenset[str] = ALLOWED_CALLS) -> CheckedProgram:
    """Check a rule file; raise :class:`ProgramError` naming the line and what is wrong."""
    statements = parse_checked(text, path, "rule file", allowed_calls)
    out: list[ast.AST] = []
    guards: list[tuple[str, int]] = []
    for stm in statements:
        line = stm.location.begin.line
        where = f"{path}:{line}"
        kind = stm.ast_type
        if kind == ast.ASTType.Comment:
            continue
        if kind == ast.ASTType.Program:
            want = PARTS.get(stm.name)
            if want is None or len(stm.parameters) != want:
                raise ProgramError(f"#program {stm.name}{_params(stm)} is not a part a rule file may add to; "
                                   "use #program base, state(s) or step(t)", where)
        elif kind == ast.ASTType.External and _is_switch(stm.atom):
            raise ProgramError("rule/1 is the rule switch of chainjudge; a rule file cannot declare it", where)
        elif kind not in (ast.ASTType.Rule, ast.ASTType.Defined):
            raise ProgramError(f"{_directive(stm)} is not allowed in a rule file: a rule file adds rules of the "
                               "game (constraints, with helper predicates of its own), nothing that changes "
                               "how chainjudge searches or what it reads back", where)
        if kind == ast.ASTType.Rule:
            if any(_is_switch(n) for n in _walk(stm.head)):
                raise ProgramError("rule/1 is the rule switch of chainjudge; a rule file cannot derive it "
                                   "(guard constraints with it instead)", where)
            if _is_constraint(stm):
                guard = _guard(stm, where)
                guards.append((guard, line))
        out.append(stm)
    return CheckedProgram(path, text, tuple(out), tuple(guards))


def atoms(node: ast.AST) -> Iterator[tuple[str, int]]:
    """(name, arity) of every symbolic atom inside a node."""
    for n in _walk(node):
        if n.ast_type != ast.ASTType.SymbolicAtom:
            continue
        sym = n.symbol
        while sym.ast_type == ast.ASTType.UnaryOperation:  # classical negation: -p(X)
            sym = sym.argument
        if sym.ast_type == ast.ASTType.Function and not sym.external:
            yield sym.name, len(sym.arguments)
        elif sym.ast_type == ast.ASTType.SymbolicTerm and sym.symbol.type.name == "Function":
            yield sym.symbol.name, len(sym.symbol.arguments)


def check_vocabulary(prog: CheckedProgram, public: frozenset[tuple[str, int]], taken: set[str],
                     reserved: tuple[str, ...]) -> None:
    """Every atom a rule file derives is its own (not ``public``, no name in
    ``taken`` -- the rulebook's --, none starting with a ``reserved`` prefix),
    every atom it reads is public or its own; raise :class:`ProgramError`
    naming the line otherwise.  (The vocabulary itself: logic/userrules.py.)"""
    own: set[tuple[str, int]] = set()
    for stm in prog.statements:
        if stm.ast_type == ast.ASTType.Rule:
            own.update(a for a in atoms(stm.head) if a != ("rule", 1))
    for stm in prog.statements:
        if stm.ast_type != ast.ASTType.Rule:
            continue
        where = f"{prog.path}:{stm.location.begin.line}"
        for name, arity in atoms(stm.head):
            if (name, arity) == ("rule", 1):
                continue
            if (name, arity) in public or name in taken or name.startswith(reserved):
                raise ProgramError(f"{name}/{arity} belongs to chainjudge (the position, a trace or the engine's "
                                   "own bookkeeping); a rule file cannot derive it: give a helper predicate a "
                                   "name of its own, and forbid with a constraint", where)
        for lit in stm.body:
            for name, arity in atoms(lit):
                if (name, arity) in public or (name, arity) in own or (name, arity) == ("rule", 1):
                    continue
                import difflib

                close = difflib.get_close_matches(name, sorted({n for n, _ in public}), n=1)
                hint = f"; did you mean {close[0]}?" if close else ""
                raise ProgramError(f"{name}/{arity} is not in the vocabulary a rule file may read (the position's "
                                   "facts, holds/2, occurs/2, event/1, actor/2, _at/2, zone/3, pos/3, ctrl/3, "
                                   f"face_up/2, and its own predicates; docs/robustness.md){hint}", where)


def predicate_names(paths: Iterable[Any]) -> set[str]:
    """Every predicate name used in these (our own) program files."""
    out: set[str] = set()
    for p in paths:
        stms: list[ast.AST] = []
        ast.parse_files([str(p)], stms.append)
        for stm in stms:
            out.update(name for name, _ in atoms(stm))
    return out


def _directive(stm: ast.AST) -> str:
    names = {"Definition": "#const", "ShowSignature": "#show", "ShowTerm": "#show", "Minimize": "#minimize",
             "Heuristic": "#heuristic", "ProjectAtom": "#project", "ProjectSignature": "#project",
             "Edge": "#edge", "External": "#external", "TheoryDefinition": "#theory"}
    return names.get(stm.ast_type.name, stm.ast_type.name)


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
