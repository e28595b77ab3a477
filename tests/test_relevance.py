"""Refuse by relevance (docs/not-modelled.md, docs/not-modelled.md): an unmodelled
part that cannot change the answer is named as bounded; one that can is refused
naming the card, the effect and the words.  Both games, unread text and library
approximations."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from logic.errors import NotModelled
from logic.scenario import Scenario, from_data
from logic.unmodelled import parts_of, split_part
from queries.answer import Asker


def _with_part(sc: Scenario, card: str, effect: int, *parts: str) -> Scenario:
    """The scenario with unmodelled parts added to one effect of a card (as a card
    reader reports what it could not model)."""
    cards = []
    for inst in sc.cards:
        if inst.card.name == card:
            effs = tuple(replace(e, unmodelled=e.unmodelled + parts) if e.index == effect else e
                         for e in inst.card.effects)
            inst = replace(inst, card=replace(inst.card, effects=effs))
        cards.append(inst)
    sc.cards = cards
    return sc


def _ygo(cards: list[dict[str, Any]], **extra: Any) -> Scenario:
    return from_data({"game": "ygo", "players": ["A", "B"], "turn_player": "A", "phase": "main1",
                      "cards": cards, **extra}, "test")


def _mtg(cards: list[dict[str, Any]], **extra: Any) -> Scenario:
    return from_data({"game": "mtg", "players": ["Alice", "Bob"], "active_player": "Alice", "phase": "main1",
                      "cards": cards, **extra}, "test")


VEILER = [
    {"card": "Judgment Dragon", "controller": "A", "zone": "monster", "position": "face_up_attack"},
    {"card": "Effect Veiler", "controller": "B", "zone": "hand"},
]
LURKER = {"name": "Test Lurker", "card_type": "monster", "atk": 1000, "def": 1000,
          "effects": [{"kind": "quick", "from": ["hand"], "cost": ["discard_self"],
                       "actions": ["negate_previous_effect"], "conditions": ["responds"],
                       "responds_to": [{"who": "opponent", "to": "monster_effect"}]}]}
WORDS = "condition: during your opponent's turn, if you control no monsters"


def test_parts_are_read_as_aspect_and_words():
    assert split_part("approximation: resolution: modelled as doing nothing") == (
        "resolution", "modelled as doing nothing", True)
    assert split_part("window: during your Main Phase") == ("window", "during your Main Phase", False)


def test_ygo_unread_condition_that_cannot_matter_is_bounded():
    # the effect is usable only from the hand, and the card is on the field
    sc = _ygo(VEILER + [{"card": "Test Lurker", "controller": "B", "zone": "monster",
                         "position": "face_up_attack"}], custom_cards=[LURKER])
    sc = _with_part(sc, "Test Lurker", 1, WORDS)
    ans = Asker(sc).ask("can B activate Effect Veiler targeting Judgment Dragon "
                        "after A declares the end of main phase 1")
    assert ans.verdict == "yes"
    assert ans.bounded == [f"Test Lurker, effect 1, {WORDS}"]
    assert ans.as_json()["bounded"] == ans.bounded
    assert any("unmodelled.permissive" in n and "unmodelled.restrictive" in n for n in ans.notes)


def test_ygo_unread_condition_that_can_matter_is_refused():
    # in the hand, it could negate Judgment Dragon's effect -- if its unread condition allows
    sc = _ygo(VEILER + [{"card": "Test Lurker", "controller": "B", "zone": "hand"}], custom_cards=[LURKER])
    sc = _with_part(sc, "Test Lurker", 1, WORDS)
    with pytest.raises(NotModelled) as exc:
        Asker(sc).ask("can B activate Test Lurker in response to A activating Judgment Dragon")
    assert f"Test Lurker, effect 1, {WORDS}" in exc.value.message


def test_ygo_unbounded_aspect_keeps_the_conservative_refusal():
    sc = _ygo(VEILER + [{"card": "Test Lurker", "controller": "B", "zone": "monster",
                         "position": "face_up_attack"}], custom_cards=[LURKER])
    sc = _with_part(sc, "Test Lurker", 1, "trigger event: each time a card is banished")
    with pytest.raises(NotModelled) as exc:
        Asker(sc).ask("can B activate Effect Veiler targeting Judgment Dragon now")
    assert "Test Lurker, effect 1, trigger event: each time a card is banished" in exc.value.message


def test_message_lists_a_few_parts_then_counts():
    sc = _ygo(VEILER + [{"card": "Test Lurker", "controller": "B", "zone": "hand"}], custom_cards=[LURKER])
    sc = _with_part(sc, "Test Lurker", 1, *[f"trigger event: event number {i}" for i in range(6)])
    with pytest.raises(NotModelled) as exc:
        Asker(sc).ask("can B activate Effect Veiler targeting Judgment Dragon now")
    assert exc.value.message.endswith("and 3 more")


STRATOS_SUMMONED = [
    {"card": "Elemental HERO Stratos", "controller": "A", "zone": "hand"},
    {"card": "Ash Blossom & Joyous Spring", "controller": "B", "zone": "hand"},
]


def test_library_approximation_that_matters_is_refused():
    # Stratos is modelled as doing nothing: whether Ash Blossom can respond depends on what it does
    sc = _ygo(STRATOS_SUMMONED, history=["A normal summons Elemental HERO Stratos"])
    assert any(p.approximate and p.card == "Elemental HERO Stratos" for p in parts_of(sc))
    with pytest.raises(NotModelled) as exc:
        Asker(sc).ask("can B activate Ash Blossom & Joyous Spring in response to A activating "
                      "Elemental HERO Stratos")
    assert "Elemental HERO Stratos, effect 1, approximation: resolution:" in exc.value.message


def test_library_approximation_that_cannot_matter_is_answered():
    sc = _ygo(VEILER + [{"card": "Elemental HERO Stratos", "controller": "A", "zone": "graveyard"}])
    ans = Asker(sc).ask("can B activate Effect Veiler targeting Judgment Dragon "
                        "after A declares the end of main phase 1")
    assert ans.verdict == "yes"
    assert [b for b in ans.bounded if b.startswith("Elemental HERO Stratos, effect 1, approximation: resolution:")]


BOLT_WINDOW = "window: cast this spell only during combat"


def test_mtg_unread_window_that_cannot_matter_is_bounded():
    # Bob's card is in his library: it cannot be cast
    sc = _mtg([{"card": "Lightning Bolt", "controller": "Alice", "zone": "hand"},
               {"card": "Shock", "controller": "Bob", "zone": "library"}])
    sc = _with_part(sc, "Shock", 1, BOLT_WINDOW)
    ans = Asker(sc).ask("can Alice cast Lightning Bolt now")
    assert ans.verdict == "yes"
    assert ans.bounded == [f"Shock, effect 1, {BOLT_WINDOW}"]


def test_mtg_unread_window_that_can_matter_is_refused():
    sc = _mtg([{"card": "Lightning Bolt", "controller": "Alice", "zone": "hand"},
               {"card": "Shock", "controller": "Bob", "zone": "hand"}])
    sc = _with_part(sc, "Shock", 1, BOLT_WINDOW)
    with pytest.raises(NotModelled) as exc:
        Asker(sc).ask("can Bob cast Shock in response to Alice casting Lightning Bolt")
    assert f"Shock, effect 1, {BOLT_WINDOW}" in exc.value.message


def test_mtg_unread_resolution_bounded_when_it_cannot_resolve_first():
    sc = _mtg([{"card": "Lightning Bolt", "controller": "Alice", "zone": "hand"},
               {"card": "Shock", "controller": "Bob", "zone": "hand"}])
    sc = _with_part(sc, "Shock", 1, "resolution: and Bob scries 1")
    ans = Asker(sc).ask("can Bob cast Shock in response to Alice casting Lightning Bolt")
    assert ans.verdict == "yes"
    assert ans.bounded == ["Shock, effect 1, resolution: and Bob scries 1"]


def test_mtg_unread_resolution_refused_when_it_can_resolve_first():
    cards = [{"card": "Lightning Bolt", "controller": "Alice", "zone": "hand"},
             {"card": "Shock", "controller": "Alice", "zone": "hand"}]
    sc = _mtg(cards, history=["Alice casts Shock targeting Bob"])
    sc = _with_part(sc, "Shock", 1, "resolution: and Bob scries 1")
    with pytest.raises(NotModelled) as exc:
        Asker(sc).ask("can Alice cast Lightning Bolt after Shock resolves")
    assert "Shock, effect 1, resolution: and Bob scries 1" in exc.value.message
    assert "reached through a resolution that is not modelled" in exc.value.message


def test_continuous_approximation_that_applies_is_refused():
    # Skill Drain's negation is not modelled: face-up on the field it could decide the answer
    sc = _ygo(VEILER + [{"card": "Skill Drain", "controller": "B", "zone": "spell_trap", "position": "face_up"}])
    with pytest.raises(NotModelled) as exc:
        Asker(sc).ask("can B activate Effect Veiler targeting Judgment Dragon now")
    assert "Skill Drain, effect 2, approximation: resolution:" in exc.value.message


def test_continuous_approximation_not_yet_applying_is_bounded():
    # Set, it applies only once it has resolved: after the asked activation
    sc = _ygo(VEILER + [{"card": "Skill Drain", "controller": "B", "zone": "spell_trap", "position": "face_down"}])
    ans = Asker(sc).ask("can B activate Skill Drain after A declares the end of main phase 1")
    assert ans.verdict == "yes"
    assert any(b.startswith("Skill Drain, effect 2, approximation: resolution:") for b in ans.bounded)


def test_mtg_library_approximation_that_matters_is_refused():
    # Brainstorm's cards put back are not modelled: the position after it resolves is not known
    sc = _mtg([{"card": "Brainstorm", "controller": "Alice", "zone": "hand"},
               {"card": "Lightning Bolt", "controller": "Alice", "zone": "hand"}],
              history=["Alice casts Brainstorm"])
    with pytest.raises(NotModelled) as exc:
        Asker(sc).ask("can Alice cast Lightning Bolt after Brainstorm resolves")
    assert "Brainstorm, effect 1, approximation: resolution:" in exc.value.message


def test_mtg_library_approximation_that_cannot_matter_is_answered():
    sc = _mtg([{"card": "Brainstorm", "controller": "Bob", "zone": "library"},
               {"card": "Lightning Bolt", "controller": "Alice", "zone": "hand"}])
    ans = Asker(sc).ask("can Alice cast Lightning Bolt now")
    assert ans.verdict == "yes"
    assert any(b.startswith("Brainstorm, effect 1, approximation: resolution:") for b in ans.bounded)


BINDER = {"name": "Test Binder", "card_type": "monster", "atk": 1000, "def": 1000,
          "effects": [{"kind": "continuous", "summary": "monsters your opponent controls cannot change their battle positions",
                       "unmodelled": ["continuous: Monsters your opponent controls cannot change their battle positions."]}]}


def test_ygo_continuous_part_not_functioning_is_bounded():
    # what the Continuous Effect does is not modelled; the card is in the hand, so it does not apply
    sc = _ygo(VEILER + [{"card": "Test Binder", "controller": "B", "zone": "hand"}], custom_cards=[BINDER])
    ans = Asker(sc).ask("can B activate Effect Veiler targeting Judgment Dragon after A declares the end of main phase 1")
    assert ans.verdict == "yes"
    assert any(b.startswith("Test Binder, effect 1, continuous:") for b in ans.bounded)


def test_ygo_continuous_part_functioning_is_refused():
    sc = _ygo(VEILER + [{"card": "Test Binder", "controller": "B", "zone": "monster",
                         "position": "face_up_attack"}], custom_cards=[BINDER])
    with pytest.raises(NotModelled) as exc:
        Asker(sc).ask("can B activate Effect Veiler targeting Judgment Dragon after A declares the end of main phase 1")
    assert "Test Binder, effect 1, continuous:" in exc.value.message


def test_ygo_continuous_part_naming_the_hand_keeps_the_refusal():
    card = {**BINDER, "effects": [{"kind": "continuous", "summary": "a permission",
                                   "unmodelled": ["continuous: You can Set this card from your hand as a Spell."]}]}
    sc = _ygo(VEILER + [{"card": "Test Binder", "controller": "B", "zone": "hand"}], custom_cards=[card])
    with pytest.raises(NotModelled):
        Asker(sc).ask("can B activate Effect Veiler targeting Judgment Dragon after A declares the end of main phase 1")
