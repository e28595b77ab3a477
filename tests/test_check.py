"""The rulebook checker (chainjudge check): good and bad rulebooks.

Bad fixtures (tests/check/): a dropped spell-speed rule (a modified copy of
the encodings), a duplicated priority grant, a phase that never ends, a
conflicting pair of rules (user rule files, --rules).  Each must make the
right check fail with a counterexample naming the right rule; the shipped
rulebook must pass.  Horizons are small and checks selected (--only) to keep
the file fast."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from logic.registry import encodings_dir
from queries.check import Checker, Options
from queries.cli import app

HERE = Path(__file__).parent / "check"


def run(**kw: object):
    opts = Options(**{"induction": False, "equivalence": False, **kw})  # type: ignore[arg-type]
    checker = Checker(opts)
    return checker, checker.run()


def result(rep, check_id: str):
    return next(r for r in rep.results if r.check.id == check_id)


def test_shipped_rulebook_passes_cli() -> None:
    out = CliRunner().invoke(app, ["check", "--horizon", "3", "--no-induction", "--no-equivalence", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["violations"] == 0
    ids = {r["id"] for r in data["invariants"]} | {r["id"] for r in data["gaps_and_conflicts"]}
    assert {"check.priority.one_holder", "check.turn.no_dead_end", "check.chain.spell_speeds", "check.turn.ends",
            "check.turn.forward", "check.effect.mandatory", "check.chain.lifo", "check.decision.conflict",
            "check.decision.gap"} <= ids
    assert all(r["status"] in ("searched", "proved") for r in data["invariants"])


def test_duplicated_priority_grant() -> None:
    checker, rep = run(horizon=2, rules=[HERE / "double-priority.lp"],
                       only=("check.priority.one_holder", "check.decision.conflict"))
    r = result(rep, "check.priority.one_holder")
    assert r.status == "violated" and r.counterexample is not None
    assert any("activates" in row["event"] for row in r.counterexample.timeline)
    c = result(rep, "check.decision.conflict")
    assert c.status == "violated"
    assert any("double-priority.lp:4" in x for x in c.counterexample.detail["rules"])
    assert rep.violations >= 2


def test_conflicting_pair_of_rules_cli() -> None:
    out = CliRunner().invoke(app, ["check", "--horizon", "2", "--no-induction", "--no-equivalence",
                                   "--rules", str(HERE / "conflicting-box.lp"), "--only", "check.decision.conflict"])
    assert out.exit_code == 1, out.output
    assert "VIOLATED check.decision.conflict" in out.output
    assert "conflicting-box.lp:4" in out.output and "ygo/fet.lp" in out.output


def test_phase_that_never_ends() -> None:
    _, rep = run(horizon=3, rules=[HERE / "phase-never-ends.lp"], only=("check.turn.no_dead_end",))
    r = result(rep, "check.turn.no_dead_end")
    assert r.status == "violated" and r.counterexample is not None
    assert "house.main1_forever" in r.counterexample.detail["rules"]


def test_dropped_spell_speed_rule(tmp_path: Path) -> None:
    copy = tmp_path / "encodings"
    shutil.copytree(encodings_dir(), copy, ignore=shutil.ignore_patterns("__pycache__"))
    act = copy / "ygo" / "activation.lp"
    lines = act.read_text(encoding="utf-8").splitlines()
    lines = [ln for ln in lines if "rule(ygo_speed_response)" not in ln]
    act.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _, rep = run(horizon=3, encodings=copy, only=("check.chain.spell_speeds",))
    r = result(rep, "check.chain.spell_speeds")
    assert r.status == "violated" and r.counterexample is not None
    assert len(r.counterexample.detail["state"]["chain"]) >= 2


def test_induction_proves_some_invariants() -> None:
    _, rep = run(horizon=2, induction=True, only=("check.turn.forward", "check.turn.ends"))
    by = {r.check.id: r for r in rep.results}
    assert by["check.turn.ends"].status == "searched"  # a lasso property: searched to H only
    assert by["check.turn.forward"].status in ("proved", "searched")
    assert by["check.turn.forward"].induction  # proved, or why not


def test_equivalence_distinguishing_timeline() -> None:
    _, rep = run(horizon=2, equivalence=True, only=("check.chain.lifo",))
    eq = rep.equivalence
    assert eq is not None and eq["status"] == "differ"
    d = next(d for v in eq["variants"] for d in v["directions"] if d["allowed_by"] == "chart")
    assert d["status"] == "differ"
    events = [row["event"] for row in d["timeline"]]
    assert any("declares the end" in e for e in events)
    assert d["forbidden_by"]
    assert rep.violations == 0  # two formulations differing is a finding, not a violation


def test_corpus_blame_and_coverage() -> None:
    _, rep = run(horizon=1, cases=[HERE / "cases.yaml"], only=("check.chain.lifo",))
    assert rep.corpus is not None
    assert rep.corpus["passed"] == 1 and rep.corpus["failed"] == 1
    bad = next(c for c in rep.corpus["cases"] if c["status"] == "failed")
    assert bad["id"] == "mst-in-response-wrongly-expected"
    assert bad["blame"]["rules"]
    cov = rep.coverage
    assert cov is not None
    assert "ygo.summon.tributes" in cov["untested"]  # no case of this corpus Tribute Summons
    assert any(cov["depends"].values())
    assert rep.violations == 1


@pytest.mark.parametrize("args", [["--horizon", "0"], ["--game", "chess"], ["--only", "check.nonsense"],
                                  ["--pool", "/nonexistent/pool.txt"]])
def test_bad_input_exit_2(args: list[str]) -> None:
    out = CliRunner().invoke(app, ["check", *args])
    assert out.exit_code == 2, out.output


def test_mtg_shipped_rules_pass_lifo_gap_dead_end() -> None:
    """The three Magic findings of issue 7, at the horizon that showed them:
    Counterspell resolving takes its target off the stack (CR 701.5a, 608.2:
    not a breach of LIFO), the player due receives priority after a trigger
    goes on the stack (CR 117.5: decided, not kept), and declaring no
    attackers is legal (not a dead end)."""
    _, rep = run(game="mtg", horizon=5,
                 only=("check.chain.lifo", "check.decision.gap", "check.turn.no_dead_end"))
    assert rep.violations == 0, [(r.check.id, r.counterexample) for r in rep.results if r.status == "violated"]
