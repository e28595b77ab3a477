"""Counting and listing chains by states (queries/chainstates.py).

The search by states merges states that differ only in the order of the
links below the top one.  That is sound only while nothing that decides a
step of chain building reads those links: the first test pins every rule of
the Yu-Gi-Oh! encodings that reads a link, so a new one has to be reviewed
against that assumption.  The others compare the search by states with the
search by traces (an independent formulation inside the engine: a whole
trace per model, projected onto the links) and with the reference
enumerator.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

from logic.scenario import from_data
from queries.answer import Asker
from queries.chains import ChainSearch
from queries.chainstates import Explorer
from queries.engine import Engine
from solver import LimitReached
from tests.reference.enumerator import reference_chains
from tests.reference.positions import engine_position, random_spec, scenario_data
from tests.test_chains import MST_POSITION, SEGOC, TWO_MIND_CRUSH

ROOT = Path(__file__).resolve().parent.parent

# Every line of the Yu-Gi-Oh! encodings that reads or writes a link(N,E,P,X)
# fluent, with why it does not break the search by states.
REVIEWED_LINK_READS = {
    # building a chain: only the top link, or which cards the links mention (a set)
    ("core/chains.lp", "_q_mentioned(C,s) :- holds(link(_,E,_,_),s), effect_card(E,C), _q_copy(C,_,_)."),
    ("core/chains.lp", "_q_mentioned(X,s) :- holds(link(_,_,_,X),s), _q_copy(X,_,_)."),
    ("ygo/activation.lp", "_top(E,P,X,s) :- holds(val(chain_len,N),s), N > 0, holds(link(N,E,P,X),s)."),
    ("ygo/triggers.lp", "_last_link_by(P,t) :- _segoc_done(t), holds(val(chain_len,N),t), N > 0, "
                        "holds(link(N,_,P,_),t)."),
    # which cards are being activated: a set, the same for every order of the links
    ("core/unmodelled.lp", "_being_activated(C,s) :- holds(link(_,E,_,_),s), effect_card(E,C), effect_kind(E,card)."),
    # whether a player already has a hand Special Summon trigger on the chain: any link, whatever its place
    ("ygo/triggers.lp", "holds(link(_,E2,P,_),t-1), _hand_summon_trigger(E2), rule(ygo_trigger_one_hand_summon_per_chain)."),
    # the domain of the search by states itself
    ("core/chains.lp", "_q_dp_on(link(N,E,P,X),k) :- q_dp_link(N), event(activate(P,E,X))."),
    # adding a link (the top one)
    ("core/priority.lp", "add(link(N,E,P,X),t) :- _push(P,E,X,N,t)."),
    # resolving the chain: the search by states stops where the chain starts resolving
    ("core/priority.lp", "resolving(N,E,P,X,t) :- occurs(resolve,t), holds(val(chain_len,N),t-1), "
                         "holds(link(N,E,P,X),t-1)."),
    ("core/priority.lp", "del(link(N,E,P,X),t) :- resolving(N,E,P,X,t)."),
    ("core/priority.lp", "del(link(M,E,P,X),t) :- _gone(M,t), holds(link(M,E,P,X),t-1)."),
    ("core/priority.lp", "_moves_down(K,D,t) :- _removes(t), resolving(N,_,_,_,t), holds(link(K,_,_,_),t-1), "
                         "K < N, not _gone(K,t),"),
    ("core/priority.lp", "del(link(K,E,P,X),t) :- _moves_down(K,D,t), holds(link(K,E,P,X),t-1)."),
    ("core/priority.lp", "add(link(K-D,E,P,X),t) :- _moves_down(K,D,t), holds(link(K,E,P,X),t-1)."),
    ("ygo/resolution.lp", "holds(link(N-1,E0,_,_),t-1), effect_card(E0,C0), zone(C0,Z,t-1), on_field_zone(Z)."),
    # the search by traces' answer (part chains(h)), not a step
    ("core/chains.lp", "q_link(N,E,P,X) :- holds(link(N,E,P,X),0), q_scope(one_chain)."),
    # a question's outcome ("below"), never part of the chain search
    ("core/query.lp", "on_chain_order(E1,E2,t) :- q_outcome(_,below(E1,E2)), _push(_,E2,_,N2,t), "
                      "holds(link(N1,E1,_,_),t-1), N1 < N2."),
}


def _link_lines() -> set[tuple[str, str]]:
    out = set()
    for sub in ("core", "ygo"):
        for f in sorted((ROOT / "encodings" / sub).glob("*.lp")):
            for line in f.read_text(encoding="utf-8").splitlines():
                code = line.split("%", 1)[0].strip()
                if re.search(r"(?<![\w])link\(", code):
                    out.add((f"{sub}/{f.name}", re.sub(r"\s+", " ", code)))
    return out


def test_links_below_the_top_are_read_only_where_reviewed() -> None:
    found = _link_lines()
    new = sorted(found - REVIEWED_LINK_READS)
    assert not new, ("a rule reads the chain's links in a way not reviewed for the search by states "
                     "(queries/chainstates.py merges states that differ only in the order of the links "
                     "below the top; if the new rule can tell them apart while a chain is built, the "
                     "state key must keep that order): " + "; ".join(f"{f}: {c}" for f, c in new))
    gone = sorted(REVIEWED_LINK_READS - found)
    assert not gone, f"reviewed link reads no longer in the encodings (update the list): {gone}"


# ---------------------------------------------------------------- states against traces


def _both(data: dict, after: str | None = None, **kw: object) -> tuple[ChainSearch, ChainSearch]:
    asker = Asker(from_data(data) if isinstance(data, dict) else data)
    pos = asker.start
    if after is not None:
        from queries.rulings.answer import position_for

        pos = position_for(asker, after)
    return (ChainSearch(asker.engine, pos, method="states", **kw),  # type: ignore[arg-type]
            ChainSearch(asker.engine, pos, method="traces", **kw))  # type: ignore[arg-type]


def _keys(search: ChainSearch) -> set:
    return {c.key for c in search.chains(outcomes=False)}


@pytest.mark.parametrize("after, kw", [
    ("A activates Mystical Space Typhoon targeting Mind Crush", {}),
    ("A activates Mystical Space Typhoon targeting Mind Crush", {"max_links": 2}),
    (None, {}),
])
def test_states_and_traces_agree_on_a_position(after: str | None, kw: dict) -> None:
    states, traces = _both(MST_POSITION, after, **kw)
    a, b = states.count(), traces.count()
    assert (a.count, a.empty) == (b.count, b.empty)
    assert _keys(states) == _keys(traces)
    assert a.count == len(_keys(states)) + int(a.empty) - int(a.empty and () in _keys(states))


def test_states_and_traces_agree_on_copies_and_segoc() -> None:
    for data, kw in ((TWO_MIND_CRUSH, {}), (TWO_MIND_CRUSH, {"distinct_copies": True})):
        states, traces = _both(data, None, **kw)
        assert states.count().count == traces.count().count
        assert _keys(states) == _keys(traces)
    from logic.scenario import load_file

    states, traces = _both(load_file(str(SEGOC)))
    assert states.count().count == traces.count().count > 1
    assert _keys(states) == _keys(traces)


@pytest.mark.parametrize("n", [5, 11])
def test_states_traces_and_reference_agree_on_generated_positions(n: int) -> None:
    for s in range(3):
        spec = random_spec(random.Random(5000 * n + s), n)
        engine = Engine(from_data(scenario_data(spec)))
        pos = engine_position(engine, spec)
        by_states = ChainSearch(engine, pos, method="states").count().count
        by_traces = ChainSearch(engine, pos, method="traces").count().count
        assert by_states == by_traces == len(reference_chains(spec)), (n, s)


# ---------------------------------------------------------------- the graph


def test_states_that_differ_only_below_the_top_are_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """MST, then Waboku and Mind Crush in either order, then Solemn Judgment
    on top: the two chains meet in one state, and the count is the same as
    with every order kept apart."""
    after = "A activates Mystical Space Typhoon targeting Mind Crush"
    merged = _both(MST_POSITION, after)[0].state_graph()
    monkeypatch.setattr(Explorer, "merge", False)
    apart = _both(MST_POSITION, after)[0].state_graph()
    assert len(merged.edges) < len(apart.edges)
    assert merged.count() == apart.count() == 10  # as the count question answers (tests/test_chains.py)
    assert set(merged.chains()) == set(apart.chains())


def test_a_fluent_outside_the_guessed_domain_is_added_as_the_search_goes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the game's guess (q_dp_seed) the first domain is the position
    alone: the states beyond it are explored after one or more further
    origins have been ground, with the same chains."""
    spec = random_spec(random.Random(77), 8)
    engine = Engine(from_data(scenario_data(spec)))
    pos = engine_position(engine, spec)
    guessed = Explorer(ChainSearch(engine, pos))
    g1 = guessed.explore()
    original = ChainSearch.dp_facts

    def no_guess(self: ChainSearch) -> list:
        return [f for f in original(self) if f.name != "q_dp_start"]

    monkeypatch.setattr(ChainSearch, "dp_facts", no_guess)
    bare = Explorer(ChainSearch(engine, pos))
    g2 = bare.explore()
    assert guessed.stats["origins"] == 1 < bare.stats["origins"]
    assert g1.count() == g2.count() == len(reference_chains(spec)) - int(g1.empty_chain())
    assert set(g1.chains()) == set(g2.chains())


