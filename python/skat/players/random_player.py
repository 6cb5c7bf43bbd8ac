"""The ``random`` player: uniformly random legal actions."""

from __future__ import annotations

import random

from skat._core import Action, View
from skat.players.base import register


@register("random")
class RandomPlayer:
    """Uniformly random legal actions (reproducible from seed and game seed)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def new_game(self, seat: int, seed: int) -> None:
        self.rng = random.Random(f"{self.seed}/{seed}/{seat}")

    def act(self, view: View) -> Action:
        return self.rng.choice(view.legal_actions())
