"""The card-text reader never silently drops or mis-classifies what a card says.

Every sentence of every card is either read into the model (an effect's
attributes) or listed as unmodelled, for that effect (``Effect.unmodelled``,
the effect's report) or for the card (``Card.unmodelled``), as
"<aspect>: <the card's words>".  The cases come from the real card texts of the
full card list, read through the project's own loader (``logic.carddata``) and
never copied here; the tests are skipped only when the list is absent.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from logic import carddata
from logic import textreader as tr

FULL_LIST = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "ygo-cards.jsonl"


def _path() -> Path:
    for cand in (carddata.default_path(), FULL_LIST, Path("/work/shared/data/ygo-cards.jsonl")):
        if cand is not None and Path(cand).exists():
            return Path(cand)
    pytest.skip(f"the full card list ({FULL_LIST} or $CHAINJUDGE_CARDS) is not here")


@pytest.fixture(scope="module")
def records() -> dict[str, carddata.CardRecord]:
    return carddata.load(_path())


def _card(records: dict[str, carddata.CardRecord], name: str) -> tr.DerivedCard:
    assert name in records, f"{name} is not in the card list"
    return tr.derive(records[name])


# ---------------------------------------------------------------- restrictions on players


def test_dark_ruler_no_more_restriction_is_listed(records: dict[str, carddata.CardRecord]) -> None:
    dc = _card(records, "Dark Ruler No More")
    (eff,) = dc.card.effects
    rep = dc.report(eff.index)
    assert rep is not None and rep.status == tr.CLASSIFIED
    # the response ban is a restriction on the activation: listed, never dropped
    listed = [u for u in eff.unmodelled if u.startswith("restriction:")]
    assert listed and "in response to this card's activation" in listed[0], eff.unmodelled
    assert listed[0] in rep.unmodelled
    assert not dc.fully_modelled
    assert any("Dark Ruler No More, effect 1" in m and "in response to" in m for m in dc.not_modelled())
    # the cache keeps it (the answer reads the card back from JSON)
    back = tr.DerivedCard.from_json(json.loads(json.dumps(dc.to_json())))
    assert back.card.effects[0].unmodelled == eff.unmodelled


def test_restriction_on_the_activating_player_is_listed(records: dict[str, carddata.CardRecord]) -> None:
    """"You cannot Special Summon ... the turn you activate this card" changes when it can be activated."""
    hits = []
    for name in sorted(records)[::7]:
        dc = tr.derive(records[name])
        for e in dc.card.effects:
            for u in e.unmodelled:
                if u.startswith("restriction:") and "the turn you activate" in u.lower():
                    hits.append((name, u))
    assert len(hits) >= 10, hits


def test_continuous_effects_say_what_they_do(records: dict[str, carddata.CardRecord]) -> None:
    """A Continuous Effect's content is not modelled for derived cards: it is listed."""
    dc = _card(records, "Grave Ohja")
    cont = [e for e in dc.card.effects if e.kind == "continuous"]
    assert cont and all(e.unmodelled for e in cont)
    assert any(u.startswith("restriction:") and "attack target" in u for e in cont for u in e.unmodelled)


# ---------------------------------------------------------------- older wording


def test_old_wording_flip_summon_trigger_is_a_mandatory_trigger(records: dict[str, carddata.CardRecord]) -> None:
    """ "Each time ... is Flip Summoned, inflict 300 damage ..." (no ':'): a mandatory Trigger Effect."""
    rec = records["Grave Ohja"]
    assert "Flip Summoned, inflict 300" in rec.text  # the wording this test is about
    dc = tr.derive(rec)
    trig = [e for e in dc.card.effects if e.kind == "trigger"]
    assert len(trig) == 1, [(e.kind, e.summary) for e in dc.card.effects]
    e = trig[0]
    assert e.mandatory and "Flip Summoned" in e.summary
    # the event itself (a monster on your side is Flip Summoned) is outside the vocabulary: listed
    assert any(u.startswith("trigger event:") for u in e.unmodelled)


