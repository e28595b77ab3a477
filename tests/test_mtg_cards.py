"""The Magic card library and the Oracle-style text reader (logic/mtg_cards.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from logic.cards import bundled
from logic.errors import InputError
from logic.mtg_cards import derive, parse_mtg_card
from tests.mtg_util import card, got, scenario

SHARED_LIST = Path(__file__).resolve().parent.parent.parent / "shared" / "mtg-library.txt"
REQUIRED = [
    "Lightning Bolt", "Shock", "Giant Growth", "Counterspell", "Cancel", "Negate", "Dark Ritual", "Brainstorm",
    "Swords to Plowshares", "Stifle", "Sudden Shock", "Murder", "Divination", "Wrath of God", "Rampant Growth",
    "Duress", "Grizzly Bears", "Llanowar Elves", "Birds of Paradise", "Soul Warden", "Blood Artist",
    "Prodigal Sorcerer", "Mogg Fanatic", "Serra Angel", "White Knight", "Elvish Visionary", "Snapcaster Mage",
    "Ball Lightning", "Exalted Angel", "Phyrexian Arena", "Sol Ring", "Jace Beleren", "Liliana of the Veil",
    "Garruk Wildspeaker", "Forest", "Island", "Mountain", "Swamp", "Plains",
]


def test_library_holds_every_required_card():
    """The bundled library holds the cards of ../shared/mtg-library.txt."""
    lib = bundled("mtg")
    names = REQUIRED
    if SHARED_LIST.exists():
        names = [ln.strip() for ln in SHARED_LIST.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    assert sorted(names) == sorted(REQUIRED)
    for name in names:
        c = lib.find(name)
        assert c is not None, name
        assert c.extra["summary"], f"{name}: no summary"
        assert c.extra["oracle_checked"], f"{name}: not marked as checked against its Oracle text"


@pytest.mark.parametrize(
    "name, kinds",
    [
        ("Lightning Bolt", [("card", 2)]),
        ("Divination", [("card", 1)]),
        ("Snapcaster Mage", [("card", 2), ("triggered", 2)]),  # flash (CR 702.8)
        ("Llanowar Elves", [("card", 1), ("mana", 2)]),
        ("Prodigal Sorcerer", [("card", 1), ("activated", 2)]),
        ("Dark Ritual", [("card", 2)]),  # a spell, not a mana ability (CR 605.5b)
        ("Jace Beleren", [("card", 1), ("loyalty", 1), ("loyalty", 1), ("loyalty", 1)]),
        ("Forest", [("mana", 2)]),  # intrinsic mana ability (CR 305.6)
    ],
)
def test_library_timing_attributes(name, kinds):
    """Timing of each ability: 1 sorcery timing, 2 instant timing (CR 117.1)."""
    c = bundled("mtg").get(name)
    assert [(e.kind, e.speed) for e in c.effects] == kinds


def test_split_second_from_text():
    """The custom Sudden Shock of docs/scenarios.md: split second read from the text (CR 702.61)."""
    c = parse_mtg_card({"name": "Sudden Zap", "type_line": "Instant",
                        "text": "Split second. Sudden Zap deals 2 damage to any target."}, "test", origin="custom")
    assert "split_second" in c.extra["keywords"]
    (spell,) = c.effects
    assert (spell.kind, spell.speed, spell.target, spell.actions) == ("card", 2, (("kind", "any"),), ("damage(2)",))


def test_creature_with_enter_trigger_from_text():
    """The Test Bear of docs/scenarios.md: "When ... enters" is a triggered ability (CR 603.1)."""
    c = parse_mtg_card({"name": "Test Bear", "type_line": "Creature — Bear", "power": 2, "toughness": 2,
                        "text": "When Test Bear enters the battlefield, you gain 1 life."}, "test", origin="custom")
    assert [(e.kind, e.triggers, e.actions) for e in c.effects] == [
        ("card", (), ("no_action",)), ("triggered", ("enters_self",), ("gain_life(1)",))]


def test_activated_mana_loyalty_and_keywords_from_text():
    """Activated "cost: effect" (CR 602.1), mana abilities (CR 605.1a), loyalty
    abilities (CR 606), flash, "activate only as a sorcery" (CR 602.5d)."""
    d = derive("Test Adept", "Creature — Human Wizard",
               "Flash\n{T}: Add {U}.\n{2}, {T}: Test Adept deals 1 damage to any target. Activate only as a sorcery.\n"
               "Whenever a player casts a spell, you gain 1 life.", "test")
    assert "flash" in d["keywords"]
    kinds = [(e["kind"], e.get("timing"), e.get("target"), e.get("trigger")) for e in d["effects"]]
    assert kinds == [("card", None, None, None), ("mana", None, None, None), ("activated", "sorcery", "any", None),
                     ("triggered", None, None, "cast_any")]
    pw = derive("Test Walker", "Legendary Planeswalker — Test", "+1: You draw a card.\n−3: Destroy target creature.",
                "test")
    assert [(e["kind"], e.get("loyalty"), e.get("target")) for e in pw["effects"]] == [
        ("card", None, None), ("loyalty", 1, None), ("loyalty", -3, "creature")]


def test_unknown_trigger_is_an_unmodelled_part_of_its_ability():
    """Not a refusal of every question about the card (issue 13 section 1)."""
    d = derive("Odd", "Enchantment", "Whenever the moon is full, draw a card.", "test")
    trig = d["effects"][1]
    assert trig["kind"] == "triggered" and "trigger" not in trig
    assert "trigger event: Whenever the moon is full" in trig["unmodelled"]


def test_bad_type_line():
    with pytest.raises(InputError):
        parse_mtg_card({"name": "X", "type_line": "Spaceship", "text": ""}, "test", origin="custom")


def test_custom_card_in_a_scenario():
    """A scenario's custom card with split second behaves like the library's."""
    custom = {"name": "Sudden Zap", "type_line": "Instant",
              "text": "Split second. Sudden Zap deals 2 damage to any target."}
    cards = [card("Sudden Zap", "Bob", "hand"), card("Giant Growth", "Alice", "hand"),
             card("Grizzly Bears", "Alice", "battlefield")]
    sc = scenario(cards, custom=[custom], history=["Alice passes", "Bob casts Sudden Zap targeting Grizzly Bears"])
    assert got(sc, "can Alice cast Giant Growth in response to Bob casting Sudden Zap") == "no"


def test_custom_flash_creature_from_text():
    """A creature with flash can be cast on the opponent's turn (CR 702.8a)."""
    custom = {"name": "Test Ambusher", "type_line": "Creature — Cat", "power": 2, "toughness": 1, "text": "Flash"}
    sc = scenario([card("Test Ambusher", "Bob", "hand")], custom=[custom])
    assert got(sc, "can Bob cast Test Ambusher during main phase 1") == "yes"
