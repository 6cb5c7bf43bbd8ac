"""Slow, obviously-correct reference implementation of the Skat rules.

This package is a second, independent implementation of the rules in
``docs/rules.md`` (the International Skat Order plus the project's Decisions).
It is used by the test suite to cross-check the fast core on random cases, so
it favours clarity over speed everywhere and never imports the ``skat``
package.

Conventions:

* Cards are 2-character strings: suit letter (``C S H D``) followed by rank
  letter (``A T K Q J 9 8 7``), e.g. ``"CJ"``, ``"HA"``, ``"D7"``.
* Game types are ``"D" "H" "S" "C"`` (suit games), ``"G"`` (grand) and
  ``"N"`` (null).
* Seats: 0 = forehand, 1 = middlehand, 2 = rearhand.
* Moves of :class:`RefGame` are the ISS move tokens described in rules.md.

The reference is split by concern: ``cards`` (cards, trumps, tricks), ``value`` (game value
and declarations), ``game`` (the referee, :class:`RefGame`) and ``search`` (exhaustive
searches). Every public name is available from the package itself.
"""

from __future__ import annotations

from .cards import (
    ALL_CARDS,
    BASE_VALUES,
    CARD_POINTS,
    GAME_TYPES,
    JACKS,
    LEGAL_BIDS,
    RANKS,
    SUIT_ORDER_NULL,
    SUIT_ORDER_PLAIN,
    SUITS,
    check_card,
    check_game_type,
    follow_suit_of,
    is_trump,
    legal_plays,
    null_value,
    points,
    sort_cards,
    trick_winner,
    trump_order,
)
from .game import RefGame
from .search import count_play_sequences, minimax
from .value import (
    declaration_token,
    game_value,
    hand_declarations,
    matadors,
    parse_declaration,
    pickup_declarations,
    seeger_fabian,
)

__all__ = [
    "ALL_CARDS",
    "BASE_VALUES",
    "CARD_POINTS",
    "GAME_TYPES",
    "JACKS",
    "LEGAL_BIDS",
    "RANKS",
    "SUITS",
    "SUIT_ORDER_NULL",
    "SUIT_ORDER_PLAIN",
    "RefGame",
    "check_card",
    "check_game_type",
    "count_play_sequences",
    "declaration_token",
    "follow_suit_of",
    "game_value",
    "hand_declarations",
    "is_trump",
    "legal_plays",
    "matadors",
    "minimax",
    "null_value",
    "parse_declaration",
    "pickup_declarations",
    "points",
    "seeger_fabian",
    "sort_cards",
    "trick_winner",
    "trump_order",
]
