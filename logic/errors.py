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
    text = value if isinstance(value, str) else repr(value)
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
