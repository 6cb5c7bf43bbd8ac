"""Duplicate-deal tournaments between two players, scored Seeger-Fabian.

Two players, ``a`` and ``b`` (player spec strings, see :func:`skat.players.make_player`), play
the same deals in every seating, so that the luck of the cards cancels out:

- ``mode="cardplay"``: the auction, the skat, the discard and the declaration are made by three
  instances of the ``bidder`` player; candidate deals that all three pass are skipped (in the
  main process, so the choice never depends on the number of workers). Each deal is then played
  twice from the first card with the same actions before it: ``a`` at the declarer's seat and
  ``b`` at both other seats, then ``b`` declaring against two ``a``.
- ``mode="full"``: each deal is played whole (auction included, by the players themselves) in
  the six seatings ``ABB BAB BBA AAB ABA BAA``; all-pass games belong to a list and score 0.

Everything is derived from the tournament seed: candidate deal ``j`` is
``Deal.random(deal_seed(seed, j))``, and the seeds handed to the players' ``new_game`` hooks come
from the same mixing function (:func:`derive_seed`). Every game builds three fresh players from
their specs, so the results are the same whatever the number of worker processes.

A game scores each seat Seeger-Fabian (``game.result.scores``: declarer value + 50 when won,
-(2 x value) - 50 when lost, each defender +40 when the declarer loses). A player's score in a
game is the mean over the seats it holds; ``points_per_list`` is 36 times its mean score per
game, with a standard error over deals; the paired difference compares the two players deal by
deal. A player that raises or answers with an illegal action is recorded as an error with the
deal, the seating and the position; the tournament goes on, and that deal is left out of the
statistics.

When ``a`` and ``b`` are the same spec string, they are told apart as ``"A: spec"`` and
``"B: spec"`` (in the statistics, the JSON and the records); otherwise each is named by its spec.

>>> from skat.tournament import run
>>> result = run("rules", "random", mode="cardplay", deals=2, seed=1)
>>> result.complete, result.deals_played, result.players["rules"].games
(True, 2, 4)
>>> sorted(result.to_json()["players"])
['random', 'rules']
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import signal
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any, Literal

from skat._core import Deal, Phase
from skat.match import PlayerFailure, play
from skat.players.base import Player, make_player

__all__ = [
    "FULL_SEATINGS",
    "LIST_GAMES",
    "MODES",
    "DealOutcome",
    "GameError",
    "GameOutcome",
    "PairedDifference",
    "PlayerStats",
    "TournamentResult",
    "deal_seed",
    "derive_seed",
    "game_score",
    "player_labels",
    "run",
    "summarize",
    "write_json",
]

Mode = Literal["cardplay", "full"]
MODES: tuple[Mode, ...] = ("cardplay", "full")
"""The tournament modes."""

FULL_SEATINGS = ("ABB", "BAB", "BBA", "AAB", "ABA", "BAA")
"""The seatings of a full-mode deal: the letter at index ``i`` is the player at seat ``i``."""

LIST_GAMES = 36
"""Games in a list: scores are reported per 36 games."""

Z95 = 1.96
"""The normal quantile of a two-sided 95% interval."""

_MASK = (1 << 64) - 1
_STREAM_AUCTION = 1
_STREAM_PLAY = 2
_THREADS_ENV = "SKAT_THREADS"


# ----- seeds ---------------------------------------------------------------------------------


def _splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def derive_seed(seed: int, *path: int) -> int:
    """A 64-bit seed mixed (SplitMix64) from a tournament seed and a path of integers.

    Any integer is accepted (taken modulo 2**64); the result fits ``Deal.random``.
    """
    x = _splitmix64(seed & _MASK)
    for part in path:
        x = _splitmix64(x ^ (part & _MASK))
    return x


def deal_seed(seed: int, j: int) -> int:
    """The seed of candidate deal ``j``: the deal is ``Deal.random(deal_seed(seed, j))``."""
    return derive_seed(seed, j)


def player_labels(a: str, b: str) -> tuple[str, str]:
    """How the two players are named: their specs, or ``"A: spec"`` / ``"B: spec"`` when equal."""
    if a == b:
        return f"A: {a}", f"B: {b}"
    return a, b


# ----- outcomes ------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameError:
    """A game stopped by a player that raised or chose an illegal action."""

    deal: int
    """The tournament deal index (from 0)."""
    seating: str
    """The seating (``"ABB"``: A at seat 0, B at seats 1 and 2), or ``"auction"`` for a
    failure of the bidder while choosing the deals in cardplay mode."""
    seat: int | None
    """The seat of the failing player (0 forehand, 1 middlehand, 2 rearhand)."""
    player: str
    """The failing player's label (or ``"bidder: spec"``)."""
    message: str
    """What happened, with the deal and the record up to the failure."""

    def to_json(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "seating": self.seating,
            "seat": self.seat,
            "player": self.player,
            "message": self.message,
        }


