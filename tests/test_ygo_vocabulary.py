"""One ruling case per Yu-Gi-Oh! vocabulary item added for the timing rules
(logic/vocabulary.py; docs/cards.md).  Each case is a small scenario, a
question and the answer an official ruling (or the card's official text)
gives; the ruling is cited next to it.  Cases run through queries.answer.Asker
like the acceptance corpus (tests/test_acceptance.py)."""

from __future__ import annotations

from typing import Any

import pytest

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
    ans = asker(data).ask(question)
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
# (even during the Damage Step) (Quick Effect)"; 004.DS (ruled usable there).

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

def test_phase_main1_dyson_sphere():
    cards = [c("Number 9: Dyson Sphere", "A", "monster", ATK, materials=2)]
    assert answer(scenario(cards), "can A activate Number 9: Dyson Sphere now") == "yes"
    assert answer(scenario(cards, phase="main2"), "can A activate Number 9: Dyson Sphere now") == "no"


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
