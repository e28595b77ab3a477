"""Scenario files: loading and validation (docs/scenarios.md).

Every problem is an :class:`InputError` naming the field (``cards[2].zone``)
or the line of the YAML text, and what was expected.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from logic import vocabulary as V
from logic.cards import Card, Library, bundled, parse_ygo_card
from logic.errors import InputError, NotModelled, shorten, type_name
from logic.games import GAMES, turn
from logic.text import normalise

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
FLAGS = ("special_summoned", "set_this_turn", "summoned_this_turn", "attacked", "face_down_at_start",
         "summoning_sick", "loyalty_activated", "tapped")

# Size limits on a scenario (docs/robustness.md): a position beyond them is refused
# before anything is ground.
MAX_FILE_BYTES = 1_000_000
MAX_CARDS = 200
MAX_CUSTOM_CARDS = 100
MAX_HISTORY = 100
MAX_NAME = 100  # characters in a player name or a card id
EXTRA_DECK_KINDS = ("fusion", "synchro", "xyz", "link")


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
    # mtg: the combat of a position at combat.attackers or later: (attacker id, the
    # player it attacks, the ids of the creatures blocking it); [] = no attackers
    combat: list[tuple[str, str, tuple[str, ...]]] | None = None
    teams: list[list[str]] = field(default_factory=list)
    variants: dict[str, str] = field(default_factory=dict)
    library: Library | None = None
    path: str = "<scenario>"
    derived: dict[str, Any] = field(default_factory=dict)  # card name -> DerivedCard (cards read from text)

    def sources(self) -> dict[str, str]:
        """Where each card's timing attributes come from: library, custom or derived."""
        return {c.card.name: c.card.origin for c in self.cards}

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
    return " ".join(normalise(s).strip().lower().replace("’", "'").split())


def _line_of(node: Any) -> str:
    mark = getattr(node, "start_mark", None)
    return f"line {mark.line + 1}" if mark is not None else ""


def derived_library(cards_file: str | Path | None) -> Any:
    """The card list with derived attributes, from --cards FILE, $CHAINJUDGE_CARDS or the
    list installed by ``chainjudge cards import`` (or None)."""
    import os

    from logic.cardstore import installed
    from logic.mtg_cardlist import game_of

    path = cards_file or os.environ.get("CHAINJUDGE_CARDS") or installed("ygo")
    if not path:
        return None
    p = Path(path)
    if not p.exists():
        raise InputError("the card list was not found", str(path))
    if game_of(p) == "mtg":
        # --cards names a Magic card list: the Yu-Gi-Oh! one may still be in the environment
        env = os.environ.get("CHAINJUDGE_CARDS") or installed("ygo")
        if not env or Path(env) == p or not Path(env).exists() or game_of(env) == "mtg":
            return None
        p = Path(env)
    try:
        st = p.stat()
        return _derived_cached(str(p.resolve()), st.st_mtime_ns, st.st_size)
    except InputError as exc:
        # name the file as the user did (the cache is keyed by the resolved path)
        resolved = str(p.resolve())
        if exc.where.startswith(resolved):
            exc.where = str(p) + exc.where[len(resolved):]
        raise
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read the card list: {exc}", str(path)) from None


@cache
def _derived_cached(path: str, mtime_ns: int, size: int) -> Any:
    """A card list's derived attributes, loaded once per process (and file version)."""
    from logic.textreader import load_derived

    return load_derived(Path(path))


def derived_cache_size() -> int:
    """How many card lists this process holds derived (queries/api.py warm_state)."""
    return _derived_cached.cache_info().currsize


def read_text(path: str | Path, what: str = "file") -> str:
    """The text of a user's file (a regular file, UTF-8, at most MAX_FILE_BYTES), or an InputError."""
    from logic.files import read_bytes

    data = read_bytes(path, what, MAX_FILE_BYTES)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(f"not UTF-8 text (byte 0x{data[exc.start]:02x} cannot be decoded); "
                         "save the file as UTF-8", f"{path}:{line}") from None
    return text.removeprefix("\ufeff")


def load_file(path: str | Path, cards_file: str | Path | None = None) -> Scenario:
    return load_text(read_text(path, "scenario file"), str(path), cards_file=cards_file)


class _Strict:
    """Safe YAML, stricter: a field given twice or an impossible date is an error
    (PyYAML would keep the last value, or fail with a bare ValueError)."""

    def construct_mapping(self, node: Any, deep: bool = False) -> dict[Any, Any]:
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, int] = {}
            for key_node, _ in node.value:
                if isinstance(key_node, yaml.ScalarNode):
                    key = key_node.value
                    if key in seen and key != "<<":
                        raise yaml.constructor.ConstructorError(
                            None, None, f"the field '{shorten(key, 40)[1:-1]}' is given twice "
                            f"(first on line {seen[key] + 1})", key_node.start_mark)
                    seen[key] = key_node.start_mark.line
        return super().construct_mapping(node, deep=deep)  # type: ignore[misc]

    def construct_document(self, node: Any) -> Any:
        _check_expansion(node)  # before any value is built: aliases, depth, huge numbers
        return super().construct_document(node)  # type: ignore[misc]

    def construct_yaml_timestamp(self, node: Any) -> Any:
        try:
            return yaml.SafeLoader.construct_yaml_timestamp(self, node)  # type: ignore[arg-type]
        except (ValueError, OverflowError) as exc:
            raise yaml.constructor.ConstructorError(
                None, None, f"{node.value!r} is not a real date ({exc})", node.start_mark) from None


MAX_YAML_VALUES = 200_000  # values a document may expand to (aliases counted at every use)
MAX_YAML_DEPTH = 60
MAX_YAML_CHARS = 2 * MAX_FILE_BYTES  # characters of all texts, aliases expanded
MAX_NUMBER_DIGITS = 30


