"""Magic card lists: any card by name, its abilities read from its Oracle text.

A card list is either Scryfall's bulk "Oracle cards" file (one JSON array of
card objects, the file users download from https://scryfall.com/docs/api/bulk-data)
or JSON lines with the same fields, one card a line.  Of each card we read
``name``, ``type_line``, ``oracle_text``, ``mana_cost``, ``power``,
``toughness``, ``loyalty``, ``keywords`` and, for cards of several faces
(split, adventure, modal double-faced, transforming, flip cards),
``card_faces`` with the same fields per face.

The list is found through ``--cards FILE`` (the option the Yu-Gi-Oh! list
uses: the two are told apart by their fields, see :func:`game_of`) or the
``CHAINJUDGE_MTG_CARDS`` environment variable.  Every card is read by
:func:`logic.mtg_cards.derive`; what the reader cannot model is kept with the
card (``Effect.unmodelled``, ``Card.unmodelled``), never dropped.  The
derivations are cached as JSON beside the Yu-Gi-Oh! ones (``~/.cache/chainjudge``
or ``$CHAINJUDGE_CACHE``), keyed by the SHA-256 of the card list and of the
reader's code.  The bundled library's hand-checked entries override the list
(``logic/scenario.py``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from logic.cache import cache_dir, file_digest, find_list
from logic.cards import Card
from logic.cardstore import installed
from logic.errors import InputError, NotModelled

ENV = "CHAINJUDGE_MTG_CARDS"
FIELDS = ("name", "type_line", "oracle_text", "mana_cost", "power", "toughness", "loyalty", "keywords", "layout")
FACE_FIELDS = ("name", "type_line", "oracle_text", "mana_cost", "power", "toughness", "loyalty")


# ---------------------------------------------------------------- which game a list is


@cache
def _game_of(path: str, mtime: float) -> str:
    with open(path, encoding="utf-8", errors="replace") as fh:
        head = fh.read(1 << 16)
    stripped = head.lstrip("\ufeff \t\r\n")
    if stripped.startswith("["):
        return "mtg"  # Scryfall's bulk files are JSON arrays; the Yu-Gi-Oh! list is JSON lines
    first = stripped.split("\n", 1)[0]
    try:
        rec = json.loads(first)
    except ValueError:
        return "unknown"
    if not isinstance(rec, dict):
        return "unknown"
    if "oracle_text" in rec or "card_faces" in rec or ("type_line" in rec and "card_type" not in rec):
        return "mtg"
    if "card_type" in rec or "konami_id" in rec or "password" in rec:
        return "ygo"
    return "unknown"


def game_of(path: str | Path) -> str:
    """``"mtg"``, ``"ygo"`` or ``"unknown"``: which game's card list a file is, by its fields."""
    p = Path(path)
    try:
        if not p.is_file():
            return "unknown"  # a FIFO or a device is never opened here (reading it would not end)
        return _game_of(str(p.resolve()), p.stat().st_mtime)
    except OSError:
        return "unknown"


def list_path(cards_file: str | Path | None) -> Path | None:
    """The Magic card list to use: ``--cards FILE`` if it is one, else ``$CHAINJUDGE_MTG_CARDS``."""
    if cards_file is not None:
        p = Path(cards_file)
        if not p.exists():
            raise InputError("the card list was not found", str(cards_file))
        if game_of(p) == "mtg":
            return p
    env = os.environ.get(ENV)
    if env:
        p = Path(env)
        if not p.exists():
            raise InputError(f"the Magic card list named by ${ENV} was not found", env)
        if game_of(p) == "ygo":
            raise InputError(f"${ENV} names a Yu-Gi-Oh! card list, not a Magic one (give that one with "
                             "CHAINJUDGE_CARDS)", env)
        return p
    from logic.cardstore import installed

    return installed("mtg")  # `chainjudge cards import` / `update`


# ---------------------------------------------------------------- reading the file


