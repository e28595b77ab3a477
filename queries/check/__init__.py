"""The rulebook check: invariants and gaps (checker), corpus regression with blame (corpus), proofs beyond the horizon (induction), equivalence of formulations (variants).

``from queries.check import X`` still finds the names of the module
``queries.check`` before the split by job (now ``queries.check.checker``)."""

from __future__ import annotations

import importlib
from typing import Any


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    return getattr(importlib.import_module("queries.check.checker"), name)
