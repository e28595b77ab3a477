"""Proofs beyond the bound: base case plus one induction step.

Schiffel and Thielscher ("Automated Theorem Proving for General Game
Playing", IJCAI 2009) prove a state property of a game description for every
reachable state by showing that it holds in the initial states and that every
legal move from *any* state satisfying it leads to a state satisfying it.
Here:

* the base case is checked on every start position (checks/positions.lp,
  state 0 of the bounded search);
* the induction step starts from a free choice over the *fluent domain*
  (checks/induction.lp): every fluent and value the rules can produce,
  computed as a fixpoint of one-step groundings from the start positions;
* a property alone is rarely inductive (a free state may hold two current
  points, a chain length without links ...), so the invariants and the
  lemmas of checks/lemmas.lp are proved *together*: the largest subset that is
  inductive assuming all its members (Houdini: drop every candidate with a
  counterexample to induction, repeat until none is dropped);
* transition invariants (form ``step``) and the dead-end check (form
  ``lookahead``) are then checked on one step from any state satisfying the
  proved state invariants.

An invariant that holds in the base case and in the induction step holds in
every reachable state, at any depth: *proved*.  One whose induction step has
a counterexample may still hold (the counterexample state may be unreachable):
it is reported *searched* to the horizon only, with that state.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from queries.check.rulebook import (
    DECISION_KEYS,
    INDUCTION_ROUNDS,
    ONE_VALUE,
    Check,
    CheckResult,
    Rulebook,
    Search,
    _event_label,
    _seek,
    _state_summary,
    describe_position,
    pool_facts,
    position_scenario,
)
from queries.search.engine import Position
from solver import LimitReached, Session
from solver.instrument import decisions, lookahead, plain
from solver.terms import Function, Number, Symbol

DEBUG = False

if TYPE_CHECKING:
    from queries.check.checker import Checker


@dataclass
class Domain:
    fluents: set[Symbol] = field(default_factory=set)
    values: set[tuple[Symbol, Symbol]] = field(default_factory=set)
    rounds: int = 0
    closed: bool = False

    def facts(self) -> list[Symbol]:
        out = [Function("dom_fluent", [f]) for f in sorted(self.fluents)]
        out += [Function("dom_value", [k, v]) for k, v in sorted(self.values)]
        return out

    def add(self, atoms: Iterable[Symbol]) -> bool:
        grew = False
        for f in atoms:
            if f.name == "val" and len(f.arguments) == 2:
                kv = (f.arguments[0], f.arguments[1])
                if kv not in self.values:
                    self.values.add(kv)
                    grew = True
            elif f not in self.fluents:
                self.fluents.add(f)
                grew = True
        return grew

    def __len__(self) -> int:
        return len(self.fluents) + len(self.values)

    def __contains__(self, f: Symbol) -> bool:
        if f.name == "val" and len(f.arguments) == 2:
            return (f.arguments[0], f.arguments[1]) in self.values
        return f in self.fluents


class Step1:
    """A grounding of one step from a free state over the domain."""

    def __init__(self, book: Rulebook, facts: list[Symbol], domain: Domain, ahead: bool = False) -> None:
        self.session = Session()
        self.session.add_statements(plain(book.files + book.check_files))
        self.session.add_statements(decisions(book.files, DECISION_KEYS, roots=[book.root]))
        if ahead:
            self.session.add_statements(lookahead(book.files, exclude=[ONE_VALUE]).statements)
        self.session.add_facts(facts + domain.facts())
        start = time.perf_counter()
        self.session.ground([("base", []), ("free_state", []), ("state", [Number(0)]), ("check", [Number(0)])])
        if ahead:
            self.session.ground([("lookahead", [Number(1)])])
        else:
            self.session.ground([("step", [Number(1)]), ("state", [Number(1)]), ("check", [Number(1)])])
        self.ground_ms = (time.perf_counter() - start) * 1000

    def successors(self) -> list[Symbol]:
        return [a.arguments[0] for a in self.session.atoms_of("holds", 2) if a.arguments[1].number == 1]


def compute_domain(book: Rulebook, facts: list[Symbol], search: Search, slots: int) -> tuple[Domain, Step1]:
    """Every fluent the rules can produce: the search's atoms, closed under one
    step.  Numbers that count places on the chain (a leading number of a
    fluent, a number value) are widened to every place 0..slots at once, so
    that the fixpoint does not take one round per chain link."""
    dom = Domain()
    dom.add(_widen(a.arguments[0] for a in search.session.atoms_of("holds", 2)), )
    step = Step1(book, facts, dom)
    for rnd in range(1, INDUCTION_ROUNDS + 1):
        dom.rounds = rnd
        new = [f for f in step.successors() if f not in dom]
        if not new:
            dom.closed = True
            break
        dom.add(_widen(new, slots))
        step = Step1(book, facts, dom)
    return dom, step


def _widen(fluents: Iterable[Symbol], slots: int = 0) -> list[Symbol]:
    out = []
    for f in fluents:
        out.append(f)
        if slots <= 0:
            continue
        if f.name == "val" and len(f.arguments) == 2 and f.arguments[1].type.name == "Number" \
                and not f.arguments[0].arguments and 0 <= f.arguments[1].number <= slots:
            out += [Function("val", [f.arguments[0], Number(i)]) for i in range(0, slots + 1)]
        elif f.name != "val" and f.arguments and f.arguments[0].type.name == "Number" \
                and 1 <= f.arguments[0].number <= slots:
            out += [Function(f.name, [Number(i)] + list(f.arguments[1:])) for i in range(1, slots + 1)]
    return out


def prove(checker: Checker, search: Search, results: dict[str, CheckResult],
          lemma_results: dict[str, CheckResult]) -> None:
    book, pool = checker.book, checker.pool
    started = time.perf_counter()
    facts = pool_facts(book, pool)
    slots = sum(len(c.card.effects) for c in pool.cards)
    dom, step = compute_domain(book, facts, search, slots)
    rep = checker.report
    rep.stats["domain"] = {"fluents": len(dom.fluents), "values": len(dom.values), "rounds": dom.rounds,
                           "closed": dom.closed, "ms": round((time.perf_counter() - started) * 1000, 1)}
    if not dom.closed:
        rep.notes.append(f"the fluent domain was not closed after {dom.rounds} rounds: no proofs beyond the bound")
        for r in list(results.values()) + list(lemma_results.values()):
            r.induction = {"proved": False, "why": "the fluent domain could not be closed"}
        return
    every = {**results, **lemma_results}
    lemmas = [r.check for r in lemma_results.values()]
    base_ok = {a for a, r in every.items() if r.base_ok}
    modes: dict[tuple[frozenset[str], frozenset[str]], set[str]] = {}

    def mode_of(c: Check) -> tuple[frozenset[str], frozenset[str]]:
        return frozenset(c.lift), frozenset(c.enable)

    undecided: set[str] = set()  # candidates whose step was not decided within the budget, in some mode

    def solve(r: CheckResult, mode: tuple[frozenset[str], frozenset[str]], assumed: set[str],
              extra: list[tuple[Symbol, bool]]) -> list[Symbol] | None:
        if r.check.atom in undecided:
            return UNDECIDED
        t0 = time.perf_counter()
        ass = search.rule_assumptions(mode[0], mode[1])
        ass += [(Function("assume", [Function(c.atom, [])]), c.atom in assumed) for c in book.checks]
        ass.append((Function("active", [Number(1)]), True))
        r.solves += 1
        try:
            out = step.session.solve(ass + extra, models=1, conflicts=INDUCTION_BUDGET)
        except LimitReached:
            # dropping a candidate is always sound (Houdini only proves less), so
            # one not decided within its budget is not tried again in another mode
            undecided.add(r.check.atom)
            return UNDECIDED
        finally:
            r.ms += (time.perf_counter() - t0) * 1000
        if DEBUG:
            print("  solve", r.check.id, sorted(mode[0]), len(assumed), out.satisfiable, round(time.perf_counter() - t0, 2))
        return out.models[0] if out.satisfiable else None

    def houdini(mode: tuple[frozenset[str], frozenset[str]], candidates: list[Check]) -> set[str]:
        if mode in modes:
            return modes[mode]
        current = {c.atom for c in candidates if c.form == "state" and c.induction and c.atom in base_ok}
        changed = True
        while changed:
            changed = False
            for c in candidates:
                if c.atom not in current:
                    continue
                r = every[c.atom]
                model = solve(r, mode, current, [_seek(c.atom, 1)])
                if model is not None:
                    current.discard(c.atom)
                    r.induction = _failed(checker, model)
                    changed = True
        modes[mode] = current
        return current

    checks = [r.check for r in results.values()]
    # the mode with every rule in force first: it is the one the lemmas are
    # reported in and the dead-end step assumes, and a candidate undecided
    # there is not retried in the modes with rules lifted
    houdini((frozenset(), frozenset()), lemmas + [x for x in checks if not x.lift and not x.enable])
    for c in checks:
        r = results[c.atom]
        if not c.induction:
            r.induction = {"proved": False, "why": "not an invariant of single states (searched to H only)"}
            continue
        if c.atom not in base_ok and c.form == "state":
            r.induction = {"proved": False, "why": "it does not hold in every start position"}
            continue
        if c.form == "lookahead":
            continue
        mode = mode_of(c)
        proved = houdini(mode, lemmas + [x for x in checks if mode_of(x) == mode])
        if c.form == "state":
            ok = c.atom in proved
        else:
            model = solve(r, mode, proved, [_seek(c.atom, 1)])
            ok = model is None
            if model is not None:
                r.induction = _failed(checker, model)
        if ok:
            r.induction = {"proved": True, "assumed": sorted(book.rules[a].id for a in proved if a != c.atom)}
            if r.status != "violated":
                r.status = "proved"
    for c in lemmas:
        r = lemma_results[c.atom]
        if not c.induction:
            r.induction = {"proved": False, "why": "not a candidate for induction (%@induction no): searched to H only"}
            continue
        if c.atom in modes.get((frozenset(), frozenset()), set()):
            r.status = "proved"
            r.induction = {"proved": True}
    # dead ends: one look-ahead from any state satisfying the proved invariants
    dead = [r for r in results.values() if r.check.form == "lookahead"]
    if dead:
        proved = houdini((frozenset(), frozenset()), lemmas + [x for x in checks if not x.lift and not x.enable])
        t_ahead = time.perf_counter()
        ahead = Step1(book, facts, dom, ahead=True)
        rep.stats["lookahead_step_ground_ms"] = round((time.perf_counter() - t_ahead) * 1000, 1)
        for r in dead:
            t0 = time.perf_counter()
            ass = search.rule_assumptions()
            ass += [(Function("assume", [Function(c.atom, [])]), c.atom in proved) for c in book.checks]
            r.solves += 1
            try:
                out = ahead.session.solve(ass + [(Function("active", [Number(1)]), False),
                                                 (Function("seek_ahead", [Number(1)]), True)],
                                          models=1, conflicts=INDUCTION_BUDGET)
            except LimitReached:
                r.induction = _failed(checker, UNDECIDED)
                continue
            finally:
                r.ms += (time.perf_counter() - t0) * 1000
            if out.satisfiable:
                model = out.models[0]
                r.induction = {"proved": False, "why": _cti_text(checker, model, ahead=True),
                               "counterexample_to_induction": _cti(checker, model)}
            else:
                r.induction = {"proved": True, "assumed": sorted(book.rules[a].id for a in proved)}
                if r.status != "violated":
                    r.status = "proved"
    rep.stats["induction_ms"] = round((time.perf_counter() - started) * 1000, 1)


UNDECIDED: list[Symbol] = []  # an induction step not decided within its conflict budget
INDUCTION_BUDGET = 3_000  # conflicts per induction solve (no time limit: the verdicts do not depend on the
# machine's load); an undecided step leaves the invariant searched to H only


def _failed(checker: Checker, model: list[Symbol]) -> dict[str, Any]:
    if model is UNDECIDED:
        return {"proved": False, "why": f"not proved within the budget: the induction step was not decided in {INDUCTION_BUDGET} conflicts"}
    return {"proved": False, "why": _cti_text(checker, model), "counterexample_to_induction": _cti(checker, model)}


def _cti(checker: Checker, model: list[Symbol]) -> dict[str, Any]:
    """A counterexample to induction: a state satisfying the hypothesis and the step that breaks it."""
    states: dict[int, list[Symbol]] = {}
    event = None
    for a in model:
        if a.name == "holds":
            states.setdefault(a.arguments[1].number, []).append(a.arguments[0])
        elif a.name == "occurs" and a.arguments[1].number == 1:
            event = a.arguments[0]
    sc = position_scenario(checker.pool, model)
    before = Position(frozenset(states.get(0, [])))
    out: dict[str, Any] = {"state": _state_summary(sc, before), "position": describe_position(checker.pool, model)}
    if event is not None:
        out["event"] = _event_label(sc, event)
        out["after"] = _state_summary(sc, Position(frozenset(states.get(1, []))))
    return out


def _cti_text(checker: Checker, model: list[Symbol], ahead: bool = False) -> str:
    c = _cti(checker, model)
    s = c["state"]
    state = ", ".join(f"{k}={v}" for k, v in s.items())
    if ahead:
        return f"from a state the lemmas allow ({state}) no event is legal; it may be unreachable"
    return (f"from a state the lemmas allow ({state}), '{c.get('event', '?')}' leads to {c.get('after', {})}; "
            "it may be unreachable")
