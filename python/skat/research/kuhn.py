"""Kuhn poker as a :class:`~skat.research.games.Game`, and the thesis's Table 5.1.

Three cards (J, Q, K); each player antes 1 and is dealt one card (six deals, each 1/6).
Player 0 (the thesis's p1) checks or bets 1; after a check player 1 checks (showdown for 1) or
bets; after a bet the other player folds (losing the ante) or calls (showdown for 2). Every
information set has two actions, in this order: check/bet at an open pot, fold/call facing a
bet. Information sets are keyed ``(card, history)`` with the history a string of ``c`` (check),
``b`` (bet), ``f`` (fold), ``k`` (call). The game value for player 0 is -1/18.

Player 0's equilibria form the family :func:`nash` ``alpha`` in [0, 1/3] (bet J with
probability alpha, K with 3 alpha, call a bet after checking with Q with alpha + 1/3); player
1's equilibrium strategy is unique. :func:`table` computes Table 5.1: random and PIMC play
in each seat against an equilibrium and against a best response.

>>> g = kuhn_poker()
>>> from skat.research.games import value
>>> round(value(g, *nash(g, 0.2)) * 18, 9)
-1.0
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from skat.research.games import (
    FloatArray,
    Game,
    GameError,
    best_response,
    from_tree,
    uniform,
    value,
)
from skat.research.solvers import cfr_plus, pimc, sequence_form_lp

CARDS = "JQK"
"""The deck, lowest first."""

THESIS_TABLE = {
    "random_p1": {"nash": -0.161, "best_response": -0.417},
    "random_p2": {"nash": -0.130, "best_response": -0.500},
    "pimc_p1": {"nash": -0.056, "best_response": -0.083},
    "pimc_p2": {"nash": 0.056, "best_response": -0.166},
}
"""Table 5.1 of the thesis: each challenger's average payoff (bets per game)."""


def _after(history: str, mine: int, theirs: int) -> Any:
    """The subtree after ``history`` (player to move: ``len(history) % 2``) with cards
    ``mine`` (player 0's) and ``theirs`` (player 1's)."""
    show = 1.0 if mine > theirs else -1.0
    ends = {"cc": show, "bf": 1.0, "bk": 2 * show, "cbf": -1.0, "cbk": 2 * show}
    if history in ends:
        return ("T", ends[history])
    p = len(history) % 2
    card = (mine, theirs)[p]
    moves = "fk" if history.endswith("b") else "cb"
    return ("P", p, (card, history), [_after(history + m, mine, theirs) for m in moves])


def kuhn_poker() -> Game:
    """The game (see the module text).

    >>> kuhn_poker().seqs[0].count, kuhn_poker().seqs[1].count
    (13, 13)
    """
    deals = [(i, j) for i in range(3) for j in range(3) if i != j]
    return from_tree(("C", [(1 / 6, _after("", i, j)) for i, j in deals]))


def strategy(game: Game, p: int, probs: dict[tuple[int, str], float]) -> FloatArray:
    """Player ``p``'s behavioural strategy from the probability of the second action (bet or
    call) at each information set ``(card, history)``; every set must be given.

    >>> g = kuhn_poker()
    >>> float(strategy(g, 1, {(c, h): 0.0 for c in range(3) for h in ("b", "c")})[0])
    1.0
    """
    keys = [cast(tuple[int, str], key) for key in game.set_keys[p]]
    if set(probs) != set(keys):
        raise GameError(f"player {p}'s strategy needs exactly the sets {sorted(keys)}")
    beh = np.ones(game.seqs[p].count)
    for i, key in enumerate(keys):
        q = float(probs[key])
        if not 0.0 <= q <= 1.0:
            raise GameError(f"probability {q} at {key} is not in 0..1")
        a = game.seqs[p].start[i]
        beh[a], beh[a + 1] = 1.0 - q, q
    return beh


def nash(game: Game, alpha: float = 0.0) -> tuple[FloatArray, FloatArray]:
    """The equilibrium with player 0's parameter ``alpha`` in [0, 1/3] (see the module text).

    >>> from skat.research.games import exploitability
    >>> g = kuhn_poker()
    >>> exploitability(g, *nash(g, 1 / 3)) < 1e-12
    True
    """
    if not 0.0 <= alpha <= 1 / 3 + 1e-12:
        raise GameError(f"alpha must be in 0..1/3, got {alpha}")
    p0 = {
        (0, ""): alpha,
        (1, ""): 0.0,
        (2, ""): 3 * alpha,
        (0, "cb"): 0.0,
        (1, "cb"): alpha + 1 / 3,
        (2, "cb"): 1.0,
    }
    p1 = {
        (0, "c"): 1 / 3,
        (1, "c"): 0.0,
        (2, "c"): 1.0,
        (0, "b"): 0.0,
        (1, "b"): 1 / 3,
        (2, "b"): 1.0,
    }
    return strategy(game, 0, p0), strategy(game, 1, p1)


def table(
    game: Game,
    equilibrium: tuple[FloatArray, FloatArray],
    ties: str = "uniform",
    rule: str = "average",
) -> dict[str, dict[str, float]]:
    """Table 5.1: each challenger's payoff (to the challenger) in each seat against
    ``equilibrium`` and against a best response to the challenger (PIMC with ``ties`` and
    ``rule`` of :func:`~skat.research.solvers.pimc`).

    >>> g = kuhn_poker()
    >>> round(table(g, nash(g, 0.0))["pimc_p1"]["nash"] * 18, 9)
    -1.0
    """
    out: dict[str, dict[str, float]] = {}
    players = {
        "random": (uniform(game, 0), uniform(game, 1)),
        "pimc": (pimc(game, 0, ties, rule), pimc(game, 1, ties, rule)),
    }
    for name, (c0, c1) in players.items():
        out[f"{name}_p1"] = {
            "nash": value(game, c0, equilibrium[1]),
            "best_response": -best_response(game, 1, c0)[0],
        }
        out[f"{name}_p2"] = {
            "nash": -value(game, equilibrium[0], c1),
            "best_response": -best_response(game, 0, c1)[0],
        }
    return out


def equilibrium(game: Game, which: str) -> tuple[FloatArray, FloatArray]:
    """``"cfr"`` (CFR+ to exploitability 1e-4), ``"lp"`` (the sequence-form linear program,
    needs scipy) or ``"alpha=A"`` (:func:`nash`).

    >>> round(float(equilibrium(kuhn_poker(), "alpha=0.1")[0][1]), 3)
    0.9
    """
    if which == "cfr":
        return cfr_plus(game, tolerance=1e-4).beh
    if which == "lp":
        return sequence_form_lp(game).beh
    if which.startswith("alpha="):
        try:
            alpha = float(which.removeprefix("alpha="))
        except ValueError:
            raise GameError(f"expected alpha=NUMBER, got {which!r}") from None
        return nash(game, alpha)
    raise GameError(f"expected 'cfr', 'lp' or 'alpha=A', got {which!r}")