def test_too_many_states_is_a_limit() -> None:
    states, _ = _both(MST_POSITION, "A activates Mystical Space Typhoon targeting Mind Crush")
    with pytest.raises(LimitReached) as err:
        Explorer(states, max_states=3).explore()
    assert err.value.which == "states"


def test_cli_lists_links_without_outcomes(tmp_path: Path) -> None:
    import json

    from typer.testing import CliRunner

    from queries.cli import app
    from tests.test_chains import _write

    path = _write(tmp_path, MST_POSITION)
    after = "A activates Mystical Space Typhoon targeting Mind Crush"
    res = CliRunner().invoke(app, ["chains", str(path), "--after", after, "--no-outcomes", "--json"])
    assert res.exit_code == 0, res.output
    rows = [json.loads(x) for x in res.output.splitlines()]
    chains, summary = rows[:-1], rows[-1]["summary"]
    assert summary["chains"] == len(chains) == 10
    assert all(c["outcome"] is None and c["chain"][0] == "Mystical Space Typhoon" for c in chains)
    full = CliRunner().invoke(app, ["chains", str(path), "--after", after, "--json"])
    resolved = [json.loads(x) for x in full.output.splitlines()][:-1]
    assert sorted(map(json.dumps, (c["links"] for c in chains))) == \
        sorted(map(json.dumps, (c["links"] for c in resolved)))
    assert all(isinstance(c["outcome"], list) for c in resolved)
    text = CliRunner().invoke(app, ["chains", str(path), "--after", after, "--no-outcomes"])
    assert "not resolved (--no-outcomes)" in text.output


