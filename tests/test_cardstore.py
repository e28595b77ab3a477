"""`chainjudge cards import FILE` and `cards update` (logic/cardstore.py): the
full card lists installed once in the user's data directory, found by every
command without flags; downloads checked (size, SHA-256) and installed in one
step, tested against a local HTTP server."""

from __future__ import annotations

import hashlib
import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from logic import cardstore
from queries.cli import app

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT / ".." / "shared" / "data"

# Made-up cards (the real card texts stay out of the repository).
YGO = [
    {"name": "Test Ambush Trap", "card_type": "Trap", "property": "Normal", "password": 1,
     "text": "When an opponent's monster declares an attack: Target that attacking monster; destroy it."},
    {"name": "Test Draw Beast", "card_type": "Monster", "monster_type_line": "Beast / Effect", "level": 4,
     "attribute": "EARTH", "atk": 1800, "def": 1200, "password": 2,
     "text": "If this card is sent from the field to the GY: You can draw 1 card."},
]
MTG = [
    {"object": "card", "name": "Test Shock Bolt", "type_line": "Instant", "mana_cost": "{R}",
     "oracle_text": "Test Shock Bolt deals 2 damage to any target.", "layout": "normal"},
    {"object": "card", "name": "Test Hill Bear", "type_line": "Creature — Bear", "mana_cost": "{1}{G}",
     "oracle_text": "", "power": "2", "toughness": "2", "layout": "normal"},
]


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "data"
    monkeypatch.setenv("CHAINJUDGE_DATA_DIR", str(d))
    for env in ("CHAINJUDGE_CARDS", "CHAINJUDGE_MTG_CARDS", "CHAINJUDGE_YGO_URL", "CHAINJUDGE_MTG_URL"):
        monkeypatch.delenv(env, raising=False)
    monkeypatch.setenv("CHAINJUDGE_CACHE", str(tmp_path / "cache"))
    return d


