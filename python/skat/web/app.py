"""The web app behind ``skat serve``: a JSON API and the static page that plays through it.

Each browser session (``POST /api/sessions``) owns one :class:`~skat.ui.session.Session`,
kept in memory under a random id. The person's actions are checked and applied at once; the
AI players then move on a worker thread (each move with a time limit, ``pace`` seconds apart
so that people can follow), and the page polls the state, optionally waiting for a change
(``?after=VERSION&wait=SECONDS``). Hints and analyses also run on worker threads with a time
limit. Nothing a client sends can change another session or crash the server: unknown
sessions get 404, malformed JSON 400, illegal actions 422 and actions out of turn 409, each
with ``{"error": message}`` and the state unchanged. Idle sessions are dropped after
``idle_seconds``, so a client that disappears costs nothing for long.

Endpoints (all JSON unless noted):

- ``POST /api/sessions`` ``{"seat": 0, "games": 3, "seed": 7, "opponents": ["rules"]}`` (all
  optional): a new session; 201 with its state.
- ``GET /api/sessions/{id}[?after=V&wait=S]``: the state (see :mod:`skat.web.state`).
- ``POST /api/sessions/{id}/action`` ``{"action": "18"}``: the person's move (ISS token, a
  card such as ``"HT"`` or two cards ``"CJ ST"`` to put away); the new state.
- ``POST /api/sessions/{id}/next``: the next game of the list.
- ``GET /api/sessions/{id}/hint``: the AI's choice in the person's place, in card play with
  every legal card's win chance and expected card points.
- ``GET /api/sessions/{id}/analysis[?game=N&wait=S]``: the open-handed analysis of finished
  game N (default: the last); 202 ``{"status": "pending"}`` while it is computed.
- ``GET /api/sessions/{id}/games/{N}.iss``, ``GET /api/sessions/{id}/records.iss``: finished
  games as ISS records (text).
- ``DELETE /api/sessions/{id}``: end the session.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from skat._core import Phase, SkatError
from skat.players import PlayerSpecError, available_players, make_player
from skat.ui.analysis import GameAnalysis
from skat.ui.common import DEFAULT_OPPONENT, InputError, UiError
from skat.ui.session import HINT_WORLDS, Hint, Session
from skat.web.state import session_state

__all__ = ["ApiError", "Tables", "WebSession", "create_app"]

STATIC = Path(__file__).with_name("static")
T = TypeVar("T")

# Limits on what a client may ask for in a player spec (the server's own --opponents is free).
SPEC_LIMITS = {"worlds": 400, "tt_mb": 64, "seconds": 10.0, "threads": 8}
MAX_BODY = 16 * 1024


class ApiError(UiError):
    """A request the API refuses, with its HTTP status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class WebSession:
    """One browser session: its table, a version that counts changes, and its workers."""

    id: str
    session: Session
    version: int = 0
    busy: bool = False
    last_seen: float = field(default_factory=time.monotonic)
    analyses: dict[int, Future[GameAnalysis]] = field(default_factory=dict)
    hint: tuple[int, Future[Hint]] | None = None
    error: str | None = None

    def touch(self) -> None:
        self.last_seen = time.monotonic()

    def state(self) -> dict[str, Any]:
        with self.session.lock:
            return session_state(self.session, self.id, self.version, self.busy)


def check_spec(spec: str) -> str:
    """A client's player spec, if it names a registered player within :data:`SPEC_LIMITS`."""
    head, _, options = spec.strip().partition(":")
    if head not in available_players():
        raise ApiError(
            422, f"unknown opponent {head!r}; available: {', '.join(available_players())}"
        )
    for part in filter(None, options.split(",")):
        key, _, value = part.partition("=")
        limit = SPEC_LIMITS.get(key.strip())
        try:
            number = float(value)
        except ValueError:
            continue
        if (limit is not None and number > limit) or number > 1e6:
            raise ApiError(422, f"opponent option {key.strip()}={value} is too large")
    try:
        make_player(spec)
    except PlayerSpecError as e:
        raise ApiError(422, str(e)) from None
    return spec.strip()


