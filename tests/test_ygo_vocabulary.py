"""One ruling case per Yu-Gi-Oh! vocabulary item added for the timing rules
(logic/vocabulary.py; docs/cards.md).  Each case is a small scenario, a
question and the answer an official ruling (or the card's official text)
gives; the ruling is cited next to it.  Cases run through queries.answer.Asker
like the acceptance corpus (tests/test_acceptance.py)."""

from __future__ import annotations

from typing import Any

import pytest

from logic.errors import NotModelled
from logic.scenario import from_data
from queries.answer import Asker
from queries.ast import Event, Ref
from queries.compile import GOAL, q_scope
from queries.engine import Position


def scenario(cards: list[dict[str, Any]], phase: str = "main1", tp: str = "A", history: tuple[str, ...] = (),
             attack: dict[str, str] | None = None, date: str | None = None,
             custom: list[dict[str, Any]] | None = None, life: dict[str, int] | None = None) -> dict[str, Any]:
    d: dict[str, Any] = {"game": "ygo", "players": ["A", "B"], "turn_player": tp, "phase": phase, "cards": cards,
                         "history": list(history)}
    if attack:
        d["attack"] = attack
    if date:
        d["date"] = date
    if custom:
        d["custom_cards"] = custom
    if life:
        d["life"] = life
    return d


def asker(data: dict[str, Any]) -> Asker:
    return Asker(from_data(data, "test scenario"))


def answer(data: dict[str, Any], question: str) -> Any:
    """The verdict (or answer) only: explanations are tested where their rules are asked for."""
    ans = Asker(from_data(data, "test scenario"), explain=False).ask(question)
    return ans.verdict if ans.verdict is not None else ans.answer


def rules_of(data: dict[str, Any], question: str) -> set[str]:
    return {b["rule"] for b in asker(data).ask(question).because}


def value(pos: Position, key: str) -> str | None:
    v = pos.value(key)
    return None if v is None else (v.string if v.type.name == "String" else str(v))


def zone(a: Asker, card: str) -> str | None:
    return value(a.start, f'zone("{card}")')


def immediately(a: Asker, player: str, card: str, targets: tuple[str, ...] = ()) -> tuple[bool, set[str]]:
    """Can ``player`` activate ``card`` as the very next event (no pass first)?
    Returns the verdict and the rules of the explanation."""
    ev = Event(kind="activate", player=player, card=Ref(card), targets=[Ref(t) for t in targets], text="")
    facts = a.compiler.event_facts(GOAL, ev) + [q_scope("immediate")]
    res = a.engine.search(a.start, facts, "q_reach", want_core=True)
    return res.found, {r.id for r in (res.core or [])}


def c(card: str, controller: str, zone: str, position: str | None = None, **kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"card": card, "controller": controller, "zone": zone}
    if position:
        d["position"] = position
    d.update(kw)
    return d


SET = "face_down"
ATK = "face_up_attack"
FD = "face_down_defense"

# A Normal Spell that searches (the library's searchers are triggers of monsters).
SEARCH_SPELL = {
    "name": "Test Search", "card_type": "spell", "property": "normal",
    "text": "Add 1 monster from your Deck to your hand.",
    "effects": [{"kind": "card", "actions": ["add_from_deck_to_hand"], "summary": "search 1 monster"}],
}


# ============================================================================ conditions
# ---- summoned(Who, Kind): the Summon response window
# Yugipedia "Card Rulings:Bottomless Trap Hole": it "can only be activated when the
# last thing that resolved in the Duel was the opponent Normal/Flip/Special
# Summoning a monster(s)"; Yugipedia "Summon response window".

BTH = [c("Bottomless Trap Hole", "B", "spell_trap", SET), c("Gemini Elf", "A", "hand")]  # Level 4, 1900 ATK


def test_summoned_bottomless_trap_hole_answers_the_summon():
    assert answer(scenario(BTH), "can B activate Bottomless Trap Hole after A normal summons Gemini Elf") == "yes"


def test_summoned_window_closes_once_both_players_pass():
    # Once both players have passed after the Summon, the window is over.
    data = scenario(BTH, history=("A normal summons Gemini Elf", "A passes", "B passes"))
    assert answer(data, "can B activate Bottomless Trap Hole now") == "no"


def test_summoned_bottomless_needs_the_opponent_to_summon():
    # "When your opponent Summons ...": not the activating player's own Summon.
    data = scenario([c("Bottomless Trap Hole", "A", "spell_trap", SET), c("Gemini Elf", "A", "hand")])
    assert answer(data, "can A activate Bottomless Trap Hole after A normal summons Gemini Elf") == "no"


def test_summoned_atk_at_least_trap_hole_needs_1000_atk():
    # Trap Hole: "a monster with 1000 or more ATK" (card text); Kuriboh has 300.
    data = scenario([c("Trap Hole", "B", "spell_trap", SET), c("Kuriboh", "A", "hand")])
    assert answer(data, "can B activate Trap Hole targeting Kuriboh after A normal summons Kuriboh") == "no"
    data = scenario([c("Trap Hole", "B", "spell_trap", SET), c("Gemini Elf", "A", "hand")])
    assert answer(data, "can B activate Trap Hole targeting Gemini Elf after A normal summons Gemini Elf") == "yes"


def test_summoned_trap_hole_not_on_a_special_summon():
    # Trap Hole answers Normal and Flip Summons only (card text); Monster Reborn Special Summons.
    data = scenario([c("Trap Hole", "B", "spell_trap", SET), c("Monster Reborn", "A", "hand"),
                     c("Summoned Skull", "A", "graveyard")],
                    history=("A activates Monster Reborn targeting Summoned Skull", "the chain resolves"))
    assert answer(data, "can B activate Trap Hole now") == "no"


def test_summoned_by_an_effect_that_resolves_last():
    # A Special Summon by Chain Link 1 is the last thing to happen: Bottomless Trap Hole can answer it.
    data = scenario([c("Bottomless Trap Hole", "B", "spell_trap", SET), c("Monster Reborn", "A", "hand"),
                     c("Summoned Skull", "A", "graveyard")],
                    history=("A activates Monster Reborn targeting Summoned Skull", "the chain resolves"))
    assert answer(data, "can B activate Bottomless Trap Hole now") == "yes"


