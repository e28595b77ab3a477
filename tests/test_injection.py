"""No program text from user strings: names and texts a user gives reach
clingo only as terms (clorm predicates and clingo symbols, added through the
program builder), so text that would be a program if it were spliced into
one -- ``a). #script (python) ...``, quotes, ``%`` -- stays an inert string."""

from __future__ import annotations

import ast as pyast
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from logic.facts import static_facts, symbols
from logic.scenario import from_data
from queries.answer import Asker
from solver import Session
from solver.terms import Function, String, parse_term
from tests.conftest import ROOT

HOSTILE = [
    'a). #script (python) import os; os.system("touch /tmp/chainjudge-pwned") #end.',
    'x"). :- holds(X,0). %',
    "B%). #show. #const x=1",
    '\\"); p(',
    "% comment",
    "*% block %*",
    "#include \"/etc/passwd\".",
    "@getenv(\"HOME\")",
]


def _scenario(card_ids: list[str], players: list[str]) -> dict:
    a, b = players
    return {
        "game": "ygo", "players": players, "turn_player": a, "phase": "main1",
        "cards": [
            {"card": "Judgment Dragon", "controller": a, "zone": "monster", "id": card_ids[0]},
            {"card": "Effect Veiler", "controller": b, "zone": "hand", "id": card_ids[1]},
        ],
    }


def test_hostile_ids_and_players_are_string_terms():
    sc = from_data(_scenario([HOSTILE[0], HOSTILE[1]], ['Ali"ce%', "Bob). #show x"]), "t")
    syms = symbols(static_facts(sc))
    strings = {s.string for f in syms for s in _leaves(f) if s.type.name == "String"}
    assert HOSTILE[0] in strings and HOSTILE[1] in strings
    assert 'Ali"ce%' in strings and "Bob). #show x" in strings
    # nothing a user typed became a function name (only our own vocabulary does)
    names = {s.name for f in syms for s in _leaves(f) if s.type.name == "Function"}
    assert not any(h in names for h in HOSTILE)


def _leaves(sym):
    yield sym
    if sym.type.name == "Function":
        for a in sym.arguments:
            yield from _leaves(a)


def test_hostile_names_answer_normally(tmp_path):
    marker = Path("/tmp/chainjudge-pwned")
    marker.unlink(missing_ok=True)
    ids = [HOSTILE[1], HOSTILE[0]]
    sc = from_data(_scenario(ids, ['Ali"ce%', "Bob). #show x"]), "t")
    asker = Asker(sc)
    ans = asker.ask("who has priority now")
    assert ans.answer == 'Ali"ce%'
    ans = asker.ask(f"can Bob). #show x activate {ids[1]} targeting {ids[0]} after Ali\"ce% passes")
    assert ans.verdict == "yes"
    assert ans.witness[-1]["chain"][0].startswith(ids[1])  # the label is the string, unchanged
    assert not marker.exists()


def test_string_terms_round_trip_through_a_program():
    s = Session()
    facts = [Function("name", [String(h)]) for h in HOSTILE]
    s.add_facts(facts)
    s.add_text("base", [], "#show name/1.")
    s.ground([("base", [])])
    got = {a.arguments[0].string for a in s.atoms_of("name", 1)}
    assert got == set(HOSTILE)
    out = s.solve()
    assert out.satisfiable and len(out.models[0]) == len(HOSTILE)  # no extra atoms, no lost ones


@settings(max_examples=300)
@given(st.text(max_size=60))
def test_probe_transport_keeps_strings(text):
    """The grounding probe sends facts to its child as term text; reading a term
    back gives the same symbol, whatever the string (solver/probe.py)."""
    sym = Function("card", [String(text), Function("eff", [String(text), Function("x", [])])])
    assert parse_term(str(sym)) == sym


def test_no_program_text_is_built_outside_solver():
    """Outside solver/, nothing calls the text entry points of clingo: program
    text is added only from our own encoding files (Session.load) and user
    rule files only as checked syntax trees (Session.add_statements)."""
    forbidden = {"add_text", "parse_term", "parse_string", "add", "load"}
    allowed = {("queries/engine.py", "load")}  # Stepper loads the encodings/ files
    found = []
    for folder in ("logic", "queries"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            tree = pyast.parse(path.read_text(encoding="utf-8"))
            for node in pyast.walk(tree):
                if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute):
                    name = node.func.attr
                    owner = node.func.value
                    if name in forbidden and _is_session(owner) and (rel, name) not in allowed:
                        found.append(f"{rel}:{node.lineno} {name}")
                if isinstance(node, pyast.ImportFrom) and node.module and node.module.startswith("clingo"):
                    found.append(f"{rel}:{node.lineno} imports {node.module}")
                if isinstance(node, pyast.Import) and any(a.name.startswith("clingo") for a in node.names):
                    found.append(f"{rel}:{node.lineno} imports clingo")
    assert not found, found


def _is_session(owner: pyast.AST) -> bool:
    """``x.session.add(...)``, ``session.load(...)``, ``ctl.add(...)``: calls on a solver object."""
    text = pyast.unparse(owner)
    return any(k in text for k in ("session", "ctl", "Session", "control"))
