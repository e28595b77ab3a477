"""Where derived card attributes are cached and how a card list is found: the
part the Yu-Gi-Oh! reader (logic/textreader.py, logic/carddata.py) and the
Magic card list (logic/mtg_cardlist.py) share."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from logic.files import open_regular


def cache_dir() -> Path:
    """$CHAINJUDGE_CACHE, else chainjudge/ under $XDG_CACHE_HOME or ~/.cache."""
    base = os.environ.get("CHAINJUDGE_CACHE") or os.environ.get("XDG_CACHE_HOME")
    root = Path(base) if base else Path.home() / ".cache"
    return (root / "chainjudge") if not os.environ.get("CHAINJUDGE_CACHE") else root


def file_digest(path: Path) -> str:
    """The SHA-256 of a file, read in chunks; only a regular file is read (a FIFO
    or a device would never end)."""
    h = hashlib.sha256()
    fd, _ = open_regular(path, "card list")
    with os.fdopen(fd, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def find_list(env: str, relative: tuple[str, ...]) -> Path | None:
    """A card list: the path in the environment variable ``env``, else the first of
    ``relative`` that exists under the working directory or the checkout."""
    value = os.environ.get(env)
    if value:
        return Path(value)
    here = Path(__file__).resolve().parent.parent
    for base in (Path.cwd(), here):
        for rel in relative:
            cand = base / rel
            if cand.exists():
                return cand.resolve()
    return None
