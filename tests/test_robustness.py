"""Hostile and careless input beyond the corpus of tests/inputs (issue 18):
files it must not read, special files, cache faults, limits that hold past
the grounding probe, and signals.  Each ends with one message and exit 2, 3,
130 or 143 -- never a hang, a traceback, exit 70 or a signal death."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.messages import INPUTS, ROOT, run_cli

BASE = "tests/inputs/base.yaml"
LIM = INPUTS / "limits"
EXE = str(Path(sys.executable).with_name("chainjudge"))


@pytest.fixture(autouse=True)
def _at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def _one_message(err: str) -> str:
    assert "Traceback" not in err and "internal error" not in err, err
    lines = err.rstrip("\n").splitlines()
    assert lines and lines[0].startswith("chainjudge: "), err
    return lines[0]


# ---------------------------------------------------------------- 1. files it must not read


def test_check_loads_the_rule_file_it_checked(tmp_path):
    """check --rules: the text that was checked is the text that is loaded; a
    file changed afterwards (to #include anything) is not read again."""
    from queries.check.rulebook import load_rulebook
    from solver.instrument import plain

    rules = tmp_path / "house.lp"
    rules.write_text((INPUTS / "good" / "rules" / "house-rule.lp").read_text(encoding="utf-8"), encoding="utf-8")
    book = load_rulebook("ygo", rule_files=[rules])
    secret = tmp_path / "secret.lp"
    secret.write_text("secret_fact(42).\n", encoding="utf-8")
    rules.write_text(f'#include "{secret}".\n', encoding="utf-8")  # swapped after the check
    text = "\n".join(str(s) for s in plain(book.files))
    assert "secret_fact" not in text
    assert "house_no_spells_in_main1" in text


def test_a_nul_in_a_path_is_bad_input(tmp_path):
    # on the command line the option parser refuses it (its usage message, exit 2)
    code, out, err = run_cli(["ask", "tests/inputs/ba\x00se.yaml", "who has priority now"])
    assert code == 2 and "null byte" in err and "Traceback" not in err, err
    # in a corpus (scenario_file) and for files read on the user's behalf: our message
    corpus = tmp_path / "c.yaml"
    corpus.write_text('- {id: x, scenario_file: "a\\0b.yaml", question: who has priority now, expect: A}\n',
                      encoding="utf-8")
    code, out, err = run_cli(["cases", str(corpus)])
    assert code == 2 and "NUL" in _one_message(err), err
    from logic.errors import InputError
    from logic.scenario import read_text

    with pytest.raises(InputError, match="NUL"):
        read_text("a\x00b.yaml", "scenario file")


def test_special_files_are_refused_without_reading(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    link = tmp_path / "zero.yaml"
    link.symlink_to("/dev/zero")
    for argv in (["ask", str(fifo), "who has priority now"],
                 ["ask", str(link), "who has priority now"],
                 ["ask", BASE, "who has priority now", "--rules", str(fifo)],
                 ["ask", BASE, "who has priority now", "--cards", str(fifo)],
                 ["cases", str(fifo)],
                 ["check", "--pool", str(fifo), "--only", "check.turn.ends"]):
        start = time.monotonic()
        code, out, err = run_cli(argv)
        assert code == 2, (argv, err)
        assert "is a pipe" in err or "is a device" in err, err
        assert time.monotonic() - start < 10


def test_a_huge_rule_file_is_refused(tmp_path):
    big = tmp_path / "big.lp"
    big.write_text("% x\n" * 300_000, encoding="utf-8")
    code, _, err = run_cli(["ask", BASE, "who has priority now", "--rules", str(big)])
    assert code == 2 and "too large" in _one_message(err)


# ---------------------------------------------------------------- 8. cache faults

CARDS = [{"name": "Test Card One", "card_type": "spell", "property": "Normal", "text": "Draw 1 card."},
         {"name": "Test Card Two", "card_type": "trap", "property": "Normal", "text": "Draw 1 card."}]


def _card_list(tmp_path: Path) -> Path:
    p = tmp_path / "cards.jsonl"
    p.write_text("".join(json.dumps(c) + "\n" for c in CARDS), encoding="utf-8")
    return p


@pytest.mark.parametrize("fault", ["truncated", "wrong-shape", "not-json", "fifo", "folder"])
def test_a_bad_cache_file_is_rebuilt(tmp_path, monkeypatch, fault):
    from logic import textreader

    cache = tmp_path / "cache"
    monkeypatch.setenv("CHAINJUDGE_CACHE", str(cache))
    path = _card_list(tmp_path)
    lib = textreader.load_derived(path, workers=1)
    assert len(lib) == 2 and lib.source.startswith("derived")
    _, cpath = textreader._cache_key(path)
    assert cpath.exists()
    text = cpath.read_text(encoding="utf-8")
    cpath.unlink()
    if fault == "truncated":
        cpath.write_text(text[: len(text) // 2], encoding="utf-8")
    elif fault == "wrong-shape":
        cpath.write_text(json.dumps([1, 2, 3]), encoding="utf-8")
    elif fault == "not-json":
        cpath.write_text("\x00garbage", encoding="utf-8")
    elif fault == "fifo":
        os.mkfifo(cpath)
    else:
        cpath.mkdir()
    start = time.monotonic()
    again = textreader.load_derived(path, workers=1)
    assert time.monotonic() - start < 30
    assert len(again) == 2 and again.get("Test Card One") is not None
    if fault != "folder":
        assert cpath.is_file()  # rebuilt, atomically (no temporary file left)
        assert json.loads(cpath.read_text(encoding="utf-8"))["cards"]
    assert not list(cache.glob("*.tmp"))


def test_a_read_only_cache_folder_works_without_a_cache(tmp_path, monkeypatch):
    from logic import textreader

    cache = tmp_path / "ro"
    cache.mkdir()
    cache.chmod(0o500)
    try:
        monkeypatch.setenv("CHAINJUDGE_CACHE", str(cache))
        lib = textreader.load_derived(_card_list(tmp_path), workers=1)
        assert len(lib) == 2
    finally:
        cache.chmod(0o700)


# ---------------------------------------------------------------- 6. limits that always hold


def _timed(argv: list[str], timeout: float = 120) -> tuple[int, str, float]:
    start = time.monotonic()
    proc = subprocess.run([EXE, *argv], capture_output=True, text=True, cwd=ROOT, timeout=timeout)
    return proc.returncode, proc.stderr, time.monotonic() - start


LATE_BOMB = str(LIM / "grounding-bomb-late.lp")
DEEP_Q = "can A normal summon Sangan before main phase 1"


def test_time_limit_holds_past_the_probe():
    """A rule file that explodes only at step 5 (after the probe's 4 steps) is
    stopped at --time-limit, not after minutes."""
    code, err, took = _timed(["ask", str(LIM / "draw-phase.yaml"), DEEP_Q, "--rules", LATE_BOMB,
                              "--time-limit", "3"])
    assert code == 3, err
    assert "the time limit (3 s) was reached" in _one_message(err) and "--time-limit" in err
    assert took < 3 + 10  # start-up, the grace period, the kill


def test_memory_limit_holds_past_the_probe():
    code, err, took = _timed(["ask", str(LIM / "draw-phase.yaml"), DEEP_Q, "--rules", LATE_BOMB,
                              "--memory-limit", "400", "--time-limit", "60"])
    assert code == 3, err
    assert "memory limit (400 MB)" in _one_message(err) and "--memory-limit" in err
    assert took < 60


def test_chains_has_a_default_time_limit():
    from typer.main import get_command

    from queries.cli import app
    from solver.limits import DEFAULT_TIME

    chains = get_command(app).commands["chains"]  # type: ignore[attr-defined]
    opt = next(p for p in chains.params if p.name == "time_limit")
    assert opt.default == DEFAULT_TIME


# ---------------------------------------------------------------- 11. machine-readable output


def test_cases_json_is_one_document_with_the_summary_on_stderr():
    code, out, err = run_cli(["cases", "tests/inputs/good/cases/priority.yaml", "--json"])
    assert code == 0, err
    doc = json.loads(out)
    assert doc["summary"] == {"passed": 1, "failed": 0, "skipped": 0}
    assert "1 passed" in err


def test_a_long_message_is_cut(capsys):
    import typer

    from queries.cli import MAX_MESSAGE, _fail

    with pytest.raises(typer.Exit):
        _fail(4, "not modelled yet: " + "x; " * 100_000)
    err = capsys.readouterr().err
    assert len(err) < MAX_MESSAGE + 100 and "characters in all" in err


# ---------------------------------------------------------------- 7. signals


def _signal_run(argv: list[str], sig: int, after: float) -> tuple[int | None, str, float, list[str]]:
    """Run the command in its own process group, send ``sig`` after ``after``
    seconds (SIGINT to the group, as a terminal's Ctrl-C does); the exit
    code, stderr, how long it took to stop, and the processes left."""
    proc = subprocess.Popen([EXE, *argv], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    time.sleep(after)
    sent = time.monotonic()
    try:
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)
        else:
            os.kill(proc.pid, sig)
    except ProcessLookupError:
        pass
    try:
        _, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        raise AssertionError(f"{argv} did not stop within 30 s of the signal") from None
    took = time.monotonic() - sent
    time.sleep(0.3)
    left = subprocess.run(["pgrep", "-g", str(proc.pid)], capture_output=True, text=True).stdout.split()
    return proc.returncode, err.decode("utf-8", "replace"), took, left


def test_ctrl_c_stops_cases_with_workers():
    code, err, took, left = _signal_run(["cases", "tests/corpus/ygo-seeds.yaml", "--jobs", "2"], signal.SIGINT, 5)
    assert code == 130, err
    assert "interrupted" in _one_message(err)
    assert took < 5 and not left


def test_sigterm_ends_the_workers_of_cases():
    code, err, took, left = _signal_run(["cases", "tests/corpus/ygo-seeds.yaml", "--jobs", "2"], signal.SIGTERM, 5)
    assert code == 143, err
    assert "terminated" in _one_message(err)
    assert took < 5 and not left


def _dense(tmp_path: Path, n: int = 10) -> Path:
    import yaml

    from tests.reference.positions import dense_spec, scenario_data

    p = tmp_path / "dense.yaml"
    p.write_text(yaml.safe_dump(scenario_data(dense_spec(n)), sort_keys=False), encoding="utf-8")
    return p


@pytest.mark.slow
def test_soak_interrupted_at_random_moments(tmp_path, monkeypatch):
    """20 runs of `cases --jobs 2` and `chains` on a dense position, each
    stopped by SIGINT or SIGTERM at a random moment: every run exits 130/143
    with a message (or finished first), leaves no process and no cache
    file but whole ones.  About a minute."""
    cache = tmp_path / "cache"
    cache.mkdir()
    monkeypatch.setenv("CHAINJUDGE_CACHE", str(cache))
    dense = str(_dense(tmp_path))
    rnd = random.Random(18)
    budget = time.monotonic() + 150
    for i in range(20):
        if time.monotonic() > budget:
            break
        argv = (["cases", "tests/corpus/ygo-seeds.yaml", "--jobs", "2"] if i % 2 == 0
                else ["chains", dense, "--time-limit", "60"])
        sig = rnd.choice([signal.SIGINT, signal.SIGTERM])
        code, err, took, left = _signal_run(argv, sig, rnd.uniform(0.5, 4.0))
        assert not left, (argv, left)
        assert took < 5, (argv, took)
        assert "Traceback" not in err and "internal error" not in err, err
        if code in (130, 143):
            assert code == (130 if sig == signal.SIGINT else 143), (argv, code, err)
            assert err.startswith("chainjudge: "), err
        else:
            assert code in (0, 1), (argv, code, err)  # it finished before the signal
    assert not list(cache.glob("*.tmp"))
    for f in cache.glob("*.json"):
        json.loads(f.read_text(encoding="utf-8"))


def test_bounded_child_round_trip():
    """logic/bounded.py: a result, and each error, come back as they were raised."""
    from logic.bounded import call_bounded
    from logic.errors import InputError, NotModelled
    from solver.errors import LimitReached

    assert call_bounded(lambda: ("text", 3), 10, 1024) == ("text", 3)

    def bad_input():
        raise InputError("what", "where")

    def limit():
        raise LimitReached("horizon", 6, "no witness")

    def not_modelled():
        raise NotModelled("a card")

    def hog():
        return len(bytearray(800 * 1024 * 1024))

    def sleeper():
        time.sleep(60)

    with pytest.raises(InputError) as e1:
        call_bounded(bad_input, 10, 1024)
    assert (e1.value.message, e1.value.where) == ("what", "where")
    with pytest.raises(LimitReached) as e2:
        call_bounded(limit, 10, 1024)
    assert (e2.value.which, e2.value.limit, e2.value.partial) == ("horizon", 6, "no witness")
    with pytest.raises(NotModelled):
        call_bounded(not_modelled, 10, 1024)
    with pytest.raises(LimitReached) as e3:
        call_bounded(hog, 10, 300)
    assert e3.value.which == "memory" and e3.value.limit == 300
    start = time.monotonic()
    with pytest.raises(LimitReached) as e4:
        call_bounded(sleeper, 1, 1024)
    assert e4.value.which == "time" and time.monotonic() - start < 5