def test_old_wording_normal_summon_trigger(records: dict[str, carddata.CardRecord]) -> None:
    """ "When this card is Normal Summoned, put 2 counters on it.": a mandatory trigger on its Normal Summon."""
    dc = _card(records, "B.E.S. Covered Core")
    e = dc.card.effects[0]
    assert (e.kind, e.mandatory, e.triggers) == ("trigger", True, ("normal_summoned",))


def test_psct_text_without_colon_stays_continuous(records: dict[str, carddata.CardRecord]) -> None:
    """A PSCT text ("GY") writes activated effects with ':'; without one it is not activated."""
    dc = _card(records, "Soul Levy")
    each = [e for e in dc.card.effects if "Each time" in e.summary]
    assert each and all(e.kind == "continuous" for e in each)


# ---------------------------------------------------------------- no card skipped


def test_tuner_without_effect_in_its_type_line_is_read(records: dict[str, carddata.CardRecord]) -> None:
    rec = records["Attack Gainer"]
    assert "effect" not in rec.kinds and "tuner" in rec.kinds
    dc = tr.derive(rec)
    assert dc.category == "effect_monster"
    (e,) = dc.card.effects
    # older wording: "If ..., select 1 face-up monster your opponent controls": a mandatory trigger that targets
    assert e.kind == "trigger" and e.mandatory
    assert dict(e.target) == {"zone": "monster", "side": "opponent", "face": "up"}
    # "The selected opponent's monster loses 1000 ATK ..." is part of that effect, not another one
    assert "The selected" in (dc.report(e.index) or tr.EffectReport(0, "", "")).text


def test_spirit_without_effect_in_its_type_line_is_read(records: dict[str, carddata.CardRecord]) -> None:
    rec = records["Dark Dust Spirit"]
    assert "effect" not in rec.kinds and "spirit" in rec.kinds
    dc = tr.derive(rec)
    assert dc.category == "effect_monster" and len(dc.card.effects) >= 2
    assert any(u.startswith("summoning condition:") for u in dc.card.unmodelled)


def test_no_monster_with_rules_text_is_skipped(records: dict[str, carddata.CardRecord]) -> None:
    for rec in records.values():
        ks = set(rec.kinds)
        if rec.card_type == "monster" and ks & {"tuner", "gemini", "union", "spirit"} and "normal" not in ks:
            assert tr.category_of(rec.card_type, rec.kinds) == "effect_monster", rec.name


# ---------------------------------------------------------------- every sentence placed


def _placed(dc: tr.DerivedCard, rec: carddata.CardRecord) -> list[str]:
    """The sentences of a card that are neither in one of its effects nor listed as unmodelled."""
    texts = [r.text for r in dc.reports] + list(dc.card.unmodelled)
    blob = "\n".join(texts)
    missing = []
    blocks = [rec.text] if dc.category in ("effect_monster", "non_effect_monster", "spell", "trap") else []
    blocks.append(rec.pendulum_text)
    for text in blocks:
        for s in tr.split_text(text):
            notes, rest = tr._strip_leading_notes(s)
            for n in notes:
                if n.text not in blob:
                    missing.append(n.text)
            if rest is None:
                continue
            w = rest.words()
            if w[:4] in (["you", "can", "only", "use"], ["you", "can", "only", "activate"]) and not any(
                    rest.text.lower()[:40] in note for note in dc.notes):
                continue  # a frequency clause, read into the effects it names
            if dc.card.no_normal_summon and tuple(w) in tr._NO_NORMAL_SUMMON:
                continue  # read as no_normal_summon
            if rest.text not in blob:
                missing.append(rest.text)
    return missing


