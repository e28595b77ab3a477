"""Answering a question about a scenario: history replay, the search each
question kind needs, and the answer with its witness and reasons."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from logic.errors import InputError, NotModelled, shorten
from logic.facts import resolution_unknown
from logic.registry import Rule
from logic.scenario import Scenario
from logic.unmodelled import parts_of, refuse
from logic.userrules import UserRules
from queries.chains.search import (
    ChainSearch,
    count_sentence,
    group_by_outcome,
    point_text,
    single_position,
)
from queries.language.ast import Event, Question, When
from queries.language.parser import Names, parse_event, parse_question
from queries.rulings import explain, judge, relevance
from queries.search import describe
from queries.search.compile import GOAL, UNTIL, Compiler, NoSuchEvent, q_scope
from queries.search.compile import phrase as event_phrase
from queries.search.engine import Engine, Position, ReplayError, SearchResult, Trace
from solver import LimitReached
from solver.limits import Limits
from solver.terms import Function, Number, Symbol


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
    bounded: list[str] = field(default_factory=list)  # unmodelled parts the answer was checked against
    # the answer in a judge's words (queries/rulings/judge.py): lines, reasons with their citations, caveats
    ruling: dict[str, Any] = field(default_factory=dict)
    # what the judge's words are made from (never in the JSON): the decisive trace, the why-not
    traces: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

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
        if self.bounded:
            out["bounded"] = self.bounded
        if self.ruling:
            out["ruling"] = self.ruling
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

    def __init__(self, sc: Scenario, time_limit: float | None = None, max_horizon: int | None = None,
                 explain: bool = True, limits: Limits | None = None, user_rules: UserRules | None = None,
                 reading: str | None = None, start: Asker | None = None) -> None:
        self.sc = sc
        self.explain = explain  # False: the verdict and a witness only (no reasons, counterfactuals, chances)
        self.reading = reading  # a reading of the unmodelled parts (queries/relevance.py), None: plain
        self.user_rules = user_rules
        self.time_limit = time_limit
        kwargs: dict[str, Any] = {"time_limit": time_limit, "limits": limits, "user_rules": user_rules,
                                  "reading": reading}
        if max_horizon:
            kwargs["max_horizon"] = max_horizon
        self.engine = Engine(sc, **kwargs)
        self.engine.probe()  # rule files, large positions: ground first in a child under limits
        self.compiler = Compiler(self.engine)
        self.names = names_of(sc)
        self.turn = self.compiler.turn
        # which points may still come: the turn's graph, plus the moves players make
        # (Yu-Gi-Oh!: an attack declaration leads from the Battle Step into its window)
        self._ahead_graph = self.turn.graph.copy()
        keys = [p.key for p in self.turn.points]
        self._ahead_graph.add_edges_from(zip(keys, keys[1:], strict=False))
        if start is None:
            self.start = self._replay_history()
        else:  # the position of another asker over the same scenario (its history already replayed)
            self.start, self.history_trace, self.premises = start.start, start.history_trace, list(start.premises)
            self._starts = list(start._starts)
        self._chance_cache: dict[Any, list[explain.Window]] = {}
        self._positions_cache: dict[When, list[Position]] = {}

    # ------------------------------------------------------------ derived cards
    def _check_derived(self) -> None:
        """A position holding a card with an unmodelled part that the two readings
        cannot bound (queries/relevance.py) is not answered (never a guess)."""
        left = relevance.unbounded(parts_of(self.sc))
        if left:
            raise refuse(left)

    def _unknown_effects(self) -> bool:
        return bool(self._unknown_names())

    def _unknown_names(self) -> list[str]:
        """The cards with an effect whose resolution is not known: read from text or
        custom without actions; under the permissive reading also those with an
        unmodelled result or cost."""
        names = {c.card.name for c in self.sc.cards
                 if c.card.origin != "library" and any(resolution_unknown(e) for e in c.card.effects)}
        if self.reading == "permissive":
            names |= {p.card for p in parts_of(self.sc) if p.readings & {"result", "cost", "static"}}
        return sorted(names)

    def _check_unknown_resolutions(self, q: Question) -> None:
        """If, within the question's scope, an effect whose resolution is not
        modelled (read from text, or a custom card without actions) could
        resolve, the answer cannot be trusted: say so instead."""
        if not self._unknown_effects():
            return
        if q.kind in ("can", "must") and self._asked_facts(q):
            found = self._unknown_before_asked(q)
        elif self._read_at_once(q):
            # the answer is read off the position the game's own procedures lead to: only
            # an unknown result among those procedures can change it
            settle = [Function("q_outcome", [GOAL, Function("resolves_unknown", [])]), q_scope("consequence")]
            found = any(self.engine.search(pos, settle, "q_reach").found for pos in self._positions_or_start(q))
        else:
            try:
                scope = self.compiler.scope_facts(q.when, q.event)
            except NotModelled:
                scope = []
            facts = [Function("q_outcome", [GOAL, Function("resolves_unknown", [])])] + scope
            found = any(self.engine.search(pos, facts, "q_reach").found for pos in self._positions_or_start(q))
        if found:
            names = self._unknown_names()
            raise NotModelled("what " + ", ".join(names) + (" does" if len(names) == 1 else " do") +
                              " on resolution is not modelled, and within the question's scope it could "
                              "resolve before the asked moment")

    def _read_at_once(self, q: Question) -> bool:
        """Whether the answer is read off the settled position itself, with no search
        of what may follow: who has priority / what is on the stack now or after an
        event, and the order in which two objects already on the stack went there."""
        if q.kind in ("who_has", "who_receives", "who_acts", "chain"):
            return q.when.kind in ("now", "after", "none")
        if q.kind == "order" and q.order_of != "resolve" and len(q.cards) == 2:
            try:
                ea, eb = self.compiler.effects(q.cards[0]), self.compiler.effects(q.cards[1])
                return self._stack_order(self._settled(self._positions_or_start(q)), ea, eb) is not None
            except (NotModelled, InputError, _Impossible):
                return False
        return False

    def _asked_facts(self, q: Question) -> list[Symbol]:
        """The asked event of a can/must question under the tag ``asked`` ([] if it cannot be stated)."""
        try:
            facts = self._goal_facts(q)
        except (NotModelled, InputError):
            return []
        out = []
        for f in facts:
            if f.name in _TAGGED and f.arguments and f.arguments[0] == GOAL:
                out.append(Function(f.name, [ASKED, *f.arguments[1:]]))
            elif f.name == "q_during":
                out.append(Function("q_asked_during", f.arguments))
            else:
                out.append(f)
        return out

    def _unknown_before_asked(self, q: Question) -> bool:
        """can/must X: only an unmodelled resolution that comes before X, with the
        question's scope still open after it, can change the answer (what follows
        X cannot, nor a resolution that ends the scope).  The game's own procedures
        that come first (the answer starts from the settled position) count too."""
        try:
            starts = self._positions(q.when)
        except _Impossible:
            starts = [self.start]
        settle = [Function("q_outcome", [GOAL, Function("resolves_unknown", [])]), q_scope("consequence")]
        for pos in starts:
            if self._settled([pos]) != [pos] and self.engine.search(pos, settle, "q_reach").found:
                return True
        facts = [Function("q_outcome", [GOAL, Function("resolves_unknown_first", [])])] + self._asked_facts(q)
        return any(self.engine.search(pos, facts, "q_reach").found for pos in self._settled(starts))

    # ------------------------------------------------------------ players leaving (CR 800.4)
    def _check_leaving(self, q: Question, positions: list[Position]) -> None:
        """Magic, a player leaving the game (conceding, losing).  With two players
        the game is over (CR 104.3a, 104.2a): who has priority then is "nobody"
        (queries/answer.py _who), any other question about play after it is not
        answered.  With three or more, play goes on without them (CR 800.4a,
        800.4j), which is not modelled: a question whose scope reaches a player
        leaving is not answered (encodings/mtg/outcomes.lp,
        mtg.leave.multiplayer_not_modelled)."""
        if self.sc.game != "mtg":
            return
        many = len(self.sc.players) >= 3
        gone = any(_left(p) for p in [self.start, *positions])
        if many and not gone and q.when.kind != "while_resolves":
            gone = any(_left(p) for p in self._settled(positions))
        if gone and not many:
            if q.kind in ("who_has", "who_receives", "who_acts"):
                return
            raise NotModelled("the game is over: a player has left a two-player game (CR 104.3a, 800.4a), "
                              "and questions about play after that are not answered")
        if not many:
            return
        if not gone:
            try:
                scope = self.compiler.scope_facts(q.when, q.event)
            except (NotModelled, InputError):
                scope = []
            facts = [Function("q_outcome", [GOAL, Function("player_leaves", [])])] + scope
            gone = any(self.engine.search(pos, facts, "q_reach").found for pos in positions)
        if gone:
            raise NotModelled(_MULTI_LEAVE + "; within the question's scope a player leaves")

    def _leaves_multiplayer(self, pos: Position) -> bool:
        return self.sc.game == "mtg" and len(self.sc.players) >= 3 and _left(pos)

    def _positions_or_start(self, q: Question) -> list[Position]:
        try:
            return self._positions(q.when)
        except _Impossible:
            return [self.start]

    # ------------------------------------------------------------ history
    def _replay_history(self) -> Position:
        """Where the position begins (docs/scenarios.md, "Where a position begins"), then its history.

        With several beginnings (a player's choice in the game's procedures:
        the order of their own triggers, a trigger's target) the history is
        replayed from each; a beginning from which it cannot happen is not the
        one the history is about.  ``self._starts`` keeps every position the
        questions start from; ``self.start`` is the only one, or, with several
        and no history, the step as it begins (the procedures come first in
        every replay from it)."""
        starts = self.engine.starts()
        self.history_trace: Trace | None = None
        self.premises: list[Trace] = []  # the traces of the history and of the question's premise
        if not self.sc.history:
            self._starts = starts
            return starts[0] if len(starts) == 1 else self.engine.initial()
        finals: list[Position] = []
        error: InputError | None = None
        for start in starts:
            try:
                pos, trace = self._replay_from(start)
            except InputError as exc:
                error = error or exc
                continue
            if pos not in finals:
                finals.append(pos)
                self.history_trace = self.history_trace or trace
        if not finals:
            assert error is not None
            raise error
        self._starts = finals
        return finals[0]

    def _replay_from(self, pos: Position) -> tuple[Position, Trace | None]:
        trace: Trace | None = None
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
                positions, trace = self.engine.replay(pos, facts, phrase)
                self.premises.append(trace)
            except ReplayError as err:
                reason = self._premise_reason(_Impossible(ev, err), pos)
                if not reason:
                    rules = "; ".join(f"{r.id}: {r.text}" for r in err.core) if err.core else "no legal way was found"
                    reason = f"({rules})"
                else:
                    reason = f"({reason})"
                raise InputError(f"{phrase!r} cannot happen at this point of the history {reason}", where) from None
            if len(positions) > 1:
                raise InputError(
                    f"{phrase!r} can happen in {len(positions)} different ways here; "
                    "say which (for example name the target, the phase entered, or what was paid: "
                    "tributing …, discarding …)", where)
            pos = positions[0]
            if i + 1 < len(self.sc.history) and self._leaves_multiplayer(pos):
                raise NotModelled(f"{where}: {_MULTI_LEAVE} ({phrase!r})")
        return pos, trace

    # ------------------------------------------------------------ entry
    def ask(self, text: str) -> Answer:
        started = time.perf_counter()
        q = parse_question(text, self.names)
        self._check_derived()
        try:
            ans = self._answer(q)
        except PointPast:
            raise  # the clock alone decides it: no card, modelled or not, changes that
        except InputError as exc:
            # the question's premise or target cannot be matched as modelled: with unmodelled parts
            # in the position that may be what is not modelled, not the question
            parts = parts_of(self.sc)
            if parts and self.reading is None:
                raise refuse(parts, f"as modelled: {exc.message}") from None
            raise
        # what is not modelled: unread text, unknown resolutions, library approximations
        # (the unknown resolutions are looked for under the permissive reading)
        relevance.check(self, q, ans)
        if self.sc.derived:
            ans.detail["card_sources"] = self.sc.sources()
            ans.notes.append("attributes of " + ", ".join(sorted(self.sc.derived)) +
                             " were derived from the official card text (not hand-checked)")
        judge.annotate(self, q, ans)
        ans.stats = dict(self.engine.stats)
        ans.stats["total_ms"] = round((time.perf_counter() - started) * 1000, 1)
        for k in ("ground_ms", "solve_ms"):
            ans.stats[k] = round(float(ans.stats[k]), 1)
        return ans

    def _positions(self, when: When) -> list[Position]:
        """The positions a question's ``<when>`` starts from.  A premise that
        cannot happen from the position raises :class:`_Impossible`."""
        key = when
        if key not in self._positions_cache:
            self._positions_cache[key] = self._positions_uncached(when)
        return self._positions_cache[key]

    def _positions_uncached(self, when: When) -> list[Position]:
        if when.kind == "while_resolves":
            return [self._while_resolving(when)]
        if when.kind == "before_event":
            assert when.event is not None
            self._check_reachable(self.start, when.event)
        if when.kind in ("during", "before_point"):
            self._check_point_ahead(when)
        if when.kind not in ("after", "in_response"):
            return list(self._starts)
        assert when.event is not None
        # from every beginning the history left (one, unless a player's choice in
        # the game's procedures at the beginning gave several)
        froms = list(self._starts) if self.sc.history else [self.start]
        out: list[Position] = []
        error: _Impossible | None = None
        for pos in froms:
            try:
                if when.kind == "in_response" and self._on_top(pos, when.event):
                    found = [pos]
                else:
                    found = self._replay(pos, when.event)
            except _Impossible as imp:
                error = error or imp
                continue
            out += [p for p in found if p not in out]
        if not out:
            assert error is not None
            raise error
        return out

    def _while_resolving(self, when: When) -> Position:
        """"while X resolves": the moment X's resolution is due (X on top of the
        chain / stack, the game resolving it) -- the position just before it."""
        assert when.card is not None
        ev = Event(kind="resolves", card=when.card, text=f"{when.card.text} resolves")
        facts = self.compiler.event_facts(GOAL, ev)
        try:
            _, trace = self.engine.replay(self.start, facts, event_phrase(ev))
        except ReplayError as err:
            raise _Impossible(ev, err) from None
        step = next((s for s in trace.steps if s.t == trace.goal_at), None)
        return step.before if step is not None else self.start

    def _check_reachable(self, pos: Position, ev: Event) -> None:
        """"before <event>": the event must be able to happen from the position
        (in some legal continuation, whatever comes first)."""
        facts = [f if f.name not in _TAGGED else Function(f.name, [GOAL, *f.arguments[1:]])
                 for f in self.compiler.event_facts(UNTIL, ev)]
        try:
            res = self.engine.search(pos, facts, "q_reach", want_core=True)
        except LimitReached:
            return  # not a proof that it cannot happen: the question is answered as asked
        if not res.found and res.complete:
            raise _Impossible(ev, ReplayError(event_phrase(ev), res.core or [], res.horizon), anything_before=True)

    def _check_point_ahead(self, when: When) -> None:
        """"during / before <point>": the point must still lie ahead in this turn
        ("before" it: not yet begun)."""
        span = self.compiler.span(when.point or "")
        at = self.start.value("at")
        if at is None or at.name not in self.turn.graph:
            return
        here = at.name
        inside = here in span.keys
        ahead = any(k != here and self._ahead_graph.has_path(here, k) for k in span.keys)
        title = f"'{when.point}'"
        if when.kind == "during" and not inside and not ahead:
            raise PointPast(f"{title} is already past: the position is at {self.turn.title(here)} "
                             f"({here}), and a question is about the rest of this turn", "question")
        if when.kind == "before_point" and inside:
            raise PointPast(f"'before {when.point}' cannot be: the position is already at "
                             f"{self.turn.title(here)}, inside {shorten(when.point or '')}", "question")
        if when.kind == "before_point" and not ahead:
            raise PointPast(f"{title} is already past: the position is at {self.turn.title(here)} ({here}), "
                             f"so 'before {when.point}' is no moment of the rest of this turn", "question")

    def _replay(self, pos: Position, ev: Event) -> list[Position]:
        facts = self.compiler.event_facts(GOAL, ev)
        try:
            positions, trace = self.engine.replay(pos, facts, event_phrase(ev))
        except ReplayError as err:
            raise _Impossible(ev, err) from None
        self.premises.append(trace)
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
            return self._answer_from(q, self._positions(q.when))
        except _Impossible as imp:
            if self._leaves_multiplayer(self.start):
                raise NotModelled(_MULTI_LEAVE + "; a player has left in the history") from None
            # a premise that cannot happen is not a verdict (docs/questions.md, "Premises")
            raise self._premise_error(imp, self.start) from None

    def _answer_from(self, q: Question, positions: list[Position]) -> Answer:
        self._check_leaving(q, positions)
        if q.kind in ("can", "must"):
            # "can/must X now / after E / in response to E": the game's pending
            # procedures (a resolution, triggers ...) come first -- nobody can act
            # before them.  Elsewhere ("before Pot of Greed resolves" with the chain
            # resolving) the search starts from the position itself.
            if q.when.kind in _SETTLED_WHEN:
                positions = self._settled(positions)
            return self._yes_no(q, positions)
        if q.kind == "does":
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
            return answer_chains(self, q, positions)
        if q.kind == "when_can":
            return self._when_can(q)
        if q.kind == "chooses":
            return self._chooses(q, positions)
        raise NotModelled(f"questions of the form '{q.text.split()[0]} …' ({q.kind.replace('_', ' ')})")

    # ------------------------------------------------------------ yes / no
    def _goal_facts(self, q: Question) -> list[Symbol]:
        if q.kind in ("can", "must"):
            assert q.event is not None
            ev = q.event
            responded = q.when.event
            if q.when.kind == "in_response" and ev.kind in ("activate", "cast") and responded is not None \
                    and responded.kind in ("activate", "chain", "cast"):
                # in response to an activation (a spell cast): the very next link above it
                ev = Event(**{**ev.__dict__, "chained": True})
            try:
                facts = self.compiler.event_facts(GOAL, ev)
            except NoSuchEvent as exc:
                raise _NeverAsked(exc.message, exc.where, reason=exc.reason) from None
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
        if o.kind == "miss_timing":
            assert o.card is not None
            insts = self.compiler.instances(o.card)
            if not any(e.kind in ("trigger", "flip") for i in insts for e in i.card.effects):
                raise InputError(f"{o.card.text} has no trigger effect that could miss the timing", "question")
            return [Function("q_outcome", [GOAL, Function("misses", [Symbol_str(i.id)])]) for i in insts]
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
        self._asked_outcome = q.outcome.kind if q.outcome is not None else ""
        ans = Answer(q.text, q.kind)
        try:
            facts = self._goal_facts(q)
        except _NeverAsked as never:
            # only the events of <when> and of the history are premises (docs/questions.md
            # "Premises"); an asked event that can never happen here is the answer No
            ans.verdict = "no"
            ans.summary = f"No: {never.message}."
            ans.because = describe.structural(self.sc, q)
            return ans
        if self._missed_in_history(q, ans):
            return ans
        st = self.engine.stepper(pos, facts)
        try:
            if q.kind == "can":
                res = self.engine.search(pos, facts, "q_reach", stepper=st)
                self._bounded(res, "a trace with the asked event")
                if res.found:
                    ans.verdict = "yes"
                    self._why_yes(ans, res.trace)
                else:
                    ans.verdict = "no"
                    self._why_not(ans, st, "q_reach")
                    self._chances(ans, q)
                    self._while_resolving_note(ans, q, pos)
            elif q.kind == "must":
                res = self.engine.search(pos, facts, "q_avoid", stepper=st)
                self._bounded(res, "a complete trace without the asked event")
                if res.found:
                    ans.verdict = "no"
                    self._why_yes(ans, res.trace)
                    ans.summary = "Some legal continuation never has it; here is one."
                else:
                    ans.verdict = "yes"
                    self._why_not(ans, st, "q_avoid", forced=True)
            else:
                reach = self.engine.search(pos, facts, "q_reach", stepper=st)
                self._bounded(reach, "a trace with the outcome")
                if reach.found:
                    avoid = self.engine.search(pos, facts, "q_avoid", stepper=st)
                    self._bounded(avoid, "a complete trace without the outcome")
                if reach.found and avoid.found:
                    ans.verdict = "depends"
                    self._why_depends(ans, st, reach.trace, avoid.trace)
                elif reach.found:
                    ans.verdict = "yes"
                    self._why_yes(ans, reach.trace)
                    self._why_not(ans, st, "q_avoid", forced=True, keep_witness=True)
                else:
                    ans.verdict = "no"
                    self._why_not(ans, st, "q_reach")
        finally:
            self.engine._absorb(st)
        if not ans.because:
            ans.because = describe.structural(self.sc, q)
        return ans

    def _while_resolving_note(self, ans: Answer, q: Question, pos: Position) -> None:
        """A "no" asked while a chain (the stack) is resolving, about a moment before
        the resolution is over: nobody may act then."""
        proc = pos.value("proc")
        if proc is None or proc.name != "resolve" or q.when.kind not in ("before_event", "while_resolves"):
            return
        if self.sc.game == "ygo":
            ans.summary = ("No: the chain is resolving, and once a chain starts to resolve no card or effect can be "
                           "activated until it has fully resolved (an effect that triggers meanwhile waits until "
                           "then); the moment asked about comes before that.")
        else:
            ans.summary = ("No: the stack is resolving, and no player receives priority while a spell or ability "
                           "resolves; the moment asked about comes before anyone receives it again.")
        rule = self.engine.rules.get("core_procedure_game_acts")
        if rule is not None and all(r.get("rule") != rule.id for r in ans.because):
            ans.because = [rule.as_dict(), *ans.because]

    def _why_depends(self, ans: Answer, st: Any, yes: Trace | None, no: Trace | None) -> None:
        if not self.explain:
            ans.witness = describe.timeline(self.sc, yes)
            ans.other_witness = describe.timeline(self.sc, no)
            return
        """Both sides, and the choices that settle each: along the trace where
        it happens, the first event after which it can no longer be avoided;
        along the other, the first after which it can no longer happen."""
        yes = self.engine.annotate(yes)
        no = self.engine.annotate(no)
        ans.traces.update(yes=yes, no=no)
        ans.witness = describe.timeline(self.sc, yes)
        ans.other_witness = describe.timeline(self.sc, no)
        choices = []
        rules: list[dict[str, str]] = []
        for trace, check, outcome in ((yes, "q_avoid", "it happens"), (no, "q_reach", "it does not happen")):
            if trace is None:
                continue
            steps = [x for x in trace.steps if trace.goal_at is None or x.t <= trace.goal_at]
            k = st.decisive(steps, check)
            if k is None:
                continue
            step = steps[k]
            c = describe.choice(self.sc, step, k)
            c["then"] = outcome
            ans.traces.setdefault("choice_steps", []).append(step)
            choices.append(c)
            rules += describe.step_permission(self.sc, step)
        ans.detail["choices"] = choices
        ans.detail["choice"] = describe.divergence(self.sc, yes, no)
        ans.because = _dedupe(rules) or describe.permission(self.sc, yes)
        if choices:
            ans.summary = "It depends on a choice: " + "; ".join(
                f"if {c['player']} {c['does']} ({c['where']}), {c['then']}" for c in choices) + "."

    def _missed_in_history(self, q: Question, ans: Answer | None = None) -> bool:
        """"does X's effect miss the timing" asked after the history in which it did: Yes."""
        if q.kind != "does" or q.outcome is None or q.outcome.kind != "miss_timing" or q.when.kind not in ("none", "now"):
            return False
        assert q.outcome.card is not None
        ids = {i.id for i in self.compiler.instances(q.outcome.card)}
        for trace in self.premises:
            for step in trace.steps:
                if ids & set(step.missed):
                    if ans is not None:
                        ans.verdict = "yes"
                        ans.summary = (f"Yes: its effect already missed the timing in the history (step {step.t}): "
                                       "its event was not the last thing to happen.")
                        r = self.engine.rules.get("ygo_trigger_missing_the_timing")
                        ans.because = [r.as_dict()] if r is not None else []
                    return True
        return False

    def _why_yes(self, ans: Answer, trace: Trace | None) -> None:
        if self.explain:
            trace = self.engine.annotate(trace)
        ans.traces["witness"] = trace
        ans.witness = describe.timeline(self.sc, trace)
        ans.because = describe.permission(self.sc, trace)
        ans.detail["steps"] = describe.step_rules(self.sc, trace)
        if not ans.summary:
            ans.summary = describe.yes_sentence(self.sc, trace)

    def _why_not(self, ans: Answer, st: Any, check: str, forced: bool = False, keep_witness: bool = False) -> None:
        if not self.explain:
            return
        wn = explain.why_not(self.engine, st, check)
        ans.traces["why_not"] = wn
        ans.traces.setdefault("position", st.position)
        ans.because = wn.because() or ans.because
        if not wn.reasons:
            # nothing but the game's own course stands in the way: say what brought it here
            ans.because = describe.state_reasons(self.sc, self.history_trace) + describe.procedure_reasons(self.sc, st.position)
            if describe.procedure_reasons(self.sc, st.position):
                ans.summary = ("Nobody may act at this moment: the window has closed and the game moves on "
                               "(the rules below say why).")
        ans.detail["reasons"] = wn.sets()
        if wn.counterfactual is not None:
            ans.detail["counterfactual"] = {
                "lifted": [self.engine.rules[a].id for a in wn.lifted if a in self.engine.rules],
                "timeline": describe.timeline(self.sc, wn.counterfactual),
            }
        if wn.failing_conditions:
            ans.detail["failing_conditions"] = [describe.condition_text(self.sc, e, c) for e, c in wn.failing_conditions]
        ans.summary = describe.no_sentence(self.sc, wn, forced)
        if not wn.reasons and self._asked_outcome == "miss_timing":
            ans.summary = ("It never misses the timing: only an optional effect worded \"When ... you can\" can; "
                           "this one is mandatory or worded \"If\".")
            r = self.engine.rules.get("ygo_trigger_missing_the_timing")
            if r is not None:
                ans.because = [r.as_dict()]
        for reason in wn.reasons:
            if reason.note:
                ans.notes.append(reason.note)
        if any(self.engine.rules[a].kind == "bound" for r in wn.reasons for a in r.rules if a in self.engine.rules):
            ans.notes.append("this answer depends on a bound of the search (see the rules marked [bound])")

    def _chances(self, ans: Answer, q: Question) -> None:
        """For a "no" about an activation: the latest chance before the asked time, and the next one after."""
        if not self.explain or q.event is None or q.event.kind not in ("activate", "chain", "cast"):
            return
        asked = self._asked_order(q)
        if asked is None:
            return
        from logic.games import turn as _turn

        tt = _turn(self.sc.game)
        # only the windows before the asked point are searched: play stops at the first point after it
        beyond = [k for k in tt.graph.nodes if k != "turn_end" and tt.order(k) > asked]
        key = (q.event, asked)
        if key not in self._chance_cache:
            try:
                self._chance_cache[key] = self._windows(self.start, q.event, beyond)
            except (NotModelled, LimitReached):
                self._chance_cache[key] = []
        before = [w for w in self._chance_cache[key] if tt.order(w.point) <= asked]
        if before:
            ans.latest_chance = before[-1].as_dict(self.sc.game)

    def _asked_order(self, q: Question) -> int | None:
        from logic.games import turn as _turn

        tt = _turn(self.sc.game)
        if q.when.kind in ("during", "before_point") and q.when.point:
            span = self.compiler.span(q.when.point)
            return min(tt.order(k) for k in span.keys) - (1 if q.when.kind == "during" else 0)
        if q.when.kind == "after" and q.when.event is not None:
            ev = q.when.event
            if ev.kind in ("ends",) and ev.point:
                return max(tt.order(k) for k in self.compiler.span(ev.point).keys)
        at = self.start.value("at")
        return tt.order(at.name) if at is not None else None

    def _windows(self, pos: Position, ev: Event, beyond: list[str] | None = None) -> list[explain.Window]:
        ev = Event(**{**ev.__dict__, "kind": "activate" if ev.kind == "chain" else ev.kind, "targets": ()})
        facts = self.compiler.event_facts(GOAL, ev)
        facts += [Function("q_beyond", [Function(k, [])]) for k in beyond or []]
        return explain.windows(self.engine, pos, facts)

    def _bounded(self, res: SearchResult, what: str) -> None:
        if not res.found and not res.complete:
            raise LimitReached("horizon", res.horizon, f"no witness within {res.horizon} steps ({what})")

    def _premise_error(self, imp: _Impossible, pos: Position) -> InputError:
        """A premise that cannot happen is not a verdict (docs/questions.md, "Premises"): say which and why."""
        said = imp.event.text or event_phrase(imp.event)
        reason = self._premise_reason(imp, pos) or self._premise_why(imp)
        return InputError(f"the premise '{said}' cannot happen from this position: {reason}", "question")

    def _premise_reason(self, imp: _Impossible, pos: Position) -> str:
        """Why a premise cannot happen, where the position says it plainly ('' if not)."""
        ev = imp.event
        if ev.paid:  # what the phrase says was paid is not where that cost takes it from
            said = self.compiler.paid_reason(ev, {str(k.arguments[0]).strip('"'): str(v) for k, v in pos.values("zone")},
                                             {str(k.arguments[0]).strip('"'): str(v).strip('"')
                                              for k, v in pos.values("ctrl")})
            if said:
                return said
        at = pos.value("at")
        here = at.name if at is not None else ""
        where = f"the position is at {self.turn.title(here)} ({here})" if here in self.turn.graph else ""
        chain = "stack" if self.sc.game == "mtg" else "chain"

        def ahead(keys: tuple[str, ...]) -> bool:
            return here in self.turn.graph and any(
                k != here and self._ahead_graph.has_path(here, k) for k in keys)

        if ev.kind in ("declare_end", "enter", "begins", "ends") and ev.point:
            span = self.compiler.span(ev.point)
            inside = here in span.keys
            if ev.kind in ("enter", "begins") and inside:
                return f"{where}: {ev.point} has already begun"
            if not inside and not ahead(span.keys):
                return f"{ev.point} is already past ({where})"
            if not imp.anything_before and not imp.err.core:
                return (f"{ev.point} is reached from here only after a player acts (for example an attack "
                        "declaration), not with passes alone; put that action in the history, or ask "
                        f"'can … during {ev.point}', which searches every continuation")
        if ev.kind == "draw":
            draw = tuple(self.turn.spans.get("draw", ("draw",)))
            if here not in draw and not ahead(draw):
                step = "draw step" if self.sc.game == "mtg" else "Draw Phase"
                extra = f", and no card here makes {ev.player} draw" if self.sc.game == "mtg" else ""
                return f"the {step} is already past ({where}){extra}"
        if ev.kind == "resolves" and ev.card is not None:
            insts = {i.id for i in self.compiler.instances(ev.card)}
            on = [f for f in pos.has("link") if f.arguments[1].arguments and
                  f.arguments[1].arguments[0].type.name == "String" and f.arguments[1].arguments[0].string in insts]
            if not on:
                verb = "casts or activates" if self.sc.game == "mtg" else "activates"
                return (f"{ev.card.text} is not on the {chain} (nothing has put it there); to ask about its "
                        f"resolution, put its activation in the history or ask 'after <player> {verb} "
                        f"{ev.card.text}'")
        if ev.kind == "chain_resolves":
            n = pos.value("chain_len")
            if n is None or n.number == 0:
                return f"the {chain} is empty"
        return ""

    def _premise_why(self, imp: _Impossible) -> str:
        """The generic reason: what could not be found, and the rules that forbid it."""
        rules = "; ".join(f"{r.id}: {r.text}" for r in imp.err.core) if imp.err.core else ""
        if imp.anything_before:
            why = "no legal continuation of this turn has it"
        else:
            why = "it cannot come next here, with only passes and the game's own procedures before it"
        return why + (f" ({rules})" if rules else "")

    # ------------------------------------------------------------ other kinds
    def _who(self, q: Question, positions: list[Position]) -> Answer:
        if q.when.kind in ("during", "before_point"):
            positions = self._enter(positions, q.when.point or "")
        if q.when.kind != "while_resolves":  # while something resolves nobody has priority
            positions = self._seen(q, self._settled(positions))
        answers = []
        for pos in positions:
            pr = pos.value("priority")
            who = pr.string if pr is not None and pr.type.name == "String" else "nobody"
            if self.sc.game == "mtg" and _left(pos):  # the game is over (CR 104.3a; _check_leaving)
                who = "nobody"
            answers.append((who, pos))
        ans = Answer(q.text, q.kind)
        values = sorted({a for a, _ in answers})
        ans.answer = values[0] if len(values) == 1 else values
        pos = answers[0][1]
        box = pos.value("box")
        if self.sc.game == "ygo" and box is not None and box.name not in ("none",) and ans.answer != "nobody":
            ans.detail["box"] = box.name.upper() if box.name != "e0" else "E (turn player's last chance)"
        ans.detail["point"] = describe.point_name(self.sc, pos)
        ans.traces["position"] = pos
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

    def _settled(self, positions: list[Position]) -> list[Position]:
        """The positions once the game's pending procedures are done (who has
        priority / what is on the stack "now" is what a player then sees)."""
        out: list[Position] = []
        for pos in positions:
            for p in self.engine.settle(pos):
                if p not in out:
                    out.append(p)
        return out

    def _seen(self, q: Question, positions: list[Position]) -> list[Position]:
        """Magic: where an event ("after Bob passes") ends the step, what a player
        next sees is the next step as it begins: after its turn-based action and
        with its "at the beginning of" triggered abilities on the stack, the
        active player about to receive priority (CR 500.2, 117.3a, 513.1, 603.3;
        docs/scenarios.md "Where a position begins" -- the same moment a position at that step means).
        Positions where the game is not moving on are kept as they are; so are
        questions asked "during"/"before" a point (already at that point)."""
        if self.sc.game != "mtg" or q.when.kind not in ("now", "after", "none"):
            return positions
        advances = [e for e in self.engine.events() if e.name == "advance"]
        out: list[Position] = []
        for pos in positions:
            proc = pos.value("proc")
            at = pos.value("at")
            # in the untap and cleanup steps nobody receives priority (CR 502.4, 514.3): the
            # step itself is what a player sees ("who receives priority during the untap step")
            if proc is None or proc.type.name != "Function" or proc.name != "advance" or pos.has("lost") \
                    or (at is not None and at.type.name == "Function" and at.name in _QUIET_STEPS):
                out.append(pos)
                continue
            try:
                entered, _ = self.engine.replay(pos, [Function("q_match", [GOAL, e]) for e in advances],
                                                "the next step")
            except ReplayError:  # the turn is over (the next turn is not modelled)
                out.append(pos)
                continue
            for p in self._settled(entered):
                if p not in out:
                    out.append(p)
        return out

    def _stack_order(self, positions: list[Position], ea: list[Symbol], eb: list[Symbol]) -> list[bool] | None:
        """If both effects are already on the chain/stack in every position, whether
        the first is below the second in each; otherwise None."""
        out = []
        for pos in positions:
            n_a = [f.arguments[0].number for f in pos.has("link") if f.arguments[1] in ea]
            n_b = [f.arguments[0].number for f in pos.has("link") if f.arguments[1] in eb]
            if not n_a or not n_b:
                return None
            out.append(min(n_a) < min(n_b))
        return out

    def _chain(self, q: Question, positions: list[Position]) -> Answer:
        if q.when.kind in ("during", "before_point"):
            positions = self._enter(positions, q.when.point or "")
        if q.when.kind != "while_resolves":
            positions = self._seen(q, self._settled(positions))
        ans = Answer(q.text, q.kind)
        chains = [describe.chain_list(self.sc, p) for p in positions]
        ans.answer = chains[0] if all(c == chains[0] for c in chains) else chains
        ans.detail["links"] = describe.chain_detail(self.sc, positions[0])
        ans.traces["position"] = positions[0]
        ans.because = describe.chain_reason(self.sc, positions)
        return ans

    def _order(self, q: Question, positions: list[Position]) -> Answer:
        """In what order two effects go on the chain / stack (first link first), or
        resolve (the last link, the top of the stack, first)."""
        ans = self._chain_order(q, positions)
        if q.order_of == "resolve" and ans.answer:
            if isinstance(ans.answer[0], list):
                ans.answer = [list(reversed(o)) for o in ans.answer]
            else:
                ans.answer = list(reversed(ans.answer))
            ans.detail["order"] = "resolution: the last link (the top of the stack) first"
            rule = self.engine.rules.get("core_chain_last_first")
            if rule is not None and all(r.get("rule") != rule.id for r in ans.because):
                ans.because = [rule.as_dict(), *ans.because]
            if ans.answer and not isinstance(ans.answer[0], list):
                where = "stack" if self.sc.game == "mtg" else "chain"
                ans.summary = (f"{ans.answer[0]} resolves first, then {ans.answer[1]}: "
                               f"{ans.answer[1]} went on the {where} first (last in, first out).")
        else:
            ans.detail["order"] = "chain: the first link (the bottom of the stack) first"
        return ans

    def _chain_order(self, q: Question, positions: list[Position]) -> Answer:
        a, b = q.cards
        ea, eb = self.compiler.effects(a), self.compiler.effects(b)
        labels = [describe.ref_label(self.sc, a), describe.ref_label(self.sc, b)]
        already = self._stack_order(self._settled(positions), ea, eb)
        if already is not None:
            ans = Answer(q.text, q.kind)
            orders = sorted({tuple(labels if below else labels[::-1]) for below in already})
            ans.answer = list(orders[0]) if len(orders) == 1 else [list(o) for o in orders]
            if len(orders) > 1:
                ans.notes.append("either order is possible")
            ans.because = describe.chain_reason(self.sc, self._settled(positions))
            return ans
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
        if found:
            ans.traces["witness"] = found[0][1]
        if len(found) == 1:
            ans.answer = found[0][0]
            ans.witness = describe.timeline(self.sc, found[0][1])
            ans.because = _rules(cores) or describe.permission(self.sc, self.engine.annotate(found[0][1]))
        elif len(found) == 2:
            ans.answer = [f[0] for f in found]
            ans.notes.append("either order is possible")
            ans.witness = describe.timeline(self.sc, found[0][1])
            ans.other_witness = describe.timeline(self.sc, found[1][1])
            ans.because = describe.permission(self.sc, self.engine.annotate(found[0][1]))
        else:
            ans.answer = None
            ans.notes.append("they never go on the same chain from this position")
            facts = [Function("q_outcome", [GOAL, Function("below", [x, y])]) for x in ea for y in eb] + scope
            ans.because = _rules(self.engine.search(positions[0], facts, "q_reach", want_core=True).core)
        return ans

    def _chooses(self, q: Question, positions: list[Position]) -> Answer:
        """Who chooses the order of two simultaneous effects: a player orders their
        own (SEGOC, APNAP); between players the order is fixed by the rules."""
        ans = Answer(q.text, q.kind)
        a, b = q.cards
        ea, eb = self.compiler.effects(a), self.compiler.effects(b)
        settled = self._settled(positions)
        if self.sc.game == "mtg" and self._stack_order(settled, ea, eb) is not None:
            # both already on the stack (triggered abilities of the step's beginning,
            # or put there in the history): whoever controls them both ordered them
            owners = {f.arguments[2].string for pos in settled for f in pos.has("link")
                      if f.arguments[1] in ea or f.arguments[1] in eb}
            rule = self.engine.rules.get("mtg_triggers_apnap")
            ans.because = [rule.as_dict()] if rule else describe.structural(self.sc, q)
            if len(owners) == 1:
                ans.answer = owners.pop()
                ans.summary = (f"Both are {ans.answer}'s, so {ans.answer} puts them on the stack in the order "
                               "they choose.")
            else:
                ans.answer = "nobody"
                ans.summary = ("They belong to different players: APNAP order fixes which goes on the stack "
                               "first, each player ordering only their own.")
            return ans
        found = None
        for first, second in ((ea, eb), (eb, ea)):
            facts = [Function("q_outcome", [GOAL, Function("below", [x, y])]) for x in first for y in second]
            res = self.engine.search(positions[0], facts, "q_reach")
            self._bounded(res, "a chain with both effects")
            if res.found:
                found = res.trace
                break
        if found is None:
            return self._chooses_separate_chains(q, positions, ans)
        step = describe._goal_step(found)
        assert step is not None
        links = describe.chain_links(step.after)
        who = {p for _, eff, p, _ in links[-2:]}
        ans.witness = describe.timeline(self.sc, found)
        reg = self.engine.rules
        rule = reg.get("ygo_segoc_order") or reg.get("mtg_triggers_apnap")
        segoc = step.before.value("segoc")
        simultaneous = self.sc.game != "ygo" or (segoc is not None and segoc.name != "none")
        if not simultaneous:
            ans.answer = "nobody"
            ans.summary = ("They are not simultaneous: each is activated when its player chooses to, the later one "
                           "in response to the earlier.")
            ans.because = describe.permission(self.sc, self.engine.annotate(found))
        elif len(who) == 1:
            ans.answer = who.pop()
            ans.summary = f"Both are {ans.answer}'s, so {ans.answer} puts them on the chain in the order they choose."
        else:
            ans.answer = "nobody"
            ans.summary = ("They belong to different players: the rules fix their order (the turn player's first), "
                           "each player ordering only their own.")
        ans.because = [rule.as_dict()] if rule else describe.structural(self.sc, q)
        return ans

    def _activatable(self, pos: Position, effs: list[Symbol]) -> Trace | None:
        """A trace from ``pos`` (this turn) in which one of ``effs`` is activated."""
        evs = [e for e in self.engine.events() if e.name == "activate" and e.arguments[1] in effs]
        if not evs:
            return None
        res = self.engine.search(pos, [Function("q_match", [GOAL, e]) for e in evs], "q_reach")
        self._bounded(res, "an activation of the effect")
        return res.trace if res.found else None

    def _chooses_separate_chains(self, q: Question, positions: list[Position], ans: Answer) -> Answer:
        """Two effects that never go on one chain.  If both are still activated, each
        starts its own chain and the order is whoever activates first: for "during
        your X Phase" effects of the turn player, the turn player (the phase-effect guides, YP "End Phase").
        Other cases of separate chains are not modelled (refused, not guessed)."""
        a, b = q.cards
        both = []
        for ref in (a, b):
            phase_effs = [Function("eff", [Symbol_str(i.id), Number(e.index)])
                          for i in self.compiler.instances(ref) for e in i.card.effects if e.kind == "phase"]
            trace = self._activatable(positions[0], phase_effs) if phase_effs else None
            if trace is None:
                trace = self._activatable(positions[0], self.compiler.effects(ref))
                if trace is not None:
                    raise NotModelled("who orders effects that are activated in separate chains (not both "
                                      "'during your X Phase' effects)")
                ans.answer = "nobody"
                ans.summary = ("They never go on the same chain from this position, and not both are activated, "
                               "so nobody orders them.")
                ans.because = describe.structural(self.sc, q)
                return ans
            both.append(trace)
        ctrl = {i.controller for ref in (a, b) for i in self.compiler.instances(ref)}
        tp = self.sc.turn_player
        if ctrl != {tp}:
            raise NotModelled("who orders 'during the X Phase' effects of different players")
        ans.answer = tp
        ans.summary = (f"Each is activated as Chain Link 1 of its own chain at a time {tp} chooses, so {tp} "
                       "decides which is activated first.")
        ans.witness = describe.timeline(self.sc, both[0])
        rule = self.engine.rules.get("ygo_phase_effect_controller_orders")
        ans.because = [rule.as_dict()] if rule else describe.structural(self.sc, q)
        return ans

    def _when_can(self, q: Question) -> Answer:
        ans = Answer(q.text, q.kind)
        ev = Event(kind="activate", player=q.player, card=q.cards[0], text=q.text)
        wins = self._windows(self.start, ev)
        ans.answer = [w.as_dict(self.sc.game) for w in wins]
        if wins:
            ans.detail["earliest"] = wins[0].as_dict(self.sc.game)
            ans.latest_chance = wins[-1].as_dict(self.sc.game)
            ans.summary = (f"{q.player} can activate it in {len(wins)} window(s) this turn, the earliest at "
                           f"{describe.window_text(ans.detail['earliest'])} and the latest at "
                           f"{describe.window_text(ans.latest_chance)}.")
        else:
            ans.summary = f"{q.player} cannot activate it at any point of this turn from this position."
            facts = self.compiler.event_facts(GOAL, ev)
            st = self.engine.stepper(self.start, facts)
            try:
                res = self.engine.search(self.start, facts, "q_reach", stepper=st)
                if not res.found and res.complete:
                    self._why_not(ans, st, "q_reach")
            finally:
                self.engine._absorb(st)
        if not ans.because:
            ans.because = describe.window_reasons(self.sc)
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
                key = step.event.arguments[0].name
                if key == "turn_end":
                    # the turn is over: the next turn begins with its first point
                    # (CR 500.1, 502; Yu-Gi-Oh! its Draw Phase); turn_end is no point
                    key = self.turn.points[0].key
                    note = (f"the turn ends here; {describe.key_name(self.sc, key)} is the first point of the next "
                            "turn, which is not otherwise modelled (effects that skip or add its steps or "
                            "phases are not considered)")
                    if note not in ans.notes:
                        ans.notes.append(note)
                    ans.detail["next_turn"] = True
                nexts.append(describe.key_name(self.sc, key))
                ans.traces["next_key"] = key
                ans.witness = describe.timeline(self.sc, res.trace)
        ans.answer = nexts[0] if nexts else None
        ans.because = describe.structural(self.sc, q)
        return ans


_MULTI_LEAVE = ("a player leaving a game of three or more players (conceding or losing) is not modelled: "
                "their objects leaving, priority skipping them and a turn without an active player "
                "(CR 800.4a, 800.4j, 104.3a)")


def _left(pos: Position) -> bool:
    """A player has left the game (Magic: lost, conceded) at this position."""
    return bool(pos.has("lost"))


class _NeverAsked(NoSuchEvent):
    """The asked event of a can/must question matches no event of the position."""


class PointPast(InputError):
    """A ``during`` / ``before <point>`` whose point is already past: bad input
    whatever the cards in the position are."""


class _Impossible(Exception):
    """A premise of the question (an event of its ``<when>``) cannot happen from the position."""

    def __init__(self, event: Event, err: ReplayError, anything_before: bool = False) -> None:
        super().__init__(event.text)
        self.event = event
        self.err = err
        self.anything_before = anything_before  # "before <event>": whatever comes first


# the <when> forms that start once the game's pending procedures are done
_QUIET_STEPS = ("untap", "cleanup", "turn_end")
_SETTLED_WHEN = ("now", "after", "in_response", "none")

# facts whose first argument is the tag goal / until / asked (encodings/core/query.lp)
_TAGGED = ("q_match", "q_match_chained", "q_outcome", "q_point")
ASKED = Function("asked", [])


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


# ---------------------------------------------------------------- chains
def answer_chains(asker: Any, q: Any, positions: Sequence[Position]) -> Any:
    """The answer to "how many legal chains are there <when>" (an integer) or
    "list every legal chain <when>" (a list of chains, each a list of cards,
    first link first)."""
    if q.when.kind not in ("none", "now", "after", "in_response"):
        raise NotModelled(f"chains asked '{q.when.kind.replace('_', ' ')} …' (ask 'now', 'after <event>' "
                          "or 'in response to …': the chains from one position)")
    what = q.when.event.text if q.when.event is not None else "the position"
    if q.when.event is None and len(positions) > 1:
        raise NotModelled("the chains of a position that begins in several ways (a player's choice in the game's "
                          "procedures at its beginning, such as the order of their triggered abilities)")
    pos = single_position(positions, repr(what))
    search = ChainSearch(asker.engine, pos)
    ans = Answer(q.text, q.kind)
    reg = asker.engine.rules
    ans.because = [reg[a].as_dict() for a in ("ygo_fet_box_d", "ygo_speed_response", "ygo_segoc_order")
                   if a in reg]
    if q.kind == "count":
        res = search.count()
        ans.answer = res.count
        ans.summary = count_sentence(res.count, res.empty)
        ans.detail["empty_chain"] = res.empty
        if res.horizon:  # counted by traces
            ans.detail["horizon"] = res.horizon
        else:  # counted by states (queries/chainstates.py)
            ans.detail["states"] = res.stats.get("states")
        return ans
    chains = list(search.chains())
    ans.answer = [c.labels for c in chains]
    groups = group_by_outcome(chains)
    ans.detail["groups"] = [{"outcome": list(o), "chains": [c.as_json() for c in cs]} for o, cs in groups]
    ans.summary = count_sentence(len(chains), any(not c.links for c in chains)) + \
        f", in {len(groups)} outcome group(s)"
    return ans


def chain_search_for(sc: Scenario, *, after: str | None, max_links: int | None, distinct_copies: bool,
                     time_limit: float | None) -> tuple[ChainSearch, str]:
    """The search of every legal chain from a fully modelled position (``chainjudge
    chains``, ``queries.api.chains``), and the position in words."""
    parts = parts_of(sc)
    if parts:
        # every chain is listed, with its outcome: no reading of an unmodelled part is checked here
        raise refuse(parts, "'chainjudge chains' lists chains only from positions that are fully modelled; "
                            "ask 'how many legal chains are there' to have the parts checked")
    asker = Asker(sc, time_limit=time_limit)
    pos = position_for(asker, after)
    search = ChainSearch(asker.engine, pos, max_links=max_links, distinct_copies=distinct_copies)
    return search, point_text(sc, pos)


def position_for(asker: Any, after: str | None) -> Position:
    """The scenario's position (after its history), or after the event ``after``
    (``chainjudge chains --after``)."""
    if after is None:
        return single_position(list(asker._starts), "the beginning of the position")
    ev = parse_event(after, asker.names)
    try:
        positions = asker._positions(When("after", event=ev))
    except _Impossible as exc:  # the event cannot happen here
        rules = "; ".join(f"{r.id}: {r.text}" for r in exc.err.core) or "no legal way was found"
        raise InputError(f"{after!r} cannot happen from this position ({rules})", "--after") from None
    return single_position(positions, repr(after))
