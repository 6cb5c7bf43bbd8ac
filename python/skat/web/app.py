"""The web app behind ``skat serve``: the HTTP routes of the JSON API and the static page that
plays through it. The sessions themselves live in :mod:`skat.web.tables`, the JSON of a table
in :mod:`skat.web.state`; this module parses requests, calls them and turns every refusal
(:class:`~skat.web.tables.ApiError`) into its status with ``{"error": message}``.

Each browser session (``POST /api/sessions``) owns one :class:`~skat.ui.session.Session`,
kept in memory under a random id. The person's actions are checked and applied at once; the
AI players then move on a worker thread (each move with a time limit, ``pace`` seconds apart
so that people can follow), and the page polls the state, optionally waiting for a change
(``?after=VERSION&wait=SECONDS``). Hints and analyses also run on worker threads with a time
limit. Nothing a client sends can change another session or crash the server: unknown
sessions get 404, malformed JSON 400 (also a lone surrogate such as ``"\\ud800"`` or nesting
too deep to read), a body over its limit 413 (refused before it is read whole) and one that
does not arrive in time 408, illegal actions 422 and actions out of turn 409, each with
``{"error": message}`` and the state unchanged; a database that cannot be reached gets 503.
Idle sessions are dropped after ``idle_seconds``, so a client that disappears costs nothing
for long.

Endpoints (all JSON unless noted):

- ``POST /api/sessions`` ``{"seat": 0, "games": 3, "seed": 7, "opponents": ["rules"],
  "rated": false, "variants": "kontra bock"}`` (all optional): a new session; 201 with its
  state.
- ``GET /api/sessions/{id}[?after=V&wait=S]``: the state (see :mod:`skat.web.state`).
- ``POST /api/sessions/{id}/action`` ``{"action": "18"}``: the person's move (ISS token, a
  card such as ``"HT"`` or two cards ``"CJ ST"`` to put away); the new state.
- ``POST /api/sessions/{id}/next``: the next game of the list.
- ``POST /api/sessions/{id}/undo``: take back the person's last card (practice lists; a list
  created with ``"rated": true`` answers 409).
- ``POST /api/sessions/{id}/claim`` (the person is declarer) and ``/concede``: end the card
  play with the rest to the declarer, accepted only when that is certain with every card known
  (else 422); a declarer's concession is a resignation and always accepted.
- ``GET /api/sessions/{id}/hint``: the AI's choice in the person's place, in card play with
  every legal card's win chance and expected card points.
- ``GET /api/sessions/{id}/analysis[?game=N&wait=S]``: the open-handed analysis of finished
  game N (default: the last); 202 ``{"status": "pending"}`` while it is computed.
- ``GET /api/sessions/{id}/games/{N}.iss``, ``GET /api/sessions/{id}/records.iss``: finished
  games as ISS records (text).
- ``GET /api/sessions/{id}/stats`` and ``stats.png``: the list's statistics (per player the
  total, games declared, won and lost, win rate, game types; the running totals) and their
  plot.
- ``DELETE /api/sessions/{id}``: end the session.

Tables of several people (``GET /room/{rid}``, :mod:`skat.web.rooms`); ``token`` is the
secret a person gets on creating or joining, which she sends with every request:

- ``POST /api/rooms`` ``{"name": "Ann", "games": 3, "seed": 7, "opponents": ["rules"],
  "variants": "kontra bock"}``: a
  room with its host in chair 0; 201 ``{"token", "state"}``.
- ``POST /api/rooms/{rid}/join`` ``{"name": "Bob"}``: the next free chair; ``{"token",
  "state"}`` (409 when full or started).
- ``POST /api/rooms/{rid}/start`` ``{"token"}``: the host starts; the AI takes the empty
  chairs (403 for anyone else).
- ``GET /api/rooms/{rid}?token=T[&after=V&wait=S]``: the state for that chair (no token: a
  spectator's); ``POST /api/rooms/{rid}/action`` ``{"token", "action"}``; ``POST
  /api/rooms/{rid}/next`` ``{"token"}``.
- ``WS /ws/rooms/{rid}?token=T``: the same state, pushed after every change (messages from
  the client are ignored). An unknown room is closed with 4404 and a bad ``lang`` with 4400
  (after the handshake, so that the page sees the code); a room dropped while idle closes
  its sockets with 1001.

The record viewer (``GET /viewer``, :mod:`skat.web.viewer`):

- ``POST /api/records?name=FILE`` with an ISS record file as the body: 201 with the file's
  ``id``, its games (one summary each) and the lines that could not be read.
- ``GET /api/records/{id}``: that listing again.
- ``GET /api/records/{id}/games/{N}``: game N in full (dealt hands, skat, auction, every
  card with its trick, result).
- ``GET /api/records/{id}/games/{N}/analysis[?wait=S]``: the open-handed value of every legal
  card at every card played; 202 ``{"status": "pending"}`` while it is computed.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from skat.defaults import LANG
from skat.ui import words
from skat.ui.common import UiError
from skat.ui.stats import list_stats, plot_stats
from skat.web.rooms import Rooms
from skat.web.store import StoreError
from skat.web.tables import ApiError, Tables, WebSession
from skat.web.viewer import RecordLibrary, analysis_json

__all__ = ["ApiError", "RecordLibrary", "Tables", "WebSession", "create_app"]

STATIC = Path(__file__).with_name("static")
MAX_BODY = 16 * 1024
BODY_SECONDS = 30.0
"""How long a request body may take to arrive (a client whose Content-Length promises more
than it sends gets 408 then, instead of holding the request open)."""
MAX_DIGITS = 18
"""The most digits of a whole number in a query or path (``int()`` of a longer one is slow or
refused)."""


async def _body(request: Request, limit: int, too_large: str) -> bytes:
    """The request body, at most ``limit`` bytes: refused with 413 from its Content-Length or
    as soon as more arrives (never read whole into memory first), with 408 when it does not
    arrive within :data:`BODY_SECONDS`."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        raise ApiError(413, too_large)
    chunks: list[bytes] = []
    size = 0

    async def read() -> None:
        nonlocal size
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise ApiError(413, too_large)
            chunks.append(chunk)

    try:
        await asyncio.wait_for(read(), BODY_SECONDS)
    except TimeoutError:
        raise ApiError(408, "the request body did not arrive in time") from None
    except ClientDisconnect:
        raise ApiError(400, "the client went away before its request body arrived") from None
    return b"".join(chunks)