class YamlTooLarge(yaml.constructor.ConstructorError):
    pass


def _check_expansion(root: Any) -> None:
    """Refuse a YAML document whose values, with every alias expanded, would be
    too many (a "billion laughs": a 1 KB text that expands to 10^9 values), too
    deep, or that holds a number too large to be a count.  Counted on the node
    graph, where an alias is one shared node, so the check itself stays small."""
    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    chars: dict[int, int] = {}
    stack: list[tuple[Any, bool]] = [(root, False)]
    open_nodes: set[int] = set()
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            open_nodes.discard(key)
            kids = _children(node)
            size[key] = 1 + sum(size[id(k)] for k in kids)
            depth[key] = 1 + max((depth[id(k)] for k in kids), default=0)
            chars[key] = sum(chars[id(k)] for k in kids)
            if chars[key] > MAX_YAML_CHARS:
                raise YamlTooLarge(None, None, f"its texts expand to more than {MAX_YAML_CHARS:,} characters "
                                   "(through aliases: *name repeats what &name marked)", node.start_mark)
            if size[key] > MAX_YAML_VALUES:
                raise YamlTooLarge(None, None, f"it expands to more than {MAX_YAML_VALUES:,} values "
                                   "(through aliases: *name repeats what &name marked)", node.start_mark)
            if depth[key] > MAX_YAML_DEPTH:
                raise YamlTooLarge(None, None, f"it is nested too deeply (more than {MAX_YAML_DEPTH} levels)",
                                   node.start_mark)
            continue
        if key in size:
            continue
        if key in open_nodes:
            raise YamlTooLarge(None, None, "an alias refers to a value that contains it (*name inside &name)",
                               node.start_mark)
        if isinstance(node, yaml.ScalarNode):
            size[key] = 1
            depth[key] = 1
            chars[key] = len(node.value)
            if node.tag in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float") \
                    and len(node.value) > MAX_NUMBER_DIGITS:
                raise YamlTooLarge(None, None, f"a number of {len(node.value)} characters is too large "
                                   f"(at most {MAX_NUMBER_DIGITS}; write it in quotes if it is a text)",
                                   node.start_mark)
            continue
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((k, False) for k in _children(node))


def _children(node: Any) -> list[Any]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [x for pair in node.value for x in pair]
    return []


class _PyLoader(_Strict, yaml.SafeLoader):
    pass


# libyaml when present (much faster); its error messages are terser, so a text it
# rejects is parsed again by the pure-Python loader for the message
_FastLoader: Any = type("_FastLoader", (_Strict, getattr(yaml, "CSafeLoader", yaml.SafeLoader)), {})
for _cls in {_PyLoader, _FastLoader}:
    _cls.add_constructor("tag:yaml.org,2002:timestamp", _Strict.construct_yaml_timestamp)
    _cls.add_constructor("tag:yaml.org,2002:map", _cls.construct_yaml_map)


def parse_yaml(text: str, where: str) -> Any:
    """Parse a user's YAML; every problem is an InputError with the line and column."""
    try:
        try:
            return yaml.load(text, Loader=_FastLoader)  # noqa: S506 - a SafeLoader
        except yaml.YAMLError:
            if _FastLoader is _PyLoader:
                raise
            return yaml.load(text, Loader=_PyLoader)  # noqa: S506 - for its clearer message
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        loc = f"{where}:{mark.line + 1}:{mark.column + 1}" if mark is not None else where
        problem = getattr(exc, "problem", None) or str(exc)
        raise InputError(f"not valid YAML: {problem}{_yaml_hint(str(problem))}", loc) from None
    except RecursionError:
        raise InputError("not valid YAML: it is nested too deeply", where) from None
    except MemoryError:
        raise InputError("not valid YAML: it expands to more than fits in memory", where) from None
    except (ValueError, TypeError, OverflowError) as exc:  # a value PyYAML cannot construct
        raise InputError(f"not valid YAML: {exc}", where) from None


def _yaml_hint(problem: str) -> str:
    if "'\\t'" in problem or "\\t" in problem:
        return " (YAML indents with spaces, not tabs)"
    if "<block end>" in problem or "mapping values are not allowed" in problem or "block mapping" in problem:
        return " (check the indentation of this line and the one before)"
    if "expected ',' or ']'" in problem or "expected ',' or '}'" in problem:
        return " (a '[' or '{' opened before is not closed)"
    if "found unhashable key" in problem:
        return " (a field name must be a plain word)"
    return ""


def load_text(text: str, where: str = "<scenario>", base_dir: Path | None = None,
              cards_file: str | Path | None = None) -> Scenario:
    if len(text) > MAX_FILE_BYTES:
        raise InputError(f"the scenario is too large ({len(text)} characters; at most {MAX_FILE_BYTES})", where)
    return from_data(parse_yaml(text, where), where, cards_file=cards_file)


def _text_field(data: Mapping[str, Any], key: str, where: str, expected: str) -> str:
    """A required text field: missing / wrong type / empty each get their own message.

    ``where`` is the file (top-level fields: ``file: key``) or an entry
    (``file: cards[2]``: its fields are ``file: cards[2].key``)."""
    loc = f"{where}.{key}" if where.endswith("]") or where.endswith(": attack") else f"{where}: {key}"
    if key not in data or data[key] is None:
        raise InputError(f"missing field '{key}' ({expected})", where)
    value = data[key]
    if not isinstance(value, str):
        hint = " (write it in quotes)" if isinstance(value, int | float) and not isinstance(value, bool) else ""
        raise InputError(f"{key} must be a text: {expected}; not {type_name(value)} ({shorten(value)}){hint}", loc)
    if not value.strip():
        raise InputError(f"{key} is empty; expected {expected}", loc)
    return value


