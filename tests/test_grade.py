"""`chainjudge cases --grade`: each case sorted into pass, WRONG, refused,
rejected or limit (README.md, "Usage"), with the closing line
`N passed, N failed, N skipped` where failed counts WRONG and rejected."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from typer.testing import CliRunner

from queries.cases import GRADES, run_corpus
from queries.cli import app

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = yaml.safe_load((ROOT / "examples" / "veiler-end-of-main-phase-1.yaml").read_text())
ASK = "can B activate Effect Veiler targeting Judgment Dragon after A declares the end of main phase 1"

CASES = [
    # the official ruling (FET box E): B still has its chance
    {"id": "g-pass", "source": "FET box E", "scenario": SCENARIO, "question": ASK, "expect": "yes"},
    # the same question with the opposite expectation: answered, and not what the case expects
    {"id": "g-wrong", "source": "made up", "scenario": SCENARIO, "question": ASK, "expect": "no"},
    # an outcome the engine does not model yet (exit 4 for ask)
    {"id": "g-refused", "source": "made up", "scenario": SCENARIO,
     "question": "does a replay occur now", "expect": "no"},
    # a card nobody has heard of (exit 2 for ask)
    {"id": "g-rejected", "source": "made up",
     "scenario": {**SCENARIO, "cards": [{"card": "No Such Card Anywhere", "controller": "A", "zone": "hand"}]},
     "question": ASK, "expect": "yes"},
]


def _corpus(tmp_path: Path) -> Path:
    p = tmp_path / "corpus.yaml"
    p.write_text(yaml.safe_dump(CASES, sort_keys=False))
    return p


def test_each_case_gets_its_grade(tmp_path: Path) -> None:
    got = {r.id: r.grade for r in run_corpus(_corpus(tmp_path), explain=False)}
    assert got == {"g-pass": "pass", "g-wrong": "WRONG", "g-refused": "refused", "g-rejected": "rejected"}
    assert set(got.values()) <= set(GRADES)


def test_grade_lines_and_closing_line(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["cases", str(_corpus(tmp_path)), "--grade", "--jobs", "1"])
    lines = res.output.splitlines()
    assert res.exit_code == 1, res.output  # a WRONG and a rejected case fail the corpus
    marks = {ln.split()[1]: ln.split()[0] for ln in lines if ln.split() and ln.split()[0] in GRADES}
    assert marks == {"g-pass": "pass", "g-wrong": "WRONG", "g-refused": "refused", "g-rejected": "rejected"}
    assert lines[-2] == "grades: 1 pass, 1 WRONG, 1 refused, 1 rejected, 0 limit"
    assert lines[-1] == "1 passed, 2 failed, 1 skipped"


def test_grade_json_is_one_document(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["cases", str(_corpus(tmp_path)), "--grade", "--json", "-j", "1"])
    doc = json.loads(res.stdout)  # stdout is JSON alone; the summary lines went to stderr
    assert doc["grades"] == {"pass": 1, "WRONG": 1, "refused": 1, "rejected": 1, "limit": 0}
    assert [c["grade"] for c in doc["cases"]] == ["pass", "WRONG", "refused", "rejected"]
    assert doc["cases"][0]["source"] == "FET box E"
    assert res.stderr.splitlines()[-1] == "1 passed, 2 failed, 1 skipped"


def test_a_corpus_that_only_refuses_passes(tmp_path: Path) -> None:
    p = tmp_path / "c.yaml"
    p.write_text(yaml.safe_dump([CASES[2]], sort_keys=False))
    res = CliRunner().invoke(app, ["cases", str(p), "--grade", "-j", "1"])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[-1] == "0 passed, 0 failed, 1 skipped"
