"""skat: an expert-level computer Skat player with a Rust core.

The public API is re-exported here. A deal starts a game; a game moves through the auction,
the skat, the declaration and ten tricks to a result; ISS records read and write games.

>>> import skat
>>> game = skat.Game(skat.Deal.random(seed=1))
>>> game.apply("p"); game.apply("p"); game.apply("p")
>>> game.result.end
'passed'
"""

from skat._core import (
    Action,
    Card,
    Cards,
    Contract,
    ContractError,
    Deal,
    Game,
    GameResult,
    GameType,
    IllegalActionError,
    InvalidCardsError,
    ParseError,
    Phase,
    Position,
    PositionError,
    Rank,
    RecordError,
    SearchStats,
    SkatError,
    Solver,
    Suit,
    View,
    __version__,
    analyze,
    bids,
    count_worlds,
    legal_cards,
    perft,
    random_game,
    random_games,
    reaches,
    sample_worlds,
    solve,
    trick_winner,
)
from skat.records import read_iss

__all__ = [
    "Action",
    "Card",
    "Cards",
    "Contract",
    "ContractError",
    "Deal",
    "Game",
    "GameResult",
    "GameType",
    "IllegalActionError",
    "InvalidCardsError",
    "ParseError",
    "Phase",
    "Position",
    "PositionError",
    "Rank",
    "RecordError",
    "SearchStats",
    "SkatError",
    "Solver",
    "Suit",
    "View",
    "__version__",
    "analyze",
    "bids",
    "count_worlds",
    "legal_cards",
    "perft",
    "random_game",
    "random_games",
    "reaches",
    "read_iss",
    "sample_worlds",
    "solve",
    "trick_winner",
]
