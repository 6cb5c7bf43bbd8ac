"""The ``cheater``: sees every card and plays the open-handed optimum (the thesis's "Perfect").

Bidding, the skat and the declaration are the ``rules`` player's; card play asks the solver
for the value of every legal card in the true position and takes the best for its side
(declarer: most card points, or in null the latest forced trick; defenders: the opposite).
"""

from __future__ import annotations

from skat._core import Action, Card, Game, GameType, Phase, Position, Solver, View
from skat.players.base import register
from skat.players.rules import RulesPlayer


def _survival(v: int) -> int:
    return 11 if v == 0 else v


@register("cheater")
class CheaterPlayer:
    """Sees every card: rules-player bidding, perfect open-handed card play."""

    omniscient = True

    def __init__(self, tt_mb: int = 16) -> None:
        self.rules = RulesPlayer()
        self.solver = Solver(tt_mb=tt_mb)
        self.game: Game | None = None

    def new_game(self, seat: int, seed: int, game: Game | None = None) -> None:
        self.game = game
        self.rules.new_game(seat, seed)

    def act(self, view: View) -> Action | str:
        if view.phase != Phase.PLAY or self.game is None:
            return self.rules.act(view)
        pos = Position.from_game(self.game)
        values = self.solver.analyze(pos)
        null = pos.contract.game_type == GameType.NULL
        declarer = view.seat == pos.declarer

        def key(item: tuple[Card, int]) -> tuple[int, int]:
            card, v = item
            score = _survival(v) if null else v
            return (score if declarer else -score, -card.points)

        best = max(values.items(), key=key)[0]
        return next(a for a in view.legal_actions() if a.card == best)
