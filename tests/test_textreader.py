"""The card-text reader (logic/textreader.py, grammar logic/psct.lark).

The examples name real cards, with short texts written here in the cards'
Problem-Solving Card Text style (never whole official texts), and state what
the reader must derive.  They come in pairs where a small change of wording
changes the answer ("When" / "If", "You can", "(Quick Effect)", ":" / ","),
and with texts the reader must refuse to classify rather than guess.

The figures on the full card list (coverage, agreement with the hand-checked
library) are checked by the one test that needs ../shared/data/ygo-cards.jsonl;
it is skipped, saying so, when the file is absent.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from logic import carddata
from logic import textreader as tr


def monster(name: str, text: str, type_line: str = "Spellcaster / Effect", **extra: Any) -> dict[str, Any]:
    return {"name": name, "card_type": "Monster", "monster_type_line": type_line, "text": text, **extra}


def spell(name: str, prop: str, text: str) -> dict[str, Any]:
    return {"name": name, "card_type": "Spell", "property": prop, "text": text}


def trap(name: str, prop: str, text: str) -> dict[str, Any]:
    return {"name": name, "card_type": "Trap", "property": prop, "text": text}


def only_effect(rec: dict[str, Any], index: int = 1) -> tuple[Any, Any]:
    dc = tr.derive(rec)
    rep = dc.report(index)
    eff = next((e for e in dc.card.effects if e.index == index), None)
    return eff, rep


def conds(e: Any) -> set[str]:
    return {f"{n}({a})" if a else n for n, a in e.conditions}


# ---------------------------------------------------------------- good and bad, side by side
# (card, text, expected attributes of effect 1; status "classified" unless stated)
PAIRS: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    # "When ... :" can miss the timing, "If ... :" cannot
    ("when: a trigger that can miss the timing",
     monster("Sangan", "When this card is sent from the field to the GY: Add 1 monster from your Deck to your hand."),
     {"kind": "trigger", "timing": "when", "mandatory": True, "speed": 1, "triggers": ("sent_to_gy_from_field",)}),
    ("if: the same trigger, which does not miss the timing",
     monster("Sangan", "If this card is sent from the field to the GY: Add 1 monster from your Deck to your hand."),
     {"kind": "trigger", "timing": "if", "mandatory": True, "triggers": ("sent_to_gy_from_field",)}),
    # "You can" makes an effect optional
    ("you can: optional",
     monster("Reborn Tengu", "If this face-up card leaves the field: You can Special Summon 1 \"Reborn Tengu\" from your Deck."),
     {"kind": "trigger", "timing": "if", "mandatory": False, "triggers": ("leaves_field",)}),
    ("no 'You can': mandatory",
     monster("Reborn Tengu", "If this face-up card leaves the field: Special Summon 1 \"Reborn Tengu\" from your Deck."),
     {"kind": "trigger", "mandatory": True, "triggers": ("leaves_field",)}),
    # "(Quick Effect)" makes a Spell Speed 2 effect usable in a window; without it, an Ignition effect
    ("quick effect with a window and a cost from the hand",
     monster("Effect Veiler", "During your opponent's Main Phase (Quick Effect): You can send this card from your hand "
             "to the GY, then target 1 Effect Monster your opponent controls; negate its effects until the end of this turn.",
             "Spellcaster / Tuner / Effect"),
     {"kind": "quick", "speed": 2, "mandatory": False, "conditions": {"turn(opponent)", "phase(main)"},
      "costs": ("discard_self",), "zones": ("hand",), "duration": "end_of_turn",
      "target": {"zone": "monster", "side": "opponent", "face": "up", "kind": "effect_monster"}}),
    ("the same without '(Quick Effect)': an Ignition effect in your own Main Phase",
     monster("Honest", "During your Main Phase: You can return this face-up card from the field to the hand."),
     {"kind": "ignition", "speed": 1, "mandatory": False, "conditions": {"phase(main)"}}),
    # "during your X Phase" effects are activated when their controller chooses (the phase-effect guides)
    ("a mandatory End Phase effect",
     monster("Judgment Dragon", "Once per turn, during your End Phase: Send the top 4 cards of your Deck to the GY."),
     {"kind": "phase", "mandatory": True, "conditions": {"turn(own)", "phase(end)"}, "once_per_turn": True}),
    ("an optional Standby Phase effect of the opponent's turn",
     monster("Depth Shark", "During your opponent's Standby Phase: You can draw 1 card."),
     {"kind": "phase", "mandatory": False, "conditions": {"turn(opponent)", "phase(standby)"}}),
    # Damage Step windows
    ("during damage calculation, with a battle condition",
     monster("Kuriboh", "During damage calculation, if your opponent's monster attacks (Quick Effect): You can discard "
             "this card; you take no battle damage from that battle.", "Fiend / Effect"),
     {"kind": "quick", "conditions": {"phase(ds_calc)", "opponent_monster_attacks"}, "costs": ("discard_self",)}),
    ("after damage calculation: a trigger at that moment",
     monster("Red Dragon Archfiend", "1 Tuner + 1+ non-Tuner monsters\nAfter damage calculation, if this card attacked an "
             "opponent's Defense Position monster: Destroy all Defense Position monsters your opponent controls.",
             "Dragon / Synchro / Effect"),
     {"kind": "trigger", "timing": "if", "mandatory": True, "triggers": ("after_damage_calculation",),
      "conditions": {"attacked_defense_position"}}),
    ("at the start of the Damage Step",
     monster("Neo-Spacian Grand Mole", "At the start of the Damage Step, if this card battles an opponent's monster: "
             "You can return both monsters to the hand.", "Rock / Effect"),
     {"kind": "trigger", "timing": "if", "triggers": ("start_of_damage_step",), "conditions": {"self_battles"},
      # "battles an opponent's monster" is narrower than the vocabulary's self_battles (not a direct
      # attack): read as self_battles, the narrowing reported
      "unmodelled": "if this card battles an opponent's monster"}),
    # responding to activations
    ("responds to the opponent's Spell/Trap Cards and monster effects",
     monster("Herald of Perfection", "When your opponent activates a Spell/Trap Card, or monster effect (Quick Effect): "
             "You can send 1 Fairy monster from your hand to the GY; negate the activation, and if you do, destroy it.",
             "Fairy / Ritual / Effect"),
     {"kind": "quick", "conditions": {"responds"}, "responds_to": {("opponent", "spell_trap_card"),
                                                                  ("opponent", "monster_effect")},
      "costs": ("discard",)}),
    ("a mandatory Quick Effect that Tributes itself",
     monster("Doomcaliber Knight", "When a monster effect is activated (Quick Effect): Tribute this face-up card; negate "
             "the activation, and if you do, destroy that monster.", "Fiend / Effect"),
     {"kind": "quick", "mandatory": True, "responds_to": {("any", "monster_effect")}, "costs": ("tribute_self",)}),
    # the activation of a Spell/Trap Card
    ("a Trap activated when an opponent's monster attacks",
     trap("Mirror Force", "Normal", "When an opponent's monster declares an attack: Destroy all your opponent's Attack "
          "Position monsters."),
     {"kind": "card", "speed": 2, "conditions": {"attack_declared(opponent)"}}),
    ("a Counter Trap: Spell Speed 3, paying half the LP",
     trap("Solemn Judgment", "Counter", "When a Spell/Trap Card is activated: Pay half your LP; negate the activation, "
          "and if you do, destroy that card."),
     {"kind": "card", "speed": 3, "costs": ("pay_half_lp",), "responds_to": {("any", "spell_trap_card")}}),
    ("a Quick-Play Spell that targets a Spell/Trap",
     spell("Mystical Space Typhoon", "Quick-Play", "Target 1 Spell/Trap on the field; destroy that target."),
     {"kind": "card", "speed": 2, "target": {"zone": "field", "kind": "spell_trap"}}),
    ("a Normal Spell lasting until the End Phase (not among the 2014 families)",
     spell("Mind Control", "Normal", "Target 1 monster your opponent controls; until the End Phase, take control of it."),
     {"kind": "card", "speed": 1, "duration": "end_phase", "target": {"zone": "monster", "side": "opponent"}}),
    # a Trap's effect in the GY is Spell Speed 2
    ("a Trap's GY effect during your turn",
     trap("Breakthrough Skill", "Normal", "Target 1 Effect Monster your opponent controls; negate its effects until the end "
          "of this turn. During your turn, except the turn this card was sent to the GY: You can banish this card from "
          "your GY, then target 1 Effect Monster your opponent controls; negate its effects until the end of this turn."),
     {"kind": "card", "speed": 2}),
    # windows of the Yu-Gi-Oh! vocabulary extensions (issue 3)
    ("the Summon response window, narrowed by ATK",
     trap("Bottomless Trap Hole", "Normal", "When your opponent Summons a monster(s) with 1500 or more ATK: Destroy that "
          "monster(s) with 1500 or more ATK, and if you do, banish it."),
     {"kind": "card", "conditions": {"summoned(opponent,any)", "summoned_atk_at_least(1500)"}}),
    ("the Summon response window of a Normal or Flip Summon",
     trap("Trap Hole", "Normal", "When your opponent Normal or Flip Summons a monster with 1000 or more ATK: Target that "
          "monster; destroy that target."),
     {"kind": "card", "conditions": {"summoned(opponent,normal_or_flip)", "summoned_atk_at_least(1000)"}}),
    ("Xyz material as a condition",
     monster("Number 39: Utopia", "2 Level 4 monsters\nIf this card is targeted for an attack, while it has no "
             "material: Destroy this card.", "Warrior / Xyz / Effect"),
     {"kind": "trigger", "triggers": ("targeted_for_attack",), "conditions": {"no_material"}}),
    ("a Quick Effect of an Xyz Monster with material that is attacked",
     monster("Number 9: Dyson Sphere", "2 Level 9 monsters\nIf this card with material is attacked (Quick Effect): You "
             "can negate that attack.", "Machine / Xyz / Effect"),
     {"kind": "quick", "conditions": {"self_attacked", "has_material"}}),
    ("Main Phase 1 only",
     monster("Number 9: Dyson Sphere", "2 Level 9 monsters\nDuring your Main Phase 1: You can detach 1 material from "
             "this card; this card can attack directly this turn.", "Machine / Xyz / Effect"),
     {"kind": "ignition", "conditions": {"phase(main1)"}}),
    ("cards added from the opponent's Main Deck, outside the Draw Phase",
     monster("Droll & Lock Bird", "If a card(s) is added from the Main Deck to your opponent's hand, except during the "
             "Draw Phase (Quick Effect): You can send this card from your hand to the GY; for the rest of this turn, "
             "cards cannot be added from either player's Main Deck to the hand.", "Spellcaster / Effect"),
     {"kind": "quick", "conditions": {"added_from_deck(opponent)"}, "damage_step": None}),
    ("a count of the opponent's Summons this turn",
     monster("Nibiru, the Primal Being", "During the Main Phase, if your opponent Normal or Special Summoned 5 or more "
             "monsters this turn (Quick Effect): You can Tribute as many face-up monsters on the field as possible, and "
             "if you do, Special Summon this card from your hand.", "Rock / Effect"),
     {"kind": "quick", "conditions": {"phase(main)", "opponent_summoned_at_least(5)"}}),
    ("an effect activated in the opponent's GY",
     monster("Skull Meister", "When a card effect is activated in your opponent's GY (Quick Effect): You can send this "
             "card from your hand to the GY; negate that effect.", "Fiend / Effect"),
     {"kind": "quick", "responds_to": {("opponent", "graveyard_effect")}}),
    ("FLIP",
     monster("Man-Eater Bug", "FLIP: Target 1 monster on the field; destroy that target.", "Insect / Flip / Effect"),
     {"kind": "flip", "mandatory": True, "target": {"zone": "monster"}}),
    ("a continuous effect is never activated",
     monster("Marshmallon", "Cannot be destroyed by battle.", "Fairy / Effect"),
     {"kind": "continuous"}),
    ("a Flip monster's trigger on being flipped",
     monster("Fossil Dyna Pachycephalo", "If this card is flipped face-up: Destroy all Special Summoned monsters on the field.",
             "Rock / Effect"),
     {"kind": "trigger", "timing": "if", "mandatory": True, "triggers": ("flipped",)}),
]

def test_older_wording_response_to_an_activation_is_a_quick_effect() -> None:
    # no "(Quick Effect)" label in older wording, but a Spell Speed 1 effect can never be
    # chained to an activation; the cost is not marked in that wording, so still partial
    eff, rep = only_effect(monster("Spell Reactor・RE", "Once per turn, when your opponent activates a Spell Card, you "
                                   "can destroy the Spell Card and inflict 800 damage to your opponent.", "Machine / Effect"))
    assert rep.status == tr.PARTIAL and any("older wording" in r for r in rep.reasons)
    assert eff.kind == "quick" and eff.speed == 2 and eff.timing is None
    assert set(eff.responds_to) == {("opponent", "spell_card")}


def test_summon_negation_and_activation_are_two_entries() -> None:
    dc = tr.derive(trap("Solemn Warning", "Counter", "When a monster(s) would be Summoned, OR when a Spell/Trap Card, or "
                        "monster effect, is activated that includes an effect that Special Summons a monster(s): Pay "
                        "2000 LP; negate the Summon or activation, and if you do, destroy it."))
    assert [e.kind for e in dc.card.effects] == ["card", "card"]
    first, second = dc.card.effects
    assert set(first.responds_to) == {("any", "special_summons")}
    assert conds(second) == {"would_be_summoned(any,any)"} and not second.responds_to
    assert [n for n, _ in first.costs] == [n for n, _ in second.costs] == ["pay_lp"]
    assert first.speed == second.speed == 3
    assert dc.split_check in ("ok", "n/a") and all(r.status == tr.CLASSIFIED for r in dc.reports)


def test_activation_from_the_hand_is_an_entry_of_its_own() -> None:
    dc = tr.derive(trap("Infinite Impermanence", "Normal", "Target 1 face-up monster your opponent controls; negate its "
                        "effects (until the end of this turn). If you control no cards, you can activate this card "
                        "from your hand."))
    assert [e.kind for e in dc.card.effects] == ["card", "card"]
    assert conds(dc.card.effects[1]) == {"controls_no_cards"} and tuple(dc.card.effects[1].zones) == ("hand",)
    assert not conds(dc.card.effects[0])


def test_a_face_up_effect_of_a_normal_spell_that_stays() -> None:
    dc = tr.derive(spell("Swords of Revealing Light", "Normal", "After this card's activation, it remains on the field, "
                         "but you must destroy it during the End Phase of your opponent's 3rd turn. When this card is "
                         "activated: If your opponent controls a face-down monster, flip all monsters they control "
                         "face-up. While this card is face-up on the field, your opponent's monsters cannot declare an "
                         "attack."))
    assert [e.kind for e in dc.card.effects] == ["card", "continuous"]


# Texts the reader must not classify: it says why instead of guessing.
REFUSALS: list[tuple[str, dict[str, Any], str, str]] = [
    ("older wording: 'When'/'If' of a trigger is not reliable",
     monster("Lock Cat", "When this card is Normal Summoned, you can Special Summon 1 Beast monster from your GY."),
     tr.PARTIAL, "older wording"),
    ("two windows joined by 'or' cannot be one set of conditions",
     monster("Angelica, Princess of Noble Arms", "When a card or effect is activated that targets this card, or when this "
             "card is targeted for an attack (Quick Effect): You can banish this card."),
     tr.PARTIAL, "alternative activation conditions"),
    ("a choice of windows",
     monster("E Stranger Big Bang", "During the Main Phase or Battle Phase (Quick Effect): You can draw 1 card."),
     tr.PARTIAL, "a choice of windows"),
    ("an activated effect written without ':' or ';' whose condition cannot be split off",
     monster("Lifeforce Harmonizer", "When your opponent activates a card that inflicts damage you can discard this card "
             "to negate it."),
     tr.UNCLASSIFIED, "no ':' or ';'"),
]


@pytest.mark.parametrize("why,rec,want", PAIRS, ids=[p[0] for p in PAIRS])
def test_reads(why: str, rec: dict[str, Any], want: dict[str, Any]) -> None:
    eff, rep = only_effect(rec)
    assert rep is not None and rep.status == tr.CLASSIFIED, (why, rep)
    assert eff is not None
    for key, value in want.items():
        if key == "conditions":
            assert conds(eff) >= value if "responds" not in value else conds(eff) == value, (why, conds(eff))
        elif key == "responds_to":
            assert set(eff.responds_to) == value, (why, eff.responds_to)
        elif key == "costs":
            assert tuple(n for n, _ in eff.costs) == value, (why, eff.costs)
        elif key == "target":
            assert dict(eff.target) == value, (why, eff.target)
        elif key == "zones":
            assert tuple(eff.zones) == value, (why, eff.zones)
        elif key == "unmodelled":
            assert any(value in u for u in rep.unmodelled), (why, rep.unmodelled)
        else:
            assert getattr(eff, key) == value, (why, key, getattr(eff, key))
    assert eff.kind in tr.V.YGO_KINDS


@pytest.mark.parametrize("why,rec,status,reason", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_refuses(why: str, rec: dict[str, Any], status: str, reason: str) -> None:
    dc = tr.derive(rec)
    rep = dc.report(1)
    assert rep is not None and rep.status == status, (why, rep)
    assert any(reason in r for r in rep.reasons), rep.reasons
    assert dc.not_modelled(), "a question about this card must answer 'not modelled'"


# ---------------------------------------------------------------- structure of a card's text


def test_summoning_conditions_and_materials_are_not_effects() -> None:
    dc = tr.derive(monster("Judgment Dragon", "Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by "
                           "having 4 or more \"Lightsworn\" monsters in your GY. You can pay 1000 LP; destroy all other "
                           "cards on the field.", "Dragon / Effect"))
    assert [e.kind for e in dc.card.effects] == ["ignition"]
    assert dc.card.no_normal_summon
    assert dc.card.effects[0].costs == (("pay_lp", "1000"),)
    dc = tr.derive(monster("Red Dragon Archfiend", "1 Tuner + 1+ non-Tuner monsters\nCannot be destroyed by battle.",
                           "Dragon / Synchro / Effect"))
    assert [e.kind for e in dc.card.effects] == ["continuous"]


def test_once_per_turn_clauses_attach_to_the_effects_they_name() -> None:
    rec = monster("Ash Blossom & Joyous Spring", "If this card is Normal Summoned: You can draw 1 card. During your Main "
                  "Phase: You can add 1 card from your Deck to your hand. You can only use each effect of "
                  "\"Ash Blossom & Joyous Spring\" once per turn.")
    assert [e.once_per_turn for e in tr.derive(rec).card.effects] == [True, True]
    rec["text"] = rec["text"].replace("each effect", "this effect")
    assert [e.once_per_turn for e in tr.derive(rec).card.effects] == [False, True]
    rec["text"] = rec["text"].replace("this effect", "the 1st effect")
    assert [e.once_per_turn for e in tr.derive(rec).card.effects] == [True, False]


def test_quoted_names_keep_their_punctuation() -> None:
    rec = monster("Number 39: Utopia", "If \"Number 39: Utopia; Beyond.\" is sent to the GY: You can draw 1 card.")
    dc = tr.derive(rec)
    assert len(dc.card.effects) == 1 and dc.card.effects[0].kind == "trigger"
    nested = tr.split_text('You can only use this effect of "Maxx "C"" once per turn. Draw 1 card.')
    assert [s.text for s in nested][0].endswith('"Maxx "C"" once per turn.')


def test_normal_trap_resolution_runs_over_several_sentences() -> None:
    dc = tr.derive(trap("Waboku", "Normal", "You take no battle damage this turn. Your monsters cannot be destroyed by "
                        "battle this turn."))
    assert [e.kind for e in dc.card.effects] == ["card"]
    assert dc.card.effects[0].duration == "end_of_turn"


def test_continuous_trap_activation_and_effects() -> None:
    dc = tr.derive(trap("Skill Prisoner", "Continuous", "Once per turn: You can target 1 monster you control; it is "
                        "unaffected by monster effects this turn."))
    kinds = [(e.kind, e.speed) for e in dc.card.effects]
    assert kinds == [("card", 2), ("quick", 2)]  # the activation, then a Spell Speed 2 effect


def test_bullets_after_a_choice_are_modes_of_one_effect() -> None:
    dc = tr.derive(spell("Machina Redeployment", "Normal", "Activate 1 of these effects.\n● Discard 1 card; add 2 "
                         "\"Machina\" monsters from your Deck to your hand.\n● Discard 1 \"Machina\" card; add 2 "
                         "\"Machina\" cards from your Deck to your hand."))
    # one unit of text (one effect for the Japanese numbering), but the choice is made on
    # activation: like the library (Enemy Controller), one activation entry per choice
    assert [e.kind for e in dc.card.effects] == ["card", "card"]
    assert [r.status for r in dc.reports] == [tr.CLASSIFIED, tr.CLASSIFIED]
    assert dc.split_check in ("ok", "n/a")


def test_pendulum_effects_are_read_as_spell_effects() -> None:
    rec = monster("Performapal Odd-Eyes Butler", "If this card in the Monster Zone is destroyed: You can place this card "
                  "in your Pendulum Zone.", "Spellcaster / Pendulum / Effect",
                  pendulum_effect="Once per turn: You can draw 1 card.")
    dc = tr.derive(rec)
    assert [(r.block, e.kind) for r, e in zip(dc.reports, dc.card.effects, strict=True)] == [
        ("monster", "trigger"), ("pendulum", "ignition")]
    assert dc.card.effects[1].zones == ("spell_trap",) and dc.card.effects[1].speed == 1


def test_japanese_numbering_cross_checks_the_split() -> None:
    assert tr.ja_effect_count("①：効果。②：効果。") == 2
    assert tr.ja_effect_count("このカード名の①の効果は１ターンに１度しか使用できない。①：効果。") == 1
    assert tr.ja_effect_count("効果。") is None
    rec = monster("Sangan", "If this card is sent from the field to the GY: Draw 1 card.", text_ja="①：効果。②：効果。")
    assert tr.derive(rec).split_check.startswith("mismatch")
    rec["text_ja"] = "①：効果。"
    assert tr.derive(rec).split_check == "ok"


def test_every_derived_card_goes_through_the_library_schema() -> None:
    for _why, rec, _want in PAIRS:
        dc = tr.derive(rec)
        assert dc.card.origin == "derived"
        back = tr.DerivedCard.from_json(json.loads(json.dumps(dc.to_json())))
        assert back.card == dc.card and back.reports == dc.reports


# ---------------------------------------------------------------- the grammar


def test_grammar_has_no_conflicts(caplog: pytest.LogCaptureFixture) -> None:
    from lark import Lark
    from lark import logger as lark_logger

    lark_logger.setLevel(logging.DEBUG)
    try:
        with caplog.at_level(logging.DEBUG, logger="lark"):
            for start in ("card", "head", "cost"):
                caplog.clear()
                Lark(tr._grammar_text(), start=start, parser="lalr",
                     lexer="contextual" if start == "card" else tr._ListLexer, debug=True)
                assert not [r for r in caplog.records if "conflict" in r.getMessage().lower()], start
    finally:
        lark_logger.setLevel(logging.WARNING)


def test_fast_splitter_follows_the_card_rule() -> None:
    texts = [t for _w, rec, _x in PAIRS for t in [rec["text"]]] + [
        "Draw 2 cards.", "2 Level 4 monsters\nOnce per turn: You can draw 1 card.", "● A. ● B: C; D.",
        "(This card is always treated as a \"Blackwing\" card.)\nDraw 1 card", "", ". Draw.", "a ● b. c",
    ]
    for t in texts:
        fast = [(tuple((x.type, x.value) for x in s.tokens), s.line, s.bullet, s.terminated) for s in tr.split_text(t)]
        slow = [(tuple((x.type, x.value) for x in s.tokens), s.line, s.bullet, s.terminated)
                for s in tr.split_text(t, use_lark=True)]
        assert fast == slow, t


def test_head_clauses_are_events_or_states() -> None:
    def kinds(head: str) -> list[tuple[str, bool]]:
        return [(i.rule, i.clause.is_event) for i in tr.parse_head(tuple(head.split())) if i.clause]

    assert kinds("if a monster you control is destroyed by battle") == [("if_item", True)]
    assert kinds("if you control a qname monster") == [("if_item", False)]
    assert kinds("if a monster that was special summoned from the extra deck is destroyed") == [("if_item", True)]
    assert kinds("if this card is in your gy") == [("if_item", False)]
    assert kinds("if you have activated a qname spell card this turn") == [("if_item", False)]
    assert kinds("when this card is destroyed by battle and sent to the gy") == [("when_item", True)]


# ---------------------------------------------------------------- robustness


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300), st.sampled_from(["Monster", "Spell", "Trap", "", "Token"]),
       st.sampled_from([None, "Normal", "Quick-Play", "Counter", "Continuous", "Field", "Equip", "odd"]))
def test_never_raises_on_arbitrary_text(text: str, card_type: str, prop: str | None) -> None:
    rec = {"name": "Fuzz", "card_type": card_type, "property": prop, "text": text, "text_ja": text,
           "monster_type_line": "Fiend / Effect", "pendulum_effect": text[::-1]}
    dc = tr.derive(rec)
    assert all(r.status in tr.STATUSES for r in dc.reports)
    assert not any("reader error" in why for r in dc.reports for why in r.reasons), dc.reports


_PSCT_WORDS = ["If", "When", "this", "card", "is", "Summoned", "sent", "to", "the", "GY", "You", "can", "target",
               "1", "monster", ";", ":", ",", ".", "(Quick Effect)", "Once", "per", "turn", "during", "your",
               "opponent's", "Main", "Phase", "destroy", "it", "\"Name\"", "●", "\n", "or", "and", "FLIP", "that"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(_PSCT_WORDS), max_size=40))
def test_never_raises_on_card_like_text(words: list[str]) -> None:
    dc = tr.derive(monster("Fuzz", " ".join(words)))
    assert not any("reader error" in why for r in dc.reports for why in r.reasons), dc.reports


def test_cache_round_trip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHAINJUDGE_CACHE", str(tmp_path / "cache"))
    cards = tmp_path / "cards.jsonl"
    cards.write_text("\n".join(json.dumps(rec) for _w, rec, _x in PAIRS[:6]) + "\n", encoding="utf-8")
    first = tr.load_derived(cards)
    assert first.source.startswith("derived")
    second = tr.load_derived(cards)
    assert second.source.startswith("cache")
    assert [dc.card for dc in first] == [dc.card for dc in second]
    assert second.get("effect veiler") is not None  # case-insensitive lookup


def test_a_malformed_line_is_reported_not_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from logic.errors import InputError

    monkeypatch.setenv("CHAINJUDGE_CACHE", str(tmp_path / "cache"))
    cards = tmp_path / "cards.jsonl"
    cards.write_text("\n".join(json.dumps(rec) for _w, rec, _x in PAIRS[:2]) + "\nnot json\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"cards.jsonl:3: not a JSON object"):
        tr.load_derived(cards)


def test_coverage_cli_on_a_small_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CHAINJUDGE_CACHE", str(tmp_path / "cache"))
    cards = tmp_path / "cards.jsonl"
    cards.write_text("\n".join(json.dumps(rec) for _w, rec, _x in PAIRS + [(r[0], r[1], {}) for r in REFUSALS]),
                     encoding="utf-8")
    assert tr.main(["coverage", str(cards)]) == 0
    out = capsys.readouterr().out
    assert "Cards fully classified, by card type" in out and "confusion table: kind" in out


# ---------------------------------------------------------------- the full card list


def test_coverage_and_agreement_on_the_card_list() -> None:
    path = carddata.default_path()
    if path is None or not Path(path).exists():
        pytest.skip("the full card list (../shared/data/ygo-cards.jsonl or $CHAINJUDGE_CARDS) is not here: "
                    "coverage and agreement figures cannot be checked")
    lib = tr.load_derived(Path(path))
    cov = tr.coverage(lib)
    assert cov.rate() >= 0.90, tr.render_report(cov, None)
    for cat in ("effect_monster", "spell", "trap"):
        c = cov.by_category[cat]
        assert c[tr.CLASSIFIED] / c["cards"] >= 0.88, (cat, dict(c))
    assert cov.split["ok"] / sum(cov.split.values()) >= 0.85
    ag = tr.agreement(lib)
    assert ag.effects >= 25 and ag.rate >= 0.95, [d for d in ag.disagreements]
    # every difference is fixed or explained, and the explanations are not stale
    assert not ag.disagreements, ag.disagreements
    assert not ag.stale_explanations, ag.stale_explanations
    assert ag.strict_rate >= 0.95, ag.explained
    # the fast splitter and lark's parser agree on real texts too
    for n, rec in enumerate(carddata.iter_records(Path(path))):
        if n % 50 == 0:
            for text in (rec.text, rec.pendulum_text):
                fast = [(s.text, s.line, s.bullet) for s in tr.split_text(text)]
                assert fast == [(s.text, s.line, s.bullet) for s in tr.split_text(text, use_lark=True)], rec.name


def test_library_entries_override_derived_ones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHAINJUDGE_CACHE", str(tmp_path / "cache"))
    cards = tmp_path / "cards.jsonl"
    cards.write_text("\n".join(json.dumps(rec) for _w, rec, _x in PAIRS), encoding="utf-8")
    lib = tr.load_derived(cards)
    card, origin, dc = tr.card_for("Effect Veiler", lib)  # type: ignore[misc]
    assert origin == "library" and card.origin == "library" and dc is not None
    card, origin, dc = tr.card_for("Breakthrough Skill", lib)  # type: ignore[misc]
    assert origin == "derived" and card.origin == "derived" and dc is not None and dc.status == tr.CLASSIFIED
    assert tr.card_for("No Such Card", lib) is None
