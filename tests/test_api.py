"""The public API (queries/api.py): the same answers as the command line,
and a warm process that loads what it needs once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from logic.errors import InputError, NotModelled
from queries import api
from queries.cases import load_cases
from tests.conftest import CORPUS, ROOT

YGO = load_cases(CORPUS / "ygo-seeds.yaml")
MTG = load_cases(CORPUS / "mtg-seeds.yaml")
# a few seed cases of each game, of different question kinds
SAMPLE = [YGO[0], YGO[len(YGO) // 2], YGO[-1], MTG[0], MTG[len(MTG) // 2]]
CLI = [sys.executable, "-c", "from queries.cli import main; main()"]


def _without_timings(doc: dict) -> dict:
    doc = dict(doc)
    doc.pop("stats", None)  # milliseconds differ between runs
    return doc


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c["id"])
def test_same_answer_as_the_command_line(case, tmp_path):
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(case["scenario"], allow_unicode=True), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHAINJUDGE_")}
    out = subprocess.run([*CLI, "ask", str(path), case["question"], "--json"], capture_output=True, text=True,
                         cwd=ROOT, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    ans = api.ask(case["scenario"], case["question"])
    assert _without_timings(json.loads(out.stdout)) == _without_timings(ans.as_json())
    # a path and a mapping are the same scenario
    again = api.ask(path, case["question"])
    assert _without_timings(again.as_json()) == _without_timings(ans.as_json())


def test_second_call_reuses_the_warm_state():
    case = YGO[0]
    api.ask(case["scenario"], case["question"])
    warm = api.warm_state()
    assert warm["encoding_files"] > 0 and warm["question_parsers"] == 1 and warm["libraries"] >= 1
    from queries import parser
    from solver import program

    parses, builds = program._parsed.cache_info().misses, parser._parser.cache_info().misses
    other = YGO[1]
    api.ask(other["scenario"], other["question"])
    assert api.warm_state() == warm
    assert program._parsed.cache_info().misses == parses, "the encodings were parsed again"
    assert parser._parser.cache_info().misses == builds, "the question parser was built again"


def test_card_list_loaded_once(monkeypatch):
    cards = ROOT.parent / "shared" / "data" / "ygo-cards.jsonl"
    if not cards.exists():
        pytest.skip("no card list beside the repository")
    from logic import scenario

    sc = {"game": "ygo", "players": ["A", "B"], "turn_player": "A", "phase": "main1",
          "cards": [{"card": "Ash Blossom & Joyous Spring", "controller": "B", "zone": "hand"}]}
    api.load_scenario(sc, cards=cards)
    misses = scenario._derived_cached.cache_info().misses
    api.load_scenario(sc, cards=cards)
    assert scenario._derived_cached.cache_info().misses == misses


def test_errors_are_the_commands():
    with pytest.raises(InputError) as err:
        api.ask({"game": "ygo"}, "who has priority now")
    assert api.exit_code(err.value) == 2
    with pytest.raises(InputError):
        api.ask(YGO[0]["scenario"], "who has priority now", time_limit=-1)
    with pytest.raises(InputError):
        api.ask(Path("no/such/file.yaml"), "who has priority now")
    with pytest.raises(InputError):
        api.ask(YGO[0]["scenario"], "can nobody dance")
    assert api.exit_code(NotModelled("x")) == 4


def test_chains_and_count():
    sc = YGO[0]["scenario"]
    listed = api.chains(sc)
    counted = api.chains(sc, count_only=True)
    assert listed.complete and listed.count == counted.count == len(listed.chains)
    assert json.dumps(listed.as_json())  # JSON-able