def _check_name(value: str, what: str, loc: str) -> None:
    if len(value) > MAX_NAME:
        raise InputError(f"{what} is too long ({len(value)} characters; at most {MAX_NAME})", loc)
    bad = next((ch for ch in value if not ch.isprintable()), None)
    if bad is not None:
        raise InputError(f"{what} {shorten(value)} contains an invisible or control character "
                         f"(U+{ord(bad):04X})", loc)
    if "§" in value:
        raise InputError(f"{what} {shorten(value)} contains the reserved character '§'", loc)


def nfkc_data(data: Any) -> tuple[Any, bool]:
    """Every text of a scenario (keys, names, ids, references) in Unicode NFKC,
    as a question is read (logic/text.py): a full-width 'Ａ' in a scenario is
    the 'A' a question names, and two names that read the same collide.
    Returns the data and whether anything changed."""
    import unicodedata

    changed = False

    def norm(v: Any) -> Any:
        nonlocal changed
        if isinstance(v, str):
            try:
                if unicodedata.is_normalized("NFKC", v):
                    return v
                out = unicodedata.normalize("NFKC", v)
            except UnicodeError:  # a lone surrogate: left for the field's own check
                return v
            changed = True
            return out
        if isinstance(v, Mapping):
            return {norm(k): norm(x) for k, x in v.items()}
        if isinstance(v, list):
            return [norm(x) for x in v]
        return v

    return norm(data), changed


def from_data(data: Any, where: str = "<scenario>", cards_file: str | Path | None = None) -> Scenario:
    data, changed = nfkc_data(data)
    try:
        return _from_data(data, where, cards_file)
    except InputError as exc:
        if changed and ("twice" in exc.message or "duplicate" in exc.message):
            exc.message += " (names are compared after Unicode normalisation: full-width letters and ligatures " \
                           "read as the plain ones)"
        raise


def _from_data(data: Any, where: str, cards_file: str | Path | None) -> Scenario:
    if not isinstance(data, Mapping):
        got = "it is empty" if data is None else f"not {type_name(data)}"
        raise InputError(f"a scenario must be a mapping with the fields game, players, turn_player, phase "
                         f"and cards ({got})", where)
    for key in data:
        if key not in SCENARIO_KEYS:
            import difflib

            close = difflib.get_close_matches(str(key), sorted(SCENARIO_KEYS), n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else f"; known fields: {', '.join(sorted(SCENARIO_KEYS))}"
            raise InputError(f"unknown field {shorten(str(key), 40)}{hint}", where)
    for key in ("name", "description"):
        if key in data and data[key] is not None and not isinstance(data[key], str):
            raise InputError(f"{key} must be a text, not {type_name(data[key])}", f"{where}: {key}")
    game = _text_field(data, "game", where, "'ygo' or 'mtg'")
    if game not in GAMES:
        raise InputError(f"game must be 'ygo' or 'mtg', not {shorten(game)}", f"{where}: game")
    players = _players(data, game, where)
    tp_key = "turn_player" if game == "ygo" else "active_player"
    other = "active_player" if game == "ygo" else "turn_player"
    tp_src = tp_key if tp_key in data else other if other in data else tp_key
    tp = _text_field(data, tp_src, where, "the player whose turn it is (" + " or ".join(players) + ")")
    if tp not in players:
        raise InputError(f"{tp_src} {shorten(tp)} is not one of the players ({', '.join(players)})", f"{where}: {tp_src}")
    t = turn(game)
    phase = _text_field(data, "phase", where, "a phase or step name, e.g. main1")
    public = t.resolve(phase)
    if public is None:
        names = ", ".join(dict.fromkeys(p.name for p in t.points))
        raise InputError(f"unknown point {shorten(phase)}; expected one of: {names}", f"{where}: phase")
    members = t.spans[public]
    if len(members) != 1 and public != "battle.battle":
        raise InputError(
            f"{shorten(phase)} is a whole phase; name the step it is at (for example {t.public_name(members[0])})",
            f"{where}: phase",
        )
    point = members[0]
    date = _date(data.get("date", dt.date.today()), where)
    life = _life(data.get("life"), game, players, where)
    library = _library(game)
    customs = data.get("custom_cards") or []
    if not isinstance(customs, list):
        raise InputError(f"custom_cards must be a list of card definitions, not {type_name(customs)}",
                         f"{where}: custom_cards")
    if len(customs) > MAX_CUSTOM_CARDS:
        raise InputError(f"too many custom cards ({len(customs)}; at most {MAX_CUSTOM_CARDS})", f"{where}: custom_cards")
    for i, cd in enumerate(customs):
        loc = f"{where}: custom_cards[{i}]"
        if game == "ygo":
            card = parse_ygo_card(_custom_ygo(cd, loc), loc, origin="custom")
        else:
            try:
                from logic.mtg_cards import parse_mtg_card
            except ImportError:
                raise NotModelled("Magic custom cards (logic/mtg_cards.py is not part of this build)") from None

            card = parse_mtg_card(cd, loc, origin="custom")
        library.add(card)
    cards_raw = data.get("cards") or []
    if not isinstance(cards_raw, list):
        raise InputError(f"cards must be a list (one '- card: ...' entry per card), not {type_name(cards_raw)}",
                         f"{where}: cards")
    if len(cards_raw) > MAX_CARDS:
        raise InputError(f"too many cards ({len(cards_raw)}; at most {MAX_CARDS})", f"{where}: cards")
    derived: dict[str, Any] = {}
    if game == "ygo":
        dlib = derived_library(cards_file)
        if dlib is not None:
            for cd in cards_raw:
                name = cd.get("card") if isinstance(cd, Mapping) else None
                if isinstance(name, str) and library.find(name) is None:
                    dc = dlib.get(name)
                    if dc is not None:
                        library.add(dc.card)
                        derived[dc.card.name] = dc
                    elif not library.close_matches(name):
                        import difflib

                        close = difflib.get_close_matches(name, dlib.names(), n=3, cutoff=0.8)
                        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
                        raise InputError(f"unknown card {shorten(name)} (not in the Yu-Gi-Oh! card library nor in "
                                         f"the full card list{hint}; a card of your own can be defined under "
                                         "custom_cards)", f"{where}: cards")
    else:
        from logic.mtg_cardlist import DerivedMtgCard, library_for

        mlib = library_for(cards_file)
        if mlib is not None:
            for cd in cards_raw:
                name = cd.get("card") if isinstance(cd, Mapping) else None
                if isinstance(name, str) and library.find(name) is None:
                    card = mlib.get(name)
                    if card is not None:
                        library.add(card)
                        derived[card.name] = DerivedMtgCard(card)
                    elif mlib.error(name):
                        raise InputError(f"{shorten(name)} is in the card list but cannot be a card in a game "
                                         f"here ({mlib.error(name)})", where)
    instances = _instances(cards_raw, game, players, library, where)
    history = data.get("history") or []
    if not isinstance(history, list):
        raise InputError(f"history must be a list of event phrases (one '- A passes' line each), "
                         f"not {type_name(history)}", f"{where}: history")
    if len(history) > MAX_HISTORY:
        raise InputError(f"the history is too long ({len(history)} events; at most {MAX_HISTORY})", f"{where}: history")
    for i, h in enumerate(history):
        if not isinstance(h, str):
            hint = " (a ':' inside a phrase makes YAML read a mapping: put the phrase in quotes)" \
                if isinstance(h, dict) else ""
            raise InputError(f"each history entry must be an event phrase (text), not {type_name(h)}{hint}",
                             f"{where}: history[{i}]")
    variants = _variants(data.get("variants"), where)
    teams = _teams(data.get("teams"), players, where)
    if "turn" in data and data["turn"] is not None and (
            not isinstance(data["turn"], int) or isinstance(data["turn"], bool) or not 1 <= data["turn"] <= 10**6):
        raise InputError(f"turn must be a whole number from 1, not {shorten(data['turn'])}", f"{where}: turn")
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
        derived=derived,
    )
    if game == "mtg":
        sc.combat = _mtg_combat(data.get("attack"), sc, cards_raw, where)
    else:
        sc.attack = _attack(data.get("attack"), sc, where)
    _check_position(sc, where)
    return sc


