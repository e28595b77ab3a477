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
