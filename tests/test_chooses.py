"""'who chooses the order of X and Y' when X and Y never go on one chain
(queries/answer.py, _chooses_separate_chains): "during your X Phase" effects of
the turn player are ordered by the turn player (the phase-effect guides, YP "End Phase"); other effects on
separate chains are refused rather than answered."""

from __future__ import annotations

from typing import Any

from logic.scenario import from_data
from queries.answer import Asker


def _ask(cards: list[dict[str, Any]], q: str) -> Any:
    data = {"game": "ygo", "players": ["A", "B"], "turn_player": "A", "phase": "end", "cards": cards}
    return Asker(from_data(data, "test scenario")).ask(q)


JD = {"card": "Judgment Dragon", "controller": "A", "zone": "monster", "position": "face_up_attack"}
LYLA = {"card": "Lyla, Lightsworn Sorceress", "controller": "A", "zone": "monster", "position": "face_up_attack"}


def test_turn_player_orders_own_end_phase_effects() -> None:
    ans = _ask([JD, LYLA], "who chooses the order of Judgment Dragon and Lyla, Lightsworn Sorceress")
    assert ans.answer == "A"
    assert [b["rule"] for b in ans.because] == ["ygo.phase_effect.controller_orders"]


def test_nobody_when_one_is_never_activated() -> None:
    veiler = {"card": "Effect Veiler", "controller": "B", "zone": "hand"}  # Main Phase only
    assert _ask([JD, veiler], "who chooses the order of Judgment Dragon and Effect Veiler").answer == "nobody"
