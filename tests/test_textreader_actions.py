"""The card-text reader's one resolution action: an ATK/DEF change read as
`atk_change` without an amount (logic/textreader.py, stat_change_actions), so the
Damage Step rule (DSR: effects that directly change ATK/DEF) applies to cards
read from text.  Their resolution stays unknown (logic/facts.py, resolution_unknown).
Texts below are invented in the official style, not copied."""

from __future__ import annotations

import pytest

from logic import textreader as T
from logic.cards import Effect
from logic.facts import resolution_unknown


def _actions(text: str, card_type: str = "trap", prop: str = "normal") -> list[list[str]]:
    return [T.stat_change_actions(u) for u in T.units_of(text, card_type, card_type, prop, False)]


@pytest.mark.parametrize("text", [
    "Target 1 face-up monster on the field; it gains 400 ATK until the end of this turn.",
    "Target 1 face-up monster on the field; until the end of this turn, that target loses 300 ATK, "
    "but cannot be targeted or destroyed by other card effects.",
    "Increase the DEF of 1 face-up monster on the field by 300 points until the end of this turn.",
    # an ATK change the resolution leads to ("and if you do"): Aegaion the Sea Castrum's FAQ
    # (tests/corpus/classifications) says it may be activated in the Damage Step
    "Target 1 monster; destroy it, and if you do, your monsters gain 300 ATK.",
    "Banish 1 card from your opponent's GY, and if you do, this card's ATK becomes equal to its ATK.",
    "Halve the ATK of all monsters your opponent controls.",
    # what it does later, in the End Phase, is not part of the change (Limiter Removal)
    "Double the ATK of all monsters you control. During the End Phase of this turn, destroy them.",
])
def test_an_atk_def_change_is_read(text: str) -> None:
    assert _actions(text) == [["atk_change"]]


@pytest.mark.parametrize("text", [
    "If a monster gains ATK: Draw 1 card.",                                   # the event, not the resolution
    "Target 1 monster; destroy it, then your monsters gain 300 ATK.",  # more than an ATK change
    # a change of the monster it Summons (Powerful Rebirth, Reverse of Neos: not for that reason alone)
    "Target 1 monster in your GY; Special Summon it, and if you do, it gains 300 ATK.",
    "Target 1 face-up monster on the field; destroy that target.",
])
def test_other_resolutions_are_not_read(text: str) -> None:
    assert _actions(text) == [[]]


def test_an_uncomputed_atk_change_leaves_the_resolution_unknown() -> None:
    assert resolution_unknown(Effect(index=1, speed=2, kind="card", actions=("atk_change",)))
    assert not resolution_unknown(Effect(index=1, speed=2, kind="card", actions=("atk_change",), amount=300))
    assert not resolution_unknown(Effect(index=1, speed=2, kind="card", actions=("destroy_target",)))
    assert resolution_unknown(Effect(index=1, speed=2, kind="card"))
