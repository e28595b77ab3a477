"""The public Python API: rulings, chains and the rulebook check, in process.

>>> from queries import api                                  # doctest: +SKIP
>>> ans = api.ask("examples/veiler-end-of-main-phase-1.yaml",
...               "who has priority now")                     # doctest: +SKIP
>>> ans.answer, ans.as_json()["kind"]                         # doctest: +SKIP

Every function has the semantics and the errors of its command
(``chainjudge ask`` / ``chains`` / ``check``): bad input raises
:class:`logic.errors.InputError` (the command's exit 2), a limit
:class:`solver.LimitReached` (exit 3), what is not modelled
:class:`logic.errors.NotModelled` (exit 4).  :func:`exit_code` maps an
exception to the command's exit code.

The engine stays warm between calls in one process: the parsed encodings
(``solver/program.py``), the question parser (``queries/parser.py``), the
bundled card libraries (``logic/cards.py``), the rule registry, the card
lists given with ``cards`` / ``mtg_cards`` and the attributes derived from
them are loaded once per process and reused by every later call (see
:func:`warm_state`).  Each call builds its own position and searches: calls
share no answer state, so one call cannot change another's answer.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from logic.errors import InputError, NotModelled
from queries.rulings.answer import Answer, chain_search_for
from queries.rulings.ask import ScenarioArg, ask, limits, load_scenario
from solver import LimitReached, ProgramError

__all__ = ["Answer", "ChainsResult", "CheckOutcome", "ask", "chains", "check", "exit_code", "limits", "load_scenario",
           "warm_state"]

# ask, limits and load_scenario are queries.rulings.ask's (the rulings layer: the
# corpus runner uses them too)


# ---------------------------------------------------------------- chains
@dataclass
class ChainsResult:
    """What ``chainjudge chains`` finds from one position."""

    position: str  # the point, as text
    count: int  # how many legal chains (every one, or the first ``limit``)
    complete: bool  # False: ``limit`` stopped the listing
    chains: list[Any] = field(default_factory=list)  # queries.chains.search.Chain, [] when only counted
    empty_chain: bool = False  # the empty chain (nobody activates) is among them
    stats: dict[str, Any] = field(default_factory=dict)

    def groups(self) -> list[tuple[tuple[str, ...], list[Any]]]:
        """The chains grouped by outcome (as the command prints them)."""
        from queries.chains.search import group_by_outcome

        return group_by_outcome(self.chains)

    def as_json(self) -> dict[str, Any]:
        return {"chains": [c.as_json() for c in self.chains], "count": self.count, "complete": self.complete,
                "empty_chain": self.empty_chain, "position": self.position, "stats": self.stats}


def chains(scenario: ScenarioArg, *, after: str | None = None, max_links: int | None = None,
           limit: int | None = None, count_only: bool = False, distinct_copies: bool = False,
           outcomes: bool = True, time_limit: float | None = None,
           cards: str | os.PathLike[str] | None = None,
           mtg_cards: str | os.PathLike[str] | None = None) -> ChainsResult:
    """Every legal chain from a scenario's position (or after the event
    ``after``), as ``chainjudge chains``; ``count_only``: as ``--count``."""
    if limit is not None and limit < 1:
        raise InputError("--limit must be 1 or more", "--limit")
    sc = load_scenario(scenario, cards=cards, mtg_cards=mtg_cards)
    search, where = chain_search_for(sc, after=after, max_links=max_links, distinct_copies=distinct_copies,
                                     time_limit=time_limit)
    if count_only:
        res = search.count()
        return ChainsResult(where, res.count, True, empty_chain=res.empty, stats=dict(res.stats))
    found = list(search.chains(limit=limit, outcomes=outcomes))
    return ChainsResult(where, len(found), limit is None or len(found) < limit, found,
                        any(not c.links for c in found), dict(search.stats))


# ---------------------------------------------------------------- the rulebook check
@dataclass
class CheckOutcome:
    """What ``chainjudge check`` reports: the report and the rules it cites."""

    report: Any  # queries.check.rulebook.Report
    rules: dict[str, Any]  # rule atom -> logic.registry.Rule

    @property
    def violations(self) -> int:
        """How many checks were violated (0: the rulebook passed; the command's exit 1 otherwise)."""
        return int(self.report.violations)

    def as_json(self) -> dict[str, Any]:
        """The command's ``--json`` output."""
        out: dict[str, Any] = self.report.as_json(self.rules)
        return out

    def text(self) -> str:
        """The command's text output."""
        from queries.check.checker import to_text

        return to_text(self.report, self.rules)


def check(*, game: str = "ygo", horizon: int | None = None, cases: Sequence[str | os.PathLike[str]] = (),
          pool: str | os.PathLike[str] | None = None, encodings: str | os.PathLike[str] | None = None,
          rules: Sequence[str | os.PathLike[str]] = (), only: Sequence[str] = (), induction: bool = True,
          equivalence: bool = True, coverage: bool = True, time_limit: float | None = None) -> CheckOutcome:
    """Check the rulebook, as ``chainjudge check`` (the same options)."""
    from queries.check.checker import Checker, Options
    from queries.check.rulebook import DEFAULT_HORIZON

    if time_limit is not None and time_limit < 0:
        raise InputError(f"--time-limit must be 0 (no limit) or more seconds, not {time_limit:g}")
    opts = Options(game=game, horizon=horizon if horizon is not None else DEFAULT_HORIZON,
                   cases=[Path(c) for c in cases], pool=Path(pool) if pool else None,
                   encodings=Path(encodings) if encodings else None, rules=[Path(r) for r in rules],
                   only=tuple(only), induction=induction, equivalence=equivalence, coverage=coverage,
                   time_limit=time_limit or None)
    checker = Checker(opts)
    return CheckOutcome(checker.run(), dict(checker.book.rules))


# ---------------------------------------------------------------- errors, warm state
def exit_code(exc: BaseException) -> int:
    """The exit code the command line gives for an exception of these calls."""
    if isinstance(exc, InputError):
        return 2
    if isinstance(exc, NotModelled):
        return 4
    if isinstance(exc, LimitReached):
        return 3
    if isinstance(exc, ProgramError):
        return 2
    return 70


def warm_state() -> dict[str, int]:
    """What this process has loaded once and reuses (how many of each): the
    parsed encoding files, the question parser, the bundled libraries, the
    card lists and their derived attributes."""
    from logic import cards as _cards
    from logic import mtg_cardlist, registry, scenario
    from queries.language import parser
    from solver import program

    return {
        "encoding_files": program._parsed.cache_info().currsize,
        "question_parsers": parser._parser.cache_info().currsize,
        "libraries": _cards.bundled.cache_info().currsize,
        "rule_registries": registry.registry.cache_info().currsize,
        "card_lists": scenario.derived_cache_size(),
        "mtg_card_lists": mtg_cardlist._load_cached.cache_info().currsize,
    }
