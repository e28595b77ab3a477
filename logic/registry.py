"""The rule registry: every named rule of the encodings, read from the
``%@rule / %@text / %@source [/ %@kind]`` comment blocks (encodings/README.md).

A rule's guard atom is ``rule(<id with dots as underscores>)``.  Kinds:
``game`` (default: a rule of the game, may be blamed in an explanation),
``structural`` (the model's own bookkeeping: always on), ``bound`` (a search
bound, not a rule of the game: an answer that depends on it says so).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

ENCODINGS = "chainjudge_encodings"  # the encodings/ folder, installed under this name
_GUARD = re.compile(r"\brule\(([a-z_][a-z0-9_]*)\)")


@dataclass(frozen=True)
class Rule:
    id: str
    text: str
    source: str
    kind: str
    file: str
    line: int
    body: str = ""

    @property
    def atom(self) -> str:
        return guard_name(self.id)

    def as_dict(self) -> dict[str, str]:
        return {"rule": self.id, "text": self.text, "source": self.source}


def guard_name(rule_id: str) -> str:
    return rule_id.replace(".", "_")


def encodings_dir() -> Path:
    return Path(str(resources.files(ENCODINGS)))


def lp_files(game: str) -> list[Path]:
    """The encoding files of a game, kernel first (checks excluded)."""
    base = encodings_dir()
    files = sorted((base / "core").glob("*.lp"))
    files += sorted((base / game).glob("*.lp"))
    return files


def all_lp_files() -> Iterator[Path]:
    base = encodings_dir()
    yield from sorted(base.rglob("*.lp"))


def parse_file(path: Path) -> list[Rule]:
    rel = str(path.relative_to(encodings_dir())) if path.is_relative_to(encodings_dir()) else str(path)
    from solver import sources

    return parse_text(sources.text(path), rel)


def parse_text(text: str, rel: str) -> list[Rule]:
    """The rule blocks of a program text (``rel`` names its file in the registry)."""
    rules: list[Rule] = []
    current: dict[str, str] = {}
    start = 0
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        m = re.match(r"%@(rule|text|source|kind)\s+(.*)$", line)
        if m:
            key, value = m.group(1), m.group(2).strip()
            if key == "rule":
                if current:
                    rules.append(_make(current, rel, start))
                current = {"rule": value, "body": ""}
                start = no
            elif current:
                current[key] = (current.get(key, "") + " " + value).strip() if key != "kind" else value
            continue
        if current is not None and current and line and not line.startswith("%"):
            # the statements right under the block (up to the next blank line)
            if current.get("_closed") != "1":
                current["body"] = current.get("body", "") + " " + line
        elif current and not line:
            current["_closed"] = "1"
    if current:
        rules.append(_make(current, rel, start))
    return rules


def _make(d: dict[str, str], file: str, line: int) -> Rule:
    return Rule(
        id=d["rule"],
        text=d.get("text", ""),
        source=d.get("source", ""),
        kind=d.get("kind", "game"),
        file=file,
        line=line,
        body=d.get("body", "").strip(),
    )


@cache
def registry(game: str) -> dict[str, Rule]:
    """Rules by guard atom name, for the files of one game."""
    out: dict[str, Rule] = {}
    for f in lp_files(game):
        for r in parse_file(f):
            out[r.atom] = r
    return out


def guards_used(path: Path) -> set[str]:
    return set(_GUARD.findall(path.read_text(encoding="utf-8")))
