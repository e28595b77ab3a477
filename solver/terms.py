"""Term constructors for code outside :mod:`solver`.

User-provided names and texts reach clingo only through these constructors
(as ``String`` terms or function terms), never spliced into program source.
"""

from __future__ import annotations

from clingo.symbol import Function, Number, String, Symbol, SymbolType, parse_term

__all__ = ["Function", "Number", "String", "Symbol", "SymbolType", "atom", "parse_term", "to_python"]


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
