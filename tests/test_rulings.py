"""Ruling corpora taken from official rulings (tests/corpus/rulings-*.yaml):
every case must pass.

- rulings-ygo.yaml: cards of the bundled library only.
- rulings-derived.yaml: cards read from their official text, which needs the
  full card list: $CHAINJUDGE_CARDS, or ../shared/data/ygo-cards.jsonl beside
  the repository.  Without it only these cases are skipped.
- rulings-ygo-known-wrong.yaml (cases the tool answers wrongly or refuses) is
  not run here: it is a list of bugs, each with the reason in `why`.

Run in parallel: pytest -n 2 tests/test_rulings.py
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import logic.scenario
from queries.cases import load_cases, run_case
from tests.conftest import CORPUS, ROOT

YGO = load_cases(CORPUS / "rulings-ygo.yaml")
DERIVED = load_cases(CORPUS / "rulings-derived.yaml")
KNOWN_WRONG = CORPUS / "rulings-ygo-known-wrong.yaml"


def _cards_file() -> Path | None:
    env = os.environ.get("CHAINJUDGE_CARDS")
    path = Path(env) if env else ROOT.parent / "shared" / "data" / "ygo-cards.jsonl"
    return path if path.is_file() else None


CARDS = _cards_file()


@cache
def _derived_library(path: str) -> Any:
    return _load_derived_library(path)


_load_derived_library = logic.scenario.derived_library


@pytest.fixture
def shared_card_list(monkeypatch: pytest.MonkeyPatch) -> None:
    """Read the derived card list once per worker instead of once per case
    (the cached derivation still costs about a second to load)."""
    monkeypatch.setattr(
        logic.scenario,
        "derived_library",
        lambda cards_file: _derived_library(str(cards_file)) if cards_file else None,
    )


def _check(case: dict[str, Any], cards_file: Path | None = None) -> None:
    """The verdict only (explanations are checked on the acceptance corpora,
    tests/test_acceptance.py and tests/test_explanations.py); the rules an answer
    does cite must still carry their text and source."""
    r = run_case(case, CORPUS, cards_file=cards_file, explain=False)
    assert r.status == "passed", f"{r.id}: got {r.got!r}, expected {r.expected!r} {r.message}"
    ans = r.answer
    assert ans is not None
    for rule in ans.because:
        assert rule["text"] and rule["source"], f"{r.id}: rule {rule['rule']} lacks text or source"


@pytest.mark.parametrize("case", YGO, ids=lambda c: c["id"])
def test_ruling_case(case: dict[str, Any]) -> None:
    _check(case)


@pytest.mark.skipif(
    CARDS is None,
    reason="the full card list is not here (set CHAINJUDGE_CARDS or put it at "
    "../shared/data/ygo-cards.jsonl): cards read from text cannot be used",
)
@pytest.mark.parametrize("case", DERIVED, ids=lambda c: c["id"])
def test_derived_ruling_case(case: dict[str, Any], shared_card_list: None) -> None:
    if case["id"] in REFUSED_UNMODELLED:
        r = run_case(case, CORPUS, cards_file=CARDS, explain=False)
        if r.status == "skipped" and REFUSED_UNMODELLED[case["id"]] in (r.message or ""):
            pytest.xfail(f"refused: {REFUSED_UNMODELLED[case['id']]!r} is not modelled (answers that bound "
                         "unmodelled parts by relevance will answer it)")
    _check(case, CARDS)


# Derived cases refused because a card says something that really is not modelled
# (listed by the reader as unmodelled, textreader.account); each with the words
# the refusal must name.  They pass again once an answer decides that the part
# cannot matter to the question (the relevance check of issue 13).
REFUSED_UNMODELLED = {
    "dv-continuous-negation-trap-not-in-damage-step": "When it is destroyed, destroy this card",
    "dv-continuous-negation-trap-in-battle-step": "When it is destroyed, destroy this card",
    "dv-mandatory-if-after-the-chain": "cannot be Tributed for a Tribute Summon",
    "dv-atk-quick-play-in-the-damage-step": "cannot be targeted or destroyed by other card effects",
    "dv-during-your-opponents-turn": "whose atk is less than or equal to their lp",
    "dv-during-your-opponents-turn-not-own-turn": "whose atk is less than or equal to their lp",
}


def test_corpora_are_well_formed() -> None:
    """Unique ids, a cited source on every case; known-wrong cases say why."""
    wrong = load_cases(KNOWN_WRONG)
    ids = [c["id"] for c in YGO + DERIVED + wrong]
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    for c in YGO + DERIVED + wrong:
        assert str(c.get("source", "")).strip(), f"{c['id']}: no source"
    for c in wrong:
        assert c.get("status") in ("wrong", "not-modelled"), (
            f"{c['id']}: status must be wrong or not-modelled"
        )
        assert str(c.get("why", "")).strip(), f"{c['id']}: no why"
    assert len(YGO) >= 40 and len(DERIVED) >= 15
