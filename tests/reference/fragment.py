"""The fragment of the Yu-Gi-Oh! timing rules that the reference enumerator
implements -- in one place, for the enumerator, the position generator and
the drift test.

The reference enumerator (``enumerator.py``) is a plain depth-first search
written from the rules below, not from the encodings.  The engine is
compared with it on generated positions (``tests/test_chains_reference.py``).
So that the two cannot drift apart silently, ``RULES`` classifies *every*
named rule of the Yu-Gi-Oh! encodings:

* ``implemented`` -- the reference implements it; the fingerprint is the
  SHA-256 (first 12 hex digits) of the rule's text and its statements.  When
  either changes in the encodings, ``test_fragment_rules_match_the_encodings``
  fails until the reference has been reviewed and the fingerprint updated.
* ``outside`` -- it never applies in a generated position (the reason says why).

A rule added to the encodings fails the same test until it is classified here.
"""

from __future__ import annotations

import hashlib

# ---------------------------------------------------------------- the rules, in words
#
# Points (FET box A, 004): the generated positions are at one of these
# points, with no attack in progress.  Points with an open game state begin
# in box A, the others in box B; the turn player has priority.
POINTS = ("draw", "standby", "main1", "bp_start", "bp_battle", "bp_end", "main2", "end")
OPEN_POINTS = frozenset({"draw", "standby", "main1", "bp_battle", "main2", "end"})
# The phase names a phase(P) condition may name, and the points they hold at.
PHASES = {
    "draw": {"draw"},
    "standby": {"standby"},
    "main": {"main1", "main2"},
    "battle": {"bp_start", "bp_battle", "bp_end"},
    "battle_step": {"bp_battle"},
    "end": {"end"},
    "damage_step": set(),
}
#
# Fast Effect Timing (the FET chart; its reading of
# box E): with no chain, box A (turn player, open state) -> pass -> box E
# (opponent's last chance) -> pass -> play moves on.  Box B (turn player) ->
# pass -> box C (opponent) -> pass -> box A at an open point, else play moves
# on.  In box A the turn player may also do something that starts no chain
# (Summon, Set, ...): play moves on as well.  An activation starts or
# continues a chain (box D): the other player may respond; two passes in
# succession resolve the chain.  In the Draw Phase nothing comes before the
# normal draw (RB10 "Draw Phase"): a position at the Draw Phase has only the empty chain.
#
# Spell speeds (FET): a link's speed is at least the speed of the link it
# responds to; speed 1 only as chain link 1 (or in a SEGOC).  Ignition
# effects and speed-1 Spell Cards only in box A of the turn player's Main
# Phase.
#
# Activation windows: the card must be where the effect is activated from
# (hand; face-up monster; Set Spell/Trap; face-up Spell/Trap); a Trap or a
# Set Quick-Play Spell not in the turn it was Set; a Quick-Play Spell from
# the hand only in its controller's turn; conditions turn(own|opponent),
# phase(P), responds_to (who: any|opponent|self; to: any, spell_trap_card,
# spell_card, trap_card, monster_effect, spell_trap_effect -- the link just
# below); each effect at most once (the search's bound, and once per turn).
#
# SEGOC: triggered effects waiting at the position go on one chain first:
# the turn player's mandatory, the opponent's mandatory, the turn player's
# optional, the opponent's optional ones, each player ordering their own; a
# mandatory one cannot be declined, a pass declines the rest of an optional
# group.  Then the player who did not activate the last link may respond
# (box D); with no link the turn player acts (box B).
#
# A chain is the sequence of links from the first activation until it
# resolves; the empty chain is play moving on with no chain.

KINDS = ("quick", "ignition", "card", "trigger")
CONDITIONS = ("turn(own)", "turn(opponent)", "phase(main)", "phase(battle)", "phase(battle_step)",
              "phase(standby)", "phase(end)", "phase(draw)", "phase(damage_step)")
RESPONDS_WHO = ("any", "opponent", "self")
RESPONDS_TO = ("any", "spell_trap_card", "spell_card", "trap_card", "monster_effect", "spell_trap_effect")

# ---------------------------------------------------------------- the rules of the encodings

IMPLEMENTED = "implemented"
OUTSIDE = "outside"

