"""What the question language means (docs/questions.md): one test per
semantic and per game where it applies."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest
from lark import Lark

from logic.errors import InputError, NotModelled
from logic.games import turn
from logic.scenario import from_data
from queries.answer import Answer, Asker
from queries.parser import _parser, names_for, parse_question

# ---------------------------------------------------------------- positions


def _ygo(cards: list[dict[str, Any]], phase: str = "main1", history: tuple[str, ...] = (),
         attack: dict[str, str] | None = None) -> dict[str, Any]:
    d: dict[str, Any] = {"game": "ygo", "players": ["A", "B"], "turn_player": "A", "phase": phase,
                         "cards": cards, "history": list(history)}
    if attack:
        d["attack"] = attack
    return d


def _mtg(cards: list[dict[str, Any]], phase: str = "main1", history: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"game": "mtg", "players": ["Alice", "Bob"], "active_player": "Alice", "phase": phase,
            "cards": cards, "history": list(history)}


def _c(name: str, controller: str, zone: str, **kw: Any) -> dict[str, Any]:
    return {"card": name, "controller": controller, "zone": zone, **kw}


_SCENARIOS: dict[str, dict[str, Any]] = {
    "ygo_cannon": _ygo([_c("Cannon Soldier", "A", "monster", position="face_up_attack"),
                        _c("Sangan", "A", "monster", position="face_up_attack")]),
    "ygo_summon": _ygo([_c("Reborn Tengu", "A", "hand"),
                        _c("Trap Hole", "B", "spell_trap", position="face_down"),
                        _c("Mystical Space Typhoon", "B", "spell_trap", position="face_down")]),
    "ygo_warning": _ygo([_c("Reborn Tengu", "A", "hand"),
                         _c("Solemn Warning", "B", "spell_trap", position="face_down"),
                         _c("Trap Hole", "B", "spell_trap", position="face_down")]),
    "ygo_mirror": _ygo([_c("Reborn Tengu", "A", "monster", position="face_up_attack"),
                        _c("Mirror Force", "B", "spell_trap", position="face_down")], phase="battle.battle"),
    "ygo_imperm": _ygo([_c("Reborn Tengu", "A", "monster", position="face_up_attack"),
                        _c("Infinite Impermanence", "B", "spell_trap", position="face_down")]),
    # DSR after damage calculation: both trigger; SEGOC puts the turn player's first
    "ygo_order": _ygo([_c("Red Dragon Archfiend", "A", "monster", position="face_up_attack"),
                       _c("Marshmallon", "B", "monster", position="face_down_defense")],
                      phase="battle.damage.start", attack={"attacker": "Red Dragon Archfiend", "target": "Marshmallon"}),
    "ygo_damage": _ygo([_c("Reborn Tengu", "A", "monster", position="face_up_attack"),
                        _c("Sangan", "B", "monster", position="face_up_attack")],
                       phase="battle.damage.start", attack={"attacker": "Reborn Tengu", "target": "Sangan"}),
    # A's Pot of Greed is Chain Link 1, B's Mystical Space Typhoon Chain Link 2; both passed: the chain is resolving
    "ygo_midchain": _ygo([_c("Pot of Greed", "A", "spell_trap", position="face_down"),
                          _c("Mystical Space Typhoon", "B", "spell_trap", position="face_down"),
                          _c("Mystical Space Typhoon", "A", "spell_trap", position="face_down", id="mst_a"),
                          _c("Mind Crush", "B", "spell_trap", position="face_down")],
                         history=("A activates Pot of Greed", "B activates Mystical Space Typhoon targeting mst_a",
                                  "A passes", "B passes")),
    "ygo_flip": _ygo([_c("Reborn Tengu", "A", "monster", position="face_down_defense"),
                      _c("Trap Hole", "B", "spell_trap", position="face_down")]),
    "ygo_reborn": _ygo([_c("Monster Reborn", "A", "hand"), _c("Blue-Eyes White Dragon", "A", "graveyard"),
                        _c("Bottomless Trap Hole", "B", "spell_trap", position="face_down"),
                        _c("Trap Hole", "B", "spell_trap", position="face_down")],
                       history=("A activates Monster Reborn targeting Blue-Eyes White Dragon",)),
    "ygo_dark_hole": _ygo([_c("Dark Hole", "A", "hand"), _c("Sangan", "B", "monster", position="face_up_attack")],
                          history=("A activates Dark Hole",)),
    "mtg_bolt": _mtg([_c("Lightning Bolt", "Bob", "hand"), _c("Mountain", "Bob", "battlefield")]),
    "mtg_combat": _mtg([_c("Grizzly Bears", "Alice", "battlefield"), _c("Lightning Bolt", "Bob", "hand"),
                        _c("Mountain", "Bob", "battlefield")], phase="combat.beginning"),
    "mtg_bears": _mtg([_c("Soul Warden", "Bob", "battlefield"), _c("Grizzly Bears", "Alice", "hand"),
                       _c("Forest", "Alice", "battlefield"), _c("Forest", "Alice", "battlefield", id="forest2"),
                       _c("Lightning Bolt", "Bob", "hand"), _c("Mountain", "Bob", "battlefield")],
                      history=("Alice casts Grizzly Bears",)),
    "mtg_wardens": _mtg([_c("Soul Warden", "Alice", "battlefield", id="warden_a"),
                         _c("Soul Warden", "Bob", "battlefield", id="warden_b"),
                         _c("Grizzly Bears", "Alice", "hand")],
                        history=("Alice casts Grizzly Bears", "Alice passes", "Bob passes")),
    "mtg_stack": _mtg([_c("Lightning Bolt", "Alice", "hand"), _c("Mountain", "Alice", "battlefield"),
                       _c("Giant Growth", "Bob", "hand"), _c("Forest", "Bob", "battlefield"),
                       _c("Grizzly Bears", "Bob", "battlefield")],
                      history=("Alice casts Lightning Bolt targeting Grizzly Bears",)),
}


@cache
def _asker(name: str) -> Asker:
    return Asker(from_data(_SCENARIOS[name], name))


def ask(name: str, question: str) -> Answer:
    return _asker(name).ask(question)


def got(name: str, question: str) -> Any:
    ans = ask(name, question)
    return ans.verdict if ans.verdict is not None else ans.answer


def refused(name: str, question: str) -> str:
    with pytest.raises(InputError) as exc:
        ask(name, question)
    return exc.value.message


# ---------------------------------------------------------------- premises


def test_ygo_premise_resolution_of_an_effect_not_on_the_chain_is_an_error():
    # Cannon Soldier's library entry approximates its damage: with an unmodelled part in
    # the position the premise is refused (exit 4) with the reason it fails as modelled
    with pytest.raises(NotModelled) as exc:
        ask("ygo_cannon", "can A activate Sangan after Cannon Soldier's effect resolves")
    msg = exc.value.message
    assert "as modelled:" in msg and "Cannon Soldier's effect resolves" in msg and "not on the chain" in msg


def test_mtg_premise_a_draw_already_past_is_an_error():
    msg = refused("mtg_bolt", "can Bob cast Lightning Bolt before Alice draws")
    assert "Alice draws" in msg and "draw step is already past" in msg


@pytest.mark.parametrize("name,question", [
    ("ygo_cannon", "can A activate Sangan during the draw phase"),
    ("ygo_cannon", "can A activate Sangan before the standby phase"),
    ("mtg_bolt", "can Bob cast Lightning Bolt during the upkeep"),
    ("mtg_bolt", "can Bob cast Lightning Bolt before main phase 1"),
])
def test_a_point_already_past_is_an_error(name, question):
    assert "already" in refused(name, question)


def test_ygo_premise_that_cannot_come_next_names_the_rules():
    # Mirror Force cannot be activated without an attack: "after B activates Mirror Force" is no moment
    msg = refused("ygo_mirror", "who has priority after B activates Mirror Force")
    assert "B activates Mirror Force" in msg and "ygo.activation" in msg


# ---------------------------------------------------------------- in response to


def test_every_event_phrase_has_an_ing_form():
    """Derived from the grammar: each alternative of `event` performed by a player
    has its -ing form after "in response to <player>", and each one no player
    performs after "in response to"."""
    lark: Lark = _parser()
    samples = {"card": "Sangan", "card_effect": "Sangan's effect", "point_ref": "the battle phase",
               "targeting": "targeting Mirror Force", "attack_target": "directly", "hand_size": "for the hand size limit",
               "card_list": "Sangan", "block_list": "Sangan blocks Mirror Force", "PLAYER": "A",
               "paid_list": "tributing Sangan", "METHOD": "xyz", "using": "using Sangan", "from_zone": "from the hand"}
    alternatives = [r for r in lark.rules if str(r.origin.name) == "event"]
    assert len(alternatives) >= 25
    names = names_for(["Sangan", "Mirror Force"], ["A", "B"], "ygo")
    checked = 0
    for rule in alternatives:
        words: list[str] = []
        for sym in rule.expansion:
            name = str(sym.name)
            if name in samples:
                words.append(samples[name])
            elif name.startswith("__") or name.isupper():
                pattern = lark.get_terminal(name).pattern.value
                words.append(pattern if re.fullmatch(r"[a-z:\-]+", pattern) else "")
            else:
                words.append(samples.get(name.lstrip("_"), ""))
        # optional parts (targeting, hand_size) are dropped by lark into separate expansions
        words = [w for w in words if w]
        if words[0] == "A":
            verb_at = next(i for i, w in enumerate(words) if i > 0 and w.endswith("s"))  # "A normal summons"
            prefix = "in response to A"
        else:
            # the verb of a phrase no player performs: the word before its end ("resolves", "begins", "is dealt")
            verb_at = next(i for i, w in enumerate(words) if w in ("resolves", "begins", "ends", "is"))
            prefix = "in response to"
        words[verb_at] = _ing(words[verb_at])
        phrase = " ".join([prefix, *(words[1:] if words[0] == "A" else words)])
        q = parse_question(f"can B pass {phrase}", names)
        assert q.when.kind == "in_response", phrase
        assert q.when.event is not None and q.when.event.kind == _kind(rule), phrase
        checked += 1
    assert checked == len(alternatives)


def _kind(rule: Any) -> str:
    kind = str(rule.alias)[2:]
    if kind == "discard" and any(str(s.name) == "hand_size" for s in rule.expansion):
        return "discard_hand_size"
    return kind


def _ing(verb: str) -> str:
    if verb == "is":
        return "being"
    stem = verb[:-2] if verb.endswith(("sses", "ches")) else verb[:-1]  # passes -> pass, draws -> draw
    if stem in ("set", "let", "begin"):
        return stem + stem[-1] + "ing"
    if stem.endswith("e") and not stem.endswith("ee"):
        return stem[:-1] + "ing"
    return stem + "ing"


def test_ygo_in_response_to_a_normal_summon_is_the_summon_response_window():
    assert got("ygo_summon", "can B activate Trap Hole in response to A normal summoning Reborn Tengu") == "yes"
    # not the open state after it: the window is over once both players have passed
    assert got("ygo_summon", "can B activate Trap Hole now") == "no"


def test_ygo_in_response_to_a_summon_with_a_negation_card_is_the_negation_window():
    ans = ask("ygo_warning", "can B activate Solemn Warning in response to A normal summoning Reborn Tengu")
    assert ans.verdict == "yes"
    # Trap Hole waits for the Summon to succeed (the negation window allows only negation): still the same response
    assert got("ygo_warning", "can B activate Trap Hole in response to A normal summoning Reborn Tengu") == "yes"


def test_ygo_in_response_to_an_attack_declaration():
    assert got("ygo_mirror", "can B activate Mirror Force in response to A declaring an attack with Reborn Tengu "
                             "directly") == "yes"


def test_ygo_in_response_to_a_flip_summon():
    assert got("ygo_flip", "can B activate Trap Hole in response to A flip summoning Reborn Tengu") == "yes"


def test_ygo_in_response_to_a_special_summon_by_an_effect():
    q = "in response to A special summoning Blue-Eyes White Dragon"
    assert got("ygo_reborn", f"can B activate Bottomless Trap Hole {q}") == "yes"
    assert got("ygo_reborn", f"can B activate Trap Hole {q}") == "no"  # Normal or Flip Summons only


def test_ygo_in_response_to_a_resolution_a_trigger_answers():
    assert got("ygo_dark_hole", "can B activate Sangan in response to Dark Hole resolving") == "yes"
    assert got("ygo_dark_hole", "can B activate Sangan while Dark Hole resolves") == "no"


def test_mtg_in_response_to_a_resolution():
    # Soul Warden's ability triggers as Grizzly Bears resolves; Bob may respond once Alice has priority
    assert got("mtg_bears", "can Bob cast Lightning Bolt in response to Grizzly Bears resolving") == "yes"


def test_mtg_in_response_to_declaring_attackers():
    assert got("mtg_combat", "can Bob cast Lightning Bolt in response to Alice declaring attackers with "
                             "Grizzly Bears") == "yes"


def test_mtg_in_response_to_a_spell_is_the_object_above_it():
    ans = ask("mtg_stack", "can Bob cast Giant Growth targeting Grizzly Bears in response to Alice casting "
                           "Lightning Bolt")
    assert ans.verdict == "yes"


# ---------------------------------------------------------------- the order of resolution


def test_ygo_resolve_order_is_the_reverse_of_the_chain_order():
    on = ask("ygo_order", "in what order do Red Dragon Archfiend and Marshmallon go on the chain")
    res = ask("ygo_order", "in what order do Red Dragon Archfiend and Marshmallon resolve")
    assert on.answer == ["Red Dragon Archfiend", "Marshmallon"]
    assert res.answer == ["Marshmallon", "Red Dragon Archfiend"]
    assert "core.chain.last_first" in {b["rule"] for b in res.because}


def test_mtg_resolve_order_follows_apnap():
    # APNAP: the active player's trigger goes on the stack first, so it resolves last
    assert got("mtg_wardens", "in what order do warden_a and warden_b go on the stack") == ["warden_a", "warden_b"]
    ans = ask("mtg_wardens", "in what order do warden_a and warden_b resolve")
    assert ans.answer == ["warden_b", "warden_a"]
    assert "mtg.triggers.apnap" in {b["rule"] for b in ans.because}


# ---------------------------------------------------------------- after / during every point


def _point_names(game: str) -> list[str]:
    t = turn(game)
    return sorted(set(t.spans) | set(t.aliases))


@pytest.mark.parametrize("game", ["ygo", "mtg"])
def test_after_and_during_parse_for_every_point_name(game):
    t = turn(game)
    player = "A" if game == "ygo" else "Alice"
    names = names_for([], [player, "B" if game == "ygo" else "Bob"], game)
    kinds = {"after": "after", "during": "during", "at": "during", "in": "during", "before": "before_point"}
    for point in _point_names(game):
        first = point.split(" ", 1)[0]
        # "after damage calculation" is itself a when-form: after <damage calculation>
        forms = [(point, kinds[first])] if first in kinds else [(f"{w} {point}", k) for w, k in kinds.items()]
        for when, kind in forms:
            q = parse_question(f"can {player} pass {when}", names)
            assert q.when.kind == kind, when
            named = q.when.point or (q.when.event.point if q.when.event else None)
            assert named is not None and t.resolve(named) is not None, when


def test_ygo_after_and_during_damage_calculation():
    assert got("ygo_damage", "can B activate Sangan during damage calculation") == "no"
    assert got("ygo_damage", "can B activate Sangan at the end of the damage step") == "yes"
    ans = ask("ygo_damage", "who has priority after damage calculation")
    assert ans.answer == "A" and ans.detail["point"] == "battle.damage.after_calculation"


def test_mtg_after_and_during_a_step():
    assert got("mtg_combat", "can Bob cast Lightning Bolt during the declare blockers step") == "yes"
    assert got("mtg_combat", "who has priority after the beginning of combat step") == "Alice"


# ---------------------------------------------------------------- now


def test_ygo_now_allows_passes_only():
    # A's pass in the open state declares the end of Main Phase 1: B's chance (box E) comes with passes only
    assert got("ygo_imperm", "can B activate Infinite Impermanence targeting Reborn Tengu now") == "yes"
    # an attack declaration is an action, not a pass: Mirror Force is not "now"
    assert got("ygo_mirror", "can B activate Mirror Force now") == "no"
    assert got("ygo_mirror", "can B activate Mirror Force after A declares an attack with Reborn Tengu directly") == "yes"


def test_mtg_now_allows_passes_only():
    assert got("mtg_bolt", "can Bob cast Lightning Bolt now") == "yes"
    assert got("mtg_combat", "can Bob cast Lightning Bolt now") == "yes"


# ---------------------------------------------------------------- mid-chain, mid-resolution


def test_ygo_nothing_is_activated_while_the_chain_resolves():
    ans = ask("ygo_midchain", "can B activate Mind Crush before Pot of Greed resolves")
    assert ans.verdict == "no" and "core.procedure.game_acts" in {b["rule"] for b in ans.because}
    assert got("ygo_midchain", "can A activate mst_a targeting Mind Crush while Pot of Greed resolves") == "no"
    assert got("ygo_midchain", "who has priority while Pot of Greed resolves") == "nobody"
    assert got("ygo_midchain", "what is on the chain while Pot of Greed resolves") == ["Pot of Greed"]
    # once the chain has resolved B may act again
    assert got("ygo_midchain", "can B activate Mind Crush after the chain resolves") == "yes"


def test_mtg_no_priority_while_a_spell_resolves():
    ans = ask("mtg_stack", "can Bob cast Giant Growth targeting Grizzly Bears while Lightning Bolt resolves")
    assert ans.verdict == "no"
    assert got("mtg_stack", "who has priority while Lightning Bolt resolves") == "nobody"
