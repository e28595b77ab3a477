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
    "phase": '"during your X Phase" effect activated at a time of its controller\'s choosing (000.7)',
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
    "phase": ("draw", "standby", "main", "battle", "end", "battle_step", "damage_step",
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
}
YGO_RESPONDS_WHO = ("any", "opponent", "self")
YGO_RESPONDS_TO = ("any", "spell_trap_card", "spell_card", "trap_card", "monster_effect", "spell_trap_effect")
YGO_COSTS = ("discard_self", "tribute_self", "banish_self", "pay_lp", "pay_half_lp", "discard")
YGO_TARGET_KEYS = {
    "zone": ("monster", "spell_trap", "graveyard", "field", "banished"),
    "side": ("own", "opponent", "any"),
    "face": ("up",),
    "kind": ("effect_monster", "monster", "spell_trap"),
    "position": ("attack",),
    "attacker": ("yes",),
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
    "and_destroy": "and destroy that card",
    "negate_target_effects": "negate the target's effects (lingering)",
    "take_control": "take control of the target (lingering)",
    "no_battle_damage": "its controller takes no battle damage this turn",
    "battle_indestructible": "its controller's monsters cannot be destroyed by battle this turn",
    "special_summon_same_name_from_deck": "Special Summon a copy of this card from the Deck",
    "atk_gain": "the target (or this card) gains ATK (the effect's amount)",
    "atk_gain_battle_opponent": "your battling monster gains the ATK of the monster it battles",
    "def_gain": "the target (or this card) gains DEF (the effect's amount)",
    "lock_special_summon": "(continuous) neither player can Special Summon",
    "indestructible_by_battle": "(continuous) this card cannot be destroyed by battle",
    "halve_original_atk": "the target's original ATK is halved",
    "end_battle_phase": "end the Battle Phase",
    "negate_attack": "negate the attack",
    "no_action": "nothing the timing rules look at",
    "unknown": "not known: the effect was read from card text and its resolution is not modelled",
}
YGO_TRIGGERS = {
    "summoned": "this card is Summoned",
    "normal_summoned": "this card is Normal Summoned",
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
    "attack_declared_opponent": "an opponent's monster declares an attack",
    "targeted_for_attack": "this card is targeted for an attack",
    "phase_start": "at the start of a phase",
}
YGO_DURATIONS = ("end_of_turn", "end_phase", "permanent")

_TERM = re.compile(r"^([a-z_][a-z0-9_]*)(?:\(([a-z0-9_]+)\))?$")


def parse_condition(text: str) -> tuple[str, str | None]:
    """``"turn(opponent)"`` -> ``("turn", "opponent")``; raises ValueError if unknown."""
    m = _TERM.match(text.strip())
    if not m:
        raise ValueError(f"condition {text!r} is not of the form name or name(argument)")
    name, arg = m.group(1), m.group(2)
    if name not in YGO_CONDITIONS:
        raise ValueError(f"unknown condition {name!r}; known: {', '.join(sorted(YGO_CONDITIONS))}")
    allowed = YGO_CONDITIONS[name]
    if allowed is None and arg is not None:
        raise ValueError(f"condition {name!r} takes no argument")
    if allowed is not None and arg not in allowed:
        raise ValueError(f"condition {name}({arg}) must have one of: {', '.join(allowed)}")
    return name, arg
