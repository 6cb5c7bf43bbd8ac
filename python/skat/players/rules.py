"""The ``rules`` player: a rule-based baseline in the spirit of XSkat.

Bidding by hand strength, discard and game choice by simple counts, card play by standard
heuristics: the declarer pulls trumps, the defenders cash aces and smear points (schmieren) on
a partner's trick, everybody leads short suits and wins tricks as cheaply as possible; null
declarers duck, null defenders try to leave the declarer on top.
"""

from __future__ import annotations

import itertools
from typing import ClassVar

from skat._core import (
    Action,
    Card,
    Cards,
    Contract,
    GameType,
    Phase,
    Rank,
    Suit,
    View,
    bids,
    card_power,
    matadors,
    trick_winner,
)
from skat.players.base import check_option, register
from skat.players.ramsch import ramsch_rules_action

SUIT_TYPES = (GameType.DIAMONDS, GameType.HEARTS, GameType.SPADES, GameType.CLUBS)
BIDS = bids()
JACKS = Cards("CJ SJ HJ DJ")


def game_value(cards: Cards, game_type: GameType) -> int:
    """The value of a plain (pick-up) game with these twelve or ten cards, no extra levels."""
    if game_type == GameType.NULL:
        return 23
    return game_type.base_value * (abs(matadors(game_type, cards)) + 1)


def _side_tricks(cards: Cards, trumps: Cards) -> float:
    """Rough tricks from side suits: aces, and tens guarded by their ace or by a second card."""
    t = 0.0
    for suit in (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS):
        side = (suit.cards() - trumps) & cards
        if Card(f"{suit.letter}A") in side:
            t += 1
            if Card(f"{suit.letter}T") in side:
                t += 0.8
        elif Card(f"{suit.letter}T") in side and len(side) >= 2:
            t += 0.4
    return t


def strength(cards: Cards, game_type: GameType) -> float:
    """A score for how well ``cards`` (ten) suit ``game_type``; about 7+ wins a suit game."""
    if game_type == GameType.NULL:
        return null_strength(cards)
    trumps = game_type.trumps() & cards
    jacks = JACKS & cards
    score = len(trumps) + 0.5 * len(jacks) + _side_tricks(cards, game_type.trumps())
    if Card("CJ") in cards:
        score += 0.5
    if game_type == GameType.GRAND:
        # grand needs jacks and aces
        aces = sum(1 for s in "CSHD" if Card(f"{s}A") in cards)
        score = 1.4 * len(jacks) + 1.2 * aces + _side_tricks(cards, JACKS) * 0.8
        if Card("CJ") not in cards and len(jacks) < 3:
            score -= 3
    # voids help a suit game: the declarer can ruff
    voids = 0
    if game_type != GameType.GRAND:
        for s in (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS):
            side = s.cards() - game_type.trumps()
            if side and not side & cards:
                voids += 1
    return score + 0.5 * voids


def null_strength(cards: Cards) -> float:
    """Null safety: each suit is safe when its cards are low enough to duck every lead."""
    safe = 0.0
    for s in (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS):
        ranks = sorted(int(c.rank) for c in s.cards() & cards)
        if not ranks:
            safe += 2.5
            continue
        # the i-th lowest card (from 0) must be at most the (2i)-th rank from the bottom
        ok = all(r <= 2 * i for i, r in enumerate(ranks))
        safe += 2.5 if ok else (1.0 if ranks[0] == 0 else 0.0)
    return safe - 2.0  # about 8 for a safe hand


def best_game(cards: Cards) -> tuple[GameType, float]:
    options = [*SUIT_TYPES, GameType.GRAND, GameType.NULL]
    scored = [(strength(cards, g), g) for g in options]
    s, g = max(scored, key=lambda x: (x[0], int(x[1])))
    return g, s


def max_bid(cards: Cards) -> int:
    """The highest bid the rules player holds with these ten cards (0: pass)."""
    limit = 0
    for g in [*SUIT_TYPES, GameType.GRAND]:
        if strength(cards, g) >= (7.5 if g != GameType.GRAND else 8.0):
            limit = max(limit, game_value(cards, g))
    if null_strength(cards) >= 8.0:
        limit = max(limit, 23)
    return limit


