"""Regression tests for wrong answers found by the external Magic corpus
(tests/corpus/external/mtg-cr-examples.yaml, mtg-engine-tests.yaml;
/work/reports/corpus-mtg-cr.md)."""

from __future__ import annotations

import pytest

from tests.mtg_util import card, got, scenario

FOUR = ("Alice", "Bob", "Carol", "Dave")


def _hands(owner: str, n: int) -> list[dict]:
    return [card("Island", owner, "hand", id=f"{owner[0].lower()}{i}") for i in range(1, n + 1)]


# ---------------------------------------------------------------- 4: an asked event that can never happen
@pytest.mark.parametrize("players, active, other", [
    (("Alice", "Bob"), "Alice", "Bob"),
    (("Alice", "Bob"), "Bob", "Alice"),
    (FOUR, "Carol", "Dave"),
    (FOUR, "Alice", "Carol"),
])
def test_nonactive_player_never_discards_to_hand_size(players, active, other):
    """CR 514.1: only the active player discards to the maximum hand size.  The
    asked event of a can question that can never happen is the answer No (only
    <when> and history events are premises, docs/questions.md, "Premises")."""
    sc = scenario(_hands(other, 9), phase="end", players=players, active=active,
                  history=[f"{p} passes" for p in players[players.index(active):] + players[:players.index(active)]])
    x = other[0].lower()
    assert got(sc, f"can {other} discard {x}9 for the hand size limit now") == "no"
    assert got(sc, f"must {other} discard {x}9 for the hand size limit now") == "no"


def test_impossible_premise_is_still_an_error():
    """docs/questions.md, "Premises": the same event in <when> is a bad premise (exit 2)."""
    from logic.errors import InputError

    sc = scenario(_hands("Bob", 9), phase="end", history=["Alice passes", "Bob passes"])
    with pytest.raises(InputError):
        got(sc, "can Alice pass after Bob discards b9 for the hand size limit")


# ---------------------------------------------------------------- 1: players leaving (CR 800.4, 104.3a)
BOLT = "Lightning Bolt"


def _after(players, active):
    i = players.index(active)
    return players[(i + 1) % len(players)]


@pytest.mark.parametrize("active", ["Alice", "Bob"])
def test_two_player_concession_ends_the_game(active):
    """CR 104.3a, 800.4a: a player who concedes leaves; in a two-player game the
    game is over, nobody has priority, and no question about play after it is answered."""
    from logic.errors import NotModelled

    other = _after(("Alice", "Bob"), active)
    sc = scenario([card(BOLT, other, "hand")], active=active)
    assert got(sc, f"who has priority after {active} concedes") == "nobody"
    assert got(sc, f"who has priority after {other} concedes") == "nobody"
    with pytest.raises(NotModelled, match="800.4"):
        got(sc, f"can {other} cast {BOLT} after {active} concedes")


@pytest.mark.parametrize("active", ["Alice", "Carol"])
def test_four_player_concession_is_not_modelled(active):
    """CR 800.4a, 800.4j: with four players the game goes on without the player
    who left; that is not modelled, so the question is refused, never answered as
    if they were still in the game."""
    from logic.errors import NotModelled

    nxt = _after(FOUR, active)
    sc = scenario([card(BOLT, nxt, "hand")], players=FOUR, active=active)
    for q in (f"who has priority after {active} concedes",
              f"who has priority after {nxt} concedes",
              f"what is on the stack after {nxt} concedes"):
        with pytest.raises(NotModelled, match="800.4"):
            got(sc, q)
    hist = scenario([card(BOLT, nxt, "hand")], players=FOUR, active=active, history=[f"{nxt} concedes"])
    with pytest.raises(NotModelled, match="800.4"):
        got(hist, f"who has priority after {active} passes")
    # without anyone leaving the four-player game is answered
    assert got(sc, f"who has priority after {active} passes") == nxt


