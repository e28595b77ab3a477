"""Every restriction in encodings/ is a named rule with text and source (encodings/README.md)."""

from __future__ import annotations

import re

import pytest

from logic.registry import all_lp_files, guard_name, guards_used, parse_file, registry

FILES = list(all_lp_files())


def _statements(text: str) -> list[tuple[int, str]]:
    """Statements (line number, text) with comments removed."""
    out: list[tuple[int, str]] = []
    current: list[str] = []
    start = 0
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.split("%", 1)[0].strip()
        if not line:
            continue
        if not current:
            start = no
        current.append(line)
        if line.endswith("."):
            out.append((start, " ".join(current)))
            current = []
    return out


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_constraint_has_a_named_rule_guard(path):
    text = path.read_text(encoding="utf-8")
    blocks = {r.atom for r in parse_file(path)}
    for line, stm in _statements(text):
        if stm.startswith(":-"):
            guards = re.findall(r"\brule\(([a-z_0-9]+)\)", stm)
            assert guards, f"{path.name}:{line}: constraint without a rule(Id) guard: {stm}"
            for g in guards:
                assert g in blocks, f"{path.name}:{line}: guard rule({g}) has no %@rule block in this file"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_rule_block_has_text_and_source(path):
    for r in parse_file(path):
        assert r.text, f"{r.file}:{r.line} {r.id} has no %@text"
        assert r.source, f"{r.file}:{r.line} {r.id} has no %@source"
        # the rulebook's kinds; the checker's programs (encodings/checks) state invariants and lemmas
        kinds = ("game", "structural", "bound", "definition")
        if path.parent.name == "checks":
            kinds += ("invariant", "lemma")
        assert r.kind in kinds, f"{r.id}: unknown kind {r.kind}"
        assert re.fullmatch(r"[a-z_0-9]+(\.[a-z_0-9]+)+", r.id), f"{r.id}: ids are dotted lowercase"


def test_rule_ids_are_unique_per_game():
    for game in ("ygo", "mtg"):
        seen: dict[str, str] = {}
        from logic.registry import lp_files

        for f in lp_files(game):
            for r in parse_file(f):
                assert r.atom not in seen, f"{r.id} defined in {seen.get(r.atom)} and {r.file}"
                seen[r.atom] = r.file


def test_guards_used_are_registered():
    reg = registry("ygo")
    for f in FILES:
        if "/mtg/" in str(f):
            continue
        for g in guards_used(f):
            assert g in reg or "/checks/" in str(f), f"{f.name}: rule({g}) is not in the ygo registry"


def test_guard_name():
    assert guard_name("ygo.speed.response") == "ygo_speed_response"
