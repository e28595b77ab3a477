"""The full card lists, installed once in the user's data directory.

``chainjudge cards import FILE`` checks a card list (every line or record,
reporting the file and line of the first bad one) and stores it; ``chainjudge
cards update`` downloads the current lists from their public sources and does
the same.  ``ask``, ``cases``, ``chains`` and ``cards`` then find them without
flags; ``--cards FILE`` and the environment variables ``CHAINJUDGE_CARDS`` /
``CHAINJUDGE_MTG_CARDS`` still win.

Where: ``$CHAINJUDGE_DATA_DIR`` if set, else the platform's user data directory
(platformdirs: ``~/.local/share/chainjudge`` on Linux).  Files:
``ygo-cards.jsonl`` (one card a line, the fields of ``logic/carddata.py``) and
``mtg-cards.json`` (Scryfall's Oracle cards bulk file, or JSON lines with its
fields), and ``sources.json`` (where each came from, its size and SHA-256).
Every write goes to a temporary file in the same directory and replaces the
old list in one step (``os.replace``): a failed import or download leaves
the installed list as it was.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import sys
import tempfile
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from logic.errors import InputError

ENV_DIR = "CHAINJUDGE_DATA_DIR"
FILES = {"ygo": "ygo-cards.jsonl", "mtg": "mtg-cards.json"}
GAME_NAMES = {"ygo": "Yu-Gi-Oh!", "mtg": "Magic"}
# The public sources `cards update` reads; each may be overridden by the
# environment (CHAINJUDGE_YGO_URL, CHAINJUDGE_MTG_URL) or by --ygo-url / --mtg-url.
DEFAULT_URLS = {
    # YGOPRODeck's card database API (one JSON document: {"data": [cards]})
    "ygo": "https://db.ygoprodeck.com/api/v7/cardinfo.php?misc=yes",
    # Scryfall's bulk-data object for the Oracle cards file (its download_uri and size)
    "mtg": "https://api.scryfall.com/bulk-data/oracle_cards",
}
URL_ENV = {"ygo": "CHAINJUDGE_YGO_URL", "mtg": "CHAINJUDGE_MTG_URL"}
MAX_DOWNLOAD = 2 << 30  # 2 GiB: more is not a card list
USER_AGENT = "chainjudge-cards-update/1 (+https://github.com/; a judges' timing tool)"
HINT = ("install the full card list once with `chainjudge cards import FILE` or `chainjudge cards update`, "
        "or give it with --cards FILE")


def data_dir() -> Path:
    env = os.environ.get(ENV_DIR)
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("chainjudge", appauthor=False))


def installed(game: str) -> Path | None:
    """The installed card list of a game, if there is one."""
    p = data_dir() / FILES[game]
    return p if p.is_file() else None


@dataclass(frozen=True)
class Installed:
    game: str
    path: Path
    cards: int
    sha256: str
    size: int
    source: str

    def line(self) -> str:
        return (f"{GAME_NAMES[self.game]} card list: {self.cards} cards from {self.source} "
                f"installed at {self.path} ({self.size} bytes, SHA-256 {self.sha256[:16]}…)")


# ---------------------------------------------------------------- reading and checking a list


def _json_lines(fh: IO[str], where: str) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, raw in enumerate(fh, 1):
        line = raw.strip().lstrip("\ufeff")
        if not line:
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"line {number} is not a JSON object ({exc.msg})", f"{where}:{number}") from None
        if not isinstance(rec, dict):
            raise InputError(f"line {number} is not a JSON object (a card list has one card a line)",
                             f"{where}:{number}")
        yield number, rec


def _array(fh: IO[str], where: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """A JSON array of card objects (Scryfall writes one a line; read whole otherwise)."""
    text = fh.read()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"line {exc.lineno} is not valid JSON ({exc.msg})", f"{where}:{exc.lineno}") from None
    if isinstance(data, dict) and isinstance(data.get("data"), list):  # YGOPRODeck's {"data": [...]}
        data = data["data"]
    if not isinstance(data, list):
        raise InputError("not a card list: expected JSON lines, a JSON array of cards, or YGOPRODeck's "
                         '{"data": [...]}', where)
    # the line of each object, for messages: Scryfall's file has one object a line
    starts = [i + 2 for i, ch in enumerate(text) if ch == "\n"]
    for i, rec in enumerate(data):
        number = starts[i] if len(starts) > i and len(starts) >= len(data) else i + 1
        if not isinstance(rec, dict):
            raise InputError(f"record {i + 1} is not a card object", f"{where}:{number}")
        yield number, rec


def records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line, card object) of a card list file, in any of the accepted layouts."""
    where = str(path)
    try:
        fh = open(path, encoding="utf-8")
    except FileNotFoundError:
        raise InputError("file not found", where) from None
    except OSError as exc:
        raise InputError(f"cannot read the file ({exc.strerror or exc})", where) from None
    with fh:
        try:
            head = fh.read(1 << 16)
        except UnicodeDecodeError:
            raise InputError("not UTF-8 text (a card list is JSON)", where) from None
        fh.seek(0)
        body = head.lstrip("\ufeff \t\r\n")
        whole = body[:1] == "["
        if body[:1] == "{":
            try:
                first = json.loads(body.split("\n", 1)[0])
                whole = isinstance(first, dict) and isinstance(first.get("data"), list)
            except ValueError:
                whole = True  # an object over several lines: a document, not JSON lines
        try:
            if whole:
                yield from _array(fh, where)
            else:
                yield from _json_lines(fh, where)
        except UnicodeDecodeError as exc:
            raise InputError(f"not UTF-8 text ({exc.reason})", where) from None


def game_of_record(rec: dict[str, Any]) -> str | None:
    if "oracle_text" in rec or "type_line" in rec or "oracle_id" in rec or "card_faces" in rec:
        return "mtg"
    if "card_type" in rec or "konami_id" in rec or "password" in rec:
        return "ygo"
    if "frameType" in rec or "desc" in rec:  # YGOPRODeck
        return "ygo"
    return None


def from_ygoprodeck(rec: dict[str, Any]) -> dict[str, Any]:
    """A YGOPRODeck card object in the fields of our Yu-Gi-Oh! card list."""
    kind = str(rec.get("type") or "")
    if "Spell" in kind or rec.get("frameType") == "spell":
        card_type = "Spell"
    elif "Trap" in kind or rec.get("frameType") == "trap":
        card_type = "Trap"
    else:
        card_type = "Monster"
    out: dict[str, Any] = {"name": rec.get("name"), "card_type": card_type, "password": rec.get("id")}
    misc = rec.get("misc_info")
    if isinstance(misc, list) and misc and isinstance(misc[0], dict) and misc[0].get("konami_id"):
        out["konami_id"] = misc[0]["konami_id"]
    if card_type == "Monster":
        line = rec.get("typeline")
        if not isinstance(line, list):
            words = [w for w in kind.replace("XYZ", "Xyz").split() if w != "Monster"]
            line = [str(rec.get("race") or "")] + words
        out["monster_type_line"] = " / ".join(str(x) for x in line if x)
        for key, ours in (("attribute", "attribute"), ("level", "level"), ("atk", "atk"), ("def", "def")):
            if rec.get(key) is not None:
                out[ours] = rec[key]
        if rec.get("pend_desc"):
            out["pendulum_effect"] = rec["pend_desc"]
            out["text"] = rec.get("monster_desc") or rec.get("desc") or ""
    else:
        out["property"] = rec.get("race")
    out.setdefault("text", rec.get("desc") or "")
    return out


def check_list(path: Path, game: str | None = None) -> tuple[str, int, list[dict[str, Any]] | None]:
    """Read every record of a card list: (game, number of cards, converted records or None).

    Converted records are returned only when the list must be rewritten (a
    YGOPRODeck document); a list already in our layout is copied as it is.
    A bad record is an InputError naming the file and its line."""
    count = 0
    seen_game: str | None = game
    converted: list[dict[str, Any]] | None = None
    for number, rec in records(path):
        g = game_of_record(rec)
        if g is None:
            raise InputError("not a card of either game's card list (no Yu-Gi-Oh! fields such as card_type, "
                             "no Magic fields such as type_line or oracle_text)", f"{path}:{number}")
        if seen_game is None:
            seen_game = g
        elif g != seen_game:
            raise InputError(f"a {GAME_NAMES[g]} card in a {GAME_NAMES[seen_game]} card list", f"{path}:{number}")
        name = rec.get("name")
        if not isinstance(name, str) or not name.strip():
            raise InputError("a card without a name", f"{path}:{number}")
        if g == "ygo" and ("frameType" in rec or "desc" in rec) and "card_type" not in rec:
            converted = converted if converted is not None else []
            converted.append(from_ygoprodeck(rec))
        elif converted is not None:
            converted.append(rec)
        count += 1
    if count == 0 or seen_game is None:
        raise InputError("the card list is empty", str(path))
    return seen_game, count, converted


# ---------------------------------------------------------------- installing


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _manifest() -> dict[str, Any]:
    p = data_dir() / "sources.json"
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _write_atomic(dest: Path, write: Callable[[IO[bytes]], None]) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".part", dir=dest.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, dest)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def install(path: Path, source: str | None = None, game: str | None = None) -> Installed:
    """Check a card list and store it as the installed list of its game."""
    path = Path(path)
    g, count, converted = check_list(path, game)
    dest = data_dir() / FILES[g]
    try:
        if converted is not None:
            _write_atomic(dest, lambda fh: fh.writelines(
                (json.dumps(r, ensure_ascii=False) + "\n").encode("utf-8") for r in converted))
        else:
            def copy(fh: IO[bytes]) -> None:
                with open(path, "rb") as src:
                    for block in iter(lambda: src.read(1 << 20), b""):
                        fh.write(block)
            _write_atomic(dest, copy)
    except OSError as exc:
        raise InputError(f"cannot write the card list ({exc.strerror or exc})", str(dest)) from None
    digest, size = _sha256(dest), dest.stat().st_size
    man = _manifest()
    man[g] = {"file": FILES[g], "cards": count, "sha256": digest, "size": size, "source": source or str(path),
              "installed": datetime.now(UTC).isoformat(timespec="seconds")}
    def manifest(fh: IO[bytes]) -> None:
        fh.write(json.dumps(man, indent=2, ensure_ascii=False).encode("utf-8"))

    _write_atomic(data_dir() / "sources.json", manifest)
    return Installed(g, dest, count, digest, size, source or str(path))


