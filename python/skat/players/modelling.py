"""Opponent-modelling players: ``tracker`` and ``count`` (the thesis's chapter 7), and the two
optional hooks through which a table tells players who sits where and how a game went.

Hooks (both optional; players without them are never called):

- ``meet(seat, names)`` before a game's ``new_game``: the names of the three seats;
- ``game_over(game, seat, names)`` after it: the finished game, every card then known
  (the post-game information the thesis's programs see on a server, never cards during play).

A table that keeps the same player objects from game to game (``skat tournament --mode
clones``) calls them; tournaments that build fresh players for every game do not, and then
both players here bid exactly as ``kermit``.

- ``tracker``: after each of its own declarer games it records error = won - pWin, pWin the
  10+2 win probability of its hand at the final bid (eq. 7.1), per set of opponent names;
  its threshold is 0.6 minus the mean error against the current opponents (it bids more
  when it wins more often than it predicted), capped at 0.75.
- ``count``: after every game it runs the post-mortem analysis (:mod:`skat.analysis.pipma`)
  on every seat and keeps mistake counts per name; its threshold is 0.6 plus the offset of
  eq. 7.2 from m, the mean mistake rate of its two opponents: 0.1 - m for m <= 0.1, else
  0.05 - 0.5 m. An opponent with fewer than :data:`skat.defaults.COUNT_MIN_OPPORTUNITIES`
  opportunities is left out of the mean; with none left the offset is 0.

Whatever moves the threshold moves ``unopposed`` (the threshold while no opponent has bid
yet, ``kermit``'s option) by the same amount, kept in 0..1. Option ``rm36=true`` (both):
forget the whole model every 36 games seen. Card play is ``kermit``'s; every ``kermit`` option
is accepted.

>>> from skat.players import make_player
>>> count = make_player("count:worlds=8,threads=1")
>>> [round(count_offset(m), 3) for m in (0.03, 0.1, 0.25)]
[0.07, 0.0, -0.075]
>>> tracker = make_player("tracker:rm36=true,worlds=8,threads=1")
>>> tracker.threshold, tracker.rm36
(0.6, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from skat._core import Action, Game, Phase, Solver, View
from skat.analysis.pipma import MistakeTally
from skat.defaults import (
    COUNT_MIN_OPPORTUNITIES,
    MODEL_RESET_GAMES,
    PIPMA_TT_MB,
    TRACKER_CAP,
)
from skat.players.base import Player, PlayerSpecError, register
from skat.players.kermit import KermitPlayer

__all__ = [
    "CountPlayer",
    "ModellingPlayer",
    "TrackerPlayer",
    "count_offset",
    "tell_names",
    "tell_result",
]


def tell_names(player: Player, seat: int, names: Sequence[str]) -> None:
    """Calls the player's ``meet(seat, names)`` hook if it has one."""
    hook = getattr(player, "meet", None)
    if hook is not None:
        hook(seat, tuple(names))


def tell_result(player: Player, game: Game, seat: int, names: Sequence[str]) -> None:
    """Calls the player's ``game_over(game, seat, names)`` hook if it has one."""
    hook = getattr(player, "game_over", None)
    if hook is not None:
        hook(game, seat, tuple(names))


def count_offset(m: float) -> float:
    """Eq. 7.2: the count's threshold offset for the opponents' mean mistake rate ``m``."""
    return 0.1 - m if m <= 0.1 else 0.05 - 0.5 * m


