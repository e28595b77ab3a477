"""Running a whole answer in a child process, under the time and memory limits.

clingo does not return to Python while it grounds, so a time limit checked
between steps cannot stop a grounding that explodes at step 5 (the probe of
solver/probe.py only grounds the first steps).  When that can happen -- a rule
file is loaded, or the position is large -- the answer is computed in a forked
child with ``RLIMIT_AS`` set to the memory limit; this process waits for it
until the time limit (plus a grace period for the child's own, more precise
report) and kills it then.  The child sends back its result, or its error as
data (never a pickled traceback); a child that died is a limit, a message.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import time
from collections.abc import Callable
from typing import Any, TypeVar

from solver.errors import LimitReached, ProgramError

T = TypeVar("T")
GRACE_S = 1.0  # the child's own time limit reports first (with what was found); the kill is the backstop


def _encode_error(exc: BaseException) -> tuple[Any, ...]:
    from logic.errors import InputError, NotModelled

    if isinstance(exc, InputError):
        return ("input", exc.message, exc.where)
    if isinstance(exc, NotModelled):
        return ("not_modelled", exc.message)
    if isinstance(exc, LimitReached):
        return ("limit", exc.which, exc.limit, exc.partial)
    if isinstance(exc, ProgramError):
        return ("program", exc.message, exc.where)
    if isinstance(exc, MemoryError):
        return ("memory",)
    if isinstance(exc, RecursionError):
        return ("input", "the input is nested too deeply", "")
    if isinstance(exc, KeyboardInterrupt):
        return ("interrupted",)
    if isinstance(exc, RuntimeError) and "bad_alloc" in str(exc):
        return ("memory",)
    return ("internal", type(exc).__name__, str(exc)[:2000])


def _decode_error(data: tuple[Any, ...], memory_mb: int, what: str) -> BaseException:
    from logic.errors import InputError, NotModelled

    kind = data[0]
    if kind == "input":
        return InputError(data[1], data[2])
    if kind == "not_modelled":
        return NotModelled(data[1])
    if kind == "limit":
        return LimitReached(data[1], data[2], data[3])
    if kind == "program":
        return ProgramError(data[1], data[2])
    if kind == "memory":
        return _memory(memory_mb, what)
    if kind == "interrupted":
        return KeyboardInterrupt()
    return RuntimeError(f"{data[1]}: {data[2]}")


def _memory(memory_mb: int, what: str) -> LimitReached:
    return LimitReached("memory", memory_mb, f"{what} did not fit in the memory limit; nothing is known about "
                                             "the question yet")


def _set_memory(memory_mb: int) -> None:
    import resource

    want = memory_mb * 1024 * 1024
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    resource.setrlimit(resource.RLIMIT_AS, (want, hard))


def call_bounded(fn: Callable[[], T], time_limit: float | None, memory_mb: int,
                 what: str = "the answer") -> T:
    """``fn()`` computed in a forked child under ``memory_mb`` of address space,
    killed after ``time_limit`` seconds (+ a grace period); its result must be
    picklable (text, numbers).  Errors come back as the same exceptions."""
    if not hasattr(os, "fork"):
        return fn()  # not on this platform: the in-process limits only
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read_fd)
        code = 0
        try:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            _set_memory(memory_mb)
            payload = pickle.dumps(("ok", fn()))
        except BaseException as exc:  # noqa: BLE001 - everything goes back as data
            code = 1
            try:
                payload = pickle.dumps(("error", _encode_error(exc)))
            except MemoryError:
                payload = pickle.dumps(("error", ("memory",)))
            except BaseException as inner:  # noqa: BLE001
                payload = pickle.dumps(("error", ("internal", type(inner).__name__, str(inner)[:500])))
        try:
            with os.fdopen(write_fd, "wb") as fh:
                fh.write(payload)
        except BaseException:  # noqa: BLE001
            code = 2
        os._exit(code)
    os.close(write_fd)
    deadline = None if not time_limit else time.monotonic() + time_limit + GRACE_S
    chunks: list[bytes] = []
    try:
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                _kill(pid)
                raise LimitReached("time", time_limit or 0, f"{what} was stopped while clingo was grounding (it "
                                   "cannot be interrupted there); nothing is known about the question yet")
            ready, _, _ = select.select([read_fd], [], [], min(left, 0.5) if left is not None else 0.5)
            if ready:
                chunk = os.read(read_fd, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
    except BaseException:
        _kill(pid)
        raise
    finally:
        os.close(read_fd)
    _, status = os.waitpid(pid, 0)
    try:
        tag, value = pickle.loads(b"".join(chunks))  # noqa: S301 - our own child's data
    except Exception:  # noqa: BLE001 - the child died before it could say anything
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGINT:
            raise KeyboardInterrupt from None
        raise _memory(memory_mb, what) from None
    if tag == "ok":
        return value  # type: ignore[no-any-return]
    raise _decode_error(value, memory_mb, what)


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass
