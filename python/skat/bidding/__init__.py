"""Bidding, discarding and choosing the game: Kermit's learned "10+2" evaluation.

``win_probability(hand, discard, game_type, seat)`` is the probability that a declarer in
position ``seat`` (0 forehand, 1 middlehand, 2 rearhand) wins ``game_type`` with the ten cards
``hand`` after putting ``discard`` away (in a hand game: the skat). ``evaluate(hand, seat,
bid)`` searches Kermit's bidding tree over the 231 possible skats, the 66 discards and the
game types (at most 92,862 leaves) and returns its root value: the chance of winning a game
that reaches ``bid``. The ``kermit`` player bids while that value reaches its threshold and
then declares what maximises the expected Seeger-Fabian score.

The tables are learned from played games by ``skat train bidding``; the package ships a
model trained on this project's own self-play games (see ``docs/bidding.md`` for how it was
made and what each table means). The decisions the thesis leaves open are listed in the
documentation of the compiled evaluator (``crates/skat-core/src/bidding/``) and of
:mod:`skat.training.fit`.

>>> from skat.bidding import win_probability, evaluate
>>> p = win_probability("CJ SJ HJ DJ CA CT CK SA ST HA", "D7 D8", "G", seat=0)
>>> 0.9 < p <= 1.0
True
>>> evaluate("CT CK SQ S9 HT HQ H9 DT DK DQ", seat=2, bid=18) < 0.2   # no jack, no ace
True
>>> evaluate("C7 C8 S7 S8 H7 H8 D7 D8 D9 HQ", seat=2, bid=18) > 0.5   # a null hand
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from skat._core import Cards, Contract, GameType
from skat.bidding.model import KINDS, BiddingModel, ModelError, default_model, kind_index

_CardsLike = Cards | str
_KindLike = int | str | Contract | GameType


def _kind(game_type: _KindLike) -> int:
    if isinstance(game_type, GameType):
        return kind_index(game_type.letter)
    return kind_index(game_type)


def win_probability(
    hand: _CardsLike,
    discard: _CardsLike,
    game_type: _KindLike,
    seat: int,
    model: BiddingModel | None = None,
) -> float:
    """The 10+2 evaluation: probability that the declarer wins ``game_type``.

    ``game_type`` is a kind name (``"D" "H" "S" "C" "G" "N" "NO"``), a :class:`GameType`
    (null means plain null), a :class:`Contract` (null ouvert through ``ouvert=True``) or an
    index 0-6.
    """
    return (model or default_model()).win_probability(hand, discard, _kind(game_type), seat)


def win_probabilities(
    hands: Sequence[_CardsLike] | np.ndarray,
    discards: Sequence[_CardsLike] | np.ndarray,
    game_types: Sequence[_KindLike] | np.ndarray,
    seats: Sequence[int] | np.ndarray,
    model: BiddingModel | None = None,
) -> np.ndarray:
    """:func:`win_probability` for many candidates at once (cards as :class:`Cards`, text or
    ``Cards.bits`` integers); returns a float array."""

    def bits(xs: Sequence[_CardsLike] | np.ndarray) -> list[int]:
        return [int(x) if isinstance(x, int | np.integer) else Cards(x).bits for x in xs]

    kinds = [_kind(k) for k in game_types]
    return (model or default_model()).win_probabilities(bits(hands), bits(discards), kinds, seats)


def evaluate(
    hand: _CardsLike, seat: int, bid: int = 18, model: BiddingModel | None = None
) -> float:
    """The bidding tree's root value for a 10-card hand when the game must reach ``bid``."""
    values, _ = (model or default_model()).tables.evaluate(hand, seat, [bid])
    return values[0]


def evaluate_bids(
    hand: _CardsLike, seat: int, bids: Sequence[int], model: BiddingModel | None = None
) -> list[float]:
    """:func:`evaluate` for several bids, sharing the tree's leaves."""
    values, _ = (model or default_model()).tables.evaluate(hand, seat, list(bids))
    return values


__all__ = [
    "KINDS",
    "BiddingModel",
    "ModelError",
    "default_model",
    "evaluate",
    "evaluate_bids",
    "kind_index",
    "win_probabilities",
    "win_probability",
]
