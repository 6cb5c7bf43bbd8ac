"""A k-nearest-neighbour bidding evaluation in the manner of KNNDDSS (Kupferschmid and
Helmert's double-dummy Skat program, Kermit's Table 4.2 baseline).

For each suit and grand, a hand of ten dealt cards is described by a few numbers
(:func:`features`: the jacks, trump length and top trumps, side aces and tens, voids and
singletons, card points, seat); its value is the mean, over the ``k`` nearest labelled hands
(standardized features, Euclidean distance), of the card points the declarer made
open-handed after picking up the skat (the labels of :mod:`skat.training.knn`). The model has
no null evaluation: KNNDDSS bid suit and grand games only.

>>> from skat._core import Cards, GameType
>>> f = features(Cards.parse("CJ SJ CA CT CK C9 C8 SA ST H7"), GameType.CLUBS, 0)
>>> [float(x) for x in f[:5]]
[1.0, 1.0, 0.0, 0.0, 7.0]
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from skat._core import Card, Cards, GameType, SkatError, Suit
from skat.display import error_text

KNN_TYPES = (GameType.DIAMONDS, GameType.HEARTS, GameType.SPADES, GameType.CLUBS, GameType.GRAND)
"""The contract kinds the k-NN model values, in array order."""

FEATURE_NAMES = (
    "CJ",
    "SJ",
    "HJ",
    "DJ",
    "trumps",
    "trump ace",
    "trump ten",
    "side aces",
    "side tens",
    "guarded tens",
    "voids",
    "singletons",
    "points",
    "seat",
)


class KnnError(SkatError):
    """A k-NN model file that is missing or malformed."""


def features(hand: Cards, game_type: GameType, seat: int) -> np.ndarray:
    """The numbers that describe ``hand`` (ten dealt cards) for ``game_type`` at ``seat``."""
    trumps = game_type.trumps()
    jacks = [1.0 if Card.parse(f"{s}J") in hand else 0.0 for s in "CSHD"]
    mine = hand & trumps
    suits = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)
    trump_suit = next((s for s in suits if s.letter == game_type.letter), None)
    side = [s for s in suits if s != trump_suit]
    aces = tens = guarded = voids = singles = 0
    for s in side:
        cards = (hand - trumps) & s.cards()
        has_ace = Card.parse(f"{s.letter}A") in cards
        has_ten = Card.parse(f"{s.letter}T") in cards
        aces += has_ace
        tens += has_ten
        guarded += has_ten and (has_ace or len(cards) >= 3)
        voids += len(cards) == 0
        singles += len(cards) == 1
    top = (
        [0.0, 0.0]
        if trump_suit is None
        else [
            float(Card.parse(f"{trump_suit.letter}A") in hand),
            float(Card.parse(f"{trump_suit.letter}T") in hand),
        ]
    )
    return np.array(
        [
            *jacks,
            float(len(mine)),
            *top,
            float(aces),
            float(tens),
            float(guarded),
            float(voids),
            float(singles),
            float(hand.points),
            float(seat),
        ],
        dtype=np.float64,
    )


class KnnModel:
    """Labelled hands per contract kind; predicts a hand's open-handed card points."""

    def __init__(
        self, x: np.ndarray, y: np.ndarray, kind: np.ndarray, k: int, meta: dict[str, Any]
    ):
        if x.ndim != 2 or x.shape[1] != len(FEATURE_NAMES) or not len(y) == len(x) == len(kind):
            raise KnnError("k-NN model arrays do not fit together")
        if k < 1:
            raise KnnError(f"k must be at least 1, got {k}")
        self.k = k
        self.meta = meta
        self.mean = x.mean(axis=0) if len(x) else np.zeros(x.shape[1])
        self.scale = x.std(axis=0) if len(x) else np.ones(x.shape[1])
        self.scale[self.scale == 0] = 1.0
        self.by_kind = {
            i: ((x[kind == i] - self.mean) / self.scale, y[kind == i])
            for i in range(len(KNN_TYPES))
        }
        self.x, self.y, self.kind = x, y, kind

    def points(self, hand: Cards, game_type: GameType, seat: int) -> float:
        """The mean open-handed card points of the ``k`` labelled hands nearest to ``hand``."""
        i = KNN_TYPES.index(game_type)
        xs, ys = self.by_kind[i]
        if len(ys) == 0:
            raise KnnError(f"the k-NN model has no labelled {game_type} hands")
        q = (features(hand, game_type, seat) - self.mean) / self.scale
        d = np.einsum("ij,ij->i", xs - q, xs - q)
        k = min(self.k, len(ys))
        nearest = np.argpartition(d, k - 1)[:k]
        return float(ys[nearest].mean())

    def save(self, path: str | os.PathLike[str]) -> None:
        import json

        np.savez_compressed(
            path,
            x=self.x.astype(np.float32),
            y=self.y.astype(np.float32),
            kind=self.kind.astype(np.int8),
            k=np.array(self.k),
            meta=np.array(json.dumps(self.meta)),
        )

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> KnnModel:
        import json

        try:
            with np.load(path, allow_pickle=False) as f:
                meta = json.loads(str(f["meta"]))
                if not isinstance(meta, dict):
                    raise KnnError("its note is not a JSON object")
                return cls(
                    f["x"].astype(np.float64),
                    f["y"].astype(np.float64),
                    f["kind"].astype(np.int64),
                    int(f["k"]),
                    meta,
                )
        except Exception as e:
            # numpy, zipfile, zlib and json each raise their own errors on a damaged file
            raise KnnError(f"{path}: not a k-NN bidding model ({error_text(e)})") from e


__all__ = ["FEATURE_NAMES", "KNN_TYPES", "KnnError", "KnnModel", "features"]
