"""The record viewer behind ``/viewer``: ISS record files opened in the browser, every game
stepped through card by card with all hands shown, and the open-handed analysis of each card.

A file is uploaded once (``POST /api/records``, the file's text as the body) and kept in
memory under a random id, like a table's session: at most ``max_files`` files (the least
recently used one is dropped first), each at most ``max_bytes``, dropped after
``idle_seconds`` without a request. Every line is replayed through the rules when the file
arrives; a line that is not a record of a legal game is listed with its error and skipped,
never fatal. A game's analysis (:func:`skat.ui.analysis.analyze_game`, the solver on every
card) runs on a worker thread the first time it is asked for and is kept with the file.

Nothing sent can crash the server or reach another file: unknown ids and game numbers are
404, bodies that are too large 413, files without a single readable record 422, and a new
analysis while :data:`MAX_PENDING` wait or run 503, each with ``{"error": message}``
(:class:`~skat.web.tables.ApiError`).

>>> import skat
>>> lib = RecordLibrary()
>>> info = lib.upload(skat.random_game(3).to_iss() + "\\nnot a record\\n", "two.iss")
>>> len(info["games"]), [e["line"] for e in info["errors"]]
(1, [2])
>>> sorted(lib.game(info["id"], 1))[:4]
['auction', 'cards', 'contract', 'declarer']
"""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from skat._core import Game, GameType, SkatError
from skat.defaults import LANG
from skat.ui import words
from skat.ui.analysis import GameAnalysis, analyze_game
from skat.web.state import card_json
from skat.web.tables import ApiError

MAX_FILES = 32
MAX_BYTES = 8 * 1024 * 1024
IDLE_SECONDS = 3600.0
MAX_PENDING = 16
"""Analyses waiting or running at once on the viewer's one worker thread; a request for
another is refused (503) until some finish, so that no client can queue hours of work."""


@dataclass
class RecordFile:
    """One uploaded file: its readable games and the lines that were not."""

    name: str
    games: list[tuple[int, Game]]
    errors: list[dict[str, Any]]
    used: float = field(default_factory=time.monotonic)
    analyses: dict[int, Future[GameAnalysis]] = field(default_factory=dict)


def _names(game: Game) -> list[str]:
    header = dict(game.header)
    return [header.get(f"P{s}", str(s)) or str(s) for s in range(3)]


def analysis_json(
    report: GameAnalysis, seat: int | None, names: list[str], lang: str = LANG
) -> dict[str, Any]:
    """A game's analysis as JSON with its words in ``lang``; ``seat`` picks whose costly
    moves the summary lists (None: everybody's)."""
    out = report.as_dict(seat, names)
    out["summary"] = words.analysis_summary(report, seat, names, lang)
    out["moves"] = [{**m.as_dict(), "text": words.move_text(m, lang)} for m in report.moves]
    return out


def game_summary(n: int, line: int, game: Game) -> dict[str, Any]:
    """The one-line description of game ``n`` (from 1) of a file, read from line ``line``."""
    r = game.result
    return {
        "game": n,
        "line": line,
        "names": _names(game),
        "id": dict(game.header).get("ID", ""),
        "declarer": game.declarer,
        "contract": None if game.contract is None else str(game.contract),
        "won": None if r is None or r.passed else bool(r.won),
        "value": None if r is None else r.value,
        "passed": bool(r is not None and r.passed),
        "complete": r is not None,
    }


