"""Where a position begins (docs/scenarios.md, "Where a position begins"; docs/scenarios.md "Where a
position begins"): for every point name of both games, a scenario starting
there, with who has priority, the box (Yu-Gi-Oh!) and what is on the chain or
stack, each with its rule.  A position given by a scenario is the moment play
enters the point (the same as when play moves on into it), and every question
starts from there."""

from __future__ import annotations

import pytest

from logic.errors import InputError
from logic.scenario import from_data
from queries.answer import Asker
from tests.mtg_util import asker, card, got, scenario

# ---------------------------------------------------------------- Yu-Gi-Oh!


def ygo(phase: str, cards: list[dict], attack: dict | None = None, history: list[str] | None = None) -> dict:
    d = {"game": "ygo", "players": ["A", "B"], "turn_player": "A", "phase": phase, "cards": cards}
    if attack:
        d["attack"] = attack
    if history:
        d["history"] = history
    return d


TENGU = {"card": "Reborn Tengu", "controller": "A", "zone": "monster"}
MST_B = {"card": "Mystical Space Typhoon", "controller": "B", "zone": "hand"}
DIRECT = {"attacker": "Reborn Tengu", "target": "direct"}


def _ygo_now(sc: dict) -> tuple[str, str | None, list]:
    a = Asker(from_data(sc, "test scenario"))
    who = a.ask("who has priority now")
    return who.answer, who.detail.get("box"), a.ask("what is on the chain now").answer


@pytest.mark.parametrize(
    "phase, attack, box",
    [
        ("draw", None, "A"),  # FET box A; RB10 "Draw Phase" (the normal draw is the first act, in box A)
        ("standby", None, "A"),  # FET box A; the phase-effect guides
        ("main1", None, "A"),  # FET box A; FET
        ("battle.start", None, "A"),  # FET box A; RB10 Start Step (was box B: issue 13)
        ("battle.battle", None, "A"),  # FET box A; YP "Battle Step"
        ("battle.attack", DIRECT, "B"),  # FET chart (after an action that starts no chain: TP, box B); YP "Battle Step" (attack declaration)
        ("battle.damage.start", DIRECT, "A"),  # FET box A; DSR start of the Damage Step
        ("battle.damage.before_calculation", DIRECT, "A"),  # FET box A; DSR before damage calculation
        ("battle.damage.calculation", DIRECT, "A"),  # FET box A; DSR during damage calculation
        ("battle.damage.after_calculation", DIRECT, "A"),  # FET box A; DSR after damage calculation
        ("battle.damage.end", DIRECT, "A"),  # FET box A; DSR end of the Damage Step
        ("battle.end", None, "A"),  # FET box A; RB10 End Step
        ("main2", None, "A"),  # FET box A
        ("end", None, "A"),  # FET box A; YP "End Phase"
    ],
)
def test_ygo_every_point_begins_with_the_turn_player(phase, attack, box):
    """FET box A: each phase and step (and sub-step) begins with the turn player in
    box A, the chain empty; the attack declaration window is the moment right
    after the declaration (FET chart: box B, the turn player first)."""
    who, got_box, chain = _ygo_now(ygo(phase, [TENGU, MST_B], attack))
    assert (who, got_box, chain) == ("A", box, [])


def test_ygo_a_position_is_the_point_as_play_enters_it():
    """The Start Step given by a scenario is the Start Step play reaches from
    Main Phase 1 (FET box E, FET box A): the same holder, the same box."""
    a = Asker(from_data(ygo("main1", [TENGU, MST_B]), "test scenario"))
    played = a.ask("who has priority during the start step")
    start = Asker(from_data(ygo("battle.start", [TENGU, MST_B]), "test scenario")).ask("who has priority now")
    assert (played.answer, played.detail["box"]) == (start.answer, start.detail["box"]) == ("A", "A")