def iter_records(path: Path) -> Iterator[dict[str, Any]]:
    """The card objects of a card list: a JSON array (Scryfall bulk data) or JSON lines.

    Scryfall writes its bulk files one card a line inside the array, so both
    are read line by line; an array written otherwise is read whole."""
    with open(path, encoding="utf-8") as fh:
        head = fh.read(1 << 16)
        fh.seek(0)
        is_array = head.lstrip("\ufeff \t\r\n").startswith("[")
        for number, raw in enumerate(fh, 1):
            line = raw.strip().lstrip("\ufeff")
            if is_array:
                if line in ("[", "]", ""):
                    continue
                line = line.removeprefix("[").removesuffix("]").rstrip().removesuffix(",")
                if not line:
                    continue
            elif not line:
                continue
            try:
                rec = json.loads(line)
            except ValueError:
                if is_array:
                    yield from _whole_array(path)
                    return
                raise InputError(f"line {number} is not a JSON object (a card list has one card a line, "
                                 "or is Scryfall's bulk JSON array)", str(path)) from None
            if isinstance(rec, dict):
                yield rec


def _whole_array(path: Path) -> Iterator[dict[str, Any]]:
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except ValueError as exc:
        raise InputError(f"not valid JSON: {exc}", str(path)) from None
    if not isinstance(data, list):
        raise InputError("a Scryfall card file is a JSON array of card objects", str(path))
    yield from (d for d in data if isinstance(d, dict))


def _int_or_text(v: Any) -> int | str | None:
    if v is None or isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    s = str(v).strip()
    return int(s) if s.isdigit() else (s or None)


def card_entry(rec: Mapping[str, Any]) -> dict[str, Any]:
    """One record of the list as a custom-card mapping of the Magic schema
    (``logic.mtg_cards.parse_mtg_card``), its abilities read from the text.

    A card of several faces is read from its first face; the other faces'
    texts are kept as unmodelled parts of the card.  A record that is no card
    a player can have in a game (a token, a scheme, an emblem: its type line
    names no card type) gives ``{"name": ..., "error": ...}``."""
    from logic.mtg_cards import derive

    name = str(rec.get("name") or "").strip()
    if not name:
        return {"name": "", "error": "a record without a name"}
    faces = [f for f in rec.get("card_faces") or [] if isinstance(f, Mapping)]
    front: Mapping[str, Any] = rec
    aliases: list[str] = []
    other_faces: list[str] = []
    if faces and not rec.get("oracle_text"):
        front = {**{k: rec.get(k) for k in FACE_FIELDS}, **{k: v for k, v in faces[0].items() if v is not None}}
        for f in faces:
            fname = str(f.get("name") or "").strip()
            if fname and fname != name:
                aliases.append(fname)
        for f in faces[1:]:
            words = str(f.get("oracle_text") or "").replace("\n", " ").strip()
            other_faces.append(f"other face: {f.get('name')} ({f.get('type_line')}): {words}")
    face_name = str(front.get("name") or name).split(" // ")[0].strip()
    type_line = str(front.get("type_line") or rec.get("type_line") or "").split(" // ")[0].strip()
    text = str(front.get("oracle_text") or "")
    entry: dict[str, Any] = {
        "name": name,
        "type_line": type_line,
        "mana_cost": front.get("mana_cost") or None,
        "power": _int_or_text(front.get("power")),
        "toughness": _int_or_text(front.get("toughness")),
        "loyalty": _int_or_text(front.get("loyalty")),
        "text": text,
    }
    if aliases:
        entry["aliases"] = aliases
    try:
        derived = derive(face_name, type_line, text, f"card list ({name})",
                         listed_keywords=[str(k) for k in rec.get("keywords") or []])
    except (InputError, NotModelled) as exc:
        return {"name": name, "aliases": aliases, "error": str(exc)}
    entry["effects"] = derived["effects"]
    entry["keywords"] = list(derived["keywords"])
    entry["protection"] = list(derived["protection"])
    entry["unmodelled"] = list(derived.get("unmodelled", ())) + other_faces
    entry["keywords_read"] = list(derived.get("keywords_read", ()))
    return entry


