"""How often paranoid search proves a hand game sure in the auction (solver thesis ch. 6.3).

For every seat of random deals, the ``kermit`` bidder's test at the lowest bid
(:meth:`skat.players.kermit.KermitPlayer.sure_game`: null always, a suit or grand game when it
is the learned best hand game with a win probability of at least 0.9) is run and timed. The
result counts the sure games by contract and gives the time per hand. Deal ``j`` is
``Deal.random(deal_seed(seed, j))``.

>>> r = survey(2, seed=1)
>>> r["hands"], sorted(r) == sorted(["hands", "deals", "seed", "budget", "sure", "seconds"])
(6, True)
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from skat._core import ArgumentError, Deal, Game
from skat.defaults import PARANOID_BID_NODES
from skat.seeds import deal_seed

__all__ = ["survey"]


def survey(
    deals: int,
    seed: int,
    budget: int = PARANOID_BID_NODES,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Sure hand games on ``deals`` random deals, every seat at the lowest bid: the count by
    contract and the seconds per hand (mean, median, 99th percentile, max)."""
    from skat.players.kermit import KermitPlayer

    if deals < 1:
        raise ArgumentError(f"deals must be at least 1, got {deals}")
    player = KermitPlayer(paranoid_bid=budget, threads=1)
    found: Counter[str] = Counter()
    times: list[float] = []
    for j in range(deals):
        game = Game(Deal.random(deal_seed(seed, j)))
        for seat in range(3):
            player.new_game(seat=seat, seed=seed)
            start = time.perf_counter()
            sure = player.sure_game(game.view(seat), 18)
            times.append(time.perf_counter() - start)
            if sure is not None:
                found[str(sure.contract)] += 1
        if progress is not None:
            progress(j + 1, deals)
    times.sort()
    n = len(times)
    return {
        "deals": deals,
        "seed": seed,
        "budget": budget,
        "hands": n,
        "sure": dict(sorted(found.items())),
        "seconds": {
            "mean": sum(times) / n,
            "median": times[n // 2],
            "p99": times[min(n - 1, int(0.99 * n))],
            "max": times[-1],
        },
    }