def test_ygo_start_step_pass_gives_the_opponent_the_last_chance():
    """FET box E, FET chart (box E): in the Start Step's open state the turn player's
    pass is the attempt to move on; the opponent gets the chance first."""
    a = Asker(from_data(ygo("battle.start", [TENGU, MST_B]), "test scenario"))
    ans = a.ask("who has priority after A passes")
    assert (ans.answer, ans.detail["box"]) == ("B", "E")


def test_ygo_standby_mandatory_effect_is_due_at_the_start():
    """the phase-effect guides: a position at the Standby Phase begins in box A with the turn
    player; Lava Golem's mandatory "during your Standby Phase" effect is not on
    a chain but must be activated, as Chain Link 1 of its own chain, before
    the phase ends."""
    golem = {"card": "Lava Golem", "controller": "A", "owner": "B", "zone": "monster"}
    sc = ygo("standby", [golem])
    who, box, chain = _ygo_now(sc)
    assert (who, box, chain) == ("A", "A", [])
    a = Asker(from_data(sc, "test scenario"))
    assert a.ask("must A activate Lava Golem before the standby phase ends").verdict == "yes"
    assert a.ask("can A activate Lava Golem now").verdict == "yes"


def test_ygo_after_damage_calculation_begins_after_the_calculation():
    """DSR during damage calculation, DSR after damage calculation: a position after damage calculation is after the
    calculation: the attacked Defense Position monster's trigger (Red Dragon
    Archfiend) is due at once, so the turn player acts to start the chain
    (FET chart: something triggered, box D), exactly as when play moves on into it
    from damage calculation."""
    rda = {"card": "Red Dragon Archfiend", "controller": "A", "zone": "monster"}
    marsh = {"card": "Marshmallon", "controller": "B", "zone": "monster", "position": "face_up_defense"}
    att = {"attacker": "Red Dragon Archfiend", "target": "Marshmallon"}
    at = _ygo_now(ygo("battle.damage.after_calculation", [rda, marsh], att))
    a = Asker(from_data(ygo("battle.damage.calculation", [rda, marsh], att), "test scenario"))
    played = a.ask("who has priority during after damage calculation")
    assert at[:2] == (played.answer, played.detail["box"]) == ("A", "D")


# ---------------------------------------------------------------- Magic

BOLT_BOB = card("Lightning Bolt", "Bob", "hand")


def _creature(name: str, text: str, power: int = 1, toughness: int = 1, **kw) -> dict:
    return {"name": name, "type_line": "Creature — Human", "power": power, "toughness": toughness, "text": text, **kw}


KEEPER = _creature("Test Keeper", "At the beginning of your upkeep, you gain 1 life.")
WATCHER = _creature("Test Watcher", "At the beginning of each upkeep, you gain 1 life.")
DRAWER = _creature("Test Drawer", "At the beginning of your draw step, you gain 1 life.")
MARSHAL = _creature("Test Marshal", "At the beginning of combat on your turn, you gain 1 life.")
CLOSER = _creature("Test Closer", "At the beginning of each end step, you gain 1 life.")
RAIDER = _creature("Test Raider", "Whenever this creature attacks, you gain 1 life.", 2, 2)
STRIKER = _creature("Test Striker", "Whenever this creature deals combat damage to a player, you gain 1 life.", 3, 3)
MOURNER = _creature("Test Mourner", "When this creature dies, you gain 1 life.")
WISP = _creature("Test Wisp", "When this creature dies, you gain 1 life.", 1, 0)
CUSTOM = [KEEPER, WATCHER, DRAWER, MARSHAL, CLOSER, RAIDER, STRIKER, MOURNER, WISP]


def mtg(phase: str, cards: list[dict], attack: list[dict] | None = None, **kw) -> dict:
    sc = scenario(cards, phase=phase, custom=CUSTOM, **kw)
    if attack is not None:
        sc["attack"] = attack
    return sc


