"""The acceptance corpora (a copy of ../shared/rulings/, kept in tests/corpus/
so the suite runs on a clean machine): every case must pass."""

from __future__ import annotations

import pytest

from queries.cases import load_cases, run_case
from tests.conftest import CORPUS
from tests.golden import golden_path, text_of

YGO = load_cases(CORPUS / "ygo-seeds.yaml")
MTG = load_cases(CORPUS / "mtg-seeds.yaml")


def _check(corpus: str, case: dict) -> None:
    r = run_case(case, CORPUS)
    assert r.status == "passed", f"{r.id}: got {r.got!r}, expected {r.expected!r} {r.message}"
    # the explanation is the one recorded and reviewed (python -m tests.golden --update)
    path = golden_path(corpus, case["id"])
    assert path.exists(), f"no golden explanation for {case['id']}: run python -m tests.golden --update {case['id']}"
    assert text_of(r) == path.read_text(encoding="utf-8"), (
        f"the explanation of {case['id']} changed: re-record with python -m tests.golden --update {case['id']} "
        "and review the diff")
    ans = r.answer
    assert ans is not None and ans.because, f"{case['id']}: an answer must say which rules decide it"
    for rule in ans.because:
        assert rule["text"] and rule["source"], f"{case['id']}: rule {rule['rule']} lacks text or source"


@pytest.mark.parametrize("case", YGO, ids=lambda c: c["id"])
def test_ygo_seed_case(case):
    _check("ygo-seeds.yaml", case)


@pytest.mark.parametrize("case", MTG, ids=lambda c: c["id"])
def test_mtg_seed_case(case):
    _check("mtg-seeds.yaml", case)


def test_corpus_copy_is_current():
    """tests/corpus mirrors ../shared/rulings when that folder is present."""
    from pathlib import Path

    shared = Path(__file__).resolve().parent.parent.parent / "shared" / "rulings"
    if not shared.exists():
        return  # a clean machine without the shared folder: the copy is what we have
    import yaml

    def cases(path: Path) -> list[dict]:
        # the same cases; the copy here cites the public sources (docs/sources.md) in `source`
        return [{k: v for k, v in c.items() if k != "source"} for c in yaml.safe_load(path.read_text())]

    for name in ("ygo-seeds.yaml", "mtg-seeds.yaml"):
        assert cases(shared / name) == cases(CORPUS / name), f"tests/corpus/{name} is stale"
