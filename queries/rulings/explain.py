"""Explanations a judge can check.

* Why not: the minimal sets of named rules that together forbid the goal
  (every independent reason found within a budget), and the counterfactual:
  the shortest timeline that reaches the goal once those rules are lifted,
  with the card conditions that fail there.
* Why yes: the witness, and per event the rules that gave the chance and the
  rules the event was checked against.
* When can: every window (point, box) in which the asked activation can
  happen, in turn order; the earliest and the latest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from logic.games import turn
from logic.registry import Rule
from queries.search.engine import SCHEDULE, Engine, Position, Reason, Stepper, Trace
from solver import LimitReached
from solver.terms import Function, Symbol

BOX_ORDER = {"a": 0, "b": 1, "c": 2, "d": 3, "e0": 4, "e": 5, "none": 6}


@dataclass
class WhyNot:
    reasons: list[Reason]
    rules: dict[str, Rule]
    counterfactual: Trace | None = None
    failing_conditions: list[tuple[str, str]] = field(default_factory=list)  # (effect, condition)
    lifted: list[str] = field(default_factory=list)
    # per rule of the reasons that alone opens a way to the goal: the shortest
    # timeline with only that rule lifted and the card conditions failing there
    # (a card with several effects: which effect that rule stops, and why)
    single: list[tuple[str, Trace, list[tuple[str, str]]]] = field(default_factory=list)

    def because(self) -> list[dict[str, str]]:
        seen: set[str] = set()
        out = []
        for reason in self.reasons:
            for atom in reason.rules:
                r = self.rules.get(atom)
                if r is None or r.id in seen:
                    continue
                seen.add(r.id)
                d = r.as_dict()
                if r.kind != "game":
                    d["kind"] = r.kind
                out.append(d)
        return out

    def sets(self) -> list[dict[str, Any]]:
        out = []
        for reason in self.reasons:
            d: dict[str, Any] = {"rules": [self.rules[a].id for a in reason.rules if a in self.rules],
                                 "minimal": reason.minimal}
            if reason.note:
                d["note"] = reason.note
            out.append(d)
        return out


def why_not(engine: Engine, st: Stepper, check: str, max_sets: int = 4) -> WhyNot:
    """Reasons at the stepper's horizon (where the search was found complete)."""
    checks = {check: True}
    reasons = st.reasons(checks, max_sets=max_sets)
    out = WhyNot(reasons, engine.rules)
    lifted = sorted({a for r in reasons for a in r.rules})
    out.lifted = lifted
    if lifted:
        found = st.shortest(checks, lifted=lifted)
        if found is not None:
            t, _ = found
            model = canonical(st, checks, t, lifted)
            out.counterfactual = engine._trace(st.position, model, t)
            for a in model:
                if a.name == "cond_fail_at":
                    eff, cond = a.arguments[0], a.arguments[1]
                    out.failing_conditions.append((str(eff), str(cond)))
    if len(lifted) > 1:
        for atom in lifted:
            try:
                one = st.shortest(checks, lifted=[atom])
            except LimitReached:
                break
            if one is None:
                continue
            model = canonical(st, checks, one[0], [atom])
            conds = [(str(a.arguments[0]), str(a.arguments[1])) for a in model if a.name == "cond_fail_at"]
            out.single.append((atom, engine._trace(st.position, model, one[0]), conds))
    return out


def canonical(st: Stepper, checks: dict[str, bool], t: int, lifted: Sequence[str] = (), limit: int = 500) -> list[Symbol]:
    """Among the traces of length t satisfying the check, the first by a fixed
    order of their events (so that an explanation does not depend on what the
    solver learned before)."""
    _, models = st.solve(checks, models=limit, lifted=lifted, at=t)

    def key(m: list[Symbol]) -> tuple[str, ...]:
        occ = sorted((a.arguments[1].number, str(a.arguments[0])) for a in m if a.name == "occurs")
        return tuple(e for _, e in occ)

    return min(models, key=key)


@dataclass(frozen=True)
class Window:
    point: str  # internal key
    box: str
    t: int

    def as_dict(self, game: str) -> dict[str, str]:
        d = {"point": turn(game).public_name(self.point)}
        if game == "ygo":
            d["box"] = self.box.upper() if self.box != "e0" else "E0"
        return d


def windows(engine: Engine, position: Position, goal_facts: Sequence[Symbol], limit: int = 64) -> list[Window]:
    """Every window in which the goal event can happen, in turn order."""
    facts = list(goal_facts) + [Function("q_mode", [Function("windows", [])])]
    st = engine.stepper(position, facts)
    try:
        # ground until every trace is over
        for h in list(SCHEDULE) + [engine.max_horizon]:
            st.ground_to(min(h, engine.max_horizon))
            alive, _ = st.solve({"q_alive": True})
            if not alive or st.t >= engine.max_horizon:
                break
        found: list[Window] = []
        blocked: list[tuple[Symbol, bool]] = []
        while len(found) < limit:
            sat, models = st.solve({"q_reach": True}, extra=blocked)
            if not sat:
                break
            model = models[0]
            wins = [a for a in model if a.name == "goal_window"]
            if not wins:
                break
            w = min(wins, key=lambda a: a.arguments[2].number)
            win = Window(w.arguments[0].name, w.arguments[1].name, w.arguments[2].number)
            found.append(win)
            blocked.append((Function("q_block", [w.arguments[0], w.arguments[1]]), True))
        tt = turn(engine.game)
        return sorted(found, key=lambda w: (tt.order(w.point), BOX_ORDER.get(w.box, 9)))
    finally:
        engine._absorb(st)