def test_summoned_not_the_last_thing_misses_the_window():
    # mikamika.de "Bottomless Trap Hole" (the Jar of Greed / Call of the Haunted example): a
    # monster Summoned by Chain Link 2, followed by Chain Link 1, was not the last thing to happen.
    cards = [c("Bottomless Trap Hole", "B", "spell_trap", SET), c("Jar of Greed", "A", "spell_trap", SET),
             c("Call of the Haunted", "A", "spell_trap", SET), c("Summoned Skull", "A", "graveyard")]
    data = scenario(cards, history=("A activates Jar of Greed", "B passes",
                                     "A chains Call of the Haunted targeting Summoned Skull", "the chain resolves"))
    assert answer(data, "can B activate Bottomless Trap Hole now") == "no"


def test_summoned_torrential_tribute_chains_to_a_summon_trigger():
    # Yugipedia "Summon response window": a card activated in that timing responds to the
    # Summon and to the preceding link -- Torrential Tribute can be chained to the Summoned
    # monster's own trigger (Breaker's Spell Counter).
    data = scenario([c("Torrential Tribute", "B", "spell_trap", SET), c("Breaker the Magical Warrior", "A", "hand")],
                    history=("A normal summons Breaker the Magical Warrior",))
    assert answer(data, "can B activate Torrential Tribute in response to A activating Breaker the Magical Warrior") == "yes"


# ---- would_be_summoned(Who, Kind): the Summon negation window
# Yugipedia "Summon negation window"; ygorganization.com "Learn Rulings, part 6:
# Summons" (?p=10918); edisonformat.com "Summons" (the turn player keeps priority).

SOLEMN = [c("Solemn Warning", "B", "spell_trap", SET), c("Gemini Elf", "A", "hand"),
          c("Bottomless Trap Hole", "B", "spell_trap", SET), c("Mind Crush", "B", "spell_trap", SET)]


def test_would_be_summoned_solemn_warning_negates_a_normal_summon():
    assert answer(scenario(SOLEMN), "can B activate Solemn Warning after A normal summons Gemini Elf") == "yes"


def test_would_be_summoned_turn_player_keeps_priority():
    assert answer(scenario(SOLEMN), "who has priority after A normal summons Gemini Elf") == "A"


def test_would_be_summoned_only_summon_negation_starts_the_chain():
    a = asker(scenario(SOLEMN, history=("A normal summons Gemini Elf", "A passes")))
    ok, rules = immediately(a, "B", "Mind Crush")
    assert not ok and "ygo.summon.negation_window" in rules
    assert immediately(a, "B", "Solemn Warning")[0]


def test_would_be_summoned_not_after_the_summon_succeeded():
    # Solemn Warning cannot be activated in the Summon response window (Yugipedia).
    data = scenario(SOLEMN, history=("A normal summons Gemini Elf", "A passes", "B passes"))
    assert answer(data, "can B activate Solemn Warning now") == "no"
    assert answer(data, "can B activate Bottomless Trap Hole now") == "yes"


def test_would_be_summoned_negated_summon_opens_no_response_window():
    # "If the monster's Summon was negated ..., there will be no Summon response window" (Yugipedia).
    data = scenario(SOLEMN, history=("A normal summons Gemini Elf", "A passes", "B activates Solemn Warning",
                                     "the chain resolves"))
    a = asker(data)
    assert zone(a, "Gemini Elf") == "graveyard"
    assert a.ask("can B activate Bottomless Trap Hole now").verdict == "no"


# ---- controls_no_cards (Infinite Impermanence from the hand)
# yugiohblog.konami.com "Flames of Destruction: Forever Temporary" (2018): it can be
# activated from the hand if you control no cards.

def test_controls_no_cards_impermanence_from_the_hand():
    cards = [c("Infinite Impermanence", "B", "hand"), c("Breaker the Magical Warrior", "A", "monster", ATK)]
    assert answer(scenario(cards), "can B activate Infinite Impermanence targeting Breaker the Magical Warrior now") == "yes"
    cards.append(c("Mind Crush", "B", "spell_trap", SET))
    assert answer(scenario(cards), "can B activate Infinite Impermanence targeting Breaker the Magical Warrior now") == "no"


# ---- added_from_deck (Droll & Lock Bird)
# Card text ("If a card(s) is added from the Main Deck to your opponent's hand, except
# during the Draw Phase (Quick Effect)"); Judges' Lounge, Jackson Casanova, "Droll &
# Lock Bird" (usable in boxes B, C and D right after the addition).

DROLL = [c("Droll & Lock Bird", "B", "hand"), c("Test Search", "A", "hand"), c("Summoned Skull", "A", "deck")]


def test_added_from_deck_droll_after_a_search():
    data = scenario(DROLL, custom=[SEARCH_SPELL], history=("A activates Test Search", "the chain resolves"))
    assert answer(data, "can B activate Droll & Lock Bird now") == "yes"


def test_added_from_deck_droll_needs_an_addition():
    data = scenario(DROLL, custom=[SEARCH_SPELL])
    assert answer(data, "can B activate Droll & Lock Bird now") == "no"


def test_added_from_deck_window_closes():
    data = scenario(DROLL, custom=[SEARCH_SPELL],
                    history=("A activates Test Search", "the chain resolves", "A passes", "B passes"))
    assert answer(data, "can B activate Droll & Lock Bird now") == "no"


# ---- own_monster_destroyed (Desrook Archfiend)
# Card text: "When 'Terrorking Archfiend' you control is destroyed and sent to the GY
# (even during the Damage Step) (Quick Effect)"; DSR (ruled usable there).

def test_own_monster_destroyed_desrook_after_destruction():
    cards = [c("Desrook Archfiend", "B", "hand"), c("Summoned Skull", "B", "monster", ATK),
             c("Raigeki", "A", "hand")]
    data = scenario(cards, history=("A activates Raigeki", "the chain resolves"))
    assert answer(data, "can B activate Desrook Archfiend targeting Summoned Skull now") == "yes"
    assert answer(scenario(cards), "can B activate Desrook Archfiend targeting Summoned Skull now") == "no"


def test_own_monster_destroyed_desrook_in_the_damage_step():
    cards = [c("Desrook Archfiend", "B", "hand"), c("Kuriboh", "B", "monster", ATK),
             c("Summoned Skull", "A", "monster", ATK)]
    data = scenario(cards, phase="battle.damage.start", attack={"attacker": "Summoned Skull", "target": "Kuriboh"})
    assert answer(data, "can B activate Desrook Archfiend targeting Kuriboh during the end of the damage step") == "yes"


# ---- opponent_summoned_at_least(N) (Nibiru, the Primal Being)
# Card text: "During the Main Phase, if your opponent Normal or Special Summoned 5 or more
# monsters this turn (Quick Effect)".

