"""Players: anything with ``act(view) -> action`` that sees only ``game.view(seat)``.

A player answers every phase (bid / hold / pass, pick up or hand, discard, declare, play) with
an ``Action`` or its ISS token. Two optional hooks:

- ``new_game(seat: int, seed: int) -> None`` is called before each game, with a seed derived
  from the tournament or match seed, so that a player's random choices reproduce;
- players with ``omniscient = True`` (such as ``cheater``) are also given the deal:
  ``new_game(seat, seed, deal=deal)``.

Players are built from spec strings (see :func:`make_player`): a registered name with options
(``"random:seed=3"``) or any class, ``"package.module:ClassName:key=value"`` or
``"path/to/file.py:ClassName"``.

>>> p = make_player("random:seed=3")
>>> p.new_game(seat=1, seed=42)
"""

from skat.players.base import (
    Player,
    PlayerSpecError,
    available_players,
    make_player,
    register,
)
from skat.players.cheater import CheaterPlayer
from skat.players.iimc import IimcPlayer, RecursiveKermitPlayer
from skat.players.kermit import KermitPlayer
from skat.players.knn import KnnPlayer
from skat.players.mistake import MistakePlayer
from skat.players.modelling import CountPlayer, TrackerPlayer
from skat.players.pimc import PimcPlayer
from skat.players.random_player import RandomPlayer
from skat.players.rules import RulesPlayer
from skat.players.softmaxn import SoftmaxnPlayer

__all__ = [
    "CheaterPlayer",
    "CountPlayer",
    "IimcPlayer",
    "KermitPlayer",
    "KnnPlayer",
    "MistakePlayer",
    "PimcPlayer",
    "Player",
    "PlayerSpecError",
    "RandomPlayer",
    "RecursiveKermitPlayer",
    "RulesPlayer",
    "SoftmaxnPlayer",
    "TrackerPlayer",
    "available_players",
    "make_player",
    "register",
]
