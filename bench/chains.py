"""Every legal chain: counting and listing speed, ground size, and time against
the reference enumerator (tests/reference/), side by side.

    python bench/chains.py [--sizes 4,6,8,10,12] [--seeds 120] [--cap 150000] [--keep 3]
                           [--dense 4,6,8,10,12] [--dense-list 10] [--json FILE]

1. Generated positions.  For each number of effects N the script scans
   generated positions (the generator of tests/reference/positions.py,
   seeded, no identical copies) and keeps the ``--keep`` positions with the
   most chains (at most ``--cap``, so that the reference enumerator stays
   quick).  On those positions it reports the medians of:

   * count s, counted/s -- ``ChainSearch.count`` by states (the default: the
     graph of the chain's states, queries/chains/states.py), the whole call;
     and the same by traces (the first version's search: clingo
     counts whole traces) for comparison;
   * list s, listed/s -- ``ChainSearch.chains`` with outcomes (each chain
     resolved: the command's default), and the links only
     (``--no-outcomes``: by states);
   * states -- the states the search by states put to the solver;
   * reference -- the reference enumerator's time on the same position, and
     the ratio count time / reference time.

2. Dense positions (tests/reference/positions.py, ``dense_spec``): N spell
   speed 2 effects that can all be activated now, where the number of chains
   grows about factorially.  Counted by states (the whole call); listed
   (links only) up to ``--dense-list`` effects; the reference enumerator run
   in full while its chains number at most ``--cap``, beyond that stopped
   after ``--cap`` chains and its time extrapolated at the rate it had
   (marked ``~``).

3. Ground size: the search by traces as the horizon grows (it must grow
   linearly, about the same number of rules per added step) and as the
   number of effects grows; the search by states' one step (its control
   holds the position and one step, whatever the chain's length).
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from logic.facts import state_facts  # noqa: E402
from logic.registry import lp_files  # noqa: E402
from logic.scenario import from_data  # noqa: E402
from queries.chains.search import ChainSearch  # noqa: E402
from queries.search.engine import Engine  # noqa: E402
from solver import Session  # noqa: E402
from solver.terms import Function  # noqa: E402
from tests.reference.enumerator import Reference, Spec  # noqa: E402
from tests.reference.positions import dense_spec, engine_position, random_spec, scenario_data  # noqa: E402


class _Capped(Reference):
    """The reference enumerator, stopped once it has found more than ``cap`` chains."""

    cap = 0

    def _record(self, chain: list[int]) -> None:
        super()._record(chain)
        if len(self.found) > self.cap:
            raise OverflowError


def reference_count(spec: Spec, cap: int) -> int | None:
    ref = _Capped(spec)
    ref.cap = cap
    try:
        return len(ref.run())
    except OverflowError:
        return None


def pick(n: int, seeds: int, cap: int, keep: int) -> list[tuple[int, Spec]]:
    """The ``keep`` positions with N effects (among ``seeds``) with the most chains, at most ``cap``."""
    found: list[tuple[int, int, Spec]] = []
    for s in range(seeds):
        spec = random_spec(random.Random(7919 * n + s), n, copies=False)
        c = reference_count(spec, cap)
        if c is not None:
            found.append((c, s, spec))
    found.sort(key=lambda x: (-x[0], x[1]))
    return [(c, spec) for c, _, spec in found[:keep]]


def search(spec: Spec, method: str = "states") -> ChainSearch:
    engine = Engine(from_data(scenario_data(spec)))
    return ChainSearch(engine, engine_position(engine, spec), method=method)


def _timed(fn):  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def measure(spec: Spec, expected: int) -> dict[str, float]:
    res, count_s = _timed(lambda: search(spec).count())
    assert res.count == expected, (res.count, expected)
    traces, traces_s = _timed(lambda: search(spec, "traces").count())
    assert traces.count == expected, (traces.count, expected)
    listed, list_s = _timed(lambda: sum(1 for _ in search(spec).chains()))
    assert listed == expected, (listed, expected)
    links, links_s = _timed(lambda: sum(1 for _ in search(spec).chains(outcomes=False)))
    assert links == expected, (links, expected)
    ref, ref_s = _timed(lambda: len(Reference(spec).run()))
    assert ref == expected
    return {"chains": expected, "count_s": count_s, "traces_s": traces_s, "list_s": list_s, "links_s": links_s,
            "ref_s": ref_s, "states": res.stats["states"], "atoms": res.stats["atoms"],
            "rules": res.stats["rules"]}


def reference_time(spec: Spec, expected: int, cap: int) -> tuple[float, bool]:
    """The reference enumerator's time on ``spec`` (True: measured), or its
    time extrapolated from the first ``cap`` chains (False)."""
    if expected <= cap:
        n, s = _timed(lambda: len(Reference(spec).run()))
        assert n == expected, (n, expected)
        return s, True
    ref = _Capped(spec)
    ref.cap = cap
    t0 = time.perf_counter()
    try:
        ref.run()
    except OverflowError:
        pass
    s = time.perf_counter() - t0
    return s * expected / max(1, len(ref.found)), False


def dense(n: int, cap: int, list_upto: int) -> dict[str, Any]:
    spec = dense_spec(n)
    res, count_s = _timed(lambda: search(spec).count())
    row: dict[str, Any] = {"N": n, "chains": res.count, "count_s": round(count_s, 3),
                           "counted_per_s": _rate(res.count, count_s), "states": res.stats["states"],
                           "transitions": res.stats["transitions"]}
    if n <= list_upto:
        listed, list_s = _timed(lambda: sum(1 for _ in search(spec).chains(outcomes=False)))
        assert listed == res.count, (listed, res.count)
        row.update({"links_s": round(list_s, 3), "links_per_s": _rate(listed, list_s)})
    ref_s, measured = reference_time(spec, res.count, cap)
    row.update({"ref_s": round(ref_s, 3), "ref_measured": measured, "count_vs_ref": round(count_s / ref_s, 4)})
    return row


def ground_size(spec: Spec, h: int) -> tuple[int, int]:
    """Atoms and rules of the chain search's program ground to horizon h."""
    cs = search(spec)
    s = Session()
    for f in lp_files("ygo"):
        if f.name != "show.lp":
            s.load(f)
    s.add_facts(cs.engine.static + state_facts(cs.position.fluents) + cs._facts(True))
    cs._ground_to(s, 0, h, base=True)
    s.ground([("chains", [h])])
    s.solve([(Function("bench_no_such_atom", []), True)])  # unsatisfiable at once; fills the statistics
    return s.size()


