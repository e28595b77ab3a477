"""Generated positions of the fragment (``fragment.py``): as ``Spec`` for the
reference enumerator, and as a scenario plus position for the engine.

Each card has one effect.  Templates (kind, card type, speed, where it is
activated from): monster Quick Effects (on the field or from the hand),
Ignition effects, Quick-Play, Normal and Counter Traps / Spells, and trigger
effects waiting to go on a chain (SEGOC).  Cards may sit where their effect
cannot be used, Traps may have been Set this turn, and effects carry turn,
phase and "responds to" conditions -- so that only some of them can be
activated.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from hypothesis import strategies as st

from tests.reference.enumerator import Eff, Spec
from tests.reference.fragment import CONDITIONS, POINTS, RESPONDS_TO, RESPONDS_WHO

# template: (card_type, prop, kind, speed, zones the card may be in, act_from)
TEMPLATES: dict[str, tuple[str, str | None, str, int, tuple[str, ...], tuple[str, ...]]] = {
    "monster_quick": ("monster", None, "quick", 2, ("monster", "monster", "hand"), ("monster",)),
    "hand_quick": ("monster", None, "quick", 2, ("hand", "hand", "monster"), ("hand",)),
    "ignition": ("monster", None, "ignition", 1, ("monster", "monster", "hand"), ("monster",)),
    "quickplay": ("spell", "quickplay", "card", 2, ("hand", "set"), ("hand", "set")),
    "normal_spell": ("spell", "normal", "card", 1, ("hand", "set"), ("hand", "set")),
    "normal_trap": ("trap", "normal", "card", 2, ("set", "set", "hand"), ("set",)),
    "counter_trap": ("trap", "counter", "card", 3, ("set", "set", "hand"), ("set",)),
    "trigger": ("monster", None, "trigger", 1, ("monster",), ("monster",)),
}
WEIGHTS = {"monster_quick": 3, "hand_quick": 2, "ignition": 2, "quickplay": 2, "normal_spell": 1,
           "normal_trap": 3, "counter_trap": 2, "trigger": 2}


def _effect(rng: random.Random, i: int, players: tuple[str, str], point: str) -> Eff:
    names = list(WEIGHTS)
    tmpl = rng.choices(names, weights=[WEIGHTS[n] for n in names])[0]
    card_type, prop, kind, speed, zones, act_from = TEMPLATES[tmpl]
    zone = rng.choice(zones)
    controller = rng.choice(players)
    conditions: list[str] = []
    responds: list[tuple[str, str]] = []
    mandatory = False
    pending = False
    set_this_turn = False
    if kind == "trigger":
        pending = point != "draw" and rng.random() < 0.7
        mandatory = rng.random() < 0.4
    else:
        r = rng.random()
        if r < 0.35:
            conditions.append(rng.choice(CONDITIONS))
        if rng.random() < 0.15:
            conditions.append(rng.choice(CONDITIONS))
        if rng.random() < 0.4:
            responds.append((rng.choice(RESPONDS_WHO), rng.choice(RESPONDS_TO)))
        if zone == "set" and (card_type == "trap" or prop == "quickplay"):
            set_this_turn = rng.random() < 0.2
    return Eff(f"c{i + 1}", controller, card_type, prop, kind, speed, zone, act_from,
               tuple(sorted(set(conditions))), tuple(responds), set_this_turn, mandatory, pending)


def random_spec(rng: random.Random, n_effects: int, copies: bool = True) -> Spec:
    players = ("A", "B")
    point = rng.choice(POINTS)
    tp = rng.choice(players)
    effs: list[Eff] = []
    while len(effs) < n_effects:
        if copies and effs and rng.random() < 0.12:
            src = rng.choice(effs)  # an identical copy
            e = Eff(f"c{len(effs) + 1}", *_fields(src)[1:])
        else:
            e = _effect(rng, len(effs), players, point)
        if e.zone != "hand" and sum(1 for x in effs if x.controller == e.controller and x.zone == e.zone) >= 5:
            if e.pending:
                continue  # the zone is full (5 cards): draw another
            e = Eff(e.id, *_fields(e)[1:6], "hand", *_fields(e)[7:10], False, e.mandatory, False)
        effs.append(e)
    return Spec(tp, point, tuple(effs), players)


# Dense positions: every effect a spell speed 2 effect that can be activated
# now, so that almost every order of them is a chain (the counts grow about
# factorially with N).  Ten kinds of card (five templates, two players), then
# the same ten with a condition that holds in the Main Phase (so that no two
# cards are identical copies).
_DENSE = (("monster", None, "quick", "monster", ("monster",)), ("monster", None, "quick", "hand", ("hand",)),
          ("trap", "normal", "card", "set", ("set",)), ("spell", "quickplay", "card", "hand", ("hand", "set")),
          ("spell", "quickplay", "card", "set", ("hand", "set")))


def dense_spec(n_effects: int) -> Spec:
    """A Main Phase 1 position with ``n_effects`` (at most 20) spell speed 2 effects."""
    effs: list[Eff] = []
    for cond in ((), ("phase(main)",)):
        for card_type, prop, kind, zone, act_from in _DENSE:
            for player in ("A", "B"):
                effs.append(Eff(f"c{len(effs) + 1}", player, card_type, prop, kind, 2, zone, act_from, cond))
    if not 1 <= n_effects <= len(effs):
        raise ValueError(f"dense positions have 1 to {len(effs)} effects")
    return Spec("A", "main1", tuple(effs[:n_effects]), ("A", "B"))


def _fields(e: Eff) -> tuple[Any, ...]:
    return (e.id, e.controller, e.card_type, e.prop, e.kind, e.speed, e.zone, e.act_from, e.conditions,
            e.responds, e.set_this_turn, e.mandatory, e.pending)


@st.composite
def specs(draw: st.DrawFn, min_effects: int = 2, max_effects: int = 12) -> Spec:
    """Hypothesis: a position with 2-12 effects (drawn through a seeded Random
    so that shrinking stays meaningful on the number of effects and the seed)."""
    n = draw(st.integers(min_effects, max_effects))
    seed = draw(st.integers(0, 2**32 - 1))
    return random_spec(random.Random(seed), n)


# ---------------------------------------------------------------- to the engine


def card_name(e: Eff) -> str:
    key = repr((e.card_type, e.prop, e.kind, e.speed, e.act_from, e.conditions, e.responds, e.mandatory))
    return "Gen " + hashlib.sha256(key.encode()).hexdigest()[:8]


def _card_def(e: Eff) -> dict[str, Any]:
    eff: dict[str, Any] = {"kind": e.kind, "from": list(e.act_from), "actions": ["no_action"],
                           "summary": "generated"}
    if e.kind != "card":
        eff["speed"] = e.speed
    if e.conditions:
        eff["conditions"] = list(e.conditions)
    if e.responds:
        eff["responds_to"] = [{"who": w, "to": t} for w, t in e.responds]
    if e.kind == "trigger":
        eff["trigger"] = ["summoned"]
        eff["timing"] = "if"
        eff["mandatory"] = e.mandatory
    d: dict[str, Any] = {"name": card_name(e), "card_type": e.card_type, "text": "generated", "effects": [eff]}
    if e.card_type == "monster":
        d.update({"atk": 1000, "def": 1000, "level": 4, "kinds": ["effect"]})
    else:
        d["property"] = e.prop
    return d


def scenario_data(spec: Spec) -> dict[str, Any]:
    customs: dict[str, dict[str, Any]] = {}
    cards = []
    for e in spec.effects:
        customs.setdefault(card_name(e), _card_def(e))
        card: dict[str, Any] = {"card": card_name(e), "controller": e.controller, "id": e.id}
        if e.zone == "monster":
            card.update({"zone": "monster", "position": "face_up_attack"})
        elif e.zone == "set":
            card.update({"zone": "spell_trap", "position": "face_down"})
            if e.set_this_turn:
                card["set_this_turn"] = True
        else:
            card["zone"] = "hand"
        cards.append(card)
    return {"game": "ygo", "players": list(spec.players), "turn_player": spec.turn_player, "phase": _phase(spec.point),
            "custom_cards": list(customs.values()), "cards": cards}


def _phase(point: str) -> str:
    return {"bp_start": "battle.start", "bp_battle": "battle.battle", "bp_end": "battle.end"}.get(point, point)


def engine_position(engine: Any, spec: Spec) -> Any:
    """The scenario's position, with the waiting triggers put on the SEGOC
    stage as the encodings do when a trigger event happens (triggered_now)."""
    from queries.engine import Position
    from solver.terms import Function, Number, String

    pos = engine.starts()[0]  # where the position begins (docs/scenarios.md, "Where a position begins")
    pending = [e for e in spec.effects if e.pending]
    if not pending:
        return pos
    groups = (("tp_m", spec.turn_player, True), ("op_m", spec.other(spec.turn_player), True),
              ("tp_o", spec.turn_player, False), ("op_o", spec.other(spec.turn_player), False))
    first = next(g for g in groups if any(e.controller == g[1] and e.mandatory == g[2] for e in pending))
    keep = {f for f in pos.fluents
            if not (f.name == "val" and f.arguments[0].name in ("segoc", "priority", "box", "passes"))}
    keep.add(Function("val", [Function("segoc", []), Function(first[0], [])]))
    keep.add(Function("val", [Function("priority", []), String(first[1])]))
    keep.add(Function("val", [Function("box", []), Function("d", [])]))
    keep.add(Function("val", [Function("passes", []), Number(0)]))
    for e in pending:
        keep.add(Function("pending", [Function("eff", [String(e.id), Number(1)])]))
    return Position(frozenset(keep))
