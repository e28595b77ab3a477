"""The question language: every form of docs/questions.md parses; bad input names the
column and what was expected."""

from __future__ import annotations

import pytest

from logic.cards import bundled
from logic.errors import InputError
from queries.parser import Names, parse_event, parse_question


@pytest.fixture(scope="module")
def names() -> Names:
    lib = bundled("ygo")
    cards = set(lib.cards) | {a for c in lib.cards.values() for a in c.aliases}
    cards |= {"golem1", "golem2", "waboku1", "waboku2", "tengu1", "Lightning Bolt", "Jace Beleren"}
    return Names(sorted(cards), ["A", "B"], "ygo")


DESIGN_EXAMPLES = [
    ("can B activate Effect Veiler targeting Judgment Dragon after A declares the end of main phase 1", "can"),
    ("can B activate Effect Veiler during the battle phase", "can"),
    ("can B activate Mirror Force in response to A activating Mystical Space Typhoon", "can"),
    ("can A normal summon Reborn Tengu now", "can"),
    ("can A pass now", "can"),
    ("can B let Effect Veiler expire now", "can"),
    ("must A activate Lava Golem before the standby phase ends", "must"),
    ("who has priority after A activates Mystical Space Typhoon targeting Mind Crush", "who_has"),
    ("in what order do Red Dragon Archfiend and Marshmallon go on the chain", "order"),
    ("does Sangan's effect miss the timing", "does"),
    ("does Judgment Dragon's effect resolve negated during the end phase", "does"),
    ("how many legal chains are there after A activates Mystical Space Typhoon", "count"),
    ("list every legal chain after A declares an attack with Reborn Tengu directly", "list"),
    ("when can B activate Effect Veiler", "when_can"),
    ("which point comes next after A passes", "next_point"),
    ("who chooses the order of Red Dragon Archfiend and Marshmallon", "chooses"),
    ("what is on the chain now", "chain"),
    ("who may act next now", "who_acts"),
    ("Can A Pass Now?", "can"),
]


@pytest.mark.parametrize("text,kind", DESIGN_EXAMPLES)
def test_design_examples_parse(names, text, kind):
    assert parse_question(text, names).kind == kind


def test_card_names_with_punctuation(names):
    q = parse_question("does Lyla, Lightsworn Sorceress's effect activate during the end phase", names)
    assert q.outcome is not None and q.outcome.card is not None
    assert q.outcome.card.text == "Lyla, Lightsworn Sorceress"
    assert q.outcome.card.effect is True


def test_when_forms(names):
    q = parse_question("can B activate Sangan during battle.damage.after_calculation", names)
    assert q.when.kind == "during" and q.when.point == "battle.damage.after_calculation"
    q = parse_question("can A activate Mystical Space Typhoon before A draws", names)
    assert q.when.kind == "before_event" and q.when.event.kind == "draw"
    q = parse_question("can B activate waboku2 before the damage step", names)
    assert q.when.kind == "before_point"
    q = parse_question("can A chain golem2 in response to A activating golem1", names)
    assert q.when.kind == "in_response" and q.when.event.card.text == "golem1"


@pytest.mark.parametrize(
    "phrase,kind",
    [
        ("A declares the end of main phase 1", "declare_end"),
        ("the chain resolves", "chain_resolves"),
        ("A enters the end phase", "enter"),
        ("A declares an attack with Reborn Tengu directly", "attack"),
        ("A declares an attack with Reborn Tengu on Marshmallon", "attack"),
        ("B chains Mind Crush", "chain"),
        ("A draws", "draw"),
        ("B lets Effect Veiler expire", "expire"),
        ("Effect Veiler resolves", "resolves"),
        ("main phase 1 ends", "ends"),
        ("the damage step begins", "begins"),
    ],
)
def test_event_phrases(names, phrase, kind):
    assert parse_event(phrase, names).kind == kind


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("can B activate Efect Veiler now", "did you mean 'Effect Veiler'"),
        ("can Q pass now", "unknown player 'Q'"),
        ("who has", "ends too early"),
        ("can B activate Effect Veiler during the lunch phase", "unknown phase or step"),
        ("", "empty"),
        ("x" * 2000, "too long"),
        ("can A § pass", "reserved character"),
        ("A draws", "an event phrase, not a question"),
    ],
)
def test_bad_questions(names, text, fragment):
    with pytest.raises(InputError) as err:
        parse_question(text, names)
    assert fragment in str(err.value)


def test_error_shows_the_column(names):
    with pytest.raises(InputError) as err:
        parse_question("can B activate Efect Veiler now", names)
    text = str(err.value)
    assert "column 16" in text and "^" in text


@pytest.mark.parametrize("text,when_kind", [
    # the event phrases of combat damage are not the names of the steps they happen in
    ("who has priority after combat damage is dealt", "after"),
    ("what is on the stack in response to combat damage being dealt", "in_response"),
    ("who has priority after first-strike damage is dealt", "after"),
])
def test_mtg_damage_event_phrases(text, when_kind):
    q = parse_question(text, Names(["Lightning Bolt"], ["Alice", "Bob"], "mtg"))
    assert q.when.kind.startswith(when_kind.split("_")[0]), q.when


def test_point_name_starting_with_a_when_word_as_event_subject(names):
    # ... and the sub-step's own name as the subject of "<point> begins" (a history line)
    ev = parse_event("after damage calculation begins", names)
    assert ev.kind == "begins" and "after damage calculation" in str(ev.point), ev
