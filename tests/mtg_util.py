"""Helpers for the Magic tests: build a scenario, ask questions about it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from logic.scenario import from_data
from queries.answer import Answer, Asker


def card(name: str, controller: str, zone: str, **kw: Any) -> dict[str, Any]:
    return {"card": name, "controller": controller, "zone": zone, **kw}


def scenario(
    cards: Iterable[Mapping[str, Any]],
    phase: str = "main1",
    players: Iterable[str] = ("Alice", "Bob"),
    active: str = "Alice",
    history: Iterable[str] = (),
    custom: Iterable[Mapping[str, Any]] = (),
    variants: Mapping[str, str] | None = None,
    life: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    d: dict[str, Any] = {
        "game": "mtg",
        "players": list(players),
        "active_player": active,
        "phase": phase,
        "cards": [dict(c) for c in cards],
        "history": list(history),
    }
    if custom:
        d["custom_cards"] = [dict(c) for c in custom]
    if variants:
        d["variants"] = dict(variants)
    if life:
        d["life"] = dict(life)
    return d


def asker(sc: Mapping[str, Any]) -> Asker:
    return Asker(from_data(dict(sc), "test scenario"))


def ask(sc: Mapping[str, Any] | Asker, question: str) -> Answer:
    a = sc if isinstance(sc, Asker) else asker(sc)
    return a.ask(question)


def got(sc: Mapping[str, Any] | Asker, question: str) -> Any:
    """The verdict of a yes/no question, else the answer."""
    ans = ask(sc, question)
    return ans.verdict if ans.verdict is not None else ans.answer


def events(ans: Answer) -> list[str]:
    return [row["event"] for row in ans.witness]


def rules(ans: Answer) -> set[str]:
    return {b["rule"] for b in ans.because}
