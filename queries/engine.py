"""The search engine: positions, incremental searches, replays.

A *position* is the set of fluents of a state (what ``holds`` at a point).
From a position the engine grounds the encodings one step at a time
(``step(t)``, ``state(t)``, ``check(t)``) and asks the solver, at each
horizon, whether the goal is reached (``q_reach``), whether a complete trace
avoids it (``q_avoid``), and whether any trace is still going on
(``q_alive``).  When no trace is still going on the search is complete: a
"no" is then a proof, not a bound.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from logic.errors import InputError
from logic.facts import initial_state, state_facts, static_facts, symbols
from logic.registry import Rule, lp_files, registry
from logic.scenario import Scenario
from solver import LimitReached, Session
from solver.terms import Function, Number, Symbol

DEFAULT_MAX_HORIZON = 160
CHECKS = ("q_reach", "q_avoid", "q_alive")
# horizons at which a search looks for a witness / for completeness
SCHEDULE = (2, 4, 6, 8, 11, 14, 18, 22, 27, 32, 38, 44, 52, 60, 70, 80, 96, 112, 128, 144, 160)
CORE_BUDGET = 0.75  # seconds for one solve while minimising a core


@dataclass(frozen=True)
class Position:
    """A state: fluents (boolean and val(K,V)) as symbols."""

    fluents: frozenset[Symbol]

    def value(self, key: str) -> Symbol | None:
        for f in self.fluents:
            if f.name == "val" and len(f.arguments) == 2 and str(f.arguments[0]) == key:
                return f.arguments[1]
        return None

    def values(self, prefix: str) -> list[tuple[Symbol, Symbol]]:
        out = []
        for f in self.fluents:
            if f.name == "val" and len(f.arguments) == 2 and f.arguments[0].name == prefix:
                out.append((f.arguments[0], f.arguments[1]))
        return out

    def has(self, name: str) -> list[Symbol]:
        return [f for f in self.fluents if f.name == name]


@dataclass
class Step:
    """One row of a timeline: the state an event happened in, the event, the chain after."""

    t: int
    event: Symbol
    before: Position
    after: Position
    resolved: list[Symbol] = field(default_factory=list)
    fired: list[str] = field(default_factory=list)


@dataclass
class Trace:
    steps: list[Step]
    final: Position
    goal_at: int | None = None


@dataclass
class SearchResult:
    found: bool
    complete: bool
    horizon: int
    trace: Trace | None = None
    core: list[Rule] | None = None
    stats: dict[str, float | int] = field(default_factory=dict)
    note: str = ""


class Stepper:
    """One incremental grounding from a position, with question facts."""

    def __init__(self, engine: Engine, position: Position, qfacts: Sequence[Symbol]) -> None:
        self.engine = engine
        self.session = Session(time_limit=engine.remaining())
        for f in lp_files(engine.game):
            self.session.load(f)
        self.session.add_facts(engine.static + state_facts(position.fluents) + list(qfacts))
        self.session.ground([("base", []), ("state", [Number(0)])])
        self.t = 0
        self.position = position

    def advance(self) -> int:
        self.t += 1
        t = Number(self.t)
        self.session.ground([("step", [t]), ("state", [t]), ("check", [t])])
        return self.t

    def ground_to(self, h: int) -> None:
        while self.t < h:
            self.advance()

    def _checks(self, checks: dict[str, bool], at: int | None = None) -> list[tuple[Symbol, bool]]:
        t = self.t if at is None else at
        out = []
        for u in range(1, self.t + 1):
            for name in CHECKS:
                out.append((Function(name, [Number(u)]), u == t and checks.get(name, False)))
        return out

    def _assumptions(self, checks: dict[str, bool], lifted: Iterable[str] = (), at: int | None = None,
                     active: Iterable[str] | None = None) -> list[tuple[Symbol, bool]]:
        lifted_set = set(lifted)
        on = set(active) if active is not None else None
        out: list[tuple[Symbol, bool]] = [
            (Function("rule", [Function(atom, [])]),
             (atom in on) if on is not None else (atom not in lifted_set))
            for atom in self.engine.switchable
        ]
        return out + self._checks(checks, at)

    def solve(self, checks: dict[str, bool], models: int = 1, lifted: Iterable[str] = (), at: int | None = None,
              active: Iterable[str] | None = None, budget: float | None = None) -> tuple[bool, list[list[Symbol]]]:
        out = self.session.solve(self._assumptions(checks, lifted, at, active), models=models, budget=budget)
        return out.satisfiable, out.models

    def core(self, checks: dict[str, bool]) -> list[Rule] | None:
        """The rules that together forbid the check at the current horizon.

        First the rules each necessary on its own (lifting it alone, with
        every other rule in force, makes the check satisfiable): they are in
        every minimal set.  If they suffice they are the one minimal set.
        Otherwise (or if proving that takes too long) the solver's core is
        minimised by deletion, each trial within a time budget.
        """
        reg = self.engine.rules
        out = self.session.solve(self._assumptions(checks), models=1)
        if out.satisfiable:
            return None
        core_atoms = [c.arguments[0].name for c in out.core if c.name == "rule"]
        necessary = []
        for atom in core_atoms:
            try:
                sat, _ = self.solve(checks, lifted=[atom], budget=CORE_BUDGET)
            except LimitReached:
                continue
            if sat:
                necessary.append(atom)
        chosen: list[str] | None = None
        self.core_note = ""
        if necessary:
            try:
                sat, _ = self.solve(checks, active=necessary, budget=CORE_BUDGET)
                if not sat:
                    chosen = necessary
            except LimitReached:
                chosen = necessary
                self.core_note = "each rule listed is necessary; that they suffice together was not proved in time"
        if chosen is None:
            chosen = list(core_atoms)
            i = 0
            while i < len(chosen):
                trial = chosen[:i] + chosen[i + 1:]
                try:
                    sat, _ = self.solve(checks, active=trial, budget=CORE_BUDGET)
                except LimitReached:
                    sat = True  # could not show it is unneeded: keep it
                    self.core_note = "the set may not be minimal (a check ran out of time)"
                if sat:
                    i += 1
                else:
                    chosen = trial
        return [reg[a] for a in chosen if a in reg]


class Engine:
    """Searches over one scenario."""

    def __init__(self, sc: Scenario, time_limit: float | None = None, max_horizon: int = DEFAULT_MAX_HORIZON) -> None:
        self.sc = sc
        self.game = sc.game
        self.static: list[Symbol] = symbols(static_facts(sc))
        self.rules = registry(sc.game)
        self.switchable = sorted(a for a, r in self.rules.items() if r.kind != "structural")
        self.deadline = time.monotonic() + time_limit if time_limit else None
        self.time_limit = time_limit
        self.max_horizon = max_horizon
        self._events: list[Symbol] | None = None
        self.stats = {"ground_ms": 0.0, "solve_ms": 0.0, "models": 0, "solves": 0, "atoms": 0, "rules": 0}

    # ------------------------------------------------------------ plumbing
    def remaining(self) -> float | None:
        if self.deadline is None:
            return None
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise LimitReached("time", self.time_limit or 0, "the time ran out between searches")
        return left

    def _absorb(self, st: Stepper) -> None:
        st.session.size()  # refreshes the ground program's size
        s = st.session.stats
        self.stats["ground_ms"] += s.ground_ms
        self.stats["solve_ms"] += s.solve_ms
        self.stats["models"] += s.models
        self.stats["solves"] += s.solves
        self.stats["atoms"] = max(self.stats["atoms"], s.atoms)
        self.stats["rules"] = max(self.stats["rules"], s.rules)

    def initial(self) -> Position:
        return Position(frozenset(_fluent(f.raw) for f in initial_state(self.sc)))

    def events(self) -> list[Symbol]:
        """The static event domain (every event that may syntactically occur)."""
        if self._events is None:
            st = Stepper(self, self.initial(), [])
            self._events = st.session.atoms_of("event", 1)
            self._events = [a.arguments[0] for a in self._events]
            self._absorb(st)
        return self._events

    # ------------------------------------------------------------ searches
    def stepper(self, position: Position, qfacts: Sequence[Symbol]) -> Stepper:
        return Stepper(self, position, qfacts)

    def search(self, position: Position, qfacts: Sequence[Symbol], check: str, want_core: bool = False,
               max_horizon: int | None = None, stepper: Stepper | None = None) -> SearchResult:
        """Incremental search for a trace satisfying ``check`` (q_reach or q_avoid).

        A stepper may be shared by searches over the same position and facts
        (its grounding is reused)."""
        limit = max_horizon or self.max_horizon
        st = stepper or Stepper(self, position, qfacts)
        try:
            last = 0
            for h in [x for x in SCHEDULE if x < limit] + [limit]:
                if h < st.t:
                    continue
                st.ground_to(h)
                sat, models = st.solve({check: True})
                if sat:
                    # the shortest witness: binary search over the horizons grounded since the last check
                    lo, hi, best = last + 1, h, models[0]
                    while lo < hi:
                        mid = (lo + hi) // 2
                        ok, ms = st.solve({check: True}, at=mid)
                        if ok:
                            hi, best = mid, ms[0]
                        else:
                            lo = mid + 1
                    return SearchResult(True, True, hi, trace=self._trace(position, best, hi))
                alive, _ = st.solve({"q_alive": True})
                if not alive:
                    core = st.core({check: True}) if want_core else None
                    return SearchResult(False, True, st.t, core=core, note=getattr(st, "core_note", ""))
                last = h
            core = st.core({check: True}) if want_core else None
            return SearchResult(False, False, st.t, core=core, note=getattr(st, "core_note", ""))
        finally:
            if stepper is None:
                self._absorb(st)

    def replay(self, position: Position, qfacts: Sequence[Symbol], what: str) -> tuple[list[Position], Trace]:
        """Play an event from a position with nothing but passes and game
        procedures before it, as early as possible.  Returns the distinct
        resulting positions (more than one if the event is ambiguous)."""
        facts = list(qfacts) + [Function("q_scope", [Function("replay", [])])]
        st = Stepper(self, position, facts)
        try:
            while st.t < self.max_horizon:
                st.advance()
                sat, models = st.solve({"q_reach": True}, models=64)
                if sat:
                    finals: dict[frozenset[Symbol], list[Symbol]] = {}
                    for m in models:
                        final = _state_at(m, _goal_time(m))
                        finals.setdefault(final, m)
                    first = next(iter(finals.values()))
                    trace = self._trace(position, first, _goal_time(first))
                    return [Position(f) for f in finals], trace
                alive, _ = st.solve({"q_alive": True})
                if not alive:
                    break
            core = st.core({"q_reach": True})
            raise ReplayError(what, core or [], st.t)
        finally:
            self._absorb(st)

    def _trace(self, start: Position, model: list[Symbol], horizon: int) -> Trace:
        events: dict[int, Symbol] = {}
        states: dict[int, set[Symbol]] = {}
        resolved: dict[int, list[Symbol]] = {}
        fired: dict[int, list[str]] = {}
        goal_at: int | None = None
        for a in model:
            if a.name == "occurs":
                events[a.arguments[1].number] = a.arguments[0]
            elif a.name == "holds":
                states.setdefault(a.arguments[1].number, set()).add(a.arguments[0])
            elif a.name == "resolved":
                resolved.setdefault(a.arguments[3].number, []).append(a)
            elif a.name == "fired":
                fired.setdefault(a.arguments[1].number, []).append(a.arguments[0].name)
            elif a.name == "goal_at":
                t = a.arguments[0].number
                goal_at = t if goal_at is None else min(goal_at, t)
        steps = []
        for t in sorted(events):
            if events[t].name == "idle":
                continue
            steps.append(
                Step(t, events[t], Position(frozenset(states.get(t - 1, set()))), Position(frozenset(states.get(t, set()))),
                     resolved.get(t, []), sorted(fired.get(t, [])))
            )
        last = goal_at if goal_at is not None else horizon
        return Trace(steps, Position(frozenset(states.get(last, set()))), goal_at)


class ReplayError(Exception):
    def __init__(self, what: str, core: list[Rule], horizon: int) -> None:
        super().__init__(what)
        self.what = what
        self.core = core
        self.horizon = horizon


def _fluent(sym: Symbol) -> Symbol:
    """init(F) / init_val(K,V) facts -> fluents F / val(K,V)."""
    if sym.name == "init":
        return sym.arguments[0]
    if sym.name == "init_val":
        return Function("val", list(sym.arguments))
    raise InputError(f"not a state fact: {sym}")


def _goal_time(model: list[Symbol]) -> int:
    times = [a.arguments[0].number for a in model if a.name == "goal_at"]
    return min(times)


def _state_at(model: list[Symbol], t: int) -> frozenset[Symbol]:
    return frozenset(a.arguments[0] for a in model if a.name == "holds" and a.arguments[1].number == t)
