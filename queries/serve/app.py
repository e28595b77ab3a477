"""``chainjudge serve``: the web page for judges and its JSON API (docs/api.md).

The page (static/index.html) is one self-contained file: no CDN, no build
step.  The API answers with the JSON answer of ``chainjudge ask --json``
(docs/questions.md); bad input is HTTP 400 (422 for a request of the
wrong shape) with the one-line message the command line gives for exit 2; a
limit is 503 with its message (exit 3); a question that needs what is not
modelled is answered (200) with ``not_modelled`` (exit 4).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, Field

from logic.errors import NotModelled, shorten
from logic.games import turn
from logic.scenario import MAX_FILE_BYTES, MTG_POSITIONS, MTG_ZONES
from logic.vocabulary import YGO_ZONES
from queries.serve import forms as question_forms
from queries.serve.backend import Backend, Failure, as_failure, refusal
from queries.serve.cardindex import CardIndex
from queries.serve.pictures import chain_picture, chains_from_groups
from solver.limits import DEFAULT_TIME

MAX_QUESTION = 2_000

# titles of the spans a question may name that cover several points
SPAN_TITLES = {"ygo": {"battle": "the Battle Phase", "battle.battle": "the Battle Step",
                       "battle.damage": "the Damage Step", "main": "a Main Phase"},
               "mtg": {"beginning": "the beginning phase", "combat": "the combat phase",
                       "main": "a main phase", "ending": "the ending phase"}}
POSITIONS = {"ygo": {"monster": ["face_up_attack", "face_up_defense", "face_down_defense"],
                     "spell_trap": ["face_up", "face_down"], "field": ["face_up", "face_down"]},
             "mtg": {"battlefield": list(MTG_POSITIONS)}}
PLAYERS = {"ygo": ["A", "B"], "mtg": ["Alice", "Bob"]}


class AskRequest(BaseModel):
    scenario: dict[str, Any] | str = Field(description="the scenario: a mapping, or its YAML text")
    question: str = Field(max_length=MAX_QUESTION)
    time_limit: float | None = Field(default=None, ge=0, allow_inf_nan=False,
                                     description="seconds (at most the server's limit); 0: the server's limit")


class ChainsRequest(BaseModel):
    scenario: dict[str, Any] | str
    after: str | None = Field(default=None, max_length=MAX_QUESTION)
    max_links: int | None = Field(default=None, ge=1)
    limit: int | None = Field(default=200, ge=1, description="stop after this many chains")
    time_limit: float | None = Field(default=None, ge=0, allow_inf_nan=False)


class ScenarioRequest(BaseModel):
    scenario: dict[str, Any] | str


MAX_BODY = 2 * MAX_FILE_BYTES  # bytes of one request: a scenario at its largest, as JSON


class BodyLimit:
    """Refuse a request body larger than MAX_BODY (413) before it is read whole."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > MAX_BODY:
            await self._refuse(send)
            return
        seen = 0

        async def counted() -> Any:
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > MAX_BODY:
                    raise _TooLarge
            return msg

        try:
            await self.app(scope, counted, send)
        except _TooLarge:
            await self._refuse(send)

    @staticmethod
    async def _refuse(send: Any) -> None:
        body = JSONResponse({"error": f"error: request: the request is too large (at most {MAX_BODY} bytes)",
                             "exit_code": 2}, status_code=413)
        await send({"type": "http.response.start", "status": 413, "headers": body.raw_headers})
        await send({"type": "http.response.body", "body": body.body})


class _TooLarge(Exception):
    pass


def _meta_game(game: str) -> dict[str, Any]:
    t = turn(game)
    points, seen = [], set()
    for p in t.points:
        if p.name not in seen:
            seen.add(p.name)
            points.append({"name": p.name, "title": t.title(p.key)})
    spans = []
    for name, keys in t.spans.items():
        title = SPAN_TITLES[game].get(name) or (t.title(keys[0]) if len(keys) == 1 else name)
        spans.append({"name": name, "title": title})
    return {"points": points, "spans": spans, "zones": list(YGO_ZONES if game == "ygo" else MTG_ZONES),
            "positions": POSITIONS[game], "players": PLAYERS[game]}


