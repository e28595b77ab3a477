"""Every citation resolves in docs/sources.md, and no file refers to a document
that is not in the repository (the outside digest's section numbers, its
design notes)."""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

import pytest
import yaml

from logic.registry import all_lp_files, encodings_dir, parse_file

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "docs" / "sources.md"
CR_ITEM = re.compile(r"\d{3}(?:\.\d+[a-z]?)?")


@cache
def catalogue() -> tuple[dict[str, set[str]], set[str]]:
    """(cited-as prefix -> the sections its table lists, the CR numbers listed)."""
    prefixes: dict[str, set[str]] = {}
    crs: set[str] = set()
    current: list[str] = []
    table_owner: list[str] = []
    in_cr = False
    for line in SOURCES.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            current, table_owner, in_cr = [], [], "Comprehensive Rules" in line
            continue
        if line.startswith("Cited as:"):
            current = re.findall(r"`([^`]+)`", line)
            for p in current:
                prefixes.setdefault(p, set())
            table_owner = current
            continue
        if not line.startswith("|") or set(line) <= set("|- "):
            continue
        first = line.split("|")[1].strip()
        if in_cr:
            crs.update(CR_ITEM.findall(first))
            continue
        cited = re.findall(r"`([^`]+)`", first)
        if cited:  # a table of sources: each row names its own
            for p in cited:
                prefixes.setdefault(p, set())
            continue
        for p in table_owner:
            prefixes[p].update(re.findall(r'"([^"]+)"', first))
    return prefixes, crs


def split_citations(src: str) -> list[str]:
    """A %@source string into its citations (';' and ', <another source>' at top level)."""
    prefixes, _ = catalogue()
    starts = tuple(sorted({p.split('"')[0].split(" ")[0] for p in prefixes} | {"CR"}, key=len, reverse=True))
    items, depth, cur, i = [], 0, "", 0
    while i < len(src):
        c = src[i]
        depth += c == "("
        depth -= c == ")"
        rest = src[i + 1 :].lstrip()
        if depth == 0 and (c == ";" or (c == "," and rest.startswith(starts) and not CR_ITEM.match(rest))):
            items.append(cur.strip())
            cur = ""
        else:
            cur += c
        i += 1
    items.append(cur.strip())
    return [x for x in items if x]


def _strip_parens(text: str) -> str:
    while True:
        new = re.sub(r"\([^()]*\)", "", text)
        if new == text:
            return text.strip()
        text = new


def _repo_path(item: str) -> Path | None:
    token = item.removeprefix("chainjudge ").split(" ")[0].rstrip(",:")
    if "/" not in token and not token.endswith((".md", ".lp", ".py")):
        return None
    for base in (ROOT, encodings_dir()):
        if (base / token).exists():
            return base / token
    return Path(token)  # looks like a path: must exist


def unresolved(src: str) -> list[str]:
    """The citations of one source string that docs/sources.md does not resolve."""
    prefixes, crs = catalogue()
    bad = []
    for item in split_citations(src):
        if item.startswith("CR "):
            for n in CR_ITEM.findall(_strip_parens(item)):
                parents = {n, re.sub(r"[a-z]$", "", n), n.split(".")[0]}
                if not parents & crs:
                    bad.append(f"CR {n}")
            continue
        path = _repo_path(item)
        if path is not None:
            if not path.exists():
                bad.append(f"{item} (no such file in the repository)")
            continue
        match = max((p for p in prefixes if item.lower().startswith(p.lower())), key=len, default=None)
        if match is None:
            bad.append(f"{item} (source not listed)")
            continue
        sections = re.findall(r'"([^"]+)"', _strip_parens(item[len(match) :]))
        listed = prefixes[match]
        for s in sections:
            if listed and s not in listed:
                bad.append(f'{match}, "{s}" (section not listed)')
    return bad


def test_the_catalogue_reads() -> None:
    prefixes, crs = catalogue()
    assert 'Konami "Fast Effect Timing"' in prefixes
    assert "Chains" in prefixes["Official Rulebook v10"]
    assert "After damage calculation" in prefixes['Konami "Damage Step rules"']
    assert {"117.3d", "704.3", "702.61a"} <= crs


def test_a_made_up_citation_is_caught() -> None:
    assert unresolved('Official Rulebook v10, "Chains"; CR 117.3d') == []
    assert unresolved('Official Rulebook v10, "Made Up"') != []
    assert unresolved("CR 999.9") != []
    assert unresolved("Some Blog, 'a page'") != []
    assert unresolved("docs/no-such-file.md") != []


