"""Split second (CR 702.61): while such a spell is on the stack no other
spells and no non-mana abilities, but mana abilities and special actions."""

from __future__ import annotations

from tests.mtg_util import ask, card, got, rules, scenario


def _shock_on_stack(extra: list[dict]) -> dict:
    cards = [card("Sudden Shock", "Bob", "hand"), card("Grizzly Bears", "Alice", "battlefield")] + extra
    return scenario(cards, history=["Alice passes", "Bob casts Sudden Shock targeting Grizzly Bears"])


def test_no_spell_in_response():
    """CR 702.61a: Giant Growth cannot be cast while Sudden Shock is on the stack."""
    sc = _shock_on_stack([card("Giant Growth", "Alice", "hand")])
    assert got(sc, "can Alice cast Giant Growth targeting Grizzly Bears in response to Bob casting Sudden Shock") == "no"
    assert "mtg.split_second" in rules(ask(sc, "can Alice cast Giant Growth in response to Bob casting Sudden Shock"))


def test_no_activated_ability_in_response():
    """CR 702.61a: nor an activated ability that is not a mana ability."""
    sc = _shock_on_stack([card("Prodigal Sorcerer", "Alice", "battlefield")])
    assert got(sc, "can Alice activate Prodigal Sorcerer in response to Bob casting Sudden Shock") == "no"


def test_mana_abilities_still_allowed():
    """CR 702.61b: mana abilities can be activated while it is on the stack."""
    sc = _shock_on_stack([card("Llanowar Elves", "Alice", "battlefield")])
    assert got(sc, "can Alice activate Llanowar Elves in response to Bob casting Sudden Shock") == "yes"


def test_special_actions_still_allowed():
    """CR 702.61b, 116.2b: turning a face-down creature face up is a special
    action and stays possible."""
    sc = _shock_on_stack([card("Exalted Angel", "Alice", "battlefield", position="face_down")])
    assert got(sc, "can Alice turn Exalted Angel face up in response to Bob casting Sudden Shock") == "yes"


def test_without_split_second_a_response_is_possible():
    """CR 117.1a: against Shock (no split second) Giant Growth can be cast in response."""
    cards = [card("Shock", "Bob", "hand"), card("Grizzly Bears", "Alice", "battlefield"),
             card("Giant Growth", "Alice", "hand")]
    sc = scenario(cards, history=["Alice passes", "Bob casts Shock targeting Grizzly Bears"])
    assert got(sc, "can Alice cast Giant Growth targeting Grizzly Bears in response to Bob casting Shock") == "yes"
