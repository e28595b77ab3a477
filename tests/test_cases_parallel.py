"""`chainjudge cases` answers a corpus in worker processes (--jobs): the
results, their order and the verdicts are those of one process."""

from __future__ import annotations

from pathlib import Path

import yaml

from queries.cases import load_cases, run_corpus
from queries.render import to_text
from tests.conftest import CORPUS


def test_parallel_results_match_one_process(tmp_path: Path) -> None:
    cases = load_cases(CORPUS / "mtg-seeds.yaml")[:4] + load_cases(CORPUS / "ygo-seeds.yaml")[:2]
    corpus = tmp_path / "corpus.yaml"
    corpus.write_text(yaml.safe_dump(cases, sort_keys=False), encoding="utf-8")
    one = list(run_corpus(corpus, explain=False))
    two = list(run_corpus(corpus, explain=False, jobs=2, text_of=to_text))
    assert [(r.id, r.status, r.got) for r in two] == [(r.id, r.status, r.got) for r in one]
    assert all(r.status == "passed" for r in two)
    # the answers came back as text from the workers
    assert all(r.answer is None and r.text and str(r.got) in r.text for r in two)
