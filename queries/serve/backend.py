"""The engine behind the web page: one warm engine (queries.api), one request
at a time, and the errors of the command line as HTTP answers.

The server never reads a file a client names: a scenario arrives as a mapping
(JSON) or as YAML text and is never taken for a path; the card lists are the
server's own (``--cards``, ``--mtg-cards``, or where ``chainjudge cards``
finds them).  No client input runs code: there are no rule files here.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from logic.errors import InputError, NotModelled
from solver import LimitReached, ProgramError
from solver.errors import UnsafeEnvironment, describe_limit
from solver.limits import DEFAULT_TIME

WHERE = "scenario"  # how messages name the scenario a client sent (the CLI names the file)


@dataclass
class Failure(Exception):
    """An answer that is not an answer: HTTP status, exit code of the CLI, the one-line message."""

    status: int
    exit_code: int
    message: str

    def body(self) -> dict[str, Any]:
        return {"error": self.message, "exit_code": self.exit_code}


def as_failure(exc: BaseException) -> Failure | None:
    """The HTTP form of an error the CLI reports with an exit code (None: not one of them)."""
    if isinstance(exc, InputError):
        return Failure(400, 2, f"error: {exc}")
    if isinstance(exc, ProgramError):
        return Failure(400, 2, f"error: {exc.message if exc.where == 'grounding' else exc}")
    if isinstance(exc, RecursionError):
        return Failure(400, 2, "error: the input is nested too deeply")
    if isinstance(exc, LimitReached):
        # 503, not 408: browsers retry a request answered 408 by themselves
        return Failure(503, 3, describe_limit(exc))
    if isinstance(exc, UnsafeEnvironment):
        return Failure(500, 70, f"refusing to run: {exc}")
    return None


def refusal(question: str, exc: NotModelled) -> dict[str, Any]:
    """Exit 4 of the CLI: answered (HTTP 200), honestly: what is not modelled."""
    return {"question": question, "kind": None, "verdict": None, "answer": None, "witness": [], "because": [],
            "latest_chance": None, "stats": {}, "not_modelled": str(exc), "exit_code": 4}


def scenario_data(raw: Any) -> Any:
    """The scenario as data: a mapping as it is, a text read as YAML (never as a file name)."""
    if isinstance(raw, str):
        from logic.scenario import MAX_FILE_BYTES, parse_yaml

        if len(raw) > MAX_FILE_BYTES:
            raise InputError(f"the scenario is too large ({len(raw)} characters; at most {MAX_FILE_BYTES})", WHERE)
        return parse_yaml(raw, WHERE)
    return raw


class Backend:
    """Answers for the server, one at a time (the engine is not shared between threads)."""

    def __init__(self, cards: Path | None = None, mtg_cards: Path | None = None,
                 time_limit: float | None = DEFAULT_TIME) -> None:
        from logic import carddata, mtg_cardlist

        self.cards = cards or carddata.default_path()
        self.mtg_cards = mtg_cards or mtg_cardlist.default_path()
        if self.cards is not None and not Path(self.cards).exists():
            self.cards = None
        if self.mtg_cards is not None and not Path(self.mtg_cards).exists():
            self.mtg_cards = None
        self.time_limit = time_limit
        self.lock = threading.Lock()

    def _limit(self, asked: float | None) -> float | None:
        if asked is None or asked <= 0:
            return self.time_limit
        return asked if self.time_limit is None else min(asked, self.time_limit)

    def load(self, raw: Any) -> Any:
        """The scenario, checked (an InputError says what is wrong, as the CLI would)."""
        from queries import api

        data = scenario_data(raw)
        if not isinstance(data, Mapping):
            from logic.scenario import from_data

            return from_data(data, WHERE)  # the message of a scenario that is not a mapping
        return api.load_scenario(data, cards=self.cards, mtg_cards=self.mtg_cards, where=WHERE)

    def ask(self, raw: Any, question: str, time_limit: float | None = None) -> Any:
        """The answer (queries.api: the warm engine), or the error of ``chainjudge ask``."""
        from queries import api

        with self.lock:
            sc = self.load(raw)
            return api.ask(sc, question, time_limit=self._limit(time_limit) or 0)

    def chains(self, raw: Any, after: str | None, max_links: int | None, limit: int | None,
               time_limit: float | None = None) -> dict[str, Any]:
        """Every legal chain from the position (or after one event), as ``chainjudge chains --json``."""
        from queries import api
        from queries.chains import group_by_outcome

        if limit is not None and limit < 1:
            raise InputError("limit must be 1 or more", "limit")
        if max_links is not None and max_links < 1:
            raise InputError("max_links must be 1 or more", "max_links")
        with self.lock:
            sc = self.load(raw)
            res = api.chains(sc, after=after, max_links=max_links, limit=limit, time_limit=self._limit(time_limit))
        groups = group_by_outcome(res.chains)
        return {"chains": [c.as_json() for c in res.chains], "objects": res.chains,
                "summary": {"chains": res.count, "complete": res.complete, "position": res.position,
                            "empty_chain": res.empty_chain,
                            "groups": [{"outcome": list(o), "chains": len(cs)} for o, cs in groups]}}