def create_app(cards: Path | None = None, mtg_cards: Path | None = None, time_limit: float | None = DEFAULT_TIME) -> FastAPI:
    backend = Backend(cards, mtg_cards, time_limit)
    index = CardIndex(backend.cards, backend.mtg_cards)
    app = FastAPI(title="chainjudge", description="Timing rulings for Yu-Gi-Oh! and Magic: The Gathering",
                  docs_url=None, redoc_url=None)
    app.add_middleware(BodyLimit)
    page = resources.files("queries.serve").joinpath("static/index.html").read_text(encoding="utf-8")

    @app.exception_handler(Failure)
    async def _failure(_request: Request, exc: Failure) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _shape(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errs = exc.errors()
        first = errs[0] if errs else {"loc": (), "msg": "not a valid request"}
        loc = ".".join(str(x) for x in first.get("loc", ()) if x != "body") or "request"
        msg = f"error: request: {loc}: {first.get('msg', 'not valid')}"
        if loc == "scenario" or loc.startswith("scenario."):
            msg = "error: request: scenario: must be a mapping (the scenario's fields) or its YAML text"
        return JSONResponse({"error": msg[:300], "exit_code": 2}, status_code=422)

    @app.exception_handler(Exception)
    async def _internal(_request: Request, exc: Exception) -> JSONResponse:
        f = as_failure(exc)
        if f is not None:
            return JSONResponse(f.body(), status_code=f.status)
        return JSONResponse({"error": f"internal error ({type(exc).__name__}: {exc}); please report it with the input",
                             "exit_code": 70}, status_code=500)

    def _guard(exc: Exception) -> Failure | None:
        return as_failure(exc)

    @app.get("/", response_class=HTMLResponse)
    def home() -> HTMLResponse:
        return HTMLResponse(page, headers={"Content-Security-Policy":
                                           "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                                           "script-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'"})

    @app.get("/api/meta")
    def meta() -> dict[str, Any]:
        import shutil

        return {"games": {g: _meta_game(g) for g in ("ygo", "mtg")},
                "cards": {g: index.count(g) for g in ("ygo", "mtg")},
                "card_lists": {g: index.lists[g] is not None for g in ("ygo", "mtg")},
                "graphviz": shutil.which("dot") is not None,
                "time_limit": backend.time_limit}

    @app.get("/api/forms")
    def forms() -> dict[str, Any]:
        return question_forms.forms()

    @app.get("/api/cards")
    def card_search(q: str = Query("", max_length=200), game: str = "ygo", limit: int = Query(20, ge=1, le=100),
              text: bool = False) -> dict[str, Any]:
        if game not in ("ygo", "mtg"):
            raise Failure(400, 2, f"error: game must be 'ygo' or 'mtg', not {shorten(game)}")
        found = index.search(q, game, limit=limit, in_text=text)
        return {"query": q, "game": game, "cards": [e.as_json() for e in found]}

    @app.post("/api/ask")
    def ask(req: AskRequest) -> Any:
        try:
            ans = backend.ask(req.scenario, req.question, req.time_limit)
        except NotModelled as exc:
            return refusal(req.question, exc)
        except Exception as exc:
            f = _guard(exc)
            if f is None:
                raise
            raise f from None
        out = ans.as_json()
        if ans.kind == "list" and ans.detail.get("groups") is not None:
            out["picture"] = chain_picture(chains_from_groups(ans.detail["groups"]))
        return out

    @app.post("/api/chains")
    def chains(req: ChainsRequest) -> Any:
        try:
            res = backend.chains(req.scenario, req.after, req.max_links, req.limit, req.time_limit)
        except NotModelled as exc:
            return refusal(f"every legal chain{' after ' + req.after if req.after else ''}", exc)
        except Exception as exc:
            f = _guard(exc)
            if f is None:
                raise
            raise f from None
        objects = res.pop("objects")
        res["picture"] = chain_picture(objects, root=res["summary"]["position"])
        return res

    @app.post("/api/scenario.json")
    def scenario_json(req: ScenarioRequest) -> Any:
        """A scenario's YAML text (a file the judge opened in the page) as data for the page's menus."""
        from fastapi.encoders import jsonable_encoder

        from logic.errors import type_name
        from queries.serve.backend import scenario_data

        try:
            data = scenario_data(req.scenario)
        except Exception as exc:
            f = _guard(exc)
            if f is None:
                raise
            raise f from None
        if not isinstance(data, dict):
            raise Failure(400, 2, f"error: scenario: a scenario must be a mapping with the fields game, players, "
                                  f"turn_player, phase and cards (not {type_name(data)})")
        return {"scenario": jsonable_encoder(data)}

    @app.post("/api/scenario.yaml")
    def scenario_yaml(req: ScenarioRequest) -> Response:
        import yaml

        from queries.serve.backend import scenario_data

        try:
            backend.load(req.scenario)
            data = scenario_data(req.scenario)
        except NotModelled:
            data = scenario_data(req.scenario)  # a card not modelled: the file is still a scenario
        except Exception as exc:
            f = _guard(exc)
            if f is None:
                raise
            raise f from None
        if isinstance(req.scenario, str):
            text = req.scenario
        else:
            text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)
        if len(text) > MAX_FILE_BYTES:
            raise Failure(400, 2, "error: scenario: too large")
        return Response(text, media_type="application/yaml",
                        headers={"Content-Disposition": 'attachment; filename="scenario.yaml"'})

    return app


def run(host: str = "127.0.0.1", port: int = 8000, cards: Path | None = None, mtg_cards: Path | None = None,
        time_limit: float | None = DEFAULT_TIME) -> None:
    import uvicorn

    app = create_app(cards, mtg_cards, time_limit)
    print(f"chainjudge: serving the judges' page on http://{host}:{port}/  (Ctrl-C to stop)", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
