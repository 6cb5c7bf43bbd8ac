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
- ``mode="clones"``: candidate ``a`` against two clones of ``b``, whole games in the seatings
  ``ABB BAB BBA``, deal after deal with the same player objects throughout, so that
  modelling players learn as they go (:mod:`skat.tournament_clones`; one process only).

Everything is derived from the tournament seed: candidate deal ``j`` is
``Deal.random(deal_seed(seed, j))``, and the seeds handed to the players' ``new_game`` hooks come
from the same mixing function (:func:`derive_seed`). In the cardplay and full modes every game
builds three fresh players from their specs, so the results are the same whatever the number
of worker processes; the clones mode keeps its three players for the whole run.

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

import os
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, replace
from typing import IO

from skat._core import Deal, Phase
from skat.defaults import THREADS_ENV, TOURNAMENT_BIDDER, local_cores
from skat.match import PlayerFailure, play
from skat.parallel import local_workers, run_tasks
from skat.players.base import Player, make_player
from skat.records import named_record
from skat.seeds import deal_seed, derive_seed
from skat.tournament_clones import play_clones
from skat.tournament_results import (
    FULL_SEATINGS,
    LIST_GAMES,
    MODES,
    DealOutcome,
    GameError,
    GameOutcome,
    Mode,
    PairedDifference,
    PlayerStats,
    TournamentResult,
    game_score,
    player_labels,
    record_id,
    seat_labels,
    summarize,
    write_json,
)
from skat.tournament_resume import read_finished, rewrite
from skat.variants import check_variants

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

_STREAM_AUCTION = 1
_STREAM_PLAY = 2


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
    variants: str = ""
    """Table variants of every game (Kontra and Re)."""


def _named_record(iss: str, task: _DealTask, seating: str) -> str:
    """The ISS record with the tournament's ID and the players' labels as P0..P2."""
    names = seat_labels(task.labels, seating)
    return named_record(iss, "skat tournament", record_id(task.seed, task.index, seating), names)


def _cardplay_seatings(declarer: int) -> tuple[str, str]:
    first = "".join("A" if s == declarer else "B" for s in range(3))
    second = "".join("B" if s == declarer else "A" for s in range(3))
    return first, second


def _seatings(task: _DealTask) -> Sequence[str]:
    """The seatings a deal is played in: cardplay's two around its declarer, or full mode's six."""
    if task.prefix is not None:
        assert task.declarer is not None
        return _cardplay_seatings(task.declarer)
    return FULL_SEATINGS


def _play_deal(task: _DealTask) -> DealOutcome:
    """Plays every seating of one deal (in a worker or in the main process)."""
    deal = Deal.random(task.deal_seed)
    prefix = task.prefix or ()
    games: list[GameOutcome] = []
    errors: list[GameError] = []
    for seating in _seatings(task):
        players = [make_player(task.specs[0] if c == "A" else task.specs[1]) for c in seating]
        try:
            game = play(players, deal, seed=task.play_seed, prefix=prefix, variants=task.variants)
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


@contextmanager
def _every_core() -> Iterator[None]:
    """Players made inside search with every core (``SKAT_THREADS``), as one process plays."""
    old = os.environ.get(THREADS_ENV)
    os.environ[THREADS_ENV] = str(local_cores())
    try:
        yield
    finally:
        if old is None:
            os.environ.pop(THREADS_ENV, None)
        else:
            os.environ[THREADS_ENV] = old


class _RecordWriter:
    """Writes each deal's records in deal order, as soon as all earlier deals are in.

    ``start``: the deals ``0..start-1`` are already in the file, which is appended to."""

    def __init__(self, path: str | os.PathLike[str] | None, start: int = 0) -> None:
        mode = "a" if start else "w"
        self.file: IO[str] | None = (
            open(path, mode, encoding="utf-8") if path is not None else None  # noqa: SIM115
        )
        self.pending: dict[int, DealOutcome] = {}
        self.next = start

    def _write(self, outcome: DealOutcome) -> None:
        assert self.file is not None
        for g in outcome.games:
            if g.record:
                self.file.write(g.record + "\n")

    def add(self, outcome: DealOutcome) -> None:
        if self.file is None or outcome.index < self.next:
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


def _finished_deals(
    records: str | os.PathLike[str],
    seed: int,
    deals: int,
    labels: tuple[str, str],
    tasks: Sequence[_DealTask],
    variants: str,
) -> dict[int, DealOutcome]:
    """The deals among ``tasks`` whose games are all in the record file already, each game
    played with the table ``variants`` (and, cardplay, after the task's auction)."""
    expected = {
        t.index: (t.candidate, Deal.random(t.deal_seed), _seatings(t), t.prefix or ())
        for t in tasks
    }
    return read_finished(records, seed, deals, labels, expected, variants)


def _choose_deals(
    deals: int,
    seed: int,
    bidder: str,
    specs: tuple[str, str],
    labels: tuple[str, str],
    variants: str = "",
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
                variants=variants,
            )
        )
    return tasks, failed, j


