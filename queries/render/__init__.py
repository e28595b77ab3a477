"""Renderings of answers: text and JSON (text), DOT/SVG pictures (pictures).

``from queries.render import X`` still finds the names of the module
``queries.render`` before the split by job (now ``queries.render.text``)."""

from __future__ import annotations

import importlib
from typing import Any


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    return getattr(importlib.import_module("queries.render.text"), name)
