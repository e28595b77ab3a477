"""Normalising text a person typed (questions, event phrases, names), so that
what looks the same matches the same: Unicode compatibility forms (NFKC:
full-width letters, ligatures), invisible format characters (zero-width
spaces, bidirectional marks, soft hyphens, byte-order marks) removed."""

from __future__ import annotations

import unicodedata
from functools import lru_cache


@lru_cache(maxsize=8192)
def normalise(text: str) -> str:
    """NFKC, without format characters (category Cf)."""
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    try:
        return unicodedata.normalize("NFKC", text)
    except UnicodeError:  # lone surrogates: left for the caller's check
        return text


def first_unprintable(text: str) -> int | None:
    """The index of the first character that is neither printable nor a plain
    space (controls, surrogates, private-use or unassigned code points)."""
    for i, ch in enumerate(text):
        if ch != " " and not ch.isprintable():
            return i
    return None
