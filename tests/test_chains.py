"""Every legal chain (queries/chains.py): questions, the chains command, the tree."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from logic.scenario import from_data, load_file
from queries.answer import Asker
from queries.chains import ChainSearch, chain_tree, copy_classes, group_by_outcome, to_dot
from queries.cli import app

ROOT = Path(__file__).resolve().parent.parent
SEGOC = ROOT / "examples" / "segoc-after-dark-hole.yaml"

MST_POSITION = {
    "game": "ygo", "players": ["A", "B"], "turn_player": "A", "phase": "main1",
    "cards": [
        {"card": "Mystical Space Typhoon", "controller": "A", "zone": "hand"},
        {"card": "Mind Crush", "controller": "B", "zone": "spell_trap", "position": "face_down"},
        {"card": "Waboku", "controller": "B", "zone": "spell_trap", "position": "face_down"},
        {"card": "Solemn Judgment", "controller": "B", "zone": "spell_trap", "position": "face_down"},
    ],
}
TWO_MIND_CRUSH = {
    "game": "ygo", "players": ["A", "B"], "turn_player": "A", "phase": "main1",
    "cards": [
        {"card": "Mystical Space Typhoon", "controller": "A", "zone": "hand"},
        {"card": "Mind Crush", "controller": "B", "zone": "spell_trap", "position": "face_down"},
        {"card": "Mind Crush", "controller": "B", "zone": "spell_trap", "position": "face_down"},
    ],
}


def _write(tmp_path: Path, data: dict, name: str = "s.yaml") -> Path:
    import yaml

    p = tmp_path / name
    p.write_text(yaml.safe_dump(data), encoding="utf-8")
    return p


def _search(data: dict, **kw) -> ChainSearch:
    asker = Asker(from_data(data))
    return ChainSearch(asker.engine, asker.start, **kw)


# ---------------------------------------------------------------- questions (docs/questions.md)


def test_count_question_answers_an_integer() -> None:
    ans = Asker(from_data(MST_POSITION)).ask("how many legal chains are there after A activates "
                                             "Mystical Space Typhoon targeting Mind Crush")
    assert ans.kind == "count" and ans.verdict is None
    assert ans.answer == 10
    assert json.loads(json.dumps(ans.as_json()))["answer"] == 10


def test_list_question_answers_lists_of_cards_first_link_first() -> None:
    ans = Asker(from_data(MST_POSITION)).ask("list every legal chain after A activates "
                                             "Mystical Space Typhoon targeting Mind Crush")
    assert ans.kind == "list"
    chains = ans.answer
    assert len(chains) == 10
    assert all(isinstance(c, list) and all(isinstance(x, str) for x in c) for c in chains)
    assert all(c[0] == "Mystical Space Typhoon" for c in chains)
    assert ["Mystical Space Typhoon"] in chains  # both players pass
    assert ["Mystical Space Typhoon", "Mind Crush", "Waboku", "Solemn Judgment"] in chains
    # Solemn Judgment (Spell Speed 3) can only be answered at Spell Speed 3
    assert not any(c.index("Solemn Judgment") < len(c) - 1 for c in chains if "Solemn Judgment" in c)
    assert ans.detail["groups"] and all("outcome" in g for g in ans.detail["groups"])


def test_the_empty_chain_is_one_chain_when_play_can_move_on() -> None:
    ans = Asker(from_data(MST_POSITION)).ask("list every legal chain now")
    assert [] in ans.answer
    count = Asker(from_data(MST_POSITION)).ask("how many legal chains are there now")
    assert count.answer == len(ans.answer)


def test_chains_during_a_phase_are_not_modelled() -> None:
    from logic.errors import NotModelled

    with pytest.raises(NotModelled):
        Asker(from_data(MST_POSITION)).ask("how many legal chains are there during the end phase")


# ---------------------------------------------------------------- counting and listing agree


@pytest.mark.parametrize("data", [MST_POSITION, TWO_MIND_CRUSH], ids=["mst", "two-mind-crush"])
def test_count_equals_the_number_listed(data: dict) -> None:
    listed = list(_search(data).chains())
    assert len({c.key for c in listed}) == len(listed)  # each chain once
    assert _search(data).count().count == len(listed)
    assert _search(data, distinct_copies=True).count().count == len(list(_search(data, distinct_copies=True).chains()))


def test_max_links() -> None:
    every = list(_search(MST_POSITION).chains(outcomes=False))
    for m in (0, 1, 2):
        short = [c for c in every if len(c.links) <= m]
        assert _search(MST_POSITION, max_links=m).count().count == len(short)
        assert {c.key for c in _search(MST_POSITION, max_links=m).chains(outcomes=False)} == {c.key for c in short}


def test_limit_stops_early() -> None:
    assert len(list(_search(MST_POSITION).chains(limit=3))) == 3


# ---------------------------------------------------------------- identical copies


def test_identical_copies_are_one_chain_unless_told_apart() -> None:
    asker = Asker(from_data(TWO_MIND_CRUSH))
    rep = copy_classes(asker.engine, asker.start)
    assert rep["Mind Crush#2"] == "Mind Crush#1"
    merged = list(_search(TWO_MIND_CRUSH).chains())
    apart = list(_search(TWO_MIND_CRUSH, distinct_copies=True).chains())
    # only the empty chain mentions no copy; every other chain has a twin with the copies swapped
    assert len(apart) == 27 and len(merged) == (27 - 1) // 2 + 1
    keys = {c.key for c in merged}
    # chaining the targeted copy and chaining the other copy are different chains
    assert (("A", "Mystical Space Typhoon", "Mind Crush#1"), ("B", "Mind Crush#1", None)) in keys
    assert (("A", "Mystical Space Typhoon", "Mind Crush#1"), ("B", "Mind Crush#2", None)) in keys


def test_copies_in_different_places_are_not_identical() -> None:
    data = dict(TWO_MIND_CRUSH)
    data["cards"] = TWO_MIND_CRUSH["cards"][:2] + [{"card": "Mind Crush", "controller": "B", "zone": "hand"}]
    asker = Asker(from_data(data))
    rep = copy_classes(asker.engine, asker.start)
    assert rep["Mind Crush#2"] == "Mind Crush#2"


# ---------------------------------------------------------------- SEGOC


def test_every_segoc_order_is_a_chain() -> None:
    sc = load_file(SEGOC)
    asker = Asker(sc)
    from queries.rulings.answer import position_for

    pos = position_for(asker, "the chain resolves")
    merged = [c.labels for c in ChainSearch(asker.engine, pos).chains()]
    apart = [c.labels for c in ChainSearch(asker.engine, pos, distinct_copies=True).chains()]
    # the turn player's mandatory trigger first, then the opponent's mandatory one
    assert all(c[:2] == ["Sangan", "Mourning Owl"] for c in merged + apart)
    assert len(merged) == 6 and len(apart) == 10
    # each player orders their own optional triggers: both orders are chains
    assert ["Sangan", "Mourning Owl", "Hare A1", "Hare A2"] in apart
    assert ["Sangan", "Mourning Owl", "Hare A2", "Hare A1"] in apart
    # the opponent's optional trigger comes after the turn player's
    assert not any(c.index("Hare B") < c.index(h) for c in apart for h in ("Hare A1", "Hare A2")
                   if "Hare B" in c and h in c)
    # a mandatory trigger cannot be declined: there is no empty chain
    assert [] not in merged


# ---------------------------------------------------------------- outcomes, groups, the tree


def test_outcomes_and_groups() -> None:
    chains = list(_search(MST_POSITION).chains())
    solemn = [c for c in chains if c.labels == ["Mystical Space Typhoon", "Solemn Judgment"]]
    assert solemn and "Mystical Space Typhoon negated" in solemn[0].outcome
    assert "B at 4000 LP" in solemn[0].outcome  # Solemn Judgment's cost
    groups = group_by_outcome(chains)
    assert sum(len(cs) for _, cs in groups) == len(chains)
    assert solemn[0].resolution == ["Solemn Judgment", "Mystical Space Typhoon"]


def test_chain_tree() -> None:
    chains = list(_search(MST_POSITION).chains())
    g = chain_tree(chains)
    prefixes = {c.key[:i] for c in chains for i in range(len(c.links) + 1)}
    assert set(g.nodes) == prefixes
    assert g.number_of_edges() == len(prefixes) - 1
    assert sum(1 for _, d in g.nodes(data=True) if d["complete"]) == len(chains)
    dot = to_dot(g)
    import re

    assert dot.startswith("digraph chains {")
    assert len(re.findall(r"^  n\d+ -> n\d+;$", dot, re.M)) == g.number_of_edges()


# ---------------------------------------------------------------- the command line

runner = CliRunner()


def test_cli_lists_grouped_by_outcome(tmp_path: Path) -> None:
    p = _write(tmp_path, MST_POSITION)
    r = runner.invoke(app, ["chains", str(p), "--after", "A activates Mystical Space Typhoon targeting Mind Crush"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("10 legal chains from main1")
    assert "Outcome:" in r.output


def test_cli_json_streams_one_chain_a_line(tmp_path: Path) -> None:
    p = _write(tmp_path, MST_POSITION)
    r = runner.invoke(app, ["chains", str(p), "--json", "--limit", "4"])
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in r.output.splitlines()]
    assert len(lines) == 5 and all("chain" in x and "outcome" in x for x in lines[:4])
    assert lines[-1]["summary"]["chains"] == 4 and lines[-1]["summary"]["complete"] is False


def test_cli_count(tmp_path: Path) -> None:
    p = _write(tmp_path, MST_POSITION)
    r = runner.invoke(app, ["chains", str(p), "--count", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["count"] == 75


def test_cli_dot_and_svg(tmp_path: Path) -> None:
    import shutil

    p = _write(tmp_path, MST_POSITION)
    dot = tmp_path / "t.dot"
    r = runner.invoke(app, ["chains", str(p), "--after", "A activates Mystical Space Typhoon targeting Mind Crush",
                            "--dot", str(dot)])
    assert r.exit_code == 0, r.output
    assert dot.read_text().startswith("digraph chains")
    if shutil.which("dot"):
        svg = tmp_path / "t.svg"
        r = runner.invoke(app, ["chains", str(p), "--svg", str(svg), "--max-links", "1"])
        assert r.exit_code == 0, r.output
        assert "<svg" in svg.read_text()


def test_cli_svg_without_graphviz_says_how_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    p = _write(tmp_path, MST_POSITION)
    real = shutil.which
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: None if name == "dot" else real(name, *a, **k))
    r = runner.invoke(app, ["chains", str(p), "--svg", str(tmp_path / "t.svg"), "--max-links", "1"])
    assert r.exit_code == 2
    assert "apt-get install graphviz" in r.output


def test_cli_bad_after_event(tmp_path: Path) -> None:
    p = _write(tmp_path, MST_POSITION)
    r = runner.invoke(app, ["chains", str(p), "--after", "B activates Mystical Space Typhoon"])
    assert r.exit_code == 2, r.output


def test_cli_example_file_runs() -> None:
    r = runner.invoke(app, ["chains", str(SEGOC), "--after", "the chain resolves"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("6 legal chains")
