"""Every documented example runs: the YAML blocks of README.md and docs/ (each
`# ask:` line asked, its `# answer:` compared), the README's example questions,
the files in examples/, and the README's first command without Graphviz.  And
the scenario and question references cover every field, point name, event
phrase and question form the code accepts."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from logic import games
from logic.scenario import CARD_KEYS, SCENARIO_KEYS
from queries.cli import app

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```yaml\n(.*?)^```", re.M | re.S)


def _blocks() -> list[tuple[str, str]]:
    out = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            line = text[: m.start()].count("\n") + 1
            out.append((f"{path.relative_to(ROOT)}:{line}", m.group(1)))
    return out


BLOCKS = _blocks()


def _asks(block: str) -> list[tuple[str, str]]:
    pairs, question = [], None
    for line in block.splitlines():
        m = re.match(r"#\s*(ask|answer):\s*(.*)$", line.strip())
        if not m:
            continue
        if m.group(1) == "ask":
            question = m.group(2).strip()
        else:
            assert question is not None, f"an answer without a question: {line}"
            pairs.append((question, m.group(2).strip()))
            question = None
    assert question is None, f"a question without an answer: {question}"
    return pairs


def _normal(value: object) -> object:
    """An answer as a comparable value: lists of names, numbers, words."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return [_normal(v) for v in value]
    if isinstance(value, dict):  # a window of `when can`: "main1 e"
        return " ".join(str(value[k]) for k in ("point", "box") if value.get(k)).lower()
    if isinstance(value, str):
        return value.strip().lower()
    return value


def _stated(text: str) -> object:
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        value = text
    if isinstance(value, str) and "," in value and not value.startswith("["):
        value = [v.strip() for v in value.split(",")]
    return _normal(value)


def _same(got: object, stated: str) -> bool:
    """The answer is the stated one (a list of chains in any order; a single name as a one-element list)."""
    g, s = _normal(got), _stated(stated)
    if isinstance(g, list) and g and all(isinstance(x, list) for x in g) and isinstance(s, list):
        return sorted(map(str, g)) == sorted(map(str, s))
    if isinstance(g, list) and isinstance(s, str):
        return g == [s]
    return g == s


def _ask(path: Path, question: str) -> tuple[int, dict | None, str]:
    r = CliRunner().invoke(app, ["ask", str(path), question, "--json"])
    try:
        return r.exit_code, json.loads(r.output), r.output
    except ValueError:
        return r.exit_code, None, r.output


SCENARIO_BLOCKS = [(where, b) for where, b in BLOCKS if re.search(r"^game:", b, re.M)]
ASKS = [(where, b, q, a) for where, b in SCENARIO_BLOCKS for q, a in _asks(b)]


@pytest.mark.parametrize("where,block", BLOCKS, ids=[w for w, _ in BLOCKS])
def test_every_yaml_block_is_a_scenario_or_says_it_is_a_part(where: str, block: str, tmp_path: Path) -> None:
    data = yaml.safe_load(block)
    if isinstance(data, dict) and "game" in data:
        from logic.scenario import load_file as load_scenario

        p = tmp_path / "s.yaml"
        p.write_text(block, encoding="utf-8")
        load_scenario(p)  # raises on a bad example
        return
    if block.lstrip().startswith("# a ruling-case corpus"):
        p = tmp_path / "corpus.yaml"
        p.write_text(block, encoding="utf-8")
        r = CliRunner().invoke(app, ["cases", str(p)])
        assert r.exit_code == 0 and "1 passed, 0 failed" in r.output, r.output
        return
    assert block.lstrip().startswith("# part of a scenario"), \
        f"{where}: a YAML block without `game:` must start with '# part of a scenario'"
    if isinstance(data, dict):
        allowed = SCENARIO_KEYS | {"name", "card_type", "property", "text", "atk", "def", "effects", "level",
                                   "type_line", "power", "toughness", "aliases", "approximate", "source",
                                   "attribute", "race", "kinds", "mana_cost", "loyalty"}
        unknown = set(data) - allowed
        assert not unknown, f"{where}: unknown fields {unknown}"


@pytest.mark.parametrize("where,block,question,answer", ASKS, ids=[f"{w} {q}" for w, _, q, _ in ASKS])
def test_every_documented_question_gives_its_stated_answer(where: str, block: str, question: str, answer: str,
                                                           tmp_path: Path) -> None:
    p = tmp_path / "s.yaml"
    p.write_text(block, encoding="utf-8")
    code, doc, out = _ask(p, question)
    assert code == 0 and doc is not None, f"{where}: {question!r} -> exit {code}: {out}"
    got = doc["verdict"] if doc.get("verdict") is not None else doc.get("answer")
    assert _same(got, answer), f"{where}: {question!r} answered {got!r}, the docs say {answer!r}"


# ---------------------------------------------------------------- README questions and examples/

README_Q = re.compile(r"^(?P<q>\S.*?)\s+→\s+(?P<a>.+?)\s+\((?P<file>examples/[\w.-]+\.yaml)\)\s*$")


