"""Sure hand games by paranoid search (solver thesis ch. 6.3): the bidder's exact check that a
hand game cannot be lost.

A hand game is *sure* when :func:`skat.paranoid_hand` proves it: the declarer reaches the target
whatever the skat and the defenders' cards, against defenders who see every card. Null is
decided mostly by the safe-cards rule in microseconds; a sure null is also a sure null ouvert
(the defenders see every card anyway), the highest null. Suit and grand need a search, cut off
after ``budget`` nodes (then nothing is claimed); its static bound (the cards that surely win
their tricks when the declarer leads them, top trumps first) proves strong hands at once. When
those are all her cards and she leads (forehand), schwarz and ouvert announced are sure too.

The value of a sure game is the least over the 231 possible skats (the skat's jacks can change
the matadors); the game is used only if that reaches the bid, and its expected score is the
mean of ``value + 50`` over the skats (every game won: a lower bound, schneider may still come
on top).

>>> from skat import Cards
>>> sure = sure_hand_game(Cards.parse("C7 C9 CJ S7 S9 SJ H7 H9 D7 D9"), seat=1, bid=18)
>>> sure is not None and (str(sure.contract), sure.value)
('NOH', 59)
"""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

from skat._core import Cards, Contract, GameType, matadors, paranoid_all_tricks, paranoid_hand
from skat.defaults import PARANOID_BID_NODES

__all__ = ["SureGame", "sure_hand_game"]


class SureGame(NamedTuple):
    """A surely won hand game: its contract, its least value over the skats and its expected
    score (mean of value + 50)."""

    contract: Contract
    value: int
    score: float


_SUITS_AND_GRAND = (
    GameType.DIAMONDS,
    GameType.HEARTS,
    GameType.SPADES,
    GameType.CLUBS,
    GameType.GRAND,
)


def _skats(hand: Cards) -> list[Cards]:
    rest = list(Cards.all() - hand)
    return [Cards(list(pair)) for pair in combinations(rest, 2)]


def sure_hand_game(
    hand: Cards,
    seat: int,
    bid: int,
    budget: int = PARANOID_BID_NODES,
    game_types: tuple[GameType, ...] = _SUITS_AND_GRAND,
) -> SureGame | None:
    """The surely won hand game of highest expected score that reaches ``bid`` with these ten
    cards in ``seat`` (0 forehand); ``None`` if no game is proven sure within ``budget``
    search nodes each. ``game_types``: the suit and grand games to try (null is always
    tried)."""
    best: SureGame | None = None
    if paranoid_hand(hand, GameType.NULL, seat, 1, budget):
        for ouvert in (True, False):
            c = Contract(GameType.NULL, hand=True, ouvert=ouvert)
            if c.base_value >= bid:
                best = SureGame(c, c.base_value, float(c.base_value + 50))
                break
    skats = None
    for gt in game_types:
        if seat == 0 and paranoid_all_tricks(hand, gt):
            # every trick: schwarz (and ouvert) announced are sure
            reached = (True, True)
            contracts = [
                Contract(gt, hand=True, schneider=s, schwarz=z, ouvert=o)
                for s, z, o in ((False, False, False), (True, False, False), (True, True, False))
            ] + [Contract(gt, hand=True, schneider=True, schwarz=True, ouvert=True)]
        elif paranoid_hand(hand, gt, seat, 61, budget):
            schneider = bool(paranoid_hand(hand, gt, seat, 90, budget))
            reached = (schneider, False)
            contracts = [Contract(gt, hand=True, schneider=a) for a in {False, schneider}]
        else:
            continue
        skats = skats if skats is not None else _skats(hand)
        for c in contracts:
            values = [c.value(matadors(gt, hand | s), *reached) for s in skats]
            if min(values) >= bid:
                score = sum(values) / len(values) + 50
                if best is None or score > best.score:
                    best = SureGame(c, min(values), score)
    return best
