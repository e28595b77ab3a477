"""The bundled Yu-Gi-Oh! card library: coverage, schema, stamps, spell speeds."""

from __future__ import annotations

from pathlib import Path

import pytest

from logic import vocabulary as V
from logic.carddata import default_path, load, stamps
from logic.cards import bundled

ROOT = Path(__file__).resolve().parent.parent
SHARED_LIST = ROOT.parent / "shared" / "ygo-library.txt"
CORPUS_LIST = ROOT / "tests" / "corpus" / "ygo-library.txt"


def _names(path: Path) -> list[str]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            out.append(line)
    return out


def required_names() -> list[str]:
    """The names the library must hold: the shared list when present, else our copy."""
    return _names(SHARED_LIST if SHARED_LIST.exists() else CORPUS_LIST)


LIB = bundled("ygo")
CARDS = sorted(LIB.cards.values(), key=lambda c: c.name)


def test_corpus_copy_matches_shared_list():
    if not SHARED_LIST.exists():
        pytest.skip("shared list not present")
    assert _names(CORPUS_LIST) == _names(SHARED_LIST), "tests/corpus/ygo-library.txt is out of date"


@pytest.mark.parametrize("name", required_names())
def test_required_card_is_in_the_library(name):
    assert name in LIB.cards, f"{name!r} is not in logic/library/ygo.yaml"


def test_library_loads():
    assert len(LIB) >= len(required_names())


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c.name)
def test_every_card_has_a_stamp(card):
    stamp = stamps().get(card.name)
    assert stamp, f"{card.name}: no stamp; run python -m logic.carddata stamp"
    assert stamp.get("text_sha256") and stamp.get("konami_id"), f"{card.name}: incomplete stamp"
    assert card.text_sha256 == stamp["text_sha256"]
    assert stamp["card_type"] == card.card_type, f"{card.name}: card type differs from the stamp"
    if card.card_type != "monster":
        assert stamp.get("property", "normal") == card.property, f"{card.name}: property differs"


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c.name)
def test_stamp_digest_matches_the_card_data(card):
    path = default_path()
    if path is None or not path.exists():
        pytest.skip("card data file not present")
    record = load(path).get(card.name)
    assert record is not None, f"{card.name} is not in the card data file"
    assert stamps()[card.name]["text_sha256"] == record.sha256, (
        f"{card.name}: the official text changed since the entry was checked; re-read it, then re-stamp"
    )


def _default_speed(card) -> int:
    if card.card_type == "trap":
        return 3 if card.property == "counter" else 2
    return 2 if card.property == "quickplay" else 1


SPELLS_TRAPS = [c for c in CARDS if c.card_type in ("spell", "trap")]


@pytest.mark.parametrize("card", SPELLS_TRAPS, ids=lambda c: c.name)
def test_spell_trap_activation_has_the_right_spell_speed(card):
    acts = [e for e in card.effects if e.kind == "card"]
    assert acts, f"{card.name}: a Spell/Trap needs a 'card' effect"
    for e in acts:
        assert e.speed == _default_speed(card), f"{card.name}: activation speed {e.speed}"


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c.name)
def test_every_effect_has_a_summary(card):
    for e in card.effects:
        assert e.summary.strip(), f"{card.name} effect {e.index} has no summary"


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c.name)
def test_effect_attributes_are_consistent(card):
    for e in card.effects:
        where = f"{card.name} effect {e.index}"
        if e.kind == "trigger":
            assert e.timing in ("when", "if"), f"{where}: a trigger needs timing when/if"
        if e.kind != "continuous":
            assert e.actions, (
                f"{where}: list its actions (no_action when nothing timing-relevant changes)"
            )
        if e.damage_step:
            assert e.damage_step_source.strip(), (
                f"{where}: a damage_step override needs damage_step_source"
            )
        if e.errata_2014:
            assert e.duration in ("end_of_turn", "permanent", "end_of_next_turn", "end_of_opponents_next_turn"), (
                f"{where}: errata_2014 effects read 'until the end of the turn' (or of the next turn)"
            )
        for a in e.actions:
            assert a in V.YGO_ACTIONS


# Existing entries whose summary repeats a phrase of the official text; they are
# left unchanged and listed in docs/library-review.md.
KNOWN_COPIES: set[str] = set()


def test_summaries_do_not_copy_official_text():
    path = default_path()
    if path is None or not path.exists():
        pytest.skip("card data file not present")
    records = load(path)
    copied = [
        f"{card.name} effect {e.index}"
        for card in CARDS
        for e in card.effects
        if len(e.summary.strip()) >= 40
        and e.summary.lower().strip() in records[card.name].text.lower()
    ]
    copied = [c for c in copied if c not in KNOWN_COPIES]
    assert not copied, f"summaries that copy the official text: {copied}"
