"""The Magic turn: which steps give priority, their turn-based actions, the
steps that are skipped or added (CR 500-514; CR 117.3a, 502.4, 514.3)."""

from __future__ import annotations

import pytest

from tests.mtg_util import asker, card, got, scenario

BOLT_BOB = card("Lightning Bolt", "Bob", "hand")


@pytest.mark.parametrize(
    "phase, expected",
    [
        ("untap", "nobody"),  # CR 502.4
        ("upkeep", "Alice"),  # CR 503, 117.3a
        ("draw", "Alice"),  # CR 504.2, after the draw (504.1)
        ("main1", "Alice"),  # CR 505, 117.3a
        ("combat.beginning", "Alice"),  # CR 507.1
        ("combat.attackers", "Alice"),  # CR 508.2 (after the declaration: here of no attackers, 508.8)
        ("combat.end", "Alice"),  # CR 511.2
        ("main2", "Alice"),
        ("end", "Alice"),  # CR 513.2
        ("cleanup", "nobody"),  # CR 514.3
    ],
)
def test_who_has_priority_when_a_step_begins(phase, expected):
    """CR 117.3a, 502.4, 514.3; CR 117.3a, 502.4, 514.3: the active player receives priority at
    the start of each step, except in the untap and (normally) cleanup steps."""
    sc = scenario([BOLT_BOB], phase=phase)
    if phase in ("combat.attackers", "combat.end"):
        sc["attack"] = []  # a combat position says who attacks (docs/scenarios.md)
    assert got(sc, "who has priority now") == expected


def test_steps_follow_in_order_when_all_pass():
    """CR 500.1, 117.4: all players pass on an empty stack, the step ends and
    the next begins; the untap step gives nobody priority and moves on."""
    sc = scenario([BOLT_BOB], phase="untap")
    assert got(sc, "which point comes next now") == "upkeep"
    sc = scenario([BOLT_BOB], phase="upkeep", history=["Alice passes"])
    assert got(sc, "which point comes next after Bob passes") == "draw"
    sc = scenario([BOLT_BOB], phase="end", history=["Alice passes"])
    assert got(sc, "which point comes next after Bob passes") == "cleanup"


def test_priority_received_in_the_declare_attackers_step_after_the_declaration():
    """CR 508.1, 508.2: attackers are declared (a turn-based action) before the
    active player receives priority in the declare attackers step."""
    sc = scenario([card("Grizzly Bears", "Alice", "battlefield"), BOLT_BOB], phase="combat.beginning",
                  history=["Alice passes"])
    assert got(sc, "who receives priority after Alice declares attackers with Grizzly Bears") == "Alice"


def test_no_attackers_skips_blockers_and_damage():
    """CR 508.8: with no attackers declared, the declare blockers and combat
    damage steps are skipped."""
    sc = scenario([card("Grizzly Bears", "Alice", "battlefield"), BOLT_BOB], phase="combat.beginning",
                  history=["Alice declares no attackers", "Alice passes"])
    assert got(sc, "which point comes next after Bob passes") == "combat.end"


def test_attackers_lead_to_blockers_then_damage():
    """CR 508.8, 509, 510: with an attacker the declare blockers step follows,
    then the combat damage step (no first strike in combat, CR 510.4)."""
    sc = scenario([card("Grizzly Bears", "Alice", "battlefield"), BOLT_BOB], phase="combat.beginning",
                  history=["Alice declares attackers with Grizzly Bears", "Alice passes"])
    assert got(sc, "which point comes next after Bob passes") == "combat.blockers"
    sc["history"] += ["Bob passes", "Bob declares no blockers", "Alice passes"]
    assert got(sc, "which point comes next after Bob passes") == "combat.damage"


def test_first_strike_damage_step_only_with_first_strike():
    """CR 510.4: a first-strike combat damage step exists exactly when an
    attacking or blocking creature has first strike or double strike."""
    cards = [card("White Knight", "Alice", "battlefield"), card("Grizzly Bears", "Bob", "battlefield")]
    sc = scenario(cards, phase="combat.beginning",
                  history=["Alice declares attackers with White Knight", "Alice passes", "Bob passes",
                           "Bob declares blockers: Grizzly Bears blocks White Knight", "Alice passes"])
    assert got(sc, "which point comes next after Bob passes") == "combat.first_strike_damage"
    sc["history"] += ["Bob passes", "first-strike damage is dealt", "Alice passes"]
    assert got(sc, "which point comes next after Bob passes") == "combat.damage"


def test_cleanup_gives_no_priority_without_triggers():
    """CR 514.3: normally nobody receives priority in the cleanup step; the turn ends."""
    sc = scenario([BOLT_BOB], phase="end", history=["Alice passes"])
    assert got(sc, "who receives priority after Bob passes") == "nobody"
    assert got(sc, "can Bob cast Lightning Bolt during the cleanup step") == "no"


DISCARD_TRIGGER = {
    "name": "Test Mourner",
    "type_line": "Creature — Human",
    "power": 1,
    "toughness": 1,
    "text": "Whenever you discard a card, you gain 1 life.",
}


def _eight_cards() -> list[dict]:
    return [card("Forest", "Alice", "hand", id=f"forest{i}") for i in range(8)]


def test_cleanup_loop_when_something_triggers():
    """CR 514.1, 514.3a: discarding to hand size triggers an ability; it goes
    on the stack and the active player receives priority in the cleanup step;
    once all pass with an empty stack another cleanup step begins."""
    cards = [card("Test Mourner", "Alice", "battlefield"), BOLT_BOB] + _eight_cards()
    sc = scenario(cards, phase="end", history=["Alice passes", "Bob passes"], custom=[DISCARD_TRIGGER])
    a = asker(sc)
    assert got(a, "what is on the stack after Alice discards forest0 for the hand size limit") == ["Test Mourner"]
    assert got(a, "who has priority after Alice discards forest0 for the hand size limit") == "Alice"
    assert got(a, "can Bob cast Lightning Bolt during the cleanup step") == "yes"
    sc["history"] += ["Alice discards forest0 for the hand size limit", "Alice passes", "Bob passes",
                      "Test Mourner resolves", "Alice passes"]
    assert got(sc, "which point comes next after Bob passes") == "cleanup"


def test_cleanup_discard_without_trigger_gives_no_priority():
    """CR 514.1, 514.3: discarding to hand size alone gives nobody priority."""
    cards = [BOLT_BOB] + _eight_cards()
    sc = scenario(cards, phase="end", history=["Alice passes", "Bob passes"])
    assert got(sc, "who has priority after Alice discards forest0 for the hand size limit") == "nobody"