def _library(game: str) -> Library:
    try:
        base = bundled(game)
    except (FileNotFoundError, ImportError):
        raise NotModelled(f"the {'Magic' if game == 'mtg' else game} card library is not part of this build") from None
    return base.copy()


def _players(data: Mapping[str, Any], game: str, where: str) -> list[str]:
    loc = f"{where}: players"
    if "players" not in data or data["players"] is None:
        raise InputError("missing field 'players' (the player names in turn order, e.g. [A, B])", where)
    players = data["players"]
    if not isinstance(players, list) or not players:
        raise InputError(f"players must be a list of player names in turn order, e.g. [A, B], "
                         f"not {type_name(players) if players != [] else 'an empty list'}", loc)
    out = []
    for i, p in enumerate(players):
        if not isinstance(p, str):
            hint = " (write it in quotes)" if isinstance(p, int | float | bool) else ""
            raise InputError(f"a player's name must be a text, not {type_name(p)} ({shorten(p)}){hint}", f"{loc}[{i}]")
        if not p.strip():
            raise InputError("a player's name is empty", f"{loc}[{i}]")
        _check_name(p.strip(), "the player name", f"{loc}[{i}]")
        out.append(p.strip())
    for i, p in enumerate(out):
        if p in out[:i]:
            raise InputError(f"the player name {shorten(p)} is given twice; player names must be different", f"{loc}[{i}]")
    if game == "ygo" and len(out) != 2:
        raise InputError(f"a Yu-Gi-Oh! game has exactly 2 players, not {len(out)}", loc)
    if game == "mtg" and not 2 <= len(out) <= 6:
        raise InputError(f"a Magic game here has 2 to 6 players, not {len(out)}", loc)
    return out


def _date(date: Any, where: str) -> dt.date:
    loc = f"{where}: date"
    if isinstance(date, dt.datetime):
        return date.date()
    if isinstance(date, dt.date):
        return date
    if isinstance(date, str):
        try:
            return dt.date.fromisoformat(date.strip())
        except ValueError:
            raise InputError(f"date must be a real date written YYYY-MM-DD, not {shorten(date)}", loc) from None
    raise InputError(f"date must be a date written YYYY-MM-DD, not {type_name(date)} ({shorten(date)})", loc)


def _life(raw: Any, game: str, players: list[str], where: str) -> dict[str, int]:
    default_life = 8000 if game == "ygo" else 20
    life = {p: default_life for p in players}
    if raw is None:
        return life
    if not isinstance(raw, Mapping):
        raise InputError(f"life must map players to life points (e.g. {{{players[0]}: 8000}}), not {type_name(raw)}",
                         f"{where}: life")
    for k, v in raw.items():
        if k not in players:
            raise InputError(f"{shorten(k)} is not one of the players ({', '.join(players)})", f"{where}: life")
        if not isinstance(v, int) or isinstance(v, bool) or v < 0 or v > 10**7:
            raise InputError(f"life points must be a whole number from 0 to 10000000, not {shorten(v)}",
                             f"{where}: life.{k}")
        life[k] = v
    return life


def _variants(raw: Any, where: str) -> dict[str, str]:
    loc = f"{where}: variants"
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise InputError(f"variants must be a mapping (e.g. {{end_declaration: chart}}), not {type_name(raw)}", loc)
    out: dict[str, str] = {}
    for k, v in raw.items():
        if k not in VARIANTS:
            raise InputError(f"unknown variant {shorten(k)}; known: {', '.join(sorted(VARIANTS))}", loc)
        if v not in VARIANTS[k]:
            raise InputError(f"variant {k} must be one of {', '.join(VARIANTS[k])}, not {shorten(v)}", f"{loc}.{k}")
        out[k] = v
    return out


