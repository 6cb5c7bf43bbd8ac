"""The reference's cards, trumps, following suit and tricks.

Cards are 2-character strings (suit letter, rank letter) and game types single letters, as
described in the package docstring. Every function here is a direct transcription of a rule
in ``docs/rules.md``; none keeps state.
"""

from __future__ import annotations

SUITS: str = "CSHD"
"""Suit letters, highest first: clubs, spades, hearts, diamonds."""

RANKS: str = "ATKQJ987"
"""Rank letters in the order used to list the deck."""

ALL_CARDS: list[str] = [suit + rank for suit in SUITS for rank in RANKS]
"""The 32 cards, suit by suit (C S H D), ranks A T K Q J 9 8 7."""

CARD_POINTS: dict[str, int] = {
    "A": 11,
    "T": 10,
    "K": 4,
    "Q": 3,
    "J": 2,
    "9": 0,
    "8": 0,
    "7": 0,
}
"""Card points by rank letter (total over the deck: 120)."""

JACKS: list[str] = ["CJ", "SJ", "HJ", "DJ"]
"""The four jacks, highest first."""

SUIT_ORDER_PLAIN: str = "ATKQ987"
"""Rank order of a suit in suit and grand games, jack excluded (it is trump)."""

SUIT_ORDER_NULL: str = "AKQJT987"
"""Rank order of every suit in null games (no trumps)."""

GAME_TYPES: str = "GCSHDN"
"""Game type letters as written in ISS declarations."""

BASE_VALUES: dict[str, int] = {"D": 9, "H": 10, "S": 11, "C": 12, "G": 24}
"""Base values of the suit games and grand."""

LEGAL_BIDS: list[int] = [
    18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50, 54, 55, 59,
    60, 63, 66, 70, 72, 77, 80, 81, 84, 88, 90, 96, 99, 100, 108, 110, 117, 120,
    121, 126, 130, 132, 135, 140, 143, 144, 150, 153, 154, 156, 160, 162, 165,
    168, 170, 176, 180, 187, 192, 198, 204, 216, 240, 264,
]  # fmt: skip
"""The 63 legal bids, copied from rules.md."""


def check_card(card: str) -> None:
    """Raise ``ValueError`` unless ``card`` is one of the 32 card strings."""
    if card not in ALL_CARDS:
        raise ValueError(f"not a card: {card!r}")


def points(card: str) -> int:
    """Return the card points of ``card`` (A 11, T 10, K 4, Q 3, J 2, else 0)."""
    check_card(card)
    return CARD_POINTS[card[1]]


def sort_cards(cards: list[str]) -> list[str]:
    """Return ``cards`` sorted in :data:`ALL_CARDS` order."""
    return sorted(cards, key=ALL_CARDS.index)


def null_value(hand: bool, ouvert: bool) -> int:
    """Return the fixed value of a null game: 23, hand 35, ouvert 46, ouvert hand 59."""
    if hand and ouvert:
        return 59
    if ouvert:
        return 46
    if hand:
        return 35
    return 23


def check_game_type(gt: str) -> None:
    """Raise ``ValueError`` unless ``gt`` is one of ``D H S C G N``."""
    if len(gt) != 1 or gt not in GAME_TYPES:
        raise ValueError(f"not a game type: {gt!r}")


def trump_order(gt: str) -> list[str]:
    """Return the trumps of game type ``gt``, highest first (empty for null).

    Suit games: CJ SJ HJ DJ, then A T K Q 9 8 7 of the trump suit (11 trumps).
    Grand: the four jacks only.
    """
    check_game_type(gt)
    if gt == "N":
        return []
    if gt == "G":
        return list(JACKS)
    return JACKS + [gt + rank for rank in SUIT_ORDER_PLAIN]


def is_trump(gt: str, card: str) -> bool:
    """Return whether ``card`` is a trump in game type ``gt``."""
    check_card(card)
    return card in trump_order(gt)


def follow_suit_of(gt: str, card: str) -> str:
    """Return the suit ``card`` belongs to for following suit, or ``"T"`` for trump.

    In suit and grand games every jack belongs to the trump suit, not to its
    printed suit. In null there are no trumps.
    """
    if is_trump(gt, card):
        return "T"
    return card[0]


def legal_plays(gt: str, hand: list[str], trick: list[str]) -> list[str]:
    """Return the cards of ``hand`` that may be played to ``trick`` (hand order).

    Leading (empty trick): any card. Otherwise a card of the led suit (trump
    counts as one suit) must be played if the hand has one; else any card.
    """
    for card in hand:
        check_card(card)
    if not trick:
        return list(hand)
    led = follow_suit_of(gt, trick[0])
    following = [card for card in hand if follow_suit_of(gt, card) == led]
    if following:
        return following
    return list(hand)


def trick_winner(gt: str, trick: list[str]) -> int:
    """Return the index (0..2) in ``trick`` of the card that wins it.

    ``trick[0]`` is the led card. The highest trump wins; without a trump the
    highest card of the led suit wins. Cards of other suits never win.
    """
    if not trick:
        raise ValueError("empty trick")
    for card in trick:
        check_card(card)
    trumps = trump_order(gt)
    led = follow_suit_of(gt, trick[0])
    order = SUIT_ORDER_NULL if gt == "N" else SUIT_ORDER_PLAIN

    def strength(card: str) -> tuple[int, int]:
        """Return a sort key: trumps above the led suit above everything else."""
        if card in trumps:
            return (2, len(trumps) - trumps.index(card))
        if follow_suit_of(gt, card) == led:
            return (1, len(order) - order.index(card[1]))
        return (0, 0)

    best = 0
    for index in range(1, len(trick)):
        if strength(trick[index]) > strength(trick[best]):
            best = index
    return best