RULES = [r for path in all_lp_files() for r in parse_file(path)]


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.id)
def test_every_rule_source_resolves(rule) -> None:  # type: ignore[no-untyped-def]
    assert unresolved(rule.source) == [], f"{rule.file}:{rule.line} {rule.id}: {rule.source}"


def _library_sources() -> list[tuple[str, str]]:
    out = []
    for path in sorted((ROOT / "logic" / "library").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        cards = data.get("cards", data) if isinstance(data, dict) else data
        for card in cards or []:
            if not isinstance(card, dict):
                continue
            for eff in [card, *(card.get("effects") or [])]:
                for key in ("source", "damage_step_source"):
                    if isinstance(eff, dict) and eff.get(key):
                        out.append((f"{path.name}: {card.get('name')}", str(eff[key])))
    return out


def test_library_sources_name_listed_sources() -> None:
    """Library entries cite publishers by name: every page or section they name is listed."""
    prefixes, crs = catalogue()
    pages = prefixes["Yugipedia"]
    dsr = prefixes['Konami "Damage Step rules"']
    rulebook = prefixes["Official Rulebook v10"]
    bad = []
    entries = _library_sources()
    assert entries
    for where, src in entries:
        for page in re.findall(r"Yugipedia '([^']+)'", src):
            if page not in pages:
                bad.append(f"{where}: Yugipedia '{page}'")
        for sec in re.findall(r"Konami 'Damage Step rules', '([^']+)'", src):
            if sec not in dsr:
                bad.append(f"{where}: Damage Step rules '{sec}'")
        for sec in re.findall(r"Official Rulebook v10, '([^']+)'", src):
            if sec not in rulebook:
                bad.append(f"{where}: Official Rulebook v10 '{sec}'")
        for group in re.findall(r"CR ([\d., a-z]+)", src):
            for n in CR_ITEM.findall(group):
                if not {n, re.sub(r"[a-z]$", "", n), n.split(".")[0]} & crs:
                    bad.append(f"{where}: CR {n}")
    assert bad == []


# The outside documents the project started from are not in the repository:
# nothing may cite them.  (Patterns built so that this file does not match.)
OUTSIDE = [
    re.compile(r"\bDESIGN" + r"\.md"),
    re.compile(r"\bDIG" + r"EST\b"),
    re.compile(r"(?<![\w-])seeds" + "/"),
    re.compile(r"(?<![\w.])00[0124]\.(?:E\d|DS\d?|BS\d?|SS|ES|\d{1,2})(?![\w.])"),
]


def _tracked_text_files() -> list[Path]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    files = []
    for name in out.splitlines():
        path = ROOT / name
        if not path.is_file() or path.suffix in {".png", ".svg", ".gz", ".pdf"}:
            continue
        files.append(path)
    return files


def test_no_file_refers_to_a_document_outside_the_repository() -> None:
    hits = []
    for path in _tracked_text_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for no, line in enumerate(text.splitlines(), 1):
            for pat in OUTSIDE:
                if pat.search(line):
                    hits.append(f"{path.relative_to(ROOT)}:{no}: {line.strip()[:100]}")
    assert hits == [], "\n".join(hits)


DOC_REF = re.compile(r'(?<![\w/.-])((?:docs/[\w-]+|(?:encodings/(?:[\w-]+/)?)?(?:README|LIMITATIONS|CHANGES))\.md)'
                     r'(?:,? "([^"]+)")?')


def test_references_to_the_docs_resolve() -> None:
    """`docs/X.md, "Heading"` names a file of the repository and one of its headings."""
    bad = []
    for path in _tracked_text_files():
        if path.suffix not in {".py", ".lp", ".md", ".lark", ".yaml", ".txt"} or path.name == "test_sources.py":
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for m in DOC_REF.finditer(text):
            cands = [ROOT / m.group(1), *(p / m.group(1) for p in path.parents if ROOT in (p, *p.parents))]
            target = next((c for c in cands if c.exists()), cands[0])
            if not target.exists():
                bad.append(f"{path.relative_to(ROOT)}: {m.group(0)} (no such file)")
                continue
            if m.group(2):
                headings = [h.lstrip("# ").strip() for h in target.read_text(encoding="utf-8").splitlines()
                            if h.startswith("#")]
                want = " ".join(re.sub(r"\s*\n\s*[%#/]*\s*", " ", m.group(2)).lower().split())
                if not any(want in h.lower().replace("`", "") for h in headings):
                    bad.append(f"{path.relative_to(ROOT)}: {m.group(0)} (no such heading)")
    assert bad == [], "\n".join(bad)
