"""Answering a question about a scenario: history replay, the search each
question kind needs, and the answer with its witness and reasons."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from logic.errors import InputError, NotModelled
from logic.registry import Rule
from logic.scenario import Scenario
from queries import describe
from queries.ast import Event, Question, When
from queries.compile import GOAL, Compiler
from queries.engine import Engine, Position, ReplayError, SearchResult, Trace
from queries.parser import Names, parse_event, parse_question
from solver import LimitReached
from solver.terms import Function, Symbol


@dataclass
class Answer:
    question: str
    kind: str
    verdict: str | None = None
    answer: Any = None
    witness: list[dict[str, Any]] = field(default_factory=list)
    because: list[dict[str, str]] = field(default_factory=list)
    latest_chance: dict[str, str] | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    detail: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    other_witness: list[dict[str, Any]] = field(default_factory=list)
    summary: str = ""

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "question": self.question,
            "kind": self.kind,
            "verdict": self.verdict,
            "answer": self.answer,
            "witness": self.witness,
            "because": self.because,
            "latest_chance": self.latest_chance,
            "stats": self.stats,
        }
        if self.summary:
            out["summary"] = self.summary
        if self.detail:
            out["detail"] = self.detail
        if self.other_witness:
            out["other_witness"] = self.other_witness
        if self.notes:
            out["notes"] = self.notes
        return out


def names_of(sc: Scenario) -> Names:
    cards: set[str] = set()
    for inst in sc.cards:
        cards.add(inst.id)
        cards.add(inst.card.name)
        cards.update(inst.card.aliases)
    if sc.library is not None:
        for c in sc.library.cards.values():
            cards.add(c.name)
    return Names(sorted(cards), list(sc.players), sc.game)


class Asker:
    """Answers questions about one scenario (its history replayed once)."""

    def __init__(self, sc: Scenario, time_limit: float | None = None, max_horizon: int | None = None) -> None:
        self.sc = sc
        kwargs: dict[str, Any] = {"time_limit": time_limit}
        if max_horizon:
            kwargs["max_horizon"] = max_horizon
        self.engine = Engine(sc, **kwargs)
        self.compiler = Compiler(self.engine)
        self.names = names_of(sc)
        self.start = self._replay_history()

    # ------------------------------------------------------------ history
    def _replay_history(self) -> Position:
        pos = self.engine.initial()
        for i, phrase in enumerate(self.sc.history):
            where = f"{self.sc.path}: history[{i}]"
            try:
                ev = parse_event(phrase, self.names)
            except InputError as exc:
                raise InputError(exc.message, where) from None
            try:
                facts = self.compiler.event_facts(GOAL, ev)
            except InputError as exc:
                raise InputError(exc.message, where) from None
            except NotModelled as exc:
                raise NotModelled(f"{where}: {exc.message}") from None
            try:
                positions, _ = self.engine.replay(pos, facts, phrase)
            except ReplayError as err:
                raise InputError(_replay_message(phrase, err), where) from None
            if len(positions) > 1:
                raise InputError(
                    f"{phrase!r} can happen in {len(positions)} different ways here; "
                    "say which (for example name the target or the phase entered)", where)
            pos = positions[0]
        return pos

    # ------------------------------------------------------------ entry
    def ask(self, text: str) -> Answer:
        started = time.perf_counter()
        q = parse_question(text, self.names)
        ans = self._answer(q)
        ans.stats = dict(self.engine.stats)
        ans.stats["total_ms"] = round((time.perf_counter() - started) * 1000, 1)
        for k in ("ground_ms", "solve_ms"):
            ans.stats[k] = round(float(ans.stats[k]), 1)
        return ans

    def _positions(self, when: When) -> list[Position]:
        if when.kind == "after":
            assert when.event is not None
            return self._replay(self.start, when.event)
        if when.kind == "in_response":
            assert when.event is not None
            if self._on_top(self.start, when.event):
                return [self.start]
            return self._replay(self.start, when.event)
        return [self.start]

    def _replay(self, pos: Position, ev: Event) -> list[Position]:
        facts = self.compiler.event_facts(GOAL, ev)
        try:
            positions, _ = self.engine.replay(pos, facts, ev.text or ev.kind)
        except ReplayError as err:
            raise _Impossible(ev, err) from None
        return positions

    def _on_top(self, pos: Position, ev: Event) -> bool:
        if ev.kind not in ("activate", "chain", "cast") or ev.card is None:
            return False
        effs = set(self.compiler.effects(ev.card))
        n = pos.value("chain_len")
        if n is None or n.number == 0:
            return False
        for f in pos.has("link"):
            if f.arguments[0].number == n.number and f.arguments[1] in effs:
                return ev.player is None or f.arguments[2].string == ev.player
        return False

    def _answer(self, q: Question) -> Answer:
        try:
            positions = self._positions(q.when)
        except _Impossible as imp:
            return self._impossible_when(q, imp)
        if q.kind in ("can", "must", "does"):
            return self._yes_no(q, positions)
        if q.kind in ("who_has", "who_receives", "who_acts"):
            return self._who(q, positions)
        if q.kind == "chain":
            return self._chain(q, positions)
        if q.kind == "order":
            return self._order(q, positions)
        if q.kind == "next_point":
            return self._next_point(q, positions)
        if q.kind in ("count", "list"):
            from queries.chains import answer_chains

            return answer_chains(self, q, positions)
        raise NotModelled(f"questions of the form '{q.text.split()[0]} …' ({q.kind.replace('_', ' ')})")

    # ------------------------------------------------------------ yes / no
    def _goal_facts(self, q: Question) -> list[Symbol]:
        if q.kind in ("can", "must"):
            assert q.event is not None
            ev = q.event
            if q.when.kind == "in_response" and ev.kind == "activate":
                ev = Event(**{**ev.__dict__, "kind": "chain"})
            facts = self.compiler.event_facts(GOAL, ev)
            return facts + self.compiler.scope_facts(q.when, ev)
        assert q.outcome is not None
        return self._outcome_facts(q) + self.compiler.scope_facts(q.when, None)

    def _outcome_facts(self, q: Question) -> list[Symbol]:
        o = q.outcome
        assert o is not None
        if o.kind in ("resolve_negated", "resolve_unnegated", "resolve"):
            assert o.card is not None
            rs = {"resolve_negated": ["negated"], "resolve_unnegated": ["applied"], "resolve": ["applied", "negated"]}[o.kind]
            return [Function("q_outcome", [GOAL, Function("resolves", [Symbol_str(i.id), Function(r, [])])])
                    for i in self.compiler.instances(o.card) for r in rs]
        if o.kind == "activate":
            assert o.card is not None
            return [Function("q_outcome", [GOAL, Function("activates", [Symbol_str(i.id)])])
                    for i in self.compiler.instances(o.card)]
        if o.kind == "point_end":
            ev = Event(kind="ends", point=o.point, text=f"{o.point} ends")
            return self.compiler.event_facts(GOAL, ev)
        raise NotModelled(f"the outcome '{o.kind.replace('_', ' ')}'")

    def _yes_no(self, q: Question, positions: list[Position]) -> Answer:
        results = [self._yes_no_one(q, p) for p in positions]
        if len(results) == 1:
            return results[0]
        verdicts = {r.verdict for r in results}
        if len(verdicts) == 1:
            return results[0]
        yes = next(r for r in results if r.verdict in ("yes", "depends"))
        yes.verdict = "depends" if q.kind != "can" else "yes"
        yes.notes.append("the event in the question can happen in more than one way; the answer differs between them")
        return yes

    def _yes_no_one(self, q: Question, pos: Position) -> Answer:
        facts = self._goal_facts(q)
        ans = Answer(q.text, q.kind)
        if q.kind == "can":
            res = self.engine.search(pos, facts, "q_reach", want_core=True)
            self._bounded(res, "a trace with the asked event")
            if res.found:
                ans.verdict = "yes"
                ans.witness = describe.timeline(self.sc, res.trace)
                ans.because = describe.permission(self.sc, res.trace)
            else:
                ans.verdict = "no"
                ans.because = _rules(res.core)
        elif q.kind == "must":
            res = self.engine.search(pos, facts, "q_avoid", want_core=True)
            self._bounded(res, "a complete trace without the asked event")
            if res.found:
                ans.verdict = "no"
                ans.witness = describe.timeline(self.sc, res.trace)
                ans.because = describe.permission(self.sc, res.trace)
            else:
                ans.verdict = "yes"
                ans.because = _rules(res.core)
        else:
            st = self.engine.stepper(pos, facts)
            try:
                reach = self.engine.search(pos, facts, "q_reach", want_core=True, stepper=st)
                self._bounded(reach, "a trace with the outcome")
                avoid = self.engine.search(pos, facts, "q_avoid", want_core=True, stepper=st)
                self._bounded(avoid, "a complete trace without the outcome")
            finally:
                self.engine._absorb(st)
            if reach.found and avoid.found:
                ans.verdict = "depends"
                ans.witness = describe.timeline(self.sc, reach.trace)
                ans.other_witness = describe.timeline(self.sc, avoid.trace)
                ans.detail["choice"] = describe.divergence(self.sc, reach.trace, avoid.trace)
                ans.because = describe.permission(self.sc, reach.trace) + describe.permission(self.sc, avoid.trace)
                ans.because = _dedupe(ans.because)
            elif reach.found:
                ans.verdict = "yes"
                ans.witness = describe.timeline(self.sc, reach.trace)
                ans.because = _rules(avoid.core) or describe.permission(self.sc, reach.trace)
            else:
                ans.verdict = "no"
                ans.witness = describe.timeline(self.sc, avoid.trace)
                ans.because = _rules(reach.core)
        if not ans.because:
            ans.because = describe.structural(self.sc, q)
        return ans

    def _bounded(self, res: SearchResult, what: str) -> None:
        if not res.found and not res.complete:
            raise LimitReached("horizon", res.horizon, f"no witness within {res.horizon} steps ({what})")

    def _impossible_when(self, q: Question, imp: _Impossible) -> Answer:
        ans = Answer(q.text, q.kind)
        if q.yes_no:
            ans.verdict = "no"
        ans.because = _rules(imp.err.core)
        ans.summary = f"'{imp.event.text or imp.event.kind}' cannot happen from this position"
        ans.notes.append(ans.summary)
        return ans

    # ------------------------------------------------------------ other kinds
    def _who(self, q: Question, positions: list[Position]) -> Answer:
        if q.when.kind in ("during", "before_point"):
            positions = self._enter(positions, q.when.point or "")
        answers = []
        for pos in positions:
            pr = pos.value("priority")
            who = pr.string if pr is not None and pr.type.name == "String" else "nobody"
            answers.append((who, pos))
        ans = Answer(q.text, q.kind)
        values = sorted({a for a, _ in answers})
        ans.answer = values[0] if len(values) == 1 else values
        pos = answers[0][1]
        box = pos.value("box")
        if self.sc.game == "ygo" and box is not None and box.name not in ("none",):
            ans.detail["box"] = box.name.upper() if box.name != "e0" else "E (turn player's last chance)"
        ans.detail["point"] = describe.point_name(self.sc, pos)
        ans.because = describe.priority_reason(self.sc, pos)
        return ans

    def _enter(self, positions: list[Position], point: str) -> list[Position]:
        span = self.compiler.span(point)
        out = []
        for pos in positions:
            at = pos.value("at")
            if at is not None and at.name in span.keys:
                out.append(pos)
                continue
            ev = Event(kind="begins", point=point, text=f"{point} begins")
            out.extend(self._replay(pos, ev))
        return out

    def _chain(self, q: Question, positions: list[Position]) -> Answer:
        ans = Answer(q.text, q.kind)
        chains = [describe.chain_list(self.sc, p) for p in positions]
        ans.answer = chains[0] if all(c == chains[0] for c in chains) else chains
        ans.detail["links"] = describe.chain_detail(self.sc, positions[0])
        ans.because = describe.chain_reason(self.sc)
        return ans

    def _order(self, q: Question, positions: list[Position]) -> Answer:
        a, b = q.cards
        ea, eb = self.compiler.effects(a), self.compiler.effects(b)
        scope = self.compiler.scope_facts(q.when, None)
        found: list[tuple[list[str], Trace]] = []
        cores: list[Rule] = []
        for first, second, names in ((ea, eb, (a, b)), (eb, ea, (b, a))):
            facts = [Function("q_outcome", [GOAL, Function("below", [x, y])]) for x in first for y in second] + scope
            res = self.engine.search(positions[0], facts, "q_reach")
            self._bounded(res, "a chain with both effects")
            if res.found and res.trace is not None:
                found.append(([describe.ref_label(self.sc, names[0]), describe.ref_label(self.sc, names[1])], res.trace))
            else:
                cores += res.core or []
        ans = Answer(q.text, q.kind)
        if len(found) == 1:
            ans.answer = found[0][0]
            ans.witness = describe.timeline(self.sc, found[0][1])
            ans.because = _rules(cores) or describe.permission(self.sc, found[0][1])
        elif len(found) == 2:
            ans.answer = [f[0] for f in found]
            ans.notes.append("either order is possible")
            ans.witness = describe.timeline(self.sc, found[0][1])
            ans.other_witness = describe.timeline(self.sc, found[1][1])
            ans.because = describe.permission(self.sc, found[0][1])
        else:
            ans.answer = None
            ans.notes.append("they never go on the same chain from this position")
            facts = [Function("q_outcome", [GOAL, Function("below", [x, y])]) for x in ea for y in eb] + scope
            ans.because = _rules(self.engine.search(positions[0], facts, "q_reach", want_core=True).core)
        return ans

    def _next_point(self, q: Question, positions: list[Position]) -> Answer:
        ans = Answer(q.text, q.kind)
        nexts = []
        for pos in positions:
            evs = [e for e in self.engine.events() if e.name == "advance"]
            facts = [Function("q_match", [GOAL, e]) for e in evs]
            res = self.engine.search(pos, facts, "q_reach")
            self._bounded(res, "the next point")
            if res.found and res.trace is not None:
                step = next(s for s in res.trace.steps if s.event.name == "advance")
                nexts.append(describe.key_name(self.sc, step.event.arguments[0].name))
                ans.witness = describe.timeline(self.sc, res.trace)
        ans.answer = nexts[0] if nexts else None
        ans.because = describe.structural(self.sc, q)
        return ans


class _Impossible(Exception):
    def __init__(self, event: Event, err: ReplayError) -> None:
        super().__init__(event.text)
        self.event = event
        self.err = err


def Symbol_str(s: str) -> Symbol:  # noqa: N802 - a term constructor
    from solver.terms import String

    return String(s)


def _rules(core: list[Rule] | None) -> list[dict[str, str]]:
    if not core:
        return []
    return [r.as_dict() | ({"kind": r.kind} if r.kind != "game" else {}) for r in core]


def _dedupe(items: list[dict[str, str]]) -> list[dict[str, str]]:
    seen: set[str] = set()
    out = []
    for it in items:
        if it["rule"] not in seen:
            seen.add(it["rule"])
            out.append(it)
    return out


def _replay_message(phrase: str, err: ReplayError) -> str:
    rules = "; ".join(f"{r.id}: {r.text}" for r in err.core) if err.core else "no legal way was found"
    return f"{phrase!r} cannot happen at this point of the history ({rules})"
