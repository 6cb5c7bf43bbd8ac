"""The game-session API behind the web table: every browser session's :class:`Session`, the
worker threads that move the AI players and compute hints and analyses, and the limits.

Invariants: a session changes only under its ``Session.lock``, and every change bumps its
``version`` (which the page's long poll waits on); at most one AI worker runs per session
(``busy``); the person acts only when it is her turn and no AI worker runs (else 409), with an
illegal action refused before anything changes (422); hints are computed once per version and
analyses once per finished game, on the shared pool, with a time limit; a client's player
spec is checked against :data:`SPEC_LIMITS` and may name no file on the server
(:data:`FILE_OPTIONS`) nor nest another spec (:data:`NESTED_OPTIONS`) before any player is
made; the server's own specs are free. Every refusal is an :class:`ApiError` carrying its HTTP
status, so the HTTP layer (:mod:`skat.web.app`) only translates. Nothing here knows about
requests.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from skat._core import Phase, SkatError
from skat.defaults import LANG
from skat.players import PlayerSpecError, available_players, make_player
from skat.ui.advice import HINT_WORLDS
from skat.ui.analysis import GameAnalysis
from skat.ui.common import DEFAULT_OPPONENT, InputError, UiError
from skat.ui.session import GameChanged, Hint, Session
from skat.variants import VariantsError, check_variants
from skat.web.state import session_state
from skat.web.store import ListStore, StoreError

__all__ = [
    "FILE_OPTIONS",
    "NESTED_OPTIONS",
    "SPEC_LIMITS",
    "ApiError",
    "Tables",
    "WebSession",
    "check_spec",
    "opponent_specs",
    "run_ai_moves",
]

T = TypeVar("T")

# Limits on what a client may ask for in a player spec (the server's own --opponents is free):
# every option that multiplies the work of one move.
SPEC_LIMITS = {
    "worlds": 400,
    "tt_mb": 64,
    "seconds": 10.0,
    "threads": 8,
    "n": 400,
    "m": 20,
    "candidates": 20_000,
    "inner_candidates": 2_000,
    "declare_worlds": 300,
    "soft_worlds": 200,
}
# Options that name a file or directory on the server (a bidding model, inference tables, the
# solver's tables): never a client's.
FILE_OPTIONS = ("model", "inference_tables", "tables")
# Options holding a nested player spec, whose own options the limits above would not see.
NESTED_OPTIONS = ("inner",)


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
    deleted: bool = False  # ended by its client: never saved again, no AI worker started

    def touch(self) -> None:
        self.last_seen = time.monotonic()

    def state(self, lang: str = LANG) -> dict[str, Any]:
        with self.session.lock:
            return session_state(self.session, self.id, self.version, self.busy, lang=lang)


def check_spec(spec: str, own: Sequence[str] = ()) -> str:
    """A client's player spec, if it names a registered player within :data:`SPEC_LIMITS`,
    no file (:data:`FILE_OPTIONS`) and no nested spec (:data:`NESTED_OPTIONS`); one of the
    server's ``own`` specs is taken as it is."""
    if spec.strip() in own:
        return spec.strip()
    head, _, options = spec.strip().partition(":")
    if head not in available_players():
        raise ApiError(
            422, f"unknown opponent {head!r}; available: {', '.join(available_players())}"
        )
    for part in filter(None, options.split(",")):
        key, _, value = part.partition("=")
        if key.strip() in FILE_OPTIONS:
            raise ApiError(
                422, f"opponent option {key.strip()} names a file: only the server's own may"
            )
        if key.strip() in NESTED_OPTIONS:
            raise ApiError(
                422, f"opponent option {key.strip()} takes a player spec: only the server's own may"
            )
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


def run_ai_moves(session: Session, pace: float, moved: Callable[[], None]) -> None:
    """Lets the AI players of ``session`` move until a person is to move or the game is over,
    ``pace`` seconds before each card (half before each bid), calling ``moved()`` under the
    session's lock after each move. A move computed for a position that is gone (the person
    took a card back meanwhile) is dropped; any other failure propagates."""
    while True:
        with session.lock:
            if not session.ai_to_move:
                return
            playing = session.game.phase == Phase.PLAY
        if pace > 0:
            time.sleep(pace if playing else pace / 2)
        try:
            session.ai_step()
        except GameChanged:
            continue
        with session.lock:
            moved()


def opponent_specs(body: dict[str, Any], own: Sequence[str]) -> list[str]:
    """The AI specs a request body asks for (``"opponents"``: one spec or a list of one or
    two, each checked by :func:`check_spec`), or the server's ``own`` when it names none."""
    raw = body.get("opponents")
    if raw is None:
        return list(own)
    if isinstance(raw, str):
        raw = [raw]
    if (
        not isinstance(raw, list)
        or not 1 <= len(raw) <= 2
        or not all(isinstance(x, str) for x in raw)
    ):
        raise ApiError(422, "opponents: one or two player specs (strings)")
    return [check_spec(x, own) for x in raw]


