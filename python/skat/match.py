"""Playing one game between three players: the loop every front end and tournament uses.

Each player sees only ``game.view(seat)``; players marked ``omniscient = True`` (the
``cheater``) are handed the live game at the start. A player that raises or answers with an
illegal action stops the game with a :class:`PlayerFailure` that names the deal, the seat and
the position, so that tournaments can record it instead of dropping the game.

A game can start from a given sequence of actions (``prefix``), for example the auction, skat
and declaration of a duplicate tournament deal, and can stop when it reaches a phase
(``until``), for example to take those actions from one set of players and the card play from
another:

>>> from skat._core import Deal, Phase
>>> from skat.players import make_player
>>> bidders = [make_player("rules") for _ in range(3)]
>>> start_of_play = play(bidders, Deal.random(1), seed=1, until=Phase.PLAY)
>>> prefix = [action for _, action in start_of_play.history]
>>> game = play([make_player("random") for _ in range(3)], Deal.random(1), prefix=prefix)
>>> game.contract == start_of_play.contract
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from skat._core import Action, ArgumentError, Deal, Game, Phase, SkatError
from skat.players.base import Player


class PlayerFailure(SkatError):
    """A player raised or returned an illegal action."""

    def __init__(self, message: str, seat: int, game: Game) -> None:
        super().__init__(message)
        self.seat = seat
        self.game = game


def start_player(player: Player, seat: int, seed: int, game: Game) -> None:
    """Calls one player's ``new_game`` hook if it has one (with the live game for omniscient
    players); whatever the hook raises propagates."""
    hook = getattr(player, "new_game", None)
    if hook is None:
        return
    if getattr(player, "omniscient", False):
        hook(seat=seat, seed=seed, game=game)
    else:
        hook(seat=seat, seed=seed)


def start(players: Sequence[Player], game: Game, seed: int) -> None:
    """Calls each player's ``new_game`` hook (see :func:`start_player`).

    A hook that raises stops with a :class:`PlayerFailure` for that seat.
    """
    for seat, p in enumerate(players):
        try:
            start_player(p, seat, seed, game)
        except Exception as e:
            raise PlayerFailure(
                f"seat {seat} ({type(p).__name__}) raised {type(e).__name__}: {e}"
                f" in new_game; deal {game.deal.to_iss()}",
                seat,
                game,
            ) from e


def play(
    players: Sequence[Player],
    deal: Deal,
    seed: int = 0,
    on_action: Callable[[Game, int, Action], None] | None = None,
    prefix: Sequence[Action | str] = (),
    until: Phase | None = None,
    variants: str = "",
) -> Game:
    """Plays one deal to the end and returns the finished game.

    ``on_action(game, seat, action)`` is called after every action (for watching).

    ``prefix``: actions (or ISS tokens) applied, each for the seat to move, after the players'
    ``new_game`` hooks and before any player is asked; ``on_action`` sees them too. An illegal
    prefix action raises the core's ``SkatError`` (it is nobody's failure).

    ``until``: stop as soon as the game reaches this phase (for example ``Phase.PLAY``, after
    the declaration) and return the unfinished game; the game also stops when it is over.

    ``variants``: the table variants of this game (``"kontra"``, ``"bock"``, both; default
    none), as ``Game(deal, variants=...)`` takes them.
    """
    if len(players) != 3:
        raise ArgumentError(f"a game needs three players, got {len(players)}")
    game = Game(deal, variants=variants)
    start(players, game, seed)
    for token in prefix:
        seat = game.to_move
        game.apply(token)
        if on_action is not None and seat is not None:
            on_action(game, seat, game.history[-1][1])
    while not game.is_over and (until is None or game.phase != until):
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        try:
            choice = players[seat].act(view)
        except Exception as e:
            raise PlayerFailure(
                f"seat {seat} ({type(players[seat]).__name__}) raised {type(e).__name__}: {e}"
                f" in phase {view.phase}; deal {deal.to_iss()}; record so far: {game.to_iss()}",
                seat,
                game,
            ) from e
        try:
            game.apply(choice)
        except SkatError as e:
            raise PlayerFailure(
                f"seat {seat} ({type(players[seat]).__name__}) chose {choice!s}: {e};"
                f" deal {deal.to_iss()}; record so far: {game.to_iss()}",
                seat,
                game,
            ) from e
        if on_action is not None:
            on_action(game, seat, game.history[-1][1])
    return game
