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
from typing import Any

from logic.cards import Card, Effect, approximations
from logic.errors import InputError, NotModelled

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
}

COSTS = ("tap", "sacrifice_self", "discard_card", "pay_life")

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
    _check_keys(d, {"kind", "timing", "cost", "loyalty", "target", "actions", "trigger", "once_per_turn",
                    "summary", "source", "index", "mandatory", "approximate"}, where)
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
    triggers: tuple[str, ...] = ()
    if kind == "triggered":
        trig = str(_need(d, "trigger", where))
        if trig not in TRIGGERS:
            raise InputError(f"trigger must be one of {', '.join(TRIGGERS)}, not {trig!r}", where)
        triggers = (trig,)
    elif "trigger" in d:
        raise InputError("only triggered abilities have a 'trigger'", where)
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
        once_per_turn=bool(d.get("once_per_turn", False)),
        summary=str(d.get("summary", "")),
        source=str(d.get("source", "")),
        unmodelled=approximations(d, where),
    )


CARD_FIELDS = {"name", "type_line", "mana_cost", "colors", "power", "toughness", "loyalty", "keywords",
               "protection", "effects", "summary", "aliases", "text", "notes", "oracle_checked", "morph"}


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
    for field_name in ("power", "toughness", "loyalty"):
        v = d.get(field_name)
        if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
            raise InputError(f"field '{field_name}' must be a whole number", where)
    if "creature" in types and (d.get("power") is None or d.get("toughness") is None):
        raise InputError("a creature needs power and toughness", where)
    if "planeswalker" in types and d.get("loyalty") is None:
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
        "power": d.get("power"),
        "toughness": d.get("toughness"),
        "loyalty": d.get("loyalty"),
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
    )


def _reindex(e: Effect, index: int) -> Effect:
    from dataclasses import replace

    return replace(e, index=index)


# ---------------------------------------------------------------- the Oracle-text reader

_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10}
_KEYWORD_WORDS = {
    "flash": "flash", "split second": "split_second", "haste": "haste", "flying": "flying", "reach": "reach",
    "first strike": "first_strike", "double strike": "double_strike", "trample": "trample",
    "vigilance": "vigilance", "lifelink": "lifelink", "defender": "defender", "deathtouch": "deathtouch",
    "indestructible": "indestructible", "hexproof": "hexproof", "shroud": "shroud",
}


def _num(word: str) -> int:
    word = word.lower()
    if word.isdigit():
        return int(word)
    return _NUMBERS.get(word, 1)


def _self_names(name: str) -> list[str]:
    names = [re.escape(name), r"this (?:creature|permanent|artifact|enchantment|land|card|spell|planeswalker)", "~"]
    short = name.split(",")[0].strip()
    if short != name:
        names.append(re.escape(short))
    return names


def _sentences(paragraph: str) -> list[str]:
    # split "Split second. Sudden Shock deals 2 damage ..." into sentences, but
    # keep costs with colons and reminder text out
    paragraph = re.sub(r"\([^)]*\)", "", paragraph).strip()
    parts = re.split(r"(?<=\.)\s+(?=[A-Z])", paragraph)
    return [p.strip() for p in parts if p.strip()]


def _keyword_sentence(s: str) -> tuple[list[str], list[str], bool] | None:
    """A sentence made only of keywords ("Flying, vigilance"; "Protection from
    black"; "Morph {2}{W}{W}"): (keywords, protection colours, morph)."""
    body = s.rstrip(".").strip()
    words: list[str] = []
    prot: list[str] = []
    morph = False
    for part in re.split(r",\s*|;\s*", body):
        p = part.strip().lower()
        if not p:
            continue
        if p in _KEYWORD_WORDS:
            words.append(_KEYWORD_WORDS[p])
            continue
        m = re.fullmatch(r"protection from (white|blue|black|red|green)", p)
        if m:
            prot.append(m.group(1))
            continue
        if re.fullmatch(r"(morph|megamorph|disguise)\s*(\{[^}]*\})*(\s*[-—].*)?", p):
            morph = True
            continue
        return None
    return words, prot, morph


def _target(text: str) -> str | None:
    t = text.lower()
    table = [
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
        ("target nonland permanent", "permanent"),
        ("target permanent", "permanent"),
        ("target artifact", "permanent"),
        ("target enchantment", "permanent"),
    ]
    if "up to one target" in t:
        return None  # "up to one": may have no target; treated as untargeted
    for phrase, kind in table:
        if phrase in t:
            return kind
    return None


