"""The external corpus (tests/corpus/external/*.yaml): rulings from public
sources nobody on this project wrote, each with its source.  It is the
project's measure of itself, graded as `chainjudge cases --grade` grades it.

The bar: no case is answered WRONG or rejected, unless it is listed in
tests/corpus/external/known-wrong.yaml with the reason (a list of bugs, not
of excuses: a listed case that no longer fails makes the test fail, so the
list cannot go stale).  Refusals (exit 4) and limits are honest answers.

The Yu-Gi-Oh! files need the full card list and the Magic files the Magic
card list: $CHAINJUDGE_CARDS / $CHAINJUDGE_MTG_CARDS, or the lists in
../shared/data beside the repository.

By default every EXTERNAL_STRIDE-th case of each file is run (4); set
EXTERNAL_STRIDE=1 for all of them.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

import logic.scenario
from queries.cases import load_cases, run_case
from tests.conftest import CORPUS, ROOT

EXTERNAL = CORPUS / "external"
KNOWN_WRONG_FILE = EXTERNAL / "known-wrong.yaml"
STRIDE = max(1, int(os.environ.get("EXTERNAL_STRIDE", "4")))


def _list(env: str, name: str) -> Path | None:
    value = os.environ.get(env)
    path = Path(value) if value else ROOT.parent / "shared" / "data" / name
    return path if path.is_file() else None


CARD_LISTS = {"ygo": _list("CHAINJUDGE_CARDS", "ygo-cards.jsonl"),
              "mtg": _list("CHAINJUDGE_MTG_CARDS", "mtg-cards-sample.jsonl")}


def _known_wrong() -> dict[str, str]:
    if not KNOWN_WRONG_FILE.is_file():
        return {}
    data = yaml.safe_load(KNOWN_WRONG_FILE.read_text()) or {}
    assert isinstance(data, dict), "known-wrong.yaml maps a case id to the reason it fails"
    return {str(k): str(v) for k, v in data.items()}


KNOWN_WRONG = _known_wrong()


def _game(case: dict[str, Any]) -> str:
    sc = case.get("scenario") or {}
    return str(sc.get("game", "ygo")) if isinstance(sc, dict) else "ygo"


def _cases() -> list[Any]:
    out = []
    for f in sorted(EXTERNAL.glob("*.yaml")):
        if f == KNOWN_WRONG_FILE:
            continue
        for i, case in enumerate(load_cases(f)):
            if i % STRIDE == 0:
                out.append(pytest.param(f.name, case, id=f"{f.stem}:{case['id']}"))
    return out


@cache
def _derived_library(path: str) -> Any:
    return _load_derived_library(path)


_load_derived_library = logic.scenario.derived_library


@pytest.mark.parametrize("name,case", _cases())
def test_external_case(name: str, case: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game(case)
    cards = CARD_LISTS.get(game)
    if cards is None:
        pytest.skip(f"the {game} card list is not beside the repository (set $"
                    f"{'CHAINJUDGE_CARDS' if game == 'ygo' else 'CHAINJUDGE_MTG_CARDS'})")
    if game == "ygo":  # read the derived list once per worker, not once per case
        monkeypatch.setattr(logic.scenario, "derived_library",
                            lambda cards_file: _derived_library(str(cards_file)) if cards_file else None)
    assert case.get("source"), f"{case['id']}: every external case names its source"
    r = run_case(case, EXTERNAL, cards_file=cards, explain=False)
    cid = str(case["id"])
    if cid in KNOWN_WRONG:
        assert r.grade in ("WRONG", "rejected"), (
            f"{cid} is listed in known-wrong.yaml but is now graded {r.grade}: remove it from the list")
        return
    assert r.grade in ("pass", "refused", "limit"), (
        f"{cid} ({name}) graded {r.grade}: got {r.got!r}, expected {r.expected!r} {r.message}")
    if r.grade == "refused":
        assert r.message.strip(), f"{cid}: a refusal must say what is not modelled"


def test_known_wrong_ids_exist() -> None:
    ids = {str(c["id"]) for f in EXTERNAL.glob("*.yaml") if f != KNOWN_WRONG_FILE for c in load_cases(f)}
    assert set(KNOWN_WRONG) <= ids, sorted(set(KNOWN_WRONG) - ids)
