"""Playing one game between three players: the loop every front end and tournament uses.

Each player sees only ``game.view(seat)``; players marked ``omniscient = True`` (the
``cheater``) are handed the live game at the start. A player that raises or answers with an
illegal action stops the game with a :class:`PlayerFailure` that names the deal, the seat and
the position, so that tournaments can record it instead of dropping the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from skat._core import Action, Deal, Game, SkatError
from skat.players.base import Player


class PlayerFailure(SkatError):
    """A player raised or returned an illegal action."""

    def __init__(self, message: str, seat: int, game: Game) -> None:
        super().__init__(message)
        self.seat = seat
        self.game = game


def start(players: Sequence[Player], game: Game, seed: int) -> None:
    """Calls each player's ``new_game`` hook (with the live game for omniscient players)."""
    for seat, p in enumerate(players):
        hook = getattr(p, "new_game", None)
        if hook is None:
            continue
        if getattr(p, "omniscient", False):
            hook(seat=seat, seed=seed, game=game)
        else:
            hook(seat=seat, seed=seed)


def play(
    players: Sequence[Player],
    deal: Deal,
    seed: int = 0,
    on_action: Callable[[Game, int, Action], None] | None = None,
) -> Game:
    """Plays one deal to the end and returns the finished game.

    ``on_action(game, seat, action)`` is called after every action (for watching).
    """
    if len(players) != 3:
        raise ValueError("a game needs three players")
    game = Game(deal)
    start(players, game, seed)
    while not game.is_over:
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
