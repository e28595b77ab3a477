"""User rule files (--rules): checked lexically and on the syntax tree, added
through the program builder, cited in explanations; clingo's scripting stays
off in the process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from logic.errors import InputError
from logic.scenario import load_file
from logic.userrules import check_text
from logic.userrules import load as load_rules
from queries.answer import Asker
from solver.errors import ProgramError
from solver.safety import registered_scripts
from solver.userrules import check_program
from tests.messages import INPUTS

HOUSE = INPUTS / "good" / "rules" / "house-rule.lp"
BASE = INPUTS / "base.yaml"


def test_a_user_rule_decides_and_is_cited():
    sc = load_file(BASE)
    q = "can A activate Mystical Space Typhoon now"
    assert Asker(sc).ask(q).verdict == "yes"
    ans = Asker(sc, user_rules=load_rules([HOUSE], "ygo")).ask(q)
    assert ans.verdict == "no"
    cited = {b["rule"]: b for b in ans.because}
    assert "house.no_spells_in_main1" in cited
    assert cited["house.no_spells_in_main1"]["source"] == "chainjudge tests, a made-up house rule"


@pytest.mark.parametrize("text,fragment", [
    ('#include "x.lp".', "#include is not allowed"),
    ('% see #include "x.lp"\np.', "#include is not allowed"),
    ('#script (python)\nimport os\n#end.', "#script block is not allowed"),
    ("p(@f(1)).", "external call @f is not allowed"),
    ("q(X) :- p(X), X = @g(X).", "external call @g is not allowed"),
    ("#program main.", "#program main is not a part"),
    ("#program step.", "#program step is not a part"),
    ("rule(a) :- p.", "cannot derive it"),
    ("{ rule(a) }.", "cannot derive it"),
    ("#external rule(a).", "cannot declare it"),
    (":- p.", "no rule(Id) guard"),
    (":- p, rule(X).", "must name the rule with a constant"),
    (":- p, rule(a), rule(b).", "more than one rule guard"),
    ("p(.", "cannot parse the rule file"),
])
def test_program_checks(text, fragment):
    with pytest.raises(ProgramError) as err:
        check_program(text, "user.lp")
    assert fragment in str(err.value)
    assert str(err.value).startswith("user.lp")


def test_include_is_refused_before_parsing(tmp_path):
    """clingo's parser would read an included file: the refusal must come first."""
    secret = tmp_path / "secret.lp"
    secret.write_text("this is not a program (.\n")
    with pytest.raises(ProgramError, match="#include is not allowed"):
        check_program(f'#include "{secret}".\n', "user.lp")


def test_allow_list():
    prog = check_program("p(@ok(1)).", "user.lp", allowed_calls=frozenset({"ok"}))
    assert len(prog.statements) == 2  # #program base. and the rule


def test_guards_are_collected():
    prog = check_program("#program step(t).\n%@rule a.b\n:- occurs(pass(P),t), rule(a_b).\n", "u.lp")
    assert prog.guards == (("a_b", 3),)


@pytest.mark.parametrize("text,fragment", [
    ("%@rule house.x\n%@source s\n:- p, rule(house_x).", "has no %@text"),
    ("%@rule house.x\n%@text t\n:- p, rule(house_x).", "has no %@source"),
    ("%@rule house.x\n%@text t\n%@source s\n%@kind weird\n:- p, rule(house_x).", "%@kind of house.x"),
    ("%@rule house.x\n%@txet t\n%@source s\n:- p, rule(house_x).", "unknown tag %@txet"),
    ("%@rule ygo.speed.response\n%@text t\n%@source s\n:- p, rule(ygo_speed_response).", "already used by the rulebook"),
    (":- p, rule(ygo_speed_response).", "guards a built-in rule"),
    (":- p, rule(house_y).", "has no %@rule block"),
    ("%@rule house.x\n%@text t\n%@source s\np.", "guards no constraint"),
    ("%@rule House X\n%@text t\n%@source s\n:- p, rule(house_x).", "must be lower-case words"),
])
def test_rule_blocks(text, fragment):
    with pytest.raises(InputError) as err:
        check_text(text, "user.lp", "ygo")
    assert fragment in str(err.value)


def test_rule_ids_across_files(tmp_path):
    a, b = tmp_path / "a.lp", tmp_path / "b.lp"
    text = "%@rule house.x\n%@text t\n%@source s\n:- player(nobody), rule(house_x).\n"
    a.write_text(text)
    b.write_text(text)
    with pytest.raises(InputError, match="defined twice"):
        load_rules([a, b], "ygo")


def test_scripting_is_off_after_importing_everything():
    import logic.facts  # noqa: F401
    import queries.answer  # noqa: F401
    import queries.cli  # noqa: F401
    import solver.probe  # noqa: F401

    assert registered_scripts() == []
    assert "clingraph" not in sys.modules


def test_a_script_never_runs_even_given_to_clingo_directly(tmp_path):
    """Defence in depth: with scripting off, clingo itself refuses a #script block."""
    from solver import Session

    marker = tmp_path / "ran"
    s = Session()
    with pytest.raises(ProgramError):
        s.add_text("base", [], f'#script (python)\nopen("{marker}", "w").close()\n#end.\n')
        s.ground([("base", [])])
    assert not marker.exists()


def test_refuses_to_solve_when_scripting_was_turned_on():
    """A process in which something turned clingo's Python scripting on (as
    importing clingraph does) refuses to solve (exit 70)."""
    code = ("from clingo.script import enable_python; enable_python()\n"
            "import sys; from queries.cli import main\n"
            f"sys.argv = ['chainjudge', 'ask', {str(BASE)!r}, 'who has priority now']\n"
            "main()\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parent.parent)
    assert proc.returncode == 70, proc.stderr
    assert "refusing to run" in proc.stderr and "scripting" in proc.stderr
