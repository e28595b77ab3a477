"""The closed vocabulary of timing attributes shared by the card library, the
card-text reader and the encodings.

An attribute outside this vocabulary is an error in the library (or a
"not modelled" effect for derived cards): the encodings only understand what
is listed here.  Each entry names the encoding file that interprets it.
"""

from __future__ import annotations

import re

# ---------------------------------------------------------------- Yu-Gi-Oh!
YGO_KINDS = {
    "card": "activating a Spell/Trap Card (ygo/activation.lp)",
    "ignition": "Ignition effect, Spell Speed 1, open state only",
    "quick": "Quick Effect, Spell Speed 2",
    "trigger": "Trigger effect (ygo/triggers.lp)",
    "phase": '"during your X Phase" effect activated at a time of its controller\'s choosing (the phase-effect guides)',
    "flip": "FLIP: effect (a trigger on being flipped face-up)",
    "continuous": "Continuous effect, never activated",
}
YGO_ZONES = ("hand", "deck", "monster", "spell_trap", "graveyard", "banished", "field", "extra")
YGO_POSITIONS = ("face_up_attack", "face_up_defense", "face_down_defense", "face_up", "face_down")
YGO_ACT_ZONES = ("hand", "monster", "set", "spell_trap", "graveyard", "banished")
YGO_CARD_TYPES = ("monster", "spell", "trap")
YGO_PROPERTIES = {
    "spell": ("normal", "quickplay", "continuous", "field", "equip", "ritual"),
    "trap": ("normal", "continuous", "counter"),
}

# condition name -> allowed argument values (None: no argument)
YGO_CONDITIONS: dict[str, tuple[str, ...] | None] = {
    "turn": ("own", "opponent"),
    "phase": ("draw", "standby", "main", "main1", "main2", "battle", "end", "battle_step", "damage_step",
              "ds_start", "ds_before", "ds_calc", "ds_after", "ds_end"),
    "attack_declared": ("opponent", "any"),
    "targeted_for_attack": None,
    "responds": None,  # with responds_to entries
    "self_battles": None,
    "opponent_monster_attacks": None,
    "own_monster_battles": ("light", "any"),
    "attacked_defense_position": None,  # Red Dragon Archfiend
    "was_attacked_face_down": None,  # Marshmallon
    "battle_damage_would_be_taken": None,
    "direct_attack_declared": ("opponent", "any"),  # Battle Fader: the window answering a direct attack
    "self_attacked": None,  # Dyson Sphere: this card is the attack target (Battle Step)
    "controls_no_cards": None,  # Infinite Impermanence from the hand, Gorz
    "added_from_deck": ("opponent", "any"),  # Droll & Lock Bird: cards were just added from that Main Deck to the hand
    "own_monster_destroyed": None,  # Desrook Archfiend: a monster you control was just destroyed and sent to the GY
    "has_material": None,  # an Xyz Monster with material
    "no_material": None,  # an Xyz Monster without material
    "opponent_higher_atk": None,  # Dyson Sphere: the opponent controls a face-up monster with higher ATK than this card
}

NUMBER = "<number>"  # an argument that is a whole number
# Conditions with several (or numeric) arguments: name -> the allowed values of each argument.
YGO_CONDITIONS_ARGS: dict[str, tuple[tuple[str, ...], ...]] = {
    # the Summon response window: right after a Summon by (opponent|self|any) of that kind
    "summoned": (("opponent", "self", "any"), ("normal", "flip", "special", "normal_or_flip", "any")),
    # the Summon negation window: a monster would be Summoned (by whom, which kind)
    "would_be_summoned": (("opponent", "self", "any"), ("normal", "flip", "special", "normal_or_flip", "any")),
    # a monster of the Summon answered has at least N ATK (Trap Hole 1000, Bottomless Trap Hole 1500)
    "summoned_atk_at_least": ((NUMBER,),),
    # the opponent Normal or Special Summoned at least N monsters this turn (Nibiru)
    "opponent_summoned_at_least": ((NUMBER,),),
}
YGO_SUMMON_WHO = ("opponent", "self", "any")
YGO_SUMMON_KINDS = ("normal", "flip", "special", "normal_or_flip", "any")
YGO_RESPONDS_WHO = ("any", "opponent", "self")
YGO_RESPONDS_TO = ("any", "spell_trap_card", "spell_card", "trap_card", "monster_effect", "spell_trap_effect",
                   "special_summons", "destroys", "touches_deck", "graveyard_effect")
