"""Shared fixtures, and the hypothesis profiles of the fuzz tests
(tests/test_fuzz.py): ``ci`` (the default) is derandomized -- the same
inputs on every run, no example database -- so a failure in CI is
reproducible; ``dev`` draws new inputs each run (``HYPOTHESIS_PROFILE=dev``)
and ``FUZZ_SCALE`` multiplies the number of inputs (e.g. 10 for a long run)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent

# The suite never sees a card list installed by `chainjudge cards import` on
# this machine: each test process gets an empty data directory of its own
# (tests that install a list point CHAINJUDGE_DATA_DIR elsewhere themselves).
import tempfile  # noqa: E402

os.environ["CHAINJUDGE_DATA_DIR"] = tempfile.mkdtemp(prefix="chainjudge-test-data-")
CORPUS = ROOT / "tests" / "corpus"

_COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                                      HealthCheck.data_too_large])
settings.register_profile("ci", derandomize=True, database=None, print_blob=True, **_COMMON)
settings.register_profile("dev", **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT
