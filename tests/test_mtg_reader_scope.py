"""Magic: the reader's wider trigger events (CR 603.2) and card text that can
matter only in one circumstance (logic/unmodelled.py card_scope), bounded by
solving (docs/not-modelled.md).  The cards are made up for the tests."""

from __future__ import annotations

import pytest

from logic.errors import NotModelled
from logic.unmodelled import card_scope
from tests.mtg_util import ask, card, got, scenario

FOUR = ("Alice", "Bob", "Carol", "Dave")


def _creature(name: str, text: str) -> dict:
    return {"name": name, "type_line": "Creature — Test", "power": 2, "toughness": 2, "text": text}


# ---------------------------------------------------------------- trigger events with subjects
@pytest.mark.parametrize("players, active, other", [(("Alice", "Bob"), "Alice", "Bob"),
                                                    (("Alice", "Bob"), "Bob", "Alice"),
                                                    (FOUR, "Carol", "Dave"), (FOUR, "Alice", "Bob")])
def test_opponents_upkeep_trigger(players, active, other):
    """CR 603.2, 503.1: "At the beginning of each opponent's upkeep" triggers on the
    upkeep of a player other than its controller only."""
    gob = _creature("Test Grudge", "At the beginning of each opponent's upkeep, you gain 1 life.")
    mine = scenario([card("Test Grudge", active, "battlefield")], phase="upkeep", players=players, active=active,
                    custom=[gob])
    assert got(mine, "what is on the stack now") == []
    theirs = scenario([card("Test Grudge", other, "battlefield")], phase="upkeep", players=players, active=active,
                      custom=[gob])
    assert got(theirs, "what is on the stack now") == ["Test Grudge"]


@pytest.mark.parametrize("phase, expected", [("main1", ["Test Surveyor"]), ("main2", [])])
def test_precombat_main_phase_trigger(phase, expected):
    """CR 505.1a, 603.2: "your precombat main phase" is the first main phase only."""
    c = _creature("Test Surveyor", "At the beginning of your precombat main phase, you gain 1 life.")
    sc = scenario([card("Test Surveyor", "Alice", "battlefield")], phase=phase, custom=[c])
    assert got(sc, "what is on the stack now") == expected


@pytest.mark.parametrize("spell, fires", [("Lightning Bolt", True), ("Grizzly Bears", False)])
def test_cast_trigger_names_its_spells(spell, fires):
    """CR 603.2, 601.2i: "Whenever you cast a noncreature spell" triggers on a
    noncreature spell only."""
    c = _creature("Test Adept", "Whenever you cast a noncreature spell, you gain 1 life.")
    sc = scenario([card("Test Adept", "Alice", "battlefield"), card(spell, "Alice", "hand")], custom=[c])
    cast = f"Alice casts {spell}" + (" targeting Bob" if spell == "Lightning Bolt" else "")
    stack = got(sc, f"what is on the stack after {cast}")
    assert stack == ([spell, "Test Adept"] if fires else [spell])


def test_colour_filtered_cast_trigger_of_any_player():
    """CR 603.2, 105.2: "Whenever a player casts a nonblack spell" -- a red spell of
    either player."""
    c = _creature("Test Imp", "Whenever a player casts a nonblack spell, Test Imp deals 1 damage to that player.")
    sc = scenario([card("Test Imp", "Alice", "battlefield"), card("Lightning Bolt", "Bob", "hand")],
                  history=["Alice passes"], custom=[c])
    assert got(sc, "what is on the stack after Bob casts Lightning Bolt targeting Alice") == \
        ["Lightning Bolt", "Test Imp"]


def test_leaves_the_battlefield_trigger():
    """CR 603.6c, 603.10a: a leaves-the-battlefield ability looks back in time."""
    c = _creature("Test Ghost", "When Test Ghost leaves the battlefield, you gain 2 life.")
    sc = scenario([card("Test Ghost", "Bob", "battlefield"), card("Lightning Bolt", "Alice", "hand")],
                  history=["Alice casts Lightning Bolt targeting Test Ghost", "Alice passes"], custom=[c])
    assert got(sc, "what is on the stack after Bob passes") == ["Test Ghost"]


# ---------------------------------------------------------------- card text that matters in one place only
def test_card_scopes():
    assert card_scope("keyword", "Morph {1}{U} (casting it face down, CR 702.37c)") == "zone:hand"
    assert card_scope("keyword", "Flashback {2}{R}") == "zone:graveyard"
    assert card_scope("keyword", "Swampwalk") == "block"
    assert card_scope("keyword", "Swampcycling {2}") is None  # not the same keyword
    assert card_scope("replacement", "If an opponent would search a library, that player searches the top four "
                                     "cards of that library instead.") == "inert"
    assert card_scope("static", "Creatures you control get +1/+1.") is None