# what each responds_to kind means (the kinds of the link responded to)
YGO_RESPONDS_TO_MEANING = {
    "any": "any card or effect",
    "spell_trap_card": "the activation of a Spell/Trap Card",
    "spell_card": "the activation of a Spell Card",
    "trap_card": "the activation of a Trap Card",
    "monster_effect": "a monster effect",
    "spell_trap_effect": "an effect of a Spell/Trap (its activation or an effect of one on the field)",
    "special_summons": "a card or effect whose resolution Special Summons (Solemn Warning)",
    "destroys": "a card or effect whose resolution destroys cards on the field (Stardust Dragon)",
    "touches_deck": "a card or effect that adds from the Deck to the hand or Special Summons from the Deck (Ash Blossom)",
    "graveyard_effect": "an effect activated in the GY (Skull Meister)",
}
YGO_COSTS = ("discard_self", "tribute_self", "banish_self", "pay_lp", "pay_half_lp", "discard",
             "send_self_to_gy", "detach", "tribute", "banish_from_graveyard", "send_from_hand", "remove_counter")
# what each cost means, and the argument it takes
YGO_COST_MEANING = {
    "discard_self": "discard this card (also: send this card from the hand to the GY)",
    "tribute_self": "Tribute this card",
    "banish_self": "banish this card (from where it is)",
    "pay_lp": "pay N LP: pay_lp(N)",
    "pay_half_lp": "pay half your LP",
    "discard": "discard 1 other card: discard, or discard(Type) for a card of that monster Type",
    "send_self_to_gy": "send this card from the hand or the field to the GY",
    "detach": "detach N materials from this Xyz Monster: detach(N); not payable with fewer",
    "tribute": "Tribute 1 monster you control: tribute(monster) (this card too) or tribute(synchro)",
    "banish_from_graveyard": "banish 1 card from your GY: banish_from_graveyard(monster|card)",
    "send_from_hand": "send 1 other card from the hand to the GY (not a discard): send_from_hand(monster|card|Type)",
    "remove_counter": "remove 1 counter of that kind from this card: remove_counter(spell)",
}
YGO_TARGET_KEYS = {
    "zone": ("monster", "spell_trap", "graveyard", "field", "banished"),
    "side": ("own", "opponent", "any"),
    "face": ("up",),
    "kind": ("effect_monster", "monster", "spell_trap", "spell", "tuner"),
    "position": ("attack",),
    "attacker": ("yes",),
    "summoned": ("yes",),  # the monster whose Summon the effect answers (Trap Hole)
    "destroyed": ("yes",),  # the monster whose destruction the effect answers (Desrook Archfiend)
}
YGO_ACTIONS = {
    "destroy_target": "destroy the target",
    "destroy_opponent_attack_position": "destroy all Attack Position monsters the opponent controls",
    "destroy_opponent_defense_position": "destroy all Defense Position monsters the opponent controls",
    "destroy_all_other_cards": "destroy all other cards on the field",
    "destroy_special_summoned_monsters": "destroy all face-up Special Summoned monsters",
    "destroy_all_monsters": "destroy all monsters on the field",
    "destroy_opponent_monsters": "destroy all monsters the opponent controls",
    "destroy_opponent_spell_traps": "destroy all Spells/Traps the opponent controls",
    "destroy_all_spell_traps": "destroy all Spells/Traps on the field",
    "banish_target": "banish the target (on the field)",
    "banish_target_from_graveyard": "banish the target in a GY",
    "negate_previous_activation": "negate the activation of the link it responds to",
    "negate_previous_effect": "negate the effect of the link it responds to, not its activation (Ash Blossom)",
    "and_destroy": "and destroy that card (after negating it)",
    "destroy_previous_card": "destroy the card of the link it responds to, without negating it",
    "negate_summon": "negate the Summon it answers (would_be_summoned); and_destroy destroys that monster",
    "negate_target_effects": "negate the target's effects (lingering)",
    "take_control": "take control of the target (lingering)",
    "no_battle_damage": "its controller takes no battle damage this turn",
    "battle_indestructible": "its controller's monsters cannot be destroyed by battle this turn",
    "special_summon_same_name_from_deck": "Special Summon a copy of this card from the Deck",
    "atk_gain": "the target (or this card) gains ATK (the effect's amount)",
    "atk_loss": "the target (or this card) loses ATK (the effect's amount)",
    "atk_change": "the target's (or this card's) ATK changes by the effect's signed amount (none: not computed)",
    "atk_gain_battle_opponent": "your battling monster gains the ATK of the monster it battles",
    "def_gain": "the target (or this card) gains DEF (the effect's amount)",
    "lock_special_summon": "(continuous) neither player can Special Summon",
    "indestructible_by_battle": "(continuous) this card cannot be destroyed by battle",
    "halve_original_atk": "the target's original ATK is halved",
    "end_battle_phase": "end the Battle Phase",
    "negate_attack": "negate the attack",
    "destroy_self": "destroy this card",
    "destroy_battle_opponent": "destroy the monster this card is battling (no targeting)",
    "destroy_and_banish_summoned": "destroy the monster(s) whose Summon it answers, and banish them",
    "return_target_to_hand": "return the target to the hand",
    "return_battling_monsters_to_hand": "return this card and the monster it battles to the hand",
    "return_battle_opponent_to_deck": "shuffle the monster this card is battling into the Deck",
    "send_target_to_gy": "send the target to the GY (not destroyed)",
    "change_target_position": "change the target's battle position",
    "set_target_face_down": "change the target to face-down Defense Position",
    "special_summon_self": "Special Summon this card (from where it is)",
    "special_summon_target": "Special Summon the target to its activating player's field",
    "tribute_all_face_up_monsters": "Tribute every face-up monster on the field",
    "add_from_deck_to_hand": "add a card from the Deck to the hand (a search)",
    "add_target_to_hand": "add the target (in a GY) to its owner's hand",
    "place_spell_counter": "place a Spell Counter on this card (at most 1)",
    "no_add_from_deck": "for the rest of the turn no card can be added from a Main Deck to the hand by an effect",
    "opponent_cannot_activate": "the opponent cannot activate cards or effects (lingering, see duration)",
    "opponent_cannot_attack": "the opponent cannot declare an attack (lingering, see duration)",
    "unaffected_by_spell_trap": "the target is unaffected by other Spell/Trap effects (lingering)",
    "no_damage": "its controller takes no damage at all (battle and effect)",
    "no_action": "nothing the timing rules look at",
    "unknown": "not known: the effect was read from card text and its resolution is not modelled",
}
YGO_TRIGGERS = {
    "summoned": "this card is Summoned",
    "normal_summoned": "this card is Normal Summoned",
    "tribute_summoned": "this card is Tribute Summoned (a Normal Summon with Tributes)",
    "special_summoned": "this card is Special Summoned",
    "sent_to_gy_from_field": "this card is sent from the field to the GY",
    "sent_to_gy": "this card is sent to the GY",
    "destroyed_by_battle": "this card is destroyed by battle (and sent to the GY)",
    "destroyed": "this card is destroyed",
    "leaves_field": "this face-up card leaves the field",
    "flipped": "this card is flipped face-up",
    "destroys_by_battle": "this card destroys a monster by battle",
    "after_damage_calculation": "after damage calculation (with a battle condition)",
    "start_of_damage_step": "at the start of the Damage Step",
    "before_damage_calculation": "before damage calculation (with a battle condition)",
    "attack_declared_opponent": "an opponent's monster declares an attack",
    "targeted_for_attack": "this card is targeted for an attack",
    "phase_start": "at the start of a phase",
    "attack_declared": "any monster declares an attack",
    "direct_attack_declared_opponent": "an opponent's monster declares a direct attack",
    "inflicts_battle_damage": "this card inflicts battle damage to the opponent",
    "inflicts_battle_damage_direct": "this card inflicts battle damage to the opponent by a direct attack",
    "takes_battle_damage": "its controller (its owner, in the hand) takes battle damage",
    "takes_damage": "its controller (its owner, in the hand) takes damage (only battle damage is modelled)",
    "added_to_hand_by_effect": "this card is added from the Deck or GY to the hand by a card effect",
    "special_summoned_by_own_effect": "this card is Special Summoned by its own effect",
}
YGO_DURATIONS = ("end_of_turn", "end_phase", "permanent", "end_of_next_turn", "end_of_opponents_next_turn")
YGO_DURATION_MEANING = {
    "end_of_turn": "until the end of this turn (cannot be let expire in the End Phase, the 2014 wording change)",
    "end_phase": "until the End Phase: its player lets it expire during the End Phase (YP 'End Phase')",
    "permanent": "for as long as the card stays (not a lingering effect)",
    "end_of_next_turn": "until the end of the next turn: it outlasts this turn",
    "end_of_opponents_next_turn": "until the end of the opponent's next turn: it outlasts this turn",
}