def game_detail(game: Game) -> dict[str, Any]:
    """Everything the viewer shows of one game: dealt hands, skat, auction and declaration,
    every card with its trick, and the result."""
    gt = None if game.contract is None else game.contract.game_type
    deal = game.deal
    auction: list[dict[str, Any]] = []
    discard = None
    for seat, action in game.history:
        if action.kind == "play":
            continue
        if action.kind == "discard" and action.cards is not None:
            discard = [card_json(c) for c in action.cards.sorted(gt)]
        auction.append({"seat": seat if isinstance(seat, int) else None, "action": str(action)})
    cards = []
    for t, (leader, trick, winner) in enumerate(game.tricks):
        for i, c in enumerate(trick):
            cards.append(
                {"trick": t + 1, "seat": (leader + i) % 3, "winner": winner, **card_json(c)}
            )
    done = len(cards)
    current = game.trick
    for i, c in enumerate(current):
        cards.append(
            {"trick": done // 3 + 1, "seat": (game.leader + i) % 3, "winner": None, **card_json(c)}
        )
    r = game.result
    return {
        "names": _names(game),
        "hands": [[card_json(c) for c in h.sorted(gt)] for h in deal.hands],
        "skat": [card_json(c) for c in deal.skat.sorted(gt)],
        "auction": auction,
        "declarer": game.declarer,
        "contract": None if game.contract is None else str(game.contract),
        "null": gt == GameType.NULL,
        "discard": discard,
        "picked_up": game.picked_up,
        "cards": cards,
        "result": None if r is None else r.as_dict(),
        "passed": bool(r is not None and r.passed),
        "record": game.to_iss(),
    }


class RecordLibrary:
    """The uploaded record files of one server (thread-safe)."""

    def __init__(
        self,
        max_files: int = MAX_FILES,
        max_bytes: int = MAX_BYTES,
        idle_seconds: float = IDLE_SECONDS,
        analysis_seconds: float = 120.0,
        max_pending: int = MAX_PENDING,
    ) -> None:
        self.max_files = max_files
        self.max_pending = max_pending
        self._queued: list[Future[GameAnalysis]] = []
        self.max_bytes = max_bytes
        self.idle_seconds = idle_seconds
        self.analysis_seconds = analysis_seconds
        self.files: OrderedDict[str, RecordFile] = OrderedDict()
        self.lock = threading.Lock()
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="skat-viewer")

    def close(self) -> None:
        """Stops the analysis thread (pending analyses are dropped)."""
        self.pool.shutdown(wait=False, cancel_futures=True)

    def upload(self, text: str, name: str = "records.iss") -> dict[str, Any]:
        """Reads the records in ``text``; keeps the file and returns its listing."""
        if len(text.encode("utf-8", errors="replace")) > self.max_bytes:
            raise ApiError(413, f"a record file of at most {self.max_bytes // (1024 * 1024)} MB")
        games: list[tuple[int, Game]] = []
        errors: list[dict[str, Any]] = []
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            try:
                games.append((number, Game.from_iss(line)))
            except SkatError as e:
                errors.append({"line": number, "message": str(e)})
        if not games:
            first = errors[0]["message"] if errors else "the file is empty"
            raise ApiError(422, f"no readable ISS record in {name!r}: {first}")
        fid = secrets.token_urlsafe(12)
        with self.lock:
            self._expire()
            self.files[fid] = RecordFile(name, games, errors)
            while len(self.files) > self.max_files:
                self.files.popitem(last=False)
        return self.listing(fid)

    def _expire(self) -> None:
        now = time.monotonic()
        for fid in [f for f, rf in self.files.items() if now - rf.used > self.idle_seconds]:
            del self.files[fid]

    def _file(self, fid: str) -> RecordFile:
        with self.lock:
            self._expire()
            rf = self.files.get(fid)
            if rf is None:
                raise ApiError(404, "no such record file (it may have expired: open it again)")
            rf.used = time.monotonic()
            self.files.move_to_end(fid)
            return rf

    def _game(self, fid: str, n: int) -> tuple[RecordFile, Game]:
        rf = self._file(fid)
        if not 1 <= n <= len(rf.games):
            raise ApiError(404, f"game {n}: the file has games 1..{len(rf.games)}")
        return rf, rf.games[n - 1][1]

    def listing(self, fid: str) -> dict[str, Any]:
        """The file's id, name, games (one summary each) and unreadable lines."""
        rf = self._file(fid)
        return {
            "id": fid,
            "name": rf.name,
            "games": [game_summary(i + 1, line, g) for i, (line, g) in enumerate(rf.games)],
            "errors": rf.errors,
        }

    def game(self, fid: str, n: int) -> dict[str, Any]:
        """Game ``n`` (from 1) of the file in full (:func:`game_detail`)."""
        _, g = self._game(fid, n)
        return {"game": n, **game_detail(g)}

    async def analysis(
        self, fid: str, n: int, wait: float, lang: str = LANG
    ) -> dict[str, Any] | None:
        """The open-handed analysis of game ``n``, or None while it is still being computed
        after ``wait`` seconds."""
        rf, g = self._game(fid, n)
        with self.lock:
            future = rf.analyses.get(n)
            if future is None:
                self._queued = [f for f in self._queued if not f.done()]
                if len(self._queued) >= self.max_pending:
                    raise ApiError(503, "the viewer is busy analysing other games: try again soon")
                future = self.pool.submit(analyze_game, g)
                rf.analyses[n] = future
                self._queued.append(future)
        try:
            report = await asyncio.wait_for(
                asyncio.shield(asyncio.wrap_future(future)), min(wait, self.analysis_seconds)
            )
        except TimeoutError:
            return None
        except SkatError as e:
            raise ApiError(422, f"game {n} cannot be analysed: {e}") from e
        names = _names(g)
        return {
            "status": "done",
            "game": n,
            "names": names,
            **analysis_json(report, None, names, lang),
        }


__all__ = ["RecordLibrary", "game_detail", "game_summary"]
