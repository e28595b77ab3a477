"""The card-text reader against Konami's classifications (issue 14 items 8 and 9):
what each fix reads, on invented texts in the official style (not copied), and
the Damage Step permission the rules derive from it (bench/classifications.py,
damage_step_permission, grounds encodings/ygo/damage_step.lp on the card)."""

from __future__ import annotations

from typing import Any

from bench.classifications import damage_step_permission
from logic import textreader as tr


def monster(text: str, type_line: str = "Spellcaster / Effect") -> dict[str, Any]:
    return {"name": "Test Monster", "card_type": "Monster", "monster_type_line": type_line, "text": text}


def trap(prop: str, text: str) -> dict[str, Any]:
    return {"name": "Test Trap", "card_type": "Trap", "property": prop, "text": text}


def effect(rec: dict[str, Any], index: int = 1) -> tuple[Any, bool]:
    dc = tr.derive(rec)
    eff = next(e for e in dc.card.effects if e.index == index)
    return eff, damage_step_permission(dc.card)[index]


def test_a_summon_of_the_card_itself_is_usable_in_the_damage_step() -> None:
    eff, ds = effect(monster("If this card is Special Summoned: You can draw 1 card."))
    assert eff.triggers == ("special_summoned",) and ds


def test_a_narrower_self_event_keeps_its_wider_trigger_and_stays_unmodelled() -> None:
    eff, ds = effect(monster("If this card is sent to the GY by a card effect: You can draw 1 card."))
    assert eff.triggers == ("sent_to_gy",) and ds
    assert any(p.startswith("trigger event: if this card is sent to the gy by a card effect") for p in eff.unmodelled)
    eff, _ = effect(monster("If this card in its owner's possession is destroyed by an opponent's card: "
                            "You can draw 1 card."))
    assert eff.triggers == ("destroyed",) and any(p.startswith("trigger event:") for p in eff.unmodelled)


def test_a_battle_trigger_event_is_usable_in_the_damage_step() -> None:
    eff, ds = effect(monster("If a monster you control is destroyed by battle: You can draw 1 card."))
    assert eff.damage_step == "allowed" and ds
    eff, ds = effect(monster("If your opponent Special Summons a monster: You can draw 1 card."))
    assert eff.damage_step is None and not ds


def test_an_older_battle_wording_is_a_trigger_at_the_start_of_the_damage_step() -> None:
    eff, ds = effect(monster("If this card attacks a face-up Level 3 or lower monster, destroy the monster "
                             "with this card's effect without applying damage calculation."))
    assert (eff.kind, eff.mandatory, eff.triggers) == ("trigger", True, ("start_of_damage_step",)) and ds
    eff, _ = effect(monster("If this card battles a monster, toss a coin before damage calculation."))
    assert (eff.kind, eff.triggers) == ("trigger", ("before_damage_calculation",))
    # an older wording that modifies the battle itself stays a Continuous Effect
    eff, _ = effect(monster("If this card attacks a Defense Position monster, inflict piercing battle damage."))
    assert eff.kind == "continuous"


def test_either_players_turn_is_a_quick_effect() -> None:
    eff, _ = effect(monster("Once per turn, during either player's turn: You can target 1 card in your "
                            "opponent's GY; banish it."))
    assert (eff.kind, eff.speed) == ("quick", 2)
    eff, _ = effect(monster("During either player's turn, when a Spell Card is activated: You can negate the "
                            "activation, and if you do, destroy it."))
    assert eff.kind == "quick"
    # an event that is not an activation keeps the effect a Trigger Effect
    eff, _ = effect(monster("During your opponent's turn, if this card is sent to the GY: You can draw 1 card."))
    assert eff.kind == "trigger"


def test_immediately_after_it_resolves_is_not_activated() -> None:
    eff, _ = effect(monster("Each time a Counter Trap Card is activated, immediately after it resolves, draw 1 card."))
    assert eff.kind == "continuous"


def test_the_activation_of_a_continuous_trap_that_changes_atk_changes_atk() -> None:
    eff, ds = effect(trap("Continuous", "Halve the ATK of your opponent's attacking monsters."))
    assert eff.kind == "card" and eff.actions == ("atk_change",) and ds
    eff, ds = effect(trap("Continuous", "Your opponent's monsters cannot attack."))
    assert not eff.actions and not ds


def test_a_delayed_destruction_is_not_part_of_an_atk_change() -> None:
    eff, ds = effect(trap("Normal", "Double the ATK of all monsters you control. During the End Phase of this "
                                    "turn, destroy them."))
    assert eff.actions == ("atk_change",) and ds