def _actions(text: str, selfnames: list[str]) -> list[str]:
    t = text.lower()
    out: list[str] = []
    self_re = "(?:" + "|".join(n.lower() for n in selfnames) + ")"
    m = re.search(r"deals? (\w+) damage", t)
    if m:
        out.append(f"damage({_num(m.group(1))})")
    if re.search(r"destroy all creatures", t):
        out.append("destroy_all_creatures")
    elif re.search(r"\bdestroy target\b", t):
        out.append("destroy")
    if re.search(r"\bexile target\b", t):
        out.append("exile")
    if re.search(r"its controller gains life equal to its power", t):
        out.append("controller_gains_power")
    if re.search(r"\bcounter target\b", t):
        out.append("counter")
    m = re.search(r"creatures you control get \+(\d+)/\+\d+", t)
    if m:
        out.append(f"pump_team({m.group(1)})")
    else:
        m = re.search(r"gets? \+(\d+)/\+\d+", t)
        if m:
            out.append(f"pump({m.group(1)})")
    m = re.search(r"each player draws (\w+) cards?", t)
    if m:
        out.append(f"each_player_draws({_num(m.group(1))})")
    else:
        m = re.search(r"target player draws (\w+) cards?", t)
        if m:
            out.append(f"target_draws({_num(m.group(1))})")
        else:
            m = re.search(r"\bdraws? (\w+) cards?", t)
            if m:
                out.append(f"draw({_num(m.group(1))})")
    m = re.search(r"(?:target player|target opponent|that player) loses (\w+) life", t)
    if m:
        out.append(f"target_loses_life({_num(m.group(1))})")
    m = re.search(r"\byou lose (\w+) life", t)
    if m:
        out.append(f"lose_life({_num(m.group(1))})")
    m = re.search(r"\byou gain (\w+) life", t)
    if m:
        out.append(f"gain_life({_num(m.group(1))})")
    if re.search(r"\bsacrifice " + self_re, t) and not t.startswith("sacrifice"):
        out.append("sacrifice_self")
    if re.search(r"each player discards", t):
        out.append("each_player_discards")
    if re.search(r"noncreature, nonland card", t) and "discard" in t:
        out.append("target_discards_nonland_noncreature")
    if re.search(r"target player sacrifices a creature", t):
        out.append("target_sacrifices_creature")
    if re.match(r"\s*add\b", t) or re.search(r"\badd \{", t):
        out.append("add_mana")
    return out or ["no_action"]


def _trigger(cond: str, selfnames: list[str], where: str) -> str:
    c = cond.lower().strip().rstrip(",")
    self_re = "(?:" + "|".join(n.lower() for n in selfnames) + ")"
    rules = [
        (r"^whenever another creature enters", "enters_another_creature"),
        (r"^whenever a creature enters", "enters_creature"),
        (r"^whenever a land (?:you control enters|enters (?:the battlefield )?under your control)", "land_enters_own"),
        (r"^whenever " + self_re + r" or another creature dies", "creature_dies"),
        (r"^whenever a creature dies", "creature_dies"),
        (r"^whenever another creature dies", "another_creature_dies"),
        (r"^when(?:ever)? " + self_re + r" dies", "dies_self"),
        (r"^when(?:ever)? " + self_re + r" is turned face up", "turned_face_up_self"),
        (r"^when(?:ever)? " + self_re + r" enters", "enters_self"),
        (r"^whenever " + self_re + r" attacks", "attacks_self"),
        (r"^whenever " + self_re + r" deals combat damage to a player", "combat_damage_player_self"),
        (r"^at the beginning of your upkeep", "upkeep_own"),
        (r"^at the beginning of (?:each|the) upkeep", "upkeep_each"),
        (r"^at the beginning of your draw step", "draw_step_own"),
        (r"^at the beginning of combat on your turn", "combat_own"),
        (r"^at the beginning of your end step", "end_step_own"),
        (r"^at the beginning of (?:each|the) end step", "end_step_each"),
        (r"^whenever you cast a", "cast_own"),
        (r"^whenever a player casts a", "cast_any"),
        (r"^whenever an opponent casts a", "cast_opponent"),
        (r"^whenever you discard a card", "discard_own"),
        (r"^whenever a player discards a card", "discard_any"),
    ]
    for pattern, trig in rules:
        if re.search(pattern, c):
            return trig
    raise NotModelled(f"{where}: the trigger condition {cond.strip()!r} is not one the timing rules know "
                      f"(known: {', '.join(TRIGGERS.values())})")