def _jsonl(path: Path, recs: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    return path


def _scryfall(path: Path, recs: list[dict]) -> Path:
    # Scryfall's bulk files: a JSON array, one card a line
    path.write_text("[\n" + ",\n".join(json.dumps(r) for r in recs) + "\n]\n", encoding="utf-8")
    return path


def test_import_detects_the_game_and_installs(data_dir: Path, tmp_path: Path) -> None:
    r = CliRunner().invoke(app, ["cards", "import", str(_jsonl(tmp_path / "y.jsonl", YGO))])
    assert r.exit_code == 0, r.output
    assert "Yu-Gi-Oh! card list: 2 cards" in r.output
    assert cardstore.installed("ygo") == data_dir / "ygo-cards.jsonl"
    r = CliRunner().invoke(app, ["cards", "import", str(_scryfall(tmp_path / "oracle.json", MTG))])
    assert r.exit_code == 0, r.output
    assert "Magic card list: 2 cards" in r.output
    assert cardstore.installed("mtg") == data_dir / "mtg-cards.json"
    man = json.loads((data_dir / "sources.json").read_text())
    assert man["ygo"]["cards"] == 2 and man["mtg"]["sha256"] == hashlib.sha256(
        (data_dir / "mtg-cards.json").read_bytes()).hexdigest()


def test_magic_json_lines_are_accepted(data_dir: Path, tmp_path: Path) -> None:
    res = cardstore.install(_jsonl(tmp_path / "m.jsonl", MTG))
    assert res.game == "mtg" and res.cards == 2


def test_ygoprodeck_documents_are_converted(data_dir: Path, tmp_path: Path) -> None:
    doc = {"data": [{"id": 7, "name": "Test Prodeck Spell", "type": "Spell Card", "frameType": "spell",
                     "race": "Quick-Play", "desc": "Target 1 card on the field; destroy it."},
                    {"id": 8, "name": "Test Prodeck Monster", "type": "Effect Monster", "frameType": "effect",
                     "race": "Warrior", "attribute": "LIGHT", "level": 4, "atk": 1000, "def": 1000,
                     "desc": "When this card is Normal Summoned: You can draw 1 card."}]}
    p = tmp_path / "prodeck.json"
    p.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    res = cardstore.install(p)
    assert res.game == "ygo" and res.cards == 2
    lines = [json.loads(x) for x in res.path.read_text().splitlines()]
    assert lines[0]["card_type"] == "Spell" and lines[0]["property"] == "Quick-Play"
    assert lines[1]["monster_type_line"] == "Warrior / Effect" and lines[1]["atk"] == 1000


@pytest.mark.parametrize("content,line,words", [
    ('{"name": "A", "card_type": "Trap", "text": ""}\n{"name": "B", "card_type": \n', 2, "not a JSON object"),
    ('{"name": "A", "card_type": "Trap", "text": ""}\n[1, 2]\n', 2, "not a JSON object"),
    ('{"name": "A", "card_type": "Trap", "text": ""}\n{"title": "no card"}\n', 2, "not a card"),
    ('{"name": "A", "card_type": "Trap", "text": ""}\n{"card_type": "Spell"}\n', 2, "without a name"),
    ('{"name": "A", "card_type": "Trap"}\n\n{"name": "B", "type_line": "Instant"}\n', 3, "Magic card in a Yu-Gi-Oh!"),
])
def test_a_malformed_list_names_file_and_line(data_dir: Path, tmp_path: Path, content: str, line: int,
                                              words: str) -> None:
    p = tmp_path / "bad.jsonl"
    p.write_text(content, encoding="utf-8")
    r = CliRunner().invoke(app, ["cards", "import", str(p)])
    assert r.exit_code == 2, r.output
    assert f"{p}:{line}" in r.output and words in r.output
    assert "Traceback" not in r.output
    assert cardstore.installed("ygo") is None  # nothing half-installed


def test_a_failed_import_keeps_the_installed_list(data_dir: Path, tmp_path: Path) -> None:
    cardstore.install(_jsonl(tmp_path / "y.jsonl", YGO))
    before = (data_dir / "ygo-cards.jsonl").read_bytes()
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"name": "X", "card_type": "Trap"}\nnot json\n', encoding="utf-8")
    assert CliRunner().invoke(app, ["cards", "import", str(bad)]).exit_code == 2
    assert (data_dir / "ygo-cards.jsonl").read_bytes() == before
    assert not [p for p in data_dir.iterdir() if p.name.endswith(".part")]


def test_import_needs_a_file_and_update_takes_none(data_dir: Path) -> None:
    r = CliRunner().invoke(app, ["cards", "import"])
    assert r.exit_code == 2 and "needs the card list file" in r.output
    r = CliRunner().invoke(app, ["cards", "import", "/no/such/file.jsonl"])
    assert r.exit_code == 2 and "file not found" in r.output


def test_empty_list_is_refused(data_dir: Path, tmp_path: Path) -> None:
    p = tmp_path / "empty.jsonl"
    p.write_text("\n", encoding="utf-8")
    r = CliRunner().invoke(app, ["cards", "import", str(p)])
    assert r.exit_code == 2 and "empty" in r.output


# ---------------------------------------------------------------- every command finds the installed list


SCENARIO = """\
game: ygo
players: [A, B]
turn_player: A
phase: battle.battle
cards:
  - {card: Test Ambush Trap, controller: B, zone: spell_trap, position: face_down}
  - {card: Reborn Tengu, controller: A, zone: monster, position: face_up_attack}
"""


def test_ask_finds_an_imported_card_without_flags(data_dir: Path, tmp_path: Path) -> None:
    sc = tmp_path / "s.yaml"
    sc.write_text(SCENARIO, encoding="utf-8")
    q = "can B activate Test Ambush Trap in response to A declaring an attack with Reborn Tengu directly"
    r = CliRunner().invoke(app, ["ask", str(sc), q])
    assert r.exit_code == 2 and "unknown card 'Test Ambush Trap'" in r.output
    assert "chainjudge cards import FILE" in r.output  # the message says how to import
    cardstore.install(_jsonl(tmp_path / "y.jsonl", YGO))
    r = CliRunner().invoke(app, ["ask", str(sc), q, "--json"])
    assert r.exit_code in (0, 4), r.output
    doc = json.loads(r.output)
    assert doc["verdict"] == "yes" or "not modelled" in r.output


