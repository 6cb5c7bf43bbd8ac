"""Post-game analysis that players may use at the table: perfect-information post-mortem
analysis (:mod:`skat.analysis.pipma`), the bidding-threshold estimate
(:mod:`skat.analysis.thresholds`), their run over record files
(:mod:`skat.analysis.records`) and the open-handed verdict of a contract at its first card
(:mod:`skat.analysis.verdicts`).

This package sits with the players (the ``count`` player runs PIPMA after every game); the
people-facing analysis of one game (:mod:`skat.ui.analysis`) and the ``skat analyze`` command
build on it.

>>> from skat.analysis import MistakeTally
>>> MistakeTally().games
0
"""

from skat.analysis.pipma import (
    Decision,
    MistakeTally,
    PlayerMistakes,
    card_outcomes,
    decisions,
    game_names,
    target_of,
)
from skat.analysis.verdicts import start_verdict, verdicts

__all__ = [
    "Decision",
    "MistakeTally",
    "PlayerMistakes",
    "card_outcomes",
    "decisions",
    "game_names",
    "start_verdict",
    "target_of",
    "verdicts",
]
