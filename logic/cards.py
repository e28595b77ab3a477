"""Cards and their effects, the bundled libraries, and card lookup.

A card's timing attributes come from (in this order of precedence) an inline
``custom_cards`` definition in a scenario, the bundled hand-checked library
(``logic/library/*.yaml``), or -- later -- attributes derived from the card's
official text.  The bundled library does not copy official card texts: each
Yu-Gi-Oh! entry records the Konami id, the password and the SHA-256 of the
text it was read from, so the text can be shown (and drift detected) whenever
the card data file is available.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import yaml

from logic import vocabulary as V
from logic.errors import InputError, shorten
from logic.text import normalise

# libyaml where it is installed (ten times faster on the bundled libraries), else the pure-Python loader
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# an argument is a number or a lower-case word: it becomes a clingo term (logic/facts.py)
_ARG = re.compile(r"^([a-z][a-z0-9_]*)(?:\(([a-z0-9_]+|[0-9]+)\))?$")
_WORD = re.compile(r"^[a-z][a-z0-9_]*$")


def _word(value: Any, key: str, where: str) -> str | None:
    """A vocabulary word (attribute, race, kind): it becomes a clingo constant, so
    it must be one ('Winged Beast' -> winged_beast)."""
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise InputError(f"field '{key}' must be a word (text), not {type(value).__name__}", where)
    word = value.strip().lower().replace(" ", "_").replace("-", "_")
    if not _WORD.match(word):
        raise InputError(f"field '{key}' must be a word of letters, digits and '_' (e.g. dark, "
                         f"winged_beast), not {shorten(value, 40)}", where)
    return word


@dataclass(frozen=True)
class Effect:
    """One effect of a card, with the attributes the timing rules look at."""

    index: int
    kind: str
    speed: int
    mandatory: bool = False
    zones: tuple[str, ...] = ()
    conditions: tuple[tuple[str, str | None], ...] = ()
    responds_to: tuple[tuple[str, str], ...] = ()
    costs: tuple[tuple[str, str | None], ...] = ()
    target: tuple[tuple[str, str], ...] = ()
    actions: tuple[str, ...] = ()
    triggers: tuple[str, ...] = ()
    timing: str | None = None  # "when" | "if" (triggers)
    duration: str | None = None
    once_per_turn: bool = False
    once_per_turn_group: str | None = None  # shared hard once per turn ("only 1 X effect per turn")
    errata_2014: bool = False  # read "until the End Phase" before 10 July 2014 (the 2014 wording change)
    amount: int | None = None  # for ATK/DEF changes, LP costs shown in summaries
    damage_step: str | None = None  # ruling override: "allowed" / "forbidden"
    damage_step_source: str = ""
    summary: str = ""
    source: str = ""
    # What this effect says that the model does not express, each as
    # "<aspect>: <the card's words>" (aspect: activation, condition, cost,
    # target, trigger event, window, frequency, restriction, resolution,
    # approximation, ...).  Never dropped: an answer that could depend on one
    # of these is refused as not modelled, or checked under both of its
    # readings (docs/not-modelled.md).  The card-text reader writes:
    # trigger event, event, condition, qualifier, responds to, cost, target,
    # window, frequency, kind, activation, effect, restriction (on the
    # activation or on players), resolution (a restriction its resolution
    # leaves behind), continuous / replacement (what a Continuous Effect
    # does), and "unread: <reason>" for what it could not read at all
    # (README "Any card: attributes read from its text").
    unmodelled: tuple[str, ...] = ()

    @property
    def optional(self) -> bool:
        return not self.mandatory

    @property
    def targets(self) -> bool:
        return bool(self.target)


@dataclass(frozen=True)
class Card:
    """A card of either game with its effects."""

    name: str
    game: str
    card_type: str  # ygo: monster spell trap ; mtg: the type line's main type
    effects: tuple[Effect, ...] = ()
    property: str | None = None  # ygo spell/trap property
    attribute: str | None = None
    race: str | None = None
    kinds: tuple[str, ...] = ()  # ygo monster kinds: effect tuner ritual synchro ...
    level: int | None = None
    atk: int | None = None
    defense: int | None = None
    no_normal_summon: bool = False
    aliases: tuple[str, ...] = ()
    konami_id: int | None = None
    password: int | None = None
    text_sha256: str | None = None
    text: str | None = None  # only for cards defined inline by the user
    origin: str = "library"  # library | custom | derived
    notes: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)  # game-specific extras (mtg)
    # Text of the card that belongs to none of its effects (a static rule,
    # a restriction, a sentence the reader could not place), as
    # "<aspect>: <the card's words>"; like Effect.unmodelled, never dropped.
    # The reader writes: material, summoning condition, summoning procedure,
    # note, frequency, restriction, text, and "effect N: ..." for an effect
    # it could not read (no Effect entry exists for it).
    unmodelled: tuple[str, ...] = ()

    def unmodelled_parts(self) -> list[tuple[int | None, str]]:
        """Every unmodelled part of the card: (effect index or None, text)."""
        out: list[tuple[int | None, str]] = [(None, u) for u in self.unmodelled]
        for e in self.effects:
            out += [(e.index, u) for u in e.unmodelled]
        return out


def _need(d: Mapping[str, Any], key: str, where: str, kind: type | tuple[type, ...]) -> Any:
    if key not in d:
        raise InputError(f"missing field '{key}'", where)
    value = d[key]
    if not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise InputError(f"field '{key}' must be a {names}, not {type(value).__name__}", where)
    return value


def _opt(d: Mapping[str, Any], key: str, where: str, kind: type | tuple[type, ...], default: Any = None) -> Any:
    if key not in d or d[key] is None:
        return default
    return _need(d, key, where, kind)


def _term(text: str, where: str) -> tuple[str, str | None]:
    m = _ARG.match(str(text).strip())
    if not m:
        raise InputError(f"{text!r} is not of the form name or name(argument)", where)
    return m.group(1), m.group(2)


def _listify(value: Any) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, list):
        return value
    return [value]


# Costs: the argument each takes (None: none; "number": a whole number; a tuple: one of
# these values; "race": a monster Type), and its default.
_COST_ARGS: dict[str, tuple[Any, str | None]] = {
    "discard_self": (None, None),
    "tribute_self": (None, None),
    "banish_self": (None, None),
    "send_self_to_gy": (None, None),
    "pay_half_lp": (None, None),
    "pay_lp": ("number", None),
    "discard": ("race", None),
    "detach": ("number", "1"),
    "tribute": (("monster", "synchro"), "monster"),
    "banish_from_graveyard": (("monster", "card"), "card"),
    "send_from_hand": ("kind", "card"),
    "remove_counter": (("spell",), "spell"),
}


def _cost_arg(name: str, arg: str | None, where: str) -> str | None:
    spec, default = _COST_ARGS.get(name, (None, None))
    if arg is None:
        if spec == "number" and default is None:
            raise InputError(f"cost {name} needs a number: {name}(N)", where)
        return default
    if spec is None:
        raise InputError(f"cost {name} takes no argument", where)
    if spec == "number":
        if not arg.isdigit():
            raise InputError(f"cost {name}({arg}): the argument must be a whole number", where)
        return arg
    if isinstance(spec, tuple):
        if arg not in spec:
            raise InputError(f"cost {name}({arg}): the argument must be one of {', '.join(spec)}", where)
        return arg
    return arg.lower()  # a monster Type (race), or monster / card


def parse_ygo_effect(d: Mapping[str, Any], index: int, card_type: str, prop: str | None, where: str) -> Effect:
    """Validate one effect entry of the Yu-Gi-Oh! library schema."""
    if not isinstance(d, Mapping):
        raise InputError("an effect must be a mapping", where)
    known = {
        "kind", "speed", "mandatory", "optional", "from", "conditions", "responds_to", "cost", "target",
        "actions", "trigger", "timing", "duration", "once_per_turn", "errata_2014", "damage_step",
        "damage_step_source", "summary", "source", "index", "amount", "once_per_turn_group", "unmodelled",
        "approximate",
    }
    for key in d:
        if key not in known:
            close = difflib.get_close_matches(str(key), sorted(known), n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise InputError(f"unknown field '{key}'{hint}", where)
    kind = _need(d, "kind", where, str)
    if kind not in V.YGO_KINDS:
        raise InputError(f"kind must be one of {', '.join(V.YGO_KINDS)}, not {kind!r}", where)
    default_speed = 1
    if kind == "quick":
        default_speed = 2
    if kind == "card":
        if card_type == "trap":
            default_speed = 3 if prop == "counter" else 2
        elif prop == "quickplay":
            default_speed = 2
    speed = _opt(d, "speed", where, int, default_speed)
    if isinstance(speed, bool) or (speed not in (1, 2, 3) and kind != "continuous"):
        raise InputError("speed must be 1, 2 or 3", where)
    mandatory = bool(_opt(d, "mandatory", where, bool, False))
    if "optional" in d:
        mandatory = not bool(_need(d, "optional", where, bool))
    default_zones: tuple[str, ...]
    if kind == "card":
        default_zones = ("hand", "set") if card_type == "spell" else ("set",)
    else:
        default_zones = ("monster",) if card_type == "monster" else ("spell_trap",)
    zones = tuple(_listify(d.get("from"))) or default_zones
    for z in zones:
        if z not in V.YGO_ACT_ZONES:
            raise InputError(f"from: {z!r} is not one of {', '.join(V.YGO_ACT_ZONES)}", where)
    conditions = []
    for c in _listify(d.get("conditions")):
        try:
            conditions.append(V.parse_condition(str(c)))
        except ValueError as exc:
            raise InputError(str(exc), f"{where}.conditions") from None
    responds = []
    for r in _listify(d.get("responds_to")):
        if not isinstance(r, Mapping) or "to" not in r:
            raise InputError("responds_to entries need 'to' (and optionally 'who')", where)
        who, to = str(r.get("who", "any")), str(r["to"])
        if who not in V.YGO_RESPONDS_WHO or to not in V.YGO_RESPONDS_TO:
            raise InputError(f"responds_to: who/to must be in {V.YGO_RESPONDS_WHO} / {V.YGO_RESPONDS_TO}", where)
        responds.append((who, to))
    if responds and ("responds", None) not in conditions:
        conditions.append(("responds", None))
    costs = []
    for c in _listify(d.get("cost")):
        name, arg = _term(str(c), f"{where}.cost")
        if name not in V.YGO_COSTS:
            raise InputError(f"cost {name!r} is not one of {', '.join(V.YGO_COSTS)}", f"{where}.cost")
        arg = _cost_arg(name, arg, f"{where}.cost")
        costs.append((name, arg))
    target: list[tuple[str, str]] = []
    tgt = d.get("target")
    if tgt is not None:
        if not isinstance(tgt, Mapping):
            raise InputError("target must be a mapping of zone/side/face/kind/position/attacker", where)
        for key, value in tgt.items():
            allowed = V.YGO_TARGET_KEYS.get(str(key))
            if allowed is None:
                raise InputError(f"target: unknown key {key!r}", where)
            val = "yes" if value is True else str(value)
            if val not in allowed:
                raise InputError(f"target: {key} must be one of {', '.join(allowed)}", where)
            target.append((str(key), val))
        if not any(k == "zone" for k, _ in target):
            raise InputError("target needs a zone", where)
    actions = tuple(str(a) for a in _listify(d.get("actions")))
    for a in actions:
        if a not in V.YGO_ACTIONS:
            raise InputError(f"action {a!r} is not one of the modelled actions", f"{where}.actions")
    triggers = tuple(str(x) for x in _listify(d.get("trigger")))
    for x in triggers:
        if x not in V.YGO_TRIGGERS:
            raise InputError(f"trigger {x!r} is not one of the modelled trigger events", f"{where}.trigger")
    timing = _opt(d, "timing", where, str)
    if timing not in (None, "when", "if"):
        raise InputError("timing must be 'when' or 'if'", where)
    duration = _opt(d, "duration", where, str)
    if duration not in (None, *V.YGO_DURATIONS):
        raise InputError(f"duration must be one of {', '.join(V.YGO_DURATIONS)}", where)
    ds = _opt(d, "damage_step", where, str)
    if ds not in (None, "allowed", "forbidden"):
        raise InputError("damage_step must be 'allowed' or 'forbidden'", where)
    idx = d.get("index", index)
    if not isinstance(idx, int) or isinstance(idx, bool) or not 0 <= idx <= 100:
        raise InputError(f"index must be a whole number from 0 to 100, not {shorten(idx, 20)}", where)
    amount = _opt(d, "amount", where, int)
    if isinstance(amount, bool) or (amount is not None and not -10**7 <= amount <= 10**7):
        raise InputError("amount must be a whole number", where)
    group = _opt(d, "once_per_turn_group", where, (str, int))
    if group is not None and not re.fullmatch(r"[a-z0-9_]+", str(group)):
        raise InputError("once_per_turn_group must be a short lower-case label (letters, digits, _)", where)
    return Effect(
        index=idx,
        kind=kind,
        speed=speed,
        mandatory=mandatory,
        zones=zones,
        conditions=tuple(conditions),
        responds_to=tuple(responds),
        costs=tuple(costs),
        target=tuple(target),
        actions=actions,
        triggers=triggers,
        timing=timing,
        duration=duration,
        once_per_turn=bool(_opt(d, "once_per_turn", where, bool, False)),
        amount=amount,
        once_per_turn_group=(str(group) if group is not None else None),
        errata_2014=bool(_opt(d, "errata_2014", where, bool, False)),
        damage_step=ds,
        damage_step_source=str(d.get("damage_step_source", "")),
        summary=str(d.get("summary", "")),
        source=str(d.get("source", "")),
        unmodelled=_unmodelled(d, where) + approximations(d, where),
    )


def _unmodelled(d: Mapping[str, Any], where: str) -> tuple[str, ...]:
    """The ``unmodelled`` list of an effect or card entry: "<aspect>: <the card's words>" each."""
    out = []
    for u in _listify(d.get("unmodelled")):
        if not isinstance(u, str) or ":" not in u or not u.split(":", 1)[0].strip():
            raise InputError("unmodelled entries must be texts of the form '<aspect>: <the card's words>'",
                             f"{where}.unmodelled")
        out.append(u)
    return tuple(out)


def approximations(d: Mapping[str, Any], where: str) -> tuple[str, ...]:
    """A hand-checked entry's ``approximate:`` list ("<aspect>: <what is approximate>")
    as unmodelled parts "approximation: <aspect>: <what>" (docs/not-modelled.md)."""
    out = []
    for i, a in enumerate(_listify(d.get("approximate"))):
        if not isinstance(a, str) or ":" not in a or not a.split(":", 1)[0].strip() or not a.split(":", 1)[1].strip():
            raise InputError("each approximate: entry is a text '<aspect>: <what is approximate>' "
                             f"(for example 'resolution: modelled as doing nothing'), not {shorten(a, 40)}",
                             f"{where}.approximate[{i}]")
        out.append("approximation: " + " ".join(a.split()))
    return tuple(out)


def parse_ygo_card(d: Mapping[str, Any], where: str, origin: str = "library") -> Card:
    if not isinstance(d, Mapping):
        raise InputError("a card must be a mapping", where)
    name = _need(d, "name", where, str)
    if not name.strip():
        raise InputError("field 'name' is empty", where)
    where = f"{where} ({shorten(name, 60)[1:-1]})"
    card_type = _need(d, "card_type", where, str).lower()
    if card_type not in V.YGO_CARD_TYPES:
        raise InputError(f"card_type must be monster, spell or trap, not {card_type!r}", where)
    prop = _opt(d, "property", where, str)
    if prop is not None:
        prop = prop.lower().replace("-", "").replace(" ", "")
        if card_type == "monster" or prop not in V.YGO_PROPERTIES[card_type]:
            allowed = V.YGO_PROPERTIES.get(card_type, ())
            raise InputError(f"property {prop!r} does not fit a {card_type}; expected one of {', '.join(allowed)}", where)
    elif card_type in ("spell", "trap"):
        prop = "normal"
    effects_raw = _opt(d, "effects", where, list, [])
    effects = tuple(
        parse_ygo_effect(e, i + 1, card_type, prop, f"{where}.effects[{i}]") for i, e in enumerate(effects_raw)
    )
    if card_type in ("spell", "trap") and not any(e.kind == "card" for e in effects) and origin != "derived":
        raise InputError("a Spell or Trap needs an effect of kind 'card' (its activation)", where)
    kinds = tuple(k for k in (_word(k, "kinds", where) for k in _listify(d.get("kinds"))) if k)
    for field_name in ("atk", "def", "level"):
        value = d.get(field_name)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 10**6):
            raise InputError(f"field '{field_name}' must be a whole number from 0", where)
    return Card(
        name=name,
        game="ygo",
        card_type=card_type,
        effects=effects,
        property=prop,
        attribute=_word(d.get("attribute"), "attribute", where),
        race=_word(d.get("race"), "race", where),
        kinds=kinds,
        level=d.get("level"),
        atk=d.get("atk"),
        defense=d.get("def"),
        no_normal_summon=bool(d.get("no_normal_summon", False)),
        aliases=tuple(str(a) for a in _listify(d.get("aliases"))),
        konami_id=d.get("konami_id"),
        password=d.get("password"),
        text_sha256=d.get("text_sha256"),
        text=d.get("text"),
        origin=origin,
        notes=str(d.get("notes", "")),
        unmodelled=_unmodelled(d, where),
    )


def _norm(name: str) -> str:
    t = normalise(name).strip().lower().replace("’", "'").replace("–", "-").replace("—", "-")
    t = re.sub(r"\s+", " ", t)
    return t


class Library:
    """A set of cards of one game, looked up by name, alias or unique prefix."""

    def __init__(self, game: str, cards: Iterable[Card]) -> None:
        self.game = game
        self.cards: dict[str, Card] = {}
        self._index: dict[str, str] = {}
        for card in cards:
            self.add(card)

    def copy(self) -> Library:
        """A library with the same cards, to which cards can be added."""
        out = Library(self.game, ())
        out.cards = dict(self.cards)
        out._index = dict(self._index)
        return out

    def add(self, card: Card) -> None:
        self.cards[card.name] = card
        self._index[_norm(card.name)] = card.name
        for alias in card.aliases:
            self._index.setdefault(_norm(alias), card.name)

    def __contains__(self, name: str) -> bool:
        return self.find(name) is not None

    def __len__(self) -> int:
        return len(self.cards)

    def find(self, name: str) -> Card | None:
        key = _norm(name)
        if key in self._index:
            return self.cards[self._index[key]]
        prefixed = {v for k, v in self._index.items() if k.startswith(key)} if len(key) >= 3 else set()
        if len(prefixed) == 1:
            return self.cards[prefixed.pop()]
        return None

    def close_matches(self, name: str, n: int = 3) -> list[str]:
        keys = difflib.get_close_matches(_norm(name), list(self._index), n=n, cutoff=0.5)
        out: list[str] = []
        for k in keys:
            full = self.cards[self._index[k]].name
            if full not in out:
                out.append(full)
        return out

    def get(self, name: str, where: str = "") -> Card:
        card = self.find(name)
        if card is None:
            close = self.close_matches(name)
            hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
            game = {"ygo": "Yu-Gi-Oh!", "mtg": "Magic"}.get(self.game, self.game)
            if self.game == "mtg":
                hint += ("; any Magic card can be read from Scryfall's Oracle cards file: install it once with "
                         "`chainjudge cards import FILE` or `chainjudge cards update` (or give it with --cards "
                         "FILE or $CHAINJUDGE_MTG_CARDS), or define the card under custom_cards")
            else:
                hint += ("; any card can be read from the full card list: install it once with `chainjudge "
                         "cards import FILE` or `chainjudge cards update` (or give it with --cards FILE or "
                         "$CHAINJUDGE_CARDS), or define the card under custom_cards")
            raise InputError(f"unknown card {shorten(name)} (not in the {game} card library{hint})", where)
        return card


@cache
def bundled(game: str) -> Library:
    """The bundled hand-checked library of a game."""
    text = resources.files("logic.library").joinpath(f"{game}.yaml").read_text(encoding="utf-8")
    lib = load_library_text(game, text, f"library {game}.yaml")
    if game == "ygo":
        from logic.carddata import stamps

        facts = stamps()
        for name, card in list(lib.cards.items()):
            stamp = facts.get(name)
            if stamp:
                lib.add(with_stamp(card, stamp))
    return lib


def with_stamp(card: Card, stamp: Mapping[str, Any]) -> Card:
    """Fill a library card's facts (ids, stats, digest) from its stamp."""
    from dataclasses import replace

    return replace(
        card,
        konami_id=card.konami_id or stamp.get("konami_id"),
        password=card.password or stamp.get("password"),
        text_sha256=card.text_sha256 or stamp.get("text_sha256"),
        attribute=card.attribute or stamp.get("attribute"),
        race=card.race or stamp.get("race"),
        kinds=card.kinds or tuple(stamp.get("kinds") or ()),
        level=card.level if card.level is not None else stamp.get("level"),
        atk=card.atk if card.atk is not None else stamp.get("atk"),
        defense=card.defense if card.defense is not None else stamp.get("def"),
    )


def load_library_text(game: str, text: str, where: str) -> Library:
    try:
        data = yaml.load(text, Loader=_YAML_LOADER) or []
    except yaml.YAMLError as exc:
        raise InputError(f"not valid YAML: {exc}", where) from None
    if not isinstance(data, list):
        raise InputError("a card library is a list of cards", where)
    parse = parse_ygo_card if game == "ygo" else _mtg_parser()
    return Library(game, (parse(d, f"{where}[{i}]") for i, d in enumerate(data)))


def _mtg_parser() -> Any:
    from logic import mtg_cards  # local: the Magic schema lives in its own module

    return mtg_cards.parse_mtg_card
