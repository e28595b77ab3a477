"""Time per ruling over the acceptance corpora: in-process and through the CLI,
with and without explanations.

    python bench/rulings.py [CORPUS.yaml ...] [--cli] [--repeat N] [--json FILE]
    python bench/rulings.py [CORPUS.yaml ...] --relevance [--actual] [--json FILE]

Reports the median (and max) time per case for: answering only (the verdict
and a witness, --no-explain), answering with explanations (the default), and,
with --cli, the installed command (process start included).  The ratio
explain/answer is the cost of explaining (issue 4: at most 3x).

With --relevance: the cost of the relevance check of unmodelled parts
(queries/rulings/relevance.py, docs/not-modelled.md) as a ratio to the plain answer,
per case: the answer (with explanations), then the question solved under the
most permissive and the most restrictive reading, forced for every case as if
a card of the position had an unmodelled part.  Times are CPU times of this
process (clingo solves in it), so that a loaded machine does not skew them.
With --actual: only the cases whose position has unmodelled parts, with the
check as it runs (a reading that cannot differ from the plain answer is not
solved again).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from logic.scenario import from_data  # noqa: E402
from queries import engine as engine_module  # noqa: E402
from queries.rulings.answer import Asker  # noqa: E402
from queries.rulings.cases import load_cases  # noqa: E402


def time_case(case: dict, explain: bool) -> float:
    # each case from a cold replay cache: otherwise the second pass (explain)
    # reuses the first pass's replays and looks cheaper than it is
    engine_module._REPLAYS.clear()
    t0 = time.perf_counter()
    sc = from_data(case["scenario"], case["id"])
    Asker(sc, explain=explain).ask(case["question"])
    return time.perf_counter() - t0


def time_relevance(case: dict) -> tuple[float, float]:
    """(plain answer, the two readings) in CPU seconds, from a cold replay cache."""
    from queries.language.parser import parse_question
    from queries.rulings import relevance

    engine_module._REPLAYS.clear()
    t0 = time.process_time()
    sc = from_data(case["scenario"], case["id"])
    asker = Asker(sc)
    asker.ask(case["question"])
    t1 = time.process_time()
    q = parse_question(case["question"], asker.names)
    for reading in ("permissive", "restrictive"):
        other = relevance._asker(asker, reading)
        other._answer(q)
        if reading == "permissive":
            other._check_unknown_resolutions(q)
    t2 = time.process_time()
    return t1 - t0, t2 - t1


def time_actual(case: dict) -> tuple[float, float] | None:
    """For a case whose position has unmodelled parts: (the answer without the
    relevance check, the answer with it) in CPU seconds; None for the others."""
    from logic.unmodelled import parts_of
    from queries.rulings import relevance

    sc = from_data(case["scenario"], case["id"])
    if not parts_of(sc):
        return None
    real = relevance.check
    times = []
    for check in (lambda *a: None, real):
        engine_module._REPLAYS.clear()
        relevance.check = check  # type: ignore[assignment]
        try:
            t0 = time.process_time()
            Asker(from_data(case["scenario"], case["id"])).ask(case["question"])
            times.append(time.process_time() - t0)
        finally:
            relevance.check = real  # type: ignore[assignment]
    return times[0], times[1] - times[0]


def relevance_main(files: list[str], argv: list[str]) -> int:
    out: dict[str, dict] = {}
    for f in files:
        cases = load_cases(f)
        plain, extra, ratios = [], [], []
        for case in cases:
            if "--actual" in argv:
                got = time_actual(case)
                if got is None:
                    continue
                a, b = got
            else:
                a, b = time_relevance(case)
            plain.append(a)
            extra.append(b)
            ratios.append((a + b) / a if a > 0 else 1.0)
            if "-v" in argv:
                print(f"  {case['id']:45s} plain {a:6.2f} s  readings {b:6.2f} s  ratio {ratios[-1]:.2f}", flush=True)
        if not plain:
            print(f"{Path(f).name}: no case with unmodelled parts")
            continue
        res = {"plain": summary(plain), "readings": summary(extra),
               "with_check_over_plain": {"median": round(statistics.median(ratios), 2),
                                         "max": round(max(ratios), 2),
                                         "total": round((sum(plain) + sum(extra)) / max(sum(plain), 1e-9), 2)}}
        out[Path(f).name] = res
        print(f"{Path(f).name}: {len(plain)} cases (CPU seconds)")
        for k, v in res.items():
            print(f"  {k:22s} {v}")
    if "--json" in argv:
        Path(argv[argv.index("--json") + 1]).write_text(json.dumps(out, indent=2))
    return 0


def time_cli(case: dict, exe: str) -> float:
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as fh:
        yaml.safe_dump(case["scenario"], fh)
        path = fh.name
    t0 = time.perf_counter()
    subprocess.run([exe, "ask", path, case["question"]], capture_output=True, check=False)
    return time.perf_counter() - t0


def summary(xs: list[float]) -> dict[str, float]:
    return {"median_s": round(statistics.median(xs), 3), "max_s": round(max(xs), 3),
            "total_s": round(sum(xs), 2), "n": len(xs)}


def main(argv: list[str]) -> int:
    files = [a for a in argv if a.endswith(".yaml")] or [str(ROOT / "tests/corpus/ygo-seeds.yaml"),
                                                          str(ROOT / "tests/corpus/mtg-seeds.yaml")]
    if "--relevance" in argv:
        return relevance_main(files, argv)
    cli = "--cli" in argv
    repeat = int(argv[argv.index("--repeat") + 1]) if "--repeat" in argv else 1
    out: dict[str, dict] = {}
    exe = str(Path(sys.executable).parent / "chainjudge")
    for f in files:
        try:
            cases = load_cases(f)
        except Exception as exc:  # noqa: BLE001
            print(f"{f}: {exc}")
            continue
        answer, explain, cmd, ratios = [], [], [], []
        for case in cases:
            a = min(time_case(case, False) for _ in range(repeat))
            e = min(time_case(case, True) for _ in range(repeat))
            answer.append(a)
            explain.append(e)
            ratios.append(e / a if a > 0 else 1.0)
            if cli:
                cmd.append(min(time_cli(case, exe) for _ in range(repeat)))
        res = {"answer": summary(answer), "explain": summary(explain),
               "explain_over_answer": {"median": round(statistics.median(ratios), 2), "max": round(max(ratios), 2),
                                       "total": round(sum(explain) / max(sum(answer), 1e-9), 2)}}
        if cli:
            res["cli"] = summary(cmd)
        out[Path(f).name] = res
        print(f"{Path(f).name}: {len(cases)} cases")
        for k, v in res.items():
            print(f"  {k:20s} {v}")
    if "--json" in argv:
        Path(argv[argv.index("--json") + 1]).write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
