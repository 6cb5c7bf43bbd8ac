"""Claims and concessions at the table, checked against the cards.

A claim (the declarer: "the rest is mine") and a concession (the defenders: "the rest is
yours") end the card play with every remaining card point and trick given to the declarer
(in null: the declarer takes no further trick), as the engine scores ISS's ``SC`` and ``RE``
moves. At our table such an ending is accepted only when it is *certain*: the declarer gets
that result against any defence, with the open-handed solver on the true cards as the judge
(the table knows them; a person claiming does not have to).

- **suit and grand**: the solver's value (the declarer's final card points under best play, the
  skat's included) is 120 less what the defenders have taken; when she has taken every trick so far
  (schwarz is at stake) and three or more cards without points are left, so that a trick
  without points could still go to the defenders, a search over the remaining tricks must also
  show that she takes every one of them;
- **null**: the solver says that the declarer takes no further trick.

>>> import skat
>>> g = skat.Game(skat.Deal.random(seed=7))
>>> for token in ["18", "p", "p", "s", "G.CK.CQ"]:
...     g.apply(token)
>>> rest_is_certain(g, skat.Solver(tt_mb=1))
False
"""

from __future__ import annotations

from skat._core import Game, GameType, Phase, Position, Solver

SEARCH_NODES = 200_000
"""Node budget of the every-trick search; beyond it a schwarz claim counts as uncertain."""


def defender_points_so_far(game: Game) -> int:
    """Card points in the tricks the defenders have taken."""
    d = game.declarer
    return sum(sum(c.points for c in cards) for _, cards, w in game.tricks if w != d)


def _takes_every_trick(game: Game, budget: list[int]) -> bool | None:
    """Whether the declarer takes every remaining trick against any defence (None: the
    search ran out of ``budget``)."""
    d = game.declarer
    tricks_before = len(game.tricks)
    if game.is_over or game.phase != Phase.PLAY:
        return all(w == d for _, _, w in game.tricks)
    budget[0] -= 1
    if budget[0] < 0:
        return None
    mover = game.to_move
    declarer_moves = mover == d
    undecided = False
    for card in sorted(game.legal_cards()):
        child = game.copy()
        child.apply(str(card))
        if len(child.tricks) > tricks_before and child.tricks[-1][2] != d:
            result: bool | None = False
        else:
            result = _takes_every_trick(child, budget)
        if result is None:
            undecided = True
        elif result is declarer_moves:  # a choice that settles it for the mover
            return result
    return None if undecided else not declarer_moves


def rest_is_certain(game: Game, solver: Solver) -> bool:
    """Whether giving the declarer the rest (see the module documentation) is certain."""
    if game.phase != Phase.PLAY or game.is_over or game.contract is None or game.declarer is None:
        return False
    pos = Position.from_game(game)
    if game.contract.game_type == GameType.NULL:
        return solver.solve(pos) == 0
    if solver.solve(pos) < 120 - defender_points_so_far(game):
        return False
    d = game.declarer
    if any(w != d for _, _, w in game.tricks):
        return True  # schwarz is gone: the points are all that counts
    blanks = sum(1 for h in game.hands for c in h if c.points == 0) + sum(
        1 for c in game.trick if c.points == 0
    )
    if blanks < 3:
        return True  # every trick left carries points, and she takes them all
    return _takes_every_trick(game.copy(), [SEARCH_NODES]) is True


__all__ = ["SEARCH_NODES", "defender_points_so_far", "rest_is_certain"]
