"""The input corpus: good and bad inputs side by side (tests/inputs/), each
run through the command line and compared with its golden transcript
(tests/golden/inputs/).  Re-record with ``python -m tests.messages --update`` and
review the change with ``git diff tests/golden/inputs``."""

from __future__ import annotations

import pytest

from tests import messages

CASES = messages.cases()


def test_corpus_is_large_enough():
    bad = [c for c in CASES if c.side == "bad"]
    assert len(bad) >= 60, f"only {len(bad)} bad inputs"
    assert {c.kind for c in bad} >= {"scenario", "question", "rules", "args", "cases"}
    assert len([c for c in CASES if c.side == "good"]) >= 10


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_input(case):
    code, out, err, text = messages.transcript(case)
    assert "Traceback" not in out + err, err
    assert "internal error" not in err, err
    if case.side == "good":
        assert code == 0, err
    else:
        assert code == 2, f"exit {code}: {err}"
        assert out == "", "a bad input prints nothing on stdout"
        lines = err.rstrip("\n").splitlines()
        assert lines[0].startswith("chainjudge: error: "), lines[0]
        # one message: further lines only show the input with a caret under the position
        assert all(ln.startswith("  ") for ln in lines[1:]), lines
        assert len(lines) in (1, 3), lines
        message = lines[0]
        where = ("question: ", "event phrase: ", "--", "tests/inputs", "/dev/")
        assert any(w in message for w in where), f"the message does not say where: {message}"
    assert case.golden.exists(), f"no golden transcript: run python -m tests.messages --update ({case.id})"
    assert text == case.golden.read_text(encoding="utf-8"), (
        f"{case.id}: the transcript changed; if intended, run python -m tests.messages --update and review the diff")