async def _json_body(request: Request) -> dict[str, Any]:
    raw = await _body(request, MAX_BODY, "request body too large")
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
        # a lone surrogate (\ud800) is no text: refused here, not when the answer is encoded
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except (json.JSONDecodeError, UnicodeError) as e:
        raise ApiError(400, f"malformed JSON: {e}") from None
    except RecursionError:
        raise ApiError(400, "malformed JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the request body must be a JSON object")
    return data


def _float_param(request: Request, key: str, default: float, hi: float) -> float:
    text = request.query_params.get(key)
    if text is None:
        return default
    try:
        value = float(text)
    except ValueError:
        raise ApiError(400, f"{key}: a number") from None
    if not 0 <= value <= hi:
        raise ApiError(400, f"{key}: from 0 to {hi}")
    return value


def _int_param(request: Request, key: str) -> int | None:
    text = request.query_params.get(key)
    if text is None:
        return None
    number = _whole(text)
    if number is None:
        raise ApiError(400, f"{key}: a whole number of at most {MAX_DIGITS} digits")
    return number


def _game_number(request: Request) -> int:
    """The game number ``n`` of the path (404 unless a whole number)."""
    text = request.path_params["n"]
    number = _whole(text)
    if number is None:
        raise ApiError(404, f"no game {text[:40]!r}")
    return number


def _whole(text: str) -> int | None:
    """``text`` as a whole number of ASCII digits (at most :data:`MAX_DIGITS`), else None."""
    if text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS:
        return int(text)
    return None


Handler = Callable[[Request], Awaitable[Response]]


