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


# ---------------------------------------------------------------- nothing read is dropped

needs_sample = pytest.mark.skipif(not SAMPLE.exists(), reason="the shared Magic card sample is not here")


@pytest.fixture(scope="module")
def sample():
    return load(SAMPLE, use_cache=False) if SAMPLE.exists() else None


def _parts(c) -> list[str]:
    return [u for _, u in c.unmodelled_parts()]


def _of(c, kind: str):
    return [e for e in c.effects if e.kind == kind]


@needs_sample
def test_every_word_of_every_sample_card_is_read_or_kept(sample):
    """The reader's invariant: each word of a card's text (reminder text aside)
    is in a part read into the model or in an unmodelled part."""
    import re

    from logic.mtg_cards import derive

    token = re.compile(r"[a-z0-9{}+\-/']+")
    for line in SAMPLE.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        d = derive(r["name"], r["type_line"], r["oracle_text"], "sample")
        pieces = d["read"] + d["unmodelled"] + [u for e in d["effects"] for u in e.get("unmodelled", [])]
        known = set(token.findall(" ".join(pieces).lower()))
        text = re.sub(r"\([^)]*\)", "", r["oracle_text"]).lower()
        assert [w for w in token.findall(text) if w not in known] == [], r["name"]


@needs_sample
@pytest.mark.parametrize("name, words", [
    ("Anarchy", "resolution: Destroy all white permanents."),  # not "destroy all creatures"
    ("Armageddon", "resolution: Destroy all lands."),
    ("Crippling Fatigue", "resolution: Target creature gets -2/-2 until end of turn."),
])
def test_spell_resolutions_outside_the_vocabulary_are_kept(sample, name, words):
    c = sample.get(name)
    (spell,) = _of(c, "card")
    assert words in spell.unmodelled
    assert spell.actions == ("no_action",)


@needs_sample
def test_a_partly_read_spell_keeps_what_it_reads(sample):
    """Rout: "Destroy all creatures" is read; the rest is kept (CR 701.19 regeneration, flash permission)."""
    (spell,) = _of(sample.get("Rout"), "card")
    assert spell.actions == ("destroy_all_creatures",)
    assert "restriction: They can't be regenerated." in spell.unmodelled
    assert any(u.startswith("permission: You may cast Rout as though it had flash") for u in spell.unmodelled)


@needs_sample
def test_cant_be_cast_and_static_bans_are_restrictions(sample):
    assert "restriction: The named card can't be cast." in sample.get("Meddling Mage").unmodelled
    assert "restriction: Your opponents can't cast blue creature spells." in \
        sample.get("Llawan, Cephalid Empress").unmodelled
    rakdos = sample.get("Rakdos, Lord of Riots")
    (spell,) = _of(rakdos, "card")
    assert "restriction: You can't cast this spell unless an opponent lost life this turn." in spell.unmodelled


@needs_sample
def test_cant_be_countered_is_a_part_of_the_spell(sample):
    (spell,) = _of(sample.get("Dovin's Veto"), "card")
    assert spell.actions == ("counter",) and spell.target == (("kind", "noncreature_spell"),)
    assert spell.unmodelled == ("restriction: This spell can't be countered.",)


@needs_sample
def test_a_flash_permission_is_kept(sample):
    dragon = sample.get("Hypersonic Dragon")
    assert set(dragon.extra["keywords"]) == {"flying", "haste"}
    assert "permission: You may cast sorcery cards as though they had flash." in dragon.unmodelled


@needs_sample
@pytest.mark.parametrize("name", ["Behemoth Sledge", "Bronze Cudgels", "Demonspine Whip"])
def test_equip_is_an_activated_ability_with_sorcery_timing(sample, name):
    """Equip (CR 702.6a): "Attach to target creature you control. Activate only as a sorcery."."""
    (equip,) = [e for e in _of(sample.get(name), "activated") if e.summary.startswith("equip")]
    assert equip.speed == 1 and equip.target == (("kind", "creature"),)
    assert "target: target creature you control" in equip.unmodelled
    assert "resolution: attach to target creature you control" in equip.unmodelled


@needs_sample
def test_an_unknown_trigger_is_a_part_of_its_ability_not_a_refusal(sample):
    c = sample.get("Patchwork Automaton")
    (trig,) = _of(c, "triggered")
    assert trig.triggers == ()
    assert trig.unmodelled[0] == "trigger event: Whenever you cast an artifact spell"
    assert "keyword: Ward {2}" in c.unmodelled