def _mtg_now(sc: dict) -> tuple[str, list]:
    a = asker(sc)
    return got(a, "who has priority now"), got(a, "what is on the stack now")


@pytest.mark.parametrize(
    "phase, cards, attack, expected",
    [
        # CR 502.3, 502.4: the active player untaps; nobody receives priority
        ("untap", [BOLT_BOB], None, ("nobody", [])),
        # CR 503.1, 603.3b, 117.3a: upkeep triggers on the stack in APNAP order
        # (Alice's first, so Bob's resolves first); Alice receives priority
        ("upkeep", [card("Test Keeper", "Alice", "battlefield"), card("Test Watcher", "Bob", "battlefield")],
         None, ("Alice", ["Test Keeper", "Test Watcher"])),
        # CR 504.1, 504.2: after the draw, the draw-step trigger on the stack
        ("draw", [card("Test Drawer", "Alice", "battlefield")], None, ("Alice", ["Test Drawer"])),
        # CR 505.x, 117.3a
        ("main1", [BOLT_BOB], None, ("Alice", [])),
        # CR 507.2, 603.3: the beginning-of-combat trigger on the stack
        ("combat.beginning", [card("Test Marshal", "Alice", "battlefield")], None, ("Alice", ["Test Marshal"])),
        # CR 508.1, 508.2: after the declaration, the attack trigger on the stack
        ("combat.attackers", [card("Test Raider", "Alice", "battlefield")], [{"attacker": "Test Raider"}],
         ("Alice", ["Test Raider"])),
        # CR 509.1, 509.2 (508.1 in an earlier step: the attack trigger is not here again)
        ("combat.blockers", [card("Test Raider", "Alice", "battlefield"), card("Test Mourner", "Bob", "battlefield")],
         [{"attacker": "Test Raider", "blocked_by": ["Test Mourner"]}], ("Alice", [])),
        # CR 510.4, 510.2, 704.5g, 603.3b: first-strike damage dealt, the blocker dies, its trigger on the stack
        ("combat.first_strike_damage", [card("White Knight", "Alice", "battlefield"),
                                        card("Test Mourner", "Bob", "battlefield")],
         [{"attacker": "White Knight", "blocked_by": ["Test Mourner"]}], ("Alice", ["Test Mourner"])),
        # CR 510.2, 510.3, 603.3b: damage dealt; the active player's trigger first, Bob's dies trigger on top
        ("combat.damage", [card("Test Striker", "Alice", "battlefield"), card("Test Raider", "Alice", "battlefield"),
                           card("Test Mourner", "Bob", "battlefield")],
         [{"attacker": "Test Striker"}, {"attacker": "Test Raider", "blocked_by": ["Test Mourner"]}],
         ("Alice", ["Test Striker", "Test Mourner"])),
        # CR 511.1, 511.2
        ("combat.end", [BOLT_BOB], [], ("Alice", [])),
        ("main2", [BOLT_BOB], None, ("Alice", [])),
        # CR 513.1, 513.2: the end-step trigger on the stack
        ("end", [card("Test Closer", "Bob", "battlefield")], None, ("Alice", ["Test Closer"])),
        # CR 514.1-514.3: nothing due, nobody receives priority
        ("cleanup", [BOLT_BOB], None, ("nobody", [])),
        # CR 514.3a: a state-based action applies (toughness 0), the dies trigger goes on the stack, Alice has priority
        ("cleanup", [card("Test Wisp", "Alice", "battlefield")], None, ("Alice", ["Test Wisp"])),
    ],
)
def test_mtg_every_point_begins_after_its_turn_based_action(phase, cards, attack, expected):
    """docs/scenarios.md, "Where a position begins": after the step's turn-based action, state-based
    actions, and its triggered abilities put on the stack (CR 117.5, 603.3)."""
    assert _mtg_now(mtg(phase, cards, attack)) == expected