@dataclass(frozen=True)
class GameOutcome:
    """One game of a deal, as far as the statistics need it."""

    seating: str
    """The letter (``A`` or ``B``) of the player at each seat."""
    scores: tuple[int, int, int] | None
    """Seeger-Fabian score of each seat; ``None`` when a player failed."""
    declarer: int | None = None
    """The declarer's seat (``None``: all passed, or failed)."""
    won: bool = False
    """Whether the declarer won."""
    record: str = ""
    """The game as one ISS record line (up to the failure for a failed game). It goes to the
    records file; :attr:`TournamentResult.outcomes` keep it empty to save memory."""
    error: GameError | None = None


@dataclass(frozen=True)
class DealOutcome:
    """All games of one tournament deal."""

    index: int
    """The tournament deal index (from 0)."""
    candidate: int
    """The candidate ``j`` of the deal: ``Deal.random(deal_seed(seed, j))``."""
    games: tuple[GameOutcome, ...]
    errors: tuple[GameError, ...] = ()
    """Every failure in the deal; a deal with any is left out of the statistics."""

    @property
    def ok(self) -> bool:
        """Whether every game of the deal finished (the deal counts in the statistics)."""
        return not self.errors and bool(self.games)


@dataclass(frozen=True)
class PlayerStats:
    """One player's results over the deals in the statistics."""

    player: str
    """The label (the spec, or ``"A: spec"`` when both players share a spec)."""
    points_per_list: float | None
    """36 x the mean Seeger-Fabian score per game (``None`` without any game)."""
    stderr: float | None
    """Standard error of ``points_per_list`` over deals (``None`` with fewer than 2 deals)."""
    games: int
    """Games the player took part in (every game of every deal in the statistics)."""
    declarer_games: int
    """Games in which the player held the declarer's seat."""
    declarer_wins: int
    """Of those, the games the declarer won."""

    @property
    def declarer_win_rate(self) -> float | None:
        """``declarer_wins / declarer_games`` (``None`` if it never declared)."""
        return self.declarer_wins / self.declarer_games if self.declarer_games else None

    def to_json(self) -> dict[str, Any]:
        return {
            "points_per_list": self.points_per_list,
            "stderr": self.stderr,
            "games": self.games,
            "declarer_games": self.declarer_games,
            "declarer_win_rate": self.declarer_win_rate,
        }


@dataclass(frozen=True)
class PairedDifference:
    """Per deal, 36 x (A's mean score per game - B's), and its mean with a 95% interval."""

    mean: float | None
    stderr: float | None
    ci95: tuple[float, float] | None
    """``(mean - 1.96 se, mean + 1.96 se)``; ``None`` with fewer than 2 deals."""
    deals: int

    def to_json(self) -> dict[str, Any]:
        return {
            "mean": self.mean,
            "stderr": self.stderr,
            "ci95": list(self.ci95) if self.ci95 is not None else None,
            "deals": self.deals,
        }


