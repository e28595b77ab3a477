"""Refuse by relevance: whether an unmodelled part of a card can change an answer.

The question is solved under the two readings of every unmodelled part
(encodings/core/unmodelled.lp): the most permissive (the effect may be used
whenever its known parts allow, and may do anything) and the most restrictive
(it is never used; what it does is only what is modelled).  The legal
continuations of the real card lie between the two: every continuation of the
restrictive reading is one of the card's, and every one of the card's is one
of the permissive reading's.  Each answer kind is monotone in that set (a
witness exists, every continuation has the event, the list or count of
chains, the windows), so an answer that is the same under both readings is
the card's answer whatever the part says; otherwise the answer is "not
modelled", naming the card, the effect and the words (docs/not-modelled.md).

Which parts the readings bound is decided per aspect (logic/unmodelled.py);
the others keep the conservative refusal.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from logic.errors import InputError, NotModelled
from logic.unmodelled import Part, listing, parts_of, refuse

if TYPE_CHECKING:
    from queries.language.ast import Question
    from queries.rulings.answer import Answer, Asker
    from queries.search.engine import Position
    from solver.terms import Symbol

READING_RULES = ("unmodelled.permissive", "unmodelled.restrictive")


def unbounded(parts: list[Part]) -> list[Part]:
    return [p for p in parts if not p.bound]


def check(asker: Asker, q: Question, plain: Answer) -> None:
    """Raise NotModelled if an unmodelled part of the position can change
    ``plain`` (the answer with the parts left out); else record the parts the
    answer was checked against (``plain.bounded``)."""
    parts = parts_of(asker.sc)
    if not parts:
        return
    left = unbounded(parts)
    if left:
        raise refuse(left)
    answers: dict[str, Any] = {}
    mine = _key(plain)
    need = _needed(asker, parts)
    for reading in ("permissive", "restrictive"):
        if reading not in need and reading + "_check" not in need:
            answers[reading] = mine  # the reading's program differs from the plain one in nothing that is read
            continue
        try:
            other = _asker(asker, reading, reuse=reading not in need)
            ans = other._answer(q) if reading in need else plain
            if reading == "permissive":
                # an unknown result (a resolution, a cost paid) before the asked moment ...
                other._check_unknown_resolutions(q)
                # ... or on the way to the position asked about (the history, the question's premise)
                _check_premises(other)
        except NotModelled as exc:
            raise refuse(parts, exc.message) from None
        except InputError as exc:
            raise refuse(parts, f"under the most {reading} reading of these parts the question's premise "
                                f"does not hold as stated: {exc.message}") from None
        answers[reading] = _key(ans)
    if not (answers["permissive"] == answers["restrictive"] == mine):
        raise refuse(parts, "the answer differs between the most permissive and the most restrictive reading "
                            "of these parts")
    if _one_sided(asker, parts) and not _implied_by_permissive(q, plain):
        raise refuse(parts, "a mandatory effect's unmodelled condition: only a 'no' to 'can', a 'yes' to "
                            "'must' or a 'yes'/'no' to 'does' holds whatever it says")
    plain.bounded = [p.label() for p in parts]
    plain.notes.append(
        "checked against what is not modelled: " + listing(parts) +
        f" -- the answer is the same under the most permissive ({READING_RULES[0]}) and the most "
        f"restrictive ({READING_RULES[1]}) reading of each")


def _needed(asker: Asker, parts: list[Part]) -> set[str]:
    """Which solves a reading needs: "permissive" / "restrictive" (the question
    solved under it), "permissive_check" (only the unknown results looked for).
    A reading whose program differs from the plain one only in atoms nothing in
    this position reads gives the plain answer: it is not solved again."""
    kinds = set().union(*(p.readings for p in parts))
    need: set[str] = set()
    if "use" in kinds:
        need |= {"permissive", "restrictive"}
    cards = [i.card for i in asker.sc.cards]
    # ygo/unmodelled.lp: a link with an unknown result includes every kind a condition reads ...
    if "result" in kinds and any(k in ("special_summons", "destroys", "touches_deck")
                                 for c in cards for e in c.effects for _, k in e.responds_to):
        need.add("permissive")
    # ... and unmodelled effect damage is taken by every player
    if "damage" in kinds and any("takes_damage" in e.triggers for c in cards for e in c.effects):
        need.add("permissive")
    if kinds & {"result", "cost", "static"} or asker._unknown_effects():
        need.add("permissive_check")
    return need


def _asker(asker: Asker, reading: str, reuse: bool = False) -> Asker:
    """An asker of the same scenario under a reading; ``reuse``: from the plain
    asker's position (its history replayed: the reading changes nothing the
    replay reads)."""
    eng = asker.engine
    other = type(asker)(asker.sc, max_horizon=eng.max_horizon, explain=False, limits=eng.limits,
                   user_rules=asker.user_rules, reading=reading, start=asker if reuse else None)
    # one deadline for the whole answer
    other.engine.deadline = eng.deadline
    other.engine.time_limit = eng.time_limit
    return other


def _check_premises(asker: Asker) -> None:
    """The history and the question's premise reach the asked position through no
    unknown result (permissive reading): else the position itself is not known."""
    unknown_res = {f.arguments[0] for f in asker.engine.static
                   if (f.name == "unmodelled_result" and len(f.arguments) == 1)
                   or (f.name == "action" and len(f.arguments) == 2 and str(f.arguments[1]) == "unknown")}
    unknown_act = {f.arguments[0] for f in asker.engine.static
                   if f.name in ("unmodelled_cost",) and len(f.arguments) == 1}
    static = {f.arguments[0] for f in asker.engine.static if f.name == "unmodelled_static" and len(f.arguments) == 1}
    static_cards = {f.arguments[1] for f in asker.engine.static
                    if f.name == "effect_card" and len(f.arguments) == 2 and f.arguments[0] in static}
    for trace in asker.premises:
        for step in trace.steps:
            if static_cards and _functions(step.before, static_cards):
                raise NotModelled("the position asked about is reached while a continuous effect that is not "
                                  "fully modelled applies")
            ev = step.event
            if ev.name == "activate" and len(ev.arguments) == 3 and ev.arguments[1] in unknown_act:
                raise NotModelled("the position asked about is reached through an unmodelled cost or target")
            for r in step.resolved:
                if r.arguments[0] in unknown_res and str(r.arguments[2]) == "applied":
                    raise NotModelled("the position asked about is reached through a resolution that is not "
                                      "modelled")


FIELD_ZONES = ("monster", "spell_trap", "field", "battlefield")
FACE_UP = ("face_up_attack", "face_up_defense", "face_up", "tapped", "untapped")


def _functions(pos: Position, cards: set[Symbol]) -> bool:
    """Whether one of the cards is face-up on the field (battlefield) in a state."""
    zones = {k.arguments[0]: str(v) for k, v in pos.values("zone") if k.arguments}
    places = {k.arguments[0]: str(v) for k, v in pos.values("pos") if k.arguments}
    return any(zones.get(c) in FIELD_ZONES and places.get(c) in FACE_UP for c in cards)


def _key(ans: Answer) -> str:
    return json.dumps([ans.verdict, ans.answer], sort_keys=True, default=str)


def _one_sided(asker: Asker, parts: list[Part]) -> bool:
    """Whether a bounded part limits the use of a mandatory effect: the
    restrictive reading (never activated) is then not one of the card's
    continuations, and only the permissive reading (a superset) decides."""
    names = {(p.card, p.effect) for p in parts if "use" in p.readings}
    for inst in asker.sc.cards:
        for e in inst.card.effects:
            if (inst.card.name, e.index) in names and e.mandatory:
                return True
    return False


def _implied_by_permissive(q: Question, ans: Answer) -> bool:
    if q.kind == "can":
        return ans.verdict == "no"
    if q.kind == "must":
        return ans.verdict == "yes"
    if q.kind == "does":
        return ans.verdict in ("yes", "no")
    return False