def _nibiru(flagged: int) -> dict[str, Any]:
    cards = [c("Nibiru, the Primal Being", "B", "hand"), c("Kuriboh", "A", "hand")]
    names = ["Dark Magician", "Gemini Elf", "Mystical Elf", "Blue-Eyes White Dragon"][:flagged]
    cards += [c(n, "A", "monster", ATK, summoned_this_turn=True) for n in names]
    return scenario(cards)


def test_opponent_summoned_at_least_nibiru_after_the_fifth_summon():
    assert answer(_nibiru(4), "can B activate Nibiru after A normal summons Kuriboh") == "yes"


def test_opponent_summoned_at_least_nibiru_not_before():
    assert answer(_nibiru(3), "can B activate Nibiru after A normal summons Kuriboh") == "no"


# ---- phase(main1) (Number 9: Dyson Sphere's first effect: "During your Main Phase 1")

# ---- opponent_higher_atk (its second condition: "if your opponent controls a monster with higher ATK than this card")

def test_phase_main1_dyson_sphere():
    cards = [c("Number 9: Dyson Sphere", "A", "monster", ATK, materials=2),
             c("Blue-Eyes White Dragon", "B", "monster", ATK)]
    assert answer(scenario(cards), "can A activate Number 9: Dyson Sphere now") == "yes"
    assert answer(scenario(cards, phase="main2"), "can A activate Number 9: Dyson Sphere now") == "no"


def test_opponent_higher_atk_dyson_sphere():
    # 2800 against Summoned Skull's 2500: no monster with higher ATK
    cards = [c("Number 9: Dyson Sphere", "A", "monster", ATK, materials=2), c("Summoned Skull", "B", "monster", ATK)]
    assert answer(scenario(cards), "can A activate Number 9: Dyson Sphere now") == "no"


# ---- self_attacked (Number 9: Dyson Sphere's second effect: "if this card with material is attacked")

def test_self_attacked_dyson_sphere():
    cards = [c("Number 9: Dyson Sphere", "B", "monster", ATK, materials=2), c("Summoned Skull", "A", "monster", ATK),
             c("Kuriboh", "B", "monster", ATK)]
    data = scenario(cards, phase="battle.battle",
                    history=("A declares an attack with Summoned Skull on Number 9: Dyson Sphere",))
    assert answer(data, "can B activate Number 9: Dyson Sphere now") == "yes"
    data = scenario(cards, phase="battle.battle", history=("A declares an attack with Summoned Skull on Kuriboh",))
    assert answer(data, "can B activate Number 9: Dyson Sphere now") == "no"


# ---- direct_attack_declared (Battle Fader: "When an opponent's monster declares a direct attack")
# Yugipedia "Card Rulings:Battle Fader" (only in the chain answering the declaration).

def test_direct_attack_declared_battle_fader():
    cards = [c("Battle Fader", "B", "hand"), c("Summoned Skull", "A", "monster", ATK)]
    data = scenario(cards, phase="battle.battle")
    assert answer(data, "can B activate Battle Fader after A declares an attack with Summoned Skull directly") == "yes"
    cards.append(c("Kuriboh", "B", "monster", ATK))
    data = scenario(cards, phase="battle.battle")
    assert answer(data, "can B activate Battle Fader after A declares an attack with Summoned Skull on Kuriboh") == "no"


# ============================================================================ actions
# ---- negate_previous_effect: negates the effect, not the activation, so it gives no
# Damage Step privilege (yugioh-card.com "Damage Step Rules": only effects that negate
# an activation; yugioh-hack.com "negate-effect-damage-step").

SANGAN_DIES = [c("Sangan", "A", "monster", ATK), c("Summoned Skull", "B", "monster", ATK),
               c("Ash Blossom & Joyous Spring", "B", "hand")]


def test_negate_previous_effect_ash_blossom_in_the_main_phase():
    cards = [c("Sangan", "A", "monster", ATK), c("Raigeki", "B", "hand"), c("Ash Blossom & Joyous Spring", "B", "hand")]
    data = scenario(cards, tp="B", history=("B activates Raigeki", "the chain resolves"))
    assert answer(data, "can B activate Ash Blossom in response to A activating Sangan") == "yes"
    data = scenario(cards, tp="B", history=("B activates Raigeki", "the chain resolves", "A activates Sangan",
                                            "B chains Ash Blossom"))
    assert answer(data, "does Sangan's effect resolve negated during main phase 1") == "yes"


def test_negate_previous_effect_not_in_the_damage_step():
    data = scenario(SANGAN_DIES, phase="battle.damage.start", attack={"attacker": "Sangan", "target": "Summoned Skull"})
    assert answer(data, "can B activate Ash Blossom during the damage step") == "no"


# ---- destroy_previous_card: destroys the card, negates nothing (Spell Reactor・RE, card text);
# a Spell destroyed on the chain still resolves (Official Rulebook v10, "Chains").

def test_destroy_previous_card_spell_reactor():
    cards = [c("Spell Reactor・RE", "B", "monster", ATK), c("Forbidden Lance", "A", "hand"),
             c("Summoned Skull", "A", "monster", ATK)]
    data = scenario(cards, history=("A activates Forbidden Lance targeting Summoned Skull", "B chains Spell Reactor・RE"))
    assert answer(data, "does Forbidden Lance's effect resolve negated during main phase 1") == "no"
    data = scenario(cards, history=("A activates Forbidden Lance targeting Summoned Skull", "B chains Spell Reactor・RE",
                                    "Spell Reactor・RE resolves"))
    assert zone(asker(data), "Forbidden Lance") == "graveyard"


# ---- atk_loss (Forbidden Lance: "loses 800 ATK"): a direct ATK change, usable in the
# Damage Step until damage calculation (DSR start of the Damage Step, DSR before damage calculation, DSR during damage calculation).

LANCE_DS = [c("Forbidden Lance", "B", "spell_trap", SET), c("Summoned Skull", "A", "monster", ATK), c("Gemini Elf", "B", "monster", ATK)]


def test_atk_loss_forbidden_lance_in_the_damage_step():
    data = scenario(LANCE_DS, phase="battle.damage.start", attack={"attacker": "Summoned Skull", "target": "Gemini Elf"})
    assert answer(data, "can B activate Forbidden Lance targeting Summoned Skull at the start of the damage step") == "yes"
    assert answer(data, "can B activate Forbidden Lance during battle.damage.calculation") == "no"


def test_atk_loss_lowers_the_atk():
    data = scenario(LANCE_DS, phase="battle.damage.start", attack={"attacker": "Summoned Skull", "target": "Gemini Elf"},
                    history=("B activates Forbidden Lance targeting Summoned Skull", "the chain resolves"))
    bonuses = [f for f in asker(data).start.has("atk_bonus")]
    assert [b.arguments[2].number for b in bonuses] == [-800]


