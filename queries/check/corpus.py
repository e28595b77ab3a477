"""Corpus regression with blame, and rule coverage (``chainjudge check --cases``).

Every case of the given corpora is run as ``chainjudge cases`` runs it (with
the checker's rule files, if any).  For a failing case the blame is the
answer's own reason: the minimal set(s) of rules that forbid what the corpus
expects (the engine's QuickXplain reasons, :meth:`queries.search.engine.Stepper.reasons`),
or, for a "yes" the corpus does not expect, the rules that let the witness
through.

Rule coverage is an approximation of the issue's definition ("removing the
rule changes some answer"): a case counts as depending on a rule when the
rule is in the minimal reason its answer reports.  For a "no" (nothing
allows what was asked) lifting one rule alone changes the answer exactly
when that rule is in *every* minimal reason, so a rule of the one reason
reported may be counted although another reason would still forbid (an
over-approximation); an existential "yes" never changes when a rule is
lifted (lifting only removes constraints).  Answers that are lists or
counts may change when a rule outside the reason is lifted: those are not
found (an under-approximation).  Doing it exactly means answering every case
once per rule (53 blamable rules x 53 cases x ~1.4 s for tests/corpus/ygo-seeds.yaml,
over an hour), which the checker does not do.  Rules no case depends on are
listed as *untested*.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from logic.errors import InputError
from logic.registry import registry
from queries.rulings.cases import load_cases, run_case

if TYPE_CHECKING:
    from queries.check.checker import Checker


def regression(checker: Checker) -> None:
    opts = checker.opts
    rep = checker.report
    game = opts.game
    rules = [str(p) for p in opts.rules]
    results: list[dict[str, Any]] = []
    cited: dict[str, list[str]] = {}
    counts = {"passed": 0, "failed": 0, "skipped": 0, "other_game": 0}
    for path in opts.cases:
        p = Path(path)
        if not p.exists():
            raise InputError("file not found", str(p))
        for case in load_cases(p):
            scen = case.get("scenario")
            if isinstance(scen, dict) and scen.get("game", "ygo") != game:
                counts["other_game"] += 1
                continue
            r = run_case(case, p.parent, opts.time_limit, rules=rules or None)
            because = list(r.answer.because) if r.answer is not None else []
            ids = [b["rule"] for b in because if isinstance(b, dict) and b.get("rule")]
            entry: dict[str, Any] = {"id": r.id, "corpus": str(p), "status": r.status, "got": r.got,
                                     "expected": r.expected, "ms": round(r.ms, 1)}
            if r.message:
                entry["message"] = r.message
            if r.status == "passed":
                counts["passed"] += 1
            elif r.status == "skipped":
                counts["skipped"] += 1
            else:
                counts["failed"] += 1
                entry["blame"] = _blame(r.got, r.expected, because, checker)
            for rid in ids:
                cited.setdefault(rid, []).append(r.id)
            results.append(entry)
    rep.corpus = {"cases": results, **counts}
    if opts.coverage:
        known = registry(game)
        known.update({a: r for a, r in checker.book.rules.items() if r.file and Path(r.file).suffix == ".lp"
                      and a not in known and not r.id.startswith("check.")})
        blamable = sorted({r.id for r in known.values() if r.kind not in ("structural", "bound")})
        covered = {rid: sorted(set(cs)) for rid, cs in sorted(cited.items())}
        untested = [rid for rid in blamable if rid not in covered]
        rep.coverage = {"rules": len(blamable), "covered": len([r for r in blamable if r in covered]),
                        "depends": covered, "untested": untested,
                        "method": "in some case's minimal reason (cases are not re-run with each rule lifted)"}


def _blame(got: Any, expected: Any, because: list[dict[str, str]], checker: Checker) -> dict[str, Any]:
    """The rules responsible for a failing case, those of a user's rule file first."""
    user = {r.id for a, r in checker.book.rules.items()
            if any(str(f) == str(Path(r.file).resolve()) or str(f).endswith(r.file) for f in checker.book.user_files)}
    rules = [b for b in because if isinstance(b, dict) and b.get("rule")]
    rules.sort(key=lambda b: (b["rule"] not in user, b["rule"]))
    if str(got).lower() == "no":
        why = "the rules that together forbid what the corpus expects (the answer's minimal reason)"
    elif got is None:
        why = "no answer (see the message)"
    else:
        why = "the rules that decided the answer given (the answer's reason)"
    return {"rules": [b["rule"] for b in rules], "detail": rules, "why": why}


def to_text(corpus: dict[str, Any], coverage: dict[str, Any] | None) -> list[str]:
    out = ["Corpus regression"]
    for c in corpus["cases"]:
        if c["status"] != "failed":
            continue
        out.append(f"  FAIL {c['id']}: got {c['got']}, expected {c['expected']}"
                   + (f" ({c['message'].splitlines()[0]})" if c.get("message") else ""))
        b = c.get("blame", {})
        if b.get("rules"):
            out.append(f"       blame: {', '.join(b['rules'])}  -- {b['why']}")
    out.append(f"  {corpus['passed']} passed, {corpus['failed']} failed, {corpus['skipped']} skipped"
               + (f" ({corpus['other_game']} case(s) of the other game not run)" if corpus.get("other_game") else ""))
    out.append("")
    if coverage is not None:
        out.append(f"Rule coverage: {coverage['covered']} of {coverage['rules']} rules are in some case's minimal reason"
                   " (an approximation of 'lifting it changes an answer': cases are not re-run per rule)")
        if coverage["untested"]:
            out.append("  untested: " + ", ".join(coverage["untested"]))
        out.append("")
    return out
