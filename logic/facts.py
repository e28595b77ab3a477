"""The one place that turns the domain (games, cards, a position) into facts.

Facts are clorm predicates; user strings (player names, card ids, card names)
become clingo *string* terms, never program text.  Nested terms (effect ids,
conditions, fluents) are built with :mod:`solver.terms` and carried in clorm
``RawField``\\ s.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from clorm import ConstantField, IntegerField, Predicate, Raw, RawField, StringField

from logic.cards import Card, Effect
from logic.games import turn
from logic.registry import registry
from logic.scenario import Scenario
from logic.unmodelled import parts_of, resolution_unknown
from solver.terms import Function, Number, String, Symbol

# ---------------------------------------------------------------- predicates


class Player(Predicate, name="player"):
    p = StringField


class TurnPlayer(Predicate, name="turn_player"):
    p = StringField


class NextPlayer(Predicate, name="next_player"):
    p = StringField
    q = StringField


class NumPlayers(Predicate, name="num_players"):
    n = IntegerField


class PointFact(Predicate, name="point"):
    k = ConstantField


class NextPoint(Predicate, name="next_point"):
    a = ConstantField
    b = ConstantField


class PointPhase(Predicate, name="point_phase"):
    k = ConstantField
    ph = ConstantField


class OpenPoint(Predicate, name="open_point"):
    k = ConstantField


class OneChainPoint(Predicate, name="one_chain_point"):
    k = ConstantField


class CardFact(Predicate, name="card"):
    c = StringField


class CardName(Predicate, name="card_name"):
    c = StringField
    n = StringField


class Owner(Predicate, name="owner"):
    c = StringField
    p = StringField


class CardType(Predicate, name="card_type"):
    c = StringField
    t = ConstantField


class SpType(Predicate, name="sptype"):
    c = StringField
    t = ConstantField


class Attribute(Predicate, name="attribute"):
    c = StringField
    a = ConstantField


class Race(Predicate, name="race"):
    c = StringField
    r = ConstantField


class MKind(Predicate, name="mkind"):
    c = StringField
    k = ConstantField


class Level(Predicate, name="level"):
    c = StringField
    n = IntegerField


class BaseAtk(Predicate, name="base_atk"):
    c = StringField
    n = IntegerField


class BaseDef(Predicate, name="base_def"):
    c = StringField
    n = IntegerField


class NoNormalSummon(Predicate, name="no_normal_summon"):
    c = StringField


class EffectFact(Predicate, name="effect"):
    e = RawField


class EffectCard(Predicate, name="effect_card"):
    e = RawField
    c = StringField


class EffectIndex(Predicate, name="effect_index"):
    e = RawField
    i = IntegerField


class EffectKind(Predicate, name="effect_kind"):
    e = RawField
    k = ConstantField


class Speed(Predicate, name="speed"):
    e = RawField
    s = IntegerField


class Mandatory(Predicate, name="mandatory"):
    e = RawField


class ActZone(Predicate, name="act_zone"):
    e = RawField
    z = ConstantField


class Cond(Predicate, name="cond"):
    e = RawField
    c = RawField


class RespondsTo(Predicate, name="responds_to"):
    e = RawField
    who = ConstantField
    k = ConstantField


class Cost(Predicate, name="cost"):
    e = RawField
    c = RawField


class Targets(Predicate, name="targets"):
    e = RawField


class TSpec(Predicate, name="tspec"):
    e = RawField
    k = ConstantField
    v = ConstantField


class Action(Predicate, name="action"):
    e = RawField
    a = ConstantField


class TriggerFact(Predicate, name="trigger"):
    e = RawField
    ev = ConstantField


class TriggerIf(Predicate, name="trigger_if"):
    """An intervening "if" of Magic triggered ability E: the count of T in zone Z (W: any, own) is O N."""
    e = RawField
    t = ConstantField
    z = ConstantField
    w = ConstantField
    o = ConstantField
    n = IntegerField


class TriggerFilter(Predicate, name="trigger_filter"):
    e = RawField
    f = ConstantField


class Timing(Predicate, name="timing"):
    e = RawField
    t = ConstantField


class Duration(Predicate, name="duration"):
    e = RawField
    d = ConstantField


class OncePerTurn(Predicate, name="once_per_turn"):
    e = RawField


class OptGroup(Predicate, name="opt_group"):
    e = RawField
    g = ConstantField


class Errata2014(Predicate, name="errata_2014"):
    e = RawField


class Amount(Predicate, name="amount"):
    e = RawField
    n = IntegerField


class DsOverride(Predicate, name="ds_override"):
    e = RawField
    v = ConstantField


class UnmodelledUse(Predicate, name="unmodelled_use"):
    e = RawField


class UnmodelledResult(Predicate, name="unmodelled_result"):
    e = RawField


class UnmodelledCost(Predicate, name="unmodelled_cost"):
    e = RawField


class UnmodelledDamage(Predicate, name="unmodelled_damage"):
    e = RawField


class UnmodelledStatic(Predicate, name="unmodelled_static"):
    e = RawField


class UnmodelledZone(Predicate, name="unmodelled_zone"):
    """Card C has text that can matter only while it is in zone Z (logic/unmodelled.py card_scope)."""
    c = StringField
    z = ConstantField


class UnmodelledBlock(Predicate, name="unmodelled_block"):
    """Card C has text that only restricts which creatures may block it (CR 509.1b)."""
    c = StringField


class UnmodelledDs(Predicate, name="unmodelled_ds"):
    e = RawField
    k = ConstantField


class Reading(Predicate, name="reading"):
    r = ConstantField


class Variant(Predicate, name="variant"):
    k = ConstantField
    v = ConstantField


class DateFact(Predicate, name="date"):
    d = IntegerField


class Init(Predicate, name="init"):
    f = RawField


class InitVal(Predicate, name="init_val"):
    k = RawField
    v = RawField


class SwitchableRule(Predicate, name="switchable_rule"):
    r = ConstantField


class StructuralRule(Predicate, name="structural_rule"):
    r = ConstantField


# ---------------------------------------------------------------- helpers


def effect_term(card_id: str, index: int) -> Symbol:
    return Function("eff", [String(card_id), Number(index)])


def _raw(sym: Symbol) -> Raw:
    return Raw(sym)


def _const(name: str) -> Symbol:
    return Function(name, [])


def _arg(arg: str | int) -> Symbol:
    if isinstance(arg, int) or arg.isdigit():
        return Number(int(arg))
    return Function(str(arg), [])


def _term(name: str, arg: str | int | None) -> Symbol:
    """``name``, ``name(arg)`` or, for ``"a,b"``, ``name(a,b)``."""
    if arg is None:
        return Function(name, [])
    if isinstance(arg, str) and "," in arg:
        return Function(name, [_arg(a.strip()) for a in arg.split(",")])
    return Function(name, [_arg(arg)])


def rule_facts(game: str) -> list[Predicate]:
    out: list[Predicate] = []
    for atom, r in registry(game).items():
        if r.kind == "structural":
            out.append(StructuralRule(r=atom))
        else:
            out.append(SwitchableRule(r=atom))
    return out


def turn_facts(game: str) -> list[Predicate]:
    t = turn(game)
    out: list[Predicate] = []
    for p in t.points:
        out.append(PointFact(k=p.key))
        for ph in p.phases:
            out.append(PointPhase(k=p.key, ph=ph))
        if p.open_state:
            out.append(OpenPoint(k=p.key))
        if p.one_chain:
            out.append(OneChainPoint(k=p.key))
    out.append(PointFact(k="turn_end"))
    for a, b in t.graph.edges:
        out.append(NextPoint(a=a, b=b))
    return out


def player_facts(sc: Scenario) -> list[Predicate]:
    out: list[Predicate] = [Player(p=p) for p in sc.players]
    out.append(TurnPlayer(p=sc.turn_player))
    n = len(sc.players)
    for i, p in enumerate(sc.players):
        out.append(NextPlayer(p=p, q=sc.players[(i + 1) % n]))
    out.append(NumPlayers(n=n))
    return out


def card_facts(card_id: str, card: Card) -> list[Predicate]:
    out: list[Predicate] = [CardFact(c=card_id), CardName(c=card_id, n=card.name)]
    out.append(CardType(c=card_id, t=card.card_type))
    if card.property:
        out.append(SpType(c=card_id, t=card.property))
    if card.attribute:
        out.append(Attribute(c=card_id, a=card.attribute))
    if card.race:
        out.append(Race(c=card_id, r=card.race))
    for k in card.kinds:
        out.append(MKind(c=card_id, k=k))
    if card.level is not None:
        out.append(Level(c=card_id, n=int(card.level)))
    if card.atk is not None:
        out.append(BaseAtk(c=card_id, n=int(card.atk)))
    if card.defense is not None:
        out.append(BaseDef(c=card_id, n=int(card.defense)))
    if card.no_normal_summon:
        out.append(NoNormalSummon(c=card_id))
    for eff in card.effects:
        out.extend(effect_facts(card_id, eff, unknown_resolution=card.origin != "library"))
    return out


def effect_facts(card_id: str, eff: Effect, unknown_resolution: bool = False) -> list[Predicate]:
    e = _raw(effect_term(card_id, eff.index))
    out: list[Predicate] = [
        EffectFact(e=e),
        EffectCard(e=e, c=card_id),
        EffectIndex(e=e, i=eff.index),
        EffectKind(e=e, k=eff.kind),
    ]
    if eff.kind == "continuous":
        for a in eff.actions:
            out.append(Action(e=e, a=a))
        return out
    out.append(Speed(e=e, s=eff.speed))
    if eff.mandatory:
        out.append(Mandatory(e=e))
    for z in eff.zones:
        out.append(ActZone(e=e, z=z))
    for name, arg in eff.conditions:
        out.append(Cond(e=e, c=_raw(_term(name, arg))))
    for who, k in eff.responds_to:
        out.append(RespondsTo(e=e, who=who, k=k))
    for name, arg in eff.costs:
        out.append(Cost(e=e, c=_raw(_term(name, arg))))
    if eff.target:
        out.append(Targets(e=e))
        for k, v in eff.target:
            out.append(TSpec(e=e, k=k, v=v))
    for a in eff.actions:
        out.append(Action(e=e, a=a))
    if unknown_resolution and resolution_unknown(eff):
        # what it does on resolution is not known (an effect read from card text)
        out.append(Action(e=e, a="unknown"))
    if eff.amount is not None:
        out.append(Amount(e=e, n=eff.amount))
    for ev in eff.triggers:
        out.append(TriggerFact(e=e, ev=ev))
    if eff.timing:
        out.append(Timing(e=e, t=eff.timing))
    if eff.duration:
        out.append(Duration(e=e, d=eff.duration))
    if eff.once_per_turn:
        out.append(OncePerTurn(e=e))
    if eff.once_per_turn_group:
        out.append(OptGroup(e=e, g=eff.once_per_turn_group))
    if eff.errata_2014:
        out.append(Errata2014(e=e))
    if eff.damage_step:
        out.append(DsOverride(e=e, v=eff.damage_step))
    return out


def static_facts(sc: Scenario, reading: str | None = None) -> list[Predicate]:
    """The scenario's static facts; under a ``reading`` of its unmodelled parts
    (``permissive`` | ``restrictive``, encodings/core/unmodelled.lp) also which
    effects have which kind of unmodelled part (none without a reading: the
    plain answer's program is unchanged)."""
    out: list[Predicate] = []
    out += rule_facts(sc.game)
    out += turn_facts(sc.game)
    out += player_facts(sc)
    marks = _unmodelled_marks(sc) if reading else {}
    card_marks = _card_marks(sc) if reading else {}
    for inst in sc.cards:
        if sc.game == "mtg":
            facts = mtg_card_facts(inst.id, inst.card)
        else:
            facts = card_facts(inst.id, inst.card)
        for eff in inst.card.effects:
            e = _raw(effect_term(inst.id, eff.index))
            mark = marks.get((inst.card.name, eff.index), set())
            if "use" in mark:
                out.append(UnmodelledUse(e=e))
                # the permissive reading: a mandatory effect may also be declined
                facts = [f for f in facts if not (isinstance(f, Mandatory) and f.e == e)]
            if "result" in mark:
                out.append(UnmodelledResult(e=e))
            if "cost" in mark:
                out.append(UnmodelledCost(e=e))
            if "damage" in mark:
                out.append(UnmodelledDamage(e=e))
            if "static" in mark:
                out.append(UnmodelledStatic(e=e))
            for k in sorted(m[3:] for m in mark if m.startswith("ds:")):
                out.append(UnmodelledDs(e=e, k=k))
        for scope in sorted(card_marks.get(inst.card.name, ())):
            if scope.startswith("zone:"):
                out.append(UnmodelledZone(c=inst.id, z=scope[len("zone:"):]))
            elif scope == "block":
                out.append(UnmodelledBlock(c=inst.id))
        out += facts
        out.append(Owner(c=inst.id, p=inst.owner))
    if reading:
        out.append(Reading(r=reading))
    if sc.game == "mtg":
        out += mtg_combat_facts(sc)
    for k, v in sc.variants.items():
        out.append(Variant(k=k, v=v))
    out.append(DateFact(d=sc.date.year * 10000 + sc.date.month * 100 + sc.date.day))
    return out


def _unmodelled_marks(sc: Scenario) -> dict[tuple[str, int], set[str]]:
    """(card name, effect index) -> the kinds of reading its unmodelled parts get."""
    out: dict[tuple[str, int], set[str]] = {}
    for p in parts_of(sc):
        if p.effect is not None and p.readings:
            out.setdefault((p.card, p.effect), set()).update(p.readings)
            if sc.game == "ygo":
                out[(p.card, p.effect)].update(f"ds:{k}" for k in p.damage_step)
    return out


def _card_marks(sc: Scenario) -> dict[str, set[str]]:
    """card name -> the circumstances in which its card-level unmodelled parts can matter."""
    from logic.unmodelled import parts_of

    out: dict[str, set[str]] = {}
    for p in parts_of(sc):
        if p.effect is None:
            out.setdefault(p.card, set()).update(p.readings)
    return out


def _val(key: Symbol, value: Symbol) -> InitVal:
    return InitVal(k=_raw(key), v=_raw(value))


def initial_state(sc: Scenario) -> list[Predicate]:
    """The fluents of the scenario's position, before its history."""
    t = turn(sc.game)
    out: list[Predicate] = [
        _val(_const("at"), _const(sc.point)),
        _val(_const("passes"), Number(0)),
        _val(_const("chain_len"), Number(0)),
    ]
    if sc.game == "ygo":
        # docs/scenarios.md, "Where a position begins": the game as play enters the point; the game procedure
        # `begin` (ygo/turn.lp) then enters it: box A, the turn player first (FET box A),
        # unless something triggers there.  The attack declaration window is the
        # moment right after the declaration, an action that starts no chain
        # (FET chart: box B, the turn player first).
        attack_window = sc.point == "bp_attack"
        out.append(_val(_const("proc"), _const("none" if attack_window else "begin")))
        out.append(_val(_const("priority"), String(sc.turn_player) if attack_window else _const("nobody")))
        out.append(_val(_const("box"), _const("b" if attack_window else "none")))
        out.append(_val(_const("segoc"), _const("none")))
        order = t.order(sc.point)
        if order > t.order("draw"):
            out.append(Init(f=_raw(_const("drawn"))))
        if sc.attack:
            a, x = sc.attack
            target = String(x) if x != "direct" else _const("direct")
            out.append(_val(_const("attack"), Function("att", [String(a), target])))
            out.append(Init(f=_raw(Function("attacked", [String(a)]))))
        else:
            out.append(_val(_const("attack"), _const("none")))
    if sc.game == "mtg":
        out += mtg_initial_state(sc)
    for p, life in sc.life.items():
        out.append(_val(Function("lp", [String(p)]), Number(life)))
    if sc.game == "ygo":
        out += _ygo_counts(sc)
    for inst in sc.cards:
        cid = String(inst.id)
        out.append(_val(Function("zone", [cid]), _const(inst.zone)))
        out.append(_val(Function("ctrl", [cid]), String(inst.controller)))
        out.append(_val(Function("pos", [cid]), _const(inst.position or "none")))
        for flag in inst.flags:
            out.append(Init(f=_raw(Function(flag, [cid]))))
    return out


# ---------------------------------------------------------------- Magic: The Gathering
# The Magic card attributes and the Magic parts of a position (issue 6).  The
# generic card_facts above is Yu-Gi-Oh!'s; a Magic card goes through
# mtg_card_facts instead.


class MtgType(Predicate, name="mtg_type"):
    c = StringField
    t = ConstantField


class Keyword(Predicate, name="keyword"):
    c = StringField
    k = ConstantField


class PowerFact(Predicate, name="power"):
    c = StringField
    n = IntegerField


class ToughnessFact(Predicate, name="toughness"):
    c = StringField
    n = IntegerField


class LoyaltyBase(Predicate, name="loyalty_base"):
    c = StringField
    n = IntegerField


class ColorFact(Predicate, name="color"):
    c = StringField
    k = ConstantField


class Protection(Predicate, name="protection"):
    c = StringField
    k = ConstantField


class MtgAmount(Predicate, name="amount"):
    e = RawField
    a = ConstantField
    n = IntegerField


class LoyaltyCost(Predicate, name="loyalty_cost"):
    e = RawField
    n = IntegerField


class GivenCombat(Predicate, name="given_combat"):
    k = ConstantField


class GivenAttack(Predicate, name="given_attack"):
    a = StringField
    d = StringField


class GivenBlock(Predicate, name="given_block"):
    b = StringField
    a = StringField


MTG_COMBAT_AFTER_ATTACKERS = ("combat_blockers", "combat_first_strike", "combat_damage", "combat_end")
MTG_COMBAT_AFTER_BLOCKERS = ("combat_first_strike", "combat_damage", "combat_end")


def mtg_combat_facts(sc: Scenario) -> list[Predicate]:
    """The declarations a Magic position at combat.attackers / combat.blockers is
    after (the scenario's `attack`): the step's turn-based action makes exactly
    these choices (mtg/combat.lp, mtg.position.declarations)."""
    if sc.combat is None or sc.point not in ("combat_attackers", "combat_blockers"):
        return []
    if sc.point == "combat_attackers":
        return [GivenCombat(k="attackers")] + [GivenAttack(a=a, d=d) for a, d, _ in sc.combat]
    return [GivenCombat(k="blockers")] + [GivenBlock(b=b, a=a) for a, _, bs in sc.combat for b in bs]


def mtg_card_facts(card_id: str, card: Card) -> list[Predicate]:
    ex = card.extra
    out: list[Predicate] = [CardFact(c=card_id), CardName(c=card_id, n=card.name),
                            CardType(c=card_id, t=card.card_type)]
    for t in ex.get("types", ()):
        out.append(MtgType(c=card_id, t=t))
    for k in ex.get("keywords", ()):
        out.append(Keyword(c=card_id, k=k))
    if ex.get("power") is not None:
        out.append(PowerFact(c=card_id, n=int(ex["power"])))
    if ex.get("toughness") is not None:
        out.append(ToughnessFact(c=card_id, n=int(ex["toughness"])))
    if ex.get("loyalty") is not None:
        out.append(LoyaltyBase(c=card_id, n=int(ex["loyalty"])))
    for col in ex.get("colors", ()):
        out.append(ColorFact(c=card_id, k=col))
    for col in ex.get("protection", ()):
        out.append(Protection(c=card_id, k=col))
    for eff in card.effects:
        out.extend(mtg_effect_facts(card_id, eff))
    return out


def mtg_effect_facts(card_id: str, eff: Effect) -> list[Predicate]:
    import re

    e = _raw(effect_term(card_id, eff.index))
    out: list[Predicate] = [
        EffectFact(e=e),
        EffectCard(e=e, c=card_id),
        EffectIndex(e=e, i=eff.index),
        EffectKind(e=e, k=eff.kind),
        Speed(e=e, s=eff.speed),
    ]
    if eff.mandatory:
        out.append(Mandatory(e=e))
    for z in eff.zones:
        out.append(ActZone(e=e, z=z))
    for name, arg in eff.costs:
        if name in ("loyalty_up", "loyalty_down"):
            n = int(arg or 0)
            out.append(LoyaltyCost(e=e, n=n if name == "loyalty_up" else -n))
        else:
            out.append(Cost(e=e, c=_raw(_term(name, None))))
    if eff.target:
        out.append(Targets(e=e))
        for k, v in eff.target:
            out.append(TSpec(e=e, k=k, v=v))
    for a in eff.actions:
        m = re.match(r"^([a-z_]+)(?:\((\d+)\))?$", a)
        assert m is not None, a
        out.append(Action(e=e, a=m.group(1)))
        out.append(MtgAmount(e=e, a=m.group(1), n=int(m.group(2) or 1)))
    for ev in eff.triggers:
        if ev.startswith("spell_"):  # a cast trigger's spell filter (logic/mtg_cards.py TRIGGER_FILTERS)
            out.append(TriggerFilter(e=e, f=ev))
        else:
            out.append(TriggerFact(e=e, ev=ev))
    for name, arg in eff.conditions:
        if name == "if_count" and arg:  # an intervening "if" (CR 603.4; logic/mtg_cards.py _IF_COUNTS)
            ty, zone, whose, op, n = arg.split(",")
            out.append(TriggerIf(e=e, t=ty, z=zone, w=whose, o=op, n=int(n)))
    if eff.once_per_turn:
        out.append(OncePerTurn(e=e))
    return out


def mtg_initial_state(sc: Scenario) -> list[Predicate]:
    """The Magic parts of a position: the step as it begins, loyalty counters,
    the creatures in combat.

    The scenario describes the game as its step begins; the game procedure
    ``begin`` (mtg/turn.lp) then performs the step's turn-based action (the
    untap, the draw, the declarations the scenario's ``attack`` names, combat
    damage, the cleanup), the "at the beginning of" abilities trigger, and
    before a player receives priority state-based actions are performed and
    the triggered abilities are put on the stack (CR 117.5, 603.3).  The
    engine starts every question from there (docs/scenarios.md, "Where a position begins")."""
    out: list[Predicate] = []
    out.append(_val(_const("priority"), _const("nobody")))
    out.append(_val(_const("proc"), _const("begin")))
    for inst in sc.cards:
        cid = String(inst.id)
        ex = inst.card.extra
        if inst.zone == "battlefield" and ex.get("loyalty") is not None:
            out.append(_val(Function("loyalty", [cid]), Number(int(ex["loyalty"]))))
    if sc.combat is not None and sc.point in MTG_COMBAT_AFTER_ATTACKERS:
        # declared in an earlier step of this combat (CR 506.4, 508.1, 509.1)
        for a, d, blockers in sc.combat:
            out.append(Init(f=_raw(Function("attacking", [String(a), String(d)]))))
            if sc.point in MTG_COMBAT_AFTER_BLOCKERS:
                for b in blockers:
                    out.append(Init(f=_raw(Function("blocking", [String(b), String(a)]))))
                if blockers:
                    out.append(Init(f=_raw(Function("blocked", [String(a)]))))
        if sc.point in MTG_COMBAT_AFTER_BLOCKERS:
            for p in sc.players:
                if p != sc.turn_player:
                    out.append(Init(f=_raw(Function("blockers_declared", [String(p)]))))
    return out


def _uses(card: Card, costs: tuple[str, ...] = (), actions: tuple[str, ...] = (), conds: tuple[str, ...] = ()) -> bool:
    return any(
        any(c[0] in costs for c in e.costs) or any(a in actions for a in e.actions)
        or any(c[0] in conds for c in e.conditions)
        for e in card.effects
    )


def _ygo_counts(sc: Scenario) -> list[Predicate]:
    """Counts the Yu-Gi-Oh! encodings keep as bounded functional fluents:
    Xyz materials (detach costs), Spell Counters, and the Summons of each
    player this turn (Nibiru), the last from the ``summoned_this_turn`` flags."""
    out: list[Predicate] = []
    for inst in sc.cards:
        cid = String(inst.id)
        card = inst.card
        if inst.materials is not None or "xyz" in card.kinds:
            out.append(_val(Function("materials", [cid]), Number(inst.materials or 0)))
        given = dict(inst.counters)
        if given or _uses(card, costs=("remove_counter",), actions=("place_spell_counter",)):
            out.append(_val(Function("counters", [cid, _const("spell")]), Number(given.get("spell", 0))))
    # Summons are counted up to the largest count a card asks about (ygo/summon.lp does the same).
    caps = [int(arg or 0) for i in sc.cards for e in i.card.effects for name, arg in e.conditions
            if name == "opponent_summoned_at_least"]
    if caps:
        for p in sc.players:
            n = sum(1 for i in sc.cards if i.controller == p and "summoned_this_turn" in i.flags)
            out.append(_val(Function("summons", [String(p)]), Number(min(n, max(caps)))))
    return out


def symbols(facts: Iterable[Predicate]) -> list[Symbol]:
    return [f.raw for f in facts]


def state_facts(fluents: Iterable[Symbol]) -> list[Symbol]:
    """Init facts for a state read back from a model (holds(F,T) atoms' F)."""
    out: list[Symbol] = []
    for f in fluents:
        if f.type.name == "Function" and f.name == "val" and len(f.arguments) == 2:
            out.append(Function("init_val", list(f.arguments)))
        else:
            out.append(Function("init", [f]))
    return out


def describe(sym: Any) -> str:
    return str(sym)