# ---- change_target_position / set_target_face_down: an attacker changed to Defense
# Position or face-down stops attacking (yugiohrulings.wikia.com "Book Of Moon": "the
# attack stops"), so the Damage Step does not begin.

def _attack_then(card: str, *more: str) -> dict[str, Any]:
    cards = [c(card, "B", "spell_trap", SET), c("Summoned Skull", "A", "monster", ATK),
             c("Gemini Elf", "B", "monster", ATK), c("Forbidden Lance", "B", "spell_trap", SET)]
    return scenario(cards, phase="battle.battle", history=(
        "A declares an attack with Summoned Skull on Gemini Elf", *more))


def test_set_target_face_down_stops_the_attack():
    data = _attack_then("Book of Moon", "B activates Book of Moon targeting Summoned Skull", "the chain resolves")
    assert value(asker(data).start, 'pos("Summoned Skull")') == "face_down_defense"
    assert answer(data, "can B activate Forbidden Lance targeting Gemini Elf at the start of the damage step") == "no"
    data = _attack_then("Book of Moon")
    assert answer(data, "can B activate Forbidden Lance targeting Gemini Elf at the start of the damage step") == "yes"


def test_change_target_position_enemy_controller():
    # (a direct attack: B controls no monster to Tribute for Enemy Controller's other choice)
    cards = [c("Enemy Controller", "B", "spell_trap", SET), c("Summoned Skull", "A", "monster", ATK),
             c("Forbidden Lance", "B", "spell_trap", SET)]
    attack = ("A declares an attack with Summoned Skull directly",)
    data = scenario(cards, phase="battle.battle", history=(
        *attack, "B activates Enemy Controller targeting Summoned Skull", "the chain resolves"))
    assert value(asker(data).start, 'pos("Summoned Skull")') == "face_up_defense"
    assert answer(data, "can B activate Forbidden Lance targeting Summoned Skull at the start of the damage step") == "no"
    data = scenario(cards, phase="battle.battle", history=attack)
    assert answer(data, "can B activate Forbidden Lance targeting Summoned Skull at the start of the damage step") == "yes"


# ---- return_target_to_hand (Compulsory Evacuation Device, card text)

def test_return_target_to_hand():
    cards = [c("Compulsory Evacuation Device", "B", "spell_trap", SET), c("Summoned Skull", "A", "monster", ATK)]
    data = scenario(cards, history=("B activates Compulsory Evacuation Device targeting Summoned Skull",
                                    "the chain resolves"))
    assert zone(asker(data), "Summoned Skull") == "hand"


# ---- special_summon_target (Monster Reborn) -- see also test_summoned_by_an_effect_that_resolves_last
# ---- special_summon_self + end_battle_phase (Battle Fader: "Special Summon this card
# from your hand, then end the Battle Phase")

def test_special_summon_self_and_end_battle_phase():
    cards = [c("Battle Fader", "B", "hand"), c("Summoned Skull", "A", "monster", ATK)]
    data = scenario(cards, phase="battle.battle",
                    history=("A declares an attack with Summoned Skull directly", "B activates Battle Fader",
                             "the chain resolves"))
    a = asker(data)
    assert zone(a, "Battle Fader") == "monster"
    assert a.ask("which point comes next").answer == "battle.end"


# ---- negate_attack (Number 39: Utopia, card text): the attack is negated, no Damage Step

def test_negate_attack_utopia():
    cards = [c("Number 39: Utopia", "B", "monster", ATK, materials=2), c("Summoned Skull", "A", "monster", ATK),
             c("Forbidden Lance", "B", "spell_trap", SET)]
    data = scenario(cards, phase="battle.battle", history=(
        "A declares an attack with Summoned Skull on Number 39: Utopia", "B activates Number 39: Utopia",
        "the chain resolves"))
    assert answer(data, "can B activate Forbidden Lance at the start of the damage step") == "no"


# ---- end_battle_phase (Negate Attack: "negate the attack, then end the Battle Phase")

def test_end_battle_phase_negate_attack():
    cards = [c("Negate Attack", "B", "spell_trap", SET), c("Summoned Skull", "A", "monster", ATK)]
    data = scenario(cards, phase="battle.battle", history=(
        "A declares an attack with Summoned Skull directly", "B activates Negate Attack targeting Summoned Skull",
        "the chain resolves"))
    assert asker(data).ask("which point comes next").answer == "battle.end"


# ---- unaffected_by_spell_trap (Forbidden Lance: "unaffected by the effects of other
# Spells/Traps"): chained to Mirror Force, its target is not destroyed
# (yugioh.fandom.com "Book Of Moon" rulings list the same use for a chained Quick-Play).

def test_unaffected_by_spell_trap_survives_mirror_force():
    cards = [c("Mirror Force", "B", "spell_trap", SET), c("Forbidden Lance", "A", "hand"),
             c("Summoned Skull", "A", "monster", ATK), c("Gemini Elf", "A", "monster", ATK)]
    data = scenario(cards, phase="battle.battle", history=(
        "A declares an attack with Summoned Skull directly", "B activates Mirror Force",
        "A chains Forbidden Lance targeting Summoned Skull", "the chain resolves"))
    a = asker(data)
    assert zone(a, "Summoned Skull") == "monster"
    assert zone(a, "Gemini Elf") == "graveyard"


# ---- send_target_to_gy (Abyss-scorn: "send that target to the Graveyard")

def test_send_target_to_gy_abyss_scorn():
    cards = [c("Abyss-scorn", "B", "spell_trap", SET), c("Mystical Space Typhoon", "A", "hand"),
             c("Summoned Skull", "A", "monster", ATK)]
    data = scenario(cards, history=("A activates Mystical Space Typhoon targeting Abyss-scorn", "the chain resolves",
                                    "B activates Abyss-scorn targeting Summoned Skull", "the chain resolves"))
    assert zone(asker(data), "Summoned Skull") == "graveyard"


# ---- destroy_self + no_material (Number 39: Utopia: "If this card is targeted for an
# attack, while it has no material: Destroy this card")

def test_destroy_self_utopia_without_material():
    cards = [c("Number 39: Utopia", "B", "monster", ATK, materials=0), c("Summoned Skull", "A", "monster", ATK)]
    data = scenario(cards, phase="battle.battle", history=(
        "A declares an attack with Summoned Skull on Number 39: Utopia", "B activates Number 39: Utopia",
        "the chain resolves"))
    assert zone(asker(data), "Number 39: Utopia") == "graveyard"


# ---- opponent_cannot_activate + trigger inflicts_battle_damage_direct (Wattgiraffe: "If
# this card inflicts battle damage to your opponent by a direct attack: Your opponent
# cannot activate cards or effects until the end of this turn")

