"""The ``pimc`` player: Kermit's Perfect Information Monte Carlo card play.

At each card-play decision it samples worlds consistent with what its seat knows (own cards,
played cards, voids shown, the skat or its own discard, an ouvert hand), values every legal
card in each world with the open-handed solver using Kermit's payoff (win/loss, then
schneider, then card points as a tie-break; null: win/loss, then how late the declarer is
forced to take a trick), averages over the worlds and plays the best card. The worlds are
solved on ``threads`` threads. Bidding, the skat and the declaration are the ``rules``
player's (the ``kermit`` player bids by its learned evaluation instead).

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
  (``skat bench solver --pcut``);
- ``pcut_window``: with ``pcut``, the ProbCut search's MTD(f) probe window in card points
  (default: the solver's zero windows; ``skat bench solver --pcut-window``);
- ``paranoid``: the thesis's paranoid move filter for the declarer once she holds at most this
  many cards (default 0, off; 10 from the first card): when she can guarantee her win whatever
  the hidden cards and however the defenders play (:func:`skat.paranoid_keeping_cards`), she
  plays the best card that keeps the guarantee. A paranoid search takes seconds to minutes at
  ten cards, about a second at seven and milliseconds from five;
- ``tables``: a directory of endgame lookup tables (``skat tables build``; default: the
  ``SKAT_TABLES`` environment variable, else none): the same values with fewer nodes;
- ``kontra``, ``re``: at a table with Kontra and Re, the share of worlds its side must win
  after its best card to say Kontra as a defender (default
  :data:`skat.defaults.KONTRA_THRESHOLD`, 0.7) or Re as the declarer (default
  :data:`skat.defaults.RE_THRESHOLD`, 0.8); above 1: never.

>>> from skat.players import make_player
>>> p = make_player("pimc:worlds=20,threads=1")
>>> p.new_game(seat=0, seed=7)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from skat._core import (
    Action,
    Card,
    Phase,
    Pimc,
    PimcDecision,
    View,
    paranoid_keeping_cards,
    paranoid_target,
    ramsch_decide,
)
from skat.defaults import (
    KONTRA_THRESHOLD,
    PIMC_TT_MB,
    RAMSCH_WORLDS,
    RE_THRESHOLD,
    WORLDS,
    default_threads,
)
from skat.players.base import check_option, register
from skat.players.ramsch import ramsch_rules_action
from skat.players.rules import RulesPlayer
from skat.tables import resolve as resolve_tables

__all__ = [
    "PimcPlayer",
    "default_threads",
    "doubling_action",
    "just_doubled",
    "paranoid_filter",
    "paranoid_target",
    "position_key",
]


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
        pcut_window: int | None = None,
        kontra: float = KONTRA_THRESHOLD,
        re: float = RE_THRESHOLD,
        paranoid: int = 0,
        tables: str | None = None,
    ) -> None:
        for name, value in (("worlds", worlds), ("seconds", seconds), ("threads", threads)):
            check_option(name, value)
        for name, value in (("tt_mb", tt_mb), ("seed", seed), ("pcut", pcut)):
            check_option(name, value)
        check_option("pcut_window", pcut_window)
        # without the option the solver's own default window
        window = {} if pcut_window is None else {"pcut_window": pcut_window}
        check_option("kontra", kontra)
        check_option("re", re)
        self.kontra = kontra
        self.re = re
        check_option("paranoid", paranoid)
        self.paranoid = paranoid
        self.engine = Pimc(
            worlds=worlds,
            threads=threads if threads is not None else default_threads(),
            points=points,
            tt_mb=tt_mb,
            seconds=seconds,
            pcut=pcut,
            tables=resolve_tables(tables),
            **window,
        )
        self.seed = seed
        self.game_seed = 0
        self.rules = RulesPlayer()
        self.last_decision: PimcDecision | None = None
        self._decided_at: tuple[int, int, int] | None = None
        """(seat, cards played, Kontra level) of ``last_decision``."""

    def new_game(self, seat: int, seed: int) -> None:
        self.game_seed = seed
        self._decided_at = None
        self.rules.new_game(seat, seed)
        self.last_decision = None

    def sample_seed(self, view: View) -> int:
        """A different, reproducible sampling seed at every decision of the game."""
        return (self.game_seed * 1_000_003 + self.seed * 7_919 + len(view.played)) & ((1 << 64) - 1)

    def decide(self, view: View) -> PimcDecision:
        """The full decision (every legal card's value) for the seat to move in card play."""
        return self.engine.decide(view, self.sample_seed(view))

    def ramsch_act(self, view: View) -> Action:
        """A Ramsch: the rules player's skat round and first trick, then the Ramsch search
        over at most :data:`skat.defaults.RAMSCH_WORLDS` worlds."""
        legal = view.legal_actions()
        if view.phase != Phase.PLAY or not view.tricks or len(legal) == 1:
            return ramsch_rules_action(view)
        worlds = min(self.engine.worlds, RAMSCH_WORLDS)
        best = ramsch_decide(view, worlds, self.sample_seed(view))["best"]
        return next(a for a in legal if a.card == best)

    def act(self, view: View) -> Action | str:
        if view.ramsch:
            return self.ramsch_act(view)
        if view.phase != Phase.PLAY:
            return self.rules.act(view)
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        last = self.last_decision
        if last is not None and just_doubled(self._decided_at, view):
            decision = last  # the same position, just after this seat said Kontra or Re
        else:
            decision = self.decide(view)
        self.last_decision = decision
        self._decided_at = position_key(view)
        doubling = doubling_action(legal, decision.values, self.kontra, self.re)
        if doubling is not None:
            return doubling
        best = decision.best
        if view.seat == view.declarer and len(view.hand) <= self.paranoid:
            best = paranoid_filter(view, decision)
        return next(a for a in legal if a.card == best)


class _WinShare(Protocol):
    """A card's value in a decision: the share of worlds or playouts the seat's side wins."""

    @property
    def win(self) -> float: ...


def position_key(view: View) -> tuple[int, int, int]:
    """Where a card-play decision was made: the seat, the cards played and the doubling level."""
    return (view.seat, len(view.played), view.kontra)


def just_doubled(decided_at: tuple[int, int, int] | None, view: View) -> bool:
    """``view`` is the position of the decision made at ``decided_at`` (a
    :func:`position_key`) right after the same seat said Kontra or Re there: the decision
    still holds, and the seat now plays its card."""
    return decided_at == (view.seat, len(view.played), view.kontra - 1)


def doubling_action(
    legal: Sequence[Action], values: Sequence[_WinShare], kontra: float, re: float
) -> Action | None:
    """Kontra or Re when one is legal and the seat's side wins at least that share
    (``kontra`` for Kontra, ``re`` for Re) after its best card: the largest ``win`` of
    ``values``, the decision's card values. ``None``: play a card."""
    doubling = next((a for a in legal if a.kind in ("kontra", "re")), None)
    if doubling is None:
        return None
    win = max(v.win for v in values)
    return doubling if win >= (kontra if doubling.kind == "kontra" else re) else None


def paranoid_filter(view: View, decision: PimcDecision) -> Card:
    """The best card of ``decision`` (best first) that keeps the declarer's guaranteed win, or
    its best card when she has no guarantee (the thesis's paranoid move filter)."""
    keep = paranoid_keeping_cards(view, paranoid_target(view))
    if keep is None or decision.best in keep:
        return decision.best
    return next(v.card for v in decision.values if v.card in keep)
