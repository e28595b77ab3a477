"""Errors raised by the solver layer."""

from __future__ import annotations


class ProgramError(Exception):
    """A program (an encoding or a user rule file) could not be parsed or grounded."""

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.where = where

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


class LimitReached(Exception):
    """A time or model limit stopped a search before it was complete.

    ``which`` names the limit (``time``, ``models``, ``horizon``, ``grounding
    time``, ``memory``, ``budget`` -- an internal per-solve budget), ``partial``
    describes what was known when it stopped.
    """

    def __init__(self, which: str, limit: float | int, partial: str = "") -> None:
        super().__init__(f"{which} limit ({limit}) reached")
        self.which = which
        self.limit = limit
        self.partial = partial


_UNITS = {"time": " s", "budget": " s", "grounding time": " s", "memory": " MB", "models": " model",
          "horizon": " step"}
# the option that raises each limit (queries/cli.py)
OPTIONS = {"time": "--time-limit", "models": "--max-models", "horizon": "--max-horizon",
           "grounding time": "--ground-time-limit", "memory": "--memory-limit"}


def describe_limit(exc: LimitReached) -> str:
    """'the time limit (30 s) was reached: <partial> (raise it with --time-limit)'."""
    unit = _UNITS.get(exc.which, "")
    limit: object = exc.limit
    if isinstance(limit, float):
        limit = int(limit) if limit.is_integer() else float(f"{limit:.3g}")  # figures rounded for reading
    if unit in (" model", " step") and limit != 1:
        unit += "s"
    which = "model" if exc.which == "models" else exc.which
    text = f"the {which} limit ({limit}{unit}) was reached"
    if exc.partial:
        text += f": {exc.partial}"
    if exc.which in OPTIONS:
        text += f" (raise it with {OPTIONS[exc.which]})"
    return text


class UnsafeEnvironment(Exception):
    """clingo could run embedded scripts in this process: chainjudge refuses to solve."""