# ---------------------------------------------------------------- downloading


def _open(url: str) -> Any:
    if not url.startswith(("http://", "https://")):
        raise InputError("only http and https URLs can be downloaded", url)
    req = urllib.request.Request(url, headers={"User-Agent": USER_AGENT, "Accept": "application/json, */*",
                                               "Accept-Encoding": "gzip"})
    try:
        return urllib.request.urlopen(req, timeout=60)  # noqa: S310 - http(s) URLs only, checked by the caller
    except urllib.error.HTTPError as exc:
        raise InputError(f"the server answered {exc.code} {exc.reason}", url) from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise InputError(f"cannot download ({reason})", url) from None


def _download(url: str, dest: IO[bytes], expect_size: int | None, progress: bool, label: str) -> tuple[int, str]:
    """Stream a URL into ``dest``: (bytes written after decoding, SHA-256 of them)."""
    if not url.startswith(("http://", "https://")):
        raise InputError("only http and https URLs can be downloaded", url)
    resp = _open(url)
    length = resp.headers.get("Content-Length")
    total = int(length) if length and length.isdigit() else None
    encoded = (resp.headers.get("Content-Encoding") or "").lower() == "gzip"
    h = hashlib.sha256()
    written = 0
    stream: Any = resp
    if encoded:
        stream = gzip.GzipFile(fileobj=resp)
    bar = None
    if progress:
        from rich.progress import BarColumn, DownloadColumn, Progress, TransferSpeedColumn

        bar = Progress("[progress.description]{task.description}", BarColumn(), DownloadColumn(),
                       TransferSpeedColumn(), transient=True)
        bar.start()
        task = bar.add_task(label, total=expect_size or (None if encoded else total))
    try:
        while True:
            try:
                block = stream.read(1 << 16)
            except (OSError, EOFError) as exc:
                raise InputError(f"the download broke off ({exc})", url) from None
            if not block:
                break
            written += len(block)
            if written > MAX_DOWNLOAD:
                raise InputError(f"the download is larger than {MAX_DOWNLOAD} bytes: not a card list", url)
            h.update(block)
            dest.write(block)
            if bar is not None:
                bar.update(task, completed=written)
    finally:
        if bar is not None:
            bar.stop()
        resp.close()
    if not encoded and total is not None and written != total:
        raise InputError(f"the download is incomplete: {written} of {total} bytes", url)
    if expect_size is not None and written != expect_size:
        raise InputError(f"the download has {written} bytes, the source says {expect_size}", url)
    return written, h.hexdigest()


def _metadata(url: str) -> dict[str, Any] | None:
    """A bulk-data description (Scryfall's ``{"object": "bulk_data", "download_uri": …}``), if the URL gives one."""
    resp = _open(url)
    try:
        data = resp.read(1 << 20)
        more = resp.read(1)
    finally:
        resp.close()
    if more:
        return None  # too large to be a description: the URL is the list itself
    if (resp.headers.get("Content-Encoding") or "").lower() == "gzip":
        try:
            data = gzip.decompress(data)
        except OSError:
            return None
    try:
        obj = json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    if isinstance(obj, dict) and isinstance(obj.get("download_uri"), str):
        return obj
    return None


def update(game: str, url: str | None = None, progress: bool | None = None) -> Installed:
    """Download a game's current card list and install it (checked, then replaced in one step)."""
    url = url or os.environ.get(URL_ENV[game]) or DEFAULT_URLS[game]
    if progress is None:
        progress = sys.stderr.isatty()
    meta = _metadata(url)
    target, size, sha = url, None, None
    if meta is not None:
        target = meta["download_uri"]
        size = meta.get("size") if isinstance(meta.get("size"), int) else None
        sha = meta.get("sha256") if isinstance(meta.get("sha256"), str) else None
    ddir = data_dir()
    ddir.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{game}-download.", suffix=".part", dir=ddir)
    try:
        with os.fdopen(fd, "wb") as fh:
            _, digest = _download(target, fh, size, progress, f"{GAME_NAMES[game]} cards")
        if sha is not None and digest != sha.lower():
            raise InputError(f"the download's SHA-256 is {digest}, the source says {sha}", target)
        result = install(Path(tmp), source=target, game=game)
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass
    return result


def status() -> list[str]:
    """One line per installed list (for ``chainjudge cards`` without a name)."""
    man = _manifest()
    out = []
    for g in ("ygo", "mtg"):
        p = installed(g)
        if p is None:
            continue
        m = man.get(g, {})
        out.append(f"{GAME_NAMES[g]} card list: {m.get('cards', '?')} cards at {p} (from {m.get('source', '?')}, "
                   f"{m.get('installed', '?')})")
    return out