@needs_sample
def test_trigger_conditions_are_matched_whole(sample):
    """"Whenever another artifact enters under your control" is no "another creature enters"."""
    (trig,) = _of(sample.get("Arcbound Condor"), "triggered")
    assert trig.triggers == () and trig.unmodelled[0].startswith("trigger event: Whenever another artifact enters")


@needs_sample
@pytest.mark.parametrize("name, keyword", [
    ("Bloodbraid Elf", "keyword: Cascade"),
    ("Amphibian Downpour", "keyword: Storm"),
    ("Amphibian Downpour", "keyword: Enchant creature"),
    ("Chainer's Edict", "keyword: Flashback {5}{B}{B}"),
    ("Crippling Fatigue", "keyword: Flashback—{1}{B}, Pay 3 life"),
    ("Leyline Prowler", "keyword: Deathtouch"),
    ("Barren Moor", "keyword: Cycling {B}"),
    ("Depth Defiler", "keyword: Devoid"),
])
def test_keywords_with_unmodelled_timing_meaning_are_kept(sample, name, keyword):
    assert keyword in sample.get(name).unmodelled


@needs_sample
def test_keywords_the_engine_implements_are_read(sample):
    g = sample.get("Abbey Gargoyles")
    assert g.extra["keywords"] == ("flying",) and g.extra["protection"] == ("red",)
    assert g.unmodelled_parts() == []
    assert "lifelink" in sample.get("Leyline Prowler").extra["keywords"]


@needs_sample
def test_modes_and_cast_triggers_are_kept(sample):
    (trig,) = _of(sample.get("Depth Defiler"), "triggered")
    assert trig.triggers == ("cast_self",)  # "When you cast this spell" (CR 601.2i) is read
    assert not any(u.startswith("trigger event:") for u in trig.unmodelled)
    assert sum(u.startswith("mode: ") for u in trig.unmodelled) == 2


def test_fixture_texts_of_each_family():
    """The wordings issue 13 names, in made-up cards."""
    from logic.mtg_cards import derive

    def parts(type_line: str, text: str, name: str = "Test Card"):
        d = derive(name, type_line, text, "test")
        return d, [u for e in d["effects"] for u in e.get("unmodelled", [])] + d["unmodelled"]

    d, p = parts("Instant", "Cast this spell only during combat before blockers are declared. "
                            "Destroy target attacking creature.")
    assert "timing: Cast this spell only during combat before blockers are declared." in p
    assert d["effects"][0]["actions"] == ["destroy"] and d["effects"][0]["target"] == "creature"
    assert "target: target attacking creature" in p
    _, p = parts("Instant", "End the turn.")
    assert p == ["resolution: End the turn."]
    _, p = parts("Sorcery", "Destroy all nonland permanents.")
    assert p == ["resolution: Destroy all nonland permanents."]
    _, p = parts("Enchantment", "Players can't cast noncreature spells.")
    assert p == ["restriction: Players can't cast noncreature spells."]
    _, p = parts("Creature — Elf", "Prowess\nWard {1}\nChangeling", "Test Elf")
    assert p == ["keyword: Prowess", "keyword: Ward {1}"]  # changeling: no timing effect
    d, p = parts("Creature — Elf", "Whenever a creature enters the battlefield under your control, you gain 1 life.")
    assert d["effects"][1].get("trigger") is None and p[0].startswith("trigger event: Whenever a creature enters")
    d, p = parts("Creature — Elf", "At the beginning of your upkeep, if you control no lands, sacrifice Test Card.")
    assert d["effects"][1]["trigger"] == "upkeep_own" and d["effects"][1]["actions"] == ["sacrifice_self"]
    assert p == ["condition: if you control no lands"]
    d, p = parts("Creature — Elf", "When Test Card enters, you may draw a card.")
    assert d["effects"][1]["mandatory"] is False and d["effects"][1]["actions"] == ["draw(1)"] and p == []
    d, p = parts("Artifact", "{T}, Sacrifice another creature: Draw a card. Activate only during your turn.")
    assert p == ["cost: Sacrifice another creature", "timing: Activate only during your turn."]
    d, p = parts("Creature — Elf", "{1}{G}, Exile Test Card from your graveyard: Draw a card.")
    assert p[0].startswith("activation zone: ")


def test_the_keyword_table_in_the_docs_is_the_readers():
    import re

    from logic.mtg_cards import KEYWORD_READING

    doc = (Path(__file__).resolve().parent.parent / "docs" / "mtg.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| ([a-z][a-z !\-]*) \| (modelled|activated|none|unmodelled) \|", doc, re.M))
    assert rows == {k: v[0] for k, v in KEYWORD_READING.items()}


