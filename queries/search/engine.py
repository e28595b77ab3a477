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

from logic.errors import InputError, shorten
from logic.facts import initial_state, state_facts, static_facts, symbols
from logic.registry import Rule, lp_files, registry
from logic.scenario import Scenario
from logic.userrules import UserRules
from solver import LimitReached, Session
from solver.limits import Limits
from solver.probe import probe_ground
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
# horizons at which a search looks for a witness / for completeness
SCHEDULE = (2, 4, 6, 8, 11, 14, 18, 22, 27, 32, 38, 44, 52, 60, 70, 80, 96, 112, 128, 144, 160)
CORE_BUDGET = 5_000  # conflicts per solve while minimising a reason (deterministic, unlike time)  # seconds for one solve while minimising a core


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
    applied: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)  # the cards whose trigger effect missed the timing here


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

    def __init__(self, engine: Engine, position: Position, qfacts: Sequence[Symbol], companions: bool = False) -> None:
        self.engine = engine
        self.session = Session(time_limit=engine.remaining(), model_limit=engine.limits.max_models,
                               requested_time=engine.time_limit)
        self.session.time_limit = engine.time_limit  # the deadline is the engine's: report the user's limit
        self.session.load_encodings(lp_files(engine.game), companions)
        for prog in engine.user_programs:
            self.session.add_statements(prog.with_companions() if companions else prog.statements, prog.path)
        # facts in a fixed order: symbol hashes differ between processes, and the order of
        # facts steers the solver (explanations must not depend on the process)
        self.session.add_facts(engine.static + state_facts(sorted(position.fluents, key=str)) + list(qfacts))
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

    def ground_to(self, h: int) -> None:
        while self.t < h:
            self.advance()

    def _checks(self, checks: dict[str, bool], at: int | None = None) -> list[tuple[Symbol, bool]]:
        """The question's check at horizon ``at`` (default: the current one), every other
        check off; steps up to the horizon take part in the trace, those ground
        ahead of it do not."""
        t = self.t if at is None else at
        out = []
        for u in range(1, self.grounded + 1):
            for name in CHECKS:
                out.append((Function(name, [Number(u)]), u == t and checks.get(name, False)))
            out.append((Function("active", [Number(u)]), u <= self.t))
        return out

    def _assumptions(self, checks: dict[str, bool], lifted: Iterable[str] = (), at: int | None = None,
                     active: Iterable[str] | None = None,
                     extra: Sequence[tuple[Symbol, bool]] = ()) -> list[tuple[Symbol, bool]]:
        lifted_set = set(lifted)
        on = set(active) if active is not None else None
        out: list[tuple[Symbol, bool]] = [
            (Function("rule", [Function(atom, [])]),
             (atom in on) if on is not None else (atom not in lifted_set))
            for atom in self.engine.switchable
        ]
        return out + self._checks(checks, at) + list(extra)

    def solve(self, checks: dict[str, bool], models: int = 1, lifted: Iterable[str] = (), at: int | None = None,
              active: Iterable[str] | None = None, budget: int | None = None,
              extra: Sequence[tuple[Symbol, bool]] = ()) -> tuple[bool, list[list[Symbol]]]:
        out = self.session.solve(self._assumptions(checks, lifted, at, active, extra), models=models, conflicts=budget)
        return out.satisfiable, out.models

    def shortest(self, checks: dict[str, bool], lifted: Iterable[str] = (), lo: int = 1,
                 extra: Sequence[tuple[Symbol, bool]] = ()) -> tuple[int, list[Symbol]] | None:
        """The shortest horizon (among those grounded) at which the check holds, with a model."""
        lifted = list(lifted)
        sat, models = self.solve(checks, lifted=lifted, extra=extra)
        if not sat:
            return None
        hi, best = self.t, models[0]
        while lo < hi:
            mid = (lo + hi) // 2
            ok, ms = self.solve(checks, lifted=lifted, at=mid, extra=extra)
            if ok:
                hi, best = mid, ms[0]
            else:
                lo = mid + 1
        return hi, best

    def decisive(self, steps: Sequence[Step], check: str) -> int | None:
        """Along a trace, the first step after which ``check`` can no longer
        hold (with the trace's events up to it fixed): the choice that
        settled the outcome.  Returns its index in ``steps``."""
        def blocked(k: int) -> bool:
            pin = [(Function("occurs", [s.event, Number(s.t)]), True) for s in steps[:k]]
            sat, _ = self.solve({check: True}, extra=pin)
            return not sat

        lo, hi = 1, len(steps)
        if hi == 0 or not blocked(hi):
            return None
        while lo < hi:
            mid = (lo + hi) // 2
            if blocked(mid):
                hi = mid
            else:
                lo = mid + 1
        return lo - 1

    def _minimise(self, checks: dict[str, bool], start: list[str], lifted: Iterable[str] = ()) -> tuple[list[str], bool]:
        """A minimal unsatisfiable subset of ``start`` (the other rules lifted),
        by QuickXplain (Junker 2004): O(k log n) solves for a set of k rules
        out of n.  Each solve has a time budget; one that runs out counts as
        satisfiable, which keeps the set correct but may leave it not minimal."""
        proved = [True]

        def unsat(active: list[str]) -> bool:
            try:
                sat, _ = self.solve(checks, active=active, budget=CORE_BUDGET)
            except LimitReached as exc:
                _budget_only(exc)
                proved[0] = False
                return False
            return not sat

        def qx(background: list[str], delta: bool, cands: list[str]) -> list[str]:
            if delta and unsat(background):
                return []
            if len(cands) == 1:
                return cands
            half = len(cands) // 2
            c1, c2 = cands[:half], cands[half:]
            d2 = qx(background + c1, bool(c1), c2)
            d1 = qx(background + d2, bool(d2), c1)
            return d1 + d2

        if not start or unsat([]):
            return [], True
        return qx([], False, list(start)), proved[0]

    def _core_atoms(self, checks: dict[str, bool], lifted: Iterable[str] = ()) -> list[str] | None:
        lifted = set(lifted)
        out = self.session.solve(self._assumptions(checks, lifted), models=1)
        if out.satisfiable:
            return None
        return [c.arguments[0].name for c in out.core if c.name == "rule" and c.arguments[0].name not in lifted]

    def reasons(self, checks: dict[str, bool], max_sets: int = 4) -> list[Reason]:
        """The minimal sets of rules that forbid the check at the current horizon.

        A first minimal set is found by QuickXplain over the solver's core.
        Then, with every set found so far lifted, the search is repeated: if
        the check is still forbidden there is another, independent reason
        (one that needs none of the rules already named), and so on until
        lifting them all makes the check satisfiable (or ``max_sets``)."""
        found: list[Reason] = []
        while len(found) < max_sets:
            lifted = sorted({a for r in found for a in r.rules})
            core = self._core_atoms(checks, lifted=lifted)
            if not core:
                break  # satisfiable once these are lifted (or forbidden by the structure alone)
            if not found:
                first = self._necessary_first(checks, core)
                if first is not None:
                    found.append(first)
                    continue
            rules, proved = self._minimise(checks, core)
            if not rules or any(set(rules) == set(r.rules) for r in found):
                break
            found.append(Reason(rules, proved, note="" if proved else
                                "the set may not be minimal (a check reached its budget)"))
        if len(found) == 1:
            found[0].unique = True
        return found

    def _necessary_first(self, checks: dict[str, bool], core: list[str]) -> Reason | None:
        """The rules each necessary on its own (lifting it alone, every other
        rule in force, makes the check satisfiable: cheap solves) are in every
        minimal set; if they forbid the check by themselves they are the only
        minimal set."""
        necessary = []
        for atom in core:
            try:
                sat, _ = self.solve(checks, lifted=[atom], budget=CORE_BUDGET)
            except LimitReached as exc:
                _budget_only(exc)
                continue
            if sat:
                necessary.append(atom)
        if not necessary:
            return None
        try:
            sat, _ = self.solve(checks, active=necessary, budget=CORE_BUDGET)
        except LimitReached as exc:
            _budget_only(exc)
            return Reason(necessary, False, note="each rule listed is necessary (lifting any one changes the "
                                                   "answer); that they suffice together was not proved within the budget")
        return Reason(necessary, True) if not sat else None

    def core(self, checks: dict[str, bool]) -> list[Rule] | None:
        """The first minimal reason, as rules (see :meth:`reasons`)."""
        found = self.reasons(checks, max_sets=1)
        if not found:
            return None
        self.core_note = found[0].note or ("" if found[0].minimal else "the set may not be minimal "
                                           "(a check ran out of time)")
        reg = self.engine.rules
        return [reg[a] for a in found[0].rules if a in reg]


