"""Tables for several people: a host opens a room, shares its link, friends join, the AI takes
the empty chairs, and everybody plays one list together with live updates.

A :class:`Room` starts in the lobby: the host (chair 0) and whoever joins (chairs 1 and 2, in
order), each known by a secret token that the browser keeps, so that a reload or a new
connection gets the same chair back. When the host starts, the empty chairs get AI players
and the list begins: a :class:`~skat.ui.session.Session` with ``people`` for the human chairs
(no taking back: a table of several people is played as rated). Anyone without a token, or
with an unknown one, is a spectator. With a ``store`` every room is saved after each change
(key ``room:ID``: the lobby, the seat keys and the list's snapshot) and opened again, by id,
after a restart.

Invariants: everything a client receives is built for its own chair
(:func:`skat.web.state.session_state` with ``chair``: its own hand only, the other hands and
the skat hidden until the game is over; spectators see no hand at all); a room changes only
under its session's lock (or the room's own lock in the lobby) and every change bumps its
``version``, which the long poll and the WebSocket wait on; a WebSocket watches only a room
the server still holds (:meth:`Rooms.holds`: one dropped while idle closes it); at most one
AI worker runs per room; a person acts only on her own turn (else 409) and an illegal action
changes nothing (422).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from skat._core import SkatError
from skat.defaults import LANG
from skat.ui.common import InputError, UiError
from skat.ui.session import Session
from skat.variants import check_variants
from skat.web.state import SPECTATOR, session_state
from skat.web.store import ListStore, StoreError
from skat.web.tables import ApiError, int_field, opponent_specs, run_ai_moves, variants_field

NAME_MAX = 24
MAX_ROOMS = 50


def _name(raw: object, default: str) -> str:
    if raw is None:
        return default
    if not isinstance(raw, str) or not raw.strip() or len(raw.strip()) > NAME_MAX:
        raise ApiError(422, f"name: 1 to {NAME_MAX} characters")
    return raw.strip()


@dataclass
class Room:
    """One table of several people: the lobby, then the list."""

    id: str
    games: int
    seed: int
    opponents: list[str]
    names: dict[int, str] = field(default_factory=dict)
    tokens: dict[str, int] = field(default_factory=dict)
    session: Session | None = None
    version: int = 0
    busy: bool = False
    lock: threading.RLock = field(default_factory=threading.RLock)
    last_seen: float = field(default_factory=time.monotonic)
    variants: str = ""

    def snapshot(self) -> dict[str, Any]:
        """Everything needed to open the room again after a restart (JSON-ready)."""
        with self.lock:
            return {
                "kind": "room",
                "games": self.games,
                "seed": self.seed,
                "opponents": self.opponents,
                "variants": self.variants,
                "names": {str(c): n for c, n in self.names.items()},
                "tokens": self.tokens,
                "session": None if self.session is None else self.session.snapshot(),
            }

    @classmethod
    def restore(cls, rid: str, data: dict[str, Any]) -> Room:
        """The room of a :meth:`snapshot` (its list replayed); ``SkatError`` if it does not fit."""
        try:
            room = cls(
                rid,
                int(data["games"]),
                int(data["seed"]),
                list(data["opponents"]),
                {int(c): str(n) for c, n in data["names"].items()},
                {str(t): int(c) for t, c in data["tokens"].items()},
                variants=check_variants(str(data.get("variants", ""))),
            )
            saved = data["session"]
        except (KeyError, TypeError, ValueError) as e:
            raise UiError(f"not a saved room: {e}") from e
        if saved is not None:
            room.session = Session.restore(saved)
        return room

    def chair_of(self, token: str | None) -> int:
        """The chair of ``token``, or :data:`~skat.web.state.SPECTATOR`."""
        return self.tokens.get(token or "", SPECTATOR)

    def state(self, token: str | None, lang: str = LANG) -> dict[str, Any]:
        """What the holder of ``token`` may see of the room, its words in ``lang``."""
        chair = self.chair_of(token)
        with self.lock:
            room = {
                "room": self.id,
                "games": self.games,
                "variants": self.variants,
                "seats": [
                    {"chair": c, "name": self.names.get(c), "person": c in self.names}
                    for c in range(3)
                ],
                "chair": None if chair == SPECTATOR else chair,
                "host": chair == 0,
                "started": self.session is not None,
            }
            if self.session is None:
                return {"lobby": True, "version": self.version, **room}
            s = self.session
            with s.lock:
                state = session_state(s, self.id, self.version, self.busy, chair, lang)
        return {"lobby": False, **room, **state}


class Rooms:
    """Every room of a server, with the AI worker threads (thread-safe)."""

    def __init__(
        self,
        opponents: Sequence[str],
        pace: float = 0.5,
        ai_seconds: float = 30.0,
        idle_seconds: float = 6 * 3600.0,
        max_rooms: int = MAX_ROOMS,
        store: ListStore | None = None,
    ) -> None:
        self.opponents = list(opponents)
        self.pace = pace
        self.ai_seconds = ai_seconds
        self.idle_seconds = idle_seconds
        self.max_rooms = max_rooms
        self.store = store
        self.rooms: dict[str, Room] = {}
        self.lock = threading.Lock()
        self.pool = ThreadPoolExecutor(4, thread_name_prefix="skat-rooms")

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)

    def create(self, body: dict[str, Any]) -> tuple[Room, str]:
        """A new room from a request body; returns it and the host's token."""
        games = int_field(body, "games", 3, 1, 100)
        seed = int_field(body, "seed", None, 0, 2**63 - 1)
        specs = opponent_specs(body, self.opponents)
        variants = variants_field(body)
        name = _name(body.get("name"), "Host")
        now = time.monotonic()
        with self.lock:
            for rid in [r for r, x in self.rooms.items() if now - x.last_seen > self.idle_seconds]:
                del self.rooms[rid]
            if len(self.rooms) >= self.max_rooms:
                raise ApiError(503, "the server has as many rooms as it keeps; try later")
            room = Room(
                secrets.token_urlsafe(9),
                games,
                seed if seed is not None else secrets.randbelow(2**32),
                specs,
                variants=variants,
            )
            token = secrets.token_urlsafe(16)
            room.names[0] = name
            room.tokens[token] = 0
            self.rooms[room.id] = room
        self._save(room)
        return room, token

    def get(self, rid: str) -> Room:
        with self.lock:
            room = self.rooms.get(rid)
        if room is None:
            room = self._reopen(rid)
        room.last_seen = time.monotonic()
        return room

    def holds(self, room: Room) -> bool:
        """Whether ``room`` is still this server's (not dropped while idle); a WebSocket
        watching a dropped room would never see another change."""
        with self.lock:
            return self.rooms.get(room.id) is room

    def _key(self, rid: str) -> str:
        return f"room:{rid}"

    def _reopen(self, rid: str) -> Room:
        data = self.store.load(self._key(rid)) if self.store is not None else None
        if data is None or data.get("kind") != "room":
            raise ApiError(404, f"no room {rid!r} (it may have closed)")
        try:
            room = Room.restore(rid, data)
        except SkatError as e:
            raise ApiError(409, f"the saved room {rid!r} cannot be reopened: {e}") from None
        with self.lock:
            room = self.rooms.setdefault(rid, room)
        if room.session is not None:
            self._schedule_ai(room)
        return room

    def _save(self, room: Room) -> None:
        """Saves the room after a change; a failing disk is noted, never fatal."""
        if self.store is None:
            return
        try:
            self.store.save(self._key(room.id), room.snapshot())
        except (OSError, StoreError) as e:
            if room.session is not None:
                room.session.notes.append(f"the table could not be saved: {e}")

    def join(self, room: Room, body: dict[str, Any]) -> tuple[int, str]:
        """A free chair for a new person; returns it and the person's token."""
        with room.lock:
            if room.session is not None:
                raise ApiError(409, "the list has started: watch, or ask for a new room")
            free = [c for c in range(3) if c not in room.names]
            if not free:
                raise ApiError(409, "the table is full")
            chair = free[0]
            room.names[chair] = _name(body.get("name"), f"Player {chair + 1}")
            token = secrets.token_urlsafe(16)
            room.tokens[token] = chair
            room.version += 1
        self._save(room)
        return chair, token

    def start(self, room: Room, token: str | None) -> None:
        """The host starts the list; the AI takes the empty chairs."""
        with room.lock:
            if room.chair_of(token) != 0:
                raise ApiError(403, "only the host starts the list")
            if room.session is not None:
                raise ApiError(409, "the list has already started")
            ai = 3 - len(room.names)
            specs = room.opponents if len(room.opponents) in (1, ai) else room.opponents[:1]
            try:
                room.session = Session(
                    seat=0,
                    opponents=specs if ai else ["rules"],
                    seed=room.seed,
                    games=room.games,
                    ai_seconds=self.ai_seconds,
                    undo=False,
                    people=dict(room.names),
                    variants=room.variants,
                )
            except SkatError as e:
                raise ApiError(422, str(e)) from None
            room.version += 1
        self._save(room)
        self._schedule_ai(room)

    def act(self, room: Room, token: str | None, text: str) -> None:
        s = self._session(room)
        chair = room.chair_of(token)
        if chair == SPECTATOR:
            raise ApiError(403, "spectators watch: join the table to play")
        with s.lock:
            if room.busy or not s.waiting_for(chair):
                raise ApiError(409, "it is not your turn")
            try:
                s.act(text, chair)
            except InputError as e:
                raise ApiError(422, str(e)) from None
            room.version += 1
            self._save(room)
        self._schedule_ai(room)

    def next_game(self, room: Room, token: str | None) -> None:
        s = self._session(room)
        if room.chair_of(token) == SPECTATOR:
            raise ApiError(403, "spectators watch: join the table to play")
        with s.lock:
            try:
                s.next_game()
            except UiError as e:
                raise ApiError(409, str(e)) from None
            room.version += 1
            self._save(room)
        self._schedule_ai(room)

    def _session(self, room: Room) -> Session:
        if room.session is None:
            raise ApiError(409, "the list has not started yet")
        return room.session

    def _schedule_ai(self, room: Room) -> None:
        s = self._session(room)
        with s.lock:
            if room.busy or not s.ai_to_move:
                return
            room.busy = True
            room.version += 1
        try:
            self.pool.submit(self._run_ai, room)
        except RuntimeError:  # shutting down
            with s.lock:
                room.busy = False

    def _run_ai(self, room: Room) -> None:
        s = self._session(room)

        def moved() -> None:
            room.version += 1
            self._save(room)

        try:
            run_ai_moves(s, self.pace, moved)
        except Exception as e:  # noted for the players; the room stays usable
            with s.lock:
                s.notes.append(f"AI move failed: {type(e).__name__}: {e}")
        finally:
            with s.lock:
                room.busy = False
                room.version += 1


__all__ = ["Room", "Rooms"]