# ----- statistics ----------------------------------------------------------------------------


def game_score(game: GameOutcome, letter: str) -> float:
    """The score of player ``letter`` (``"A"`` or ``"B"``) in a game: the mean of its seats."""
    if game.scores is None:
        raise ValueError("a failed game has no scores")
    seats = [s for s, c in enumerate(game.seating) if c == letter]
    if not seats:
        raise ValueError(f"player {letter} has no seat in seating {game.seating}")
    return sum(game.scores[s] for s in seats) / len(seats)


def _stderr(values: Sequence[float]) -> float | None:
    if len(values) < 2:
        return None
    return statistics.stdev(values) / math.sqrt(len(values))


def summarize(
    outcomes: Sequence[DealOutcome], a: str = "A", b: str = "B"
) -> tuple[PlayerStats, PlayerStats, PairedDifference]:
    """Statistics of players ``A`` and ``B`` (labelled ``a`` and ``b``) over the deals.

    Deals with an error (or without games) are left out. For each player:
    ``points_per_list = 36 * mean score per game``; ``stderr = sample std / sqrt(deals)`` of
    36 x the per-deal mean score; the declarer win rate over the games it declared. The paired
    difference is, per deal, 36 x (A's mean score - B's mean score).
    """
    scored = [d for d in sorted(outcomes, key=lambda d: d.index) if d.ok]
    per_game: dict[str, list[float]] = {"A": [], "B": []}
    per_deal: dict[str, list[float]] = {"A": [], "B": []}
    declared = {"A": 0, "B": 0}
    won = {"A": 0, "B": 0}
    diffs: list[float] = []
    for d in scored:
        means = {}
        for letter in ("A", "B"):
            scores = [game_score(g, letter) for g in d.games]
            per_game[letter].extend(scores)
            means[letter] = statistics.fmean(scores)
            per_deal[letter].append(LIST_GAMES * means[letter])
        diffs.append(LIST_GAMES * (means["A"] - means["B"]))
        for g in d.games:
            if g.declarer is not None:
                letter = g.seating[g.declarer]
                declared[letter] += 1
                won[letter] += int(g.won)

    def player(letter: str, label: str) -> PlayerStats:
        games = per_game[letter]
        return PlayerStats(
            player=label,
            points_per_list=LIST_GAMES * statistics.fmean(games) if games else None,
            stderr=_stderr(per_deal[letter]),
            games=len(games),
            declarer_games=declared[letter],
            declarer_wins=won[letter],
        )

    mean = statistics.fmean(diffs) if diffs else None
    se = _stderr(diffs)
    ci = (mean - Z95 * se, mean + Z95 * se) if mean is not None and se is not None else None
    return player("A", a), player("B", b), PairedDifference(mean, se, ci, len(diffs))


# ----- the result ----------------------------------------------------------------------------