class Tables:
    """All sessions of a server, the worker threads and the limits.

    ``opponents``: the default AI specs; ``pace``: seconds before each AI card (half before
    each AI bid); ``ai_seconds``: the time limit of one AI move; ``hint_seconds`` and
    ``analysis_seconds``: how long a request waits for a hint or analysis; ``max_sessions``
    and ``idle_seconds``: how many sessions are kept and for how long without a request.
    """

    def __init__(
        self,
        opponents: Sequence[str] = (DEFAULT_OPPONENT,),
        pace: float = 0.5,
        ai_seconds: float = 30.0,
        hint_seconds: float = 60.0,
        analysis_seconds: float = 120.0,
        max_sessions: int = 100,
        idle_seconds: float = 3 * 3600.0,
        workers: int | None = None,
        hint_worlds: int | None = None,
    ) -> None:
        self.opponents = list(opponents)
        self.pace = pace
        self.ai_seconds = ai_seconds
        self.hint_seconds = hint_seconds
        self.analysis_seconds = analysis_seconds
        self.max_sessions = max_sessions
        self.idle_seconds = idle_seconds
        self.hint_worlds = hint_worlds
        self.sessions: dict[str, WebSession] = {}
        self.lock = threading.Lock()
        n = workers if workers is not None else max(8, 4 * (os.cpu_count() or 1))
        self.pool = ThreadPoolExecutor(max_workers=n, thread_name_prefix="skat-web")

    def close(self) -> None:
        """Stops taking work; running AI moves finish in the background."""
        self.pool.shutdown(wait=False, cancel_futures=True)

    # ----- sessions ------------------------------------------------------------------------

    def create(self, body: dict[str, Any]) -> WebSession:
        """A new session from a request body (validated)."""
        seat = _int_field(body, "seat", 0, 0, 2)
        games = _int_field(body, "games", 3, 1, 100)
        seed = _int_field(body, "seed", None, 0, 2**63 - 1)
        if seed is None:
            seed = secrets.randbelow(2**32)
        raw = body.get("opponents")
        if raw is None:
            specs = self.opponents
        else:
            if isinstance(raw, str):
                raw = [raw]
            if (
                not isinstance(raw, list)
                or not 1 <= len(raw) <= 2
                or not all(isinstance(x, str) for x in raw)
            ):
                raise ApiError(422, "opponents: one or two player specs (strings)")
            specs = [check_spec(x) for x in raw]
        self._expire()
        with self.lock:
            if len(self.sessions) >= self.max_sessions:
                raise ApiError(503, "the server has as many sessions as it keeps; try later")
        try:
            session = Session(
                seat=seat,
                opponents=specs,
                seed=seed,
                games=games,
                ai_seconds=self.ai_seconds,
                hint_worlds=self.hint_worlds if self.hint_worlds is not None else HINT_WORLDS,
            )
        except SkatError as e:
            raise ApiError(422, str(e)) from None
        ws = WebSession(secrets.token_urlsafe(16), session)
        with self.lock:
            self.sessions[ws.id] = ws
        self._schedule_ai(ws)
        return ws

    def get(self, session_id: str) -> WebSession:
        with self.lock:
            ws = self.sessions.get(session_id)
        if ws is None:
            raise ApiError(404, f"no session {session_id!r} (it may have expired)")
        ws.touch()
        return ws

    def delete(self, session_id: str) -> None:
        with self.lock:
            if self.sessions.pop(session_id, None) is None:
                raise ApiError(404, f"no session {session_id!r}")

    def _expire(self) -> None:
        now = time.monotonic()
        with self.lock:
            for sid, ws in list(self.sessions.items()):
                if now - ws.last_seen > self.idle_seconds and not ws.busy:
                    del self.sessions[sid]

    # ----- moves ---------------------------------------------------------------------------

    def act(self, ws: WebSession, text: str) -> None:
        s = ws.session
        with s.lock:
            if ws.busy or (not s.waiting_for_human and not s.game.is_over):
                raise ApiError(409, "it is not your turn: the AI players are moving")
            if s.game.is_over:
                raise ApiError(409, "the game is over; start the next game")
            try:
                s.act(text)
            except InputError as e:
                raise ApiError(422, str(e)) from None
            ws.version += 1
        self._schedule_ai(ws)

    def next_game(self, ws: WebSession) -> None:
        s = ws.session
        with s.lock:
            try:
                s.next_game()
            except UiError as e:
                raise ApiError(409, str(e)) from None
            ws.version += 1
        self._schedule_ai(ws)

    def _schedule_ai(self, ws: WebSession) -> None:
        with ws.session.lock:
            if ws.busy or not ws.session.ai_to_move:
                return
            ws.busy = True
            ws.version += 1
        try:
            self.pool.submit(self._run_ai, ws)
        except RuntimeError:  # shutting down
            with ws.session.lock:
                ws.busy = False

    def _run_ai(self, ws: WebSession) -> None:
        s = ws.session
        try:
            while True:
                with s.lock:
                    if not s.ai_to_move:
                        break
                    playing = s.game.phase == Phase.PLAY
                if self.pace > 0:
                    time.sleep(self.pace if playing else self.pace / 2)
                s.ai_step()
                with s.lock:
                    ws.version += 1
        except Exception as e:  # noted for the page; the session stays usable
            with s.lock:
                ws.error = f"{type(e).__name__}: {e}"
                s.notes.append(f"AI move failed: {ws.error}")
        finally:
            with s.lock:
                ws.busy = False
                ws.version += 1

    # ----- help ----------------------------------------------------------------------------

    async def hint(self, ws: WebSession) -> Hint:
        s = ws.session
        with s.lock:
            if ws.busy or not s.waiting_for_human:
                raise ApiError(409, "a hint is given when it is your turn")
            key = ws.version
            pending = ws.hint
            if pending is None or pending[0] != key:
                pending = (key, self.pool.submit(s.hint))
                ws.hint = pending
        try:
            return await _wait(pending[1], self.hint_seconds)
        except TimeoutError:
            raise ApiError(503, "the hint is taking too long; try again") from None
        except UiError as e:
            raise ApiError(409, str(e)) from None

    async def analysis(self, ws: WebSession, index: int | None, wait: float) -> GameAnalysis | None:
        s = ws.session
        with s.lock:
            done = len(s.finished)
            i = done - 1 if index is None else index
            if not 0 <= i < done:
                raise ApiError(
                    404 if done else 409,
                    f"game {i + 1} is not finished" if done else "no game is finished yet",
                )
            future = ws.analyses.get(i)
            if future is None:
                future = self.pool.submit(s.analysis, i)
                ws.analyses[i] = future
        try:
            return await _wait(future, min(wait, self.analysis_seconds))
        except TimeoutError:
            return None
        except UiError as e:
            raise ApiError(409, str(e)) from None

    def record(self, ws: WebSession, index: int | None) -> str:
        s = ws.session
        with s.lock:
            done = len(s.finished)
            if index is None:
                return s.records()
            if not 0 <= index < done:
                raise ApiError(404, f"game {index + 1} is not finished")
            return s.record(index) + "\n"


