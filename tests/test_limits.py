"""Limits (exit 3, saying which limit and what was known) and honest bounds
(an answer under a horizon bound says so unless the search was complete)."""

from __future__ import annotations

import pytest

from logic.scenario import load_file
from queries.answer import Asker
from queries.parser import parse_question
from solver import LimitReached, Session
from solver.errors import describe_limit
from solver.limits import Limits
from tests.messages import INPUTS, run_cli

BASE = "tests/inputs/base.yaml"
LIM = INPUTS / "limits"


@pytest.fixture(autouse=True)
def _at_root(monkeypatch, root):
    monkeypatch.chdir(root)


def _ask(*args: str) -> tuple[int, str, str]:
    return run_cli(["ask", *args])


# ---------------------------------------------------------------- limits


def test_model_limit_in_the_solver():
    s = Session(model_limit=3)
    s.add_text("base", [], "{ a; b }.")
    s.ground([("base", [])])
    with pytest.raises(LimitReached) as err:
        s.solve(models=0)
    assert err.value.which == "models" and "3 model(s) found" in err.value.partial
    exact = Session(model_limit=4)  # exactly as many models as the limit: not hit
    exact.add_text("base", [], "{ a; b }.")
    exact.ground([("base", [])])
    assert exact.solve(models=0).count == 4


def test_max_models_on_the_command_line():
    q = "who has priority after A activates Mystical Space Typhoon"
    code, out, err = _ask(str(LIM / "two-targets.yaml"), q, "--max-models", "1")
    assert code == 3, err
    assert "the model limit (1 model) was reached" in err
    assert "can happen in more ways" in err and "--max-models" in err
    code, out, err = _ask(str(LIM / "two-targets.yaml"), q)
    assert code == 0, err  # within the default limit: both ways are looked at


def test_grounding_time_limit_kills_the_probe():
    code, _, err = _ask(BASE, "who has priority now", "--rules", str(LIM / "grounding-bomb.lp"),
                        "--ground-time-limit", "1.5")
    assert code == 3, err
    assert "the grounding time limit (1.5 s) was reached" in err
    assert "nothing is known about the question yet" in err and "--ground-time-limit" in err


def test_memory_limit_stops_the_probe():
    code, _, err = _ask(BASE, "who has priority now", "--rules", str(LIM / "grounding-bomb.lp"),
                        "--memory-limit", "300", "--ground-time-limit", "60")
    assert code == 3, err
    assert "the memory limit (300 MB) was reached" in err and "--memory-limit" in err


def test_large_positions_are_probed_first():
    """Without a rule file, a position at least ``large_position`` big is probe-ground too."""
    sc = load_file(INPUTS / "base.yaml")
    small = Limits(large_position=100, ground_time=0.001)
    Asker(sc, limits=small)  # not large: no probe, no limit
    with pytest.raises(LimitReached) as err:
        Asker(sc, limits=Limits(large_position=len(sc.cards), ground_time=0.001))
    assert err.value.which == "grounding time"


def test_time_limit():
    code, _, err = _ask(str(DRAW), Q_SUMMON, "--time-limit", "0.05")
    assert code == 3, err
    assert "the time limit (0.05 s) was reached" in err and "--time-limit" in err


def test_time_limit_reports_the_partial_search():
    exc = LimitReached("time", 2, "no trace reaching the goal had been found within 14 steps when the search stopped")
    assert describe_limit(exc) == ("the time limit (2 s) was reached: no trace reaching the goal had been found "
                                   "within 14 steps when the search stopped (raise it with --time-limit)")


def test_good_limits_pass():
    code, out, err = _ask(BASE, "who has priority now", "--time-limit", "0", "--max-models", "5",
                          "--ground-time-limit", "10", "--memory-limit", "1024")
    assert code == 0, err
    assert out.startswith("A may act next")


# ---------------------------------------------------------------- honest bounds


DRAW = INPUTS / "limits" / "draw-phase.yaml"
Q_SUMMON = "can A normal summon Sangan before main phase 1"


def test_a_complete_no_is_a_proof():
    """No monster can be Normal Summoned before Main Phase 1: every legal
    continuation is searched to its end (here: 18 steps), so "no" is an answer."""
    asker = Asker(load_file(DRAW))
    q = parse_question(Q_SUMMON, asker.names)
    res = asker.engine.search(asker.start, asker._goal_facts(q), "q_reach")
    assert not res.found and res.complete and res.horizon > 6
    code, out, err = _ask(str(DRAW), Q_SUMMON)
    assert code == 0, err
    assert "A: No." in out


def test_a_bounded_search_says_so():
    """The same question under a horizon too small to finish the search is not
    answered "no": it stops with exit 3 and says no witness was found within N steps."""
    code, out, err = _ask(str(DRAW), Q_SUMMON, "--max-horizon", "6")
    assert code == 3 and out == ""
    assert "the horizon limit (6 steps) was reached: no witness within 6 steps" in err
    assert "--max-horizon" in err


def test_a_complete_no_within_a_small_horizon():
    """A search that is complete within the bound answers normally, bound or not."""
    code, out, err = _ask(str(DRAW), "can A activate Mystical Space Typhoon now",
                          "--max-horizon", "2")
    assert code == 0, err
    assert "A: No." in out


def test_history_beyond_the_horizon_is_not_called_impossible():
    """A history event the bound does not reach is a limit (exit 3), not "cannot happen" (exit 2)."""
    path = str(LIM / "veiler-needs-a-pass.yaml")
    code, _, err = _ask(path, "who has priority now", "--max-horizon", "1")
    assert code == 3, err
    assert "the horizon limit (1 step) was reached" in err and "did not happen within 1 steps" in err
    code, out, err = _ask(path, "who has priority now")
    assert code == 0, err
