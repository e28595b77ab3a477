"""Running a corpus of ruling cases (docs/cases.md)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from logic.errors import InputError, NotModelled
from queries.rulings import ask as single
from queries.rulings.answer import Answer
from solver import LimitReached
from solver.errors import describe_limit
from solver.limits import Limits

GRADES = ("pass", "WRONG", "refused", "rejected", "limit")
"""How ``cases --grade`` sorts a case (README.md, "Usage"): answered and
right; answered and not the expected answer; not modelled (exit 4); bad input
(exit 2); a limit hit before an answer (exit 3)."""

FAILING_GRADES = ("WRONG", "rejected")


@dataclass
class CaseResult:
    id: str
    status: str  # passed failed skipped error
    got: Any
    expected: Any
    ms: float
    message: str = ""
    answer: Answer | None = None
    text: str = ""  # the answer as text, when the answer itself stayed in a worker process
    grade: str = ""  # one of GRADES
    source: str = ""  # the case's `source`, as written in the corpus

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "status": self.status, "grade": self.grade, "got": self.got,
                "expected": self.expected, "ms": round(self.ms, 1), "message": self.message,
                "source": self.source}


def normalise_expect(value: Any) -> Any:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, str):
        return value.strip()
    return value


def got_value(ans: Answer) -> Any:
    return ans.verdict if ans.verdict is not None else ans.answer


def load_cases(path: str | Path) -> list[dict[str, Any]]:
    from logic.scenario import parse_yaml, read_text

    data = parse_yaml(read_text(path, "case corpus"), str(path))
    if not isinstance(data, list):
        raise InputError("a case corpus is a list of cases (each '- id: ...')", str(path))
    for i, c in enumerate(data):
        where = f"{path}: case {i}" + (f" ({c['id']})" if isinstance(c, dict) and "id" in c else "")
        if not isinstance(c, dict):
            raise InputError("each case must be a mapping with id, scenario (or scenario_file), question and expect",
                             where)
        for key in ("question", "expect"):
            if key not in c:
                raise InputError(f"missing field '{key}'", where)
        if "scenario" not in c and "scenario_file" not in c:
            raise InputError("missing field 'scenario' (or 'scenario_file')", where)
        if not isinstance(c["question"], str):
            raise InputError("question must be a text", where)
    return data


def run_case(case: dict[str, Any], base: Path, time_limit: float | None = None,
             cards_file: str | Path | None = None, limits: Limits | None = None,
             rules: list[str] | None = None, explain: bool = True) -> CaseResult:
    """Answer one case.  ``explain=False``: the verdict only (no reasons,
    counterfactuals or chances), as fast as the answer allows."""
    cid = str(case.get("id", "?"))
    expected = normalise_expect(case["expect"])
    start = time.perf_counter()
    r = _answer_case(case, cid, expected, start, base, time_limit, cards_file, limits, rules, explain)
    r.source = str(case.get("source", ""))
    return r


def _answer_case(case: dict[str, Any], cid: str, expected: Any, start: float, base: Path,
                 time_limit: float | None, cards_file: str | Path | None, limits: Limits | None,
                 rules: list[str] | None, explain: bool) -> CaseResult:
    try:
        if "scenario_file" in case:
            sc = single.load_scenario(base / str(case["scenario_file"]), cards=cards_file)
        else:
            sc = single.load_scenario(case["scenario"], cards=cards_file, where=f"case {cid}: scenario")
        lim = limits if limits is not None else Limits(time=time_limit)
        ans = single.ask(sc, str(case["question"]), rules=rules, explain=explain, limit_set=lim)
        got = got_value(ans)
        ok = _equal(got, expected)
        return CaseResult(cid, "passed" if ok else "failed", got, expected, _ms(start), answer=ans,
                          grade="pass" if ok else "WRONG")
    except NotModelled as exc:
        return CaseResult(cid, "skipped", None, expected, _ms(start), str(exc), grade="refused")
    except LimitReached as exc:
        return CaseResult(cid, "failed", None, expected, _ms(start), describe_limit(exc), grade="limit")
    except InputError as exc:
        return CaseResult(cid, "failed", None, expected, _ms(start), f"bad input: {exc}", grade="rejected")


def _equal(got: Any, expected: Any) -> bool:
    if isinstance(expected, list) and isinstance(got, list):
        return [str(x) for x in got] == [str(x) for x in expected]
    if isinstance(expected, int) and not isinstance(expected, bool):
        return got == expected
    return str(got).strip().lower() == str(expected).strip().lower()


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def run_corpus(path: str | Path, time_limit: float | None = None,
               cards_file: str | Path | None = None, limits: Limits | None = None,
               rules: list[str] | None = None, explain: bool = True, jobs: int = 1,
               text_of: Callable[[Answer], str] | None = None) -> Iterator[CaseResult]:
    """Every case of a corpus, in the corpus's order.  With ``jobs`` > 1 the
    cases are answered in that many worker processes (the cases are
    independent; each answer is the same as in one process); the results then
    carry their answer as text (``CaseResult.text``, made by ``text_of``, e.g.
    queries.render.text.to_text) instead of the object."""
    p = Path(path)
    cases = load_cases(p)
    if jobs <= 1 or len(cases) < 2:
        for case in cases:
            yield run_case(case, p.parent, time_limit, cards_file, limits=limits, rules=rules, explain=explain)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    args = (str(p.parent), time_limit, str(cards_file) if cards_file else None, limits, rules, explain, text_of)
    ctx = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
    with ProcessPoolExecutor(max_workers=min(jobs, len(cases)), mp_context=ctx) as pool:
        futures = [pool.submit(_run_detached, case, *args) for case in cases]
        for fut in futures:
            yield fut.result()


def _run_detached(case: dict[str, Any], base: str, time_limit: float | None, cards_file: str | None,
                  limits: Limits | None, rules: list[str] | None, explain: bool,
                  text_of: Callable[[Answer], str] | None) -> CaseResult:
    """run_case in a worker process: the answer travels back as text."""
    r = run_case(case, Path(base), time_limit, cards_file, limits=limits, rules=rules, explain=explain)
    if r.answer is not None:
        r.text = text_of(r.answer) if text_of is not None else ""
        r.answer = None
    return r
