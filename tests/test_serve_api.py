"""The JSON API of ``chainjudge serve`` (queries/serve/app.py, docs/api.md),
with FastAPI's TestClient: answers as ``chainjudge ask --json`` gives them,
bad input as the command line's exit-2 message, limits as 503, not modelled
answered honestly; the server never reads a file a client names."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from queries.serve import forms as question_forms  # noqa: E402
from queries.serve.app import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CLI = [str(Path(sys.executable).parent / "chainjudge")]
VEILER = {"game": "ygo", "players": ["A", "B"], "turn_player": "A", "phase": "main1",
          "cards": [{"card": "Judgment Dragon", "controller": "A", "zone": "monster", "position": "face_up_attack"},
                    {"card": "Effect Veiler", "controller": "B", "zone": "hand"}]}
MST = {"game": "ygo", "players": ["A", "B"], "turn_player": "A", "phase": "main1",
       "cards": [{"card": "Mystical Space Typhoon", "controller": "A", "zone": "hand"},
                 {"card": "Mirror Force", "controller": "B", "zone": "spell_trap", "position": "face_down"}]}


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(time_limit=300))


def _cli(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(CLI + args, cwd=cwd, capture_output=True, text=True, timeout=300)


# ---------------------------------------------------------------- the page


def test_the_page_is_one_self_contained_file(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    page = r.text
    # no CDN, no other file: every script and style is inline
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "@import" not in page and "<link" not in page
    assert "<script src" not in page
    assert "default-src 'self'" in r.headers["content-security-policy"]


def test_meta_and_forms(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert [p["name"] for p in meta["games"]["ygo"]["points"]][:3] == ["draw", "standby", "main1"]
    assert "battle.damage" in [s["name"] for s in meta["games"]["ygo"]["spans"]]
    assert "battlefield" in meta["games"]["mtg"]["zones"]
    assert client.get("/api/forms").json() == json.loads(json.dumps(question_forms.forms()))


# ---------------------------------------------------------------- card search


def test_card_search_finds_library_cards_first_and_close_spellings(client: TestClient) -> None:
    names = [c["name"] for c in client.get("/api/cards", params={"q": "veiler"}).json()["cards"]]
    assert names[0] == "Effect Veiler"
    fuzzy = [c["name"] for c in client.get("/api/cards", params={"q": "Efect Veiler"}).json()["cards"]]
    assert "Effect Veiler" in fuzzy
    found = client.get("/api/cards", params={"q": "Lightning Bolt", "game": "mtg"}).json()["cards"]
    assert found and found[0]["name"] == "Lightning Bolt"


def test_card_search_covers_the_full_card_list(client: TestClient) -> None:
    if not client.get("/api/meta").json()["card_lists"]["ygo"]:
        pytest.skip("no Yu-Gi-Oh! card list here (../shared/data or CHAINJUDGE_CARDS)")
    found = client.get("/api/cards", params={"q": "breakthrough sk"}).json()["cards"]
    assert found[0]["name"] == "Breakthrough Skill" and found[0]["source"] == "card list"
    assert found[0]["text"]  # shown from the user's list, at run time


def test_card_search_rejects_a_wrong_game(client: TestClient) -> None:
    r = client.get("/api/cards", params={"q": "x", "game": "chess"})
    assert r.status_code == 400 and r.json()["exit_code"] == 2


# ---------------------------------------------------------------- answers


def test_ask_gives_the_json_answer_of_the_command_line(client: TestClient, tmp_path: Path) -> None:
    q = "can B activate Effect Veiler targeting Judgment Dragon after A declares the end of main phase 1"
    r = client.post("/api/ask", json={"scenario": VEILER, "question": q})
    assert r.status_code == 200
    got = r.json()
    (tmp_path / "scenario").write_text(yaml.safe_dump(VEILER), encoding="utf-8")
    cli = _cli(["ask", "scenario", q, "--json"], tmp_path)
    assert cli.returncode == 0, cli.stderr
    want = json.loads(cli.stdout)
    for key in ("question", "kind", "verdict", "answer", "witness", "latest_chance"):
        assert got[key] == want[key], key
    assert [b["rule"] for b in got["because"]] == [b["rule"] for b in want["because"]]


def test_a_scenario_may_be_yaml_text(client: TestClient) -> None:
    r = client.post("/api/ask", json={"scenario": yaml.safe_dump(VEILER), "question": "who has priority now"})
    assert r.status_code == 200 and r.json()["answer"] == "A"


@pytest.mark.parametrize("case", ["unknown-card-in-question", "unknown-phase", "yaml-syntax"])
def test_bad_input_is_400_with_the_message_of_the_command_line(client: TestClient, tmp_path: Path, case: str) -> None:
    scenario: Any = VEILER
    question = "who has priority now"
    if case == "unknown-card-in-question":
        question = "can B activate Effect Vailer now"
    elif case == "unknown-phase":
        scenario = {**VEILER, "phase": "the third phase"}
    else:
        scenario = "game: ygo\nplayers: [A, B\n"
    r = client.post("/api/ask", json={"scenario": scenario, "question": question})
    assert r.status_code == 400
    body = r.json()
    assert body["exit_code"] == 2
    (tmp_path / "scenario").write_text(scenario if isinstance(scenario, str) else yaml.safe_dump(scenario),
                                       encoding="utf-8")
    cli = _cli(["ask", "scenario", question], tmp_path)
    assert cli.returncode == 2
    assert cli.stderr.strip() == "chainjudge: " + body["error"]


def test_a_request_of_the_wrong_shape_is_422_with_one_message(client: TestClient) -> None:
    r = client.post("/api/ask", json={"scenario": VEILER})
    assert r.status_code == 422 and r.json() == {"error": "error: request: question: Field required", "exit_code": 2}
    r = client.post("/api/ask", json={"scenario": 5, "question": "who has priority now"})
    assert r.status_code == 422 and "scenario: must be a mapping" in r.json()["error"]
    r = client.post("/api/ask", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["exit_code"] == 2


def test_a_text_is_never_taken_for_a_file_name(client: TestClient) -> None:
    for text in ("/etc/passwd", str(ROOT / "examples" / "veiler-end-of-main-phase-1.yaml")):
        r = client.post("/api/ask", json={"scenario": text, "question": "who has priority now"})
        assert r.status_code == 400
        assert "a scenario must be a mapping" in r.json()["error"]


def test_a_limit_is_503_with_its_message(client: TestClient) -> None:
    r = client.post("/api/ask", json={"scenario": MST, "time_limit": 0.001,
                                      "question": "how many legal chains are there after A activates "
                                                  "Mystical Space Typhoon targeting Mirror Force"})
    assert r.status_code == 503
    assert r.json()["exit_code"] == 3 and r.json()["error"].startswith("the time limit (0.001 s) was reached")


def test_not_modelled_is_answered_with_the_refusal(client: TestClient) -> None:
    mtg = {"game": "mtg", "players": ["Alice", "Bob", "Carol", "Dan"], "active_player": "Alice", "phase": "main1",
           "teams": [["Alice", "Carol"], ["Bob", "Dan"]],
           "cards": [{"card": "Grizzly Bears", "controller": "Carol", "zone": "hand"}]}
    r = client.post("/api/ask", json={"scenario": mtg, "question": "can Carol cast Grizzly Bears now"})
    assert r.status_code == 200
    body = r.json()
    assert body["exit_code"] == 4 and body["verdict"] is None and "team play" in body["not_modelled"]


def test_list_every_legal_chain_comes_with_the_chain_tree(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    q = "list every legal chain after A activates Mystical Space Typhoon targeting Mirror Force"
    r = client.post("/api/ask", json={"scenario": MST, "question": q})
    assert r.status_code == 200
    body = r.json()
    assert body["answer"] == [["Mystical Space Typhoon"]]
    pic = body["picture"]
    assert "digraph chains" in pic["dot"] and pic["tree"]["children"][0]["label"].startswith("1. A: Mystical")
    import shutil

    if shutil.which("dot"):
        assert pic["format"] == "svg" and pic["svg"].lstrip().startswith("<?xml")
    import queries.serve.pictures as P

    monkeypatch.setattr(P.shutil, "which", lambda _name: None)  # no Graphviz: a plain list
    body = client.post("/api/ask", json={"scenario": MST, "question": q}).json()
    assert body["picture"]["format"] == "list" and body["picture"]["svg"] is None


def test_the_chains_endpoint(client: TestClient) -> None:
    r = client.post("/api/chains", json={"scenario": MST,
                                         "after": "A activates Mystical Space Typhoon targeting Mirror Force"})
    assert r.status_code == 200
    body = r.json()
    assert body["summary"]["chains"] == 1 and body["summary"]["complete"]
    assert body["chains"][0]["links"][0] == {"link": 1, "player": "A", "card": "Mystical Space Typhoon",
                                             "target": "Mirror Force"}
    assert body["chains"][0]["outcome"] == ["Mirror Force destroyed"]
    r = client.post("/api/chains", json={"scenario": MST, "after": "A activates Dark Hole"})
    assert r.status_code == 400 and r.json()["exit_code"] == 2


def test_the_scenario_as_yaml_to_download(client: TestClient) -> None:
    r = client.post("/api/scenario.yaml", json={"scenario": {**VEILER, "history": ["A passes"]}})
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    assert yaml.safe_load(r.text) == {**VEILER, "history": ["A passes"]}
    r = client.post("/api/scenario.yaml", json={"scenario": {**VEILER, "phase": "nowhere"}})
    assert r.status_code == 400 and "unknown point 'nowhere'" in r.json()["error"]


# ---------------------------------------------------------------- docs/api.md runs


def _doc_examples() -> list[tuple[str, str, dict[str, Any], int, dict[str, Any]]]:
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    out = []
    pat = re.compile(r"<!-- example: (POST|GET) (\S+) -> (\d+) -->\s*```json\n(.*?)```\s*"
                     r"(?:Answer \(the fields shown\):\s*```json\n(.*?)```)?", re.S)
    for m in pat.finditer(text):
        out.append((m.group(1), m.group(2), json.loads(m.group(4)), int(m.group(3)),
                    json.loads(m.group(5)) if m.group(5) else {}))
    return out


def test_docs_api_examples_run(client: TestClient) -> None:
    examples = _doc_examples()
    assert len(examples) >= 3
    for method, path, body, status, expect in examples:
        r = client.post(path, json=body) if method == "POST" else client.get(path, params=body)
        assert r.status_code == status, (path, r.text)
        got = r.json()
        for k, v in expect.items():
            assert got[k] == v, (path, k)


def test_serve_binds_to_this_computer_by_default_and_checks_its_options(tmp_path: Path) -> None:
    help_text = _cli(["serve", "--help"], tmp_path).stdout
    assert "127.0.0.1" in help_text
    bad = _cli(["serve", "--port", "0"], tmp_path)
    assert bad.returncode == 2 and "--port must be between 1 and 65535" in bad.stderr


def test_a_yaml_file_opened_in_the_page_becomes_data(client: TestClient) -> None:
    text = (ROOT / "examples" / "veiler-end-of-main-phase-1.yaml").read_text(encoding="utf-8")
    r = client.post("/api/scenario.json", json={"scenario": text})
    assert r.status_code == 200 and r.json()["scenario"]["cards"][1]["card"] == "Effect Veiler"
    r = client.post("/api/scenario.json", json={"scenario": "just words"})
    assert r.status_code == 400 and "a scenario must be a mapping" in r.json()["error"]


def test_a_request_too_large_is_refused_before_it_is_read(client: TestClient) -> None:
    from queries.serve.app import MAX_BODY

    big = json.dumps({"scenario": "x" * (MAX_BODY + 10), "question": "who has priority now"})
    r = client.post("/api/ask", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "too large" in r.json()["error"]


def test_chainjudge_serve_starts_and_answers(tmp_path: Path) -> None:
    import socket
    import time
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(CLI + ["serve", "--port", str(port)], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/meta", timeout=5) as r:
                    meta = json.loads(r.read())
                break
            except OSError as exc:
                if time.monotonic() > deadline or proc.poll() is not None:
                    err = proc.stderr.read() if proc.stderr else ""
                    raise AssertionError(f"the server did not start: {err}") from exc
                time.sleep(0.3)
        assert "ygo" in meta["games"]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
            assert b"chainjudge" in r.read()
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    out = proc.stdout.read() if proc.stdout else ""
    assert f"http://127.0.0.1:{port}/" in out


def test_limits_of_a_request_are_checked(client: TestClient) -> None:
    for bad in ("NaN", "-1", "Infinity"):
        body = '{"scenario": {}, "question": "who has priority now", "time_limit": ' + bad + "}"
        r = client.post("/api/ask", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 422 and r.json()["error"].startswith("error: request: time_limit:"), bad
    r = client.post("/api/chains", json={"scenario": MST, "limit": 0})
    assert r.status_code == 422 and r.json()["error"].startswith("error: request: limit:")
