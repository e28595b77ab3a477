"""Mana abilities (CR 605) and the casual house rule that ignores them for
"passing in succession" (CR 117.4; CR 117.4)."""

from __future__ import annotations

from tests.mtg_util import asker, card, got, scenario


def _elves(variants: dict | None = None) -> dict:
    return scenario([card("Llanowar Elves", "Bob", "battlefield")], phase="upkeep",
                    history=["Alice passes", "Bob activates Llanowar Elves"], variants=variants)


def test_mana_ability_does_not_use_the_stack():
    """CR 605.3b: the ability resolves at once; nothing is on the stack and
    the player keeps priority (CR 117.3c)."""
    a = asker(_elves())
    assert got(a, "what is on the stack now") == []
    assert got(a, "who has priority now") == "Bob"


def test_mana_ability_breaks_the_succession():
    """CR 117.4; CR 117.4: activating a mana ability is an action between passes:
    Bob's pass gives priority to Alice and the upkeep does not end."""
    a = asker(_elves())
    assert got(a, "does the upkeep end after Bob passes") == "no"
    assert got(a, "who has priority after Bob passes") == "Alice"


def test_house_rule_ignores_mana_abilities():
    """Variant mana_abilities: ignored (a casual house rule): the mana ability
    does not count between the passes, so Bob's pass ends the upkeep."""
    a = asker(_elves({"mana_abilities": "ignored"}))
    assert got(a, "does the upkeep end after Bob passes") == "yes"


def test_tapped_mana_source_cannot_be_used_again():
    """CR 107.5, 602.2b: the tap cost cannot be paid twice."""
    assert got(_elves(), "can Bob activate Llanowar Elves now") == "no"


def test_summoning_sick_creature_cannot_tap_for_mana():
    """CR 302.6: a creature's {T} ability needs it to have been controlled since the turn began."""
    sc = scenario([card("Llanowar Elves", "Alice", "battlefield", summoning_sick=True)])
    assert got(sc, "can Alice activate Llanowar Elves now") == "no"
    sc = scenario([card("Forest", "Alice", "battlefield"), card("Llanowar Elves", "Alice", "battlefield")])
    assert got(sc, "can Alice activate Forest now") == "yes"


def test_dark_ritual_is_a_spell():
    """CR 605.5b: Dark Ritual adds mana but is a spell: it uses the stack."""
    sc = scenario([card("Dark Ritual", "Alice", "hand")])
    assert got(sc, "what is on the stack after Alice casts Dark Ritual") == ["Dark Ritual"]
