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
from logic.registry import Rule, all_lp_files, guard_name, parse_text, registry
from solver.errors import ProgramError
from solver.userrules import CheckedProgram, check_program, check_vocabulary, predicate_names

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


def load(paths: list[str] | list[Path], game: str, vocabulary: bool = True) -> UserRules:
    """Read and check rule files; every problem is an :class:`InputError`
    (exit 2) naming the file and line.  ``vocabulary=False`` (``check
    --rules``: a proposed change of the rulebook, which the checker is there to
    test) skips the public-vocabulary check; every other check holds."""
    from logic.scenario import read_text

    programs: list[CheckedProgram] = []
    rules: dict[str, Rule] = {}
    for path in paths:
        text = read_text(path, "rule file")
        prog, found = check_text(text, str(path), game, rules, vocabulary)
        programs.append(prog)
        rules.update(found)
    return UserRules(tuple(programs), rules)


def check_text(text: str, path: str, game: str, earlier: dict[str, Rule] | None = None,
               vocabulary: bool = True) -> tuple[CheckedProgram, dict[str, Rule]]:
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
    try:
        if vocabulary:
            check_vocabulary(prog, public_vocabulary(), rulebook_names(), _RESERVED_PREFIXES)
    except ProgramError as exc:
        raise InputError(exc.message, exc.where) from None
    return prog, found


# ---------------------------------------------------------------- the public vocabulary

# What a rule file may read (docs/robustness.md, "The vocabulary of a rule
# file"): the position's facts (logic/facts.py) and the state and events of a
# trace.  Everything else the encodings derive -- the question and its checks
# (q_*), whether the search is complete, the rule switches, the chain's and the
# windows' bookkeeping -- is the engine's own: a rule file that could read or
# derive it could turn an incomplete search into a "proven" no.
TRACE_VOCABULARY: dict[tuple[str, int], str] = {
    ("holds", 2): "holds(F,T): fluent F is true at point T",
    ("occurs", 2): "occurs(E,T): event E happens at step T",
    ("event", 1): "event(E): E is an event of the position's domain",
    ("actor", 2): "actor(E,P): player P performs event E",
    ("_at", 2): "_at(Pt,T): the game is at point Pt (a phase or step) at T",
    ("zone", 3): "zone(C,Z,T): card C is in zone Z at T",
    ("pos", 3): "pos(C,Pos,T): card C is in position Pos at T",
    ("ctrl", 3): "ctrl(C,P,T): player P controls card C at T",
    ("face_up", 2): "face_up(C,T): card C is face-up at T",
}
_ENGINE_ONLY = frozenset({("switchable_rule", 1), ("structural_rule", 1)})
_RESERVED_PREFIXES = ("q_", "_q_", "_la_", "applies", "decides")


def position_vocabulary() -> frozenset[tuple[str, int]]:
    """The position's facts a rule file may read: every predicate of logic/facts.py
    but the rule switches."""
    import inspect

    import clorm

    from logic import facts

    out = {(c.meta.name, c.meta.arity) for c in vars(facts).values()
           if inspect.isclass(c) and issubclass(c, clorm.Predicate) and c is not clorm.Predicate}
    return frozenset(out - _ENGINE_ONLY)


def public_vocabulary() -> frozenset[tuple[str, int]]:
    return frozenset(TRACE_VOCABULARY) | position_vocabulary()


_RULEBOOK_NAMES: set[str] = set()


def rulebook_names() -> set[str]:
    """Every name of a predicate the bundled encodings use (checks included)."""
    if not _RULEBOOK_NAMES:
        _RULEBOOK_NAMES.update(predicate_names(all_lp_files()))
    return _RULEBOOK_NAMES
