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

    ``which`` names the limit (``time`` / ``models`` / ``grounding``), ``partial``
    describes what was known when it stopped.
    """

    def __init__(self, which: str, limit: float | int, partial: str = "") -> None:
        super().__init__(f"{which} limit ({limit}) reached")
        self.which = which
        self.limit = limit
        self.partial = partial
