"""The acceptance corpora (a copy of ../shared/rulings/, kept in tests/corpus/
so the suite runs on a clean machine): every case must pass."""

from __future__ import annotations

import pytest

from queries.cases import load_cases, run_case
from tests.conftest import CORPUS

YGO = load_cases(CORPUS / "ygo-seeds.yaml")
MTG = load_cases(CORPUS / "mtg-seeds.yaml")


@pytest.mark.parametrize("case", YGO, ids=lambda c: c["id"])
def test_ygo_seed_case(case):
    r = run_case(case, CORPUS)
    assert r.status == "passed", f"{r.id}: got {r.got!r}, expected {r.expected!r} {r.message}"


@pytest.mark.parametrize("case", MTG, ids=lambda c: c["id"])
def test_mtg_seed_case(case):
    r = run_case(case, CORPUS)
    assert r.status == "passed", f"{r.id}: got {r.got!r}, expected {r.expected!r} {r.message}"


def test_corpus_copy_is_current():
    """tests/corpus mirrors ../shared/rulings when that folder is present."""
    from pathlib import Path

    shared = Path(__file__).resolve().parent.parent.parent / "shared" / "rulings"
    if not shared.exists():
        return  # a clean machine without the shared folder: the copy is what we have
    for name in ("ygo-seeds.yaml", "mtg-seeds.yaml"):
        assert (shared / name).read_text() == (CORPUS / name).read_text(), f"tests/corpus/{name} is stale"
