"""Regression tests for wrong answers found by the external Yu-Gi-Oh! corpus
(tests/corpus/external/ygo-rules.yaml, diagnosed in the corpus-ygo-a report).

Each test names the public source of the rule it checks."""

from __future__ import annotations

from typing import Any

from logic import textreader as tr
from logic.scenario import from_data
from queries.answer import Asker

# A Field Spell whose activation does nothing the model cannot compute.
TEST_FIELD = {"name": "Test Field", "card_type": "spell", "property": "field", "text": "A Field Spell.",
              "effects": [{"kind": "card", "actions": ["no_action"], "summary": "a Field Spell"}]}


def _ask(cards: list[dict[str, Any]], q: str, custom: list[dict[str, Any]] | None = None,
         **extra: Any) -> str:
    sc = {"game": "ygo", "players": ["A", "B"], "turn_player": "A", "phase": "main1",
          "cards": cards, "custom_cards": custom or [], **extra}
    return Asker(from_data(sc, "test scenario")).ask(q).verdict


def _derive_spell(name: str, prop: str, text: str) -> Any:
    dc = tr.derive({"name": name, "card_type": "Spell", "property": prop, "text": text})
    return next(e for e in dc.card.effects if e.index == 1)


# ---------------------------------------------------------------- 1. Field Spells are Spells on the field
# Yugipedia, "Field Spell Card": Field Spells are placed in the Field Zone, apart from the Spell & Trap
# Zones; lastdraw.com "Field Spell Card" and the "Mystical Space Typhoon" rulings (yugioh.pl, TCG rulings:
# MST chained to "Ancient Forest" leaves it no longer face-up on the field): "Target 1 Spell/Trap on the
# field" can target a face-up Field Spell.

def test_spell_trap_on_the_field_targets_a_field_spell() -> None:
    cards = [{"card": "Test Field", "controller": "A", "zone": "field", "position": "face_up"},
             {"card": "Mystical Space Typhoon", "controller": "B", "zone": "spell_trap", "position": "face_down"},
             {"card": "Kuriboh", "controller": "B", "zone": "hand"}]
    assert _ask(cards, "can B activate Mystical Space Typhoon targeting Test Field now", [TEST_FIELD]) == "yes"
    # a monster in the hand is still no Spell/Trap on the field
    assert _ask(cards, "can B activate Mystical Space Typhoon targeting Kuriboh now", [TEST_FIELD]) == "no"


def test_reader_spell_trap_on_the_field_includes_the_field_zone() -> None:
    e = _derive_spell("Test Typhoon", "Quick-Play", "Target 1 Spell/Trap on the field; destroy that target.")
    assert dict(e.target) == {"zone": "field", "kind": "spell_trap"}
    e = _derive_spell("Test Gust", "Quick-Play", "Target 1 Spell/Trap your opponent controls; destroy that target.")
    assert dict(e.target) == {"zone": "field", "side": "opponent", "kind": "spell_trap"}
    # the Spell & Trap Zone, named, is not the Field Zone
    e = _derive_spell("Test Zone Gust", "Quick-Play",
                      "Target 1 card in your opponent's Spell & Trap Zone; destroy that target.")
    assert dict(e.target)["zone"] == "spell_trap"


# ---------------------------------------------------------------- 2. "up to N" targets
# Konami PSCT: "target up to 2 monsters" needs at least 1 legal target (1 is enough); Yugipedia
# "Flip monster": the Flip effect of a monster destroyed by that battle still activates and resolves on
# the field after damage calculation (xr-ds-flip-after-calc).

def test_up_to_n_targets_read_as_one_target_of_that_kind() -> None:
    assert tr.target_spec("up to 2 monsters on the field".split()) == ({"zone": "monster"}, "")
    assert tr.target_spec("up to 2 spells/traps on the field".split()) == \
        ({"zone": "field", "kind": "spell_trap"}, "")
    assert tr.target_spec("up to 3 face-up monsters your opponent controls".split())[0] == \
        {"zone": "monster", "side": "opponent", "face": "up"}
    # "up to N" is not narrower than the specification
    assert tr.target_qualifiers("up to 2 monsters on the field".split(), {"zone": "monster"}) == []
    # several kinds are still several targets
    assert tr.target_spec("up to 2 spells and traps on the field".split())[0] is None


def test_flip_effect_of_a_battle_destroyed_monster_after_damage_calculation() -> None:
    flip = {"name": "Test Flipper", "card_type": "monster", "atk": 100, "def": 100, "level": 1, "kinds": ["effect"],
            "text": "FLIP: You can target up to 2 monsters on the field; return those targets to the hand.",
            "effects": [{"kind": "flip", "target": {"zone": "monster"}, "actions": ["return_target_to_hand"],
                         "summary": "flip: bounce"}]}
    cards = [{"card": "Summoned Skull", "controller": "A", "zone": "monster", "position": "face_up_attack"},
             {"card": "Test Flipper", "controller": "B", "zone": "monster", "position": "face_down_defense"}]
    q = "can B activate Test Flipper targeting Summoned Skull during battle.damage.after_calculation"
    assert _ask(cards, q, [flip], phase="battle.damage.start",
                attack={"attacker": "Summoned Skull", "target": "Test Flipper"}) == "yes"
