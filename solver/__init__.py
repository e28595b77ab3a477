"""The clingo layer: the only package of chainjudge that imports clingo.

Everything above this layer talks in terms of :class:`Session` (load
encodings and facts, ground parts, solve under assumptions) and plain clingo
symbols, which it may inspect (``.name``, ``.arguments``, ``.string``,
``.number``) but never builds by parsing text: terms are made with
:mod:`solver.terms`, so a user's string can never become program text.
"""

from solver.errors import LimitReached, ProgramError
from solver.session import Outcome, Session, Stats

__all__ = ["LimitReached", "Outcome", "ProgramError", "Session", "Stats"]