@pytest.mark.parametrize("n", [3, 6])
def test_dense_positions_agree_with_the_reference(n: int) -> None:
    """The benchmark's dense positions (bench/chains.py): every order of the
    effects that the rules allow, counted by states and listed."""
    from tests.reference.positions import dense_spec

    spec = dense_spec(n)
    engine = Engine(from_data(scenario_data(spec)))
    search = ChainSearch(engine, engine_position(engine, spec))
    ref = reference_chains(spec)
    assert search.count().count == len(ref) > n
    sig = {e.id: e.signature for e in spec.effects}
    got = {tuple((lk.player, sig[lk.card_ref]) for lk in c.links) for c in search.chains(outcomes=False)}
    assert got == ref


def _corpus_positions() -> list[tuple[str, object]]:
    """The distinct Yu-Gi-Oh! scenarios of the ruling corpora (real cards:
    costs, targets, negation, the Battle and Damage Steps ...)."""
    from queries.cases import load_cases
    from tests.conftest import CORPUS

    seen: set[str] = set()
    out = []
    for name in ("rulings-ygo.yaml", "ygo-seeds.yaml"):
        for case in load_cases(CORPUS / name):
            sc = case.get("scenario")
            key = repr(sc)
            if isinstance(sc, dict) and sc.get("game") == "ygo" and key not in seen:
                seen.add(key)
                out.append((case["id"], sc))
    return out


# every 12th: about a dozen positions; CHAINS_CORPUS_STRIDE=1 compares all 140
# (they all agree)
STRIDE = int(os.environ.get("CHAINS_CORPUS_STRIDE", "12"))


@pytest.mark.parametrize("case_id, data", _corpus_positions()[::STRIDE], ids=lambda x: x if isinstance(x, str) else "")
def test_states_and_traces_agree_on_ruling_corpus_positions(case_id: str, data: dict) -> None:
    states, traces = _both(data)
    a, b = states.count(), traces.count()
    assert (a.count, a.empty) == (b.count, b.empty), case_id
    assert _keys(states) == _keys(traces), case_id


def test_a_user_rule_file_counts_by_traces_and_applies() -> None:
    """User rule files (--rules) take part in the chains; they may read the
    chain in ways the search by states does not allow for, so the search is
    by traces then."""
    from logic.scenario import load_file
    from logic.userrules import load as load_rules
    from tests.messages import INPUTS

    sc = load_file(INPUTS / "base.yaml")
    q = "how many legal chains are there now"
    plain = Asker(sc).ask(q)
    house = Asker(sc, user_rules=load_rules([INPUTS / "good" / "rules" / "house-rule.lp"], "ygo"))
    assert ChainSearch(house.engine, house.start).method == "traces"
    ruled = house.ask(q)
    # no Spell in Main Phase 1: the chains with Mystical Space Typhoon in them are gone
    listed = Asker(sc).ask("list every legal chain now").answer
    with_mst = sum(1 for c in listed if "Mystical Space Typhoon" in c)
    assert len(listed) == plain.answer and with_mst > 0
    assert ruled.answer == plain.answer - with_mst