def _budget_only(exc: LimitReached) -> None:
    """A solve of the reason search stopped: its own conflict budget is part of the
    (deterministic) method; the user's time or model limit is not, and stops the
    explanation rather than silently changing it."""
    if exc.which != "conflicts":
        raise exc


@dataclass
class Reason:
    """A set of rule atoms that together forbid a goal."""

    rules: list[str]
    minimal: bool
    unique: bool = False
    note: str = ""


# Replays are pure functions of the scenario's static facts, the position and
# the event: remember the latest ones, so that asking several questions about
# one history (or one history in several scenarios' askers) replays it once.
_REPLAYS: OrderedDict[tuple[object, ...], tuple[list[Position], Trace] | ReplayError] = OrderedDict()
_REPLAYS_MAX = 512
_EVENTS: OrderedDict[tuple[object, ...], list[Symbol]] = OrderedDict()


class Engine:
    """Searches over one scenario."""

    def __init__(self, sc: Scenario, time_limit: float | None = None, max_horizon: int = DEFAULT_MAX_HORIZON,
                 limits: Limits | None = None, user_rules: UserRules | None = None,
                 reading: str | None = None) -> None:
        self.sc = sc
        self.game = sc.game
        self.reading = reading  # a reading of the unmodelled parts (core/unmodelled.lp), None: plain
        self.limits = limits or Limits(time=time_limit)
        self.user_programs = list(user_rules.programs) if user_rules is not None else []
        self.static: list[Symbol] = symbols(static_facts(sc, reading))
        self.rules = registry(sc.game)
        if user_rules is not None and user_rules.rules:
            # a rule file's rules: cited in explanations like the rulebook's, switched the same way
            self.rules = {**self.rules, **user_rules.rules}
            self.static += [Function("structural_rule" if r.kind == "structural" else "switchable_rule",
                                     [Function(a, [])]) for a, r in user_rules.rules.items()]
        self.switchable = sorted(a for a, r in self.rules.items() if r.kind != "structural")
        self.deadline = time.monotonic() + time_limit if time_limit else None
        self.time_limit = time_limit
        self.max_horizon = max_horizon
        self._events: list[Symbol] | None = None
        self.stats = {"ground_ms": 0.0, "solve_ms": 0.0, "models": 0, "solves": 0, "atoms": 0, "rules": 0}

    # ------------------------------------------------------------ plumbing
    def probe(self, force: bool = False) -> None:
        """Ground the first steps in a child process under the grounding time
        and memory limits (solver/probe.py) when a rule file is loaded or the
        position is large: grounding cannot be interrupted in this process."""
        size = len(self.sc.cards) + len(self.sc.history)
        if not (force or self.user_programs or size >= self.limits.large_position):
            return
        budget = self.limits.ground_time
        left = self.remaining()
        if left is not None and left < budget:
            budget = left
        facts = self.static + state_facts(self.initial().fluents)
        try:
            probe_ground(lp_files(self.game), [(p.path, p.text) for p in self.user_programs], facts,
                         self.limits.probe_steps, budget, self.limits.memory_mb)
        except LimitReached as exc:
            if exc.which == "grounding time" and budget < self.limits.ground_time:
                raise LimitReached("time", self.time_limit or 0, exc.partial) from None
            raise

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
        """The scenario's state as its step begins (logic/facts.py initial_state)."""
        return Position(frozenset(_fluent(f.raw) for f in initial_state(self.sc)))

    def starts(self) -> list[Position]:
        """Where the scenario's position begins (docs/scenarios.md, "Where a position begins"): for Magic,
        after the step's turn-based action, state-based actions and its "at the
        beginning of" triggered abilities put on the stack, the active player
        about to receive priority (CR 117.3a, 117.5, 603.3b).  More than one
        position where the game's procedures leave a player a choice (the order
        of their own triggers, a trigger's target).  A position that cannot
        begin so (an attacker the rules do not allow, ...) is an InputError."""
        raw = self.initial()
        proc = raw.value("proc")
        if proc is None or proc.type.name != "Function" or proc.name != "begin":
            return [raw]
        facts = [Function("q_outcome", [Function("goal", []), Function("settled", [])])]
        try:
            positions, _ = self.replay(raw, facts, "the beginning of the step")
        except ReplayError as err:
            core = err.core or self._start_core(raw, facts, err.horizon)
            rules = "; ".join(f"{r.id}: {r.text}" for r in core) if core else "no legal way was found"
            raise InputError(f"the position cannot begin its step as described ({rules})", f"{self.sc.path}: phase") \
                from None
        return positions

    def _start_core(self, raw: Position, facts: list[Symbol], horizon: int) -> list[Rule]:
        """The rules that keep a position from beginning its step: the replay stops
        where every trace has died, too early for the steps the beginning needs
        once a rule is lifted; look a few steps further."""
        st = Stepper(self, raw, [*facts, Function("q_scope", [Function("replay", [])])])
        try:
            st.ground_to(horizon + 6)
            return st.core({"q_reach": True}) or []
        finally:
            self._absorb(st)

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
    def stepper(self, position: Position, qfacts: Sequence[Symbol]) -> Stepper:
        return Stepper(self, position, qfacts)

    def search(self, position: Position, qfacts: Sequence[Symbol], check: str, want_core: bool = False,
               max_horizon: int | None = None, stepper: Stepper | None = None) -> SearchResult:
        """Incremental search for a trace satisfying ``check`` (q_reach or q_avoid).

        A stepper may be shared by searches over the same position and facts
        (its grounding is reused)."""
        limit = max_horizon or self.max_horizon
        st = stepper or Stepper(self, position, qfacts)
        last = 0
        try:
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
        except LimitReached as exc:
            if exc.which not in ("time", "models"):
                raise
            what = {"q_reach": "no trace reaching the goal", "q_avoid": "no complete trace avoiding the goal"}
            found = what.get(check, "no trace")
            raise LimitReached(exc.which, exc.limit,
                               f"{found} had been found within {last} steps when the search stopped" if last
                               else f"the search stopped before any horizon was complete ({exc.partial})") from None
        finally:
            if stepper is None:
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
                try:
                    sat, models = st.solve({"q_reach": True}, models=64)
                except LimitReached as exc:
                    if exc.which != "models":
                        raise
                    raise LimitReached("models", exc.limit, f"{shorten(what)} can happen in more ways than that "
                                       "here; they were not all looked at") from None
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
            else:
                # every trace was still going on at the bound: not a proof that the event cannot happen
                raise LimitReached("horizon", self.max_horizon,
                                   f"{shorten(what)} did not happen within {self.max_horizon} steps of the position")
            core = st.core({"q_reach": True})
            raise ReplayError(what, core or [], st.t)
        finally:
            self._absorb(st)

    def annotate(self, trace: Trace | None, start: Position | None = None) -> Trace | None:
        """The same trace replayed with the rules' ``applies`` companions: which
        rules were checked at each step (and held).  Kept out of the searches,
        where it would only cost grounding."""
        if trace is None or not trace.steps:
            return trace
        st = Stepper(self, start or trace.steps[0].before, [], companions=True)
        try:
            last = trace.steps[-1].t
            st.ground_to(last)
            pin = [(Function("occurs", [s.event, Number(s.t)]), True) for s in trace.steps]
            sat, models = st.solve({}, extra=pin)
            if not sat:
                return trace
            applied: dict[int, list[str]] = {}
            for a in models[0]:
                if a.name == "applies":
                    applied.setdefault(a.arguments[1].number, []).append(a.arguments[0].name)
            for s in trace.steps:
                s.applied = sorted(set(applied.get(s.t, [])))
            return trace
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
        applied: dict[int, list[str]] = {}
        missed: dict[int, list[str]] = {}
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
            elif a.name == "applies":
                applied.setdefault(a.arguments[1].number, []).append(a.arguments[0].name)
            elif a.name == "missed_card":
                missed.setdefault(a.arguments[1].number, []).append(str(a.arguments[0]).strip('"'))
            elif a.name == "goal_at":
                t = a.arguments[0].number
                goal_at = t if goal_at is None else min(goal_at, t)
        steps = []
        for t in sorted(events):
            if events[t].name == "idle":
                continue
            steps.append(
                Step(t, events[t], Position(frozenset(states.get(t - 1, set()))), Position(frozenset(states.get(t, set()))),
                     resolved.get(t, []), sorted(fired.get(t, [])), sorted(set(applied.get(t, []))),
                     sorted(set(missed.get(t, []))))
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