def test_explicit_cards_option_and_environment_win(data_dir: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    cardstore.install(_jsonl(tmp_path / "y.jsonl", YGO))
    other = _jsonl(tmp_path / "other.jsonl", [dict(YGO[0], name="Test Other Trap")])
    from logic import carddata

    assert carddata.default_path() == data_dir / "ygo-cards.jsonl"
    monkeypatch.setenv("CHAINJUDGE_CARDS", str(other))
    assert carddata.default_path() == other
    r = CliRunner().invoke(app, ["cards", "Test Other Trap"])
    assert r.exit_code == 0 and "Test Other Trap" in r.output
    monkeypatch.delenv("CHAINJUDGE_CARDS")
    r = CliRunner().invoke(app, ["cards", "Test Other Trap", "--cards", str(other)])
    assert r.exit_code == 0 and "Test Other Trap" in r.output


def test_cards_search_by_name_spelling_and_text(data_dir: Path, tmp_path: Path) -> None:
    cardstore.install(_jsonl(tmp_path / "y.jsonl", YGO))
    r = CliRunner().invoke(app, ["cards", "Test Draw Beast"])
    assert r.exit_code == 0, r.output
    assert "text: If this card is sent from the field to the GY" in r.output
    assert "effect 1 [" in r.output and "kind=trigger" in r.output
    r = CliRunner().invoke(app, ["cards", "Test Drwa Beast"])  # a close spelling
    assert r.exit_code == 0 and "Test Draw Beast" in r.output
    r = CliRunner().invoke(app, ["cards", "declares an attack"])  # words of the text
    assert r.exit_code == 0 and "Test Ambush Trap" in r.output
    r = CliRunner().invoke(app, ["cards", "Test"])  # several by name
    assert r.exit_code == 0 and "2 card(s) match 'Test' by name" in r.output
    r = CliRunner().invoke(app, ["cards", "zzzz qqqq"])
    assert r.exit_code == 2 and "no card matches" in r.output


def test_magic_cards_search_the_installed_list(data_dir: Path, tmp_path: Path) -> None:
    cardstore.install(_scryfall(tmp_path / "oracle.json", MTG))
    r = CliRunner().invoke(app, ["cards", "Test Shock Bolt", "--game", "mtg"])
    assert r.exit_code == 0, r.output
    assert "deals 2 damage" in r.output


def test_without_a_list_the_message_says_how_to_install(data_dir: Path) -> None:
    r = CliRunner().invoke(app, ["cards", "Breakthrough Skill"], env={"CHAINJUDGE_CARDS": ""})
    if r.exit_code == 2:  # no shared card list next to the checkout either
        assert "chainjudge cards import FILE" in r.output


# ---------------------------------------------------------------- cards update, against a local server


class _Server:
    def __init__(self, files: dict[str, bytes], headers: dict[str, dict[str, str]] | None = None) -> None:
        self.files = files
        self.headers = headers or {}
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                body = outer.files.get(self.path)
                if body is None:
                    self.send_response(404)
                    self.end_headers()
                    return
                self.send_response(200)
                extra = outer.headers.get(self.path, {})
                self.send_header("Content-Length", extra.get("Content-Length", str(len(body))))
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> _Server:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def lists() -> Iterator[tuple[bytes, bytes]]:
    ygo = "".join(json.dumps(r) + "\n" for r in YGO).encode()
    mtg = ("[\n" + ",\n".join(json.dumps(r) for r in MTG) + "\n]\n").encode()
    yield ygo, mtg


def test_update_downloads_checks_and_installs(data_dir: Path, lists: tuple[bytes, bytes]) -> None:
    ygo, mtg = lists
    with _Server({}) as srv:
        meta = {"object": "bulk_data", "type": "oracle_cards", "download_uri": srv.url + "/oracle-cards.json",
                "size": len(mtg), "sha256": hashlib.sha256(mtg).hexdigest()}
        srv.files.update({"/ygo.jsonl": ygo, "/oracle-cards.json": mtg, "/bulk/oracle_cards": json.dumps(meta).encode()})
        r = CliRunner().invoke(app, ["cards", "update", "--ygo-url", srv.url + "/ygo.jsonl",
                                     "--mtg-url", srv.url + "/bulk/oracle_cards"])
    assert r.exit_code == 0, r.output
    assert (data_dir / "ygo-cards.jsonl").read_bytes() == ygo
    assert (data_dir / "mtg-cards.json").read_bytes() == mtg
    man = json.loads((data_dir / "sources.json").read_text())
    assert man["mtg"]["source"].endswith("/oracle-cards.json") and man["mtg"]["size"] == len(mtg)
    assert not [p for p in data_dir.iterdir() if p.name.endswith(".part")]


def test_update_urls_from_the_environment(data_dir: Path, lists: tuple[bytes, bytes],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    ygo, _ = lists
    with _Server({"/cards.jsonl": ygo}) as srv:
        monkeypatch.setenv("CHAINJUDGE_YGO_URL", srv.url + "/cards.jsonl")
        r = CliRunner().invoke(app, ["cards", "update", "--game", "ygo"])
    assert r.exit_code == 0, r.output
    assert cardstore.installed("ygo") is not None


@pytest.mark.parametrize("fault,words", [
    ("size", "the source says"),
    ("sha256", "SHA-256"),
    ("missing", "404"),
    ("not-a-list", "not a card"),
])
def test_a_bad_download_changes_nothing(data_dir: Path, tmp_path: Path, lists: tuple[bytes, bytes],
                                        fault: str, words: str) -> None:
    ygo, mtg = lists
    cardstore.install(_scryfall(tmp_path / "old.json", MTG[:1]))
    before = (data_dir / "mtg-cards.json").read_bytes()
    with _Server({}) as srv:
        body = b'{"name": "x", "title": "no card"}\n' if fault == "not-a-list" else mtg
        meta = {"object": "bulk_data", "download_uri": srv.url + ("/gone.json" if fault == "missing" else "/o.json"),
                "size": len(body) + (7 if fault == "size" else 0)}
        if fault == "sha256":
            meta["sha256"] = "0" * 64
        srv.files.update({"/o.json": body, "/meta": json.dumps(meta).encode()})
        r = CliRunner().invoke(app, ["cards", "update", "--game", "mtg", "--mtg-url", srv.url + "/meta"])
    assert r.exit_code == 2, r.output
    assert words in r.output and "Traceback" not in r.output
    assert (data_dir / "mtg-cards.json").read_bytes() == before
    assert not [p for p in data_dir.iterdir() if p.name.endswith(".part")]


def test_an_incomplete_transfer_is_refused(data_dir: Path, lists: tuple[bytes, bytes]) -> None:
    ygo, _ = lists
    with _Server({"/y.jsonl": ygo}, {"/y.jsonl": {"Content-Length": str(len(ygo) + 100)}}) as srv:
        r = CliRunner().invoke(app, ["cards", "update", "--game", "ygo", "--ygo-url", srv.url + "/y.jsonl"])
    assert r.exit_code == 2, r.output
    assert cardstore.installed("ygo") is None


def test_only_http_urls(data_dir: Path) -> None:
    r = CliRunner().invoke(app, ["cards", "update", "--game", "ygo", "--ygo-url", "file:///etc/passwd"])
    assert r.exit_code == 2 and "http" in r.output


def test_progress_bar_runs(data_dir: Path, lists: tuple[bytes, bytes]) -> None:
    ygo, _ = lists
    with _Server({"/y.jsonl": ygo}) as srv:
        res = cardstore.update("ygo", srv.url + "/y.jsonl", progress=True)
    assert res.cards == 2


def test_a_card_in_neither_library_nor_list_says_so(data_dir: Path, tmp_path: Path) -> None:
    cardstore.install(_jsonl(tmp_path / "y.jsonl", YGO))
    sc = tmp_path / "s.yaml"
    sc.write_text(SCENARIO.replace("Test Ambush Trap", "Test Ambush Trapp"), encoding="utf-8")
    r = CliRunner().invoke(app, ["ask", str(sc), "who has priority now"])
    assert r.exit_code == 2
    assert "nor in the full card list" in r.output and "'Test Ambush Trap'" in r.output
