"""Replays: a history that breaks a rule is refused with the rule named
(STYLE.md "Replays"; CR 117.1a, 307.1, 305.2)."""

from __future__ import annotations

import pytest

from logic.errors import InputError
from tests.mtg_util import asker, card, scenario


def test_sorcery_on_the_opponents_turn_is_refused():
    sc = scenario([card("Divination", "Bob", "hand")], phase="end", history=["Alice passes", "Bob casts Divination"])
    with pytest.raises(InputError) as exc:
        asker(sc)
    assert "history[1]" in str(exc.value)
    assert "mtg.timing.sorcery" in str(exc.value)


def test_second_land_is_refused():
    sc = scenario([card("Forest", "Alice", "hand"), card("Island", "Alice", "hand")],
                  history=["Alice plays Forest", "Alice plays Island"])
    with pytest.raises(InputError) as exc:
        asker(sc)
    assert "mtg.land.once_per_turn" in str(exc.value)


def test_legal_history_is_accepted():
    sc = scenario([card("Forest", "Alice", "hand"), card("Grizzly Bears", "Alice", "hand")],
                  history=["Alice plays Forest", "Alice casts Grizzly Bears", "Alice passes", "Bob passes"])
    a = asker(sc)
    assert a.ask("who has priority now").answer == "Alice"
