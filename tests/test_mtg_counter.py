"""Countering spells and abilities (CR 701.6) on the shared stack: a link
below the top leaves the stack (kernel hook leaves_chain)."""

from __future__ import annotations

from tests.mtg_util import asker, card, got, scenario


def test_counterspell_removes_the_spell():
    """CR 701.6a: the countered spell leaves the stack without resolving."""
    cards = [card("Divination", "Alice", "hand"), card("Counterspell", "Bob", "hand")]
    sc = scenario(cards, history=["Alice casts Divination", "Alice passes",
                                  "Bob casts Counterspell targeting Divination", "Bob passes"])
    a = asker(sc)
    assert got(a, "what is on the stack after Alice passes") == []
    assert got(a, "does Divination resolve after Alice passes") == "no"


def test_counter_the_counter():
    """CR 701.6a, 405.5: a counterspell countered in turn; the original spell resolves."""
    cards = [card("Lightning Bolt", "Alice", "hand"), card("Counterspell", "Bob", "hand"),
             card("Negate", "Alice", "hand")]
    sc = scenario(cards, history=["Alice casts Lightning Bolt targeting Bob", "Alice passes",
                                  "Bob casts Counterspell targeting Lightning Bolt",
                                  "Alice casts Negate targeting Counterspell", "Alice passes", "Bob passes"])
    a = asker(sc)
    assert got(a, "what is on the stack now") == ["Lightning Bolt"]


def test_counter_a_spell_further_down():
    """CR 701.6a: Cancel targets the bottom spell; the spell above it moves down."""
    cards = [card("Giant Growth", "Alice", "hand"), card("Lightning Bolt", "Alice", "hand"),
             card("Cancel", "Bob", "hand"), card("Grizzly Bears", "Alice", "battlefield")]
    sc = scenario(cards, history=["Alice casts Lightning Bolt targeting Bob",
                                  "Alice casts Giant Growth targeting Grizzly Bears", "Alice passes",
                                  "Bob casts Cancel targeting Lightning Bolt", "Bob passes", "Alice passes"])
    assert got(sc, "what is on the stack now") == ["Giant Growth"]


def test_negate_cannot_counter_a_creature_spell():
    """Negate's target must be a noncreature spell (CR 115.1)."""
    cards = [card("Grizzly Bears", "Alice", "hand"), card("Negate", "Bob", "hand")]
    sc = scenario(cards, history=["Alice casts Grizzly Bears", "Alice passes"])
    assert got(sc, "can Bob cast Negate in response to Alice casting Grizzly Bears") == "no"


def test_stifle_counters_a_triggered_ability():
    """CR 701.6a: Stifle counters Soul Warden's ability on the stack; mana
    abilities never use the stack, so they cannot be targeted (CR 605.3b)."""
    cards = [card("Soul Warden", "Alice", "battlefield"), card("Grizzly Bears", "Alice", "hand"),
             card("Stifle", "Bob", "hand"), card("Llanowar Elves", "Alice", "battlefield")]
    sc = scenario(cards, history=["Alice casts Grizzly Bears", "Alice passes", "Bob passes", "Alice passes"])
    a = asker(sc)
    assert got(a, "can Bob cast Stifle targeting Soul Warden now") == "yes"
    assert got(a, "what is on the stack after Bob casts Stifle targeting Soul Warden") == ["Soul Warden", "Stifle"]
    sc["history"] += ["Bob casts Stifle targeting Soul Warden", "Bob passes", "Alice passes"]
    assert got(sc, "what is on the stack now") == []
