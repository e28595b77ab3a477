"""Issue 16's measurements, in one run: warm rulings through queries.api,
cold `chainjudge ask`, and `chainjudge cases`, each as a ratio to bare
process starts measured in the same run.

    python bench/api.py [--warm] [--cold] [--cases] [--stride N] [--cold-stride N] [--json FILE]

(no part named: all three)

Times are CPU seconds (this process's for --warm, the child processes' for
--cold and --cases), so that a loaded machine does not skew them.

--warm   every case of the seed corpora (/work/shared/rulings/*.yaml, else
         tests/corpus/) and of the external corpus (tests/corpus/external/,
         with the card lists of ../shared/data), answered in this process
         through ``queries.api.ask`` (explanations on, as ``chainjudge ask``)
         after one warm-up call: median, p95 and max per ruling, and the
         slowest five with why (question kind, horizon, solves, ground and
         solve time, the outcome).  --stride N: every Nth external case
         (0: none).
--cold   `chainjudge ask` on each seed case (a fresh process each), against
         a bare ``python -c "import clingo"`` run right after it: the median
         ratio (issue 16's target: at most 5x).  --cold-stride N: every Nth
         seed case.
--cases  `chainjudge cases` on the Yu-Gi-Oh! seed corpus against as many bare
         python+clingo process starts run one after another (target: at most
         0.5x).

The code measured is the checkout this file sits in (bench/..), so a copy of
this file in an older checkout measures that one; without ``queries.api``
(before it existed) the warm rulings go through ``Asker`` the same way.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SHARED = Path(os.environ.get("BENCH_SHARED", ROOT.parent / "shared"))
SEEDS = sorted(Path("/work/shared/rulings").glob("*.yaml")) or sorted((ROOT / "tests" / "corpus").glob("*-seeds.yaml"))
EXTERNAL = sorted(p for p in (ROOT / "tests" / "corpus" / "external").glob("*.yaml") if p.name != "known-wrong.yaml")
CARDS = {"ygo": SHARED / "data" / "ygo-cards.jsonl", "mtg": SHARED / "data" / "mtg-cards-sample.jsonl"}
CLI = [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(ROOT)!r}); from queries.cli import main; main()"]
BARE = [sys.executable, "-c", "import clingo"]


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("CHAINJUDGE_")}


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))]


def _summary(xs: list[float]) -> dict[str, float]:
    return {"n": len(xs), "median_ms": round(statistics.median(xs) * 1000, 1),
            "p95_ms": round(_pct(xs, 0.95) * 1000, 1), "max_ms": round(max(xs) * 1000, 1)}


# ---------------------------------------------------------------- warm
def _asker() -> Any:
    try:
        from queries import api

        return lambda sc, q, cards: api.ask(sc, q, cards=cards)
    except ImportError:  # an older checkout: the same calls without the API
        from logic.scenario import from_data
        from queries.rulings.answer import Asker

        return lambda sc, q, cards: Asker(from_data(sc, "<scenario>", cards_file=cards)).ask(q)


def _cases(path: Path) -> list[dict[str, Any]]:
    from queries.rulings.cases import load_cases

    return load_cases(path)


def warm(stride: int) -> dict[str, Any]:
    from logic.errors import InputError, NotModelled
    from solver import LimitReached

    ask = _asker()
    runs: list[tuple[str, Path, dict[str, Any]]] = [("seed", p, c) for p in SEEDS for c in _cases(p)]
    for p in EXTERNAL if stride else []:
        runs += [("external", p, c) for c in _cases(p)[::stride]]
    first = runs[0][2]
    ask(first["scenario"], first["question"], None)  # the warm-up: the process loads what it keeps
    rows = []
    for kind, path, case in runs:
        sc = case.get("scenario")
        if sc is None:
            sc = yaml.safe_load((path.parent / case["scenario_file"]).read_text(encoding="utf-8"))
        game = sc.get("game", "ygo") if isinstance(sc, dict) else "ygo"
        cards = CARDS.get(game) if kind == "external" and CARDS.get(game, Path()).exists() else None
        t0 = time.process_time()
        why: dict[str, Any] = {}
        try:
            ans = ask(sc, case["question"], cards)
            why = {"outcome": "answered", "kind": ans.kind,
                   **{k: ans.stats.get(k) for k in ("horizon", "solves", "ground_ms", "solve_ms")}}
        except NotModelled:
            why = {"outcome": "not modelled"}
        except LimitReached:
            why = {"outcome": "limit"}
        except InputError:
            why = {"outcome": "bad input"}
        dt = time.process_time() - t0
        rows.append({"id": case["id"], "corpus": path.name, "set": kind, "s": dt, **why})
        print(f"  {dt * 1000:8.0f} ms  {path.name:<24} {case['id']}", file=sys.stderr, flush=True)
    xs = [r["s"] for r in rows]
    ext = [r["s"] for r in rows if r["set"] == "external"]
    out: dict[str, Any] = {"all": _summary(xs),
                           "seed": _summary([r["s"] for r in rows if r["set"] == "seed"]),
                           "external": _summary(ext) if ext else None,
                           "over_3s": sum(1 for x in xs if x > 3),
                           "slowest": sorted(rows, key=lambda r: -r["s"])[:5]}
    for r in out["slowest"]:
        r["ms"] = round(r.pop("s") * 1000)
    return out


# ---------------------------------------------------------------- cold
def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def _run(cmd: list[str], **kw: Any) -> tuple[float, int]:
    """CPU seconds (user + system) of the command and its children, and its exit code:
    on a loaded machine wall time measures the load more than the program."""
    c0 = _children_cpu()
    p = subprocess.run(cmd, capture_output=True, env=_env(), cwd=ROOT, **kw)
    return _children_cpu() - c0, p.returncode


def cold(stride: int = 1) -> dict[str, Any]:
    ratios, asks, bares = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for path in SEEDS:
            for case in _cases(path)[::stride]:
                f = Path(tmp) / "s.yaml"
                if "scenario" in case:
                    f.write_text(yaml.safe_dump(case["scenario"], allow_unicode=True), encoding="utf-8")
                else:
                    f = path.parent / case["scenario_file"]
                a, rc = _run([*CLI, "ask", str(f), case["question"]])
                b, _ = _run(BARE)
                asks.append(a)
                bares.append(b)
                ratios.append(a / b)
                print(f"  {a * 1000:7.0f} ms / {b * 1000:5.0f} ms = {a / b:5.1f}x  rc={rc}  {case['id']}",
                      file=sys.stderr, flush=True)
    return {"n": len(ratios), "median_ratio": round(statistics.median(ratios), 2),
            "ask_median_ms": round(statistics.median(asks) * 1000), "bare_median_ms": round(statistics.median(bares) * 1000)}


def cases_run() -> dict[str, Any]:
    ygo = next(p for p in SEEDS if p.name.startswith("ygo"))
    n = len(_cases(ygo))
    t, rc = _run([*CLI, "cases", str(ygo)])
    bare = 0.0
    for _ in range(n):
        bare += _run(BARE)[0]
    return {"cases": n, "rc": rc, "cases_s": round(t, 2), "bare_starts_s": round(bare, 2), "ratio": round(t / bare, 2)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--warm", action="store_true")
    ap.add_argument("--cold", action="store_true")
    ap.add_argument("--cases", action="store_true")
    ap.add_argument("--stride", type=int, default=1)
    ap.add_argument("--cold-stride", type=int, default=1)
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    every = not (a.warm or a.cold or a.cases)
    report: dict[str, Any] = {"root": str(ROOT)}
    try:
        report["commit"] = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                          cwd=ROOT).stdout.strip()
    except OSError:
        pass
    if every or a.cold:
        report["cold"] = cold(a.cold_stride)
        print(json.dumps({"cold": report["cold"]}), file=sys.stderr, flush=True)
    if every or a.cases:
        report["cases"] = cases_run()
        print(json.dumps({"cases": report["cases"]}), file=sys.stderr, flush=True)
    if every or a.warm:
        report["warm"] = warm(a.stride)
    text = json.dumps(report, indent=2)
    print(text)
    if a.json:
        a.json.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
