"""Term constructors for code outside :mod:`solver`.

User-provided names and texts reach clingo only through these constructors
(as ``String`` terms or function terms), never spliced into program source.
"""

from __future__ import annotations

from clingo.symbol import Function, Number, String, Symbol, SymbolType, parse_term

__all__ = ["Function", "Number", "String", "Symbol", "SymbolType", "atom", "parse_term", "symbol_id",
           "symbol_of_id", "to_python"]


def symbol_id(sym: Symbol) -> int:
    """A symbol's identity as a Python int.  clingo keeps one copy of every
    symbol, so equal symbols have equal ids; a set or dict of ids hashes
    without the foreign call a symbol's hash costs."""
    return sym._rep  # type: ignore[no-any-return]


def symbol_of_id(ident: int) -> Symbol:
    """The symbol whose id (:func:`symbol_id`) is ``ident``."""
    return Symbol(ident)  # type: ignore[no-untyped-call]  # clingo's Symbol takes its raw handle untyped


def atom(name: str, *args: object) -> Symbol:
    """Build ``name(args...)``; ints become numbers, strs become strings, symbols stay."""
    return Function(name, [_term(a) for a in args])


def _term(value: object) -> Symbol:
    if isinstance(value, Symbol):
        return value
    if isinstance(value, bool):
        raise TypeError("booleans are not terms")
    if isinstance(value, int):
        return Number(value)
    if isinstance(value, str):
        return String(value)
    if isinstance(value, tuple):
        return Function("", [_term(v) for v in value])
    raise TypeError(f"cannot make a term of {value!r}")


def to_python(sym: Symbol) -> object:
    """A symbol as plain Python: numbers, strings, constants as str, functions as tuples."""
    if sym.type == SymbolType.Number:
        return sym.number
    if sym.type == SymbolType.String:
        return sym.string
    if sym.type == SymbolType.Function:
        if not sym.arguments:
            return sym.name
        return (sym.name, *[to_python(a) for a in sym.arguments])
    return str(sym)
