"""Seeds: the one mixing function from which every reproducible random choice derives.

A run's seed is any integer in ``0 .. SEED_MAX`` (the core's ``u64``). Everything else, a
tournament's deals, a list's games, a player's sampling, training games, derives from it by
:func:`derive_seed`, SplitMix64 over a path of integers, so that the streams of different
purposes (deal ``j``, its auction, its card play) never overlap and a run split over worker
processes gives the same results as one process.

Game ``i`` of a list played with seed ``S`` (``skat play``, ``skat deal``, the tournament's
candidate deal ``i``) is ``Deal.random(deal_seed(S, i))``.

>>> derive_seed(7, 3) == deal_seed(7, 3) != derive_seed(7, 3, 1)
True
>>> 0 <= derive_seed(-1) <= SEED_MAX
True
"""

from __future__ import annotations

SEED_MAX = (1 << 64) - 1
"""The largest seed the core accepts (seeds are unsigned 64-bit integers)."""

_MASK = SEED_MAX


def _splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def derive_seed(seed: int, *path: int) -> int:
    """A 64-bit seed mixed (SplitMix64) from a run's seed and a path of integers.

    Any integer is accepted (taken modulo 2**64); the result fits ``Deal.random``.
    """
    x = _splitmix64(seed & _MASK)
    for part in path:
        x = _splitmix64(x ^ (part & _MASK))
    return x


def deal_seed(seed: int, j: int) -> int:
    """The seed of deal ``j`` of a run: the deal is ``Deal.random(deal_seed(seed, j))``."""
    return derive_seed(seed, j)


def wrap_seed(seed: int) -> int:
    """``seed`` taken modulo 2**64, for loops that step a seed by adding to it."""
    return seed & _MASK
