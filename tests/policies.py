"""Seeded random policies that produce realistic games (mostly low bids, pick-ups, ten
tricks) for invariant sweeps and cross-checks; uniform random play mostly ends in wild
overbid hand games that stop after one trick."""

from __future__ import annotations

import random

import skat


def sensible_random_action(game: skat.Game, rng: random.Random) -> skat.Action:
    """A random legal action, biased towards what real tables do."""
    actions = game.legal_actions()
    kinds = {a.kind for a in actions}
    if "bid" in kinds and rng.random() < 0.45:
        bids = [a for a in actions if a.kind == "bid"]
        return bids[min(len(bids) - 1, int(rng.random() * 3))]
    if "hold" in kinds:
        return actions[0] if rng.random() < 0.6 else actions[-1]
    if "pickup" in kinds and rng.random() < 0.75:
        return actions[0]
    return rng.choice(actions)


def random_sensible_game(seed: int) -> skat.Game:
    rng = random.Random(seed)
    game = skat.Game(skat.Deal.random(seed))
    while not game.is_over:
        game.apply(sensible_random_action(game, rng))
    return game