class Tables:
    """All sessions of a server, the worker threads and the limits.

    ``opponents``: the default AI specs; ``pace``: seconds before each AI card (half before
    each AI bid); ``ai_seconds``: the time limit of one AI move; ``hint_seconds`` and
    ``analysis_seconds``: how long a request waits for a hint or analysis; ``max_sessions``
    and ``idle_seconds``: how many sessions are kept in memory and for how long without a
    request; ``store``: where every session is saved after each change and found again after
    a restart (:class:`~skat.web.store.ListStore`; None keeps them in memory only).
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
        store: ListStore | None = None,
    ) -> None:
        self.opponents = list(opponents)
        self.pace = pace
        self.ai_seconds = ai_seconds
        self.hint_seconds = hint_seconds
        self.analysis_seconds = analysis_seconds
        self.max_sessions = max_sessions
        self.idle_seconds = idle_seconds
        self.hint_worlds = hint_worlds
        self.store = store
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
        seat = int_field(body, "seat", 0, 0, 2)
        games = int_field(body, "games", 3, 1, 100)
        seed = int_field(body, "seed", None, 0, 2**63 - 1)
        rated = body.get("rated", False)
        if not isinstance(rated, bool):
            raise ApiError(422, "rated: true or false")
        if seed is None:
            seed = secrets.randbelow(2**32)
        variants = variants_field(body)
        specs = opponent_specs(body, self.opponents)
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
                undo=not rated,
                variants=variants,
            )
        except SkatError as e:
            raise ApiError(422, str(e)) from None
        ws = WebSession(secrets.token_urlsafe(16), session)
        with self.lock:
            self.sessions[ws.id] = ws
        self._save(ws)
        self._schedule_ai(ws)
        return ws

    def get(self, session_id: str) -> WebSession:
        with self.lock:
            ws = self.sessions.get(session_id)
        if ws is None:
            ws = self._resume(session_id)
        ws.touch()
        return ws

    def _resume(self, session_id: str) -> WebSession:
        """The saved session ``session_id``, replayed into memory (404 when there is none)."""
        data = self.store.load(session_id) if self.store is not None else None
        if data is None or data.get("kind") == "room":
            raise ApiError(404, f"no session {session_id!r} (it may have expired)")
        try:
            session = Session.restore(data)
        except SkatError as e:
            raise ApiError(409, f"the saved list {session_id!r} cannot be resumed: {e}") from None
        if self.hint_worlds is not None:
            session.hint_worlds = self.hint_worlds
        with self.lock:
            ws = self.sessions.setdefault(session_id, WebSession(session_id, session))
        self._schedule_ai(ws)
        return ws

    def _save(self, ws: WebSession) -> None:
        """Saves the session (after every change); a failing disk is noted, never fatal."""
        if self.store is None or ws.deleted:
            return
        try:
            self.store.save(ws.id, ws.session.snapshot())
        except (OSError, StoreError) as e:
            ws.session.notes.append(f"the list could not be saved: {e}")

    def delete(self, session_id: str) -> None:
        with self.lock:
            ws = self.sessions.pop(session_id, None)
        if ws is not None:
            with ws.session.lock:  # an AI worker still moving must not save it again
                ws.deleted = True
        data = self.store.load(session_id) if self.store is not None else None
        saved = data is not None and data.get("kind") != "room"  # a room is not a session
        if ws is None and not saved:
            raise ApiError(404, f"no session {session_id!r}")
        if saved and self.store is not None:
            self.store.delete(session_id)

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
            self._change(ws, lambda: s.act(text), 422)
        self._schedule_ai(ws)

    def undo(self, ws: WebSession) -> None:
        """Takes back the person's last card (practice lists)."""
        self._change(ws, ws.session.undo, 409)

    def end_play(self, ws: WebSession, how: str) -> None:
        """``how`` = ``"claim"`` (the person, declarer, claims the rest) or ``"concede"``."""
        s = ws.session
        self._change(ws, s.claim if how == "claim" else s.concede, 422)

    def next_game(self, ws: WebSession) -> None:
        self._change(ws, ws.session.next_game, 409, UiError)
        self._schedule_ai(ws)

    def _change(
        self,
        ws: WebSession,
        change: Callable[[], object],
        status: int,
        refused: type[UiError] = InputError,
    ) -> None:
        """``change()`` under the session's lock, the one way the person changes a session: a
        refusal (``refused``) becomes an :class:`ApiError` with ``status``, with the version
        and the saved session as they were; a change bumps the version and is saved."""
        with ws.session.lock:
            try:
                change()
            except refused as e:
                raise ApiError(status, str(e)) from None
            ws.version += 1
            self._save(ws)

    def _schedule_ai(self, ws: WebSession) -> None:
        with ws.session.lock:
            if ws.busy or ws.deleted or not ws.session.ai_to_move:
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

        def moved() -> None:
            ws.version += 1
            self._save(ws)

        try:
            run_ai_moves(s, self.pace, moved)
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


def variants_field(body: dict[str, Any]) -> str:
    """The table variants a request body asks for (``"variants"``: any of ``kontra``,
    ``bock``, ``ramsch``, ``schieberamsch``, space separated), canonical."""
    raw = body.get("variants", "")
    if not isinstance(raw, str):
        raise ApiError(422, "variants: a string of kontra, bock, ramsch, schieberamsch")
    try:
        return check_variants(raw)
    except VariantsError as e:
        raise ApiError(422, str(e)) from None


def int_field(body: dict[str, Any], key: str, default: int | None, lo: int, hi: int) -> Any:
    value = body.get(key, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ApiError(422, f"{key}: an integer from {lo} to {hi}")
    return value
