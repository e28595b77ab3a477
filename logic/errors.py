"""Errors about the user's input, and about what is not modelled."""

from __future__ import annotations


class InputError(Exception):
    """Bad input: says what is wrong and where (exit code 2)."""

    exit_code = 2

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.where = where

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


class NotModelled(Exception):
    """The question needs rules or cards that are not modelled (exit code 4)."""

    exit_code = 4

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return f"not modelled yet: {self.message}"


def shorten(value: object, limit: int = 60) -> str:
    """``repr`` of a value for an error message, cut to ``limit`` characters,
    with control and invisible characters escaped (a message is one readable line)."""
    text = value[: limit * 4] if isinstance(value, str) else _bounded_repr(value, limit)
    out = []
    for ch in text:
        if ch.isprintable() and ch != "\\":
            out.append(ch)
        elif ch == "\\":
            out.append("\\\\")
        else:
            out.append(f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}")
    s = "".join(out)
    if len(s) > limit:
        s = s[: limit - 1] + "…"
    return f"'{s}'" if isinstance(value, str) else s


def _bounded_repr(value: object, limit: int) -> str:
    """A repr that never builds the text of a whole large value (a YAML alias
    bomb expands to millions of items; a 4,000-digit integer cannot even be
    printed by Python's default int-to-text limit)."""
    import reprlib

    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        return f"<a number of about {int(value.bit_length() * 0.30103) + 1} digits>"
    r = reprlib.Repr()
    r.maxlevel, r.maxlist, r.maxdict, r.maxtuple, r.maxset = 2, 4, 4, 4, 4
    r.maxstring, r.maxother, r.maxlong = limit, limit, 60
    try:
        return r.repr(value)
    except (ValueError, RecursionError, MemoryError):
        return f"<{type(value).__name__}>"


def type_name(value: object) -> str:
    """How a YAML value's type is called in messages."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, float):
        return "a decimal number"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__
