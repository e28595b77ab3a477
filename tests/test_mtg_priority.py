"""Priority and the stack in Magic, on the shared kernel (CR 117; CR 117.1): who acts after an action, a pass, a resolution; one object
resolving at a time; N players in turn order with the active player in any
seat."""

from __future__ import annotations

import pytest

from tests.mtg_util import asker, card, got, scenario


def test_caster_keeps_priority():
    """CR 117.3c; CR 117.3c: after casting a spell its caster receives priority."""
    sc = scenario([card("Lightning Bolt", "Alice", "hand")])
    assert got(sc, "who has priority after Alice casts Lightning Bolt targeting Bob") == "Alice"
    assert got(sc, "what is on the stack after Alice casts Lightning Bolt targeting Bob") == ["Lightning Bolt"]


def test_after_resolution_the_active_player_has_priority():
    """CR 117.3b; CR 117.3b: after an object resolves, the active player receives
    priority -- also when the non-active player cast it."""
    sc = scenario([card("Shock", "Bob", "hand")], history=["Alice passes", "Bob casts Shock targeting Alice"])
    a = asker(sc)
    assert got(a, "who has priority after Bob passes") == "Alice"
    assert got(a, "does Shock resolve after Alice passes") == "yes"


def test_only_the_top_object_resolves():
    """CR 117.4, 405.5; CR 117.4: when all pass, only the top object resolves and
    players receive priority again before the next."""
    cards = [card("Grizzly Bears", "Alice", "battlefield"), card("Giant Growth", "Alice", "hand"),
             card("Lightning Bolt", "Bob", "hand")]
    sc = scenario(cards, history=["Alice casts Giant Growth targeting Grizzly Bears", "Alice passes",
                                  "Bob casts Lightning Bolt targeting Grizzly Bears", "Bob passes", "Alice passes"])
    a = asker(sc)
    assert got(a, "what is on the stack now") == ["Giant Growth"]
    assert got(a, "who has priority now") == "Alice"


def test_illegal_target_on_resolution():
    """CR 608.2b: the Bolt kills the Bears (state-based action, CR 704.5g), so
    Giant Growth, its only target gone, does not resolve."""
    cards = [card("Grizzly Bears", "Alice", "battlefield"), card("Giant Growth", "Alice", "hand"),
             card("Lightning Bolt", "Bob", "hand")]
    sc = scenario(cards, history=["Alice casts Giant Growth targeting Grizzly Bears", "Alice passes",
                                  "Bob casts Lightning Bolt targeting Grizzly Bears", "Bob passes", "Alice passes",
                                  "Alice passes"])
    assert got(sc, "does Giant Growth resolve after Bob passes") == "no"


def test_giant_growth_in_response_saves_the_bears():
    """CR 117.1a, 405.5: an instant cast in response resolves first."""
    cards = [card("Grizzly Bears", "Alice", "battlefield"), card("Giant Growth", "Alice", "hand"),
             card("Lightning Bolt", "Bob", "hand")]
    sc = scenario(cards, history=["Alice passes", "Bob casts Lightning Bolt targeting Grizzly Bears", "Bob passes",
                                  "Alice casts Giant Growth targeting Grizzly Bears", "Alice passes", "Bob passes",
                                  "Alice passes", "Bob passes"])
    assert got(sc, "what is on the stack now") == []
    assert got(sc, "can Alice declare attackers with Grizzly Bears before the end step") == "yes"


def test_passing_on_an_empty_stack_ends_the_step():
    """CR 117.4; CR 117.4: all players pass in succession on an empty stack: the step ends."""
    sc = scenario([card("Lightning Bolt", "Bob", "hand")], phase="upkeep", history=["Alice passes"])
    assert got(sc, "does the upkeep end after Bob passes") == "yes"
    sc = scenario([card("Lightning Bolt", "Bob", "hand")], phase="upkeep")
    assert got(sc, "does the upkeep end after Alice passes") == "no"


@pytest.mark.parametrize(
    "players, active, order",
    [
        (["Alice", "Bob", "Carol"], "Alice", ["Bob", "Carol"]),
        (["Alice", "Bob", "Carol", "Dave"], "Carol", ["Dave", "Alice", "Bob"]),
        (["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"], "Erin", ["Frank", "Alice", "Bob", "Carol", "Dave"]),
    ],
)
def test_priority_passes_in_turn_order(players, active, order):
    """CR 117.3d, 101.4; CR 117.3d: a player who passes gives priority to the next
    player in turn order, starting from any seat of the active player."""
    sc = scenario([card("Lightning Bolt", active, "hand")], players=players, active=active,
                  history=[f"{active} casts Lightning Bolt targeting {order[0]}"])
    history = list(sc["history"])
    passer = active
    for nxt in order:
        sc["history"] = history
        assert got(sc, f"who has priority after {passer} passes") == nxt
        history = history + [f"{passer} passes"]
        passer = nxt


def test_all_players_must_pass_in_succession():
    """CR 117.4: with four players the Bolt resolves only after all four pass
    in succession; the active player then has priority (117.3b)."""
    players = ["Alice", "Bob", "Carol", "Dave"]
    sc = scenario([card("Lightning Bolt", "Carol", "hand")], players=players, active="Bob",
                  history=["Bob passes", "Carol casts Lightning Bolt targeting Alice", "Carol passes", "Dave passes",
                           "Alice passes"])
    a = asker(sc)
    assert got(a, "what is on the stack now") == ["Lightning Bolt"]
    assert got(a, "does Lightning Bolt resolve after Bob passes") == "yes"
    assert got(a, "who has priority after Bob passes") == "Bob"