def _readme_questions() -> list[tuple[str, str, str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [(m["q"], m["a"], m["file"]) for line in text.splitlines() if (m := README_Q.match(line))]


README_QUESTIONS = _readme_questions()


def test_the_readme_shows_questions_with_answers() -> None:
    assert len(README_QUESTIONS) >= 5


@pytest.mark.parametrize("question,answer,file", README_QUESTIONS, ids=[q for q, _, _ in README_QUESTIONS])
def test_readme_questions(question: str, answer: str, file: str) -> None:
    code, doc, out = _ask(ROOT / file, question)
    assert code == 0 and doc is not None, out
    got = doc["verdict"] if doc.get("verdict") is not None else doc.get("answer")
    assert _same(got, answer), f"{question!r} answered {got!r}, the README says {answer!r}"


EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_files_load_and_answer_their_question(path: Path) -> None:
    from logic.scenario import load_file as load_scenario

    load_scenario(path)
    for q, a in _asks(path.read_text(encoding="utf-8")):
        code, doc, out = _ask(path, q)
        assert code == 0 and doc is not None, out
        got = doc["verdict"] if doc.get("verdict") is not None else doc.get("answer")
        assert _same(got, a), f"{path.name}: {q!r} answered {got!r}, the file says {a!r}"


def _first_command() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"^```sh\n(.*?)^```", text, re.M | re.S)
    assert block, "the README has no set-up command"
    return block.group(1).strip()


def test_the_readmes_first_command_runs_without_graphviz(tmp_path: Path) -> None:
    """The set-up command ends with a question; it must answer with no `dot` on the PATH."""
    command = _first_command()
    m = re.search(r"\.venv/bin/chainjudge (ask .*)$", command)
    assert m, command
    exe = Path(sys.executable).parent / "chainjudge"
    if not exe.exists():
        pytest.skip("chainjudge is not installed next to this interpreter")
    bare = tmp_path / "bin"
    bare.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PATH"} | {"PATH": str(bare)}
    import shlex

    args = shlex.split(m.group(1))
    r = subprocess.run([str(exe), *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert shutil.which("dot", path=str(bare)) is None
    assert r.returncode == 0, r.stderr
    assert r.stdout.lstrip().startswith("Yes") or "A: Yes" in r.stdout, r.stdout


def test_the_readme_says_what_graphviz_adds() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = text[text.index("## Set up"): text.index("## Usage")]
    assert "Graphviz" in setup and "--svg" in setup


# ---------------------------------------------------------------- the references cover what the code accepts


def _section(path: Path, heading: str) -> str:
    text = path.read_text(encoding="utf-8")
    start = text.index(heading)
    nxt = text.find("\n## ", start + len(heading))
    return text[start: nxt if nxt > 0 else len(text)]


def test_scenarios_doc_lists_every_field() -> None:
    fields = _section(ROOT / "docs" / "scenarios.md", "## Fields")
    missing = [k for k in sorted(SCENARIO_KEYS | CARD_KEYS) if f"`{k}`" not in fields]
    assert missing == []


def test_scenarios_doc_lists_every_point_and_name() -> None:
    points = _section(ROOT / "docs" / "scenarios.md", "## Point names")
    missing = []
    for p in (*games.YGO_POINTS, *games.MTG_POINTS):
        if f"`{p.name}`" not in points:
            missing.append(p.name)
        missing += [h for h in p.human if h not in points]
    for spans in (games.YGO_SPAN_HUMAN, games.MTG_SPAN_HUMAN):
        for key, humans in spans.items():
            if f"`{key}`" not in points:
                missing.append(key)
            missing += [h for h in humans if h not in points]
    assert missing == []


def _event_kinds() -> set[str]:
    grammar = (ROOT / "queries" / "language" / "grammar.lark").read_text(encoding="utf-8")
    block = grammar[grammar.index("\nevent:"): grammar.index("\nbase_event:")]
    return set(re.findall(r"->\s*e_(\w+)", block))


def test_scenarios_doc_gives_a_phrase_for_every_event() -> None:
    from logic.cards import bundled
    from queries.language.parser import names_for, parse_event

    section = _section(ROOT / "docs" / "scenarios.md", "## Event phrases")
    phrases = re.findall(r"^\| `([^`]+)`", section, re.M)
    phrases += re.findall(r"^\| `[^`]+`, `([^`]+)`", section, re.M)
    seen: set[str] = set()
    for game, players in (("ygo", ["A", "B"]), ("mtg", ["A", "B"])):
        names = names_for(["X", "Y", "Z", *bundled(game).cards], players, game)
        for ph in phrases:
            text = ph.replace(" P", " main phase 1" if game == "ygo" else " the upkeep").replace("P ", "the draw step ")
            text = text.replace("X attacking P", "X attacking B")
            try:
                seen.add(parse_event(text, names).kind)
            except Exception:  # noqa: BLE001 - a phrase of the other game
                continue
    assert _event_kinds() - seen == set()


def test_questions_doc_shows_every_question_form() -> None:
    grammar = (ROOT / "queries" / "language" / "grammar.lark").read_text(encoding="utf-8")
    forms = set(re.findall(r"^(\w+_q):", grammar, re.M))
    asked = " ".join(q for _, _, q, _ in ASKS if _.startswith("docs/questions.md") or True)
    starts = {"can_q": "can ", "must_q": "must ", "does_q": "does ", "who_q": "who has priority",
              "order_q": "in what order", "chain_q": "what is on the", "count_q": "how many legal",
              "list_q": "list every legal", "when_q": "when can", "next_q": "which point comes next",
              "chooses_q": "who chooses the order"}
    assert forms == set(starts)
    runnable = [q.lower() for w, _, q, _ in ASKS if w.startswith("docs/questions.md")]
    missing = [f for f, s in starts.items() if not any(q.startswith(s) for q in runnable)]
    assert missing == [], f"docs/questions.md has no runnable example of {missing} ({len(asked)} chars asked)"