WATT = [c("Wattgiraffe", "A", "monster", ATK), c("D.D. Crow", "B", "hand"), c("Sangan", "A", "graveyard")]


def test_inflicts_battle_damage_direct_wattgiraffe_triggers():
    data = scenario(WATT, phase="battle.damage.start", attack={"attacker": "Wattgiraffe", "target": "direct"})
    assert answer(data, "does Wattgiraffe's effect activate during the damage step") == "yes"
    cards = [*WATT, c("Gemini Elf", "B", "monster", "face_up_defense")]
    data = scenario(cards, phase="battle.damage.start", attack={"attacker": "Wattgiraffe", "target": "Gemini Elf"})
    assert answer(data, "does Wattgiraffe's effect activate during the damage step") == "no"


def test_opponent_cannot_activate_wattgiraffe():
    data = scenario(WATT, phase="battle.damage.start", attack={"attacker": "Wattgiraffe", "target": "direct"},
                    history=("battle.damage.after_calculation begins", "Wattgiraffe resolves"))
    rules = rules_of(data, "can B activate D.D. Crow targeting Sangan during the end step")
    assert "ygo.restriction.cannot_activate" in rules
    assert answer(data, "can B activate D.D. Crow targeting Sangan during the end step") == "no"
    data = scenario(WATT, phase="battle.start")
    assert answer(data, "can B activate D.D. Crow targeting Sangan during the end step") == "yes"


# ---- opponent_cannot_attack (Threatening Roar: "Your opponent cannot declare an attack this turn")

def test_opponent_cannot_attack_threatening_roar():
    cards = [c("Threatening Roar", "B", "spell_trap", SET), c("Summoned Skull", "A", "monster", ATK)]
    data = scenario(cards, phase="battle.start", history=("B activates Threatening Roar", "the chain resolves"))
    assert answer(data, "can A declare an attack with Summoned Skull directly during the battle phase") == "no"
    assert answer(scenario(cards, phase="battle.start"),
                  "can A declare an attack with Summoned Skull directly during the battle phase") == "yes"


# ---- no_damage + cost tribute(synchro) (Synchro Barrier: "Tribute 1 Synchro Monster you
# control. You do not take any damage until the End Phase of the next turn.")

def test_tribute_synchro_cost():
    cards = [c("Synchro Barrier", "A", "spell_trap", SET), c("Summoned Skull", "A", "monster", ATK)]
    assert answer(scenario(cards), "can A activate Synchro Barrier now") == "no"
    cards.append(c("Stardust Dragon", "A", "monster", ATK))
    assert answer(scenario(cards), "can A activate Synchro Barrier now") == "yes"


def test_no_damage_synchro_barrier():
    cards = [c("Synchro Barrier", "B", "spell_trap", SET), c("Stardust Dragon", "B", "monster", ATK),
             c("Summoned Skull", "A", "monster", ATK)]
    data = scenario(cards, phase="battle.battle", life={"A": 8000, "B": 8000}, history=(
        "B activates Synchro Barrier", "the chain resolves",
        "A declares an attack with Summoned Skull directly", "battle.damage.after_calculation begins"))
    assert value(asker(data).start, 'lp("B")') == "8000"


# ---- add_target_to_hand (Magician of Faith: "add that target to your hand") and the
# target kind spell
def test_add_target_to_hand_magician_of_faith():
    cards = [c("Magician of Faith", "A", "monster", FD), c("Monster Reborn", "A", "graveyard"),
             c("Mirror Force", "A", "graveyard")]
    # (A Flip Summons it during the Main Phase: ygo/actions.lp, flip_summon)
    data = scenario(cards)
    assert answer(data, "can A activate Magician of Faith targeting Mirror Force during main phase 1") == "no"
    assert answer(data, "can A activate Magician of Faith targeting Monster Reborn during main phase 1") == "yes"


# ============================================================================ triggers
# ---- takes_battle_damage (Tragoedia: "When you take battle damage: You can Special Summon
# this card from your hand"), after damage calculation (DSR after damage calculation)

def test_takes_battle_damage_tragoedia():
    cards = [c("Tragoedia", "B", "hand"), c("Summoned Skull", "A", "monster", ATK)]
    data = scenario(cards, phase="battle.damage.start", attack={"attacker": "Summoned Skull", "target": "direct"})
    assert answer(data, "can B activate Tragoedia during the damage step") == "yes"
    cards.append(c("Waboku", "B", "spell_trap", SET))
    data = scenario(cards, phase="battle.battle", history=(
        "A declares an attack with Summoned Skull directly", "B activates Waboku", "the chain resolves"))
    assert answer(data, "can B activate Tragoedia during the damage step") == "no"


# ---- takes_damage + controls_no_cards (Gorz the Emissary of Darkness: "When you take damage
# from a card in your opponent's possession ... You must control no cards to activate")

def test_takes_damage_gorz_needs_an_empty_field():
    cards = [c("Gorz the Emissary of Darkness", "B", "hand"), c("Summoned Skull", "A", "monster", ATK)]
    data = scenario(cards, phase="battle.damage.start", attack={"attacker": "Summoned Skull", "target": "direct"})
    assert answer(data, "can B activate Gorz during the damage step") == "yes"
    cards.append(c("Mind Crush", "B", "spell_trap", SET))
    data = scenario(cards, phase="battle.damage.start", attack={"attacker": "Summoned Skull", "target": "direct"})
    assert answer(data, "can B activate Gorz during the damage step") == "no"


# ---- attack_declared, any monster (Number 39: Utopia: "When a monster declares an attack"),
# and cost detach(N): without material it cannot be paid (Official Rulebook v10, "Costs")

def test_attack_declared_any_monster_utopia_and_detach():
    cards = [c("Number 39: Utopia", "A", "monster", ATK, materials=1), c("Summoned Skull", "A", "monster", ATK),
             c("Gemini Elf", "B", "monster", ATK)]
    data = scenario(cards, phase="battle.battle")
    q = "can A activate Number 39: Utopia after A declares an attack with Summoned Skull on Gemini Elf"
    assert answer(data, q) == "yes"
    cards[0] = c("Number 39: Utopia", "A", "monster", ATK, materials=0)
    data = scenario(cards, phase="battle.battle")
    assert answer(data, q) == "no"
    assert "ygo.cost.payable" in rules_of(data, q)


# ---- added_to_hand_by_effect (Mermail Abyssdine: "When this card is added from your Deck
# or Graveyard to your hand by a card effect: You can Special Summon this card")

