"""The bidding-threshold estimate (the Kermit thesis's section 8.3, Fig. 8.2): which threshold
T best explains a player's auctions if it bid like Kermit, whenever the 10+2 win chance of its
hand at the bid in question is above T?

From a game's deal and auction, every player whose initial hand is public after the game (the
defenders, and the declarer of a hand game: a declarer who picked up the skat is skipped, as in
the thesis, since on a server her initial hand stays hidden) gives at most two inequalities:

- her highest bid or hold at ``b``: she was willing, so T <= P(hand, b);
- her pass, at the bid she declined (the bid held to her, or the next bid she could have
  said): so T > P(hand, that bid);

with P the 10+2 evaluation (:meth:`skat.bidding.BiddingModel.tables`, the one ``kermit`` bids
with). The hinge loss of a threshold T sums max(0, T - P) over the first kind and
max(0, P - T) over the second; it is convex and piecewise linear, and the estimate is its
minimum on a grid of :data:`GRID` + 1 thresholds in 0..1 (the lowest one of a flat minimum's
grid points). A true threshold player's inequalities are all satisfied at its threshold, so
its loss there is 0.

>>> est = ThresholdEstimate()
>>> est.add(True, 0.7); est.add(False, 0.4)
>>> round(est.estimate(), 3), est.loss(0.5)
(0.4, 0.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from skat._core import Game, Phase, bids
from skat.analysis.pipma import game_names
from skat.bidding.model import BiddingModel, default_model

__all__ = ["GRID", "ThresholdEstimate", "bidding_points", "estimate_thresholds"]

GRID = 200
"""The estimate's grid: thresholds 0, 1/GRID, ..., 1."""

BIDS = bids()


@dataclass
class ThresholdEstimate:
    """One player's bidding inequalities and their hinge loss."""

    bids: list[float] = field(default_factory=list)
    """P at each highest bid or hold (T should be at most these)."""
    passes: list[float] = field(default_factory=list)
    """P at each pass (T should be above these)."""

    def add(self, bid: bool, p: float) -> None:
        """Adds one inequality: a bid (or hold) or a pass at win chance ``p``."""
        (self.bids if bid else self.passes).append(p)

    def loss(self, t: float) -> float:
        """The hinge loss of threshold ``t``."""
        return sum(max(0.0, t - p) for p in self.bids) + sum(max(0.0, p - t) for p in self.passes)

    def losses(self) -> np.ndarray:
        """The hinge loss at every grid threshold, computed at once."""
        t = np.arange(GRID + 1) / GRID
        b = np.asarray(self.bids, dtype=float)
        p = np.asarray(self.passes, dtype=float)
        loss: np.ndarray = np.maximum(0.0, t[:, None] - b[None, :]).sum(axis=1) + np.maximum(
            0.0, p[None, :] - t[:, None]
        ).sum(axis=1)
        return loss

    def curve(self) -> list[tuple[float, float]]:
        """(T, loss) on the grid."""
        return [(k / GRID, float(loss)) for k, loss in enumerate(self.losses())]

    def estimate(self) -> float | None:
        """The grid threshold of least loss, the lowest of a flat minimum (None without data)."""
        if not self.bids and not self.passes:
            return None
        return float(np.argmin(np.round(self.losses(), 12)) / GRID)

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict: the estimate, its loss, the counts and the loss curve."""
        t = self.estimate()
        return {
            "threshold": t,
            "loss": None if t is None else self.loss(t),
            "bids": len(self.bids),
            "passes": len(self.passes),
            "curve": [[t_, loss] for t_, loss in self.curve()] if t is not None else [],
        }


def bidding_points(game: Game, model: BiddingModel | None = None) -> list[tuple[int, bool, float]]:
    """(seat, bid?, P) of one game's auction: each public hand's highest bid or hold and its
    pass (see the module text)."""
    model = model if model is not None else default_model()
    declarer = game.declarer
    hand_game = game.contract is not None and game.contract.hand
    replay = Game(game.deal, variants=game.variants)
    top: dict[int, int] = {}
    passed: dict[int, int] = {}
    for _, action in game.history:
        if replay.phase != Phase.BIDDING:
            break
        seat = replay.to_move
        assert seat is not None
        view = replay.view(seat)
        if action.kind == "hold":
            top[seat] = view.bid
        elif action.kind == "bid" and action.bid is not None:
            top[seat] = action.bid
        elif action.kind == "pass":
            legal = view.legal_actions()
            if any(a.kind == "hold" for a in legal):
                passed[seat] = view.bid
            else:
                offers = [a.bid for a in legal if a.kind == "bid" and a.bid is not None]
                if offers:
                    passed[seat] = min(offers)
        replay.apply(action)
    out: list[tuple[int, bool, float]] = []
    for seat in range(3):
        if seat == declarer and not hand_game:
            continue
        if seat not in top and seat not in passed:
            continue
        values, _ = model.tables.evaluate(game.deal.hands[seat], seat, BIDS)
        p_at = dict(zip(BIDS, values, strict=True))
        if seat in top:
            out.append((seat, True, p_at[top[seat]]))
        if seat in passed:
            out.append((seat, False, p_at[passed[seat]]))
    return out


def estimate_thresholds(
    games: Sequence[Game], model: BiddingModel | None = None
) -> dict[str, ThresholdEstimate]:
    """The inequalities of every player name over ``games`` (names from the records)."""
    model = model if model is not None else default_model()
    out: dict[str, ThresholdEstimate] = {}
    for game in games:
        names = game_names(game)
        for seat, bid, p in bidding_points(game, model):
            out.setdefault(names[seat], ThresholdEstimate()).add(bid, p)
    return out
