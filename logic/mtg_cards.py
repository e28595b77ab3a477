"""Magic: The Gathering cards: the library schema and the Oracle-text reader.

A Magic card is described by its type line, its characteristics the timing
rules look at (power, toughness, loyalty, colours, keyword abilities) and its
abilities, each an :class:`logic.cards.Effect`:

========== =============================================================== ============
kind       what it is                                                      timing (speed)
========== =============================================================== ============
card       casting the card as a spell (CR 601)                            1 sorcery / 2 instant
activated  an activated ability "cost: effect" (CR 602)                    2, or 1 "as a sorcery"
mana       a mana ability: no target, adds mana (CR 605.1a)                2 (never uses the stack)
loyalty    a loyalty ability "[+N]: effect" (CR 606)                       1 (and once per turn)
triggered  a triggered ability "When/Whenever/At ..." (CR 603)             --
========== =============================================================== ============

Speed 1 means "sorcery timing" (own main phase, empty stack, CR 307.1,
117.1a), speed 2 "instant timing" (any time with priority, CR 117.1a-b).

The bundled library (``logic/library/mtg.yaml``) states these attributes by
hand, checked against the cards' Oracle texts; it keeps a short summary in its
own words, never the Oracle text.  A scenario's ``custom_cards`` entry with
``type_line`` and ``text`` gets them from the text (:func:`derive`); explicit
``effects`` override what is derived.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from logic.cards import Card, Effect, approximations
from logic.errors import InputError

# ---------------------------------------------------------------- vocabulary

CARD_TYPES = ("artifact", "battle", "creature", "enchantment", "instant", "kindred", "land", "planeswalker",
              "sorcery", "tribal")
PERMANENT_TYPES = ("artifact", "battle", "creature", "enchantment", "land", "planeswalker")
SUPERTYPES = ("basic", "legendary", "snow", "world", "ongoing")
MAIN_TYPE_ORDER = ("creature", "planeswalker", "land", "instant", "sorcery", "artifact", "enchantment", "battle")
COLORS = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}
BASIC_MANA = {"plains": "W", "island": "U", "swamp": "B", "mountain": "R", "forest": "G"}

KINDS = {
    "card": "casting the card as a spell (CR 601)",
    "activated": "activated ability (CR 602)",
    "mana": "mana ability (CR 605): does not use the stack",
    "loyalty": "loyalty ability (CR 606): sorcery timing, once per turn per permanent",
    "triggered": "triggered ability (CR 603)",
}
KIND_ALIASES = {"spell": "card", "cast": "card", "ability": "activated"}

KEYWORDS = {
    "flash": "702.8 may be cast any time its controller could cast an instant",
    "split_second": "702.61 while on the stack, no other spells or non-mana abilities",
    "haste": "702.10 no summoning sickness",
    "flying": "702.9 blocked only by flying or reach",
    "reach": "702.17 may block flying creatures",
    "first_strike": "702.7 deals combat damage in the first-strike damage step",
    "double_strike": "702.4 deals combat damage in both damage steps",
    "trample": "702.19 excess combat damage to the player",
    "vigilance": "702.20 attacking does not tap it",
    "lifelink": "702.15 damage it deals gains its controller life",
    "defender": "702.3 cannot attack",
    "deathtouch": "702.2 (not modelled beyond the keyword)",
    "indestructible": "702.12 not destroyed by lethal damage or destroy effects",
    "hexproof": "702.11 cannot be the target of opponents' spells and abilities",
    "shroud": "702.18 cannot be the target of spells or abilities",
    "morph": "702.37 may be turned face up (a special action)",
}

# Where an unmodelled keyword of a card can matter at all (logic/unmodelled.py
# card_scope): "zone:hand" -- only while the card is in its owner's hand (a way to
# cast it, a cost of casting it, an ability activated from the hand);
# "zone:graveyard" -- only while it is in a graveyard (cast or activated from
# there); "block" -- it only restricts which creatures may block it (CR 509.1b).
KEYWORD_SCOPE = {
    "morph": "zone:hand",  # casting it face down (CR 702.37c); turning it face up is modelled
    "cycling": "zone:hand", "convoke": "zone:hand", "delve": "zone:hand", "improvise": "zone:hand",
    "affinity": "zone:hand", "kicker": "zone:hand", "multikicker": "zone:hand", "ninjutsu": "zone:hand",
    "channel": "zone:hand",
    "flashback": "zone:graveyard", "unearth": "zone:graveyard", "embalm": "zone:graveyard",
    "eternalize": "zone:graveyard", "scavenge": "zone:graveyard", "encore": "zone:graveyard",
    "escape": "zone:graveyard", "retrace": "zone:graveyard",
    "menace": "block", "fear": "block", "intimidate": "block", "skulk": "block", "horsemanship": "block",
    **{f"{land}walk": "block" for land in ("plains", "island", "swamp", "mountain", "forest", "desert")},
}

TARGETS = {
    "any": "any target: a creature, a player or a planeswalker (CR 115.4)",
    "creature": "target creature",
    "player": "target player",
    "opponent": "target opponent",
    "planeswalker": "target planeswalker",
    "creature_or_planeswalker": "target creature or planeswalker",
    "land": "target land",
    "permanent": "target permanent",
    "spell": "target spell",
    "noncreature_spell": "target noncreature spell",
    "ability": "target activated or triggered ability",
    "graveyard_card": "target card in a graveyard (CR 109.2a)",
    "own_graveyard_instant_or_sorcery": "target instant or sorcery card in your graveyard",
}

ACTIONS = {
    "damage": "deals N damage to the target",
    "destroy": "destroys the target",
    "destroy_all_creatures": "destroys all creatures",
    "exile": "exiles the target",
    "controller_gains_power": "the target's controller gains life equal to its power",
    "counter": "counters the target spell or ability (CR 701.6)",
    "pump": "the target creature gets +N/+N until end of turn",
    "pump_team": "creatures its controller controls get +N/+N until end of turn",
    "pump_self": "the source creature gets +N/+N until end of turn",
    "tap_target": "taps the target permanent",
    "untap_target": "untaps the target permanent",
    "draw": "its controller draws N cards",
    "each_player_draws": "each player draws N cards",
    "target_draws": "the target player draws N cards",
    "gain_life": "its controller gains N life",
    "lose_life": "its controller loses N life",
    "target_loses_life": "the target player loses N life",
    "sacrifice_self": "its controller sacrifices the source",
    "each_player_discards": "each player discards a card of their choice",
    "target_discards_nonland_noncreature": "the target player discards a noncreature, nonland card of the controller's choice",
    "target_sacrifices_creature": "the target player sacrifices a creature of their choice",
    "add_mana": "adds mana (the mana pool is not modelled)",
    "no_action": "nothing the timing rules look at",
}

TRIGGERS = {
    "enters_self": "when this permanent enters",
    "enters_another_creature": "whenever another creature enters",
    "enters_creature": "whenever a creature enters",
    "land_enters_own": "whenever a land you control enters",
    "dies_self": "when this creature dies",
    "creature_dies": "whenever this or another creature dies",
    "another_creature_dies": "whenever another creature dies",
    "upkeep_own": "at the beginning of your upkeep",
    "upkeep_each": "at the beginning of each upkeep",
    "draw_step_own": "at the beginning of your draw step",
    "combat_own": "at the beginning of combat on your turn",
    "end_step_each": "at the beginning of the (each) end step",
    "end_step_own": "at the beginning of your end step",
    "cast_own": "whenever you cast a spell",
    "cast_any": "whenever a player casts a spell",
    "cast_opponent": "whenever an opponent casts a spell",
    "discard_own": "whenever you discard a card",
    "discard_any": "whenever a player discards a card",
    "attacks_self": "whenever this creature attacks",
    "combat_damage_player_self": "whenever this creature deals combat damage to a player",
    "turned_face_up_self": "when this permanent is turned face up",
    "leaves_self": "when this permanent leaves the battlefield",
    "cast_self": "when you cast this spell",
    "attacks_own": "whenever a creature you control attacks",
    "upkeep_opponent": "at the beginning of each opponent's upkeep",
    "draw_step_each": "at the beginning of each player's draw step",
    "main1_own": "at the beginning of your precombat main phase",
    "main2_own": "at the beginning of your postcombat main phase",
    "combat_each": "at the beginning of each combat",
    "end_step_opponent": "at the beginning of each opponent's end step",
}

# Which spells a cast trigger ("whenever you cast ...") triggers on; with none, any
# spell.  Given after the trigger ("trigger: cast_own+spell_noncreature").
TRIGGER_FILTERS = {
    "spell_creature": "a creature spell",
    "spell_noncreature": "a noncreature spell",
    "spell_instant_or_sorcery": "an instant or sorcery spell",
    **{f"spell_{c}": f"a {c} spell" for c in ("white", "blue", "black", "red", "green")},
    **{f"spell_non{c}": f"a non{c} spell" for c in ("white", "blue", "black", "red", "green")},
}
_CAST_TRIGGERS = ("cast_own", "cast_any", "cast_opponent")

COSTS = ("tap", "sacrifice_self", "discard_card", "pay_life")

_VARIABLE_NUMBER = re.compile(r"(?:\d+[+-])?[*X](?:[+-]\d+)?|\d+[+-]\*|\?")
_ACTION_RE = re.compile(r"^([a-z_]+)(?:\((\d+)\))?$")


# ---------------------------------------------------------------- type lines


def parse_type_line(type_line: str, where: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """``"Legendary Artifact Creature — Golem"`` -> (supertypes, types, subtypes)."""
    text = type_line.replace("—", "-").replace("–", "-")
    left, _, right = text.partition(" - ")
    if not _ and "-" in text and " " not in text.split("-")[0].strip():
        left, _, right = text.partition("-")
    supers: list[str] = []
    types: list[str] = []
    for word in left.lower().split():
        if word in SUPERTYPES:
            supers.append(word)
        elif word in CARD_TYPES:
            types.append(word)
        else:
            raise InputError(f"type_line: {word!r} is not a card type or supertype", where)
    if not types:
        raise InputError(f"type_line {type_line!r} names no card type (for example Instant, Creature — Bear)", where)
    subs = tuple(w.lower() for w in right.split())
    return tuple(supers), tuple(types), subs


def main_type(types: tuple[str, ...]) -> str:
    for t in MAIN_TYPE_ORDER:
        if t in types:
            return t
    return types[0]


def colors_of(mana_cost: str | None) -> tuple[str, ...]:
    if not mana_cost:
        return ()
    found = []
    for sym in re.findall(r"\{([^}]*)\}", mana_cost):
        for part in sym.upper().split("/"):
            if part in COLORS and COLORS[part] not in found:
                found.append(COLORS[part])
    return tuple(found)


# ---------------------------------------------------------------- library schema


def _need(d: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in d or d[key] is None:
        raise InputError(f"missing field '{key}'", where)
    return d[key]


def _list(value: Any) -> list[Any]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _check_keys(d: Mapping[str, Any], known: set[str], where: str) -> None:
    for key in d:
        if key not in known:
            close = difflib.get_close_matches(str(key), sorted(known), n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise InputError(f"unknown field '{key}'{hint}", where)


def _action(text: str, where: str) -> str:
    m = _ACTION_RE.match(str(text).strip())
    if not m or m.group(1) not in ACTIONS:
        raise InputError(f"action {text!r} is not one of: {', '.join(sorted(ACTIONS))} (with (N) for amounts)", where)
    return str(text).strip()


def parse_mtg_effect(d: Mapping[str, Any], index: int, types: tuple[str, ...], keywords: tuple[str, ...],
                     where: str) -> Effect:
    """One ability entry of the Magic library schema."""
    if not isinstance(d, Mapping):
        raise InputError("an effect must be a mapping", where)
    _check_keys(d, {"kind", "timing", "cost", "loyalty", "target", "actions", "trigger", "intervening_if",
                    "once_per_turn", "summary", "source", "index", "mandatory", "unmodelled", "approximate"}, where)
    kind = str(_need(d, "kind", where))
    kind = KIND_ALIASES.get(kind, kind)
    if kind not in KINDS:
        raise InputError(f"kind must be one of {', '.join(KINDS)} (or spell), not {kind!r}", where)
    timing = d.get("timing")
    if timing not in (None, "instant", "sorcery"):
        raise InputError("timing must be 'instant' or 'sorcery'", where)
    if kind == "card":
        default = 2 if ("instant" in types or "flash" in keywords) else 1
    elif kind == "loyalty":
        default = 1
    else:
        default = 2
    speed = {"instant": 2, "sorcery": 1, None: default}[timing]
    if kind == "card" and "land" in types:
        raise InputError("a land is played, not cast: it has no 'card' effect", where)
    zones: tuple[str, ...] = ("hand",) if kind == "card" else ("battlefield",)
    costs: list[tuple[str, str | None]] = []
    for c in _list(d.get("cost")):
        if str(c) not in COSTS:
            raise InputError(f"cost {c!r} is not one of {', '.join(COSTS)} (mana costs are not modelled)", where)
        costs.append((str(c), None))
    if kind == "loyalty":
        loyalty = d.get("loyalty")
        if not isinstance(loyalty, int) or isinstance(loyalty, bool):
            raise InputError("a loyalty ability needs 'loyalty: N' (its cost, e.g. 2 or -1)", where)
        costs.append(("loyalty_up" if loyalty >= 0 else "loyalty_down", str(abs(loyalty))))
    elif "loyalty" in d:
        raise InputError("only loyalty abilities have a 'loyalty' cost", where)
    target: tuple[tuple[str, str], ...] = ()
    if d.get("target") is not None:
        t = str(d["target"])
        if t not in TARGETS:
            raise InputError(f"target must be one of {', '.join(TARGETS)}, not {t!r}", where)
        target = (("kind", t),)
    if kind == "mana" and target:
        raise InputError("a mana ability has no target (CR 605.1a); make it kind: activated", where)
    actions = tuple(_action(a, where) for a in _list(d.get("actions")))
    unmodelled = tuple(str(u) for u in _list(d.get("unmodelled")))
    triggers: tuple[str, ...] = ()
    if kind == "triggered" and d.get("trigger") is None and any(u.startswith("trigger event:") for u in unmodelled):
        pass  # what it triggers on is not modelled (and said so): in the model it never triggers
    elif kind == "triggered":
        trig, *filters = str(_need(d, "trigger", where)).split("+")
        if trig not in TRIGGERS:
            raise InputError(f"trigger must be one of {', '.join(TRIGGERS)}, not {trig!r}", where)
        for f in filters:
            if f not in TRIGGER_FILTERS or trig not in _CAST_TRIGGERS:
                raise InputError(f"a cast trigger's spell filter must be one of {', '.join(TRIGGER_FILTERS)} "
                                 f"(after {', '.join(_CAST_TRIGGERS)}), not {f!r}", where)
        triggers = (trig, *filters)
    elif "trigger" in d:
        raise InputError("only triggered abilities have a 'trigger'", where)
    conditions: tuple[tuple[str, str | None], ...] = ()
    if d.get("intervening_if") is not None:
        spec = str(d["intervening_if"]).split(",")
        ok = (kind == "triggered" and len(spec) == 5 and spec[0] in IF_TYPES and spec[1] in IF_ZONES
              and spec[2] in IF_WHOSE and spec[3] in IF_OPS and spec[4].isdigit())
        if not ok:
            raise InputError("intervening_if (a triggered ability's) must be 'type,zone,whose,op,n' with type "
                             f"{'|'.join(IF_TYPES)}, zone {'|'.join(IF_ZONES)}, whose {'|'.join(IF_WHOSE)}, "
                             f"op {'|'.join(IF_OPS)}, n a number, not {d['intervening_if']!r}", where)
        conditions = (("if_count", ",".join(spec)),)
    return Effect(
        index=int(d.get("index", index)),
        kind=kind,
        speed=speed,
        mandatory=bool(d.get("mandatory", kind == "triggered")),
        zones=zones,
        costs=tuple(costs),
        target=target,
        actions=actions or ("no_action",),
        triggers=triggers,
        conditions=conditions,
        once_per_turn=bool(d.get("once_per_turn", False)),
        summary=str(d.get("summary", "")),
        source=str(d.get("source", "")),
        unmodelled=unmodelled + approximations(d, where),
    )


CARD_FIELDS = {"name", "type_line", "mana_cost", "colors", "power", "toughness", "loyalty", "keywords",
               "protection", "effects", "summary", "aliases", "text", "notes", "oracle_checked", "morph",
               "unmodelled"}


def parse_mtg_card(d: Mapping[str, Any], where: str, origin: str = "library") -> Card:
    """A card of the Magic library schema, or a scenario's custom card.

    A custom card with ``text`` and no ``effects`` takes its abilities from the
    text (:func:`derive`)."""
    if not isinstance(d, Mapping):
        raise InputError("a card must be a mapping with name and type_line", where)
    name = str(_need(d, "name", where))
    where = f"{where} ({name})"
    _check_keys(d, CARD_FIELDS | {"card_type"}, where)
    type_line = str(_need(d, "type_line", where))
    supers, types, subs = parse_type_line(type_line, where)
    text = d.get("text")
    derived: dict[str, Any] = {}
    if text is not None and "effects" not in d:
        derived = derive(name, type_line, str(text), where)
    keywords = [str(k).lower().replace(" ", "_") for k in _list(d.get("keywords"))] or list(derived.get("keywords", ()))
    for k in keywords:
        if k not in KEYWORDS:
            raise InputError(f"keyword {k!r} is not one of the modelled keywords ({', '.join(sorted(KEYWORDS))})", where)
    protection = tuple(str(p).lower() for p in _list(d.get("protection"))) or tuple(derived.get("protection", ()))
    for p in protection:
        if p not in COLORS.values():
            raise InputError(f"protection from {p!r}: only colours are modelled", where)
    colors = tuple(str(c).lower() for c in _list(d.get("colors"))) or colors_of(d.get("mana_cost"))
    card_unmodelled = [str(u) for u in _list(d.get("unmodelled"))] + list(derived.get("unmodelled", ()))
    numbers: dict[str, int | None] = {}
    for field_name in ("power", "toughness", "loyalty"):
        v = d.get(field_name)
        if isinstance(v, str) and v.strip().isdigit():
            v = int(v.strip())
        if isinstance(v, str) and _VARIABLE_NUMBER.fullmatch(v.strip()):
            # "*", "1+*", "X": set by an ability or on entering (CR 208.2, 604.3): not modelled
            card_unmodelled.append(f"characteristic: {field_name} {v.strip()}")
            numbers[field_name] = None
            continue
        if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
            raise InputError(f"field '{field_name}' must be a whole number (or *, X for one an ability sets)", where)
        needed = {"power": "creature", "toughness": "creature", "loyalty": "planeswalker"}[field_name]
        if v is None and origin == "derived" and needed in types:
            card_unmodelled.append(f"characteristic: {field_name} (not given by the card list)")
        numbers[field_name] = v
    variable = {u.split()[1] for u in card_unmodelled if u.startswith("characteristic: ")}
    if "creature" in types and ((numbers["power"] is None and "power" not in variable)
                                or (numbers["toughness"] is None and "toughness" not in variable)):
        raise InputError("a creature needs power and toughness", where)
    if "planeswalker" in types and numbers["loyalty"] is None and "loyalty" not in variable:
        raise InputError("a planeswalker needs its starting loyalty", where)
    if "effects" in d:
        effects_raw = _list(d.get("effects"))
        effects = [parse_mtg_effect(e, i + 1, types, tuple(keywords), f"{where}.effects[{i}]")
                   for i, e in enumerate(effects_raw)]
    else:
        effects = [parse_mtg_effect(e, i + 1, types, tuple(keywords), f"{where} (from its text)")
                   for i, e in enumerate(derived.get("effects", []))]
    has_cast = any(e.kind == "card" for e in effects)
    if "land" not in types and not has_cast:
        # every nonland card can be cast (CR 601): its spell effect is implicit
        effects.insert(0, parse_mtg_effect({"kind": "card", "summary": "cast it"}, 1, types, tuple(keywords), where))
    if "land" in types:
        basics = [BASIC_MANA[s] for s in subs if s in BASIC_MANA]
        if basics and not any(e.kind == "mana" for e in effects):
            # intrinsic mana abilities of basic land types (CR 305.6)
            effects.append(parse_mtg_effect({"kind": "mana", "cost": ["tap"], "actions": ["add_mana"],
                                             "summary": "tap: add one mana of its basic land type (CR 305.6)"},
                                            len(effects) + 1, types, tuple(keywords), where))
    effects = [_reindex(e, i + 1) for i, e in enumerate(effects)]
    extra = {
        "type_line": type_line,
        "types": types,
        "supertypes": supers,
        "subtypes": subs,
        "mana_cost": d.get("mana_cost"),
        "colors": colors,
        "power": numbers["power"],
        "toughness": numbers["toughness"],
        "loyalty": numbers["loyalty"],
        "keywords": tuple(keywords),
        "protection": protection,
        "summary": str(d.get("summary", "")),
        "oracle_checked": str(d.get("oracle_checked", "")),
    }
    if d.get("morph") or "morph" in keywords:
        extra["keywords"] = tuple(sorted(set(keywords) | {"morph"}))
    return Card(
        name=name,
        game="mtg",
        card_type=main_type(types),
        effects=tuple(effects),
        aliases=tuple(str(a) for a in _list(d.get("aliases"))),
        text=str(text) if text is not None else None,
        origin=origin,
        notes=str(d.get("notes", "")),
        extra=extra,
        unmodelled=tuple(dict.fromkeys(card_unmodelled)),
    )


def _reindex(e: Effect, index: int) -> Effect:
    from dataclasses import replace

    return replace(e, index=index)


# ---------------------------------------------------------------- the Oracle-text reader
#
# Every line of a card's text is read into the model or kept as an unmodelled
# part, never dropped: a part of an ability goes to that ability's
# ``unmodelled`` list, text that is no ability (a static ability, a keyword the
# engine does not implement) to the card's, each as "<aspect>: <the card's
# words>".  Aspects: keyword, trigger event, condition (an intervening "if",
# CR 603.4), delayed trigger, target, cost, timing, activation zone,
# restriction, permission, replacement, mode, static, resolution,
# characteristic, other face.

_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20}

# What each keyword ability means to the engine (docs/mtg.md, "Keywords"):
#   "modelled"  -- the engine implements what it does (the KEYWORDS flag above);
#   "none"      -- it changes nothing the engine models (timing, priority, the
#                  stack, targets, combat, damage, life, the modelled
#                  state-based actions);
#   anything else -- the timing meaning the engine does not implement: the
#                  keyword is an unmodelled part of the card.
# A keyword that is not in this table is unmodelled as well.
KEYWORD_READING: dict[str, tuple[str, str]] = {
    "flash": ("modelled", "702.8: cast any time its controller could cast an instant"), "split second": ("modelled", "702.61: no other spells or non-mana abilities while it is on the stack"), "haste": ("modelled", "702.10: attacks and uses {T} abilities without summoning sickness"),
    "flying": ("modelled", "702.9: blocked only by flying or reach"), "reach": ("modelled", "702.17: blocks creatures with flying"), "first strike": ("modelled", "702.7: damage in the first-strike damage step"),
    "double strike": ("modelled", "702.4: damage in both combat damage steps"), "trample": ("modelled", "702.19: excess combat damage to the player"), "vigilance": ("modelled", "702.20: attacking does not tap it"),
    "lifelink": ("modelled", "702.15: its damage gains its controller life"), "defender": ("modelled", "702.3: cannot attack"),
    "indestructible": ("modelled", "702.12: not destroyed by lethal damage or destroy"), "hexproof": ("modelled", "702.11: not a legal target of opponents' spells and abilities"), "shroud": ("modelled", "702.18: not a legal target of any spell or ability"),
    "protection": ("modelled", "702.16 (from a colour; from anything else: unmodelled)"),
    "morph": ("modelled", "702.37: turned face up as a special action; casting it face down is an unmodelled part"),
    "changeling": ("none", "702.73: every creature type; no modelled rule reads creature types"),
    "partner": ("none", "702.124: deck construction (commander), outside the game"),
    "partner with": ("none", "702.124: deck construction; its enter trigger is not modelled"),
    "companion": ("none", "702.139: chosen before the game; putting it into hand is a special action not modelled"),
    "deathtouch": ("unmodelled", "704.5h: a creature dealt damage by it is destroyed"),
    "menace": ("unmodelled", "702.111: blocked only by two or more creatures"),
    "fear": ("unmodelled", "702.36: a blocking restriction"),
    "intimidate": ("unmodelled", "702.13: a blocking restriction"),
    "shadow": ("unmodelled", "702.28: a blocking restriction"),
    "horsemanship": ("unmodelled", "702.31: a blocking restriction"),
    "skulk": ("unmodelled", "702.118: a blocking restriction"),
    "landwalk": ("unmodelled", "702.14: a blocking restriction"),
    "ward": ("unmodelled", "702.21: a triggered ability that counters"),
    "prowess": ("unmodelled", "702.108: a cast trigger"),
    "cascade": ("unmodelled", "702.85: a cast trigger that casts another spell"),
    "storm": ("unmodelled", "702.40: a cast trigger that copies the spell"),
    "flashback": ("unmodelled", "702.34: cast from the graveyard"),
    "cycling": ("unmodelled", "702.29: an activated ability from the hand"),
    "kicker": ("unmodelled", "702.33: an optional additional cost"),
    "multikicker": ("unmodelled", "702.33c: an optional additional cost"),
    "buyback": ("unmodelled", "702.27: an optional additional cost"),
    "equip": ("activated", "702.6: read as an activated ability with sorcery timing"),
    "enchant": ("unmodelled", "702.5, 303.4a: an Aura spell targets"),
    "convoke": ("unmodelled", "702.51: tapping creatures as a cost"),
    "delve": ("unmodelled", "702.66: exiling cards as a cost"),
    "affinity": ("unmodelled", "702.41: a cost reduction"),
    "improvise": ("unmodelled", "702.126: tapping artifacts as a cost"),
    "evoke": ("unmodelled", "702.74: an alternative cost and a sacrifice trigger"),
    "dash": ("unmodelled", "702.109: an alternative cost, haste and a delayed trigger"),
    "madness": ("unmodelled", "702.35: cast when discarded"),
    "suspend": ("unmodelled", "702.62: cast from exile by upkeep triggers"),
    "echo": ("unmodelled", "702.30: an upkeep trigger"),
    "cumulative upkeep": ("unmodelled", "702.24: an upkeep trigger"),
    "vanishing": ("unmodelled", "702.63: upkeep triggers"),
    "fading": ("unmodelled", "702.32: upkeep triggers"),
    "undying": ("unmodelled", "702.93: a dies trigger"),
    "persist": ("unmodelled", "702.79: a dies trigger"),
    "infect": ("unmodelled", "702.90: damage as -1/-1 and poison counters"),
    "wither": ("unmodelled", "702.80: damage as -1/-1 counters"),
    "exalted": ("unmodelled", "702.83: an attack trigger"),
    "annihilator": ("unmodelled", "702.86: an attack trigger"),
    "battle cry": ("unmodelled", "702.91: an attack trigger"),
    "myriad": ("unmodelled", "702.116: an attack trigger"),
    "melee": ("unmodelled", "702.121: an attack trigger"),
    "training": ("unmodelled", "702.149: an attack trigger"),
    "mentor": ("unmodelled", "702.134: an attack trigger"),
    "bushido": ("unmodelled", "702.45: block triggers"),
    "flanking": ("unmodelled", "702.25: a block trigger"),
    "rampage": ("unmodelled", "702.23: a block trigger"),
    "provoke": ("unmodelled", "702.39: an attack trigger"),
    "afflict": ("unmodelled", "702.130: a block trigger"),
    "unearth": ("unmodelled", "702.84: an activated ability from the graveyard"),
    "embalm": ("unmodelled", "702.128: an activated ability from the graveyard"),
    "eternalize": ("unmodelled", "702.129: an activated ability from the graveyard"),
    "scavenge": ("unmodelled", "702.97: an activated ability from the graveyard"),
    "encore": ("unmodelled", "702.141: an activated ability from the graveyard"),
    "escape": ("unmodelled", "702.138: cast from the graveyard"),
    "jump-start": ("unmodelled", "702.133: cast from the graveyard"),
    "retrace": ("unmodelled", "702.81: cast from the graveyard"),
    "aftermath": ("unmodelled", "702.127: cast from the graveyard"),
    "disturb": ("unmodelled", "702.146: cast from the graveyard"),
    "foretell": ("unmodelled", "702.143: a special action and casting from exile"),
    "plot": ("unmodelled", "702.170: a special action and casting from exile"),
    "ninjutsu": ("unmodelled", "702.49: an activated ability from the hand during combat"),
    "channel": ("unmodelled", "an activated ability from the hand"),
    "transfigure": ("unmodelled", "702.71: an activated ability with sorcery timing"),
    "bestow": ("unmodelled", "702.103: an alternative cost and an Aura spell"),
    "mutate": ("unmodelled", "702.140: an alternative cost and merging"),
    "emerge": ("unmodelled", "702.119: an alternative cost"),
    "overload": ("unmodelled", "702.96: an alternative cost without targets"),
    "spectacle": ("unmodelled", "702.137: an alternative cost"),
    "surge": ("unmodelled", "702.117: an alternative cost"),
    "prowl": ("unmodelled", "702.76: an alternative cost"),
    "miracle": ("unmodelled", "702.94: cast when drawn"),
    "replicate": ("unmodelled", "702.56: copies on casting"),
    "splice": ("unmodelled", "702.47: added to another spell"),
    "entwine": ("unmodelled", "702.42: an additional cost for every mode"),
    "devoid": ("unmodelled", "702.114: the card is colourless (protection reads colours)"),
    "riot": ("unmodelled", "702.136: a replacement effect on entering"),
    "unleash": ("unmodelled", "702.98: a replacement effect on entering"),
    "amplify": ("unmodelled", "702.38: a replacement effect on entering"),
    "modular": ("unmodelled", "702.43: counters on entering and a dies trigger"),
    "graft": ("unmodelled", "702.58: counters on entering and a trigger"),
    "evolve": ("unmodelled", "702.100: an enter trigger"),
    "extort": ("unmodelled", "702.101: a cast trigger"),
    "living weapon": ("unmodelled", "702.92: an enter trigger"),
    "fabricate": ("unmodelled", "702.123: an enter trigger"),
    "exploit": ("unmodelled", "702.110: an enter trigger"),
    "backup": ("unmodelled", "702.165: an enter trigger"),
    "afterlife": ("unmodelled", "702.135: a dies trigger"),
    "decayed": ("unmodelled", "702.147: cannot block and an attack trigger"),
    "crew": ("unmodelled", "702.122: an activated ability tapping creatures"),
    "reconfigure": ("unmodelled", "702.151: an activated ability with sorcery timing"),
    "outlast": ("unmodelled", "702.107: an activated ability with sorcery timing"),
    "level up": ("unmodelled", "702.87: an activated ability with sorcery timing"),
    "megamorph": ("unmodelled", "702.37b: morph with a +1/+1 counter when turned face up"),
    "disguise": ("unmodelled", "702.168: morph with ward {2} while face down"),
    "phasing": ("unmodelled", "702.26: phases in and out"),
    "banding": ("unmodelled", "702.22: combat damage assignment"),
    "hideaway": ("unmodelled", "702.75: an enter trigger"),
    "soulbond": ("unmodelled", "702.95: enter triggers"),
    "tribute": ("unmodelled", "702.104: an enter choice"),
    "dredge": ("unmodelled", "702.52: a replacement effect on drawing"),
    "offering": ("unmodelled", "702.48: flash-like casting with a sacrifice"),
    "totem armor": ("unmodelled", "702.89: a replacement effect on destruction"),
    "umbra armor": ("unmodelled", "702.89: a replacement effect on destruction"),
    "sunburst": ("unmodelled", "702.44: counters on entering"),
    "undaunted": ("unmodelled", "702.125: a cost reduction"),
    "assist": ("unmodelled", "702.132: another player pays"),
    "casualty": ("unmodelled", "702.153: an additional cost and a copy"),
    "blitz": ("unmodelled", "702.152: an alternative cost"),
    "toxic": ("unmodelled", "702.164: poison counters"),
    "for mirrodin!": ("unmodelled", "702.163: an enter trigger"),
    "ravenous": ("unmodelled", "702.156: counters on entering and a trigger"),
    "read ahead": ("unmodelled", "702.155: a Saga's chapter choice"),
    "squad": ("unmodelled", "702.157: an additional cost and an enter trigger"),
    "bargain": ("unmodelled", "702.166: an optional additional cost"),
    "craft": ("unmodelled", "702.167: an activated ability with sorcery timing"),
    "offspring": ("unmodelled", "702.175: an additional cost and an enter trigger"),
    "gift": ("unmodelled", "702.174: an additional choice"),
    "saddle": ("unmodelled", "702.171: an activated ability with sorcery timing"),
    "spree": ("unmodelled", "702.172: additional costs per mode"),
    "compleated": ("unmodelled", "702.150: the starting loyalty depends on the mana paid"),
}
_LANDWALK = re.compile(r"^(?:plains|island|swamp|mountain|forest|desert|legendary land|nonbasic land|snow "
                       r"(?:plains|island|swamp|mountain|forest|land)|[a-z]+)walk$")
# keywords that take words after their name ("Enchant creature", "Affinity for artifacts")
_WORDY_KEYWORDS = ("enchant", "protection", "affinity", "partner with", "splice", "offering", "companion")

_TARGET_KINDS = [  # exact phrase -> the model's target kind
    ("target activated or triggered ability", "ability"),
    ("target noncreature spell", "noncreature_spell"),
    ("target spell", "spell"),
    ("any target", "any"),
    ("target creature or planeswalker", "creature_or_planeswalker"),
    ("target creature", "creature"),
    ("target planeswalker", "planeswalker"),
    ("target opponent", "opponent"),
    ("target player", "player"),
    ("target land", "land"),
    ("target permanent", "permanent"),
    ("target instant or sorcery card in your graveyard", "own_graveyard_instant_or_sorcery"),
    ("target card from a graveyard", "graveyard_card"),
    ("target card in a graveyard", "graveyard_card"),
]


def _target_superset(phrase: str) -> str | None:
    """A target the model cannot state exactly ("target creature you control",
    "target artifact or creature"): the smallest target kind of the model that
    holds every object it may target, so that the model never forbids a
    legal target (the unmodelled part says what is narrower).  A target card
    in a graveyard is read as any card in a graveyard; one in a hand or a
    library is no kind of the model: None (read as untargeted)."""
    original = phrase
    phrase = re.sub(r"\b(?:an? |that |target |each )?(?:opponent|player)(?:'s|s)? (?:controls?|owns?|graveyard|hand)\b|"
                    r"\byou (?:don't )?(?:control|own)\b|\b(?:its|their) (?:controller|owner)\b", "", phrase)

    def has(*words: str) -> bool:
        return any(re.search(r"\b" + w + r"s?\b", phrase) for w in words)

    if has("card"):
        # a card in a graveyard: any card in any graveyard holds it (CR 109.2a); a card in
        # a hand or library is no kind of the model
        return "graveyard_card" if re.search(r"\bgraveyards?\b", original) and not re.search(
            r"\b(?:hand|library|exile|exiled)\b", original) else None
    if has("spell") or has("ability"):
        if has("spell") and has("ability"):
            return None
        if has("ability"):
            return "ability"
        return "noncreature_spell" if re.search(r"\bnoncreature spell\b", phrase) and " or " not in phrase else "spell"
    people = has("player", "opponent")
    things = has("creature", "planeswalker", "permanent", "artifact", "enchantment", "land", "battle")
    if re.search(r"\bany\b", phrase) or re.fullmatch(r"(?:up to \w+ )?(?:other |another )?target", phrase):
        return "any"
    if people and not things:
        return "opponent" if has("opponent") and not has("player") else "player"
    other = has("artifact", "enchantment", "land", "battle", "permanent")
    if people:
        return "any" if not other else None
    if has("planeswalker") and has("creature") and not other:
        return "creature_or_planeswalker"
    if has("creature") and not other and not has("planeswalker"):
        return "creature"
    if has("planeswalker") and not other:
        return "planeswalker"
    if has("land") and not has("artifact", "enchantment", "battle", "permanent", "creature"):
        return "land"
    return "permanent"
_TARGET_PHRASE = re.compile(
    r"\b(?:any (?:other )?target|(?:up to (?:one|two|three|\w+) )?(?:other )?(?:another )?target\b[^.,;:]*?"
    r"(?: (?:from|in) (?:your|a|an opponent's|target (?:player|opponent)'s|that player's|their) graveyards?)?)"
    r"(?=\s+(?:gets?|gains?|loses?|deals?|draws?|discards?|sacrifices?|reveals?|mills?|can't|doesn't|to|from|"
    r"and|this turn|until|into|if|unless|where|blocks?|attacks?|fights?|becomes?|has|have|is|are|"
    r"puts?|shuffles?|searches?|creates?|returns?|exiles?|phases?|untaps?|taps?)\b|[.,;:]|$)")


def _num(word: str) -> int | None:
    word = word.lower()
    if word.isdigit():
        return int(word)
    return _NUMBERS.get(word)


def _tilde(text: str, name: str) -> str:
    """Lower case, the card's own name (and "this creature" ...) as ``~``."""
    t = text.lower()
    for n in sorted({name.lower(), name.split(",")[0].strip().lower()}, key=len, reverse=True):
        if n:
            t = t.replace(n, "~")
    t = re.sub(r"\bthis (?:creature|permanent|artifact|enchantment|land|card|planeswalker|vehicle|equipment|"
               r"aura|saga|battle)\b", "~", t)
    return t