def _teams(raw: Any, players: list[str], where: str) -> list[list[str]]:
    loc = f"{where}: teams"
    if raw is None or raw == []:
        return []
    if not isinstance(raw, list) or not all(isinstance(t, list) for t in raw):
        raise InputError(f"teams must be a list of teams, each a list of players (e.g. [[A, C], [B, D]]), "
                         f"not {type_name(raw)}", loc)
    seen: set[str] = set()
    for i, team in enumerate(raw):
        for p in team:
            if p not in players:
                raise InputError(f"{shorten(p)} is not one of the players ({', '.join(players)})", f"{loc}[{i}]")
            if p in seen:
                raise InputError(f"{p} is in more than one team", f"{loc}[{i}]")
            seen.add(p)
    if any(len(t) > 1 for t in raw):
        # parsed and checked, but no rule reads it yet: answering as if every
        # player played alone would be a confident wrong ruling (shared turns,
        # team priority and team APNAP order, CR 805.4, 805.5, 805.7, 810)
        raise NotModelled(f"{loc}: team play (Two-Headed Giant and other team variants, CR 805, 810: shared "
                          "turns, team priority, teams ordering their simultaneous triggers)")
    return [list(t) for t in raw]


def _custom_ygo(cd: Any, loc: str) -> Mapping[str, Any]:
    if not isinstance(cd, Mapping):
        raise InputError(f"a custom card must be a mapping with name, card_type and effects, not {type_name(cd)}", loc)
    d = dict(cd)
    if "effects" not in d:
        raise InputError(
            "custom cards need explicit 'effects' until the card-text reader exists "
            "(see docs/cards.md for the attributes)",
            loc,
        )
    return d


def card_kind(card: Card) -> str:
    """'a Normal Trap', 'a Quick-Play Spell', 'a monster' ..."""
    if card.card_type == "monster" or not card.property:
        return f"a {card.card_type}"
    prop = {"quickplay": "Quick-Play"}.get(card.property, card.property.capitalize())
    return f"a{'n' if prop[0] in 'AEIOU' else ''} {prop} {card.card_type.capitalize()}"


_ZONE_NAMES = {"hand": "the hand", "deck": "the Deck", "monster": "a Monster Zone", "spell_trap": "a Spell & Trap Zone",
               "graveyard": "the GY", "banished": "banishment", "field": "the Field Zone", "extra": "the Extra Deck"}


def _instances(cards_raw: list[Any], game: str, players: list[str], library: Library, where: str) -> list[CardInstance]:
    zones = V.YGO_ZONES if game == "ygo" else MTG_ZONES
    out: list[CardInstance] = []
    seen_ids: dict[str, int] = {}
    name_count: dict[str, int] = {}
    parsed: list[tuple[int, Mapping[str, Any], Card]] = []
    for i, cd in enumerate(cards_raw):
        loc = f"{where}: cards[{i}]"
        if not isinstance(cd, Mapping):
            raise InputError(f"each card must be a mapping with card, controller and zone "
                             f"(e.g. {{card: Sangan, controller: A, zone: hand}}), not {type_name(cd)}", loc)
        for key in cd:
            if key not in CARD_KEYS:
                import difflib

                close = difflib.get_close_matches(str(key), sorted(CARD_KEYS), n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else f"; known fields: {', '.join(sorted(CARD_KEYS))}"
                raise InputError(f"unknown field {shorten(str(key), 40)}{hint}", loc)
        name = _text_field(cd, "card", loc, "the card's name")
        card = library.get(name, f"{loc}.card")
        name_count[card.name] = name_count.get(card.name, 0) + 1
        parsed.append((i, cd, card))
    counters: dict[str, int] = {}
    for i, cd, card in parsed:
        loc = f"{where}: cards[{i}]"
        controller = _text_field(cd, "controller", loc, "the player who controls it (" + " or ".join(players) + ")")
        if controller not in players:
            raise InputError(f"controller {shorten(controller)} is not one of the players ({', '.join(players)})",
                             f"{loc}.controller")
        owner = cd.get("owner", controller)
        if owner is None:
            owner = controller
        if owner not in players:
            raise InputError(f"owner {shorten(owner)} is not one of the players ({', '.join(players)})", f"{loc}.owner")
        zone = _text_field(cd, "zone", loc, "where the card is: " + ", ".join(zones))
        if zone not in zones:
            raise InputError(f"zone {shorten(zone)} is not one of: {', '.join(zones)}", f"{loc}.zone")
        ident = cd.get("id")
        if ident is None:
            if name_count[card.name] == 1:
                ident = card.name
            else:
                counters[card.name] = counters.get(card.name, 0) + 1
                ident = f"{card.name}#{counters[card.name]}"
        elif not isinstance(ident, str):
            raise InputError(f"id must be a text (a handle such as jd1), not {type_name(ident)} ({shorten(ident)})"
                             + (" (write it in quotes)" if isinstance(ident, int | float) else ""), f"{loc}.id")
        if not ident.strip():
            raise InputError("id is empty; expected a handle such as jd1", f"{loc}.id")
        _check_name(ident, "the id", f"{loc}.id")
        if ident in seen_ids:
            raise InputError(f"duplicate id {shorten(ident)} (also cards[{seen_ids[ident]}]); give each copy its own id",
                             f"{loc}.id")
        seen_ids[ident] = i
        for flag in FLAGS:
            if flag in cd and not isinstance(cd[flag], bool):
                raise InputError(f"{flag} must be true or false, not {shorten(cd[flag])}", f"{loc}.{flag}")
        counters_raw = cd.get("counters")
        if counters_raw is not None and (not isinstance(counters_raw, Mapping) or not all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 1000 for v in counters_raw.values())):
            raise InputError("counters must map counter names to whole numbers (e.g. {spell: 2})", f"{loc}.counters")
        position = cd.get("position")
        position = _position(game, card, zone, position, f"{loc}.position")
        flags = tuple(k for k in ("special_summoned", "set_this_turn", "summoned_this_turn", "attacked",
                                  "face_down_at_start", "summoning_sick", "loyalty_activated")
                      if cd.get(k) is True)
        if game == "ygo":
            _check_ygo_place(card, zone, position, flags, loc)
            if owner != controller and zone not in ("monster", "spell_trap", "field"):
                raise InputError(f"a card in {_ZONE_NAMES.get(zone, zone)} is controlled by its owner "
                                 f"({owner}); only a card on the field can change control", f"{loc}.controller")
        if game == "mtg" and "attacked" in flags:
            raise InputError("in a Magic scenario the creatures in combat are given by the field attack "
                             "(attack: [{attacker: ..., target: ...}]), not by a card flag", f"{loc}.attacked")
        materials, card_counters = _ygo_counts(cd, game, loc)
        out.append(CardInstance(ident, card, controller, owner, zone, position, flags, materials, card_counters))
    return out


