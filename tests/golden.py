"""Golden explanations: the text answer of every acceptance case, stored in
tests/golden/<corpus>/<case id>.txt and compared by the acceptance tests.

    python -m tests.golden --update        re-record them all (then review: git diff tests/golden)
    python -m tests.golden --update ID...  re-record some
"""

from __future__ import annotations

import sys
from pathlib import Path

from queries.cases import load_cases, run_case
from queries.render import to_text

ROOT = Path(__file__).resolve().parent
CORPUS = ROOT / "corpus"
GOLDEN = ROOT / "golden"
CORPORA = ("ygo-seeds.yaml", "mtg-seeds.yaml")


def golden_path(corpus: str, case_id: str) -> Path:
    return GOLDEN / corpus.removesuffix(".yaml") / f"{case_id}.txt"


def text_of(result) -> str:  # type: ignore[no-untyped-def]
    if result.answer is None:
        return f"(no answer: {result.status}: {result.message})\n"
    return to_text(result.answer) + "\n"


def update(ids: list[str]) -> int:
    n = 0
    for corpus in CORPORA:
        try:
            cases = load_cases(CORPUS / corpus)
        except Exception as exc:  # noqa: BLE001
            print(f"skipping {corpus}: {exc}")
            continue
        for case in cases:
            if ids and case["id"] not in ids:
                continue
            try:
                r = run_case(case, CORPUS)
            except Exception as exc:  # noqa: BLE001 - a game not modelled yet
                print(f"error   {case['id']}: {exc}")
                continue
            path = golden_path(corpus, case["id"])
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text_of(r), encoding="utf-8")
            n += 1
            print(f"{r.status:7s} {case['id']}")
    print(f"recorded {n} golden explanation(s); review them with: git diff tests/golden")
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    if not args or args[0] != "--update":
        print(__doc__)
        raise SystemExit(2)
    raise SystemExit(update(args[1:]))