async def _wait(future: Future[T], seconds: float) -> T:
    return await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)), seconds)


def _int_field(body: dict[str, Any], key: str, default: int | None, lo: int, hi: int) -> Any:
    value = body.get(key, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ApiError(422, f"{key}: an integer from {lo} to {hi}")
    return value


async def _json_body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise ApiError(413, "request body too large")
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ApiError(400, f"malformed JSON: {e}") from None
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
    if not text.isdigit():
        raise ApiError(400, f"{key}: a whole number")
    return int(text)


Handler = Callable[[Request], Awaitable[Response]]


def create_app(tables: Tables | None = None) -> Starlette:
    """The Starlette app for ``tables`` (a fresh :class:`Tables` with defaults if None)."""
    t = tables if tables is not None else Tables()

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def create(request: Request) -> Response:
        body = await _json_body(request)
        ws = t.create(body)
        return JSONResponse(ws.state(), status_code=201)

    async def get_state(request: Request) -> Response:
        ws = t.get(request.path_params["sid"])
        after = _int_param(request, "after")
        wait = _float_param(request, "wait", 0.0, 30.0)
        if after is not None:
            deadline = time.monotonic() + wait
            while ws.version <= after and time.monotonic() < deadline:
                if await request.is_disconnected():
                    return Response(status_code=204)
                await asyncio.sleep(0.05)
        return JSONResponse(ws.state())

    async def action(request: Request) -> Response:
        ws = t.get(request.path_params["sid"])
        body = await _json_body(request)
        text = body.get("action")
        if not isinstance(text, str) or not text.strip():
            raise ApiError(422, 'expected {"action": "<token>"}, e.g. {"action": "18"}')
        t.act(ws, text)
        return JSONResponse(ws.state())

    async def next_game(request: Request) -> Response:
        ws = t.get(request.path_params["sid"])
        t.next_game(ws)
        return JSONResponse(ws.state())

    async def hint(request: Request) -> Response:
        ws = t.get(request.path_params["sid"])
        h = await t.hint(ws)
        return JSONResponse(h.as_dict())

    async def analysis(request: Request) -> Response:
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
        return JSONResponse({**data, **report.as_dict(you, names)})

    async def record(request: Request) -> Response:
        ws = t.get(request.path_params["sid"])
        n = request.path_params["n"]
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

    async def delete(request: Request) -> Response:
        t.delete(request.path_params["sid"])
        return Response(status_code=204)

    async def api_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return JSONResponse({"error": str(exc)}, status_code=exc.status)

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
        Route("/api/sessions/{sid}/hint", hint, methods=["GET"]),
        Route("/api/sessions/{sid}/analysis", analysis, methods=["GET"]),
        Route("/api/sessions/{sid}/games/{n:int}.iss", record, methods=["GET"]),
        Route("/api/sessions/{sid}/records.iss", records, methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={
            ApiError: api_error,
            HTTPException: http_error,
            Exception: internal_error,
        },
    )
    app.state.tables = t
    return app
