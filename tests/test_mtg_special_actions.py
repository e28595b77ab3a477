"""Special actions (CR 116): playing a land, turning a face-down permanent
face up; conceding (CR 104.3a)."""

from __future__ import annotations

from tests.mtg_util import asker, card, got, scenario


def test_land_keeps_priority_and_uses_no_stack():
    """CR 116.2a, 117.3c; CR 117.1a, 305.1, CR 117.3c: playing a land is a special action."""
    a = asker(scenario([card("Forest", "Alice", "hand")]))
    assert got(a, "who has priority after Alice plays Forest") == "Alice"
    assert got(a, "what is on the stack after Alice plays Forest") == []


def test_land_timing():
    """CR 305.1: own main phase, empty stack, with priority."""
    sc = scenario([card("Forest", "Alice", "hand")], phase="upkeep")
    assert got(sc, "can Alice play Forest now") == "no"
    sc = scenario([card("Forest", "Bob", "hand")])
    assert got(sc, "can Bob play Forest during main phase 1") == "no"
    sc = scenario([card("Forest", "Alice", "hand"), card("Lightning Bolt", "Bob", "hand")],
                  history=["Alice passes", "Bob casts Lightning Bolt targeting Alice"])
    assert got(sc, "can Alice play Forest in response to Bob casting Lightning Bolt") == "no"


def test_one_land_per_turn():
    """CR 305.2: one land per turn."""
    sc = scenario([card("Forest", "Alice", "hand"), card("Island", "Alice", "hand")],
                  history=["Alice plays Forest"])
    assert got(sc, "can Alice play Island now") == "no"


def test_turn_face_up_any_time_with_priority():
    """CR 116.2b, 702.37e; CR 117.4: turning a face-down permanent face up is a
    special action; the player keeps priority; it uses no stack."""
    cards = [card("Exalted Angel", "Alice", "battlefield", position="face_down"),
             card("Lightning Bolt", "Bob", "hand")]
    sc = scenario(cards, phase="combat.beginning")
    a = asker(sc)
    assert got(a, "who has priority after Alice turns Exalted Angel face up") == "Alice"
    assert got(a, "what is on the stack after Alice turns Exalted Angel face up") == []


def test_turning_face_up_breaks_the_succession():
    """CR 117.4, CR 117.4: a special action between passes means the step does
    not end with the next pass."""
    cards = [card("Exalted Angel", "Bob", "battlefield", position="face_down")]
    sc = scenario(cards, phase="upkeep", history=["Alice passes", "Bob turns Exalted Angel face up"])
    assert got(sc, "does the upkeep end after Bob passes") == "no"



def test_sorcery_speed_creature_and_flash():
    """CR 302.1, 702.8a: a creature spell only at sorcery speed, unless it has flash."""
    cards = [card("Grizzly Bears", "Bob", "hand"), card("Snapcaster Mage", "Bob", "hand")]
    sc = scenario(cards, phase="end")
    a = asker(sc)
    assert got(a, "can Bob cast Grizzly Bears during the end step") == "no"
    assert got(a, "can Bob cast Snapcaster Mage during the end step") == "yes"


def test_concede_at_any_time():
    """CR 104.3a: a player may concede at any time, even without priority."""
    sc = scenario([card("Lightning Bolt", "Alice", "hand")], history=["Alice casts Lightning Bolt targeting Bob"])
    assert got(sc, "can Bob concede now") == "yes"