@pytest.mark.parametrize("active", ["Alice", "Bob"])
def test_four_player_loss_to_sba_is_not_modelled(active):
    """CR 704.5a, 800.4j: the active player at 3 life is dealt 3 by a Bolt; the
    state-based action makes them leave a four-player game -- refused, not answered
    with the player who left still holding priority."""
    from logic.errors import NotModelled

    nxt = _after(FOUR, active)
    order = list(FOUR[FOUR.index(active):] + FOUR[:FOUR.index(active)])
    life = {p: 20 for p in FOUR} | {active: 3}
    hist = [f"{active} passes", f"{nxt} casts {BOLT} targeting {active}"] + [f"{p} passes" for p in order[1:]] \
        + [f"{active} passes"]
    sc = scenario([card(BOLT, nxt, "hand")], players=FOUR, active=active, life=life, history=hist)
    with pytest.raises(NotModelled, match="800.4"):
        got(sc, "who has priority now")


# ---------------------------------------------------------------- 2: the point after the last one of the turn
@pytest.mark.parametrize("players, active", [(("Alice", "Bob"), "Alice"), (("Alice", "Bob"), "Bob"),
                                             (FOUR, "Dave"), (FOUR, "Bob")])
def test_point_after_cleanup_is_next_untap(players, active):
    """CR 514.3, 500.1: a cleanup step without priority ends the turn; the next
    point is the next turn's untap step, never the internal node turn_end."""
    from tests.mtg_util import ask

    ans = ask(scenario([], phase="cleanup", players=players, active=active), "which point comes next now")
    assert ans.answer == "untap"
    assert any("next turn" in n for n in ans.notes)


def test_ygo_point_after_end_phase_is_next_draw_phase():
    """Yu-Gi-Oh!: after the End Phase the next turn begins with its Draw Phase."""
    from logic.scenario import from_data
    from queries.answer import Asker

    sc = {"game": "ygo", "players": ["A", "B"], "turn_player": "B", "phase": "end", "cards": []}
    ans = Asker(from_data(sc, "test scenario")).ask("which point comes next after B passes")
    assert ans.answer == "draw"


# ---------------------------------------------------------------- 3: naming one ability of several
@pytest.mark.parametrize("players, active", [(("Alice", "Bob"), "Alice"), (("Alice", "Bob"), "Bob"),
                                             (FOUR, "Carol"), (FOUR, "Dave")])
def test_name_one_loyalty_ability(players, active):
    """CR 606.3, 606.4: DESIGN's "A activates X's <first|second|...|+N|-N> ability"
    selects that ability; one loyalty ability per turn, in its controller's main phase."""
    from logic.errors import InputError
    from tests.mtg_util import ask

    other = _after(players, active)
    sc = scenario([card("Jace Beleren", active, "battlefield")], players=players, active=active)
    ans = ask(sc, f"can {active} activate Jace Beleren's -1 ability targeting {other} now")
    assert ans.verdict == "yes"
    assert got(sc, f"can {active} activate the second ability of Jace Beleren now") == "yes"
    assert got(sc, f"can {active} activate Jace Beleren's first ability now") == "yes"
    with pytest.raises(InputError):
        got(sc, f"can {active} activate Jace Beleren's fifth ability now")
    with pytest.raises(InputError):
        got(sc, f"can {active} activate Jace Beleren's +3 ability now")
    used = scenario([card("Jace Beleren", active, "battlefield")], players=players, active=active,
                    history=[f"{active} activates Jace Beleren's +2 ability"]
                    + [f"{p} passes" for p in players[players.index(active):] + players[:players.index(active)]])
    assert got(used, f"can {active} activate Jace Beleren's -1 ability targeting {other} now") == "no"
    opp = scenario([card("Jace Beleren", other, "battlefield")], players=players, active=active)
    assert got(opp, f"can {other} activate Jace Beleren's second ability after {active} passes") == "no"


# ---------------------------------------------------------------- the next step as it begins (CR 117.3a, 513.1)
SPARKER = {"name": "Test Sparker", "type_line": "Creature — Elemental", "power": 6, "toughness": 1,
           "text": "At the beginning of the end step, sacrifice Test Sparker."}


