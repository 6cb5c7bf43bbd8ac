"""Learning the auction tables: our bidder on random deals, features counted per outcome.

For each deal three instances of the bidder (by default ``kermit``, the player whose auctions
the tables will read) bid; the auction's outcome for each seat (:func:`skat._core.
auction_outcomes`: passed without bidding, passed after bidding, or won, with the value
binned) is recorded with the features of that seat's ten cards. Passed-out deals count too:
all three outcomes are passes. The counts are all that is kept; :class:`skat.inference.
InferenceTables` turns them into smoothed log ratios.

Deal ``j`` is ``Deal.random(derive_seed(seed, j))``, so a run is reproducible and can be split
over worker processes without changing the result.

>>> counts, hands = count_auctions(2, seed=5, workers=1)
>>> int(hands.sum())
6
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from skat._core import Cards, Deal, Phase, auction_outcomes
from skat.defaults import TRAIN_BIDDER
from skat.inference import FEATURE_VALUES, OUTCOMES, count_hands
from skat.match import play
from skat.parallel import run_tasks
from skat.players.base import make_player
from skat.seeds import derive_seed


def _auction(bidder: str, seed: int, j: int) -> list[tuple[int, Cards]]:
    """(outcome, ten cards) for the seats of deal ``j`` the auction says something about."""
    deal = Deal.random(derive_seed(seed, j))
    players = [make_player(bidder) for _ in range(3)]
    game = play(players, deal, seed=derive_seed(seed, j, 1), until=Phase.SKAT)
    outcomes = auction_outcomes(game.view(0))
    return [(o, deal.hands[s]) for s, o in enumerate(outcomes) if o is not None]


def _chunk(args: tuple[str, int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    bidder, seed, lo, hi = args
    seen = [pair for j in range(lo, hi) for pair in _auction(bidder, seed, j)]
    return count_hands([h for _, h in seen], [o for o, _ in seen])


def _chunks(deals: int, start: int, size: int) -> Iterator[tuple[int, int]]:
    for lo in range(start, deals, size):
        yield lo, min(deals, lo + size)


def count_auctions(
    deals: int,
    seed: int = 0,
    bidder: str = TRAIN_BIDDER,
    workers: int | None = 1,
    start: int = 0,
    progress: Callable[[int], None] | None = None,
    ray: str | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Feature counts per outcome (``OUTCOMES x FEATURE_VALUES``) and hands per outcome over
    deals ``start .. deals - 1``; ``progress(n)`` is called with the deals done so far. The
    chunks run on ``workers`` local processes or on Ray (:func:`skat.parallel.run_tasks`);
    counts are sums, so the result does not depend on how they ran."""
    counts = np.zeros((OUTCOMES, FEATURE_VALUES), dtype=np.int64)
    hands = np.zeros(OUTCOMES, dtype=np.int64)
    jobs = [(bidder, seed, lo, hi) for lo, hi in _chunks(deals, start, 200)]
    done = 0
    for i, (c, h) in run_tasks(_chunk, jobs, workers=workers, ray=ray):
        counts += c
        hands += h
        done += jobs[i][3] - jobs[i][2]
        if progress is not None:
            progress(done)
    return counts, hands