RULES: dict[str, tuple[str, str]] = {
    # kernel
    "core.activate.controller": (IMPLEMENTED, "b8d20affdf97"),
    "core.priority.holder_acts": (IMPLEMENTED, "d9c9cbb83290"),
    "core.procedure.game_acts": (IMPLEMENTED, "1627f81a221f"),  # text and sources extended; the rule's body is unchanged
    "search.chain_slots": (IMPLEMENTED, "7cd43d7fc243"),
    "query.chains.max_links": (OUTSIDE, "generated positions set no --max-links"),
    "core.chain.last_first": (OUTSIDE, "the order a question reads resolution in, no constraint on a chain"),
    "unmodelled.permissive": (OUTSIDE, "applies only under a reading of unmodelled parts; generated positions have none"),
    "unmodelled.restrictive": (OUTSIDE, "applies only under a reading of unmodelled parts; generated positions have none"),
    "ygo.unmodelled.permissive_conditions": (OUTSIDE, "a reading of unmodelled parts; generated positions have none"),
    "ygo.unmodelled.permissive_damage": (OUTSIDE, "a reading of unmodelled parts; generated positions have none"),
    "ygo.unmodelled.permissive_kinds": (OUTSIDE, "a reading of unmodelled parts; generated positions have none"),
    "ygo.unmodelled.permissive_damage_step": (OUTSIDE, "a reading of unmodelled parts; generated positions have none"),
    "ygo.trigger.one_hand_summon_per_chain": (OUTSIDE, "generated effects do nothing on resolution: none Special "
                                              "Summons its own card"),
    "ygo.trigger.missing_the_timing_cost": (OUTSIDE, "generated positions have no trigger of a card moved as a cost"),
    "query.chains.copies_in_order": (OUTSIDE, "a symmetry of the search, not a rule of the game: the reference "
                                     "compares chains by effect signatures, which identical copies share"),
    "query.replay.only_implicit": (OUTSIDE, "no event is replayed"),
    "query.checks": (OUTSIDE, "the chain searches use no check atoms"),
    "core.idle_after_done": (IMPLEMENTED, "324cb04fde51"),
    "core.idle_only_when_done": (IMPLEMENTED, "757dac70c3c5"),
    "core.functional.one_value": (OUTSIDE, "a property of the encoding, not a rule of the game"),
    # Yu-Gi-Oh!: actions that start no chain end the trace (the empty chain)
    "ygo.open_state.actions": (IMPLEMENTED, "5d09feb8a948"),
    "ygo.draw.once": (OUTSIDE, "the draw ends the trace (the empty chain)"),
    "ygo.summon.main_phase": (OUTSIDE, "summons and Sets end the trace (the empty chain)"),
    "ygo.summon.from_hand": (OUTSIDE, "summons and Sets end the trace (the empty chain)"),
    "ygo.summon.once_per_turn": (OUTSIDE, "summons and Sets end the trace (the empty chain)"),
    "ygo.summon.cannot_normal_summon": (OUTSIDE, "summons and Sets end the trace (the empty chain)"),
    "ygo.summon.tributes": (OUTSIDE, "summons and Sets end the trace (the empty chain)"),
    "ygo.attack.battle_step": (OUTSIDE, "an attack declaration ends the trace (the empty chain)"),
    "ygo.attack.attacker": (OUTSIDE, "an attack declaration ends the trace (the empty chain)"),
    "ygo.attack.target": (OUTSIDE, "an attack declaration ends the trace (the empty chain)"),
    "ygo.attack.battle_phase_ended": (OUTSIDE, "an attack declaration ends the trace (the empty chain)"),
    "ygo.restriction.cannot_attack": (OUTSIDE, "an attack declaration ends the trace (the empty chain)"),
    "ygo.summon.flip": (OUTSIDE, "summons and Sets end the trace (the empty chain)"),
    "ygo.summon.negation_window": (OUTSIDE, "no generated position has a Summon waiting to happen"),
    "ygo.window.last_thing": (OUTSIDE, "no generated position follows a Summon"),
    "ygo.battle.end_battle_phase": (OUTSIDE, "generated effects do not end the Battle Phase"),
    # activation
    "ygo.activation.zone": (IMPLEMENTED, "94447286be83"),
    "ygo.speed.response": (IMPLEMENTED, "1768c06f857f"),
    "ygo.speed.ss1_first_link": (IMPLEMENTED, "8bce61ae109a"),
    "ygo.open_state.ss1": (IMPLEMENTED, "69b257261ffe"),
    "ygo.trap.not_the_turn_set": (IMPLEMENTED, "5fb5d8e3ceb3"),
    "ygo.quickplay.hand_own_turn": (IMPLEMENTED, "5c5217a98466"),
    "ygo.activation.condition": (IMPLEMENTED, "3a311ceafe7c"),
    "ygo.target.legal": (OUTSIDE, "generated effects do not target"),
    "ygo.cost.payable": (OUTSIDE, "generated effects have no cost"),
    "ygo.activation.once_per_turn": (IMPLEMENTED, "46cc890d4225"),
    "ygo.activation.once_per_turn_shared": (OUTSIDE, "generated effects share no once-per-turn group"),
    "ygo.restriction.cannot_activate": (OUTSIDE, "generated effects leave nothing lingering"),
    "search.one_use_per_effect": (IMPLEMENTED, "43c73f7955cf"),
    "ygo.draw.first": (IMPLEMENTED, "8d5a9a0ab494"),
    "ygo.special_summon.locked": (OUTSIDE, "generated effects do not Special Summon"),
    # the Damage Step and the End Phase's lingering effects
    "ygo.damage_step.allowed": (OUTSIDE, "no generated position is in the Damage Step"),
    "ygo.damage_step.calculation": (OUTSIDE, "no generated position is in the Damage Step"),
    "ygo.damage_step.destroyed_optional": (OUTSIDE, "no generated position is in the Damage Step"),
    "ygo.edition.errata_2014": (OUTSIDE, "generated effects have no duration"),
    "ygo.end_phase.expire_in_end_phase": (OUTSIDE, "generated effects leave nothing lingering"),
    "ygo.duration.end_of_turn": (OUTSIDE, "generated effects leave nothing lingering"),
    "ygo.duration.next_turn": (OUTSIDE, "generated effects leave nothing lingering"),
    "ygo.end_phase.must_expire": (OUTSIDE, "generated effects leave nothing lingering"),
    "ygo.phase_effect.controller_orders": (OUTSIDE, "generated effects are not 'during your X Phase' effects"),
    "ygo.phase_effect.no_end_while_mandatory": (OUTSIDE, "generated effects are not 'during your X Phase' effects"),
    "ygo.phase_effect.must_activate": (OUTSIDE, "generated effects are not 'during your X Phase' effects"),
    "ygo.phase_effect.opponent_must_activate": (OUTSIDE, "generated effects are not 'during your opponent's X "
                                                "Phase' effects"),
    # the chart
    "ygo.fet.box_a": (IMPLEMENTED, "17c4a16f3724"),
    "ygo.fet.box_b": (IMPLEMENTED, "990e7389a797"),
    "ygo.fet.box_c": (IMPLEMENTED, "5b4ef3e55b4e"),
    "ygo.fet.box_d": (IMPLEMENTED, "247be378fa42"),
    "ygo.fet.box_e": (IMPLEMENTED, "24ed2597f22f"),
    "ygo.fet.chain_returns": (OUTSIDE, "the trace ends once its chain has resolved"),
    "ygo.fet.one_chain_window": (OUTSIDE, "no generated position is in the attack declaration window or at "
                                 "damage calculation"),
    # triggers and SEGOC
    "ygo.trigger.missing_the_timing": (OUTSIDE, "generated triggers are already waiting at the position"),
    "ygo.segoc.order": (IMPLEMENTED, "c4a2941b47b5"),
    "ygo.segoc.mandatory": (IMPLEMENTED, "660688ef9e09"),
    "ygo.trigger.only_when_triggered": (IMPLEMENTED, "384989e7bc0e"),
    "ygo.segoc.first": (IMPLEMENTED, "49f1c54eecf4"),
    "ygo.segoc.chance": (IMPLEMENTED, "1d04b7cf7998"),
    "ygo.turn.next_point": (OUTSIDE, "play moving on ends the trace (the empty chain)"),
    "ygo.battle.attack_continues": (OUTSIDE, "no attack is in progress"),
}


def fingerprint(text: str, body: str) -> str:
    return hashlib.sha256((" ".join(text.split()) + "\n" + " ".join(body.split())).encode()).hexdigest()[:12]
