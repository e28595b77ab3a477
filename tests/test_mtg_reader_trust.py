"""Magic cards by name from a card list, and a reader that never drops text.

The card lists here are small files the tests write themselves, in the two
formats a user may give: Scryfall's bulk "Oracle cards" file (a JSON array of
card objects) and JSON lines with the same fields.  The real cards come from
../shared/data/mtg-cards-sample.jsonl, read through the same loader (those
tests are skipped when the file is absent)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from logic.errors import InputError
from logic.mtg_cardlist import game_of, library_for, load
from logic.scenario import from_data
from queries.answer import Asker
from tests.mtg_util import card, scenario

SAMPLE = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "mtg-cards-sample.jsonl"
if not SAMPLE.exists():
    SAMPLE = Path("/work/shared/data/mtg-cards-sample.jsonl")

# fixtures written in Scryfall's fields; the cards are made up for the tests
ZAP = {"object": "card", "name": "Test Zap", "layout": "normal", "mana_cost": "{R}", "type_line": "Instant",
       "oracle_text": "Test Zap deals 2 damage to any target.", "colors": ["R"], "keywords": []}
BEAR = {"object": "card", "name": "Test Cub", "layout": "normal", "mana_cost": "{1}{G}",
        "type_line": "Creature — Bear", "oracle_text": "When Test Cub enters, you gain 1 life.",
        "power": "2", "toughness": "2", "keywords": []}
VARIABLE = {"object": "card", "name": "Test Swarm", "layout": "normal", "mana_cost": "{3}{G}",
            "type_line": "Creature — Insect", "oracle_text": "Trample", "power": "*", "toughness": "1+*",
            "keywords": ["Trample"]}
ADVENTURER = {
    "object": "card", "name": "Test Giant // Test Stomp", "layout": "adventure", "mana_cost": "{2}{R} // {1}{R}",
    "type_line": "Creature — Giant // Instant — Adventure", "keywords": [],
    "card_faces": [
        {"object": "card_face", "name": "Test Giant", "mana_cost": "{2}{R}", "type_line": "Creature — Giant",
         "oracle_text": "Whenever Test Giant becomes the target of a spell, Test Giant deals 2 damage to that "
                        "spell's controller.", "power": "4", "toughness": "3"},
        {"object": "card_face", "name": "Test Stomp", "mana_cost": "{1}{R}", "type_line": "Instant — Adventure",
         "oracle_text": "Damage can't be prevented this turn. Test Stomp deals 2 damage to any target."},
    ]}
TOKEN = {"object": "card", "name": "Test Goblin Token", "layout": "token", "type_line": "Token Creature — Goblin",
         "oracle_text": "", "power": "1", "toughness": "1"}
CARDS = [ZAP, BEAR, VARIABLE, ADVENTURER, TOKEN]


def _array_file(path: Path, cards: list[dict]) -> Path:
    """Scryfall writes its bulk files as an array, one card a line."""
    path.write_text("[\n" + ",\n".join(json.dumps(c) for c in cards) + "\n]\n", encoding="utf-8")
    return path


def _lines_file(path: Path, cards: list[dict]) -> Path:
    path.write_text("".join(json.dumps(c) + "\n" for c in cards), encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CHAINJUDGE_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("CHAINJUDGE_MTG_CARDS", raising=False)


@pytest.fixture(params=["array", "lines", "array-one-line"])
def card_list(request, tmp_path) -> Path:
    if request.param == "array":
        return _array_file(tmp_path / "oracle-cards.json", CARDS)
    if request.param == "lines":
        return _lines_file(tmp_path / "cards.jsonl", CARDS)
    p = tmp_path / "compact.json"
    p.write_text(json.dumps(CARDS), encoding="utf-8")  # an array on one line is read whole
    return p


# ---------------------------------------------------------------- loading


def test_both_formats_load_the_same_cards(card_list):
    lib = load(card_list, use_cache=False)
    assert game_of(card_list) == "mtg"
    zap = lib.get("test zap")
    assert zap is not None and zap.origin == "derived"
    assert [(e.kind, e.speed, e.target, e.actions) for e in zap.effects] == [
        ("card", 2, (("kind", "any"),), ("damage(2)",))]
    cub = lib.get("Test Cub")
    assert cub is not None and cub.extra["power"] == 2 and cub.extra["toughness"] == 2
    assert [e.triggers for e in cub.effects] == [(), ("enters_self",)]


def test_a_number_an_ability_sets_is_unmodelled(card_list):
    swarm = load(card_list, use_cache=False).get("Test Swarm")
    assert swarm is not None and swarm.extra["power"] is None
    assert "characteristic: power *" in swarm.unmodelled
    assert "characteristic: toughness 1+*" in swarm.unmodelled
    assert "trample" in swarm.extra["keywords"]


def test_a_card_of_several_faces_is_found_by_each_name(card_list):
    lib = load(card_list, use_cache=False)
    giant = lib.get("Test Giant")
    assert giant is not None and giant is lib.get("Test Giant // Test Stomp")
    assert giant.card_type == "creature"
    # the other face is kept, not dropped
    assert any(u.startswith("other face: Test Stomp") and "can't be prevented" in u for u in giant.unmodelled)
    # and the unknown trigger is a part of its ability, not a refusal of the card
    trig = [e for e in giant.effects if e.kind == "triggered"]
    assert trig and trig[0].triggers == () and trig[0].unmodelled[0].startswith("trigger event: Whenever Test Giant")


def test_a_token_is_no_card(card_list):
    lib = load(card_list, use_cache=False)
    assert lib.get("Test Goblin Token") is None
    assert "type" in (lib.error("Test Goblin Token") or "")


def test_the_derivations_are_cached(tmp_path):
    path = _lines_file(tmp_path / "cards.jsonl", CARDS)
    first = load(path)
    assert first.source.startswith("derived from")
    again = load(path)
    assert again.source.startswith("cache ") and again.names() == first.names()
    assert again.get("Test Zap") == first.get("Test Zap")
    _lines_file(path, [ZAP])  # another list: derived again
    assert load(path).source.startswith("derived from") and len(load(path)) == 1


def test_a_broken_list_is_one_clear_error(tmp_path):
    p = tmp_path / "bad.jsonl"
    p.write_text(json.dumps(ZAP) + "\n{not json\n", encoding="utf-8")
    with pytest.raises(InputError, match="line 2"):
        load(p, use_cache=False)


def test_the_games_are_told_apart_by_their_fields(tmp_path):
    ygo = tmp_path / "ygo.jsonl"
    ygo.write_text(json.dumps({"name": "Test Fiend", "card_type": "Monster", "text": "x", "konami_id": 1}) + "\n")
    assert game_of(ygo) == "ygo"
    assert library_for(ygo) is None  # a Yu-Gi-Oh! list is no Magic list
    assert game_of(_lines_file(tmp_path / "m.jsonl", [ZAP])) == "mtg"


# ---------------------------------------------------------------- in scenarios


def _scenario(names: list[str]) -> dict:
    return scenario([card(n, "Bob", "hand") for n in names] + [card("Grizzly Bears", "Alice", "battlefield")])


def test_a_scenario_takes_cards_from_the_list(card_list):
    sc = from_data(_scenario(["Test Zap", "Test Cub"]), "test", cards_file=card_list)
    assert sc.sources()["Test Zap"] == sc.sources()["Test Cub"] == "derived"
    a = Asker(sc)
    # an instant on the opponent's turn (CR 117.1a); a creature spell only in its own main phase (CR 307.1)
    assert a.ask("can Bob cast Test Zap targeting Grizzly Bears now").verdict == "yes"
    assert a.ask("can Bob cast Test Cub now").verdict == "no"


def test_the_environment_names_the_list(card_list, monkeypatch):
    monkeypatch.setenv("CHAINJUDGE_MTG_CARDS", str(card_list))
    sc = from_data(_scenario(["Test Zap"]), "test")
    assert sc.sources()["Test Zap"] == "derived"


def test_the_library_overrides_the_list(tmp_path):
    fake = dict(ZAP, name="Lightning Bolt", oracle_text="Lightning Bolt deals 9 damage to any target.")
    path = _lines_file(tmp_path / "cards.jsonl", [fake])
    sc = from_data(_scenario(["Lightning Bolt"]), "test", cards_file=path)
    bolt = sc.library.get("Lightning Bolt")
    assert bolt.origin == "library" and "damage(9)" not in bolt.effects[0].actions


def test_unknown_card_says_how_to_give_a_card_list():
    with pytest.raises(InputError, match="--cards FILE or \\$CHAINJUDGE_MTG_CARDS"):
        from_data(_scenario(["Test Zap"]), "test")


def test_a_record_that_is_no_card_is_a_clear_error(card_list):
    with pytest.raises(InputError, match="cannot be a card in a game"):
        from_data(_scenario(["Test Goblin Token"]), "test", cards_file=card_list)


def test_a_card_with_unmodelled_parts_is_listed_for_the_answers(card_list):
    sc = from_data(_scenario(["Test Giant"]), "test", cards_file=card_list)
    parts = sc.derived["Test Giant // Test Stomp"].not_modelled()
    assert any("trigger event: Whenever Test Giant becomes the target" in p for p in parts)
    assert any("other face: Test Stomp" in p for p in parts)


@pytest.mark.skipif(not SAMPLE.exists(), reason="the shared Magic card sample is not here")
def test_every_card_of_the_sample_loads():
    lib = load(SAMPLE, use_cache=False)
    cards = list(lib)
    assert len(cards) == len(lib) and len(cards) > 900
    assert all(c.origin == "derived" for c in cards)