def _power(card: Card, game_type: GameType, led: Card) -> int:
    """Trick-taking power against the led card (higher wins; 0: cannot win): the core's
    power, shifted so that trumps are 100 and up and cards of the led suit 10 and up."""
    p = card_power(game_type, card, led)
    return p + 84 if p >= 16 else p + 9 if p > 0 else 0


def _winner_index(trick: list[Card], game_type: GameType) -> int:
    return trick_winner(game_type, trick)


def _strong_defence(hand: Cards, gt: GameType) -> bool:
    """The ``rules`` player's Kontra (it never says Re): against a suit game two jacks among
    at least four trumps; against grand two jacks and two aces; never against null."""
    if gt == GameType.NULL:
        return False
    trumps = hand & gt.trumps()
    jacks = sum(1 for c in hand if c.rank == Rank.JACK)
    if gt == GameType.GRAND:
        return jacks >= 2 and sum(1 for c in hand if c.rank == Rank.ACE) >= 2
    return jacks >= 2 and len(trumps) >= 4


@register("rules")
class RulesPlayer:
    """A rule-based baseline in the spirit of XSkat (bidding by strength, card-play heuristics).

    ``aggression`` scales the highest bid it makes by ``1 + aggression``: -1 never bids, 1
    bids up to twice its hand's value (range -1..10).
    """

    option_ranges: ClassVar[dict[str, tuple[float | None, float | None]]] = {
        "aggression": (-1.0, 10.0)
    }

    def __init__(self, aggression: float = 0.0) -> None:
        check_option("aggression", aggression, self.option_ranges)
        self.aggression = aggression

    def new_game(self, seat: int, seed: int) -> None:
        pass

    # ----- phases ---------------------------------------------------------------------

    def act(self, view: View) -> Action | str:
        if view.ramsch:
            return ramsch_rules_action(view)
        legal = view.legal_actions()
        if view.phase == Phase.BIDDING:
            return self._bid(view, legal)
        if view.phase == Phase.SKAT:
            return "s"
        if view.phase == Phase.DISCARD:
            return self._discard(view)
        if view.phase == Phase.DECLARE:
            return self._declare(view, legal)
        return self._play(view, legal)

    def _bid(self, view: View, legal: list[Action]) -> Action:
        limit = max_bid(view.hand) * (1 + self.aggression)
        kinds = {a.kind for a in legal}
        if "hold" in kinds:
            return next(a for a in legal if a.kind == ("hold" if view.bid <= limit else "pass"))
        nxt = next((a for a in legal if a.kind == "bid"), None)
        if nxt is not None and nxt.bid is not None and nxt.bid <= limit:
            return nxt
        return next(a for a in legal if a.kind == "pass")

    def _discard(self, view: View) -> str:
        best: tuple[float, int, str] | None = None
        hand = list(view.hand)
        for a, b in itertools.combinations(hand, 2):
            rest = view.hand - Cards([a, b])
            g, s = best_game(rest)
            # prefer pushing points into the skat (they count for the declarer), never trumps
            pushed = a.points + b.points if g != GameType.NULL else -(int(a.rank) + int(b.rank))
            key = (s, pushed, f"{a}.{b}")
            if best is None or key > best:
                best = key
        assert best is not None
        return best[2]

    def _declare(self, view: View, legal: list[Action]) -> Action:
        twelve = view.hand | (view.skat or Cards())
        candidates = []
        for a in legal:
            k = a.contract
            assert k is not None
            if k.hand or k.ouvert:
                continue
            s = strength(view.hand, k.game_type)
            reaches = game_value(twelve, k.game_type) >= view.bid or k.game_type == GameType.NULL
            candidates.append((reaches, s, -int(k.game_type), a))
        candidates.sort(key=lambda c: (c[0], c[1], c[2]), reverse=True)
        return candidates[0][3]

    def _play(self, view: View, legal: list[Action]) -> Action:
        contract = view.contract
        assert contract is not None and view.declarer is not None
        kontra = next((a for a in legal if a.kind == "kontra"), None)
        if kontra is not None and _strong_defence(view.hand, contract.game_type):
            return kontra
        cards = [a.card for a in legal if a.card is not None]
        if len(cards) == 1:
            return legal[0]
        choice = (
            self._play_null(view, contract, cards)
            if contract.game_type == GameType.NULL
            else self._play_suit(view, contract, cards)
        )
        return next(a for a in legal if a.card == choice)

    def _play_suit(self, view: View, k: Contract, cards: list[Card]) -> Card:
        gt = k.game_type
        trumps = gt.trumps()
        me_declarer = view.seat == view.declarer
        trick = view.trick
        by_points_low = sorted(cards, key=lambda c: (c.points, c in trumps, _power(c, gt, c)))
        if not trick:
            played = Cards(view.played)
            out_trumps = trumps - played - view.hand
            my_trumps = [c for c in cards if c in trumps]
            if me_declarer:
                if my_trumps and out_trumps:
                    top = max(my_trumps, key=lambda c: _power(c, gt, c))
                    best_out = max(out_trumps, key=lambda c: _power(c, gt, c))
                    if _power(top, gt, top) > _power(best_out, gt, best_out):
                        return top
                    return min(my_trumps, key=lambda c: _power(c, gt, c))
                aces = [c for c in cards if c.rank == Rank.ACE and c not in trumps]
                if aces:
                    return aces[0]
            else:
                aces = [c for c in cards if c.rank == Rank.ACE and c not in trumps]
                if aces:
                    return aces[0]
            # lead from the shortest side suit, lowest card
            side = [c for c in cards if c not in trumps] or cards
            by_len = sorted(
                side, key=lambda c: (len((c.suit.cards() - trumps) & view.hand), c.points)
            )
            return by_len[0]
        lead = trick[0]
        win_idx = _winner_index(trick, gt)
        winner_seat = (view.leader + win_idx) % 3
        partner_winning = (winner_seat == view.declarer) == me_declarer
        best_power = _power(trick[win_idx], gt, lead)
        winners = [c for c in cards if _power(c, gt, lead) > best_power]
        last = len(trick) == 2
        if partner_winning and (
            last or _power(trick[win_idx], gt, lead) >= 100 or trick[win_idx].rank == Rank.ACE
        ):
            # smear points on the partner's trick, but keep trumps
            non_trumps = [c for c in cards if c not in trumps] or cards
            return max(non_trumps, key=lambda c: (c.points, -_power(c, gt, lead)))
        points_in_trick = sum(c.points for c in trick)
        if winners and (last or points_in_trick >= 10 or me_declarer):
            return min(winners, key=lambda c: (_power(c, gt, lead), c.points))
        return by_points_low[0]

    def _play_null(self, view: View, k: Contract, cards: list[Card]) -> Card:
        gt = GameType.NULL
        trick = view.trick
        me_declarer = view.seat == view.declarer
        if not trick:
            # lead low; declarer leads her lowest card, defenders their lowest of a short suit
            return min(cards, key=lambda c: (int(c.rank), len(c.suit.cards() & view.hand)))
        lead = trick[0]
        win_idx = _winner_index(trick, gt)
        best_power = _power(trick[win_idx], gt, lead)
        under = [c for c in cards if _power(c, gt, lead) < best_power]
        if me_declarer:
            if under:
                return max(under, key=lambda c: _power(c, gt, lead) or int(c.rank))
            return min(cards, key=lambda c: _power(c, gt, lead))
        winner_seat = (view.leader + win_idx) % 3
        if winner_seat == view.declarer:
            # keep the declarer on top: play below her card, as high as possible
            if under:
                return max(under, key=lambda c: (_power(c, gt, lead), int(c.rank)))
            return max(cards, key=lambda c: int(c.rank))
        # partner is on top: play low so the declarer (if still to play) may be forced over it
        return min(cards, key=lambda c: (_power(c, gt, lead), int(c.rank)))
