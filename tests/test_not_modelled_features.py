"""Scenario features that are read and checked but that no rule uses yet are
refused as not modelled (exit 4), never answered as if they were absent."""

from __future__ import annotations

import pytest

from logic.errors import NotModelled
from logic.scenario import from_data


def _mtg(**extra: object) -> dict[str, object]:
    return {"game": "mtg", "players": ["Alice", "Bob", "Carol", "Dan"], "active_player": "Alice",
            "phase": "main1", "cards": [{"card": "Grizzly Bears", "controller": "Carol", "zone": "hand"}], **extra}


def test_two_headed_giant_teams_are_refused() -> None:
    # CR 805.4: the teammate may cast a sorcery in the shared main phase; the
    # engine would answer No as if Carol played alone.
    with pytest.raises(NotModelled, match="team play"):
        from_data(_mtg(teams=[["Alice", "Carol"], ["Bob", "Dan"]]), "t")


def test_teams_of_one_are_ordinary_play() -> None:
    sc = from_data(_mtg(teams=[["Alice"], ["Bob"], ["Carol"], ["Dan"]]), "t")
    assert sc.teams == [["Alice"], ["Bob"], ["Carol"], ["Dan"]]