def test_added_to_hand_by_effect_abyssdine():
    cards = [c("Test Search", "A", "hand"), c("Mermail Abyssdine", "A", "deck")]
    data = scenario(cards, custom=[SEARCH_SPELL], history=("A activates Test Search", "the chain resolves"))
    a = asker(data)
    assert zone(a, "Mermail Abyssdine") == "hand"
    assert a.ask("can A activate Mermail Abyssdine now").verdict == "yes"


# ============================================================================ costs
# ---- banish_from_graveyard (Junk Berserker: "banish 1 'Junk' monster from your Graveyard")

def test_banish_from_graveyard_cost():
    cards = [c("Junk Berserker", "A", "monster", ATK), c("Summoned Skull", "B", "monster", ATK)]
    q = "can A activate Junk Berserker targeting Summoned Skull now"
    assert answer(scenario(cards), q) == "no"
    cards.append(c("Kuriboh", "A", "graveyard"))
    assert answer(scenario(cards), q) == "yes"


# ---- discard (Magic Jammer: "Discard 1 card; negate the activation"): another card in the hand,
# discarded when the card is activated (Konami PSCT: the part before ";" is a cost)

def test_discard_cost():
    cards = [c("Shrink", "A", "hand"), c("Summoned Skull", "B", "monster", ATK),
             c("Magic Jammer", "B", "spell_trap", SET)]
    data = scenario(cards, history=("A activates Shrink targeting Summoned Skull",))
    assert answer(data, "can B activate Magic Jammer now") == "no"
    assert "ygo.cost.payable" in rules_of(data, "can B activate Magic Jammer now")
    cards.append(c("Kuriboh", "B", "hand"))
    data = scenario(cards, history=("A activates Shrink targeting Summoned Skull",))
    assert answer(data, "can B activate Magic Jammer now") == "yes"
    paid = asker(scenario(cards, history=("A activates Shrink targeting Summoned Skull", "B chains Magic Jammer")))
    assert zone(paid, "Kuriboh") == "graveyard"


# ---- send_from_hand(Type) (Herald of Perfection: "send 1 Fairy monster from your hand to the GY")

def test_send_from_hand_cost():
    cards = [c("Herald of Perfection", "B", "monster", ATK), c("Mystical Space Typhoon", "A", "hand"),
             c("Mind Crush", "B", "spell_trap", SET), c("Kuriboh", "B", "hand")]
    data = scenario(cards, history=("A activates Mystical Space Typhoon targeting Mind Crush",))
    assert answer(data, "can B activate Herald of Perfection now") == "no"  # Kuriboh is a Fiend
    cards.append(c("Mystical Elf", "B", "hand"))  # a Spellcaster: still no Fairy
    data = scenario(cards, history=("A activates Mystical Space Typhoon targeting Mind Crush",))
    assert answer(data, "can B activate Herald of Perfection now") == "no"
    cards.append(c("Honest", "B", "hand"))  # a Fairy
    data = scenario(cards, history=("A activates Mystical Space Typhoon targeting Mind Crush",))
    assert answer(data, "can B activate Herald of Perfection now") == "yes"


# ---- remove_counter(spell) and the action place_spell_counter (Breaker the Magical Warrior:
# "If this card is Normal Summoned: Place 1 Spell Counter on it ... You can remove 1 Spell
# Counter from this card, then target 1 Spell/Trap on the field; destroy that target")

def test_remove_counter_cost():
    cards = [c("Breaker the Magical Warrior", "A", "monster", ATK, counters={"spell": 1}),
             c("Mind Crush", "B", "spell_trap", SET)]
    q = "can A activate Breaker the Magical Warrior targeting Mind Crush now"
    assert answer(scenario(cards), q) == "yes"
    cards[0] = c("Breaker the Magical Warrior", "A", "monster", ATK)
    assert answer(scenario(cards), q) == "no"


def test_place_spell_counter_on_normal_summon():
    cards = [c("Breaker the Magical Warrior", "A", "hand"), c("Mind Crush", "B", "spell_trap", SET)]
    data = scenario(cards, history=("A normal summons Breaker the Magical Warrior", "the chain resolves"))
    assert answer(data, "can A activate Breaker the Magical Warrior targeting Mind Crush now") == "yes"


# ============================================================================ durations
# ---- end_of_next_turn: the effect outlasts this turn; before the 2014 errata it read
# "until the End Phase of the next turn" (the 2014 wording change; Synchro Barrier, Tuner's Barrier), so in
# either wording it cannot be let expire in this turn's End Phase.

def _lock(duration: str) -> dict[str, Any]:
    return {"name": "Test Lock", "card_type": "trap", "property": "normal",
            "text": "Your opponent cannot activate cards or effects until the End Phase of the next turn.",
            "effects": [{"kind": "card", "actions": ["opponent_cannot_activate"], "duration": duration,
                         "errata_2014": duration != "end_phase", "summary": "lock the opponent's activations"}]}


def test_end_of_next_turn_cannot_expire_this_turn():
    cards = [c("Test Lock", "A", "spell_trap", SET)]
    q = "can A let Test Lock expire during the end phase"
    data = scenario(cards, phase="main2", date="2013-05-01", custom=[_lock("end_of_next_turn")],
                    history=("A activates Test Lock", "the chain resolves"))
    assert answer(data, q) == "no"
    assert "ygo.duration.next_turn" in rules_of(data, q)
    data = scenario(cards, phase="main2", custom=[_lock("end_phase")],
                    history=("A activates Test Lock", "the chain resolves"))
    assert answer(data, q) == "yes"


# ============================================================================ once per turn, shared
# ---- once_per_turn_group: "You can only use this effect of 'Sangan' once per turn" holds
# across copies (hard once per turn, Problem-Solving Card Text): of two Sangans sent to the
# GY together only one effect is activated; Witch of the Black Forest has its own.

def test_once_per_turn_group_two_sangans():
    cards = [c("Sangan", "A", "monster", ATK, id="s1"), c("Sangan", "A", "monster", ATK, id="s2"),
             c("Raigeki", "B", "hand")]
    data = scenario(cards, tp="B", history=("B activates Raigeki", "the chain resolves"))
    assert answer(data, "can A activate s2 in response to A activating s1") == "no"
    cards[1] = c("Witch of the Black Forest", "A", "monster", ATK)
    data = scenario(cards, tp="B", history=("B activates Raigeki", "the chain resolves"))
    assert answer(data, "can A activate Witch of the Black Forest in response to A activating s1") == "yes"