def _check_ygo_place(card: Card, zone: str, position: str | None, flags: tuple[str, ...], loc: str) -> None:
    """A Yu-Gi-Oh! card in a zone (and position) it can be in."""
    what = f"{card.name} ({card_kind(card)})"
    if card.card_type == "monster" and zone in ("spell_trap", "field"):
        raise InputError(f"{what} cannot be in {_ZONE_NAMES[zone]}; a monster on the field is in zone: monster",
                         f"{loc}.zone")
    if card.card_type != "monster" and zone == "monster":
        raise InputError(f"{what} cannot be in a Monster Zone; expected zone: "
                         f"{'field' if card.property == 'field' else 'spell_trap'}", f"{loc}.zone")
    if card.card_type != "monster" and zone == "extra":
        raise InputError(f"{what} cannot be in the Extra Deck", f"{loc}.zone")
    if card.property == "field" and zone == "spell_trap":
        raise InputError(f"{what} is placed in the Field Zone; expected zone: field", f"{loc}.zone")
    if zone == "field" and card.property != "field":
        raise InputError(f"only a Field Spell can be in the Field Zone; {what} goes in zone: spell_trap",
                         f"{loc}.zone")
    extra = next((k for k in card.kinds if k in EXTRA_DECK_KINDS), None)
    if extra is not None and zone in ("hand", "deck"):
        raise InputError(f"{card.name} is a {extra.capitalize()} Monster: it starts in the Extra Deck and "
                         f"returns there, it cannot be in {_ZONE_NAMES[zone]}; expected zone: extra", f"{loc}.zone")
    if extra is None and card.card_type == "monster" and zone == "extra":
        raise InputError(f"{card.name} is a Main Deck monster; it cannot be in the Extra Deck", f"{loc}.zone")
    if extra == "link" and position in ("face_up_defense", "face_down_defense"):
        raise InputError(f"{card.name} is a Link Monster: it is always in face-up Attack Position; "
                         "expected position: face_up_attack", f"{loc}.position")
    if "set_this_turn" in flags and position not in ("face_down", "face_down_defense"):
        raise InputError("set_this_turn needs a card Set on the field (position face_down or face_down_defense)",
                         f"{loc}.set_this_turn")
    if "summoned_this_turn" in flags and zone != "monster":
        raise InputError("summoned_this_turn needs a monster on the field (zone: monster)", f"{loc}.summoned_this_turn")


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
    if position is not None and not isinstance(position, str):
        raise InputError(f"position must be a text, not {type_name(position)} ({shorten(position)})", loc)
    if game == "ygo":
        if zone == "monster":
            allowed: tuple[str, ...] = ("face_up_attack", "face_up_defense", "face_down_defense")
            default = "face_up_attack"
        elif zone in ("spell_trap", "field"):
            allowed = ("face_up", "face_down")
            default = "face_down" if zone == "spell_trap" else "face_up"
        else:
            if position is not None:
                raise InputError(f"a card in {_ZONE_NAMES.get(zone, zone)} has no position; "
                                 "remove 'position' (positions are for cards on the field)", loc)
            return None
        if position is None:
            return default
        if position not in allowed:
            raise InputError(f"position {shorten(position)} is not one of: {', '.join(allowed)} "
                             f"(for a card in {_ZONE_NAMES.get(zone, zone)})", loc)
        return str(position)
    if zone == "battlefield":
        if position is None:
            return "untapped"
        if position not in MTG_POSITIONS:
            raise InputError(f"position {shorten(position)} is not one of: {', '.join(MTG_POSITIONS)}", loc)
        return str(position)
    if position is not None:
        raise InputError(f"a card in the {zone} has no position; remove 'position' "
                         "(positions are for cards on the battlefield)", loc)
    return None