def test_mtg_upkeep_trigger_can_be_answered_at_once():
    """CR 117.3a, 603.3: the upkeep trigger is on the stack when the active
    player receives priority; Bob may respond to it once Alice passes."""
    a = asker(mtg("upkeep", [card("Test Keeper", "Alice", "battlefield"), BOLT_BOB]))
    assert got(a, "who has priority now") == "Alice"
    assert got(a, "can Bob cast Lightning Bolt targeting Alice now") == "yes"
    assert got(a, "who has priority after Alice passes") == "Bob"


def test_mtg_upkeep_position_matches_play_entering_it():
    """The upkeep given by a scenario is the upkeep play reaches from the untap
    step (CR 502.4: triggered abilities wait until a player would receive priority)."""
    cards = [card("Test Keeper", "Alice", "battlefield"), card("Test Watcher", "Bob", "battlefield")]
    played = got(asker(mtg("untap", cards)), "what is on the stack during the upkeep")
    assert played == got(asker(mtg("upkeep", cards)), "what is on the stack now") == ["Test Keeper", "Test Watcher"]


def test_mtg_untap_step_untaps_the_active_players_permanents():
    """CR 502.3: a position at the untap step is after the untap: the active
    player's tapped Llanowar Elves can be activated in the upkeep, Bob's stay tapped."""
    a = asker(mtg("untap", [card("Llanowar Elves", "Alice", "battlefield", position="tapped", id="elves_a"),
                            card("Llanowar Elves", "Bob", "battlefield", position="tapped", id="elves_b")]))
    positions = {str(f.arguments[0]): f.arguments[1].name for f in a.start.fluents
                 if f.name == "val" and f.arguments[0].name == "pos"}
    assert positions == {'pos("elves_a")': "untapped", 'pos("elves_b")': "tapped"}


def test_mtg_declare_attackers_position_is_after_the_declaration():
    """CR 508.1, 508.1f: the attackers the scenario names attack and are tapped;
    declaring attackers again is not possible (the premise is an error)."""
    a = asker(mtg("combat.attackers", [card("Test Raider", "Alice", "battlefield"), BOLT_BOB],
                  [{"attacker": "Test Raider", "target": "Bob"}]))
    assert [str(f) for f in a.start.has("attacking")] == ['attacking("Test Raider","Bob")']
    assert a.start.value('pos("Test Raider")').name == "tapped"
    try:  # a premise that cannot happen (issue 13: an error, exit 2; before that, a note)
        ans = a.ask("can Bob cast Lightning Bolt after Alice declares attackers with Test Raider")
        assert ans.verdict != "yes" and any("cannot happen" in n for n in ans.notes)
    except InputError as exc:
        assert "cannot happen" in exc.message


def test_mtg_combat_damage_position_deals_the_damage():
    """CR 510.2: at the combat damage step the damage has been dealt: Bob has
    taken 3 from the unblocked Test Striker, and Test Mourner (1/1) blocking
    Test Raider (2/2) is in the graveyard (704.5g)."""
    a = asker(mtg("combat.damage", [card("Test Striker", "Alice", "battlefield"),
                                    card("Test Raider", "Alice", "battlefield"),
                                    card("Test Mourner", "Bob", "battlefield")],
                  [{"attacker": "Test Striker"}, {"attacker": "Test Raider", "blocked_by": ["Test Mourner"]}]))
    assert a.start.value('lp("Bob")').number == 17
    assert a.start.value('zone("Test Mourner")').name == "graveyard"


