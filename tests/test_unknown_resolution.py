"""An effect whose resolution is not modelled (a card read from text, or a custom
card without `actions`) makes a question "not modelled" only when its resolution
could change the answer: for "can/must X" that is a resolution that comes before
X with the question's scope still open after it (queries/answer.py,
_check_unknown_resolutions; encodings/core/query.lp, resolves_unknown_first)."""

from __future__ import annotations

from typing import Any

import pytest

from logic.errors import NotModelled
from logic.scenario import from_data
from queries.answer import Asker

# A Quick-Play Spell whose resolution is unknown to the model (no `actions`).
MYSTERY = {
    "name": "Test Mystery", "card_type": "spell", "property": "quickplay",
    "text": "Target 1 monster on the field; apply an effect nobody has modelled.",
    "effects": [{"kind": "card", "target": {"zone": "monster"}, "summary": "an unmodelled effect"}],
}


def _scenario() -> dict[str, Any]:
    cards = [{"card": "Test Mystery", "controller": "A", "zone": "hand"},
             {"card": "Summoned Skull", "controller": "B", "zone": "monster", "position": "face_up_attack"},
             {"card": "Mystical Space Typhoon", "controller": "B", "zone": "spell_trap", "position": "face_down"},
             {"card": "Kuriboh", "controller": "A", "zone": "hand"}]
    return {"game": "ygo", "players": ["A", "B"], "turn_player": "A", "phase": "main1",
            "cards": cards, "custom_cards": [MYSTERY],
            "history": ["A activates Test Mystery targeting Summoned Skull"]}


def _ask(q: str) -> Any:
    ans = Asker(from_data(_scenario(), "test scenario")).ask(q)
    return ans.verdict


def test_answer_not_depending_on_the_resolution():
    # Responding "now" happens before the unknown link resolves; its resolution ends the scope.
    assert _ask("can B activate Mystical Space Typhoon now") == "yes"
    assert _ask("can B pass now") == "yes"


def test_refused_when_the_resolution_comes_first():
    # After the unknown link resolves the game goes on within the scope: the answer depends on it.
    with pytest.raises(NotModelled):
        _ask("can A normal summon Kuriboh before the battle phase")
