"""One question about one scenario, from its file or its content: the scenario
loaded (with the card lists), the limits checked, the answer (queries.api's
``ask`` and ``chainjudge ask``)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from logic import userrules
from logic.errors import InputError
from logic.scenario import MAX_FILE_BYTES, Scenario, from_data, load_text, parse_yaml, read_text
from queries.rulings.answer import Answer, Asker
from solver.limits import (
    DEFAULT_GROUND_TIME,
    DEFAULT_MAX_MODELS,
    DEFAULT_MEMORY_MB,
    DEFAULT_TIME,
    Limits,
)

ScenarioArg = Scenario | Mapping[str, Any] | str | os.PathLike[str]


def _path(p: str | os.PathLike[str] | None) -> Path | None:
    return Path(p) if p is not None else None


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
        return from_data(scenario, where or "<scenario>", cards_file=_path(chosen))
    label = where or str(scenario)
    text = read_text(Path(scenario), "scenario file")
    chosen = cards
    if mtg_cards is not None and len(text) <= MAX_FILE_BYTES:
        data = parse_yaml(text, label)  # which game: a Magic scenario takes the Magic card list
        if isinstance(data, Mapping) and data.get("game") == "mtg":
            chosen = mtg_cards
    return load_text(text, label, cards_file=_path(chosen))


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
