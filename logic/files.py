"""Reading a user's files: regular files only, the size checked before reading.

A path from the command line or a corpus may name anything: a FIFO (opening
it for reading waits for a writer, forever), ``/dev/zero`` (endless), a
folder, a symlink to one of these.  Every file chainjudge reads on a user's
behalf -- scenarios, case corpora, rule files, pools, card lists -- is opened
here without blocking, checked to be a regular file with ``fstat`` on the open
descriptor (so a file swapped after the check is still the one checked), and
read up to a limit.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from logic.errors import InputError

MAX_CARD_LIST_BYTES = 2_000_000_000


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def open_regular(path: str | Path, what: str) -> tuple[int, int]:
    """An open descriptor of a regular file and its size, or an InputError."""
    where = str(path).replace("\x00", "\\0")
    if "\x00" in str(path):
        raise InputError(f"the path of the {what} contains a NUL character", where)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputError("file not found", where) from None
    except IsADirectoryError:
        raise InputError(f"is a folder, not a {what}", where) from None
    except OSError as exc:
        raise InputError(f"cannot read the file ({exc.strerror or exc})", where) from None
    except ValueError as exc:
        raise InputError(f"not a usable path ({exc})", where) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = _kind(st.st_mode)
            raise InputError(f"is {kind}, not a {what}" if kind.startswith("a ") else f"is {kind}", where)
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd, st.st_size


def read_bytes(path: str | Path, what: str, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes."""
    fd, size = open_regular(path, what)
    try:
        if size > limit:
            raise InputError(f"the {what} is too large ({size} bytes; at most {limit})", str(path))
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:  # it grew while being read
                raise InputError(f"the {what} is too large (more than {limit} bytes)", str(path))
    except OSError as exc:
        raise InputError(f"cannot read the file ({exc.strerror or exc})", str(path)) from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def json_lines(path: str | Path, what: str = "card list") -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for every non-empty line of a JSON-lines file;
    a line that is not a JSON object (a truncated last line, text, an array)
    is an InputError naming the file and the line, never skipped."""
    fd, size = open_regular(path, what)
    if size > MAX_CARD_LIST_BYTES:
        os.close(fd)
        raise InputError(f"the {what} is too large ({size} bytes; at most {MAX_CARD_LIST_BYTES})", str(path))
    with os.fdopen(fd, "rb") as fh:
        for number, raw in enumerate(fh, 1):
            if number == 1:
                raw = raw.removeprefix(b"\xef\xbb\xbf")  # a byte-order mark some editors write
            try:
                line = raw.decode("utf-8").strip()
            except UnicodeDecodeError:
                raise InputError("not UTF-8 text; save the file as UTF-8", f"{path}:{number}") from None
            if not line:
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                cut = " (the file may be cut short)" if not raw.endswith(b"\n") else ""
                raise InputError(f"not a JSON object ({exc.msg}, column {exc.colno}){cut}; a card list has "
                                 "one card a line, each a JSON object", f"{path}:{number}") from None
            except RecursionError:
                raise InputError("nested too deeply", f"{path}:{number}") from None
            if not isinstance(rec, dict):
                raise InputError("not a JSON object; a card list has one card a line, each a JSON object "
                                 "with its name and text", f"{path}:{number}")
            yield number, rec
