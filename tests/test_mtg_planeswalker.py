"""Planeswalkers and loyalty abilities (CR 306, 606; CR 606.3, 117.3c)."""

from __future__ import annotations

from tests.mtg_util import asker, card, events, got, scenario

JACE_CAST = ["Alice casts Jace Beleren", "Alice passes", "Bob passes"]


def _jace_resolved() -> dict:
    return scenario([card("Jace Beleren", "Alice", "hand"), card("Lightning Bolt", "Bob", "hand")],
                    history=JACE_CAST)


def test_controller_holds_priority_after_the_planeswalker_resolves():
    """CR 606.3, 117.3c, CR 117.3b: when the planeswalker has resolved, its controller
    (the active player) holds priority and may use a loyalty ability at once."""
    a = asker(_jace_resolved())
    assert got(a, "who has priority now") == "Alice"
    ans = a.ask("can Alice activate Jace Beleren now")
    assert ans.verdict == "yes"
    assert events(ans)[0].startswith("Alice activates Jace Beleren's loyalty ability")


def test_opponent_can_bolt_it_first_only_if_the_controller_passes():
    """CR 606.3, 117.3c: the opponent can destroy it with an instant before a loyalty
    ability is used only when the controller passes priority first."""
    a = asker(_jace_resolved())
    ans = a.ask("can Bob cast Lightning Bolt targeting Jace Beleren before Alice activates Jace Beleren")
    assert ans.verdict == "yes"
    # the history left Jace's resolution due (both passed, CR 608.1): the witness starts
    # with it, a game procedure in which nobody has priority; Alice's pass is the first act
    assert ans.witness[0]["event"] == "Jace Beleren resolves" and ans.witness[0]["priority"] == "nobody"
    assert [r["event"] for r in ans.witness if r["priority"] != "nobody"][0] == "Alice passes"
    # while Jace is a spell on the stack it is no planeswalker Bolt can target (CR 109.2, 115.4):
    # Bob may respond to the cast, but not by targeting Jace
    before = asker(scenario([card("Jace Beleren", "Alice", "hand"), card("Lightning Bolt", "Bob", "hand")]))
    assert got(before, "can Bob cast Lightning Bolt targeting Alice in response to Alice casting Jace Beleren") \
        == "yes"
    assert got(before, "can Bob cast Lightning Bolt targeting Jace Beleren in response to Alice casting Jace Beleren") \
        == "no"


def test_loyalty_ability_sorcery_timing():
    """CR 606.3; CR 117.1a, 305.1: not in response, not on the opponent's turn, not outside a main phase."""
    cards = [card("Jace Beleren", "Alice", "battlefield"), card("Lightning Bolt", "Bob", "hand")]
    sc = scenario(cards, history=["Alice passes", "Bob casts Lightning Bolt targeting Jace Beleren"])
    assert got(sc, "can Alice activate Jace Beleren in response to Bob casting Lightning Bolt") == "no"
    sc = scenario(cards, phase="combat.beginning")
    assert got(sc, "can Alice activate Jace Beleren now") == "no"
    sc = scenario([card("Jace Beleren", "Bob", "battlefield")])
    assert got(sc, "can Bob activate Jace Beleren during main phase 1") == "no"


def test_one_loyalty_ability_per_turn():
    """CR 606.3: only one loyalty ability of a permanent per turn."""
    sc = scenario([card("Jace Beleren", "Alice", "battlefield")],
                  history=["Alice activates Jace Beleren targeting Bob", "Alice passes", "Bob passes"])
    a = asker(sc)
    assert got(a, "who has priority now") == "Alice"
    assert got(a, "can Alice activate Jace Beleren now") == "no"


def test_bolt_destroys_the_planeswalker():
    """CR 120.3c, 704.5i: damage removes loyalty counters; with none left the
    planeswalker goes to the graveyard and its abilities can no longer be used."""
    cards = [card("Jace Beleren", "Alice", "battlefield"), card("Lightning Bolt", "Bob", "hand")]
    sc = scenario(cards, history=["Alice passes", "Bob casts Lightning Bolt targeting Jace Beleren",
                                  "Bob passes", "Alice passes"])
    assert got(sc, "can Alice activate Jace Beleren now") == "no"