# ---------------------------------------------------------------- the derived list, cached


def _cache_dir() -> Path:
    return cache_dir()


def reader_digest() -> str:
    """Digest of what a derivation depends on: the reader and this module."""
    from logic import mtg_cards

    h = hashlib.sha256()
    for mod in (mtg_cards.__file__, __file__):
        h.update(Path(mod).read_bytes())
    return h.hexdigest()[:16]




class MtgCardList:
    """Every card of a Magic card list, with the attributes read from its text."""

    def __init__(self, raw: dict[str, dict[str, Any]], source: str, timings: dict[str, float]) -> None:
        self._raw = raw
        self._built: dict[str, Card] = {}
        self.source = source
        self.timings = timings
        self._index: dict[str, str] = {}
        for key in raw:
            self._index.setdefault(key.lower(), key)
        for key, d in raw.items():
            for a in d.get("aliases") or []:
                self._index.setdefault(str(a).lower(), key)

    def __len__(self) -> int:
        return len(self._raw)

    def names(self) -> list[str]:
        return list(self._raw)

    def entry(self, name: str) -> dict[str, Any] | None:
        key = self._index.get(name.strip().lower())
        return self._raw[key] if key is not None else None

    def error(self, name: str) -> str | None:
        """Why a named record of the list cannot be a card in a game, if it cannot."""
        d = self.entry(name)
        return str(d["error"]) if d is not None and "error" in d else None

    def get(self, name: str) -> Card | None:
        """The card named ``name`` (or one of its faces), read from its text; None if absent or no card."""
        d = self.entry(name)
        if d is None or "error" in d:
            return None
        key = str(d["name"])
        if key not in self._built:
            from logic.mtg_cards import CARD_FIELDS, parse_mtg_card

            fields = {k: v for k, v in d.items() if k in CARD_FIELDS}
            self._built[key] = parse_mtg_card(fields, f"card list {self.source}", origin="derived")
        return self._built[key]

    def __iter__(self) -> Iterator[Card]:
        for key in self._raw:
            c = self.get(key)
            if c is not None:
                yield c


def _slim(rec: Mapping[str, Any]) -> dict[str, Any]:
    """The fields the reader takes (a Scryfall object holds many more)."""
    out = {k: rec[k] for k in FIELDS if k in rec}
    if rec.get("card_faces"):
        out["card_faces"] = [{k: f[k] for k in FACE_FIELDS if k in f} for f in rec["card_faces"]
                             if isinstance(f, Mapping)]
    return out