_TERM = re.compile(r"^([a-z_][a-z0-9_]*)(?:\(([a-z0-9_]+)\))?$")


_TERM_N = re.compile(r"^([a-z_][a-z0-9_]*)\(\s*([a-z0-9_]+(?:\s*,\s*[a-z0-9_]+)*)\s*\)$")


def parse_condition(text: str) -> tuple[str, str | None]:
    """``"turn(opponent)"`` -> ``("turn", "opponent")``; ``"summoned(opponent, normal)"`` ->
    ``("summoned", "opponent,normal")``; raises ValueError if unknown."""
    text = text.strip()
    head = text.split("(", 1)[0].strip()
    if head in YGO_CONDITIONS_ARGS:
        return head, _parse_args(head, text)
    m = _TERM.match(text)
    if not m:
        raise ValueError(f"condition {text!r} is not of the form name or name(argument)")
    name, arg = m.group(1), m.group(2)
    if name not in YGO_CONDITIONS:
        known = sorted([*YGO_CONDITIONS, *YGO_CONDITIONS_ARGS])
        raise ValueError(f"unknown condition {name!r}; known: {', '.join(known)}")
    allowed = YGO_CONDITIONS[name]
    if allowed is None and arg is not None:
        raise ValueError(f"condition {name!r} takes no argument")
    if allowed is not None and arg not in allowed:
        raise ValueError(f"condition {name}({arg}) must have one of: {', '.join(allowed)}")
    return name, arg


def _parse_args(name: str, text: str) -> str:
    spec = YGO_CONDITIONS_ARGS[name]
    m = _TERM_N.match(text)
    form = f"{name}({', '.join('|'.join(v) for v in spec)})"
    if not m:
        raise ValueError(f"condition {text!r} must be written {form}")
    args = [a.strip() for a in m.group(2).split(",")]
    if len(args) != len(spec):
        raise ValueError(f"condition {name} takes {len(spec)} argument(s): {form}")
    for a, allowed in zip(args, spec, strict=True):
        if allowed == (NUMBER,):
            if not a.isdigit():
                raise ValueError(f"condition {name}: {a!r} must be a whole number")
        elif a not in allowed:
            raise ValueError(f"condition {name}: {a!r} must be one of {', '.join(allowed)}")
    return ",".join(args)
