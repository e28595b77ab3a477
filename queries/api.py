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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from logic import userrules
from logic.errors import InputError, NotModelled
from logic.scenario import MAX_FILE_BYTES, Scenario, from_data, load_text, parse_yaml, read_text
from queries.answer import Answer, Asker
from solver import LimitReached, ProgramError
from solver.limits import (
    DEFAULT_GROUND_TIME,
    DEFAULT_MAX_MODELS,
    DEFAULT_MEMORY_MB,
    DEFAULT_TIME,
    Limits,
)

__all__ = ["Answer", "ChainsResult", "ask", "chains", "check", "exit_code", "limits", "load_scenario",
           "warm_state"]

ScenarioArg = Scenario | Mapping[str, Any] | str | os.PathLike[str]


# ---------------------------------------------------------------- inputs
def limits(time_limit: float | None = DEFAULT_TIME, max_models: int = DEFAULT_MAX_MODELS,
           ground_time: float = DEFAULT_GROUND_TIME, memory_limit: int = DEFAULT_MEMORY_MB) -> Limits:
    """The limits of one call, checked as the command line checks its options
    (a bad value is an :class:`InputError`).  ``time_limit`` 0 or None: the
    default of the command line is None → :data:`DEFAULT_TIME`; 0: no limit."""
    if time_limit is not None and time_limit < 0:
        raise InputError(f"--time-limit must be 0 (no limit) or more seconds, not {time_limit:g}")
    if max_models < 1:
        raise InputError(f"--max-models must be at least 1, not {max_models}")
    if ground_time <= 0:
        raise InputError(f"--ground-time-limit must be more than 0 seconds, not {ground_time:g}")
    if memory_limit < 256:
        raise InputError(f"--memory-limit must be at least 256 (MB), not {memory_limit}")
    tl = None if not time_limit else time_limit
    return Limits(time=tl, max_models=max_models, ground_time=ground_time, memory_mb=memory_limit)


def load_scenario(scenario: ScenarioArg, *, cards: str | os.PathLike[str] | None = None,
                  mtg_cards: str | os.PathLike[str] | None = None, where: str | None = None) -> Scenario:
    """A scenario from a file path, a mapping (the YAML's content) or an
    already loaded :class:`Scenario`.  ``cards``: the card list, as
    ``--cards``; ``mtg_cards``: a Magic card list used for Magic scenarios
    in place of ``cards`` (so one process can serve both games)."""
    if isinstance(scenario, Scenario):
        return scenario
    if isinstance(scenario, Mapping):
        chosen = mtg_cards if scenario.get("game") == "mtg" and mtg_cards is not None else cards
        return from_data(scenario, where or "<scenario>", cards_file=chosen)
    label = where or str(scenario)
    text = read_text(scenario, "scenario file")
    chosen = cards
    if mtg_cards is not None and len(text) <= MAX_FILE_BYTES:
        data = parse_yaml(text, label)  # which game: a Magic scenario takes the Magic card list
        if isinstance(data, Mapping) and data.get("game") == "mtg":
            chosen = mtg_cards
    return load_text(text, label, cards_file=chosen)


# ---------------------------------------------------------------- rulings
def ask(scenario: ScenarioArg, question: str, *, cards: str | os.PathLike[str] | None = None,
        mtg_cards: str | os.PathLike[str] | None = None, time_limit: float | None = DEFAULT_TIME,
        memory_limit: int = DEFAULT_MEMORY_MB, max_models: int = DEFAULT_MAX_MODELS,
        ground_time: float = DEFAULT_GROUND_TIME, max_horizon: int | None = None, explain: bool = True,
        rules: Sequence[str | os.PathLike[str]] | None = None, limit_set: Limits | None = None) -> Answer:
    """Answer one question about a scenario, as ``chainjudge ask`` does
    (``Answer.as_json()`` is its ``--json`` output).  ``time_limit``: seconds,
    0 for none (the default is the command line's); ``explain=False`` is
    ``--no-explain``; ``rules``: rule files, as ``--rules``; ``limit_set``:
    already checked limits (:func:`limits`), used in place of the four
    numbers."""
    lim = limit_set if limit_set is not None else limits(time_limit, max_models, ground_time, memory_limit)
    if max_horizon is not None and max_horizon < 1:
        raise InputError(f"--max-horizon must be at least 1, not {max_horizon}")
    sc = load_scenario(scenario, cards=cards, mtg_cards=mtg_cards)
    user = userrules.load([str(r) for r in rules], sc.game) if rules else None
    asker = Asker(sc, time_limit=lim.time, max_horizon=max_horizon, explain=explain, limits=lim, user_rules=user)
    return asker.ask(question)