def _lang(request: Request | WebSocket) -> str:
    """The reader's language (``?lang=en|de``, default English); handlers read it first, so
    that a bad one refuses the request before anything changes."""
    try:
        return words.check_lang(request.query_params.get("lang", LANG))
    except UiError as e:
        raise ApiError(400, str(e)) from None


async def _wait_for_change(request: Request, version: Callable[[], int]) -> bool:
    """The long poll: with ``?after=V&wait=S``, waits up to S seconds until ``version()``
    passes V; False when the client went away meanwhile."""
    after = _int_param(request, "after")
    wait = _float_param(request, "wait", 0.0, 30.0)
    if after is None:
        return True
    deadline = time.monotonic() + wait
    while version() <= after and time.monotonic() < deadline:
        if await request.is_disconnected():
            return False
        await asyncio.sleep(0.05)
    return True


def _token(body: dict[str, Any]) -> str | None:
    token = body.get("token")
    if token is not None and not isinstance(token, str):
        raise ApiError(422, "token: a string")
    return token


def create_app(
    tables: Tables | None = None,
    library: RecordLibrary | None = None,
    rooms: Rooms | None = None,
) -> Starlette:
    """The Starlette app for ``tables``, the record viewer's ``library`` and the tables of
    several people, ``rooms`` (fresh ones with defaults if None)."""
    t = tables if tables is not None else Tables()
    lib = library if library is not None else RecordLibrary()
    rm = rooms if rooms is not None else Rooms(t.opponents, t.pace, t.ai_seconds, store=t.store)

    async def create_room(request: Request) -> Response:
        lang = _lang(request)
        body = await _json_body(request)
        room, token = rm.create(body)
        return JSONResponse({"token": token, "state": room.state(token, lang)}, status_code=201)

    async def join_room(request: Request) -> Response:
        lang = _lang(request)
        room = rm.get(request.path_params["rid"])
        body = await _json_body(request)
        _, token = rm.join(room, body)
        return JSONResponse({"token": token, "state": room.state(token, lang)})

    async def start_room(request: Request) -> Response:
        lang = _lang(request)
        room = rm.get(request.path_params["rid"])
        token = _token(await _json_body(request))
        rm.start(room, token)
        return JSONResponse(room.state(token, lang))

    async def room_state(request: Request) -> Response:
        lang = _lang(request)
        room = rm.get(request.path_params["rid"])
        token = request.query_params.get("token")
        if not await _wait_for_change(request, lambda: room.version):
            return Response(status_code=204)
        return JSONResponse(room.state(token, lang))

    async def room_action(request: Request) -> Response:
        lang = _lang(request)
        room = rm.get(request.path_params["rid"])
        body = await _json_body(request)
        text = body.get("action")
        if not isinstance(text, str) or not text.strip():
            raise ApiError(422, 'expected {"token": ..., "action": "<token>"}')
        rm.act(room, _token(body), text)
        return JSONResponse(room.state(_token(body), lang))

    async def room_next(request: Request) -> Response:
        lang = _lang(request)
        room = rm.get(request.path_params["rid"])
        token = _token(await _json_body(request))
        rm.next_game(room, token)
        return JSONResponse(room.state(token, lang))

    async def room_socket(ws: WebSocket) -> None:
        # refusals are accepted, then closed: a refused handshake reaches a browser as 1006,
        # and the page must see 4404 to stop reconnecting
        try:
            room = rm.get(ws.path_params["rid"])
            lang = _lang(ws)
        except ApiError as e:
            await ws.accept()
            await ws.close(code=4400 if e.status == 400 else 4404)
            return
        token = ws.query_params.get("token")
        await ws.accept()
        sent = -1
        incoming = asyncio.ensure_future(ws.receive())
        try:
            while True:
                if not rm.holds(room):  # dropped while idle: the client reconnects to find
                    await ws.close(code=1001)  # it reopened from the store, or gone (4404)
                    return
                if room.version != sent:
                    sent = room.version
                    await ws.send_json(room.state(token, lang))
                done, _ = await asyncio.wait({incoming}, timeout=0.05)
                if done:
                    if incoming.result().get("type") == "websocket.disconnect":
                        return
                    incoming = asyncio.ensure_future(ws.receive())  # a ping: ignored
        except (WebSocketDisconnect, RuntimeError):
            return
        finally:
            incoming.cancel()

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def room_page(request: Request) -> Response:
        rm.get(request.path_params["rid"])
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def viewer(request: Request) -> Response:
        return FileResponse(STATIC / "viewer.html", headers={"Cache-Control": "no-cache"})

    async def upload_records(request: Request) -> Response:
        too_large = f"a record file of at most {lib.max_bytes // (1024 * 1024)} MB"
        raw = await _body(request, lib.max_bytes, too_large)
        name = request.query_params.get("name", "records.iss")[:200]
        text = raw.decode("utf-8", errors="replace")
        return JSONResponse(lib.upload(text, name), status_code=201)

    async def record_listing(request: Request) -> Response:
        return JSONResponse(lib.listing(request.path_params["fid"]))

    async def record_game(request: Request) -> Response:
        return JSONResponse(lib.game(request.path_params["fid"], _game_number(request)))

    async def record_analysis(request: Request) -> Response:
        lang = _lang(request)
        wait = _float_param(request, "wait", 20.0, 120.0)
        report = await lib.analysis(request.path_params["fid"], _game_number(request), wait, lang)
        if report is None:
            return JSONResponse({"status": "pending"}, status_code=202)
        return JSONResponse(report)

    async def create(request: Request) -> Response:
        lang = _lang(request)
        body = await _json_body(request)
        ws = t.create(body)
        return JSONResponse(ws.state(lang), status_code=201)

    async def get_state(request: Request) -> Response:
        lang = _lang(request)
        ws = t.get(request.path_params["sid"])
        if not await _wait_for_change(request, lambda: ws.version):
            return Response(status_code=204)
        return JSONResponse(ws.state(lang))

    async def action(request: Request) -> Response:
        lang = _lang(request)
        ws = t.get(request.path_params["sid"])
        body = await _json_body(request)
        text = body.get("action")
        if not isinstance(text, str) or not text.strip():
            raise ApiError(422, 'expected {"action": "<token>"}, e.g. {"action": "18"}')
        t.act(ws, text)
        return JSONResponse(ws.state(lang))

    async def undo(request: Request) -> Response:
        lang = _lang(request)
        ws = t.get(request.path_params["sid"])
        t.undo(ws)
        return JSONResponse(ws.state(lang))

    def end_play(how: str) -> Handler:
        """The endpoint of ``how`` = ``claim`` or ``concede`` (:meth:`Tables.end_play`)."""

        async def end(request: Request) -> Response:
            lang = _lang(request)
            ws = t.get(request.path_params["sid"])
            await asyncio.to_thread(t.end_play, ws, how)
            return JSONResponse(ws.state(lang))

        return end

    async def next_game(request: Request) -> Response:
        lang = _lang(request)
        ws = t.get(request.path_params["sid"])
        t.next_game(ws)
        return JSONResponse(ws.state(lang))

    async def hint(request: Request) -> Response:
        lang = _lang(request)
        ws = t.get(request.path_params["sid"])
        h = await t.hint(ws)
        return JSONResponse({**h.as_dict(), "text": words.hint_text(h, lang)})

    async def analysis(request: Request) -> Response:
        lang = _lang(request)
        ws = t.get(request.path_params["sid"])
        game = _int_param(request, "game")
        if game is not None and game < 1:
            raise ApiError(400, "game: from 1")
        wait = _float_param(request, "wait", 20.0, 120.0)
        index = None if game is None else game - 1
        report = await t.analysis(ws, index, wait)
        if report is None:
            return JSONResponse({"status": "pending"}, status_code=202)
        s = ws.session
        with s.lock:
            i = len(s.finished) - 1 if index is None else index
            you = s.seat_of(s.human_chair, i)
            names = list(s.seat_names(i))
        data = {"status": "done", "game": i + 1, "you": you, "names": names}
        return JSONResponse({**data, **analysis_json(report, you, names, lang)})

    async def record(request: Request) -> Response:
        ws = t.get(request.path_params["sid"])
        n = _game_number(request)
        text = t.record(ws, n - 1)
        name = f"skat-{ws.session.seed}-game-{n}.iss"
        return PlainTextResponse(
            text, headers={"Content-Disposition": f'attachment; filename="{name}"'}
        )

    async def records(request: Request) -> Response:
        ws = t.get(request.path_params["sid"])
        text = t.record(ws, None)
        name = f"skat-{ws.session.seed}-list.iss"
        return PlainTextResponse(
            text, headers={"Content-Disposition": f'attachment; filename="{name}"'}
        )

    async def stats(request: Request) -> Response:
        ws = t.get(request.path_params["sid"])
        with ws.session.lock:
            sheet = ws.session.sheet()
        return JSONResponse(list_stats(sheet))

    async def stats_png(request: Request) -> Response:
        ws = t.get(request.path_params["sid"])
        with ws.session.lock:
            data = list_stats(ws.session.sheet())
        png = await asyncio.to_thread(plot_stats, data)
        return Response(png, media_type="image/png", headers={"Cache-Control": "no-cache"})

    async def delete(request: Request) -> Response:
        t.delete(request.path_params["sid"])
        return Response(status_code=204)

    async def api_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return JSONResponse({"error": str(exc)}, status_code=exc.status)

    async def store_error(request: Request, exc: Exception) -> Response:
        return JSONResponse({"error": f"the saved lists are unavailable: {exc}"}, status_code=503)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)

    async def internal_error(request: Request, exc: Exception) -> Response:
        return JSONResponse(
            {"error": f"internal error: {type(exc).__name__}: {exc}"}, status_code=500
        )

    routes = [
        Route("/", index),
        Route("/api/sessions", create, methods=["POST"]),
        Route("/api/sessions/{sid}", get_state, methods=["GET"]),
        Route("/api/sessions/{sid}", delete, methods=["DELETE"]),
        Route("/api/sessions/{sid}/action", action, methods=["POST"]),
        Route("/api/sessions/{sid}/next", next_game, methods=["POST"]),
        Route("/api/sessions/{sid}/undo", undo, methods=["POST"]),
        Route("/api/sessions/{sid}/claim", end_play("claim"), methods=["POST"]),
        Route("/api/sessions/{sid}/concede", end_play("concede"), methods=["POST"]),
        Route("/api/sessions/{sid}/hint", hint, methods=["GET"]),
        Route("/api/sessions/{sid}/analysis", analysis, methods=["GET"]),
        Route("/api/sessions/{sid}/games/{n}.iss", record, methods=["GET"]),
        Route("/api/sessions/{sid}/records.iss", records, methods=["GET"]),
        Route("/api/sessions/{sid}/stats", stats, methods=["GET"]),
        Route("/api/sessions/{sid}/stats.png", stats_png, methods=["GET"]),
        Route("/viewer", viewer),
        Route("/room/{rid}", room_page),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{rid}", room_state, methods=["GET"]),
        Route("/api/rooms/{rid}/join", join_room, methods=["POST"]),
        Route("/api/rooms/{rid}/start", start_room, methods=["POST"]),
        Route("/api/rooms/{rid}/action", room_action, methods=["POST"]),
        Route("/api/rooms/{rid}/next", room_next, methods=["POST"]),
        WebSocketRoute("/ws/rooms/{rid}", room_socket),
        Route("/api/records", upload_records, methods=["POST"]),
        Route("/api/records/{fid}", record_listing, methods=["GET"]),
        Route("/api/records/{fid}/games/{n}", record_game, methods=["GET"]),
        Route("/api/records/{fid}/games/{n}/analysis", record_analysis, methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={
            ApiError: api_error,
            StoreError: store_error,
            HTTPException: http_error,
            Exception: internal_error,
        },
    )
    app.state.tables = t
    app.state.library = lib
    app.state.rooms = rm
    return app