@pytest.mark.parametrize("players, active", [(("Alice", "Bob"), "Alice"), (("Alice", "Bob"), "Bob"),
                                             (FOUR, "Carol"), (FOUR, "Alice")])
def test_after_the_last_pass_the_next_step_has_begun(players, active):
    """CR 500.2, 117.3a, 513.1, 603.3: when everyone passes with an empty stack the
    step ends; what a player then sees is the next step as it begins, its "at the
    beginning of" triggers on the stack and the active player about to act (the
    same moment a position at that step means, docs/scenarios.md "Where a position begins")."""
    i = players.index(active)
    order = list(players[i:] + players[:i])
    sc = scenario([card("Test Sparker", active, "battlefield")], phase="main2", players=players, active=active,
                  history=[f"{p} passes" for p in order[:-1]], custom=[SPARKER])
    assert got(sc, f"what is on the stack after {order[-1]} passes") == ["Test Sparker"]
    assert got(sc, f"who has priority after {order[-1]} passes") == active
    # no trigger: the next step begins with an empty stack
    quiet = scenario([], phase="main1", players=players, active=active, history=[f"{p} passes" for p in order[:-1]])
    assert got(quiet, f"what is on the stack after {order[-1]} passes") == []
    assert got(quiet, f"who has priority after {order[-1]} passes") == active


def test_no_priority_in_the_cleanup_step_that_follows():
    """CR 514.3: the cleanup step that follows the end step gives nobody priority."""
    sc = scenario([], phase="end", history=["Alice passes"])
    assert got(sc, "who has priority after Bob passes") == "nobody"


# ---------------------------------------------------------------- a combat without possible attackers (CR 508.1a, 508.8)
@pytest.mark.parametrize("phase", ["combat.attackers", "combat.end"])
def test_no_creature_of_the_active_player_means_no_attackers(phase):
    """CR 508.1a, 506.4: with no creature of the active player on the battlefield
    none is attacking; the scenario need not say attack: []."""
    sc = scenario([card("Grizzly Bears", "Bob", "battlefield")], phase=phase, active="Alice")
    assert got(sc, "who has priority now") == "Alice"
    from logic.errors import InputError

    with pytest.raises(InputError):  # a creature that could attack: the scenario must say
        got(scenario([card("Grizzly Bears", "Alice", "battlefield")], phase=phase), "who has priority now")


# ---------------------------------------------------------------- a target card in a graveyard (CR 109.2a, 603.3d)
def test_graveyard_target_decides_whether_an_unread_resolution_can_matter():
    """CR 109.2a, 603.3d: Snapcaster Mage's trigger targets an instant or sorcery
    card in its controller's graveyard; with none there it is removed from the
    stack and its unread resolution (flashback) never happens, so the question
    is answered; with one there, that resolution could matter: not modelled."""
    from logic.errors import NotModelled

    cards = [card("Grizzly Bears", "Bob", "hand"), card("Snapcaster Mage", "Bob", "hand")]
    assert got(scenario(cards, phase="end"), "can Bob cast Grizzly Bears during the end step") == "no"
    # Alice's sorcery in her graveyard is no target for Bob's trigger
    theirs = cards + [card("Divination", "Alice", "graveyard")]
    assert got(scenario(theirs, phase="end"), "can Bob cast Grizzly Bears during the end step") == "no"
    mine = cards + [card("Lightning Bolt", "Bob", "graveyard")]
    with pytest.raises(NotModelled):
        got(scenario(mine, phase="end"), "can Bob cast Grizzly Bears during the end step")


def test_reader_reads_graveyard_card_targets():
    from logic.mtg_cards import _targets

    assert _targets("Exile target card from a graveyard.") == ("graveyard_card", [])
    kind, unmod = _targets("Return target creature card from your graveyard to your hand.")
    assert kind == "graveyard_card" and unmod == ["target: target creature card from your graveyard"]
    assert _targets("Return target card from your hand to the battlefield.")[0] is None