def _sample(records: dict[str, carddata.CardRecord], n: int = 300) -> list[carddata.CardRecord]:
    names = sorted(records)
    step = max(1, len(names) // n)
    return [records[k] for k in names[::step][:n]]


def test_every_sentence_maps_to_an_effect_or_an_unmodelled_part(records: dict[str, carddata.CardRecord]) -> None:
    bad = {}
    for rec in _sample(records):
        dc = tr.derive(rec)
        missing = _placed(dc, rec)
        if missing:
            bad[rec.name] = missing
    assert not bad, bad


def test_every_restriction_is_listed(records: dict[str, carddata.CardRecord]) -> None:
    """A sentence that restricts what a player may do is never read as nothing."""
    bad = {}
    for rec in _sample(records):
        dc = tr.derive(rec)
        if dc.category == "normal_monster":
            continue
        listed = "\n".join([u for e in dc.card.effects for u in e.unmodelled] + list(dc.card.unmodelled))
        unread = "\n".join(r.text for r in dc.reports if r.status != tr.CLASSIFIED)
        for text in (rec.text, rec.pendulum_text):
            for sent in tr.split_text(text):
                _notes, s = tr._strip_leading_notes(sent)
                if s is None or tuple(s.words()) in tr._NO_NORMAL_SUMMON:
                    continue
                # what follows the activation condition (a condition "in response to ..." is read there)
                said = s.text.split(":", 1)[1] if ":" in s.text else s.text
                if not tr.is_restriction(said):
                    continue
                if s.text not in listed and s.text not in unread and not _clause_listed(s.text, listed):
                    bad.setdefault(rec.name, []).append(s.text)
    assert not bad, bad


def _clause_listed(sentence: str, listed: str) -> bool:
    """The restricting part of a sentence (what follows its condition) is listed."""
    for part in listed.split("\n"):
        words = part.split(": ", 1)[1] if ": " in part else part
        if words.rstrip(".") in sentence and tr.is_restriction(words):
            return True
    return False


def test_effects_with_unmodelled_parts_are_not_fully_modelled(records: dict[str, carddata.CardRecord]) -> None:
    dcs = [tr.derive(r) for r in _sample(records, 200)]
    cov = tr.coverage(dcs)
    for dc in dcs:
        if dc.card.unmodelled or any(e.unmodelled for e in dc.card.effects):
            assert not dc.fully_modelled, dc.card.name
    js = tr.report_json(cov, None)
    n = sum(c.get("fully_modelled", 0) for c in js["cards"].values())
    assert n == sum(dc.fully_modelled for dc in dcs)


def test_effect_veiler_chained_to_dark_ruler_no_more_is_not_answered(tmp_path: Path) -> None:
    """The response ban is not modelled, so "can B activate Effect Veiler" in response is
    never answered "Yes": the answer says what is not modelled (exit 4)."""
    import os
    import subprocess
    import sys

    path = _path()
    sc = tmp_path / "drnm.yaml"
    sc.write_text(
        "game: ygo\nplayers: [A, B]\nturn_player: A\nphase: main1\ncards:\n"
        "  - {card: Dark Ruler No More, controller: A, zone: hand}\n"
        "  - {card: Judgment Dragon, controller: A, zone: monster, position: face_up_attack}\n"
        "  - {card: Effect Veiler, controller: B, zone: hand}\n"
        "history:\n  - A activates Dark Ruler No More\n", encoding="utf-8")
    env = {**os.environ, "CHAINJUDGE_CARDS": str(path)}
    run = subprocess.run([sys.executable, "-m", "queries.cli", "ask", str(sc),
                          "can B activate Effect Veiler targeting Judgment Dragon now"],
                         capture_output=True, text=True, env=env, timeout=600)
    assert run.returncode == 4, (run.returncode, run.stdout, run.stderr)
    assert "Dark Ruler No More" in run.stdout + run.stderr and "in response to" in run.stdout + run.stderr


# ---------------------------------------------------------------- activation from another place


def test_activation_from_the_hand_keeps_the_cards_requirements(records: dict[str, carddata.CardRecord]) -> None:
    # Evenly Matched: "At the end of the Battle Phase, ...: ... If you control no
    # cards, you can activate this card from your hand."  The activation from the
    # hand is the same activation: its window and condition still apply (Konami,
    # yugiohblog.konami.com/articles/?p=8419: it can only be activated at the end of
    # the Battle Phase), so they are neither dropped nor forgotten there.
    dc = _card(records, "Evenly Matched")
    set_eff, hand_eff = dc.card.effects
    assert hand_eff.zones == ("hand",)
    assert set(set_eff.conditions) <= set(hand_eff.conditions)
    assert ("controls_no_cards", None) in hand_eff.conditions
    assert set(set_eff.unmodelled) <= set(hand_eff.unmodelled)
    assert any(u.startswith("window:") for u in hand_eff.unmodelled)
