"""A minimal Skat bot for ``skat tournament``: the player protocol in one small class.

Run it against the rule-based player over four duplicate deals:

    skat tournament examples/mybot.py:MyBot rules --deals 4
    skat tournament examples/mybot.py:MyBot:limit=30 rules --mode full --deals 4

The bot sees only ``view`` (what its seat may know) and answers each phase with a legal
action or its ISS token: it bids on jacks, takes the skat, lays away its two highest
non-trump cards, declares grand with three jacks or else its longest suit, and in card play
wins the trick with its highest card when it can, else throws its lowest.
"""

from __future__ import annotations

from skat import Action, Cards, GameType, Phase, View, card_power, legal_cards

SUIT_GAMES = {
    "D": GameType.DIAMONDS,
    "H": GameType.HEARTS,
    "S": GameType.SPADES,
    "C": GameType.CLUBS,
}


class MyBot:
    """Bids while it holds two jacks and the bid is at most ``limit``."""

    def __init__(self, limit: int = 24) -> None:
        self.limit = limit
        self.seat = 0

    def new_game(self, seat: int, seed: int) -> None:
        """Optional hook: called before each game with the seat and a reproducible seed."""
        self.seat = seat

    def act(self, view: View) -> Action | str:
        legal = view.legal_actions()
        kinds = {a.kind for a in legal}
        jacks = sum(1 for c in view.hand if c.rank.letter == "J")
        if view.phase == Phase.BIDDING:
            strong = jacks >= 2
            bids = [a for a in legal if a.kind == "bid" and (a.bid or 0) <= self.limit]
            if strong and bids:
                return bids[0]  # the lowest bid still open
            if strong and "hold" in kinds and view.bid <= self.limit:
                return "y"
            return "p"
        if view.phase == Phase.SKAT:
            return "s"  # always pick up: no hand games
        if view.phase == Phase.DISCARD:
            keep = self._trumps(view.hand)
            spare = sorted((c for c in view.hand if c not in keep), key=lambda c: -c.points)
            away = (spare + sorted(keep, key=lambda c: c.points))[:2]
            return f"{away[0]}.{away[1]}"
        if view.phase == Phase.DECLARE:
            return "G" if jacks >= 3 else self._longest_suit(view.hand)
        return self._play(view)

    def _longest_suit(self, hand: Cards) -> str:
        counts = {
            s: sum(1 for c in hand if c.suit.letter == s and c.rank.letter != "J")
            for s in SUIT_GAMES
        }
        return max(counts, key=lambda s: (counts[s], "DHSC".index(s)))

    def _trumps(self, hand: Cards) -> Cards:
        return hand & SUIT_GAMES[self._longest_suit(hand)].trumps()

    def _play(self, view: View) -> str:
        contract = view.contract
        assert contract is not None
        game_type = contract.game_type
        lead = view.trick[0] if view.trick else None
        cards = sorted(
            legal_cards(game_type, view.hand, lead),
            key=lambda c: card_power(game_type, c, lead or c),
        )
        if lead is None:
            return str(cards[-1])  # lead the strongest card
        best = max(card_power(game_type, c, lead) for c in view.trick)
        winning = [c for c in cards if card_power(game_type, c, lead) > best]
        return str(winning[-1] if winning else min(cards, key=lambda c: c.points))
