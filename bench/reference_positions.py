"""Per-position cost of the reference comparison (tests/test_chains_reference.py).

    python bench/reference_positions.py [--positions 60] [--seed 7] [--profile]

Generates positions with the generator of tests/reference/positions.py
(2-12 effects, seeded) and, for each, times what the test does: the engine's
chains (``ChainSearch(..., verify=True).chains(outcomes=False)``) and the
reference enumerator's.  Prints the median, mean and max per position, split
into the scenario (from_data + Engine), the engine's chains and the
reference (CPU time of this process: clingo runs in it, one thread;
wall time on a shared machine is noisy); checks that the two agree on every
position.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from logic.scenario import from_data  # noqa: E402
from queries.chains.search import ChainSearch  # noqa: E402
from queries.search.engine import Engine  # noqa: E402
from tests.reference.enumerator import reference_chains  # noqa: E402
from tests.reference.positions import engine_position, random_spec, scenario_data  # noqa: E402


def one(spec) -> tuple[float, float, float, bool]:  # type: ignore[no-untyped-def]
    t0 = time.process_time()
    engine = Engine(from_data(scenario_data(spec)))
    pos = engine_position(engine, spec)
    t1 = time.process_time()
    sig = {e.id: e.signature for e in spec.effects}
    got = {tuple((lk.player, sig[lk.card_ref]) for lk in c.links)
           for c in ChainSearch(engine, pos, verify=True).chains(outcomes=False)}
    t2 = time.process_time()
    ref = reference_chains(spec)
    t3 = time.process_time()
    return t1 - t0, t2 - t1, t3 - t2, got == ref


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    specs = [random_spec(random.Random(rng.getrandbits(32)), rng.randint(2, 12)) for _ in range(args.positions)]
    one(specs[0])  # warm up (imports, caches)
    if args.profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.enable()
    rows = [one(s) for s in specs]
    if args.profile:
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(35)
    bad = sum(1 for r in rows if not r[3])
    for lo, hi in ((2, 5), (6, 9), (10, 12)):
        xs = [r[1] * 1000 for r, sp in zip(rows, specs, strict=True) if lo <= len(sp.effects) <= hi]
        if xs:
            print(f"engine chains, {lo}-{hi} effects: median {statistics.median(xs):7.1f} ms  "
                  f"mean {statistics.mean(xs):7.1f} ms  ({len(xs)} positions)")
    for i, name in enumerate(("scenario", "engine chains", "reference")):
        xs = [r[i] * 1000 for r in rows]
        print(f"{name:14s} median {statistics.median(xs):7.1f} ms  mean {statistics.mean(xs):7.1f} ms  "
              f"max {max(xs):7.1f} ms")
    tot = [sum(r[:3]) * 1000 for r in rows]
    print(f"{'total':14s} median {statistics.median(tot):7.1f} ms  mean {statistics.mean(tot):7.1f} ms  "
          f"({len(rows)} positions, {bad} disagreeing)")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
