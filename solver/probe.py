"""Probe-grounding a program in a child process, under a kill timer and a
memory limit.

Grounding cannot be interrupted inside the process (clingo does not return
to Python until a ``ground`` call is done), so before a user's rule file or a
large position is ground here, the same program -- encodings, checked user
statements, the position's facts -- is ground for the first few steps in a
child process with ``RLIMIT_AS`` (memory) and ``RLIMIT_CPU`` set, killed when
its timer runs out.  If the child does not finish, nothing is ground in this
process and the caller gets :class:`LimitReached` (exit 3).

The child receives facts as clingo term text (``str(symbol)``) and reads
them back with :func:`clingo.symbol.parse_term`, which parses one term and
never a statement: a user's string is still only a string term there.

Run as ``python -m solver.probe`` with a JSON request on stdin (internal).
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from solver.errors import LimitReached, ProgramError

# how the child reports (exit codes)
_OK, _PROGRAM, _MEMORY = 0, 3, 4


@dataclass
class ProbeReport:
    steps: int
    ground_ms: float
    atoms: int
    rules: int
    wall_ms: float


def probe_ground(
    files: Sequence[Path | str],
    rule_files: Sequence[tuple[str, str]],
    facts: Sequence[object],
    steps: int,
    time_limit: float,
    memory_mb: int,
) -> ProbeReport:
    """Ground ``files`` + checked ``rule_files`` ((path, text) pairs) + ``facts``
    for ``steps`` steps in a child process.

    Raises :class:`LimitReached` (``grounding time`` / ``memory``) when the child
    is killed or runs out of memory, :class:`ProgramError` when the program is
    wrong (the child's message)."""
    request = {
        "files": [str(f) for f in files],
        "rules": [list(r) for r in rule_files],
        "facts": [str(f) for f in facts],
        "steps": steps,
        "memory_mb": memory_mb,
        "cpu_s": max(1, math.ceil(time_limit)) + 1,
    }
    started = time.perf_counter()
    partial = f"the rules and the position were not ground within the limit (a probe of the first {steps} steps " \
              "in a separate process); nothing is known about the question yet"
    try:
        proc = subprocess.run(
            # -I: isolated (no PYTHONPATH, no current folder on the path)
            [sys.executable, "-I", "-m", "solver.probe"],
            input=json.dumps(request),
            capture_output=True,
            text=True,
            timeout=time_limit,
        )
    except subprocess.TimeoutExpired:
        raise LimitReached("grounding time", time_limit, partial) from None
    wall = (time.perf_counter() - started) * 1000
    if proc.returncode == _OK:
        try:
            out = json.loads(proc.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            raise ProgramError(f"the grounding probe gave no report ({proc.stderr.strip()[-300:]})", "probe") from None
        return ProbeReport(steps, out["ground_ms"], out["atoms"], out["rules"], wall)
    if proc.returncode == _PROGRAM:
        msg = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else "error"
        try:
            data = json.loads(msg)
            raise ProgramError(data["message"], data.get("where", "grounding"))
        except (ValueError, KeyError):
            raise ProgramError(msg, "grounding") from None
    if proc.returncode == _MEMORY or proc.returncode in (-9, 137):
        raise LimitReached("memory", memory_mb, partial.replace("within the limit", "within the memory limit"))
    if proc.returncode in (-24, 152):  # SIGXCPU: the CPU limit
        raise LimitReached("grounding time", time_limit, partial)
    tail = proc.stderr.strip()[-2000:] if proc.stderr.strip() else f"exit code {proc.returncode}"
    if "MemoryError" in proc.stderr or "bad_alloc" in proc.stderr:
        raise LimitReached("memory", memory_mb, partial.replace("within the limit", "within the memory limit"))
    raise ProgramError(f"the grounding probe failed ({tail})", "probe")


def _child() -> int:  # pragma: no cover - runs in the child process
    import resource

    req = json.loads(sys.stdin.read())
    # never above the hard limits this process inherited (setrlimit would fail)
    mem = int(req["memory_mb"]) * 1024 * 1024
    _, hard_as = resource.getrlimit(resource.RLIMIT_AS)
    if hard_as != resource.RLIM_INFINITY:
        mem = min(mem, hard_as)
    resource.setrlimit(resource.RLIMIT_AS, (mem, hard_as))
    cpu = int(req["cpu_s"])
    _, hard_cpu = resource.getrlimit(resource.RLIMIT_CPU)
    if hard_cpu != resource.RLIM_INFINITY:
        cpu = min(cpu, max(1, hard_cpu - 1))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1 if hard_cpu == resource.RLIM_INFINITY else hard_cpu))
    try:
        from clingo.symbol import Number, parse_term

        from solver.session import Session
        from solver.userrules import check_program

        s = Session()
        s.load_encodings([Path(f) for f in req["files"]], companions=False)
        for path, text in req["rules"]:
            s.add_statements(check_program(text, path).statements, path)
        s.add_facts(parse_term(f) for f in req["facts"])
        start = time.perf_counter()
        s.ground([("base", []), ("state", [Number(0)])])
        for t in range(1, int(req["steps"]) + 1):
            s.ground([("step", [Number(t)]), ("state", [Number(t)]), ("check", [Number(t)])])
        ms = (time.perf_counter() - start) * 1000
        st = s._ctl.statistics  # noqa: SLF001 - the size of the ground program
        try:
            atoms, rules = int(st["problem"]["lp"]["atoms"]), int(st["problem"]["lp"]["rules"])
        except (KeyError, TypeError, RuntimeError):
            atoms = rules = 0
        print(json.dumps({"ground_ms": ms, "atoms": atoms, "rules": rules}))
        return _OK
    except ProgramError as exc:
        print(json.dumps({"message": exc.message, "where": exc.where}))
        return _PROGRAM
    except MemoryError:
        return _MEMORY
    except RuntimeError as exc:
        if "bad_alloc" in str(exc) or "memory" in str(exc).lower():
            return _MEMORY
        print(json.dumps({"message": str(exc), "where": "grounding"}))
        return _PROGRAM


if __name__ == "__main__":  # pragma: no cover
    sys.exit(_child())
