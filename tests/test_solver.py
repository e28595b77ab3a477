"""The solver layer: assumptions, cores minimised by deletion, limits."""

from __future__ import annotations

import doctest

import pytest

import solver.session
from solver import LimitReached, Session
from solver.terms import Function, atom


def test_doctests():
    failures, _ = doctest.testmod(solver.session)
    assert failures == 0


def _rules_program() -> Session:
    s = Session()
    s.add_text(
        "base",
        [],
        """
        sw(r1). sw(r2). sw(r3). sw(r4).
        #external rule(X) : sw(X). [free]
        { x; y }.
        goal :- x.  goal :- y.
        :- x, rule(r1).
        :- y, rule(r2).
        :- y, rule(r3).
        #external want. [free]
        :- want, not goal.
        """,
    )
    s.ground([("base", [])])
    return s


def test_minimal_core_is_minimal_and_complete():
    s = _rules_program()
    rules = [Function("rule", [Function(r, [])]) for r in ("r1", "r2", "r3", "r4")]
    core = s.minimal_core([(atom("want"), True)], rules)
    assert core is not None
    names = sorted(c.arguments[0].name for c in core)
    # r1 and one of r2/r3 forbid the goal; r4 is irrelevant
    assert names in (["r1", "r2"], ["r1", "r3"])
    # minimal: dropping any member makes the goal reachable
    for drop in core:
        keep = [c for c in core if c != drop]
        out = s.solve([(atom("want"), True)] + [(c, True) for c in keep] + [(c, False) for c in rules if c not in keep])
        assert out.satisfiable


def test_minimal_core_none_when_satisfiable():
    s = _rules_program()
    assert s.minimal_core([(atom("want"), False)], [Function("rule", [Function("r1", [])])]) is None


def test_count_and_enumerate():
    s = Session()
    s.add_text("base", [], "{ a; b; c }. #show a/0. #show b/0. #show c/0.")
    s.ground([("base", [])])
    assert s.count() == 8
    assert len(s.solve(models=0).models) == 8


def test_model_limit():
    s = Session(model_limit=3)
    s.add_text("base", [], "{ a; b; c }.")
    s.ground([("base", [])])
    with pytest.raises(LimitReached) as err:
        s.solve(models=0)
    assert err.value.which == "models"


def test_time_limit_stops_a_hard_search():
    s = Session(time_limit=0.3)
    # pigeon-hole 11 into 10: hard for CDCL without symmetry breaking
    s.add_text(
        "base",
        [],
        "p(1..11). h(1..10). 1 { in(P,H) : h(H) } 1 :- p(P). :- in(P,H), in(Q,H), P < Q.",
    )
    s.ground([("base", [])])
    with pytest.raises(LimitReached) as err:
        s.solve()
    assert err.value.which == "time"


def test_python_scripting_is_off():
    s = Session()
    from solver import ProgramError

    with pytest.raises(ProgramError):
        s.add_text("base", [], '#script (python)\ndef f(): return 1\n#end. a(@f()).')
        s.ground([("base", [])])
