"""The full Yu-Gi-Oh! card list (one JSON object a line), read at run time.

The list is not part of the repository: it is found through ``--cards FILE``,
the ``CHAINJUDGE_CARDS`` environment variable, the list installed by
``chainjudge cards import`` / ``update`` (``logic/cardstore.py``), or the
shared data folder next to the checkout.  From it we take facts (type, property, ATK/DEF, level,
attribute) and the text a judge may want to see; the bundled library records
only the identifiers and the SHA-256 of the text each entry was read from
(``logic/library/ygo-stamps.yaml``, made by ``python -m logic.carddata stamp``).
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from logic.cache import find_list
from logic.cardstore import installed

# libyaml where it is installed (ten times faster on the bundled libraries), else the pure-Python loader
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

ENV = "CHAINJUDGE_CARDS"


@dataclass(frozen=True)
class CardRecord:
    name: str
    konami_id: int | None
    password: int | None
    card_type: str
    property: str | None
    attribute: str | None
    race: str | None
    kinds: tuple[str, ...]
    level: int | None
    atk: int | None
    defense: int | None
    text: str
    text_ja: str
    pendulum_text: str = ""  # the Pendulum Effect of a Pendulum Monster

    @property
    def sha256(self) -> str:
        return text_digest(self.text)


def text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def default_path() -> Path | None:
    """Where the card list is, if anywhere: $CHAINJUDGE_CARDS, else the list `chainjudge cards import`
    installed, else the shared list next to the checkout."""
    env = os.environ.get(ENV)
    if env:
        return Path(env)
    mine = installed("ygo")  # `chainjudge cards import` / `update`
    if mine is not None:
        return mine
    return find_list(ENV, ("../shared/data/ygo-cards.jsonl", "shared/data/ygo-cards.jsonl"))


def _record(d: dict[str, Any]) -> CardRecord:
    type_line = str(d.get("monster_type_line") or "")
    parts = [p.strip() for p in type_line.split("/") if p.strip()]
    race = parts[0].lower().replace(" ", "_").replace("-", "_") if parts else None
    kinds = tuple(p.lower() for p in parts[1:])
    prop = d.get("property")
    if prop:
        prop = str(prop).lower().replace("-", "").replace(" ", "")
    level = d.get("level")  # Xyz Ranks and Link Ratings are not Levels
    return CardRecord(
        name=str(d["name"]),
        konami_id=d.get("konami_id"),
        password=d.get("password"),
        card_type=str(d.get("card_type", "")).lower(),
        property=prop,
        attribute=(str(d["attribute"]).lower() if d.get("attribute") else None),
        race=race,
        kinds=kinds,
        level=level,
        atk=d.get("atk") if isinstance(d.get("atk"), int) else None,
        defense=d.get("def") if isinstance(d.get("def"), int) else None,
        text=str(d.get("text") or ""),
        text_ja=str(d.get("text_ja") or ""),
        pendulum_text=str(d.get("pendulum_effect") or ""),
    )


def iter_records(path: Path) -> Iterator[CardRecord]:
    from logic.files import json_lines

    for _, rec in json_lines(path):
        yield _record(rec)


@cache
def load(path: Path) -> dict[str, CardRecord]:
    return {r.name: r for r in iter_records(path)}


@cache
def stamps() -> dict[str, dict[str, Any]]:
    """Facts about the bundled library's cards, recorded from the card list."""
    try:
        text = resources.files("logic.library").joinpath("ygo-stamps.yaml").read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    data = yaml.load(text, Loader=_YAML_LOADER) or {}
    return dict(data)


def make_stamps(path: Path, names: list[str]) -> dict[str, dict[str, Any]]:
    records = load(path)
    out: dict[str, dict[str, Any]] = {}
    for name in names:
        r = records.get(name)
        if r is None:
            raise KeyError(name)
        entry: dict[str, Any] = {
            "konami_id": r.konami_id,
            "password": r.password,
            "text_sha256": r.sha256,
            "card_type": r.card_type,
        }
        if r.property:
            entry["property"] = r.property
        if r.card_type == "monster":
            entry.update(
                {"attribute": r.attribute, "race": r.race, "kinds": list(r.kinds), "level": r.level,
                 "atk": r.atk, "def": r.defense}
            )
        out[name] = entry
    return out


def main(argv: list[str]) -> int:
    if not argv or argv[0] != "stamp":
        print("usage: python -m logic.carddata stamp [CARDS.jsonl]", file=sys.stderr)
        return 2
    path = Path(argv[1]) if len(argv) > 1 else default_path()
    if path is None:
        print("card list not found: give its path or set CHAINJUDGE_CARDS", file=sys.stderr)
        return 2
    lib_text = resources.files("logic.library").joinpath("ygo.yaml").read_text(encoding="utf-8")
    names = [d["name"] for d in yaml.safe_load(lib_text)]
    data = make_stamps(path, names)
    target = Path(__file__).parent / "library" / "ygo-stamps.yaml"
    header = (
        "# Generated by `python -m logic.carddata stamp` from the official card list\n"
        "# (DawnbrandBots/yaml-yugi).  Facts only -- identifiers, types, stats and the\n"
        "# SHA-256 of the official text each library entry was read from.\n"
    )
    target.write_text(header + yaml.safe_dump(data, sort_keys=True, allow_unicode=True), encoding="utf-8")
    print(f"stamped {len(data)} cards into {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