MORPHLING = {"name": "Test Shifter", "type_line": "Creature — Shapeshifter", "power": 2, "toughness": 2,
             "text": "Morph {1}{U}"}


def test_face_down_casting_is_bounded_when_the_card_is_not_in_hand():
    """CR 702.37c: casting a card face down is done from the hand; a face-down
    permanent's question does not depend on it (the answer names it as bounded)."""
    sc = scenario([card("Test Shifter", "Bob", "battlefield", position="face_down")], phase="end",
                  history=["Alice passes"], custom=[MORPHLING])
    ans = ask(sc, "can Bob turn Test Shifter face up now")
    assert ans.verdict == "yes"
    assert any("Morph" in b for b in ans.bounded)


def test_face_down_casting_is_refused_when_the_card_is_in_hand():
    """The same text with the card in hand could matter (a way to cast it): not modelled."""
    sc = scenario([card("Test Shifter", "Alice", "hand")], active="Bob", custom=[MORPHLING])
    with pytest.raises(NotModelled):
        got(sc, "can Alice cast Test Shifter after Bob passes")


WALKER = {"name": "Test Bogwalker", "type_line": "Creature — Zombie", "power": 2, "toughness": 2,
          "text": "Swampwalk"}


def test_blocking_restriction_is_bounded_outside_combat():
    """CR 702.14, 509.1b: landwalk only restricts blocks."""
    sc = scenario([card("Test Bogwalker", "Alice", "battlefield"), card("Lightning Bolt", "Bob", "hand")],
                  history=["Alice passes"], custom=[WALKER])
    ans = ask(sc, "can Bob cast Lightning Bolt targeting Test Bogwalker now")
    assert ans.verdict == "yes" and any("Swampwalk" in b for b in ans.bounded)


# ---------------------------------------------------------------- intervening "if" (CR 603.4)
WISP = {"name": "Test Wisp", "type_line": "Enchantment", "text":
        "At the beginning of the end step, if no creatures are on the battlefield, sacrifice Test Wisp."}


@pytest.mark.parametrize("players, active", [(("Alice", "Bob"), "Bob"), (FOUR, "Dave")])
@pytest.mark.parametrize("bears, expected", [(False, ["Test Wisp"]), (True, [])])
def test_intervening_if_decides_whether_it_triggers(players, active, bears, expected):
    """CR 603.4: an ability with an intervening "if" triggers only if the condition
    holds when its event happens."""
    cards = [card("Test Wisp", "Alice", "battlefield")]
    if bears:
        cards.append(card("Grizzly Bears", active, "battlefield"))
    sc = scenario(cards, phase="end", players=players, active=active, custom=[WISP])
    assert got(sc, "what is on the stack now") == expected


def test_intervening_if_is_read():
    from logic.mtg_cards import _intervening_if

    assert _intervening_if("if twenty or more creature cards are in your graveyard") == \
        "creature,graveyard,own,ge,20"
    assert _intervening_if("If you control no creatures") == "creature,battlefield,own,le,0"
    assert _intervening_if("if an opponent has more life than you") is None


# ---------------------------------------------------------------- more of the action vocabulary
def test_tapping_an_attacker_before_combat():
    """CR 701.26a, 508.1a: a creature tapped in the beginning of combat step cannot be
    declared as an attacker; "Tap target creature" is read as tapping it."""
    tapper = {"name": "Test Warden", "type_line": "Creature — Human", "power": 1, "toughness": 1,
              "text": "{T}: Tap target creature."}
    for target, verdict in (("Grizzly Bears", "no"), ("Test Warden", "yes")):
        sc = scenario([card("Grizzly Bears", "Alice", "battlefield"), card("Test Warden", "Bob", "battlefield")],
                      phase="combat.beginning", custom=[tapper],
                      history=["Alice passes", f"Bob activates Test Warden targeting {target}", "Bob passes",
                               "Alice passes"])
        assert got(sc, "can Alice declare attackers with Grizzly Bears before main phase 2") == verdict


def test_self_pump_is_read():
    from logic.mtg_cards import _clause

    assert _clause("~ gets +2/+2 until end of turn") == "pump_self(2)"
    assert _clause("~ gets +1/+0 until end of turn") is None  # only +N/+N is modelled
