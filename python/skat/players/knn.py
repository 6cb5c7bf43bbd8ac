"""The ``knn`` player: a KNNDDSS-style baseline, k-nearest-neighbour bidding on double-dummy
labelled hands (:mod:`skat.bidding.knn`) and PIMC card play over uniform worlds (no
inference), as in Kermit's Table 4.2.

Bidding: for each suit and grand the model predicts the card points the hand would make
open-handed; the kinds predicted at ``threshold`` card points or more are playable, and the
player bids or holds while the next bid is at most the highest value (base value times
matadors plus one, from the dealt cards) among them. After winning the auction it picks up the
skat, puts away two cards as the ``rules`` player does, and declares the playable kind (at the
bid) with the most predicted card points. It never plays null or hand games.

Options: ``model`` (the ``.npz`` of ``skat train knn``; required), ``threshold`` (card points,
default 51), ``k`` (neighbours, default: the model's), and every ``pimc`` option.
"""

from __future__ import annotations

from typing import ClassVar

from skat._core import Action, GameType, Phase, View
from skat.bidding.knn import KNN_TYPES, KnnModel
from skat.defaults import KNN_THRESHOLD, PIMC_TT_MB, WORLDS
from skat.players.base import PlayerSpecError, register
from skat.players.pimc import PimcPlayer
from skat.players.rules import game_value

THRESHOLD_POINTS = (0.0, 120.0)
"""The range of the ``threshold`` option: card points."""


@register("knn")
class KnnPlayer(PimcPlayer):
    """KNNDDSS-style: k-NN bidding on double-dummy labels, PIMC card play without inference."""

    option_ranges: ClassVar[dict[str, tuple[float | None, float | None]]] = {
        "threshold": THRESHOLD_POINTS
    }
    """``threshold`` is in card points here, not a win probability."""

    def __init__(
        self,
        model: str = "",
        threshold: float = KNN_THRESHOLD,
        k: int = 0,
        worlds: int = WORLDS,
        seconds: float | None = None,
        points: bool = True,
        threads: int | None = None,
        tt_mb: int = PIMC_TT_MB,
        seed: int = 0,
    ) -> None:
        if not model:
            raise PlayerSpecError("knn needs model=FILE (made by 'skat train knn')")
        lo, hi = THRESHOLD_POINTS
        if not lo <= threshold <= hi:
            raise PlayerSpecError(
                f"threshold must be in {lo:g}..{hi:g} card points, got {threshold}"
            )
        if k < 0:
            raise PlayerSpecError(f"k must be at least 1 (0: the model's), got {k}")
        super().__init__(
            worlds=worlds, seconds=seconds, points=points, threads=threads, tt_mb=tt_mb, seed=seed
        )
        self.knn = KnnModel.load(model)
        if k:
            self.knn.k = k
        self.threshold = threshold
        self._limit: int | None = None

    def new_game(self, seat: int, seed: int) -> None:
        super().new_game(seat, seed)
        self._limit = None

    def playable(self, view: View) -> list[tuple[float, GameType]]:
        """(predicted card points, kind) of the kinds at or above the threshold, best first."""
        scored = [(self.knn.points(view.hand, gt, view.seat), gt) for gt in KNN_TYPES]
        return sorted((p, gt) for p, gt in scored if p >= self.threshold)[::-1]

    def act(self, view: View) -> Action | str:
        if view.ramsch:
            return self.ramsch_act(view)
        legal = view.legal_actions()
        if view.phase == Phase.BIDDING:
            if self._limit is None:
                self._limit = max(
                    (game_value(view.hand, gt) for _, gt in self.playable(view)), default=0
                )
            kinds = {a.kind for a in legal}
            if "hold" in kinds:
                ok = view.bid <= self._limit
                return next(a for a in legal if a.kind == ("hold" if ok else "pass"))
            nxt = next((a for a in legal if a.kind == "bid"), None)
            if nxt is not None and nxt.bid is not None and nxt.bid <= self._limit:
                return nxt
            return next(a for a in legal if a.kind == "pass")
        if view.phase == Phase.SKAT:
            return "s"
        if view.phase == Phase.DECLARE:
            return self._declare(view, legal)
        return super().act(view)  # discard as the rules player, card play by PIMC

    def _declare(self, view: View, legal: list[Action]) -> Action:
        twelve = view.hand | (view.discard if view.discard is not None else view.hand)
        options = []
        for a in legal:
            k = a.contract
            if k is None or k.hand or k.ouvert or k.game_type == GameType.NULL:
                continue
            reaches = game_value(twelve, k.game_type) >= view.bid
            predicted = self.knn.points(view.hand, k.game_type, view.seat)
            options.append((reaches, predicted, a))
        options.sort(key=lambda o: (o[0], o[1]), reverse=True)
        return options[0][2]
