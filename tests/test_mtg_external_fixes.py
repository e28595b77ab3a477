"""Regression tests for wrong answers found by the external Magic corpus
(tests/corpus/external/mtg-cr-examples.yaml, mtg-engine-tests.yaml;
/work/reports/corpus-mtg-cr.md)."""

from __future__ import annotations

import pytest

from tests.mtg_util import card, got, scenario

FOUR = ("Alice", "Bob", "Carol", "Dave")


def _hands(owner: str, n: int) -> list[dict]:
    return [card("Island", owner, "hand", id=f"{owner[0].lower()}{i}") for i in range(1, n + 1)]


# ---------------------------------------------------------------- 4: an asked event that can never happen
@pytest.mark.parametrize("players, active, other", [
    (("Alice", "Bob"), "Alice", "Bob"),
    (("Alice", "Bob"), "Bob", "Alice"),
    (FOUR, "Carol", "Dave"),
    (FOUR, "Alice", "Carol"),
])
def test_nonactive_player_never_discards_to_hand_size(players, active, other):
    """CR 514.1: only the active player discards to the maximum hand size.  The
    asked event of a can question that can never happen is the answer No (only
    <when> and history events are premises, DESIGN.md "Premises")."""
    sc = scenario(_hands(other, 9), phase="end", players=players, active=active,
                  history=[f"{p} passes" for p in players[players.index(active):] + players[:players.index(active)]])
    x = other[0].lower()
    assert got(sc, f"can {other} discard {x}9 for the hand size limit now") == "no"
    assert got(sc, f"must {other} discard {x}9 for the hand size limit now") == "no"


def test_impossible_premise_is_still_an_error():
    """DESIGN.md "Premises": the same event in <when> is a bad premise (exit 2)."""
    from logic.errors import InputError

    sc = scenario(_hands("Bob", 9), phase="end", history=["Alice passes", "Bob passes"])
    with pytest.raises(InputError):
        got(sc, "can Alice pass after Bob discards b9 for the hand size limit")
