"""Search-as-you-type over every card a scenario may name: the bundled library
and the full card lists the server found (where ``chainjudge cards`` finds them)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from logic.text import normalise


def _norm(s: str) -> str:
    return " ".join(normalise(s).lower().replace("’", "'").replace('"', "").split())


@dataclass(frozen=True)
class Entry:
    name: str
    game: str
    kind: str  # ygo: monster / spell / trap (with property); mtg: the type line
    source: str  # "library" (hand-checked attributes) or "card list" (read from its text)
    text: str = ""
    aliases: tuple[str, ...] = ()

    def as_json(self, with_text: bool = True) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "game": self.game, "type": self.kind, "source": self.source}
        if self.aliases:
            d["aliases"] = list(self.aliases)
        if with_text and self.text:
            d["text"] = self.text
        return d


class CardIndex:
    def __init__(self, ygo_list: Path | None, mtg_list: Path | None) -> None:
        self.entries: dict[str, list[Entry]] = {"ygo": [], "mtg": []}
        self.lists = {"ygo": str(ygo_list) if ygo_list else None, "mtg": str(mtg_list) if mtg_list else None}
        self._load(ygo_list, mtg_list)
        self._norms = {g: [(_norm(e.name), e) for e in es] for g, es in self.entries.items()}

    def _load(self, ygo_list: Path | None, mtg_list: Path | None) -> None:
        from logic.cards import bundled

        seen: dict[str, set[str]] = {"ygo": set(), "mtg": set()}
        texts: dict[str, str] = {}
        if ygo_list is not None:
            from logic import carddata

            for r in carddata.iter_records(ygo_list):
                texts[r.name] = r.text
        for game in ("ygo", "mtg"):
            try:
                lib = bundled(game)
            except (FileNotFoundError, ImportError):
                continue
            for c in lib.cards.values():
                kind = c.card_type + (f" ({c.property})" if c.property else "")
                self.entries[game].append(Entry(c.name, game, kind, "library", texts.get(c.name, ""),
                                                tuple(c.aliases)))
                seen[game].add(c.name)
        if ygo_list is not None:
            from logic import carddata

            for r in carddata.iter_records(ygo_list):
                if r.name not in seen["ygo"]:
                    kind = r.card_type + (f" ({r.property})" if r.property else "")
                    self.entries["ygo"].append(Entry(r.name, "ygo", kind, "card list", r.text))
                    seen["ygo"].add(r.name)
        if mtg_list is not None:
            from logic import mtg_cardlist

            for rec in mtg_cardlist.iter_records(mtg_list):
                name = str(rec.get("name") or "")
                if name and name not in seen["mtg"]:
                    text = str(rec.get("oracle_text") or "")
                    self.entries["mtg"].append(Entry(name, "mtg", str(rec.get("type_line") or ""), "card list", text))
                    seen["mtg"].add(name)

    def count(self, game: str) -> int:
        return len(self.entries.get(game, []))

    def search(self, query: str, game: str = "ygo", limit: int = 20, in_text: bool = False) -> list[Entry]:
        """Exact name first, then names starting with the query, then a word
        starting with it, then containing it; then (with ``in_text``) texts
        containing it; close spellings when nothing else matches."""
        q = _norm(query)
        if not q:
            return []
        ranked: list[tuple[int, int, str, Entry]] = []
        for n, e in self._norms.get(game, []):
            alias = any(_norm(a) == q for a in e.aliases)
            if n == q or alias:
                rank = 0
            elif n.startswith(q):
                rank = 1
            elif f" {q}" in f" {n}":
                rank = 2
            elif q in n:
                rank = 3
            elif in_text and q in e.text.lower():
                rank = 4
            else:
                continue
            ranked.append((rank, 0 if e.source == "library" else 1, n, e))
        ranked.sort(key=lambda t: t[:3])
        out = [t[3] for t in ranked[:limit]]
        if not out and len(q) >= 3:
            names = {n: e for n, e in self._norms.get(game, [])}
            out = [names[n] for n in difflib.get_close_matches(q, list(names), n=min(limit, 8), cutoff=0.7)]
        return out
