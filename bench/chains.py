"""Every legal chain: counting and listing speed, ground size, and time against
the reference enumerator (tests/reference/), side by side.

    python bench/chains.py [--sizes 4,6,8,10,12] [--seeds 120] [--cap 150000] [--json FILE]

For each number of effects N the script scans generated positions (the
generator of tests/reference/positions.py, seeded, no identical copies) and
keeps the ``--keep`` positions with the most chains (at most ``--cap``, so
that the reference enumerator stays quick).  On those positions it reports
the medians of:

* counted/s -- chains counted per second by ``ChainSearch.count`` (the
  solver counts; no model is read into Python), over the whole call
  (grounding included) and over the count itself (``count_ms``);
* listed/s -- chains listed per second by ``ChainSearch.chains`` (streamed,
  decoded, resolved for their outcome: the command's ``--json`` path);
* atoms / rules -- the ground program (clingo's statistics);
* reference -- the reference enumerator's time on the same position, and the
  ratio count time / reference time.

Then the ground size as the horizon grows (one position per N, ground to
fixed horizons), with the growth per added step and per added effect: it must
be linear, i.e. the growth per step roughly constant.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from logic.facts import state_facts  # noqa: E402
from logic.registry import lp_files  # noqa: E402
from logic.scenario import from_data  # noqa: E402
from queries.chains import ChainSearch  # noqa: E402
from queries.engine import Engine  # noqa: E402
from solver import Session  # noqa: E402
from solver.terms import Function  # noqa: E402
from tests.reference.enumerator import Reference, Spec  # noqa: E402
from tests.reference.positions import engine_position, random_spec, scenario_data  # noqa: E402


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


def search(spec: Spec) -> ChainSearch:
    engine = Engine(from_data(scenario_data(spec)))
    return ChainSearch(engine, engine_position(engine, spec))


def measure(spec: Spec, expected: int) -> dict[str, float]:
    t0 = time.perf_counter()
    res = search(spec).count()
    count_s = time.perf_counter() - t0
    assert res.count == expected, (res.count, expected)
    t0 = time.perf_counter()
    cs = search(spec)
    listed = sum(1 for _ in cs.chains())
    list_s = time.perf_counter() - t0
    assert listed == expected, (listed, expected)
    t0 = time.perf_counter()
    ref = len(Reference(spec).run())
    ref_s = time.perf_counter() - t0
    assert ref == expected
    return {"chains": expected, "count_s": count_s, "count_solve_s": res.stats["count_ms"] / 1000,
            "list_s": list_s, "ref_s": ref_s, "atoms": res.stats["atoms"], "rules": res.stats["rules"],
            "horizon": res.horizon}


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
    out: dict[str, object] = {"positions": {}, "ground_vs_horizon": {}, "ground_vs_effects": {}}
    print(f"{'N':>3} {'chains':>8} {'count s':>8} {'counted/s':>10} {'(solver)':>10} {'list s':>8} "
          f"{'listed/s':>9} {'ref s':>7} {'count/ref':>9} {'atoms':>7} {'rules':>7} {'h':>3}")
    for n in sizes:
        rows = []
        for expected, spec in pick(n, seeds, cap, keep):
            rows.append(measure(spec, expected))

        def med(k: str, rows: list[dict[str, float]] = rows) -> float:
            return statistics.median(r[k] for r in rows)

        row = {"N": n, "positions": len(rows), "chains": med("chains"),
               "count_s": round(med("count_s"), 3),
               "counted_per_s": round(statistics.median(_rate(r["chains"], r["count_s"]) for r in rows)),
               "counted_per_s_solver": round(statistics.median(_rate(r["chains"], r["count_solve_s"]) for r in rows)),
               "list_s": round(med("list_s"), 3),
               "listed_per_s": round(statistics.median(_rate(r["chains"], r["list_s"]) for r in rows)),
               "ref_s": round(med("ref_s"), 3),
               "count_vs_ref": round(statistics.median(r["count_s"] / r["ref_s"] for r in rows), 2),
               "atoms": med("atoms"), "rules": med("rules"), "horizon": med("horizon")}
        out["positions"][str(n)] = row  # type: ignore[index]
        print(f"{n:>3} {row['chains']:>8.0f} {row['count_s']:>8.3f} {row['counted_per_s']:>10} "
              f"{row['counted_per_s_solver']:>10} {row['list_s']:>8.3f} {row['listed_per_s']:>9} "
              f"{row['ref_s']:>7.3f} {row['count_vs_ref']:>9} {row['atoms']:>7.0f} {row['rules']:>7.0f} "
              f"{row['horizon']:>3.0f}")
    # ground size as the horizon grows, and as the number of effects grows
    horizons = [10, 20, 40, 80]
    print("\nground size (atoms/rules) as the horizon grows; growth per added step")
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
    if "--json" in argv:
        Path(opt("--json", "bench-chains.json")).write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