def _derive_all(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Read every record, in several processes when there are many (order kept)."""
    n = min(4, os.cpu_count() or 1)
    if n > 1 and len(records) >= 2000:
        try:
            from concurrent.futures import ProcessPoolExecutor

            with ProcessPoolExecutor(max_workers=n) as pool:
                return list(pool.map(card_entry, records, chunksize=250))
        except (OSError, RuntimeError):
            pass  # no processes here: do it in this one
    return [card_entry(r) for r in records]


def load(path: str | Path, use_cache: bool = True) -> MtgCardList:
    """Read every card of a Magic card list (from the cache when it is there)."""
    t0 = time.perf_counter()
    path = Path(path)
    try:
        key = f"{file_digest(path)[:24]}-m{reader_digest()}"
    except OSError as exc:
        raise InputError(f"cannot read the card list ({exc.strerror or exc})", str(path)) from None
    cpath = _cache_dir() / f"mtg-derived-{key}.json"
    t_hash = time.perf_counter() - t0
    if use_cache:
        from logic.textreader import read_cache

        cached = read_cache(cpath, key, field=None)  # a stale, cut or odd cache file is rebuilt
        if cached is not None:
            return MtgCardList(cached, f"cache {cpath}",
                               {"hash_s": t_hash, "load_s": time.perf_counter() - t0 - t_hash})
    raw: dict[str, dict[str, Any]] = {}
    try:
        records = [_slim(rec) for rec in iter_records(path)]
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read the card list ({exc})", str(path)) from None
    for d in _derive_all(records):
        if d["name"] and (d["name"] not in raw or ("error" in raw[d["name"]] and "error" not in d)):
            raw[d["name"]] = d  # the first record of a name, unless only a later one is a card
    t_derive = time.perf_counter() - t0 - t_hash
    if use_cache:
        try:
            from logic.textreader import write_cache

            write_cache(cpath, {"key": key, "file": str(path), "cards": raw})
            for old in cpath.parent.glob(f"mtg-derived-{key.split('-')[0]}-*.json"):
                if old != cpath:
                    old.unlink(missing_ok=True)  # derivations by an earlier reader
        except OSError:
            pass
    return MtgCardList(raw, f"derived from {path}", {"hash_s": t_hash, "derive_s": t_derive})


@cache
def _load_cached(path: str, mtime: float) -> MtgCardList:
    return load(Path(path))


def library_for(cards_file: str | Path | None) -> MtgCardList | None:
    """The Magic card list for ``--cards FILE`` / ``$CHAINJUDGE_MTG_CARDS``, or None."""
    p = list_path(cards_file)
    if p is None:
        return None
    return _load_cached(str(p.resolve()), p.stat().st_mtime)


class DerivedMtgCard:
    """A card taken from the card list, as a scenario lists it (``Scenario.derived``)."""

    def __init__(self, card: Card) -> None:
        self.card = card

    def not_modelled(self) -> list[str]:
        """"<card>, <effect>: <words>" for every part of the card the reader could not model."""
        out = []
        for index, words in self.card.unmodelled_parts():
            where = f"ability {index}" if index is not None else "card text"
            out.append(f"{self.card.name}, {where} ({words})")
        return out


# ---------------------------------------------------------------- coverage

# aspects that say when an ability can be used or what it triggers on: an
# ability with one of these unread is "unread" (its timing is not known)
TIMING_ASPECTS = ("trigger event", "timing", "activation zone")


def _reason(part: str, names: list[str]) -> str:
    """An unmodelled part as a reason shared by many cards: its aspect and its
    opening words, the card's name as ~ and numbers and mana as N."""
    aspect, _, words = part.partition(": ")
    w = words
    for n in sorted({x for x in names if x}, key=len, reverse=True):
        w = w.replace(n, "~")
    w = re.sub(r"\{[^}]*\}", "{N}", w)
    w = re.sub(r"\b\d+\b", "N", w)
    return f"{aspect}: {' '.join(w.split()[:5])}".rstrip()


def coverage(lib: MtgCardList) -> dict[str, Any]:
    """How much of a card list the reader reads, ability by ability.

    An ability is each keyword ability, each ability of the card (a spell's
    own effect, activated, mana, loyalty and triggered abilities) and each
    piece of text that is no such ability (a static ability, a chapter, another
    face).  It is *fully read* when nothing of it is unmodelled, *partly read*
    when its kind and timing are read but some part (a target, a cost, what it
    does) is not, and *unread* when what makes it usable or trigger is not
    read, or it is text the model has no place for."""
    counts = {"fully": 0, "partly": 0, "unread": 0}
    reasons: dict[str, int] = {}
    aspects: dict[str, int] = {}
    cards: list[dict[str, Any]] = []
    not_cards: list[dict[str, str]] = []
    card_counts = {"cards": 0, "fully": 0}
    for key in lib.names():
        d = lib.entry(key)
        assert d is not None
        if "error" in d:
            not_cards.append({"name": key, "why": str(d["error"])})
            continue
        card_counts["cards"] += 1
        names = [key, *(d.get("aliases") or []), key.split(",")[0], key.split(" // ")[0]]
        abilities: list[dict[str, Any]] = []
        for kw in d.get("keywords_read") or []:
            abilities.append({"ability": f"keyword {kw}", "status": "fully", "unmodelled": []})
        for i, e in enumerate(d.get("effects") or []):
            parts = list(e.get("unmodelled") or [])
            if e.get("kind") == "card" and not parts and "instant" not in d["type_line"].lower() \
                    and "sorcery" not in d["type_line"].lower():
                continue  # casting a permanent: no text of its own
            if not parts:
                status = "fully"
            elif any(p.split(":")[0] in TIMING_ASPECTS for p in parts):
                status = "unread"
            else:
                status = "partly"
            abilities.append({"ability": f"{e.get('kind')} {e.get('summary', '')}".strip(), "index": i + 1,
                              "status": status, "unmodelled": parts})
        for part in d.get("unmodelled") or []:
            if part.startswith("characteristic:"):
                continue  # said by the card's numbers, and by its static ability when there is one
            abilities.append({"ability": "text", "status": "unread", "unmodelled": [part]})
        for a in abilities:
            counts[a["status"]] += 1
            for p in a["unmodelled"]:
                r = _reason(p, names)
                reasons[r] = reasons.get(r, 0) + 1
                asp = p.split(":")[0]
                aspects[asp] = aspects.get(asp, 0) + 1
        if all(a["status"] == "fully" for a in abilities):
            card_counts["fully"] += 1
        if any(a["status"] != "fully" for a in abilities):
            cards.append({"name": key, "abilities": [a for a in abilities if a["status"] != "fully"]})
    total = sum(counts.values())
    return {
        "source": lib.source,
        "cards": card_counts["cards"],
        "cards_fully_read": card_counts["fully"],
        "not_cards": not_cards,
        "abilities": total,
        "fully_read": counts["fully"],
        "partly_read": counts["partly"],
        "unread": counts["unread"],
        "aspects": dict(sorted(aspects.items(), key=lambda kv: (-kv[1], kv[0]))),
        "reasons": dict(sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))),
        "not_fully_read": cards,
    }


def coverage_text(cov: dict[str, Any], top: int = 25) -> str:
    n = cov["abilities"] or 1
    lines = [
        f"Magic card list: {cov['source']}",
        f"cards: {cov['cards']} ({cov['cards_fully_read']} fully read, {100 * cov['cards_fully_read'] / max(1, cov['cards']):.1f}%)"
        + (f"; {len(cov['not_cards'])} records are no card" if cov["not_cards"] else ""),
        f"abilities: {cov['abilities']}",
        f"  fully read   {cov['fully_read']:6d}  {100 * cov['fully_read'] / n:5.1f}%",
        f"  partly read  {cov['partly_read']:6d}  {100 * cov['partly_read'] / n:5.1f}%",
        f"  unread       {cov['unread']:6d}  {100 * cov['unread'] / n:5.1f}%",
        "unmodelled parts by aspect:",
    ]
    lines += [f"  {v:6d}  {k}" for k, v in cov["aspects"].items()]
    lines.append(f"most frequent reasons (of {len(cov['reasons'])}; every one is listed by --json):")
    lines += [f"  {v:6d}  {k}" for k, v in list(cov["reasons"].items())[:top]]
    return "\n".join(lines)


def default_path() -> Path | None:
    """The Magic card list: $CHAINJUDGE_MTG_CARDS, else the shared sample next to the checkout."""
    env = os.environ.get(ENV)
    if env:
        return Path(env)
    mine = installed("mtg")  # `chainjudge cards import` / `update`
    if mine is not None:
        return mine
    return find_list(ENV, ("../shared/data/mtg-cards-sample.jsonl", "../../shared/data/mtg-cards-sample.jsonl",
                           "shared/data/mtg-cards-sample.jsonl"))
