"""A reader that closes the pipe early (`chainjudge chains --json | head`)
ends the command quietly: exit 0, no "internal error" message."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_closed_stdout_is_not_an_internal_error() -> None:
    cmd = [sys.executable, "-m", "queries.cli", "chains", str(ROOT / "examples" / "segoc-after-dark-hole.yaml"),
           "--json"]
    # cwd: the checkout (-m puts it on the path after start-up; PYTHONPATH would
    # let encodings/ shadow the standard library's codecs)
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    assert p.stdout is not None and p.stderr is not None
    p.stdout.close()  # the reader goes away before anything is written
    err = p.stderr.read().decode()
    assert p.wait(timeout=120) == 0, err
    assert "internal error" not in err and "Traceback" not in err, err
