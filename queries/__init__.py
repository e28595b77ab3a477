"""Questions about positions: the layers above logic/ and solver/.

    language  (grammar, syntax tree, parser)
    search    (the engine: positions, replays, searches; question facts; positions in words)
    chains    (every legal chain from a position)
    rulings   (answering a question; explanations; unmodelled parts; corpora of cases)
    check     (the rulebook check)
    render    (text, JSON, DOT/SVG)
    api       (the public Python API)  ->  cli (the command line)

Each layer imports only the layers listed before it (docs/architecture.md;
tests/test_architecture.py).  ``queries.<module>`` of the flat layout before
the split (``queries.answer``, ``queries.engine``, ...) still imports, as the
same module object, for the tests and branches written against it.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from types import ModuleType

MOVED = {
    "queries.ast": "queries.language.ast",
    "queries.parser": "queries.language.parser",
    "queries.engine": "queries.search.engine",
    "queries.compile": "queries.search.compile",
    "queries.describe": "queries.search.describe",
    "queries.chainstates": "queries.chains.states",
    "queries.answer": "queries.rulings.answer",
    "queries.explain": "queries.rulings.explain",
    "queries.relevance": "queries.rulings.relevance",
    "queries.cases": "queries.rulings.cases",
    "queries.check_corpus": "queries.check.corpus",
    "queries.check_induction": "queries.check.induction",
    "queries.check_variants": "queries.check.variants",
    "queries.pictures": "queries.render.pictures",
}
"""Old module path -> new (``queries.chains``, ``queries.check`` and
``queries.render`` are now packages that forward their old names)."""


class _Moved(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports an old module path as the module it moved to."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        if name not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(name, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return importlib.import_module(MOVED[spec.name])

    def exec_module(self, module: ModuleType) -> None:
        pass


if not any(isinstance(f, _Moved) for f in sys.meta_path):
    sys.meta_path.insert(0, _Moved())