@dataclass
class TournamentResult:
    """What :func:`run` returns; :meth:`to_json` gives the JSON report."""

    mode: Mode
    seed: int
    deals: int
    """Deals asked for."""
    a: str
    """Player A's label (its spec, or ``"A: spec"`` when both specs are the same)."""
    b: str
    specs: tuple[str, str]
    """The specs of A and B as given."""
    bidder: str | None
    """The bidder spec (cardplay mode), else ``None``."""
    players: dict[str, PlayerStats]
    """By label, A first."""
    paired_difference: PairedDifference
    errors: list[GameError]
    complete: bool
    """False when the run was interrupted (KeyboardInterrupt): the statistics cover the deals
    finished by then."""
    outcomes: list[DealOutcome] = field(repr=False)
    """Every finished deal, in deal order."""
    candidates: int | None = None
    """Cardplay: candidate deals looked at (``None`` if interrupted while choosing them)."""
    passed_out: int | None = None
    """Cardplay: candidates skipped because all three bidders passed."""
    seconds: float = 0.0
    """Wall-clock time of the run."""
    workers: int = 1

    @property
    def deals_played(self) -> int:
        """Deals finished (with or without errors)."""
        return len(self.outcomes)

    @property
    def excluded_deals(self) -> list[int]:
        """Finished deals left out of the statistics because a player failed."""
        return [d.index for d in self.outcomes if not d.ok]

    @property
    def games_played(self) -> int:
        return sum(len(d.games) for d in self.outcomes)

    def to_json(self, wall_clock: bool = True) -> dict[str, Any]:
        """The JSON report. Only ``seconds`` and ``workers`` depend on how the run went;
        ``wall_clock=False`` leaves them out (the rest is fixed by the arguments and seed)."""
        out: dict[str, Any] = {
            "mode": self.mode,
            "seed": self.seed,
            "deals": self.deals,
        }
        if self.bidder is not None:
            out["bidder"] = self.bidder
        out["a"] = self.a
        out["b"] = self.b
        out["players"] = {
            label: {"spec": spec, **self.players[label].to_json()}
            for label, spec in zip((self.a, self.b), self.specs, strict=True)
        }
        out["paired_difference"] = self.paired_difference.to_json()
        out["errors"] = [e.to_json() for e in self.errors]
        out["complete"] = self.complete
        out["deals_played"] = self.deals_played
        out["deals_scored"] = self.paired_difference.deals
        out["excluded_deals"] = self.excluded_deals
        out["games_played"] = self.games_played
        if self.mode == "cardplay":
            out["candidates"] = self.candidates
            out["passed_out"] = self.passed_out
        if wall_clock:
            out["seconds"] = self.seconds
            out["workers"] = self.workers
        return out


# ----- playing -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _DealTask:
    """Everything a worker needs to play one deal (picklable)."""

    index: int
    candidate: int
    deal_seed: int
    play_seed: int
    specs: tuple[str, str]
    labels: tuple[str, str]
    seed: int
    prefix: tuple[str, ...] | None = None
    """Cardplay: the ISS tokens of the auction, skat and declaration."""
    declarer: int | None = None


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


_PLAIN_HEADER = "(;GM[Skat]PC[skat]P0[0]P1[1]P2[2]"


def _named_record(iss: str, task: _DealTask, seating: str) -> str:
    """The ISS record with the tournament's ID and the players' labels as P0..P2."""
    if not iss.startswith(_PLAIN_HEADER):
        return iss
    names = [task.labels[0] if c == "A" else task.labels[1] for c in seating]
    head = (
        f"(;GM[Skat]PC[skat tournament]ID[{_escape(f'{task.seed}-{task.index}-{seating}')}]"
        + "".join(f"P{s}[{_escape(n)}]" for s, n in enumerate(names))
    )
    return head + iss[len(_PLAIN_HEADER) :]


def _cardplay_seatings(declarer: int) -> tuple[str, str]:
    first = "".join("A" if s == declarer else "B" for s in range(3))
    second = "".join("B" if s == declarer else "A" for s in range(3))
    return first, second


def _play_deal(task: _DealTask) -> DealOutcome:
    """Plays every seating of one deal (in a worker or in the main process)."""
    deal = Deal.random(task.deal_seed)
    if task.prefix is not None:
        assert task.declarer is not None
        seatings: Sequence[str] = _cardplay_seatings(task.declarer)
    else:
        seatings = FULL_SEATINGS
    prefix = task.prefix or ()
    games: list[GameOutcome] = []
    errors: list[GameError] = []
    for seating in seatings:
        players = [make_player(task.specs[0] if c == "A" else task.specs[1]) for c in seating]
        try:
            game = play(players, deal, seed=task.play_seed, prefix=prefix)
        except PlayerFailure as e:
            label = task.labels[0] if seating[e.seat] == "A" else task.labels[1]
            err = GameError(task.index, seating, e.seat, label, str(e))
            errors.append(err)
            games.append(
                GameOutcome(
                    seating, None, record=_named_record(e.game.to_iss(), task, seating), error=err
                )
            )
            continue
        r = game.result
        assert r is not None
        s0, s1, s2 = r.scores
        games.append(
            GameOutcome(
                seating,
                (s0, s1, s2),
                r.declarer,
                r.won,
                _named_record(game.to_iss(), task, seating),
            )
        )
    return DealOutcome(task.index, task.candidate, tuple(games), tuple(errors))