class ModellingPlayer(KermitPlayer):
    """Kermit whose bidding threshold is set before each game from a model of its opponents
    (:meth:`offset`); the model is kept across games and, with ``rm36``, forgotten every 36
    games seen."""

    def __init__(self, rm36: bool = False, **kermit: Any) -> None:
        super().__init__(**kermit)
        self.base_threshold = self.threshold
        self.base_unopposed = self.unopposed
        self.rm36 = rm36
        self.games_seen = 0
        self.opponents: tuple[str, ...] = ()

    @property
    def single_threshold(self) -> float | None:
        """``None``: the threshold is set anew before every game from the opponent model."""
        return None

    def meet(self, seat: int, names: Sequence[str]) -> None:
        """The names of the coming game's seats: the opponents are the other two."""
        self.opponents = tuple(n for s, n in enumerate(names) if s != seat)

    def new_game(self, seat: int, seed: int) -> None:
        super().new_game(seat, seed)
        self.threshold = self.adjusted_threshold()
        if self.base_unopposed is not None:
            shift = self.threshold - self.base_threshold
            self.unopposed = min(1.0, max(0.0, self.base_unopposed + shift))

    def adjusted_threshold(self) -> float:
        """The threshold for the next game: the base plus :meth:`offset`, kept in 0..1."""
        return min(1.0, max(0.0, self.base_threshold + self.offset()))

    def offset(self) -> float:
        """The threshold offset the model suggests against the current opponents."""
        raise NotImplementedError

    def forget(self) -> None:
        """Drops the whole model."""
        raise NotImplementedError

    def learn(self, game: Game, seat: int, names: Sequence[str]) -> None:
        """Updates the model with a finished game."""
        raise NotImplementedError

    def game_over(self, game: Game, seat: int, names: Sequence[str]) -> None:
        """Learns from the finished game; with ``rm36`` forgets everything every 36 games."""
        self.learn(game, seat, names)
        self.games_seen += 1
        if self.rm36 and self.games_seen % MODEL_RESET_GAMES == 0:
            self.forget()


@register("tracker")
class TrackerPlayer(ModellingPlayer):
    """Kermit moving its threshold by its own declarer results against these opponents."""

    def __init__(self, rm36: bool = False, cap: float = TRACKER_CAP, **kermit: Any) -> None:
        super().__init__(rm36=rm36, **kermit)
        if not 0.0 <= cap <= 1.0:
            raise PlayerSpecError(f"cap must be in [0, 1], got {cap}")
        self.cap = cap
        self.errors: dict[tuple[str, ...], tuple[float, int]] = {}
        self._pwin: float | None = None

    def new_game(self, seat: int, seed: int) -> None:
        self._pwin = None
        super().new_game(seat, seed)

    def adjusted_threshold(self) -> float:
        return min(self.cap, super().adjusted_threshold())

    def _key(self) -> tuple[str, ...]:
        return tuple(sorted(self.opponents))

    def offset(self) -> float:
        total, n = self.errors.get(self._key(), (0.0, 0))
        return -total / n if n else 0.0

    def forget(self) -> None:
        self.errors = {}

    def act(self, view: View) -> Action | str:
        if view.phase == Phase.SKAT and self._pwin is None and not view.ramsch:
            # the win chance of the initial hand at the final bid (eq. 7.1's pWin)
            self._pwin = self.bid_value(view, view.bid)
        return super().act(view)

    def learn(self, game: Game, seat: int, names: Sequence[str]) -> None:
        result = game.result
        if result is None or result.declarer != seat or self._pwin is None:
            return
        key = tuple(sorted(n for s, n in enumerate(names) if s != seat))
        total, n = self.errors.get(key, (0.0, 0))
        self.errors[key] = (total + float(result.won) - self._pwin, n + 1)


@register("count")
class CountPlayer(ModellingPlayer):
    """Kermit + PIPMA on every player after every game: bids more against weak card players."""

    def __init__(
        self,
        rm36: bool = False,
        min_opportunities: int = COUNT_MIN_OPPORTUNITIES,
        **kermit: Any,
    ) -> None:
        super().__init__(rm36=rm36, **kermit)
        if min_opportunities < 1:
            raise PlayerSpecError(f"min_opportunities must be at least 1, got {min_opportunities}")
        self.min_opportunities = min_opportunities
        self.tally = MistakeTally()
        self.solver = Solver(tt_mb=PIPMA_TT_MB)

    def opponent_rate(self) -> float | None:
        """m: the mean mistake rate of the current opponents with enough opportunities."""
        rates = []
        for name in self.opponents:
            p = self.tally.players.get(name)
            if p is not None and p.opportunities >= self.min_opportunities and p.rate is not None:
                rates.append(p.rate)
        return sum(rates) / len(rates) if rates else None

    def offset(self) -> float:
        m = self.opponent_rate()
        return 0.0 if m is None else count_offset(m)

    def forget(self) -> None:
        self.tally = MistakeTally()

    def learn(self, game: Game, seat: int, names: Sequence[str]) -> None:
        self.solver.clear()
        self.tally.add_game(game, names, self.solver)