def test_once_per_turn_group_across_effects_shadow_mist():
    # Elemental HERO Shadow Mist: "You can only use 1 'Elemental HERO Shadow Mist' effect per turn"
    cards = [c("Elemental HERO Shadow Mist", "A", "graveyard"), c("Monster Reborn", "A", "hand"),
             c("Raigeki Break", "B", "spell_trap", SET), c("Kuriboh", "B", "hand")]
    hist = ("A activates Monster Reborn targeting Elemental HERO Shadow Mist", "the chain resolves")
    data = scenario(cards, history=hist)
    assert answer(data, "can A activate Shadow Mist now") == "yes"  # its first effect
    # after the first effect was used, its second effect (sent to the GY) cannot be
    data = scenario(cards, history=(*hist, "A activates Shadow Mist", "the chain resolves",
                                    "B activates Raigeki Break targeting Elemental HERO Shadow Mist",
                                    "the chain resolves"))
    a = asker(data)
    assert zone(a, "Elemental HERO Shadow Mist") == "graveyard"
    assert a.ask("can A activate Shadow Mist now").verdict == "no"
    # without the first use, it can
    data = scenario(cards, history=(*hist, "A passes", "B activates Raigeki Break targeting Elemental HERO Shadow Mist",
                                    "the chain resolves"))
    assert answer(data, "can A activate Shadow Mist now") == "yes"


# ============================================================================ more actions and kinds
# ---- destroy_and_banish_summoned (Bottomless Trap Hole: "Destroy that monster(s) with 1500
# or more ATK, and if you do, banish it")

def test_destroy_and_banish_summoned():
    data = scenario(BTH, history=("A normal summons Gemini Elf", "B activates Bottomless Trap Hole", "the chain resolves"))
    assert zone(asker(data), "Gemini Elf") == "banished"


# ---- destroy_battle_opponent + trigger before_damage_calculation (Drillroid: "Before damage
# calculation, if this card attacks a Defense Position monster: Destroy that monster"; DSR before damage calculation)

def test_before_damage_calculation_drillroid():
    cards = [c("Drillroid", "A", "monster", ATK), c("Mystical Elf", "B", "monster", "face_up_defense")]
    data = scenario(cards, phase="battle.damage.start", attack={"attacker": "Drillroid", "target": "Mystical Elf"})
    assert answer(data, "does Drillroid's effect activate during battle.damage.before_calculation") == "yes"
    data = scenario(cards, phase="battle.damage.start", attack={"attacker": "Drillroid", "target": "Mystical Elf"},
                    history=("battle.damage.before_calculation begins", "Drillroid resolves"))
    assert zone(asker(data), "Mystical Elf") == "graveyard"


# ---- return_battle_opponent_to_deck (Ehren, Lightsworn Monk: "Shuffle that monster into the Deck")

def test_return_battle_opponent_to_deck_ehren():
    cards = [c("Ehren, Lightsworn Monk", "A", "monster", ATK), c("Mystical Elf", "B", "monster", "face_up_defense")]
    data = scenario(cards, phase="battle.damage.start",
                    attack={"attacker": "Ehren, Lightsworn Monk", "target": "Mystical Elf"},
                    history=("battle.damage.before_calculation begins", "Ehren resolves"))
    assert zone(asker(data), "Mystical Elf") == "deck"


# ---- return_battling_monsters_to_hand (Neo-Spacian Grand Mole: "At the start of the Damage
# Step, if this card battles an opponent's monster: You can return both ... to the hand"; DSR start of the Damage Step)

def test_return_battling_monsters_to_hand_grand_mole():
    cards = [c("Neo-Spacian Grand Mole", "A", "monster", ATK), c("Summoned Skull", "B", "monster", ATK)]
    data = scenario(cards, phase="battle.battle", history=(
        "A declares an attack with Neo-Spacian Grand Mole on Summoned Skull", "battle.damage.start begins",
        "A activates Neo-Spacian Grand Mole", "the chain resolves"))
    a = asker(data)
    assert zone(a, "Neo-Spacian Grand Mole") == "hand" and zone(a, "Summoned Skull") == "hand"


# ---- tribute_all_face_up_monsters + special_summon_self (Nibiru: "Tribute as many face-up
# monsters on the field as possible, and if you do, Special Summon this card from your hand")

def test_tribute_all_face_up_monsters_nibiru():
    data = _nibiru(4)
    data["history"] = ["A normal summons Kuriboh", "B activates Nibiru", "the chain resolves"]
    a = asker(data)
    assert zone(a, "Dark Magician") == "graveyard" and zone(a, "Kuriboh") == "graveyard"
    assert zone(a, "Nibiru, the Primal Being") == "monster"


# ---- responds_to special_summons (Solemn Warning: "a Spell/Trap Card, or monster effect, is
# activated that includes an effect that Special Summons")

def test_responds_to_special_summons_solemn_warning():
    cards = [c("Solemn Warning", "B", "spell_trap", SET), c("Monster Reborn", "A", "hand"),
             c("Summoned Skull", "A", "graveyard"), c("Pot of Greed", "A", "hand")]
    data = scenario(cards)
    assert answer(data, "can B activate Solemn Warning in response to A activating Monster Reborn") == "yes"
    assert answer(data, "can B activate Solemn Warning in response to A activating Pot of Greed") == "no"


# ---- responds_to destroys (Stardust Dragon: "When a card or effect is activated that would
# destroy a card(s) on the field")

def test_responds_to_destroys_stardust_dragon():
    cards = [c("Stardust Dragon", "B", "monster", ATK), c("Heavy Storm", "A", "hand"), c("Pot of Greed", "A", "hand"),
             c("Mind Crush", "B", "spell_trap", SET)]
    data = scenario(cards)
    assert answer(data, "can B activate Stardust Dragon in response to A activating Heavy Storm") == "yes"
    assert answer(data, "can B activate Stardust Dragon in response to A activating Pot of Greed") == "no"


# ---- responds_to graveyard_effect (Skull Meister: "When a card effect is activated in your
# opponent's GY")

def test_responds_to_graveyard_effect_skull_meister():
    cards = [c("Skull Meister", "B", "hand"), c("Necro Defender", "A", "graveyard"),
             c("Summoned Skull", "A", "monster", ATK), c("Lyla, Lightsworn Sorceress", "A", "monster", ATK),
             c("Mind Crush", "B", "spell_trap", SET)]
    data = scenario(cards)
    assert answer(data, "can B activate Skull Meister in response to A activating Necro Defender") == "yes"
    assert answer(data, "can B activate Skull Meister in response to A activating Lyla") == "no"


# ---- send_self_to_gy + destroy_previous_card (Ghost Ogre & Snow Rabbit: "send this card from
# your hand or field to the GY; destroy that card on the field")

