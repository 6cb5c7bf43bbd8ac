"""The ``pimc`` player: Kermit's Perfect Information Monte Carlo card play.

At each card-play decision it samples worlds consistent with what its seat knows (own cards,
played cards, voids shown, the skat or its own discard, an ouvert hand), values every legal
card in each world with the open-handed solver using Kermit's payoff (win/loss, then
schneider, then card points as a tie-break; null: win/loss, then how late the declarer is
forced to take a trick), averages over the worlds and plays the best card. The worlds are
solved on ``threads`` threads. Bidding, the skat and the declaration are the ``rules``
player's until the learned bidder exists.

Options (spec ``pimc:worlds=160,seed=3``):

- ``worlds``: worlds per decision (default :data:`skat.defaults.WORLDS`, 160, the thesis's
  saturation point);
- ``seconds``: a time budget per decision instead (at most ``worlds`` worlds are used);
- ``points``: exact card points as the tie-break (default on, as in Kermit; off is about ten
  times faster at the first trick and keeps win and schneider);
- ``threads``: solver threads (default: the ``SKAT_THREADS`` environment variable, else the
  number of CPUs);
- ``tt_mb``: transposition table per thread in MB (default :data:`skat.defaults.PIMC_TT_MB`);
- ``seed``: added to the game seed so that different instances sample different worlds;
- ``pcut``: ProbCut in the solver at this confidence (0.5 is the thesis's choice; default 0,
  the exact solver): about twice as many worlds per second, each value an estimate
  (``skat bench solver --pcut``).

>>> from skat.players import make_player
>>> p = make_player("pimc:worlds=20,threads=1")
>>> p.new_game(seat=0, seed=7)
"""

from __future__ import annotations

from skat._core import Action, Phase, Pimc, PimcDecision, View
from skat.defaults import PIMC_TT_MB, WORLDS, default_threads
from skat.players.base import check_option, register
from skat.players.rules import RulesPlayer

__all__ = ["PimcPlayer", "default_threads"]


@register("pimc")
class PimcPlayer:
    """Kermit's card play: Monte Carlo over sampled worlds solved open-handed (rules bidding)."""

    def __init__(
        self,
        worlds: int = WORLDS,
        seconds: float | None = None,
        points: bool = True,
        threads: int | None = None,
        tt_mb: int = PIMC_TT_MB,
        seed: int = 0,
        pcut: float = 0.0,
    ) -> None:
        for name, value in (("worlds", worlds), ("seconds", seconds), ("threads", threads)):
            check_option(name, value)
        check_option("tt_mb", tt_mb)
        check_option("seed", seed)
        check_option("pcut", pcut)
        self.engine = Pimc(
            worlds=worlds,
            threads=threads if threads is not None else default_threads(),
            points=points,
            tt_mb=tt_mb,
            seconds=seconds,
            pcut=pcut,
        )
        self.seed = seed
        self.game_seed = 0
        self.rules = RulesPlayer()
        self.last_decision: PimcDecision | None = None

    def new_game(self, seat: int, seed: int) -> None:
        self.game_seed = seed
        self.rules.new_game(seat, seed)
        self.last_decision = None

    def sample_seed(self, view: View) -> int:
        """A different, reproducible sampling seed at every decision of the game."""
        return (self.game_seed * 1_000_003 + self.seed * 7_919 + len(view.played)) & ((1 << 64) - 1)

    def decide(self, view: View) -> PimcDecision:
        """The full decision (every legal card's value) for the seat to move in card play."""
        return self.engine.decide(view, self.sample_seed(view))

    def act(self, view: View) -> Action | str:
        if view.phase != Phase.PLAY:
            return self.rules.act(view)
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        decision = self.decide(view)
        self.last_decision = decision
        best = decision.best
        return next(a for a in legal if a.card == best)