def _threads_for(workers: int) -> str:
    return str(max(1, (os.cpu_count() or 1) // workers))


def _init_worker(workers: int) -> None:
    """Worker start: size the players' thread pools and leave Ctrl-C to the main process."""
    os.environ[_THREADS_ENV] = _threads_for(workers)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _threads_env(workers: int) -> Iterator[None]:
    old = os.environ.get(_THREADS_ENV)
    os.environ[_THREADS_ENV] = _threads_for(workers)
    try:
        yield
    finally:
        if old is None:
            os.environ.pop(_THREADS_ENV, None)
        else:
            os.environ[_THREADS_ENV] = old


class _RecordWriter:
    """Writes each deal's records in deal order, as soon as all earlier deals are in."""

    def __init__(self, path: str | os.PathLike[str] | None) -> None:
        self.file: IO[str] | None = (
            open(path, "w", encoding="utf-8") if path is not None else None  # noqa: SIM115
        )
        self.pending: dict[int, DealOutcome] = {}
        self.next = 0

    def _write(self, outcome: DealOutcome) -> None:
        assert self.file is not None
        for g in outcome.games:
            if g.record:
                self.file.write(g.record + "\n")

    def add(self, outcome: DealOutcome) -> None:
        if self.file is None:
            return
        self.pending[outcome.index] = outcome
        while self.next in self.pending:
            self._write(self.pending.pop(self.next))
            self.next += 1
        self.file.flush()

    def close(self) -> None:
        """Writes the deals still waiting (after an interruption), in order, and closes."""
        if self.file is None:
            return
        for index in sorted(self.pending):
            self._write(self.pending[index])
        self.pending.clear()
        self.file.close()
        self.file = None


def _choose_deals(
    deals: int, seed: int, bidder: str, specs: tuple[str, str], labels: tuple[str, str]
) -> tuple[list[_DealTask], list[DealOutcome], int]:
    """Cardplay: the first ``deals`` candidates with a declarer, bid by three bidders.

    Returns the tasks, the deals whose auction failed (a bidder error, no games) and the number
    of candidates looked at.
    """
    tasks: list[_DealTask] = []
    failed: list[DealOutcome] = []
    limit = 50 * deals + 100
    j = 0
    while len(tasks) + len(failed) < deals:
        if j >= limit:
            raise ValueError(f"the bidder {bidder!r} declared only {len(tasks)} games in {j} deals")
        index = len(tasks) + len(failed)
        dseed = deal_seed(seed, j)
        deal = Deal.random(dseed)
        bidders: list[Player] = [make_player(bidder) for _ in range(3)]
        try:
            game = play(bidders, deal, seed=derive_seed(seed, j, _STREAM_AUCTION), until=Phase.PLAY)
        except PlayerFailure as e:
            err = GameError(index, "auction", e.seat, f"bidder: {bidder}", str(e))
            failed.append(DealOutcome(index, j, (), (err,)))
            j += 1
            continue
        j += 1
        if game.is_over:
            continue  # all passed
        tasks.append(
            _DealTask(
                index=index,
                candidate=j - 1,
                deal_seed=dseed,
                play_seed=derive_seed(seed, j - 1, _STREAM_PLAY),
                specs=specs,
                labels=labels,
                seed=seed,
                prefix=tuple(str(a) for _, a in game.history),
                declarer=game.declarer,
            )
        )
    return tasks, failed, j


def run(
    a: str,
    b: str,
    mode: Mode = "cardplay",
    deals: int = 100,
    seed: int = 0,
    workers: int = 1,
    bidder: str = "rules",
    records: str | os.PathLike[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> TournamentResult:
    """Plays a duplicate tournament between the players with specs ``a`` and ``b``.

    - ``mode``: ``"cardplay"`` (``bidder`` bids and declares; A and B play the cards, each once
      as declarer) or ``"full"`` (six seatings, auction included);
    - ``deals``: tournament deals (cardplay: deals with a declarer);
    - ``seed``: every deal and player seed derives from it;
    - ``workers``: worker processes (``spawn``); 1 plays in this process. Each sets
      ``SKAT_THREADS`` to ``cpu_count // workers`` for the players' thread pools;
    - ``records``: a file for every game as one ISS record line, in deal then seating order;
    - ``progress(done, total)``: called when play starts and after every finished deal.

    Unknown players or options raise :class:`skat.players.PlayerSpecError` before any game.
    A KeyboardInterrupt stops the run: the result then has ``complete=False`` and covers the
    deals finished so far.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    if deals < 1:
        raise ValueError("deals must be at least 1")
    if workers < 1:
        raise ValueError("workers must be at least 1")
    for spec in (a, b, *([bidder] if mode == "cardplay" else [])):
        make_player(spec)  # raises PlayerSpecError before any game
    specs = (a, b)
    labels = player_labels(a, b)
    started = time.perf_counter()
    outcomes: dict[int, DealOutcome] = {}
    candidates: int | None = None
    passed_out: int | None = None
    complete = False
    writer = _RecordWriter(records)

    def finished(outcome: DealOutcome) -> None:
        writer.add(outcome)
        games = tuple(replace(g, record="") for g in outcome.games)
        outcomes[outcome.index] = replace(outcome, games=games)
        if progress is not None:
            progress(len(outcomes), deals)

    try:
        with _threads_env(1) if workers == 1 else nullcontext():
            if mode == "cardplay":
                tasks, failed, candidates = _choose_deals(deals, seed, bidder, specs, labels)
                passed_out = candidates - len(tasks) - len(failed)
            else:
                tasks = [
                    _DealTask(
                        index=j,
                        candidate=j,
                        deal_seed=deal_seed(seed, j),
                        play_seed=derive_seed(seed, j, _STREAM_PLAY),
                        specs=specs,
                        labels=labels,
                        seed=seed,
                    )
                    for j in range(deals)
                ]
                failed = []
            if progress is not None:
                progress(0, deals)
            for outcome in failed:
                finished(outcome)
            if workers == 1:
                for task in tasks:
                    finished(_play_deal(task))
            else:
                context = multiprocessing.get_context("spawn")
                with context.Pool(workers, _init_worker, (workers,)) as pool:
                    for outcome in pool.imap_unordered(_play_deal, tasks, chunksize=1):
                        finished(outcome)
            complete = True
    except KeyboardInterrupt:
        complete = False
    finally:
        writer.close()
    done = [outcomes[i] for i in sorted(outcomes)]
    stats_a, stats_b, paired = summarize(done, *labels)
    return TournamentResult(
        mode=mode,
        seed=seed,
        deals=deals,
        a=labels[0],
        b=labels[1],
        specs=specs,
        bidder=bidder if mode == "cardplay" else None,
        players={labels[0]: stats_a, labels[1]: stats_b},
        paired_difference=paired,
        errors=[e for d in done for e in d.errors],
        complete=complete,
        outcomes=done,
        candidates=candidates,
        passed_out=passed_out,
        seconds=time.perf_counter() - started,
        workers=workers,
    )


def write_json(result: TournamentResult, path: str | os.PathLike[str]) -> None:
    """Writes ``result.to_json()`` to a file (indented)."""
    Path(path).write_text(json.dumps(result.to_json(), indent=2) + "\n", encoding="utf-8")