def _attack(raw: Any, sc: Scenario, where: str) -> tuple[str, str] | None:
    if raw is None:
        return None
    loc = f"{where}: attack"
    if not isinstance(raw, Mapping):
        raise InputError(f"attack must be a mapping {{attacker: ..., target: ...}}, not {type_name(raw)}", loc)
    for key in raw:
        if key not in ("attacker", "target"):
            raise InputError(f"unknown field {shorten(str(key), 40)}; attack has attacker and target", loc)
    attacker = _text_field(raw, "attacker", loc, "the attacking monster's name or id")
    target = _text_field(raw, "target", loc, "the attacked monster's name or id, or 'direct'")
    att = sc.find_instances(attacker)
    if len(att) > 1:
        att = [c for c in att if c.zone == "monster" and c.controller == sc.turn_player]
    if len(att) != 1:
        raise InputError(f"attacker {shorten(attacker)} must name exactly one card of the scenario "
                         f"({', '.join(c.id for c in sc.cards if c.zone == 'monster') or 'no monster is on the field'})",
                         f"{loc}.attacker")
    a = att[0]
    if a.zone != "monster" or a.controller != sc.turn_player:
        raise InputError(f"the attacker must be a monster the turn player ({sc.turn_player}) controls on the field; "
                         f"{a.id} is in {_ZONE_NAMES.get(a.zone, a.zone)}, controlled by {a.controller}",
                         f"{loc}.attacker")
    if target.strip().lower() == "direct":
        tid = "direct"
    else:
        tg = sc.find_instances(target)
        if len(tg) > 1:
            tg = [c for c in tg if c.zone == "monster" and c.controller != sc.turn_player]
        if len(tg) != 1:
            raise InputError(f"target {shorten(target)} must name exactly one card of the scenario, or be 'direct'",
                             f"{loc}.target")
        if tg[0].zone != "monster" or tg[0].controller == sc.turn_player:
            raise InputError("the attack target must be a monster the opponent controls on the field", f"{loc}.target")
        tid = tg[0].id
    t = turn("ygo")
    if sc.point not in t.spans["battle.damage"] + ("bp_window", "bp_attack", "bp_battle"):
        raise InputError(f"an attack in progress needs phase inside the Battle Step or the Damage Step, "
                         f"not {t.public_name(sc.point)}", loc)
    if tid != "direct" and sc.point in ("ds_before", "ds_calc", "ds_after", "ds_end") \
            and sc.instance(tid).position == "face_down_defense":
        raise InputError("the attack target is flipped face-up before damage calculation (Konami \"Damage Step rules\": before damage calculation); "
                         "give its face-up position, or start at battle.damage.start", f"{loc}.target")
    return (a.id, tid)


def _check_position(sc: Scenario, where: str) -> None:
    if sc.game == "ygo":
        for p in sc.players:
            n = sum(1 for c in sc.cards if c.zone == "monster" and c.controller == p)
            if n > 5:
                raise InputError(f"{p} controls {n} monsters; there are 5 Monster Zones", f"{where}: cards")
            n = sum(1 for c in sc.cards if c.zone == "spell_trap" and c.controller == p)
            if n > 5:
                raise InputError(f"{p} controls {n} Spells/Traps; there are 5 Spell & Trap Zones", f"{where}: cards")
            n = sum(1 for c in sc.cards if c.zone == "field" and c.controller == p)
            if n > 1:
                raise InputError(f"{p} controls {n} Field Spells; there is 1 Field Zone", f"{where}: cards")
        if sc.point in turn("ygo").spans["battle.damage"] and sc.attack is None:
            raise InputError("a position in the Damage Step needs the attack in progress "
                             "(attack: {attacker: ..., target: ...})", f"{where}: attack")
    if sc.game == "mtg" and sc.point == "cleanup":
        hand = sum(1 for c in sc.cards if c.zone == "hand" and c.controller == sc.turn_player)
        if hand > MAX_HAND_SIZE:
            raise InputError(f"a position at the cleanup step is after its turn-based actions (CR 514.1): "
                             f"{sc.turn_player} would first discard down to {MAX_HAND_SIZE} cards, a choice; "
                             f"list the hand after the discard, or start at the end step and say it in history "
                             f"('{sc.turn_player} discards X for the hand size limit')", f"{where}: cards")


# ---------------------------------------------------------------- Magic: the combat of a position
# docs/scenarios.md, "Where a position begins", docs/scenarios.md "Where a position begins": a Magic
# position is after its step's turn-based action.  From the declare attackers
# step on that action is (or follows) the declaration of attackers (CR 508.1),
# from the declare blockers step on also the declaration of blockers (CR 509.1):
# the scenario must say them, in `attack`.
MTG_COMBAT_STEPS = ("combat_attackers", "combat_blockers", "combat_first_strike", "combat_damage", "combat_end")
# where combat can be without attackers (CR 508.8: the other steps are then skipped)
MTG_NO_ATTACK_POSSIBLE = ("combat_attackers", "combat_end")
MTG_AFTER_BLOCKERS = ("combat_blockers", "combat_first_strike", "combat_damage", "combat_end")
MAX_HAND_SIZE = 7  # CR 402.2


def _is_mtg_creature(inst: CardInstance) -> bool:
    return "creature" in inst.card.extra.get("types", ()) or inst.position == "face_down"


def _mtg_card(sc: Scenario, name: str, loc: str, what: str) -> CardInstance:
    found = sc.find_instances(name)
    if len(found) > 1:
        found = [c for c in found if c.zone == "battlefield"]
    if len(found) != 1:
        on_bf = ", ".join(c.id for c in sc.cards if c.zone == "battlefield") or "no card is on the battlefield"
        raise InputError(f"{what} {shorten(name)} must name exactly one card of the scenario ({on_bf})", loc)
    inst = found[0]
    if inst.zone != "battlefield" or not _is_mtg_creature(inst):
        raise InputError(f"{what} {inst.id} must be a creature on the battlefield (it is in the {inst.zone})", loc)
    return inst


