"""Declarer calibration (the Kermit thesis's Fig. 7.4): how a player's declarer games turned
out against the win chance its bidding predicted.

For every game a player declared (not a Ramsch), the prediction is the one Kermit bids with
and ``tracker`` learns from (eq. 7.1's pWin): the 10+2 evaluation
(:meth:`skat.bidding.BiddingModel.tables`) of its initial ten cards, from its seat, at the
final bid. The error is won (1 or 0) minus that chance; its mean over the games is positive
when the player wins more often than it predicted (weak opponents), negative when less.

>>> c = DeclarerCalibration()
>>> c.add(True, 0.75); c.add(False, 0.5)
>>> c.games, c.mean
(2, -0.125)
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

from skat._core import Game
from skat.analysis.pipma import game_names
from skat.bidding.model import BiddingModel, default_model

__all__ = ["DeclarerCalibration", "declarer_errors"]


@dataclass
class DeclarerCalibration:
    """One player's declarer games: won minus predicted win chance, game by game."""

    errors: list[float] = field(default_factory=list)

    def add(self, won: bool, predicted: float) -> None:
        """Adds one declarer game."""
        self.errors.append(float(won) - predicted)

    @property
    def games(self) -> int:
        return len(self.errors)

    @property
    def mean(self) -> float | None:
        """Mean of won - predicted (None without games)."""
        return statistics.fmean(self.errors) if self.errors else None

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict: games, mean and its standard error."""
        return {"games": self.games, "mean": self.mean, "stderr": self.stderr}

    @property
    def stderr(self) -> float | None:
        """The standard error of the mean (None with fewer than two games)."""
        if len(self.errors) < 2:
            return None
        return float(statistics.stdev(self.errors) / len(self.errors) ** 0.5)


def declarer_errors(
    game: Game, model: BiddingModel | None = None
) -> tuple[str, bool, float] | None:
    """(declarer's name, won, predicted win chance) of a finished declarer game, else None."""
    result = game.result
    declarer = game.declarer
    if result is None or declarer is None or game.ramsch or game.bid < 18:
        return None
    model = model if model is not None else default_model()
    values, _ = model.tables.evaluate(game.deal.hands[declarer], declarer, [game.bid])
    return game_names(game)[declarer], bool(result.won), float(values[0])
