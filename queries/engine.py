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
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from logic.errors import InputError
from logic.facts import initial_state, state_facts, static_facts, symbols
from logic.registry import Rule, lp_files, registry
from logic.scenario import Scenario
from solver import LimitReached, Session
from solver.terms import Function, Number, Symbol

DEFAULT_MAX_HORIZON = 160
# Steps are ground a few at a time once a search gets long: one clingo ground
# call for several steps costs little more than for one, and steps beyond the
# current horizon take no part in a trace (core/time.lp: active/1), so answers
# do not change.  Short searches (most) ground one step at a time.
LOOKAHEAD_MAX = 8


def lookahead(t: int) -> int:
    """How many steps to ground at once when the search reaches horizon t."""
    return max(1, min(LOOKAHEAD_MAX, t // 3))
CHECKS = ("q_reach", "q_avoid", "q_alive")


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
        self.grounded = 0
        self.position = position

    def advance(self) -> int:
        self.t += 1
        if self.t > self.grounded:
            last = self.t + lookahead(self.t) - 1
            parts: list[tuple[str, list[Symbol]]] = []
            for i in range(self.t, last + 1):
                n = Number(i)
                parts += [("step", [n]), ("state", [n]), ("check", [n])]
            self.session.ground(parts)
            self.grounded = last
        return self.t

    def _active(self) -> list[tuple[Symbol, bool]]:
        """Steps up to the horizon take part in the trace; those ground ahead do
        not; the question's checks at other horizons are off."""
        out = [(Function("active", [Number(i)]), i <= self.t) for i in range(1, self.grounded + 1)]
        out += [(Function(name, [Number(i)]), False) for i in range(1, self.grounded + 1) if i != self.t
                for name in CHECKS]
        return out

    def _assumptions(self, checks: dict[str, bool], lifted: Iterable[str] = ()) -> list[tuple[Symbol, bool]]:
        lifted_set = set(lifted)
        out: list[tuple[Symbol, bool]] = [
            (Function("rule", [Function(atom, [])]), atom not in lifted_set) for atom in self.engine.switchable
        ]
        for name in CHECKS:
            out.append((Function(name, [Number(self.t)]), checks.get(name, False)))
        return out + self._active()

    def solve(self, checks: dict[str, bool], models: int = 1, lifted: Iterable[str] = ()) -> tuple[bool, list[list[Symbol]]]:
        out = self.session.solve(self._assumptions(checks, lifted), models=models)
        return out.satisfiable, out.models

    def core(self, checks: dict[str, bool]) -> list[Rule] | None:
        fixed = [(Function(n, [Number(self.t)]), checks.get(n, False)) for n in CHECKS] + self._active()
        cands = [Function("rule", [Function(a, [])]) for a in self.engine.switchable]
        core = self.session.minimal_core(fixed, cands)
        if core is None:
            return None
        reg = self.engine.rules
        return [reg[c.arguments[0].name] for c in core if c.arguments[0].name in reg]


# Replays are pure functions of the scenario's static facts, the position and
# the event: remember the latest ones, so that asking several questions about
# one history (or one history in several scenarios' askers) replays it once.
_REPLAYS: OrderedDict[tuple[object, ...], tuple[list[Position], Trace] | ReplayError] = OrderedDict()
_REPLAYS_MAX = 512
_EVENTS: OrderedDict[tuple[object, ...], list[Symbol]] = OrderedDict()


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
            key = (self.game, tuple(self.static), self.initial().fluents)
            if key in _EVENTS:
                self._events = _EVENTS[key]
            else:
                st = Stepper(self, self.initial(), [])
                self._events = [a.arguments[0] for a in st.session.atoms_of("event", 1)]
                self._absorb(st)
                _EVENTS[key] = self._events
                while len(_EVENTS) > 64:
                    _EVENTS.popitem(last=False)
        return self._events

    # ------------------------------------------------------------ searches
    def search(self, position: Position, qfacts: Sequence[Symbol], check: str, want_core: bool = False,
               max_horizon: int | None = None) -> SearchResult:
        """Incremental search for a trace satisfying ``check`` (q_reach or q_avoid)."""
        limit = max_horizon or self.max_horizon
        st = Stepper(self, position, qfacts)
        try:
            while st.t < limit:
                st.advance()
                sat, models = st.solve({check: True})
                if sat:
                    return SearchResult(True, True, st.t, trace=self._trace(position, models[0], st.t))
                alive, _ = st.solve({"q_alive": True})
                if not alive:
                    core = st.core({check: True}) if want_core else None
                    return SearchResult(False, True, st.t, core=core)
            core = st.core({check: True}) if want_core else None
            return SearchResult(False, False, st.t, core=core)
        finally:
            self._absorb(st)

    def replay(self, position: Position, qfacts: Sequence[Symbol], what: str) -> tuple[list[Position], Trace]:
        """Play an event from a position with nothing but passes and game
        procedures before it, as early as possible.  Returns the distinct
        resulting positions (more than one if the event is ambiguous)."""
        key = (self.game, tuple(self.static), self.max_horizon, position.fluents, tuple(qfacts))
        hit = _REPLAYS.get(key)
        if hit is None:
            try:
                hit = self._replay(position, qfacts, what)
            except ReplayError as err:
                hit = err
            _REPLAYS[key] = hit
            while len(_REPLAYS) > _REPLAYS_MAX:
                _REPLAYS.popitem(last=False)
        else:
            _REPLAYS.move_to_end(key)
        if isinstance(hit, ReplayError):
            raise ReplayError(what, hit.core, hit.horizon)
        return list(hit[0]), hit[1]

    def _replay(self, position: Position, qfacts: Sequence[Symbol], what: str) -> tuple[list[Position], Trace]:
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

    def settle(self, position: Position) -> list[Position]:
        """The positions reached from ``position`` by the game's own procedures
        (a resolution, state-based actions, triggered abilities put on the
        stack ...) until a player may act or the game moves on to the next
        point.  More than one if a player chooses along the way (the order of
        their triggered abilities).  Used where a question asks about the
        state "now": a procedure that is due has not yet given anyone a
        chance to act (CR 117.3b, 117.5)."""
        proc = position.value("proc")
        if proc is None or proc.type.name != "Function" or proc.name in ("none", "advance"):
            return [position]
        facts = [Function("q_outcome", [Function("goal", []), Function("settled", [])])]
        try:
            positions, _ = self.replay(position, facts, "the game's procedures")
        except ReplayError:
            return [position]
        return positions

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
