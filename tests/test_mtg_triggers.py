"""Triggered abilities and state-based actions before priority (CR 117.5,
603.3, 603.3b, 704.3; CR 117.5, 704.3): APNAP order with two and four players,
the active player in different seats, each player ordering their own."""

from __future__ import annotations

from tests.mtg_util import asker, card, got, scenario


def _warden(owner: str, ident: str) -> dict:
    return card("Soul Warden", owner, "battlefield", id=ident)


def test_trigger_goes_on_the_stack_before_priority():
    """CR 117.5, 603.3; CR 117.5, 704.3: when the creature spell resolves, Soul Warden's
    ability is put on the stack before the active player receives priority."""
    sc = scenario([_warden("Alice", "w"), card("Grizzly Bears", "Alice", "hand")],
                  history=["Alice casts Grizzly Bears", "Alice passes", "Bob passes"])
    a = asker(sc)
    assert got(a, "what is on the stack now") == ["w"]
    assert got(a, "who has priority now") == "Alice"


def test_apnap_two_players():
    """CR 603.3b: the active player's trigger goes on the stack first, so the
    non-active player's resolves first."""
    sc = scenario([_warden("Alice", "wa"), _warden("Bob", "wb"), card("Grizzly Bears", "Alice", "hand")],
                  history=["Alice casts Grizzly Bears", "Alice passes", "Bob passes"])
    a = asker(sc)
    assert got(a, "what is on the stack now") == ["wa", "wb"]
    assert got(a, "in what order do wa and wb go on the stack") == ["wa", "wb"]


def test_apnap_two_players_bob_active():
    """CR 603.3b with Bob the active player: Bob's trigger first."""
    sc = scenario([_warden("Alice", "wa"), _warden("Bob", "wb"), card("Grizzly Bears", "Bob", "hand")],
                  active="Bob", history=["Bob casts Grizzly Bears", "Bob passes", "Alice passes"])
    assert got(sc, "what is on the stack now") == ["wb", "wa"]


def test_apnap_four_players_active_in_third_seat():
    """CR 603.3b, 101.4: four players, Carol active: Carol's, then Dave's,
    Alice's and Bob's triggers go on the stack, in that order."""
    players = ["Alice", "Bob", "Carol", "Dave"]
    cards = [_warden(p, f"w_{p.lower()}") for p in players] + [card("Grizzly Bears", "Carol", "hand")]
    sc = scenario(cards, players=players, active="Carol",
                  history=["Carol casts Grizzly Bears", "Carol passes", "Dave passes", "Alice passes", "Bob passes"])
    assert got(sc, "what is on the stack now") == ["w_carol", "w_dave", "w_alice", "w_bob"]


def test_each_player_orders_their_own_triggers():
    """CR 603.3b: a player with several triggers puts them on the stack in any
    order they choose; every order is a legal continuation."""
    cards = [_warden("Alice", "a1"), _warden("Alice", "a2"), _warden("Bob", "b1"),
             card("Grizzly Bears", "Alice", "hand")]
    sc = scenario(cards, history=["Alice casts Grizzly Bears", "Alice passes", "Bob passes"])
    a = asker(sc)
    stacks = got(a, "what is on the stack now")
    assert sorted(map(tuple, stacks)) == [("a1", "a2", "b1"), ("a2", "a1", "b1")]
    assert got(a, "in what order do a1 and a2 go on the stack") == [["a1", "a2"], ["a2", "a1"]]


def test_state_based_actions_before_triggers():
    """CR 704.3, 117.5: the Bolt resolves, the Bears die as a state-based
    action, and then Blood Artist's trigger goes on the stack."""
    cards = [card("Grizzly Bears", "Alice", "battlefield"), card("Blood Artist", "Alice", "battlefield"),
             card("Lightning Bolt", "Bob", "hand")]
    sc = scenario(cards, history=["Alice passes", "Bob casts Lightning Bolt targeting Grizzly Bears",
                                  "Bob passes", "Alice passes"])
    assert got(sc, "what is on the stack now") == ["Blood Artist"]


def test_dies_trigger_looks_back():
    """CR 603.10a: Blood Artist dying together with another creature (Wrath of
    God) triggers for both."""
    cards = [card("Grizzly Bears", "Bob", "battlefield"), card("Blood Artist", "Bob", "battlefield"),
             card("Wrath of God", "Alice", "hand")]
    sc = scenario(cards, history=["Alice casts Wrath of God", "Alice passes", "Bob passes"])
    assert got(sc, "what is on the stack now") == ["Blood Artist", "Blood Artist"]


def test_upkeep_trigger_then_priority():
    """CR 503.1, 117.5: "at the beginning of your upkeep" triggers when the
    upkeep begins and is on the stack when the active player gets priority."""
    sc = scenario([card("Phyrexian Arena", "Alice", "battlefield")], phase="untap")
    a = asker(sc)
    assert got(a, "what is on the stack during the upkeep") == ["Phyrexian Arena"]
    assert got(a, "who has priority during the upkeep") == "Alice"


def test_untap_step_trigger_waits_for_upkeep():
    """CR 502.4: nobody receives priority in the untap step; it moves on."""
    sc = scenario([card("Phyrexian Arena", "Bob", "battlefield")], phase="untap")
    assert got(sc, "what is on the stack during the upkeep") == []