def run(
    a: str,
    b: str,
    mode: Mode = "cardplay",
    deals: int = 100,
    seed: int = 0,
    workers: int | None = 1,
    bidder: str = TOURNAMENT_BIDDER,
    records: str | os.PathLike[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    ray: str | None = None,
    variants: str = "",
    resume: bool = False,
) -> TournamentResult:
    """Plays a duplicate tournament between the players with specs ``a`` and ``b``.

    - ``mode``: ``"cardplay"`` (``bidder`` bids and declares; A and B play the cards, each once
      as declarer), ``"full"`` (six seatings, auction included) or ``"clones"`` (A against
      two clones of B, three seatings, deals in order, players kept, in this process:
      ``workers`` 1 or ``None``, no ``ray``);
    - ``deals``: tournament deals (cardplay: deals with a declarer);
    - ``seed``: every deal and player seed derives from it;
    - ``workers``: worker processes (``spawn``; ``None``: every local core); 1 plays in this
      process with every core. The workers share the cores (``SKAT_THREADS`` of
      ``cpu_count // workers`` unless set, :mod:`skat.parallel`);
    - ``ray``: play the deals as Ray tasks instead (``auto``, ``local`` or a cluster
      address, see :mod:`skat.parallel`), each with one solver thread, at most ``workers`` at
      once (``None``: every CPU of the cluster);
    - ``records``: a file for every game as one ISS record line, in deal then seating order;
    - ``progress(done, total)``: called when play starts and after every finished deal;
    - ``variants``: the table variants of every game (``kontra``, ``ramsch``,
      ``schieberamsch``; not in clones mode; Bock rounds need a list played in order).
    - ``resume``: take the deals whose games are all in ``records`` from there instead of
      playing them again (:mod:`skat.tournament_resume`); a missing file starts afresh.

    Unknown players or options raise :class:`skat.players.PlayerSpecError` before any game;
    a record file of another tournament raises :class:`skat.tournament_resume.ResumeError`.
    A KeyboardInterrupt stops the run: the result then has ``complete=False`` and covers the
    deals finished so far.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    if deals < 1:
        raise ValueError("deals must be at least 1")
    if workers is not None and workers < 1:
        raise ValueError("workers must be at least 1")
    variants = check_variants(variants)
    if "bock" in variants.split():
        raise ValueError("Bock rounds need a list played in order (skat play, skat serve)")
    if mode == "clones" and variants:
        raise ValueError("clones mode plays the International Skat Order only")
    if mode == "clones" and (workers not in (1, None) or ray is not None):
        raise ValueError("clones mode plays its deals in order in one process: workers must be 1")
    if resume and (records is None or mode == "clones"):
        raise ValueError("resume needs a record file, and clones mode cannot resume")
    for spec in (a, b, *([bidder] if mode == "cardplay" else [])):
        make_player(spec)  # raises PlayerSpecError before any game
    local = 1 if mode == "clones" else local_workers(workers)  # processes when not on Ray
    specs = (a, b)
    labels = player_labels(a, b)
    started = time.perf_counter()
    outcomes: dict[int, DealOutcome] = {}
    candidates: int | None = None
    passed_out: int | None = None
    complete = False
    writer = _RecordWriter(None)
    resumed = 0

    def finished(outcome: DealOutcome) -> None:
        writer.add(outcome)
        games = tuple(replace(g, record="") for g in outcome.games)
        outcomes[outcome.index] = replace(outcome, games=games)
        if progress is not None:
            progress(len(outcomes), deals)

    try:
        with _every_core() if local == 1 and ray is None else nullcontext():
            if mode == "clones":
                tasks, failed = list[_DealTask](), list[DealOutcome]()
            elif mode == "cardplay":
                tasks, failed, candidates = _choose_deals(
                    deals, seed, bidder, specs, labels, variants
                )
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
                        variants=variants,
                    )
                    for j in range(deals)
                ]
                failed = []
            kept: dict[int, DealOutcome] = {}
            start = 0
            if resume and records is not None:
                kept = _finished_deals(records, seed, deals, labels, tasks, variants)
                tasks = [t for t in tasks if t.index not in kept]
                resumed = len(kept)
                start = rewrite(records, kept)
            writer = _RecordWriter(records, start)
            if progress is not None:
                progress(0, deals)
            for outcome in failed + [kept[i] for i in sorted(kept)]:
                finished(outcome)
            if mode == "clones":
                play_clones(a, b, deals, seed, labels, finished)
            elif local == 1 and ray is None:
                for task in tasks:
                    finished(_play_deal(task))
            else:
                for _, outcome in run_tasks(
                    _play_deal,
                    tasks,
                    workers=workers if ray is not None else local,
                    ray=ray,
                ):
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
        workers=workers if ray is not None else local,
        variants=variants,
        resumed_deals=resumed,
    )
