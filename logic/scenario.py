"""Scenario files: loading and validation (DESIGN.md, "Scenario file").

Every problem is an :class:`InputError` naming the field (``cards[2].zone``)
or the line of the YAML text, and what was expected.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from logic import vocabulary as V
from logic.cards import Card, Library, bundled, parse_ygo_card
from logic.errors import InputError
from logic.games import GAMES, turn

MTG_ZONES = ("hand", "library", "battlefield", "graveyard", "exile", "stack", "command")
MTG_POSITIONS = ("tapped", "untapped", "face_down")
SCENARIO_KEYS = {
    "game", "date", "players", "teams", "turn_player", "active_player", "phase", "life", "cards",
    "attack", "custom_cards", "history", "variants", "turn", "name", "description",
}
CARD_KEYS = {"card", "controller", "owner", "zone", "position", "id", "special_summoned", "set_this_turn",
             "summoned_this_turn", "counters", "attacked", "face_down_at_start", "tapped", "summoning_sick",
             "loyalty_activated", "materials"}
VARIANTS = {"end_declaration": ("chart", "tp_first"), "mana_abilities": ("break_succession", "ignored")}


@dataclass(frozen=True)
class CardInstance:
    id: str
    card: Card
    controller: str
    owner: str
    zone: str
    position: str | None
    flags: tuple[str, ...] = ()
    materials: int | None = None  # ygo: the Xyz materials attached to this monster
    counters: tuple[tuple[str, int], ...] = ()  # ygo: counters on this card (kind, number)

    @property
    def label(self) -> str:
        return self.id


@dataclass
class Scenario:
    game: str
    players: list[str]
    turn_player: str
    point: str  # internal point key
    cards: list[CardInstance]
    date: dt.date
    life: dict[str, int]
    history: list[str] = field(default_factory=list)
    attack: tuple[str, str] | None = None  # (attacker id, target id or "direct")
    teams: list[list[str]] = field(default_factory=list)
    variants: dict[str, str] = field(default_factory=dict)
    library: Library | None = None
    path: str = "<scenario>"

    def instance(self, ident: str) -> CardInstance:
        for c in self.cards:
            if c.id == ident:
                return c
        raise KeyError(ident)

    def find_instances(self, name: str) -> list[CardInstance]:
        """Instances named by id, card name, alias or unique prefix."""
        key = _norm(name)
        by_id = [c for c in self.cards if _norm(c.id) == key]
        if by_id:
            return by_id
        by_name = [c for c in self.cards if _norm(c.card.name) == key or key in (_norm(a) for a in c.card.aliases)]
        if by_name:
            return by_name
        if len(key) >= 3:
            pref = [c for c in self.cards if _norm(c.card.name).startswith(key) or _norm(c.id).startswith(key)]
            if len({c.card.name for c in pref}) == 1:
                return pref
        return []


def _norm(s: str) -> str:
    return " ".join(s.strip().lower().replace("’", "'").split())


def _line_of(node: Any) -> str:
    mark = getattr(node, "start_mark", None)
    return f"line {mark.line + 1}" if mark is not None else ""


def load_file(path: str | Path) -> Scenario:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("file not found", str(path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read the file: {exc}", str(path)) from None
    return load_text(text, str(path))


def load_text(text: str, where: str = "<scenario>", base_dir: Path | None = None) -> Scenario:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        loc = f"{where}:{mark.line + 1}:{mark.column + 1}" if mark is not None else where
        problem = getattr(exc, "problem", None) or str(exc)
        raise InputError(f"not valid YAML: {problem}", loc) from None
    return from_data(data, where)


def from_data(data: Any, where: str = "<scenario>") -> Scenario:
    if not isinstance(data, Mapping):
        raise InputError("a scenario must be a mapping with game, players, phase and cards", where)
    for key in data:
        if key not in SCENARIO_KEYS:
            import difflib

            close = difflib.get_close_matches(str(key), sorted(SCENARIO_KEYS), n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise InputError(f"unknown field '{key}'{hint}", where)
    game = data.get("game")
    if game not in GAMES:
        raise InputError(f"game must be 'ygo' or 'mtg', not {game!r}", f"{where}: game")
    players = data.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, str) and p.strip() for p in players):
        raise InputError("players must be a list of player names, in turn order", f"{where}: players")
    players = [p.strip() for p in players]
    if len(set(players)) != len(players):
        raise InputError("player names must be different", f"{where}: players")
    if game == "ygo" and len(players) != 2:
        raise InputError("a Yu-Gi-Oh! game has exactly 2 players", f"{where}: players")
    if game == "mtg" and not 2 <= len(players) <= 6:
        raise InputError("a Magic game here has 2 to 6 players", f"{where}: players")
    tp_key = "turn_player" if game == "ygo" else "active_player"
    tp = data.get(tp_key, data.get("turn_player", data.get("active_player")))
    if tp is None:
        raise InputError(f"missing field '{tp_key}'", where)
    if tp not in players:
        raise InputError(f"{tp_key} {tp!r} is not one of the players ({', '.join(players)})", f"{where}: {tp_key}")
    t = turn(game)
    phase = data.get("phase")
    if not isinstance(phase, str):
        raise InputError("missing or non-text field 'phase' (where the position is, e.g. main1)", f"{where}: phase")
    public = t.resolve(phase)
    if public is None:
        names = ", ".join(p.name for p in t.points)
        raise InputError(f"unknown point {phase!r}; expected one of: {names}", f"{where}: phase")
    members = t.spans[public]
    if len(members) != 1 and public != "battle.battle":
        raise InputError(
            f"{phase!r} is a whole phase; name the step it is at (for example {t.public_name(members[0])})",
            f"{where}: phase",
        )
    point = members[0]
    date = data.get("date", dt.date.today())
    if isinstance(date, str):
        try:
            date = dt.date.fromisoformat(date)
        except ValueError:
            raise InputError(f"date must be YYYY-MM-DD, not {date!r}", f"{where}: date") from None
    if isinstance(date, dt.datetime):
        date = date.date()
    if not isinstance(date, dt.date):
        raise InputError("date must be YYYY-MM-DD", f"{where}: date")
    life_raw = data.get("life") or {}
    if not isinstance(life_raw, Mapping):
        raise InputError("life must map players to life points", f"{where}: life")
    default_life = 8000 if game == "ygo" else 20
    life = {p: default_life for p in players}
    for k, v in life_raw.items():
        if k not in players:
            raise InputError(f"{k!r} is not one of the players", f"{where}: life")
        if not isinstance(v, int) or isinstance(v, bool) or v < 0 or v > 10**7:
            raise InputError(f"life of {k} must be a whole number from 0", f"{where}: life.{k}")
        life[k] = v
    library = Library(game, bundled(game).cards.values())
    customs = data.get("custom_cards") or []
    if not isinstance(customs, list):
        raise InputError("custom_cards must be a list of card definitions", f"{where}: custom_cards")
    for i, cd in enumerate(customs):
        loc = f"{where}: custom_cards[{i}]"
        if game == "ygo":
            card = parse_ygo_card(_custom_ygo(cd, loc), loc, origin="custom")
        else:
            from logic.mtg_cards import parse_mtg_card

            card = parse_mtg_card(cd, loc, origin="custom")
        library.add(card)
    cards_raw = data.get("cards") or []
    if not isinstance(cards_raw, list):
        raise InputError("cards must be a list", f"{where}: cards")
    instances = _instances(cards_raw, game, players, library, where)
    history = data.get("history") or []
    if not isinstance(history, list) or not all(isinstance(h, str) for h in history):
        raise InputError("history must be a list of event phrases (text)", f"{where}: history")
    variants: dict[str, str] = {}
    for k, v in (data.get("variants") or {}).items():
        if k not in VARIANTS or v not in VARIANTS[k]:
            raise InputError(f"unknown variant {k}: {v}; known: {VARIANTS}", f"{where}: variants")
        variants[k] = v
    teams = data.get("teams") or []
    sc = Scenario(
        game=game,
        players=players,
        turn_player=tp,
        point=point,
        cards=instances,
        date=date,
        life=life,
        history=list(history),
        teams=teams,
        variants=variants,
        library=library,
        path=where,
    )
    sc.attack = _attack(data.get("attack"), sc, where)
    _check_position(sc, where)
    return sc


def _custom_ygo(cd: Any, loc: str) -> Mapping[str, Any]:
    if not isinstance(cd, Mapping):
        raise InputError("a custom card must be a mapping with name, card_type and text", loc)
    d = dict(cd)
    if "effects" not in d:
        raise InputError(
            "custom cards need explicit 'effects' until the card-text reader exists "
            "(see docs/cards.md for the attributes)",
            loc,
        )
    return d


def _instances(cards_raw: list[Any], game: str, players: list[str], library: Library, where: str) -> list[CardInstance]:
    zones = V.YGO_ZONES if game == "ygo" else MTG_ZONES
    out: list[CardInstance] = []
    seen_ids: set[str] = set()
    name_count: dict[str, int] = {}
    parsed: list[tuple[int, Mapping[str, Any], Card]] = []
    for i, cd in enumerate(cards_raw):
        loc = f"{where}: cards[{i}]"
        if not isinstance(cd, Mapping):
            raise InputError("each card must be a mapping with card, controller and zone", loc)
        for key in cd:
            if key not in CARD_KEYS:
                raise InputError(f"unknown field '{key}'", loc)
        name = cd.get("card")
        if not isinstance(name, str) or not name.strip():
            raise InputError("missing field 'card' (the card's name)", loc)
        card = library.get(name, f"{loc}.card")
        name_count[card.name] = name_count.get(card.name, 0) + 1
        parsed.append((i, cd, card))
    counters: dict[str, int] = {}
    for i, cd, card in parsed:
        loc = f"{where}: cards[{i}]"
        controller = cd.get("controller")
        if controller not in players:
            raise InputError(f"controller {controller!r} is not one of the players ({', '.join(players)})", f"{loc}.controller")
        owner = cd.get("owner", controller)
        if owner not in players:
            raise InputError(f"owner {owner!r} is not one of the players", f"{loc}.owner")
        zone = cd.get("zone")
        if zone not in zones:
            raise InputError(f"zone {zone!r} is not one of: {', '.join(zones)}", f"{loc}.zone")
        ident = cd.get("id")
        if ident is None:
            if name_count[card.name] == 1:
                ident = card.name
            else:
                counters[card.name] = counters.get(card.name, 0) + 1
                ident = f"{card.name}#{counters[card.name]}"
        if not isinstance(ident, str) or not ident.strip():
            raise InputError("id must be a non-empty text", f"{loc}.id")
        if ident in seen_ids:
            raise InputError(f"duplicate id {ident!r}", f"{loc}.id")
        seen_ids.add(ident)
        position = cd.get("position")
        position = _position(game, card, zone, position, f"{loc}.position")
        flags = tuple(k for k in ("special_summoned", "set_this_turn", "summoned_this_turn", "attacked",
                                  "face_down_at_start", "summoning_sick", "loyalty_activated")
                      if cd.get(k) is True)
        if game == "ygo" and card.card_type == "monster" and zone == "spell_trap":
            raise InputError("a monster card cannot be in the Spell & Trap Zone", f"{loc}.zone")
        if game == "ygo" and card.card_type != "monster" and zone == "monster":
            raise InputError(f"a {card.card_type} card cannot be in the Monster Zone", f"{loc}.zone")
        if game == "ygo" and owner != controller and zone not in ("monster", "spell_trap"):
            raise InputError("only a card on the field can be controlled by a player other than its owner",
                             f"{loc}.controller")
        materials, card_counters = _ygo_counts(cd, game, loc)
        out.append(CardInstance(ident, card, controller, owner, zone, position, flags, materials, card_counters))
    return out


def _ygo_counts(cd: Mapping[str, Any], game: str, loc: str) -> tuple[int | None, tuple[tuple[str, int], ...]]:
    """Yu-Gi-Oh!: ``materials: N`` (Xyz materials) and ``counters: {spell: N}``."""
    if game != "ygo":
        return None, ()
    materials = cd.get("materials")
    if materials is not None and (not isinstance(materials, int) or isinstance(materials, bool) or materials < 0):
        raise InputError("materials must be a whole number (the Xyz materials attached)", f"{loc}.materials")
    raw = cd.get("counters")
    if raw is None:
        return materials, ()
    if not isinstance(raw, Mapping):
        raise InputError("counters must be a mapping of counter kind to number, e.g. {spell: 1}", f"{loc}.counters")
    counters = []
    for kind, n in raw.items():
        if str(kind) not in ("spell",) or not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise InputError("counters: only Spell Counters are modelled, e.g. {spell: 1}", f"{loc}.counters")
        counters.append((str(kind), n))
    return materials, tuple(counters)


def _position(game: str, card: Card, zone: str, position: Any, loc: str) -> str | None:
    if game == "ygo":
        if zone == "monster":
            allowed = ("face_up_attack", "face_up_defense", "face_down_defense")
            default = "face_up_attack"
        elif zone == "spell_trap":
            allowed = ("face_up", "face_down")
            default = "face_down"
        else:
            if position is not None:
                raise InputError(f"a card in the {zone} has no position", loc)
            return None
        if position is None:
            return default
        if position not in allowed:
            raise InputError(f"position {position!r} is not one of: {', '.join(allowed)}", loc)
        return str(position)
    if zone == "battlefield":
        if position is None:
            return "untapped"
        if position not in MTG_POSITIONS:
            raise InputError(f"position {position!r} is not one of: {', '.join(MTG_POSITIONS)}", loc)
        return str(position)
    if position is not None:
        raise InputError(f"a card in the {zone} has no position", loc)
    return None


def _attack(raw: Any, sc: Scenario, where: str) -> tuple[str, str] | None:
    if raw is None:
        return None
    loc = f"{where}: attack"
    if sc.game != "ygo":
        raise InputError("attack is a Yu-Gi-Oh! field (Magic uses history: declares attackers)", loc)
    if not isinstance(raw, Mapping) or "attacker" not in raw or "target" not in raw:
        raise InputError("attack needs attacker and target (a monster or 'direct')", loc)
    att = sc.find_instances(str(raw["attacker"]))
    if len(att) > 1:
        att = [c for c in att if c.zone == "monster" and c.controller == sc.turn_player]
    if len(att) != 1:
        raise InputError(f"attacker {raw['attacker']!r} must name exactly one card of the scenario", f"{loc}.attacker")
    a = att[0]
    if a.zone != "monster" or a.controller != sc.turn_player:
        raise InputError("the attacker must be a monster the turn player controls on the field", f"{loc}.attacker")
    target = str(raw["target"])
    if target.strip().lower() == "direct":
        tid = "direct"
    else:
        tg = sc.find_instances(target)
        if len(tg) > 1:
            tg = [c for c in tg if c.zone == "monster" and c.controller != sc.turn_player]
        if len(tg) != 1:
            raise InputError(f"target {target!r} must name exactly one card of the scenario, or be 'direct'", f"{loc}.target")
        if tg[0].zone != "monster" or tg[0].controller == sc.turn_player:
            raise InputError("the attack target must be a monster the opponent controls", f"{loc}.target")
        tid = tg[0].id
    t = turn("ygo")
    if sc.point not in t.spans["battle.damage"] + ("bp_window", "bp_attack", "bp_battle"):
        raise InputError("an attack in progress needs phase inside the Battle Step or Damage Step", loc)
    if tid != "direct" and sc.point in ("ds_before", "ds_calc", "ds_after", "ds_end") \
            and sc.instance(tid).position == "face_down_defense":
        raise InputError("the attack target is flipped face-up before damage calculation (004.DS2); "
                         "give its face-up position, or start at battle.damage.start", f"{loc}.target")
    return (a.id, tid)


def _check_position(sc: Scenario, where: str) -> None:
    if sc.game == "ygo":
        on_field = [c for c in sc.cards if c.zone == "monster"]
        for p in sc.players:
            if sum(1 for c in on_field if c.controller == p) > 5:
                raise InputError(f"{p} controls more than 5 monsters", f"{where}: cards")
            if sum(1 for c in sc.cards if c.zone == "spell_trap" and c.controller == p) > 5:
                raise InputError(f"{p} controls more than 5 Spells/Traps", f"{where}: cards")
        if sc.point in turn("ygo").spans["battle.damage"] and sc.attack is None:
            raise InputError("a position in the Damage Step needs the attack in progress (attack: ...)", f"{where}: attack")