def test_send_self_to_gy_ghost_ogre_from_the_field():
    cards = [c("Ghost Ogre & Snow Rabbit", "B", "monster", ATK), c("Lyla, Lightsworn Sorceress", "A", "monster", ATK),
             c("Mind Crush", "B", "spell_trap", SET)]
    data = scenario(cards, history=("A activates Lyla targeting Mind Crush", "B chains Ghost Ogre",
                                    "the chain resolves"))
    a = asker(data)
    assert zone(a, "Ghost Ogre & Snow Rabbit") == "graveyard"
    assert zone(a, "Lyla, Lightsworn Sorceress") == "graveyard"


# ---- tribute(monster), this card included (Cannon Soldier: "You can Tribute 1 monster")

def test_tribute_monster_cost_may_be_this_card():
    assert answer(scenario([c("Cannon Soldier", "A", "monster", ATK)]), "can A activate Cannon Soldier now") == "yes"


# ---- no_add_from_deck (Droll & Lock Bird: "for the rest of this turn, cards cannot be added
# from either player's Main Deck to the hand")

def test_no_add_from_deck_droll_lock():
    # (the Decks are not listed: a search adds a card not in the scenario)
    cards = [c("Droll & Lock Bird", "B", "hand", id="droll1"), c("Droll & Lock Bird", "B", "hand", id="droll2"),
             c("Test Search", "A", "hand", id="search1"), c("Test Search", "A", "hand", id="search2")]
    first = ("A activates search1", "the chain resolves", "A passes", "B activates droll1", "the chain resolves")
    data = scenario(cards, custom=[SEARCH_SPELL], history=(*first, "A activates search2", "the chain resolves"))
    assert answer(data, "can B activate droll2 now") == "no"
    data = scenario(cards, custom=[SEARCH_SPELL], history=(
        "A activates search1", "the chain resolves", "A passes", "B passes", "A activates search2", "the chain resolves"))
    assert answer(data, "can B activate droll2 now") == "yes"


# ---- special_summoned_by_own_effect (Gorz: "When this card is Special Summoned by its effect")

def test_special_summoned_by_own_effect_gorz():
    cards = [c("Gorz the Emissary of Darkness", "B", "hand"), c("Summoned Skull", "A", "monster", ATK)]
    data = scenario(cards, phase="battle.damage.start", attack={"attacker": "Summoned Skull", "target": "direct"},
                    history=("battle.damage.after_calculation begins", "B activates Gorz", "the chain resolves"))
    a = asker(data)
    assert zone(a, "Gorz the Emissary of Darkness") == "monster"
    assert [str(p.arguments[0]) for p in a.start.has("pending")] == ['eff("Gorz the Emissary of Darkness",2)']


# ---- target kind tuner (Tuner's Barrier: "Select 1 face-up Tuner monster you control")

def test_target_kind_tuner():
    cards = [c("Tuner's Barrier", "A", "spell_trap", SET), c("Effect Veiler", "A", "monster", ATK),
             c("Summoned Skull", "A", "monster", ATK)]
    assert answer(scenario(cards), "can A activate Tuner's Barrier targeting Effect Veiler now") == "yes"
    assert answer(scenario(cards), "can A activate Tuner's Barrier targeting Summoned Skull now") == "no"


# ---- has_material (Number 9: Dyson Sphere: "if this card with material is attacked")

def test_has_material_dyson_sphere():
    cards = [c("Number 9: Dyson Sphere", "B", "monster", ATK, materials=0), c("Summoned Skull", "A", "monster", ATK)]
    data = scenario(cards, phase="battle.battle",
                    history=("A declares an attack with Summoned Skull on Number 9: Dyson Sphere",))
    assert answer(data, "can B activate Number 9: Dyson Sphere now") == "no"


# ---- atk_change without an amount still counts as a direct ATK change (Limiter Removal;
# DSR: usable until damage calculation)

def test_atk_change_limiter_removal_in_the_damage_step():
    cards = [c("Limiter Removal", "A", "hand"), c("Summoned Skull", "A", "monster", ATK),
             c("Gemini Elf", "B", "monster", ATK)]
    data = scenario(cards, phase="battle.damage.start", attack={"attacker": "Summoned Skull", "target": "Gemini Elf"})
    assert answer(data, "can A activate Limiter Removal now") == "yes"
    data = scenario(cards, phase="battle.damage.calculation", attack={"attacker": "Summoned Skull", "target": "Gemini Elf"})
    assert answer(data, "can A activate Limiter Removal now") == "no"


# ---- end_of_opponents_next_turn (Necro Defender, Galaxy Queen: "until your opponent's next End Phase")

def test_end_of_opponents_next_turn_cannot_expire_this_turn():
    cards = [c("Test Lock", "A", "spell_trap", SET)]
    data = scenario(cards, phase="main2", date="2013-05-01", custom=[_lock("end_of_opponents_next_turn")],
                    history=("A activates Test Lock", "the chain resolves"))
    assert answer(data, "can A let Test Lock expire during the end phase") == "no"


# ============================================================================ ATK changes that linger
# ---- the 2014 wording change: ATK/DEF changes were worded "until the End Phase" before 10 July 2014 (Shrink,
# Forbidden Lance): they are let expire during the End Phase, and the monster gets its ATK back.

def test_atk_change_expires_in_the_end_phase_before_2014():
    cards = [c("Shrink", "A", "hand"), c("Summoned Skull", "B", "monster", ATK)]
    hist = ("A activates Shrink targeting Summoned Skull", "the chain resolves", "A enters the end phase")
    a = asker(scenario(cards, date="2013-05-01", history=hist))
    assert a.start.has("halved")
    assert answer(scenario(cards, date="2013-05-01", history=hist), "can A let Shrink expire now") == "yes"
    after = asker(scenario(cards, date="2013-05-01", history=(*hist, "A lets Shrink expire")))
    assert not after.start.has("halved")
    data = scenario(cards, history=hist)
    assert answer(data, "can A let Shrink expire now") == "no"
    assert "ygo.duration.end_of_turn" in rules_of(data, "can A let Shrink expire now")


def test_unmarked_atk_change_expiry_is_refused():
    """Rush Recklessly is not marked errata_2014 in the library: its expiry is not tracked, so
    the question is refused rather than answered."""
    cards = [c("Rush Recklessly", "A", "hand"), c("Summoned Skull", "B", "monster", ATK)]
    hist = ("A activates Rush Recklessly targeting Summoned Skull", "the chain resolves", "A enters the end phase")
    with pytest.raises(NotModelled):
        answer(scenario(cards, date="2013-05-01", history=hist), "can A let Rush Recklessly expire now")
