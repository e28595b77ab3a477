"""Start-up checks: no code from outside ever runs inside clingo.

The clingo Python module registers no script language by default; a library
that calls :func:`clingo.script.enable_python` (clingraph does, at import
time) or registers another one would let a ``#script`` block in a program run
code.  chainjudge never imports such a library (ruff bans it: see
pyproject.toml) and refuses to start a solver when one is registered anyway.
"""

from __future__ import annotations

import sys

from clingo._internal import _ffi, _lib  # type: ignore[attr-defined]  # clingo's own handle (no public API)

from solver.errors import UnsafeEnvironment

# languages clingo knows how to embed; none may be registered
SCRIPT_LANGUAGES = ("python", "lua")
# libraries that turn Python scripting on when imported
FORBIDDEN_MODULES = ("clingraph",)


def registered_scripts() -> list[str]:
    """Script languages currently registered with clingo (should be none)."""
    out = []
    for name in SCRIPT_LANGUAGES:
        if _lib.clingo_script_version(name.encode()) != _ffi.NULL:
            out.append(name)
    try:  # languages registered through clingo.script.register_script
        from clingo import script

        if getattr(script, "_GLOBAL_SCRIPTS", None):
            out.append("custom")
    except ImportError:  # pragma: no cover - clingo without the script module
        pass
    return out


def check_environment() -> None:
    """Raise :class:`UnsafeEnvironment` if clingo could run an embedded script."""
    langs = registered_scripts()
    if langs:
        raise UnsafeEnvironment(
            f"clingo has {', '.join(langs)} scripting turned on (clingo.script.enable_python or "
            "register_script was called, e.g. by importing clingraph); chainjudge refuses to solve "
            "in this process")
    loaded = [m for m in FORBIDDEN_MODULES if m in sys.modules]
    if loaded:
        raise UnsafeEnvironment(f"{', '.join(loaded)} is imported in this process; it turns clingo's Python "
                                "scripting on, and chainjudge refuses to solve with it loaded")
