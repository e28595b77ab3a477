"""Running a corpus of ruling cases (docs/cases.md)."""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from logic.errors import InputError, NotModelled, shorten, type_name
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
CASE_KEYS = frozenset({"id", "source", "ruling", "scenario", "scenario_file", "question", "expect",
                       "status", "why", "note", "notes", "tags"})


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
        named = isinstance(c, dict) and isinstance(c.get("id"), str | int) and not isinstance(c.get("id"), bool)
        where = f"{path}: case {i}" + (f" ({shorten(c['id'], 60)})" if named else "")
        if not isinstance(c, dict):
            raise InputError("each case must be a mapping with id, scenario (or scenario_file), question and expect",
                             where)
        for key in c:
            if key not in CASE_KEYS:
                import difflib

                close = difflib.get_close_matches(str(key), sorted(CASE_KEYS), n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else f"; known fields: {', '.join(sorted(CASE_KEYS))}"
                raise InputError(f"unknown field {shorten(str(key), 40)}{hint}", where)
        if "id" in c and not isinstance(c["id"], str | int):
            raise InputError(f"id must be a text, not {type_name(c['id'])}", where)
        if "scenario_file" in c and not isinstance(c["scenario_file"], str):
            raise InputError(f"scenario_file must be a text (a path), not {type_name(c['scenario_file'])}", where)
        for key in ("question", "expect"):
            if key not in c:
                raise InputError(f"missing field '{key}'", where)
        if "scenario" not in c and "scenario_file" not in c:
            raise InputError("missing field 'scenario' (or 'scenario_file')", where)
        if not isinstance(c["question"], str):
            raise InputError("question must be a text", where)
        if "scenario_file" in c:
            try:
                scenario_path(Path(path).parent, c["scenario_file"])
            except InputError as exc:
                raise InputError(exc.message, f"{where}: scenario_file") from None
    return data


def run_case(case: dict[str, Any], base: Path, time_limit: float | None = None,
             cards_file: str | Path | None = None, limits: Limits | None = None,
             rules: list[str] | None = None, explain: bool = True,
             text_of: Callable[[Answer], str] | None = None) -> CaseResult:
    """Answer one case.  ``explain=False``: the verdict only (no reasons,
    counterfactuals or chances), as fast as the answer allows.  With a rule
    file the case is answered in a child process (its answer then comes back
    as text, made by ``text_of``)."""
    cid = str(case.get("id", "?"))
    expected = normalise_expect(case["expect"])
    start = time.perf_counter()
    if rules:
        # a rule file can make grounding explode past the probe's steps: the case runs
        # in a child under the time and memory limits (logic/bounded.py)
        from logic.bounded import call_bounded

        lim = limits or Limits(time=time_limit)

        def detached() -> CaseResult:
            return _as_text(_answer_case(case, cid, expected, start, base, time_limit, cards_file, limits,
                                         rules, explain), text_of)

        try:
            r = call_bounded(detached, lim.time if limits is not None else time_limit, lim.memory_mb, "the case")
        except LimitReached as exc:
            r = CaseResult(cid, "failed", None, expected, _ms(start), describe_limit(exc), grade="limit")
        except InputError as exc:
            r = CaseResult(cid, "failed", None, expected, _ms(start), f"bad input: {exc}", grade="rejected")
        except NotModelled as exc:
            r = CaseResult(cid, "skipped", None, expected, _ms(start), str(exc), grade="refused")
    else:
        r = _answer_case(case, cid, expected, start, base, time_limit, cards_file, limits, rules, explain)
    r.source = str(case.get("source", ""))
    return r


def _as_text(r: CaseResult, text_of: Callable[[Answer], str] | None) -> CaseResult:
    if r.answer is not None:
        r.text = text_of(r.answer) if text_of is not None else ""
        r.answer = None
    return r


def _answer_case(case: dict[str, Any], cid: str, expected: Any, start: float, base: Path,
                 time_limit: float | None, cards_file: str | Path | None, limits: Limits | None,
                 rules: list[str] | None, explain: bool) -> CaseResult:
    try:
        if "scenario_file" in case:
            sc = single.load_scenario(scenario_path(base, str(case["scenario_file"])), cards=cards_file)
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


def scenario_path(base: Path, name: str) -> Path:
    """A case's ``scenario_file``: a path relative to the corpus's folder, and
    inside it (symlinks followed): a corpus cannot make chainjudge read, and
    quote in its messages, a file elsewhere."""
    if "\x00" in name:
        raise InputError("the path contains a NUL character", "scenario_file")
    p = Path(name)
    if p.is_absolute():
        raise InputError(f"{shorten(name)} is not a path relative to the corpus's folder", "scenario_file")
    root = base.resolve()
    full = (base / p).resolve()
    if not full.is_relative_to(root):
        raise InputError(f"{shorten(name)} is outside the corpus's folder ({base}); "
                         "keep a corpus's scenarios in its folder", "scenario_file")
    return base / p


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
               text_of: Callable[[Answer], str] | None = None) -> Generator[CaseResult, None, None]:
    """Every case of a corpus, in the corpus's order.  With ``jobs`` > 1 the
    cases are answered in that many worker processes (the cases are
    independent; each answer is the same as in one process); the results then
    carry their answer as text (``CaseResult.text``, made by ``text_of``, e.g.
    queries.render.text.to_text) instead of the object."""
    p = Path(path)
    cases = load_cases(p)
    if jobs <= 1 or len(cases) < 2:
        for case in cases:
            yield run_case(case, p.parent, time_limit, cards_file, limits=limits, rules=rules, explain=explain,
                           text_of=text_of)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    args = (str(p.parent), time_limit, str(cards_file) if cards_file else None, limits, rules, explain, text_of)
    ctx = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
    import signal

    pool = ProcessPoolExecutor(max_workers=min(jobs, len(cases)), mp_context=ctx, initializer=_worker_start)
    done = False
    stop = {signal.SIGINT, signal.SIGTERM}
    try:
        # the workers are forked at the first submit: Ctrl-C and SIGTERM wait until
        # they exist and ignore them (a signal at fork time would print a worker's traceback)
        signal.pthread_sigmask(signal.SIG_BLOCK, stop)
        try:
            futures = [pool.submit(_run_detached, case, *args) for case in cases]
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, stop)
        for fut in futures:
            yield fut.result()
        done = True
    finally:
        if done:
            pool.shutdown(wait=True)
        else:
            stop_pool(pool)  # Ctrl-C, SIGTERM, or the reader stopped: no worker is left running


def _worker_start() -> None:
    """A worker leaves Ctrl-C and SIGTERM to the main process, which ends it."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})


def stop_pool(pool: Any) -> None:
    """End a process pool now: pending cases cancelled, running workers killed."""
    procs = list(getattr(pool, "_processes", {}).values())  # noqa: SLF001 - the executor keeps them here
    pool.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        try:
            p.kill()
        except (OSError, AttributeError):
            pass
    for p in procs:
        try:
            p.join(2)
        except (OSError, AssertionError):
            pass


def _run_detached(case: dict[str, Any], base: str, time_limit: float | None, cards_file: str | None,
                  limits: Limits | None, rules: list[str] | None, explain: bool,
                  text_of: Callable[[Answer], str] | None) -> CaseResult:
    """run_case in a worker process: the answer travels back as text."""
    return _as_text(run_case(case, Path(base), time_limit, cards_file, limits=limits, rules=rules, explain=explain,
                             text_of=text_of), text_of)