def _rate(n: float, s: float) -> float:
    return round(n / s) if s > 0 else 0.0


def main(argv: list[str]) -> int:
    def opt(name: str, default: str) -> str:
        return argv[argv.index(name) + 1] if name in argv else default

    sizes = [int(x) for x in opt("--sizes", "4,6,8,10,12").split(",")]
    seeds = int(opt("--seeds", "120"))
    cap = int(opt("--cap", "150000"))
    keep = int(opt("--keep", "3"))
    dense_sizes = [int(x) for x in opt("--dense", "4,6,8,10,12").split(",") if x]
    dense_list = int(opt("--dense-list", "10"))
    out: dict[str, object] = {"positions": {}, "dense": {}, "ground_vs_horizon": {}, "ground_vs_effects": {},
                              "states_ground": {}}
    print("1. generated positions (medians over the positions with the most chains)")
    print(f"{'N':>3} {'chains':>7} {'count s':>8} {'counted/s':>9} {'traces s':>8} {'list s':>7} {'listed/s':>8} "
          f"{'links s':>7} {'links/s':>8} {'states':>6} {'ref s':>6} {'count/ref':>9}")
    for n in sizes:
        rows = []
        for expected, spec in pick(n, seeds, cap, keep):
            rows.append(measure(spec, expected))

        def med(k: str, rows: list[dict[str, float]] = rows) -> float:
            return statistics.median(r[k] for r in rows)

        def rate(k: str, rows: list[dict[str, float]] = rows) -> float:
            return round(statistics.median(_rate(r["chains"], r[k]) for r in rows))

        row = {"N": n, "positions": len(rows), "chains": med("chains"),
               "count_s": round(med("count_s"), 3), "counted_per_s": rate("count_s"),
               "traces_count_s": round(med("traces_s"), 3),
               "list_s": round(med("list_s"), 3), "listed_per_s": rate("list_s"),
               "links_s": round(med("links_s"), 3), "links_per_s": rate("links_s"),
               "states": med("states"), "ref_s": round(med("ref_s"), 3),
               "count_vs_ref": round(statistics.median(r["count_s"] / r["ref_s"] for r in rows), 2),
               "atoms": med("atoms"), "rules": med("rules")}
        out["positions"][str(n)] = row  # type: ignore[index]
        print(f"{n:>3} {row['chains']:>7.0f} {row['count_s']:>8.3f} {row['counted_per_s']:>9} "
              f"{row['traces_count_s']:>8.3f} {row['list_s']:>7.3f} {row['listed_per_s']:>8} "
              f"{row['links_s']:>7.3f} {row['links_per_s']:>8} {row['states']:>6.0f} {row['ref_s']:>6.3f} "
              f"{row['count_vs_ref']:>9}")
    if dense_sizes:
        print("\n2. dense positions (every effect spell speed 2 and usable now)")
        print(f"{'N':>3} {'chains':>12} {'count s':>8} {'counted/s':>11} {'states':>7} {'links s':>8} "
              f"{'links/s':>8} {'ref s':>10} {'count/ref':>9}")
        for n in dense_sizes:
            row = dense(n, cap, dense_list)
            out["dense"][str(n)] = row  # type: ignore[index]
            ref = f"{'' if row['ref_measured'] else '~'}{row['ref_s']:.3f}"
            print(f"{n:>3} {row['chains']:>12} {row['count_s']:>8.3f} {row['counted_per_s']:>11} "
                  f"{row['states']:>7} {row.get('links_s', float('nan')):>8.3f} {row.get('links_per_s', '-'):>8} "
                  f"{ref:>10} {row['count_vs_ref']:>9}")
    # ground size as the horizon grows, and as the number of effects grows
    horizons = [10, 20, 40, 80]
    print("\n3. ground size (atoms/rules) of the search by traces as the horizon grows; growth per added step")
    for n in sizes:
        spec = random_spec(random.Random(7919 * n), n, copies=False)
        sizes_h = [ground_size(spec, h) for h in horizons]
        per_step = [round((b[1] - a[1]) / (hb - ha)) for (a, b, ha, hb)
                    in zip(sizes_h, sizes_h[1:], horizons, horizons[1:], strict=False)]
        out["ground_vs_horizon"][str(n)] = {  # type: ignore[index]
            "horizons": horizons, "atoms": [a for a, _ in sizes_h], "rules": [r for _, r in sizes_h],
            "rules_per_step": per_step}
        print(f"  N={n:>2}: " + "  ".join(f"h={h}: {a}/{r}" for h, (a, r) in zip(horizons, sizes_h, strict=True))
              + f"   rules per step {per_step}")
    print("\nground size at horizon 40 as the number of effects grows")
    base = None
    for n in sizes:
        spec = random_spec(random.Random(7919 * n), n, copies=False)
        a, r = ground_size(spec, 40)
        out["ground_vs_effects"][str(n)] = {"atoms": a, "rules": r}  # type: ignore[index]
        per = "" if base is None else f"   rules per added effect {round((r - base[1]) / (n - base[0]))}"
        base = base or (n, r)
        print(f"  N={n:>2}: {a} atoms, {r} rules{per}")
    print("\nground size of the search by states (the position and one step) as the number of effects grows")
    for n in sizes:
        spec = random_spec(random.Random(7919 * n), n, copies=False)
        res = search(spec).count()
        out["states_ground"][str(n)] = {"atoms": res.stats["atoms"], "rules": res.stats["rules"]}  # type: ignore[index]
        print(f"  N={n:>2}: {res.stats['atoms']} atoms, {res.stats['rules']} rules")
    if "--json" in argv:
        Path(opt("--json", "bench-chains.json")).write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
