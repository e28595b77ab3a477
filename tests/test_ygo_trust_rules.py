"""Issue 13 (trust), Yu-Gi-Oh!: rules and readings that turned confident wrong answers of the
external corpus into right answers or honest refusals (tests/corpus/external/known-wrong.yaml)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from logic import carddata
from logic import textreader as tr
from logic.errors import NotModelled
from logic.scenario import from_data
from queries.answer import Asker

FULL_LIST = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "ygo-cards.jsonl"


def _ygo(cards: list[dict[str, Any]], **extra: Any) -> Asker:
    data = {"game": "ygo", "players": ["A", "B"], "turn_player": "A", "phase": "main1", "cards": cards, **extra}
    return Asker(from_data(data, "test"))


BATTLE = [
    {"card": "Summoned Skull", "controller": "A", "zone": "monster", "position": "face_up_attack"},
    {"card": "Kuriboh", "controller": "B", "zone": "monster", "position": "face_up_attack"},
]


def test_one_hand_self_summon_trigger_per_chain():
    asker = _ygo([{"card": "Summoned Skull", "controller": "A", "zone": "monster", "position": "face_up_attack"},
                  {"card": "Battle Fader", "id": "f1", "controller": "B", "zone": "hand"},
                  {"card": "Battle Fader", "id": "f2", "controller": "B", "zone": "hand"}],
                 phase="battle.battle",
                 history=["A declares an attack with Summoned Skull directly", "B activates f1"])
    ans = asker.ask("can B activate f2 now")
    assert ans.verdict == "no"
    assert "ygo.trigger.one_hand_summon_per_chain" in [r["rule"] for r in ans.as_json()["because"]]


def test_opponents_mandatory_phase_effect_must_be_activated():
    card = {"name": "Test Returner", "card_type": "monster", "atk": 1000, "def": 1000,
            "effects": [{"kind": "phase", "mandatory": True, "conditions": ["turn(opponent)", "phase(standby)"],
                         "once_per_turn": True, "actions": ["no_action"]}]}
    asker = _ygo([{"card": "Test Returner", "controller": "B", "zone": "monster", "position": "face_up_attack"}],
                 phase="standby", custom_cards=[card])
    assert asker.ask("must B activate Test Returner before the standby phase ends").verdict == "yes"
    # ... and only during the phase it names
    asker = _ygo([{"card": "Test Returner", "controller": "B", "zone": "monster", "position": "face_up_attack"}],
                 phase="main1", custom_cards=[card])
    assert asker.ask("can B activate Test Returner now").verdict == "no"


def test_atk_change_with_a_restriction_left_behind_is_an_atk_change():
    # "it loses 700 ATK, also it cannot attack or change its battle position": the restriction is
    # no other act, and "When it leaves the field, destroy this card" a later event
    path = next((p for p in (carddata.default_path(), FULL_LIST) if p is not None and Path(p).exists()), None)
    if path is None:
        pytest.skip("the full card list is not here")
    records = carddata.load(Path(path))
    assert tr.derive(records["Shadow Spell"]).card.effects[0].actions == ("atk_change",)
    assert not tr.derive(records["Spellbinding Circle"]).card.effects[0].actions


def _trap(name: str, summary: str) -> dict[str, Any]:
    return {"name": name, "card_type": "trap", "property": "normal",
            "effects": [{"kind": "card", "target": {"zone": "monster", "side": "opponent"}, "summary": summary}]}


def _damage_step(card: dict[str, Any]) -> Asker:
    return _ygo(BATTLE + [{"card": card["name"], "controller": "B", "zone": "spell_trap", "position": "face_down"}],
                phase="battle.damage.before_calculation", custom_cards=[card],
                attack={"attacker": "Summoned Skull", "target": "Kuriboh"})


def test_damage_step_no_is_never_given_on_an_unread_result_that_names_atk():
    # the resolution is not modelled; it names ATK, so it could change ATK: not a confident No
    asker = _damage_step(_trap("Test Blast", "destroy it, then inflict damage equal to its original ATK"))
    with pytest.raises(NotModelled) as exc:
        asker.ask("can B activate Test Blast targeting Summoned Skull now")
    assert "Test Blast, effect 1" in exc.value.message


def test_damage_step_no_stands_when_the_unread_result_cannot_be_allowed_there():
    asker = _damage_step(_trap("Test Binder", "it cannot attack this turn"))
    assert asker.ask("can B activate Test Binder targeting Summoned Skull now").verdict == "no"