# ---------------------------------------------------------------- coverage


def test_coverage_counts_every_ability(card_list):
    from logic.mtg_cardlist import coverage

    cov = coverage(load(card_list, use_cache=False))
    assert cov["abilities"] == cov["fully_read"] + cov["partly_read"] + cov["unread"]
    assert [n["name"] for n in cov["not_cards"]] == ["Test Goblin Token"]
    listed = {c["name"] for c in cov["not_fully_read"]}
    assert "Test Giant // Test Stomp" in listed and "Test Zap" not in listed


def test_coverage_on_the_command_line(card_list):
    from typer.testing import CliRunner

    from queries.cli import app

    r = CliRunner().invoke(app, ["cards", "--game", "mtg", "--coverage", "--cards", str(card_list), "--json"])
    assert r.exit_code == 0, r.output
    cov = json.loads(r.output)
    assert cov["cards"] == 4 and cov["abilities"] == cov["fully_read"] + cov["partly_read"] + cov["unread"]
    r = CliRunner().invoke(app, ["cards", "--game", "mtg", "--coverage", "--cards", str(card_list)])
    assert r.exit_code == 0 and "fully read" in r.output and "most frequent reasons" in r.output


@needs_sample
def test_coverage_of_the_sample_lists_every_part(sample):
    from logic.mtg_cardlist import coverage

    cov = coverage(sample)
    assert cov["cards"] == len(sample) and not cov["not_cards"]
    listed = sum(len(a["unmodelled"]) for c in cov["not_fully_read"] for a in c["abilities"])
    parts = sum(len([u for u in c.unmodelled if not u.startswith("characteristic:")])
                + sum(len(e.unmodelled) for e in c.effects) for c in sample)
    assert listed == parts == sum(cov["aspects"].values())


def test_scryfalls_keywords_field_names_keyword_lines(tmp_path):
    """A keyword the reader's table does not know is still read as a keyword
    (and kept as unmodelled) when the list's ``keywords`` field names it."""
    odd = dict(ZAP, name="Test Oddity", type_line="Creature — Test", power="1", toughness="1",
               oracle_text="Flying\nGlimmerstep 3", keywords=["Flying", "Glimmerstep"])
    c = load(_lines_file(tmp_path / "c.jsonl", [odd]), use_cache=False).get("Test Oddity")
    assert c.extra["keywords"] == ("flying",) and c.unmodelled == ("keyword: Glimmerstep 3",)


def test_a_card_of_the_list_is_shown_with_what_is_not_modelled(card_list):
    from typer.testing import CliRunner

    from queries.cli import app

    r = CliRunner().invoke(app, ["cards", "Test Giant", "--game", "mtg", "--cards", str(card_list)])
    assert r.exit_code == 0, r.output
    assert "not modelled: other face: Test Stomp" in r.output and "trigger event: Whenever Test Giant" in r.output


def test_a_yugioh_scenario_ignores_a_magic_list(card_list):
    sc = from_data({"game": "ygo", "players": ["A", "B"], "turn_player": "A", "phase": "main1",
                    "cards": [{"card": "Effect Veiler", "controller": "B", "zone": "hand"}]}, "test",
                   cards_file=card_list)
    assert sc.derived == {}


@needs_sample
def test_the_reader_agrees_with_the_hand_checked_library(sample):
    """Every library card that is also in the sample is read as the library states it."""
    from logic.cards import bundled

    lib = bundled("mtg")
    both = [n for n in lib.cards if sample.get(n) is not None]
    assert len(both) >= 5

    def timing(c):
        return [(e.kind, e.speed, e.mandatory, e.costs, e.target, e.actions, e.triggers, e.once_per_turn)
                for e in c.effects], c.extra["keywords"], c.extra["protection"]

    for name in both:
        assert timing(sample.get(name)) == timing(lib.get(name)), name


def test_a_yugioh_list_in_the_magic_variable_is_a_clear_error(tmp_path, monkeypatch):
    ygo = tmp_path / "ygo.jsonl"
    ygo.write_text(json.dumps({"name": "Test Fiend", "card_type": "Monster", "text": "x", "konami_id": 1}) + "\n")
    monkeypatch.setenv("CHAINJUDGE_MTG_CARDS", str(ygo))
    with pytest.raises(InputError, match="Yu-Gi-Oh! card list"):
        from_data(_scenario(["Test Zap"]), "test")