def _mtg_combat(raw: Any, sc: Scenario, cards_raw: list[Any],
                where: str) -> list[tuple[str, str, tuple[str, ...]]] | None:
    """`attack` of a Magic scenario: a list of {attacker, target, blocked_by} ([] = no attackers)."""
    loc = f"{where}: attack"
    t = turn("mtg")
    if raw is None:
        if sc.point in MTG_NO_ATTACK_POSSIBLE and not any(
                c.zone == "battlefield" and c.controller == sc.turn_player and _is_mtg_creature(c) for c in sc.cards):
            # the active player controls no creature: none can be attacking (CR 508.1a, 506.4),
            # so the list is not in doubt; the blockers and damage steps were skipped (CR 508.8)
            return []
        if sc.point in MTG_COMBAT_STEPS:
            raise InputError(
                f"a position at {t.public_name(sc.point)} is after the declaration of attackers (CR 508.1): "
                "say which creatures attack, e.g. attack: [{attacker: Grizzly Bears, target: Bob}] "
                "(attack: [] if none does)", loc)
        return None
    if sc.point not in MTG_COMBAT_STEPS:
        raise InputError(f"attack gives the combat of a position from combat.attackers to combat.end, not at "
                         f"{t.public_name(sc.point)} (at combat.beginning say it in history: "
                         "'Alice declares attackers with ...')", loc)
    entries = [raw] if isinstance(raw, Mapping) else raw
    if not isinstance(entries, list):
        raise InputError(f"attack must be a list of attackers, each {{attacker: ..., target: ...}} "
                         f"(or [] for none), not {type_name(raw)}", loc)
    ap = sc.turn_player
    opponents = [p for p in sc.players if p != ap and not any(ap in tm and p in tm for tm in sc.teams)]
    out: list[tuple[str, str, tuple[str, ...]]] = []
    seen: set[str] = set()
    blockers_seen: set[str] = set()
    for i, e in enumerate(entries):
        eloc = f"{loc}[{i}]"
        if not isinstance(e, Mapping):
            raise InputError(f"each attacker must be a mapping {{attacker: ..., target: ...}}, not {type_name(e)}", eloc)
        for key in e:
            if key not in ("attacker", "target", "blocked_by"):
                raise InputError(f"unknown field {shorten(str(key), 40)}; an attacker has attacker, target "
                                 "and blocked_by", eloc)
        a = _mtg_card(sc, _text_field(e, "attacker", f"{where}: attack", "the attacking creature's name or id"),
                      f"{eloc}.attacker", "the attacker")
        if a.controller != ap:
            raise InputError(f"the attacker {a.id} must be controlled by the active player ({ap}), "
                             f"not {a.controller} (CR 508.1a)", f"{eloc}.attacker")
        if a.id in seen:
            raise InputError(f"{a.id} is listed twice as an attacker; a creature attacks once (CR 508.1a)", eloc)
        seen.add(a.id)
        target = e.get("target")
        if target is None:
            if len(opponents) != 1:
                raise InputError(f"say which player {a.id} attacks (target: one of {', '.join(opponents)})",
                                 f"{eloc}.target")
            target = opponents[0]
        if not isinstance(target, str) or target not in sc.players:
            if isinstance(target, str) and sc.find_instances(target):
                raise NotModelled(f"attacks on planeswalkers and battles ({a.id} attacking {target})")
            raise InputError(f"target {shorten(target)} must be a player {a.id} attacks "
                             f"({', '.join(opponents)})", f"{eloc}.target")
        if target not in opponents:
            raise InputError(f"{a.id} can only attack an opponent of {ap} ({', '.join(opponents)}), "
                             f"not {target} (CR 508.1b)", f"{eloc}.target")
        blocks_raw = e.get("blocked_by") or []
        if isinstance(blocks_raw, str):
            blocks_raw = [blocks_raw]
        if not isinstance(blocks_raw, list):
            raise InputError(f"blocked_by must be a list of the creatures blocking {a.id}, not {type_name(blocks_raw)}",
                             f"{eloc}.blocked_by")
        if blocks_raw and sc.point not in MTG_AFTER_BLOCKERS:
            raise InputError("blockers are declared in the declare blockers step (CR 509.1); at combat.attackers "
                             "no creature blocks yet: remove blocked_by, or start at combat.blockers", f"{eloc}.blocked_by")
        blockers = []
        for j, b_raw in enumerate(blocks_raw):
            bloc = f"{eloc}.blocked_by[{j}]"
            if not isinstance(b_raw, str):
                raise InputError(f"a blocker is named by its name or id, not {type_name(b_raw)}", bloc)
            b = _mtg_card(sc, b_raw, bloc, "the blocker")
            if b.controller != target:
                raise InputError(f"{b.id} can only block a creature attacking its controller ({b.controller}); "
                                 f"{a.id} attacks {target} (CR 509.1a)", bloc)
            if b.id in blockers_seen:
                raise InputError(f"{b.id} blocks more than one creature; a creature blocks one (CR 509.1a)", bloc)
            blockers_seen.add(b.id)
            blockers.append(b.id)
        out.append((a.id, target, tuple(blockers)))
    if not out and sc.point in ("combat_blockers", "combat_first_strike", "combat_damage"):
        raise InputError(f"with no attackers the declare blockers and combat damage steps are skipped (CR 508.8): "
                         f"there is no position at {t.public_name(sc.point)}; start at combat.end", loc)
    if sc.point == "combat_first_strike":
        fighters = {x for a, _, bs in out for x in (a, *bs)}
        if not any(k in sc.instance(c).card.extra.get("keywords", ()) for c in fighters
                   for k in ("first_strike", "double_strike")):
            raise InputError("there is a first-strike combat damage step only when an attacking or blocking "
                             "creature has first strike or double strike (CR 510.4)", loc)
    _tap_attackers(sc, out, cards_raw)
    return out


def _tap_attackers(sc: Scenario, combat: list[tuple[str, str, tuple[str, ...]]], cards_raw: list[Any]) -> None:
    """After the declare attackers step the attackers are tapped (CR 508.1f) unless they
    have vigilance: that is their position when no position is given."""
    import dataclasses

    if sc.point == "combat_attackers":
        return  # the position is after the declaration, which chainjudge makes: they tap then
    attackers = {a for a, _, _ in combat}
    for i, inst in enumerate(sc.cards):
        given = isinstance(cards_raw[i], Mapping) and cards_raw[i].get("position") is not None
        if inst.id in attackers and not given and "vigilance" not in inst.card.extra.get("keywords", ()):
            sc.cards[i] = dataclasses.replace(inst, position="tapped")