def _sentences(text: str) -> list[str]:
    """Sentences, a quoted ability granted to another object kept whole."""
    out: list[str] = []
    buf = ""
    quoted = False
    for ch in text:
        buf += ch
        if ch in "\"“”":
            quoted = not quoted
        if ch == "." and not quoted:
            out.append(buf.strip())
            buf = ""
    if buf.strip():
        out.append(buf.strip())
    return [s for s in out if s.strip(" .")]


def _masked(text: str, name: str) -> str:
    """``text`` with the card's name (which may hold commas) masked, same length."""
    for n in (name.lower(), name.split(",")[0].strip().lower()):
        if not n:
            continue
        low = text.lower()
        i = low.find(n)
        while i >= 0:
            text = text[:i] + "~" * len(n) + text[i + len(n):]
            i = text.lower().find(n, i + len(n))
    return text


# ---- keywords


@cache
def _keyword_names(listed: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """The keyword names by their first three letters, longest first."""
    out: dict[str, list[str]] = {}
    for kw in sorted(set(KEYWORD_READING) | listed, key=len, reverse=True):
        out.setdefault(kw[:3], []).append(kw)
    return {k: tuple(v) for k, v in out.items()}


def _keyword_part(part: str, listed: set[str]) -> tuple[str, str] | None:
    """One keyword of a keyword line: (its name in KEYWORD_READING or as listed, the words)."""
    p = part.strip().rstrip(".").strip()
    low = p.lower()
    if not low:
        return None
    if _LANDWALK.match(low) and low not in ("walk",):
        return "landwalk", p
    if re.fullmatch(r"[a-z]+cycling(?: \{[^}]*\})+|[a-z]+cycling\s*[—–-].*", low):
        return "cycling", p  # typecycling (CR 702.29e)
    for kw in _keyword_names(frozenset(listed)).get(low[:3], ()):
        if low == kw:
            return kw, p
        if low.startswith(kw):
            rest = low[len(kw):]
            if rest[:1] in ("—", "-", "–") or re.match(r"^\s*(?:\{|\d|x\b|n\b|—|-)", rest):
                return kw, p
            if kw in _WORDY_KEYWORDS and rest.startswith(" "):
                return kw, p
    return None


def _keyword_line(paragraph: str, listed: set[str]) -> list[tuple[str, str]] | None:
    """A paragraph made only of keywords ("Flying, vigilance"; "Protection from black";
    "Equip {2}"): each keyword and its words, or None."""
    body = paragraph.strip()
    if re.search(r"[.]\s+\S", body.rstrip(".")):
        return None
    parts = [x for x in re.split(r",\s*|;\s*", body.rstrip(".")) if x.strip()]
    # "Protection from black and from red" / "from white, from blue" keep together
    merged: list[str] = []
    for x in parts:
        if merged and x.strip().lower().startswith("from ") and merged[-1].lower().startswith("protection"):
            merged[-1] += ", " + x
        else:
            merged.append(x)
    out: list[tuple[str, str]] = []
    for x in merged:
        kw = _keyword_part(x, listed)
        if kw is None and out and re.search(r"[—–]", out[-1][1]):
            out[-1] = (out[-1][0], f"{out[-1][1]}, {x.strip()}")  # "Flashback—{1}{B}, Pay 3 life"
            continue
        if kw is None:
            return None
        out.append(kw)
    return out or None


# ---- targets


def _targets(body: str) -> tuple[str | None, list[str]]:
    """The model's target kind of an ability's text, and what of its targets the model cannot state."""
    low = body.lower()
    found = [m.group(0).strip() for m in _TARGET_PHRASE.finditer(low)]
    found = [f for f in found if f]
    if not found:
        return None, []
    kind: str | None = None
    unmod: list[str] = []
    for i, phrase in enumerate(found):
        mp = re.match(r"(target (?:player|opponent))(?:'s)? (?:controls?|owns?|graveyard|hand|library)\b", phrase)
        if mp:  # "all lands target player controls": the target is the player
            phrase = mp.group(1)
        exact = dict(_TARGET_KINDS).get(phrase)
        words = _original(body, phrase)
        if i > 0:
            unmod.append(f"target: {words} (a further target)")
            continue
        if phrase.startswith("up to"):
            unmod.append(f"target: {words}")  # may have no target: read as untargeted
            continue
        if exact is not None:
            kind = exact
            continue
        kind = _target_superset(phrase)
        unmod.append(f"target: {words}")
    return kind, unmod


def _original(text: str, lowered_part: str) -> str:
    i = text.lower().find(lowered_part)
    return text[i:i + len(lowered_part)] if i >= 0 else lowered_part


# ---- what an ability does: clause by clause

_N = r"(a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+)"
_TGT = r"(any target|target [a-z ,\-]+?)"
_CLAUSES: list[tuple[re.Pattern[str], str]] = [(re.compile("^" + p + "$"), a) for p, a in [
    (r"~ deals " + _N + r" damage to " + _TGT, "damage"),
    (r"destroy all creatures", "destroy_all_creatures"),
    (r"destroy " + _TGT, "destroy"),
    (r"exile " + _TGT, "exile"),
    (r"counter " + _TGT, "counter"),
    (r"its controller gains life equal to its power", "controller_gains_power"),
    (r"creatures you control get \+(\d+)/\+(\d+) until end of turn", "pump_team"),
    (r"target creature gets \+(\d+)/\+(\d+) until end of turn", "pump"),
    (r"~ gets \+(\d+)/\+(\d+) until end of turn", "pump_self"),
    (r"tap " + _TGT, "tap_target"),
    (r"untap " + _TGT, "untap_target"),
    (r"each player draws " + _N + r" cards?", "each_player_draws"),
    (r"target player draws " + _N + r" cards?", "target_draws"),
    (r"(?:you )?draws? " + _N + r" cards?", "draw"),
    (r"(?:target player|target opponent|that player) loses " + _N + r" life", "target_loses_life"),
    (r"you lose " + _N + r" life", "lose_life"),
    (r"you gain " + _N + r" life", "gain_life"),
    (r"sacrifice ~", "sacrifice_self"),
    (r"each player discards a card", "each_player_discards"),
    (r"target (?:player|opponent) reveals (?:their|his or her) hand", "part"),
    (r"you choose a noncreature, nonland card from it", "target_discards_nonland_noncreature"),
    (r"that player discards that card", "part"),
    (r"target player sacrifices a creature", "target_sacrifices_creature"),
    (r"add (?:\{[^}]+\})+(?:(?:,| or) (?:\{[^}]+\})+)*", "add_mana"),
    (r"add (?:one|two|three|x|that much) mana(?: of any (?:one )?colou?r| of any type| in any combination of "
     r"colou?rs| in any combination of (?:\{[^}]+\}(?:,? (?:and|or) )?)+)?", "add_mana"),
]]


def _clause(c: str) -> str | None:
    """The action of one clause (lower case, the card as ~), or None if it is not one the model knows."""
    c = c.strip().rstrip(".").strip()
    for pattern, action in _CLAUSES:
        m = pattern.match(c)
        if not m:
            continue
        if action in ("pump", "pump_team", "pump_self"):
            if m.group(1) != m.group(2):
                return None  # only +N/+N is modelled
            return f"{action}({m.group(1)})"
        if action in ("damage", "each_player_draws", "target_draws", "draw", "target_loses_life", "lose_life",
                      "gain_life"):
            n = _num(m.group(1))
            if n is None:
                return None
            return f"{action}({n})"
        if action in ("destroy", "exile", "counter", "tap_target", "untap_target"):
            return action
        return action
    return None


def _split_clauses(s: str) -> list[str]:
    return [x for x in re.split(r",? then |, and |\band (?=(?:you|~|target|each|its|draw|exile|destroy|"
                                r"counter|sacrifice|add)\b)", s) if x.strip(" ,.")]


def _aspect(sentence: str, where: str) -> str:
    """What kind of text an unread sentence is (the aspect of the unmodelled part)."""
    low = sentence.lower()
    if re.search(r"\bactivate (?:only|this ability only|no more)\b", low):
        return "timing"
    if re.search(r"\bcast (?:this spell|~) only\b|\bcast this spell only\b", low) or (
            "only" in low and re.search(r"\bcast\b", low) and "this spell" in low):
        return "timing"
    if re.search(r"\bas an additional cost\b|\bcosts? \{?\w+\}? (?:more|less)\b|\brather than pay\b", low):
        return "cost"
    if re.search(r"\b(?:at the beginning of the next|when(?:ever)? .* this turn,|at end of combat|"
                 r"at the beginning of (?:your|the) next)\b", low):
        return "delayed trigger"
    if re.search(r"\bcan't\b|\bcannot\b|\bdoesn't untap\b|\bcan't be countered\b", low):
        return "restriction"
    if re.search(r"\bas though\b|\byou may (?:cast|play|activate)\b|\bmay be cast\b", low):
        return "permission"
    if re.search(r"\benters? (?:the battlefield )?(?:tapped|with)\b|\bas ~ enters\b|\binstead\b|\bwould\b", low):
        return "replacement"
    if where == "static":
        return "static"
    return "resolution"


def _read_body(body: str, name: str, trigger: bool = False) -> tuple[list[str], str | None, list[str], dict[str, Any]]:
    """What an ability's text does: (actions, target kind, unmodelled parts, extra attributes)."""
    actions: list[str] = []
    unmod: list[str] = []
    extra: dict[str, Any] = {"read": []}
    target, target_unmod = _targets(body)
    for s in _sentences(body):
        low = _tilde(s, name).strip().rstrip(".")
        if re.fullmatch(r"activate (?:this ability )?only once each turn", low):
            extra["once_per_turn"] = True
            extra["read"].append(s)
            continue
        if re.fullmatch(r"(?:equip|activate) (?:this ability )?only as a sorcery|activate this ability only any "
                        r"time you could cast a sorcery", low):
            extra["timing"] = "sorcery"
            extra["read"].append(s)
            continue
        if low.startswith("you may ") and trigger:
            low = low[len("you may "):]  # an optional triggered ability (CR 603.5)
            extra["optional"] = True
        clauses = _split_clauses(low)
        got = [_clause(c) for c in clauses]
        if clauses and all(g is not None for g in got):
            actions += [g for g in got if g is not None and g != "part"]
            extra["read"].append(s)
            continue
        unmod.append(f"{_aspect(low, 'ability')}: {s.strip()}")
    return actions, target, target_unmod + unmod, extra


# ---- trigger conditions

_TRIGGER_RULES: list[tuple[str, str]] = [
    (r"whenever another creature enters(?: the battlefield)?", "enters_another_creature"),
    (r"whenever a creature enters(?: the battlefield)?", "enters_creature"),
    (r"whenever a land (?:you control enters|enters(?: the battlefield)? under your control)", "land_enters_own"),
    (r"whenever ~ or another creature dies", "creature_dies"),
    (r"whenever a creature dies", "creature_dies"),
    (r"whenever another creature dies", "another_creature_dies"),
    (r"when(?:ever)? ~ (?:dies|is put into a graveyard from the battlefield)", "dies_self"),
    (r"when(?:ever)? ~ is turned face up", "turned_face_up_self"),
    (r"when(?:ever)? ~ enters(?: the battlefield)?", "enters_self"),
    (r"whenever ~ attacks", "attacks_self"),
    (r"whenever ~ deals combat damage to a player", "combat_damage_player_self"),
    (r"at the beginning of your upkeep", "upkeep_own"),
    (r"at the beginning of (?:each|the) upkeep", "upkeep_each"),
    (r"at the beginning of each player's upkeep", "upkeep_each"),
    (r"at the beginning of your draw step", "draw_step_own"),
    (r"at the beginning of combat on your turn", "combat_own"),
    (r"at the beginning of your end step", "end_step_own"),
    (r"at the beginning of (?:each|the) end step", "end_step_each"),
    (r"whenever you cast a spell", "cast_own"),
    (r"whenever a player casts a spell", "cast_any"),
    (r"whenever an opponent casts a spell", "cast_opponent"),
    (r"when(?:ever)? ~ leaves the battlefield", "leaves_self"),
    (r"when you cast (?:~|this spell)", "cast_self"),
    (r"whenever a creature you control attacks", "attacks_own"),
    (r"at the beginning of each opponent's upkeep", "upkeep_opponent"),
    (r"at the beginning of (?:each player's|each) draw step", "draw_step_each"),
    (r"at the beginning of your (?:precombat|first) main phase", "main1_own"),
    (r"at the beginning of your postcombat main phase", "main2_own"),
    (r"at the beginning of each combat", "combat_each"),
    (r"at the beginning of each opponent's end step", "end_step_opponent"),
    (r"whenever you discard a card", "discard_own"),
    (r"whenever a player discards a card", "discard_any"),
]


# Intervening "if" clauses the model reads (CR 603.4): a count of objects of a kind in a
# zone, compared with a number: "type,zone,whose,op,n" (type creature|card, zone
# battlefield|graveyard|hand, whose any|own, op ge|le).  Checked when the ability
# triggers and again as it resolves (encodings/mtg/triggers.lp).
_IF_COUNTS: list[tuple[str, str]] = [
    (r"if (?:there are )?no creatures are on the battlefield|if there are no creatures on the battlefield",
     "creature,battlefield,any,le,0"),
    (r"if you control no creatures", "creature,battlefield,own,le,0"),
    (r"if you have no cards in hand", "card,hand,own,le,0"),
    (r"if you control (\w+) or more creatures", "creature,battlefield,own,ge,{n}"),
    (r"if you have (\w+) or more cards in hand", "card,hand,own,ge,{n}"),
    (r"if you have (\w+) or fewer cards in hand", "card,hand,own,le,{n}"),
    (r"if (\w+) or more cards are in your graveyard", "card,graveyard,own,ge,{n}"),
    (r"if (\w+) or more creature cards are in your graveyard", "creature,graveyard,own,ge,{n}"),
]
IF_TYPES, IF_ZONES, IF_WHOSE, IF_OPS = ("creature", "card"), ("battlefield", "graveyard", "hand"), \
    ("any", "own"), ("ge", "le")


def _intervening_if(clause: str) -> str | None:
    c = clause.strip().rstrip(",").lower()
    for pattern, spec in _IF_COUNTS:
        m = re.fullmatch(pattern, c)
        if m:
            if "{n}" in spec:
                n = _num(m.group(1))
                if n is None:
                    return None
                return spec.format(n=n)
            return spec
    return None


_CAST_WHO = {"you cast": "cast_own", "a player casts": "cast_any", "an opponent casts": "cast_opponent"}
_CAST_FILTER = re.compile(r"whenever (you cast|a player casts|an opponent casts) an? (creature|noncreature|"
                          r"instant or sorcery|(?:non)?(?:white|blue|black|red|green)) spell")
# an attached permanent's creature: which one it is is not modelled (attaching is not),
# so the trigger is read as the wider event and the narrowing kept as an unmodelled part
_ATTACHED_ATTACKS = re.compile(r"whenever (?:equipped|enchanted) creature attacks")


def _trigger(cond: str, name: str) -> tuple[str, str | None] | None:
    """The trigger event of a condition ("When ~ enters"), with what narrows it if it is
    read as a wider event; None if the engine knows no such event."""
    c = _tilde(cond, name).strip().rstrip(",").strip()
    for pattern, trig in _TRIGGER_RULES:
        if re.fullmatch(pattern, c):
            return trig, None
    m = _CAST_FILTER.fullmatch(c)
    if m:
        return f"{_CAST_WHO[m.group(1)]}+spell_{m.group(2).replace(' ', '_')}", None
    if _ATTACHED_ATTACKS.fullmatch(c):
        return "attacks_own", (f"narrower trigger: {cond.strip()} (read as: whenever a creature you control "
                               "attacks; which creature it is attached to is not modelled)")
    return None


# ---- the reader

_COST_SPLIT = re.compile(r"^((?:[^:\"]|\{[^}]*\})+?):\s*(.+)$")
_LOYALTY = re.compile(r"^\[?([+−–-]?)(\d+|X)\]?\s*:\s*(.+)$")
_ABILITY_WORD = re.compile(r"^([A-Z][A-Za-z' ]{2,30}?|Chapter [IVX]+) [—–] (?=\S)")
_CHAPTER = re.compile(r"^[IVX]+(?:, [IVX]+)* [—–] ")


def _costs(cost_text: str, name: str, read: list[str] | None = None) -> tuple[list[str], list[str], bool]:
    """(the model's costs, unmodelled cost parts, whether it is activated from another zone);
    the parts read into the model are added to ``read``."""
    read = read if read is not None else []
    costs: list[str] = []
    unmod: list[str] = []
    other_zone = False
    parts: list[str] = []
    for part in re.split(r",\s*(?![^{]*\})", cost_text):
        # "Sacrifice an artifact, creature, or land" is one cost
        if parts and not re.match(r"^\s*(?:\{|[+−-]?\d|sacrifice|discard|pay|tap|untap|remove|exile|return|put|"
                                  r"reveal|mill|collect|forage|behold|blight|waterbend)", part, re.IGNORECASE):
            parts[-1] += ", " + part
        else:
            parts.append(part)
    for part in parts:
        p = part.strip()
        low = _tilde(p, name)
        if not p:
            continue
        if re.fullmatch(r"(?:\{[^}]+\})+", p):
            for sym in re.findall(r"\{([^}]+)\}", p):
                s = sym.upper()
                if s == "T":
                    costs.append("tap")
                elif s == "Q":
                    unmod.append(f"cost: {{{sym}}}")
                elif s == "E":
                    unmod.append(f"cost: {{{sym}}}")
                # mana symbols: the mana pool is not modelled, every mana cost is payable (encodings/mtg/README.md)
            read.append(p)
            continue
        if re.fullmatch(r"sacrifice ~", low):
            costs.append("sacrifice_self")
            read.append(p)
        elif re.fullmatch(r"discard (?:a|one) card", low):
            costs.append("discard_card")
            read.append(p)
        elif re.fullmatch(r"pay \d+ life", low):
            costs.append("pay_life")
            read.append(p)
        else:
            if re.search(r"\b(?:discard|exile|reveal) ~(?: from your (?:hand|graveyard))?$", low):
                other_zone = True
            unmod.append(f"cost: {p}")
    return costs, unmod, other_zone


def derive(name: str, type_line: str, text: str, where: str,
           listed_keywords: list[str] | None = None) -> dict[str, Any]:
    """Timing attributes from Oracle text: keywords, the spell, activated, mana,
    loyalty and triggered abilities (see the module docstring); everything
    else it says is kept as unmodelled parts (of an ability or of the card)."""
    _, types, _ = parse_type_line(type_line, where)
    listed = {k.lower() for k in listed_keywords or ()}
    keywords: list[str] = []
    protection: list[str] = []
    effects: list[dict[str, Any]] = []
    card_unmod: list[str] = []
    read: list[str] = []  # the card's words read into the model (or read as having no timing effect)
    keywords_read: list[str] = []  # of them, the keyword abilities
    spell_lines: list[str] = []
    is_spell = "instant" in types or "sorcery" in types
    spell_eff: dict[str, Any] = {"kind": "card", "summary": "cast it", "unmodelled": []}
    last: dict[str, Any] | None = None

    def spell_part(words: str) -> None:
        spell_eff["unmodelled"].append(words)

    def read_keywords(kws: list[tuple[str, str]]) -> None:
        for kw, words in kws:
            reading = KEYWORD_READING.get(kw, ("unmodelled", ""))[0]
            low = words.lower()
            if kw == "protection":
                cols = re.findall(r"\bfrom (white|blue|black|red|green)\b", low)
                rest = re.sub(r"\b(?:and )?from (?:white|blue|black|red|green)\b|,|\bprotection\b", "", low)
                protection.extend(cols)
                if rest.strip() or not cols:
                    card_unmod.append(f"keyword: {words}")
                else:
                    read.append(words)
                    keywords_read.append(words)
                continue
            if kw == "morph":
                keywords.append("morph")  # turning it face up is modelled, casting it face down is not
                card_unmod.append(f"keyword: {words} (casting it face down, CR 702.37c)")
                continue
            if kw in ("megamorph", "disguise"):
                keywords.append("morph")  # turning it face up is modelled; what it adds is not
                card_unmod.append(f"keyword: {words}")
                continue
            if kw == "equip":
                cost_text = words[len("equip"):].strip(" —-–")
                costs, cost_unmod, _ = _costs(cost_text, name, read)
                read.append(words)
                eff = {"kind": "activated", "cost": costs, "timing": "sorcery", "target": "creature",
                       "actions": ["no_action"], "summary": f"equip ({cost_text})",
                       "unmodelled": cost_unmod + ["target: target creature you control",
                                                   "resolution: attach to target creature you control"]}
                effects.append(eff)
                continue
            if reading == "modelled":
                keywords.append(kw.replace(" ", "_"))
            if reading in ("modelled", "none"):
                read.append(words)
                keywords_read.append(words)
            else:
                card_unmod.append(f"keyword: {words}")

    for raw in text.replace("\r", "").split("\n"):
        paragraph = re.sub(r"\s*\([^)]*\)", "", raw).strip()  # reminder text says nothing new (CR 207.2a)
        if not paragraph:
            continue
        if paragraph.startswith("•"):  # a mode of the ability before it (CR 700.2)
            target = last if last is not None else spell_eff
            target.setdefault("unmodelled", []).append(f"mode: {paragraph.lstrip('• ').strip()}")
            continue
        if _CHAPTER.match(paragraph):
            card_unmod.append(f"chapter ability: {paragraph}")
            last = None
            continue
        aw = _ABILITY_WORD.match(paragraph)
        if aw and not _LOYALTY.match(paragraph):  # an ability word has no rules meaning (CR 207.2c)
            read.append(aw.group(0))
            paragraph = paragraph[aw.end():]
        ml = _LOYALTY.match(paragraph)
        if "planeswalker" in types and ml:
            sign = -1 if ml.group(1) in ("−", "–", "-") else 1
            amount = 0 if ml.group(2) == "X" else int(ml.group(2))
            actions, tgt, unmod, extra = _read_body(ml.group(3), name)
            read += [paragraph[:paragraph.index(":") + 1]] + extra["read"]
            if ml.group(2) == "X":
                unmod.insert(0, f"cost: loyalty {ml.group(1)}X")
            eff: dict[str, Any] = {"kind": "loyalty", "loyalty": sign * amount, "actions": actions or ["no_action"],
                                   "summary": f"loyalty {'+' if sign > 0 else '-'}{ml.group(2)}", "unmodelled": unmod}
            if tgt:
                eff["target"] = tgt
            effects.append(eff)
            last = eff
            continue
        if re.match(r"^(when|whenever|at)\b", paragraph, re.IGNORECASE) and "," in paragraph:
            cut = _masked(paragraph, name).find(",")
            cond, body = paragraph[:cut], paragraph[cut + 1:].strip()
            unmod = []
            mif = re.match(r"^(if [^,]+),\s*(.*)$", body, re.IGNORECASE | re.DOTALL)
            if_count = None
            if mif:  # an intervening "if" clause (CR 603.4)
                if_count = _intervening_if(mif.group(1))
                if if_count is None:
                    unmod.append(f"condition: {mif.group(1)}")
                else:
                    read.append(mif.group(1))
                body = mif.group(2)
            got = _trigger(cond, name)
            trig = got[0] if got else None
            if got is None:
                unmod.insert(0, f"trigger event: {cond.strip()}")
            elif got[1]:
                unmod.insert(0, got[1])
            else:
                read.append(cond)
            actions, tgt, body_unmod, extra = _read_body(body, name, trigger=True)
            read += extra.pop("read")
            eff = {"kind": "triggered", "actions": actions or ["no_action"], "summary": cond.strip(),
                   "unmodelled": unmod + body_unmod}
            if extra.get("optional"):
                eff["mandatory"] = False
            if trig is not None:
                eff["trigger"] = trig
            if if_count is not None:
                eff["intervening_if"] = if_count
            if tgt:
                eff["target"] = tgt
            effects.append(eff)
            last = eff
            continue
        kws = _keyword_line(paragraph, listed)
        if kws is not None:
            read_keywords(kws)
            last = None
            continue
        mc = _COST_SPLIT.match(paragraph)
        if mc and not re.match(r"^(choose|as long as|if |each|you may|target|until|this|spells?|creatures?|"
                                r"players?|whenever|when|at)\b", paragraph, re.IGNORECASE) \
                and re.search(r"\{|sacrifice|discard|pay|tap|remove|exile|return|put", mc.group(1), re.IGNORECASE):
            cost_text, body = mc.group(1), mc.group(2)
            costs, cost_unmod, other_zone = _costs(cost_text, name, read)
            actions, tgt, unmod, extra = _read_body(body, name)
            read += extra.pop("read")
            if other_zone or re.search(r"\breturn ~ from your graveyard\b", _tilde(body, name)):
                cost_unmod.insert(0, f"activation zone: {paragraph}")
            is_mana = bool(actions) and set(actions) == {"add_mana"} and not tgt
            eff = {"kind": "mana" if is_mana else "activated", "cost": costs, "actions": actions or ["no_action"],
                   "summary": f"activated ({cost_text.strip()})", "unmodelled": cost_unmod + unmod, **extra}
            if is_mana:
                eff.pop("timing", None)  # a mana ability is activated whenever it could be (CR 605.3a)
                if extra.get("timing"):
                    eff["unmodelled"].append("timing: activate only as a sorcery")
            if tgt:
                eff["target"] = tgt
            effects.append(eff)
            last = eff
            continue
        last = None
        for s in _sentences(paragraph):
            kws = _keyword_line(s, listed)
            if kws is not None:  # "Split second. ~ deals 2 damage ..."
                read_keywords(kws)
                last = None
                continue
            if is_spell:
                spell_lines.append(s)
                continue
            low = _tilde(s, name)
            if re.search(r"\bthis spell\b|\bcast ~\b|\bcast this\b", low):
                spell_part(f"{_aspect(low, 'spell')}: {s}")
            else:
                card_unmod.append(f"{_aspect(low, 'static')}: {s}")
    if is_spell:
        body = " ".join(spell_lines)
        actions, tgt, unmod, extra = _read_body(body, name)
        read += extra["read"]
        spell_eff["actions"] = actions or ["no_action"]
        spell_eff["unmodelled"] = unmod + spell_eff["unmodelled"]
        if tgt:
            spell_eff["target"] = tgt
        effects.insert(0, spell_eff)
    elif "land" not in types:
        effects.insert(0, spell_eff)
    elif spell_eff["unmodelled"]:
        card_unmod += spell_eff["unmodelled"]
    for e in effects:
        if not e.get("unmodelled"):
            e.pop("unmodelled", None)
    return {"keywords": tuple(dict.fromkeys(keywords)), "protection": tuple(dict.fromkeys(protection)),
            "effects": effects, "unmodelled": card_unmod, "keywords_read": keywords_read, "read": read}