# ---------------------------------------------------------------- chains
@dataclass
class ChainsResult:
    """What ``chainjudge chains`` finds from one position."""

    position: str  # the point, as text
    count: int  # how many legal chains (every one, or the first ``limit``)
    complete: bool  # False: ``limit`` stopped the listing
    chains: list[Any] = field(default_factory=list)  # queries.chains.Chain, [] when only counted
    empty_chain: bool = False  # the empty chain (nobody activates) is among them
    stats: dict[str, Any] = field(default_factory=dict)

    def groups(self) -> list[tuple[tuple[str, ...], list[Any]]]:
        """The chains grouped by outcome (as the command prints them)."""
        from queries.chains import group_by_outcome

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
    from logic.unmodelled import parts_of, refuse
    from queries.chains import ChainSearch, point_text, position_for

    if limit is not None and limit < 1:
        raise InputError("--limit must be 1 or more", "--limit")
    sc = load_scenario(scenario, cards=cards, mtg_cards=mtg_cards)
    parts = parts_of(sc)
    if parts:
        raise refuse(parts, "'chainjudge chains' lists chains only from positions that are fully modelled; "
                            "ask 'how many legal chains are there' to have the parts checked")
    asker = Asker(sc, time_limit=time_limit)
    pos = position_for(asker, after)
    search = ChainSearch(asker.engine, pos, max_links=max_links, distinct_copies=distinct_copies)
    where = point_text(sc, pos)
    if count_only:
        res = search.count()
        return ChainsResult(where, res.count, True, empty_chain=res.empty, stats=dict(res.stats))
    found = list(search.chains(limit=limit, outcomes=outcomes))
    return ChainsResult(where, len(found), limit is None or len(found) < limit, found,
                        any(not c.links for c in found), dict(search.stats))


# ---------------------------------------------------------------- the rulebook check
def check(*, game: str = "ygo", horizon: int | None = None, cases: Sequence[str | os.PathLike[str]] = (),
          pool: str | os.PathLike[str] | None = None, encodings: str | os.PathLike[str] | None = None,
          rules: Sequence[str | os.PathLike[str]] = (), only: Sequence[str] = (), induction: bool = True,
          equivalence: bool = True, coverage: bool = True, time_limit: float | None = None) -> Any:
    """Check the rulebook, as ``chainjudge check``: the report
    (``queries.check.Report``; ``report.violations`` empty when all hold,
    ``report.as_json(report_rules)`` its ``--json``).  The rules it cites are
    in ``report.rules``."""
    from queries.check import DEFAULT_HORIZON, Checker, Options

    if time_limit is not None and time_limit < 0:
        raise InputError(f"--time-limit must be 0 (no limit) or more seconds, not {time_limit:g}")
    opts = Options(game=game, horizon=horizon if horizon is not None else DEFAULT_HORIZON,
                   cases=[Path(c) for c in cases], pool=Path(pool) if pool else None,
                   encodings=Path(encodings) if encodings else None, rules=[Path(r) for r in rules],
                   only=tuple(only), induction=induction, equivalence=equivalence, coverage=coverage,
                   time_limit=time_limit or None)
    checker = Checker(opts)
    rep = checker.run()
    rep.rules = checker.book.rules
    return rep


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
    from queries import parser
    from solver import program

    return {
        "encoding_files": program._parsed.cache_info().currsize,
        "question_parsers": parser._parser.cache_info().currsize,
        "libraries": _cards.bundled.cache_info().currsize,
        "rule_registries": registry.registry.cache_info().currsize,
        "card_lists": scenario.derived_cache_size(),
        "mtg_card_lists": mtg_cardlist._load_cached.cache_info().currsize,
    }
