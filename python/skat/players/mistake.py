"""The ``mistake`` player: the thesis's synthetic MistakeX, a card player of chosen strength.

It is told the true deal (``omniscient``) and, at every card decision with more than one
legal card, classes each legal card as winning or losing for its side with all hands open
(:func:`skat.analysis.card_outcomes`, the same verdict as the post-mortem analysis). When both
kinds exist it must play a losing card with probability D(m) and a winning card otherwise,
where for the rate ``m``

- D(m) = m + 0.07 in trick 1,
- D(m) = max(0, m - 0.01 (trick - 1)) in later tricks,

so that its mistake rate falls with the trick number. The thesis chose D so that the global
rate comes out close to m over its games; over ours, where mistake opportunities are spread
more evenly over the tricks, the literal D(m) gives less (about m - 0.026 for m >= 0.1). So by
default (``calibrated=true``) D is evaluated at the rate m' for which the mean of D(m', trick)
weighted by :data:`skat.defaults.MISTAKE_TRICK_SHARES` (the share of its opportunities in each
trick, measured) is m (:func:`calibrated_rate`); ``calibrated=false`` uses m itself.
Within the chosen kind, and whenever only one kind exists, the card is the one Kermit's PIMC
search (over worlds drawn as ``kermit`` draws them, ignoring the true deal) ranks highest.
Bidding, the skat and the declaration are ``kermit``'s with its ``threshold`` (default 0.6) and
``unopposed`` (default 0.5). Each decision's coin comes from the game seed, the ``seed`` option
and the card number, so a game replays exactly.

Options (spec ``mistake:rate=0.1,threshold=0.7,worlds=20``): ``rate`` (m, 0..1),
``calibrated`` (default true) and every ``kermit`` option.

>>> from skat.players import make_player
>>> p = make_player("mistake:rate=0.25,worlds=8,threads=1")
>>> p.rate, p.threshold, p.omniscient
(0.25, 0.6, True)
>>> [round(mistake_probability(0.1, t), 2) for t in (1, 2, 5, 10)]
[0.17, 0.09, 0.06, 0.01]
>>> round(calibrated_rate(0.1), 3)
0.126
"""

from __future__ import annotations

import random
from typing import Any

from skat._core import Action, Game, Phase, Position, Solver, View
from skat.analysis.pipma import card_outcomes, target_of
from skat.defaults import (
    MISTAKE_RATE,
    MISTAKE_TRICK_SHARES,
    PIPMA_TT_MB,
)
from skat.players.base import PlayerSpecError, register
from skat.players.kermit import KermitPlayer
from skat.seeds import derive_seed

__all__ = ["MistakePlayer", "calibrated_rate", "mistake_probability"]

FIRST_TRICK_EXTRA = 0.07
"""D(m) in trick 1 is m plus this."""

DECLINE_PER_TRICK = 0.01
"""D(m) falls by this much per trick after the first."""


def mistake_probability(rate: float, trick: int) -> float:
    """D(m): the chance of a forced losing card in ``trick`` (1..10) for the rate ``m``."""
    if trick <= 1:
        return min(1.0, rate + FIRST_TRICK_EXTRA)
    return max(0.0, rate - DECLINE_PER_TRICK * (trick - 1))


def calibrated_rate(rate: float, shares: tuple[float, ...] = MISTAKE_TRICK_SHARES) -> float:
    """The m' whose D(m', trick), weighted by the opportunities' ``shares`` per trick, has
    mean ``rate`` (bisection; 1.0 when even m' = 1 falls short)."""
    total = sum(shares)

    def mean(x: float) -> float:
        return sum(w * mistake_probability(x, t + 1) for t, w in enumerate(shares)) / total

    if mean(1.0) < rate:
        return 1.0
    lo, hi = 0.0, 1.0
    for _ in range(50):
        mid = (lo + hi) / 2
        if mean(mid) < rate:
            lo = mid
        else:
            hi = mid
    return hi


@register("mistake")
class MistakePlayer(KermitPlayer):
    """Synthetic MistakeX: sees the deal, errs with chance D(m) when it can; kermit otherwise."""

    omniscient = True

    def __init__(
        self,
        rate: float = MISTAKE_RATE,
        calibrated: bool = True,
        **kermit: Any,
    ) -> None:
        if not 0.0 <= rate <= 1.0:
            raise PlayerSpecError(f"rate must be in [0, 1], got {rate}")
        super().__init__(**kermit)
        self.rate = rate
        self.calibrated = calibrated
        self.d_rate = calibrated_rate(rate) if calibrated and rate > 0 else rate
        """The m at which D is evaluated."""
        self.game: Game | None = None
        self.solver = Solver(tt_mb=PIPMA_TT_MB)

    def new_game(self, seat: int, seed: int, game: Game | None = None) -> None:
        super().new_game(seat, seed)
        self.game = game
        self.solver.clear()

    def _coin(self, view: View) -> random.Random:
        return random.Random(derive_seed(self.game_seed, self.seed, len(view.played)))

    def act(self, view: View) -> Action | str:
        game = self.game
        if view.phase != Phase.PLAY or game is None or game.contract is None or view.ramsch:
            return super().act(view)
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        outcome = card_outcomes(Position.from_game(game), target_of(game), self.solver)
        winning = {c for c, w in outcome.items() if w}
        losing = set(outcome) - winning
        allowed = set(outcome)
        if winning and losing:
            trick = len(view.tricks) + 1
            err = self._coin(view).random() < mistake_probability(self.d_rate, trick)
            allowed = losing if err else winning
        if len(allowed) == 1:
            card = next(iter(allowed))
        else:
            decision = self.decide(view)
            self.last_decision = decision
            card = next(v.card for v in decision.values if v.card in allowed)
        return next(a for a in legal if a.card == card)