@pytest.mark.parametrize(
    "phase, cards, attack, words",
    [
        # CR 508.1: a combat position says which creatures attack
        ("combat.attackers", [card("Grizzly Bears", "Alice", "battlefield")], None, "say which creatures attack"),
        ("combat.damage", [card("Grizzly Bears", "Alice", "battlefield")], None, "say which creatures attack"),
        ("combat.end", [card("Grizzly Bears", "Alice", "battlefield")], None, "say which creatures attack"),
        # CR 508.8: no attackers, no declare blockers or combat damage step
        ("combat.blockers", [card("Grizzly Bears", "Alice", "battlefield")], [], "CR 508.8"),
        # CR 510.4: no first strike in combat, no first-strike damage step
        ("combat.first_strike_damage", [card("Grizzly Bears", "Alice", "battlefield")],
         [{"attacker": "Grizzly Bears"}], "CR 510.4"),
        # CR 509.1: no blockers before the declare blockers step
        ("combat.attackers", [card("Grizzly Bears", "Alice", "battlefield"), card("Test Mourner", "Bob", "battlefield")],
         [{"attacker": "Grizzly Bears", "blocked_by": ["Test Mourner"]}], "CR 509.1"),
        # CR 508.1a: only the active player's creatures attack
        ("combat.attackers", [card("Test Mourner", "Bob", "battlefield")], [{"attacker": "Test Mourner"}],
         "CR 508.1a"),
        # attack is for combat positions only
        ("main1", [card("Grizzly Bears", "Alice", "battlefield")], [{"attacker": "Grizzly Bears"}], "in history"),
    ],
)
def test_mtg_combat_position_without_its_declarations_is_refused(phase, cards, attack, words):
    with pytest.raises(InputError) as exc:
        from_data(mtg(phase, cards, attack), "test scenario")
    assert words in exc.value.message


def test_mtg_illegal_attacker_is_refused_with_the_rule():
    """CR 508.1a: a tapped creature cannot be declared as an attacker: the
    position cannot begin (exit 2, naming the rule)."""
    with pytest.raises(InputError) as exc:
        asker(mtg("combat.attackers", [card("Grizzly Bears", "Alice", "battlefield", position="tapped")],
                  [{"attacker": "Grizzly Bears"}]))
    assert "mtg.attack.who" in exc.value.message


def test_mtg_cleanup_with_too_many_cards_is_refused():
    """CR 514.1: the cleanup position is after the discard to seven, a choice
    the scenario cannot state there: start at the end step instead."""
    hand = [card("Forest", "Alice", "hand", id=f"forest{i}") for i in range(8)]
    with pytest.raises(InputError) as exc:
        from_data(mtg("cleanup", hand), "test scenario")
    assert "CR 514.1" in exc.value.message


def test_mtg_attacked_flag_is_not_the_way_to_say_it():
    with pytest.raises(InputError) as exc:
        from_data(mtg("combat.blockers", [card("Grizzly Bears", "Alice", "battlefield", attacked=True)], []),
                  "test scenario")
    assert "attack" in exc.value.message


def test_mtg_a_beginning_with_a_choice_keeps_every_choice():
    """CR 603.3b: Alice orders her own two upkeep triggers; each order is a
    beginning: both are listed, Alice is the one who chooses, and the history
    is replayed from each."""
    keeper2 = _creature("Test Warden", "At the beginning of your upkeep, you gain 1 life.")
    sc = scenario([card("Test Keeper", "Alice", "battlefield"), card("Test Warden", "Alice", "battlefield"), BOLT_BOB],
                  phase="upkeep", custom=[KEEPER, keeper2])
    a = asker(sc)
    assert sorted(got(a, "what is on the stack now")) == [["Test Keeper", "Test Warden"], ["Test Warden", "Test Keeper"]]
    assert got(a, "who chooses the order of Test Keeper and Test Warden") == "Alice"
    assert got(a, "who has priority now") == "Alice"
    sc["history"] = ["Alice passes"]
    assert got(sc, "who has priority now") == "Bob"


def test_mtg_apnap_triggers_of_the_beginning_are_not_chosen():
    """CR 603.3b: between players APNAP order decides; nobody chooses."""
    a = asker(mtg("upkeep", [card("Test Keeper", "Alice", "battlefield"), card("Test Watcher", "Bob", "battlefield")]))
    assert got(a, "who chooses the order of Test Keeper and Test Watcher") == "nobody"
