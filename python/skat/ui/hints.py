"""What a hint tells the person: the AI's choice and, in card play, every legal card's value.

:meth:`skat.ui.session.Session.hint` makes them; the terminal and the web table show them
(``as_dict`` is the web API's JSON). Values are for the person's side.
"""

from __future__ import annotations

from dataclasses import dataclass

from skat._core import Action, Card, Phase, View
from skat.bidding import evaluate
from skat.ui.common import card_text


@dataclass(frozen=True)
class CardHint:
    """One legal card's value in a hint, for the person's side."""

    card: Card
    win: float
    """Share of the sampled worlds in which the person's side wins after this card."""
    points: float | None
    """Mean card points of the person's side at the end (None in null games)."""
    schneider: float
    """Mean schneider tier for the person's side (+1 it makes the others schneider)."""

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {
            "card": str(self.card),
            "text": card_text(self.card),
            "win": round(self.win, 4),
            "points": None if self.points is None else round(self.points, 1),
            "schneider": round(self.schneider, 3),
        }


@dataclass(frozen=True)
class Hint:
    """What the AI would do in the person's place, with the evidence in card play."""

    action: Action
    text: str
    cards: tuple[CardHint, ...] = ()
    """Card play: every legal card, best first (empty in the other phases)."""
    worlds: int = 0
    seconds: float = 0.0
    win: float | None = None
    """Bidding: the 10+2 evaluation's chance of winning a game that reaches ``win_bid``
    (:func:`skat.bidding.evaluate`); None in the other phases."""
    win_bid: int | None = None
    """The bid ``win`` is for: the next bid, or the bid to hold (the last one passed on)."""

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {
            "action": str(self.action),
            "text": self.text,
            "cards": [c.as_dict() for c in self.cards],
            "worlds": self.worlds,
            "seconds": round(self.seconds, 3),
            "win": None if self.win is None else round(self.win, 4),
            "win_bid": self.win_bid,
        }


def bidding_chance(view: View, action: Action) -> tuple[float | None, int | None]:
    """In the auction: the 10+2 evaluation of the person's hand at the bid in question (the
    bid the hint makes, the bid to hold, else the lowest bid still open) and that bid."""
    if view.phase != Phase.BIDDING:
        return None, None
    legal = view.legal_actions()
    bids = [a.bid for a in legal if a.kind == "bid" and a.bid is not None]
    if action.kind == "bid" and action.bid is not None:
        bid = action.bid
    elif any(a.kind == "hold" for a in legal) or not bids:
        bid = view.bid
    else:
        bid = min(bids)
    bid = max(bid, 18)
    return evaluate(view.hand, view.seat, bid), bid
