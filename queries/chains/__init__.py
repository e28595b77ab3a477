"""Every legal chain from a position: the search (search) and the graph of states (states).

``from queries.chains import X`` still finds the names of the module
``queries.chains`` before the split by job (now ``queries.chains.search``)."""

from __future__ import annotations

import importlib
from typing import Any


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    return getattr(importlib.import_module("queries.chains.search"), name)
