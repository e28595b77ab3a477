"""A rules writer's own rule file (``--rules FILE``), loaded into the rule
registry so that explanations can cite it.

The file must follow the convention of the bundled encodings (encodings/README.md:
how the encodings are meant to work): every integrity constraint carries a guard
``rule(Id)`` and a comment block above it ::

    %@rule house.no_chain_in_draw
    %@text No card may be activated in the Draw Phase (house rule).
    %@source Our store's tournament policy, 2024
    :- occurs(activate(P,E,X),t), _at(draw,t-1), rule(house_no_chain_in_draw).

The program text is checked by :func:`solver.userrules.check_program`
(no ``#include``, no ``#script``, no ``@``-calls, known program parts); this
module checks the comment blocks against the guards.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from logic.errors import InputError, shorten
from logic.registry import Rule, guard_name, parse_text, registry
from solver.errors import ProgramError
from solver.userrules import CheckedProgram, check_program

_ID = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$")
_TAG = re.compile(r"^\s*%@(\S*)")
KINDS = ("game", "structural", "bound")


@dataclass(frozen=True)
class UserRules:
    """Checked rule files: their statements and their rules (by guard atom)."""

    programs: tuple[CheckedProgram, ...]
    rules: dict[str, Rule]

    @property
    def paths(self) -> list[str]:
        return [p.path for p in self.programs]


def load(paths: list[str] | list[Path], game: str) -> UserRules:
    """Read and check rule files; every problem is an :class:`InputError`
    (exit 2) naming the file and line."""
    from logic.scenario import read_text

    programs: list[CheckedProgram] = []
    rules: dict[str, Rule] = {}
    for path in paths:
        text = read_text(path, "rule file")
        prog, found = check_text(text, str(path), game, rules)
        programs.append(prog)
        rules.update(found)
    return UserRules(tuple(programs), rules)


def check_text(text: str, path: str, game: str, earlier: dict[str, Rule] | None = None) -> tuple[CheckedProgram, dict[str, Rule]]:
    try:
        prog = check_program(text, path)
    except ProgramError as exc:
        raise InputError(exc.message, exc.where) from None
    for no, raw in enumerate(text.splitlines(), 1):
        m = _TAG.match(raw)
        if m and m.group(1) not in ("rule", "text", "source", "kind"):
            raise InputError(f"unknown tag %@{shorten(m.group(1), 30)[1:-1]}; "
                             "a rule block has %@rule, %@text, %@source (and optionally %@kind)", f"{path}:{no}")
    builtin = registry(game)
    blocks = parse_text(text, path)
    found: dict[str, Rule] = {}
    for r in blocks:
        where = f"{path}:{r.line}"
        if not _ID.match(r.id):
            raise InputError(f"the rule id {shorten(r.id, 60)} must be lower-case words joined by dots "
                             "(e.g. house.no_chain_in_draw)", where)
        if not r.text:
            raise InputError(f"the rule {r.id} has no %@text (one sentence stating the rule)", where)
        if not r.source:
            raise InputError(f"the rule {r.id} has no %@source (where the rule comes from)", where)
        if r.kind not in KINDS:
            raise InputError(f"%@kind of {r.id} must be one of {', '.join(KINDS)}, not {shorten(r.kind, 30)}", where)
        if r.atom in builtin:
            b = builtin[r.atom]
            raise InputError(f"the rule id {r.id} is already used by the rulebook ({b.file}:{b.line}); "
                             "choose another id", where)
        if r.atom in found or (earlier and r.atom in earlier):
            raise InputError(f"the rule id {r.id} is defined twice", where)
        found[r.atom] = r
    used = {g for g, _ in prog.guards}
    for guard, line in prog.guards:
        if guard not in found and not (earlier and guard in earlier):
            if guard in builtin:
                raise InputError(f"rule({guard}) guards a built-in rule ({builtin[guard].id}); a rule file's "
                                 "constraints need rules of their own, each with a %@rule block", f"{path}:{line}")
            raise InputError(f"rule({guard}) has no %@rule block; add '%@rule {guard.replace('_', '.')}', "
                             "'%@text ...' and '%@source ...' above the constraint", f"{path}:{line}")
    for atom, r in found.items():
        if atom not in used:
            raise InputError(f"the rule {r.id} guards no constraint; add 'rule({guard_name(r.id)})' to the body "
                             "of the constraint it names", f"{path}:{r.line}")
    return prog, found
