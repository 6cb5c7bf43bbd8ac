"""What a duplicate tournament produces: game and deal outcomes, the players' statistics and
the JSON report (:func:`skat.tournament.run` plays the deals; this module only counts).

Invariants: a deal with any :class:`GameError` (or without games) is left out of every
statistic; a player's score in a game is the mean Seeger-Fabian score of the seats it holds;
``points_per_list`` is :data:`LIST_GAMES` times the mean score per game, its standard error is
taken over deals (never over games, which share their cards), and the paired difference
compares A and B deal by deal. Nothing here depends on how many workers played: the
statistics sort the deals by index first. The JSON keys of :meth:`TournamentResult.to_json` are
the report's public format.
"""

from __future__ import annotations

import json
import math
import os
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from skat.display import json_ready

__all__ = [
    "CLONE_SEATINGS",
    "FULL_SEATINGS",
    "LIST_GAMES",
    "MODES",
    "DealOutcome",
    "GameError",
    "GameOutcome",
    "Mode",
    "PairedDifference",
    "PlayerStats",
    "TournamentResult",
    "game_score",
    "parse_record_id",
    "player_labels",
    "record_id",
    "seat_labels",
    "summarize",
    "write_json",
]

Mode = Literal["cardplay", "full", "clones"]
MODES: tuple[Mode, ...] = ("cardplay", "full", "clones")
"""The tournament modes."""

FULL_SEATINGS = ("ABB", "BAB", "BBA", "AAB", "ABA", "BAA")
"""The seatings of a full-mode deal: the letter at index ``i`` is the player at seat ``i``."""

CLONE_SEATINGS = ("ABB", "BAB", "BBA")
"""The seatings of a clones-mode deal: candidate A against two clones of B."""

LIST_GAMES = 36
"""Games in a list: scores are reported per 36 games."""

Z95 = 1.96
"""The normal quantile of a two-sided 95% interval."""


def player_labels(a: str, b: str) -> tuple[str, str]:
    """How the two players are named: their specs, or ``"A: spec"`` / ``"B: spec"`` when equal."""
    if a == b:
        return f"A: {a}", f"B: {b}"
    return a, b


def seat_labels(labels: tuple[str, str], seating: str) -> list[str]:
    """The players' labels by seat in a seating such as ``"ABB"``."""
    return [labels[0] if c == "A" else labels[1] for c in seating]


def record_id(seed: int, deal: int, seating: str) -> str:
    """A tournament game's record ID, ``SEED-DEAL-SEATING``."""
    return f"{seed}-{deal}-{seating}"


def parse_record_id(rid: str | None) -> tuple[str, int, str] | None:
    """``(seed, deal, seating)`` of a tournament record ID (:func:`record_id`), else ``None``."""
    parts = (rid or "").rsplit("-", 2)
    if len(parts) != 3 or not parts[1].isdigit():
        return None
    return parts[0], int(parts[1]), parts[2]


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


def mean_interval(
    values: Sequence[float],
) -> tuple[float | None, float | None, list[float] | None]:
    """The mean of ``values``, its standard error and 95% interval (None where undefined)."""
    mean = statistics.fmean(values) if values else None
    se = standard_error(values)
    ci = [mean - Z95 * se, mean + Z95 * se] if mean is not None and se else None
    return mean, se, ci


def standard_error(values: Sequence[float]) -> float | None:
    """The standard error of the mean of ``values`` (None with fewer than two)."""
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
            stderr=standard_error(per_deal[letter]),
            games=len(games),
            declarer_games=declared[letter],
            declarer_wins=won[letter],
        )

    mean = statistics.fmean(diffs) if diffs else None
    se = standard_error(diffs)
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
    workers: int | None = 1
    """Worker processes, or on Ray the most tasks at once (``None``: every CPU of the cluster)."""
    variants: str = ""
    """Table variants of every game (``"kontra"``; empty: the International Skat Order)."""
    resumed_deals: int = 0
    """Deals read back from the record file instead of played (``resume``)."""

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
        """The JSON report. Only ``seconds``, ``workers`` and ``resumed_deals`` depend on how
        the run went; ``wall_clock=False`` leaves them out (the rest is fixed by the arguments
        and seed)."""
        out: dict[str, Any] = {
            "mode": self.mode,
            "seed": self.seed,
            "deals": self.deals,
        }
        if self.bidder is not None:
            out["bidder"] = self.bidder
        if self.variants:
            out["variants"] = self.variants
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
            out["resumed_deals"] = self.resumed_deals
        return out


def write_json(result: TournamentResult, path: str | os.PathLike[str]) -> None:
    """Writes ``result.to_json()`` to a file (indented; a number that is not finite as
    ``null``, :func:`skat.display.json_ready`)."""
    data = json_ready(result.to_json())
    Path(path).write_text(json.dumps(data, indent=2, allow_nan=False) + "\n", encoding="utf-8")
