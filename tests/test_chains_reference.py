"""The engine's chains against an independent reference enumerator.

``tests/reference/enumerator.py`` is a plain depth-first search over the
Fast Effect Timing chart, spell speeds, activation windows and SEGOC,
written from the rules in ``tests/reference/fragment.py``.  On generated
positions (2-12 effects, both players, mixed speeds and conditions, a random
point of the turn, identical copies, triggers waiting in a SEGOC) the sets
of chains the two find must be identical.  The generation is seeded
(hypothesis ``@seed``, no example database), split into shards so that
``pytest -n 2`` runs them in parallel.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, seed, settings

from logic.registry import registry
from logic.scenario import from_data
from queries.chains import ChainSearch
from queries.engine import Engine
from tests.reference.enumerator import Chain, Spec, reference_chains
from tests.reference.fragment import IMPLEMENTED, OUTSIDE, RULES, fingerprint
from tests.reference.positions import engine_position, random_spec, scenario_data, specs

SHARDS = 4
# Positions compared per run: 500 (about 90 s of CPU on this machine, 45 s of
# wall time with ``-n 2``; see docs/chains.md); CHAINS_REFERENCE_POSITIONS
# changes it.
POSITIONS = int(os.environ.get("CHAINS_REFERENCE_POSITIONS", "500"))
PER_SHARD = -(-POSITIONS // SHARDS)


def engine_chains(spec: Spec, outcomes: bool = False) -> set[Chain]:
    sc = from_data(scenario_data(spec))
    engine = Engine(sc)
    search = ChainSearch(engine, engine_position(engine, spec), verify=True)
    sig = {e.id: e.signature for e in spec.effects}
    return {tuple((lk.player, sig[lk.card_ref]) for lk in c.links) for c in search.chains(outcomes=outcomes)}


def engine_count(spec: Spec) -> int:
    sc = from_data(scenario_data(spec))
    engine = Engine(sc)
    return ChainSearch(engine, engine_position(engine, spec), verify=True).count().count


def _explain(spec: Spec, ref: set[Chain], got: set[Chain]) -> str:
    lines = [f"point {spec.point}, turn player {spec.turn_player}"]
    lines += [f"  {e}" for e in spec.effects]
    ids = {e.signature: e.id for e in spec.effects}

    def show(c: Chain) -> str:
        return " / ".join(f"{p}:{ids[s]}" for p, s in c) or "(empty)"

    lines.append("only the reference: " + "; ".join(show(c) for c in sorted(ref - got, key=str)[:8]))
    lines.append("only the engine:    " + "; ".join(show(c) for c in sorted(got - ref, key=str)[:8]))
    return "\n".join(lines)


def _check(spec: Spec) -> None:
    ref = reference_chains(spec)
    got = engine_chains(spec)
    assert got == ref, _explain(spec, ref, got)


@pytest.mark.parametrize("shard", range(SHARDS))
def test_engine_matches_reference(shard: int) -> None:
    @seed(20240 + shard)
    @settings(max_examples=PER_SHARD, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck))
    @given(specs(2, 12))
    def run(spec: Spec) -> None:
        _check(spec)

    run()


@pytest.mark.parametrize("n", [3, 6, 9, 12])
def test_counts_match_reference(n: int) -> None:
    """Counting (in the solver, the traces cut where the chain starts to
    resolve) gives the number of chains the reference finds."""
    for s in range(6):
        spec = random_spec(random.Random(1000 * n + s), n)
        assert engine_count(spec) == len(reference_chains(spec)), _explain(spec, reference_chains(spec), set())


def test_resolving_the_chain_does_not_change_the_chains() -> None:
    """Listing with the chains resolved (full traces, with outcomes) finds the
    same chains as the cut search."""
    for s in range(8):
        spec = random_spec(random.Random(77 + s), 5)
        assert engine_chains(spec, outcomes=True) == engine_chains(spec, outcomes=False)


def test_fragment_rules_match_the_encodings() -> None:
    """Every rule of the Yu-Gi-Oh! encodings is classified in the fragment, and
    the ones the reference implements are unchanged since it was reviewed."""
    reg = {r.id: r for r in registry("ygo").values()}
    unclassified = sorted(set(reg) - set(RULES))
    assert not unclassified, ("rules not classified in tests/reference/fragment.py (implemented by the "
                              f"reference enumerator, or outside its fragment): {unclassified}")
    gone = sorted(set(RULES) - set(reg))
    assert not gone, f"tests/reference/fragment.py lists rules the encodings no longer have: {gone}"
    changed = []
    for rid, (kind, fp) in RULES.items():
        assert kind in (IMPLEMENTED, OUTSIDE)
        if kind == IMPLEMENTED and fingerprint(reg[rid].text, reg[rid].body) != fp:
            changed.append(f"{rid} ({reg[rid].file}:{reg[rid].line})")
    assert not changed, ("rules of the fragment changed in the encodings; review the reference enumerator "
                         "(tests/reference/enumerator.py) against them and update their fingerprints in "
                         f"tests/reference/fragment.py: {changed}")