_COST_SPLIT = re.compile(r"^((?:[^:\"]|\{[^}]*\})+?):\s*(.+)$")
_LOYALTY = re.compile(r"^\[?([+−–-]?)(\d+|X)\]?\s*:\s*(.+)$")


def derive(name: str, type_line: str, text: str, where: str) -> dict[str, Any]:
    """Timing attributes from Oracle-style text: keywords, the spell, activated,
    mana, loyalty and triggered abilities (see the module docstring)."""
    _, types, _ = parse_type_line(type_line, where)
    selfnames = _self_names(name)
    keywords: list[str] = []
    protection: list[str] = []
    effects: list[dict[str, Any]] = []
    spell_text: list[str] = []
    for raw in text.replace("\r", "").split("\n"):
        paragraph = re.sub(r"\([^)]*\)", "", raw).strip()  # reminder text says nothing new
        if not paragraph:
            continue
        ml = _LOYALTY.match(paragraph)
        if "planeswalker" in types and ml:
            sign = -1 if ml.group(1) in ("−", "–", "-") else 1
            amount = 0 if ml.group(2) == "X" else int(ml.group(2))
            body = ml.group(3)
            eff: dict[str, Any] = {"kind": "loyalty", "loyalty": sign * amount, "actions": _actions(body, selfnames),
                                   "summary": f"loyalty {'+' if sign > 0 else '-'}{amount}"}
            tgt = _target(body)
            if tgt:
                eff["target"] = tgt
            effects.append(eff)
            continue
        if re.match(r"^(when|whenever|at)\b", paragraph, re.IGNORECASE):
            cond, _, body = paragraph.partition(",")
            eff = {"kind": "triggered", "trigger": _trigger(cond, selfnames, where),
                   "actions": _actions(body, selfnames), "summary": cond.strip()}
            tgt = _target(body)
            if tgt:
                eff["target"] = tgt
            effects.append(eff)
            continue
        mc = _COST_SPLIT.match(paragraph)
        if mc and not re.match(r"^(choose|as long as|if )", paragraph, re.IGNORECASE) \
                and (re.search(r"\{|sacrifice|discard|pay|tap|remove", mc.group(1), re.IGNORECASE)):
            cost_text, body = mc.group(1), mc.group(2)
            costs = []
            if "{t}" in cost_text.lower():
                costs.append("tap")
            if re.search(r"sacrifice (?:" + "|".join(n.lower() for n in selfnames) + ")", cost_text.lower()):
                costs.append("sacrifice_self")
            if re.search(r"discard", cost_text, re.IGNORECASE):
                costs.append("discard_card")
            if re.search(r"pay \d+ life", cost_text, re.IGNORECASE):
                costs.append("pay_life")
            tgt = _target(body)
            acts = _actions(body, selfnames)
            is_mana = acts == ["add_mana"] or (re.match(r"\s*add\b", body, re.IGNORECASE) is not None and not tgt)
            eff = {"kind": "mana" if is_mana and not tgt else "activated", "cost": costs, "actions": acts,
                   "summary": f"activated ({cost_text.strip()})"}
            if tgt:
                eff["target"] = tgt
            if re.search(r"activate only as a sorcery", body, re.IGNORECASE):
                eff["timing"] = "sorcery"
            if re.search(r"activate only once each turn", body, re.IGNORECASE):
                eff["once_per_turn"] = True
            effects.append(eff)
            continue
        # keywords and spell text, sentence by sentence
        for s in _sentences(paragraph):
            kw = _keyword_sentence(s)
            if kw is not None:
                keywords += kw[0]
                protection += kw[1]
                if kw[2]:
                    keywords.append("morph")
                continue
            spell_text.append(s)
    if ("instant" in types or "sorcery" in types):
        body = " ".join(spell_text)
        eff = {"kind": "card", "actions": _actions(body, selfnames), "summary": "cast it"}
        tgt = _target(body)
        if tgt:
            eff["target"] = tgt
        effects.insert(0, eff)
    elif "land" not in types:
        effects.insert(0, {"kind": "card", "summary": "cast it"})
    return {"keywords": tuple(dict.fromkeys(keywords)), "protection": tuple(protection), "effects": effects}
