"""The ``cheater``: sees every card and plays the open-handed optimum (the thesis's "Perfect").

Bidding, the skat and the declaration are the ``rules`` player's; card play values every legal
card in the one true world with the same payoff as ``pimc`` (win/loss, then schneider, then
card points; null: win/loss, then how late the declarer is forced to take a trick).
"""

from __future__ import annotations

from skat._core import Action, Game, Phase, Pimc, View
from skat.defaults import PIMC_TT_MB
from skat.players.base import register
from skat.players.rules import RulesPlayer


@register("cheater")
class CheaterPlayer:
    """Sees every card: rules-player bidding, perfect open-handed card play."""

    omniscient = True

    def __init__(self, tt_mb: int = PIMC_TT_MB) -> None:
        self.rules = RulesPlayer()
        self.engine = Pimc(worlds=1, threads=1, points=True, tt_mb=tt_mb)
        self.game: Game | None = None

    def new_game(self, seat: int, seed: int, game: Game | None = None) -> None:
        self.game = game
        self.rules.new_game(seat, seed)

    def act(self, view: View) -> Action | str:
        if view.phase != Phase.PLAY or self.game is None or view.ramsch:
            return self.rules.act(view)
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        world = (self.game.hands, self.game.skat)
        best = self.engine.decide(view, worlds=[world]).best
        return next(a for a in legal if a.card == best)
