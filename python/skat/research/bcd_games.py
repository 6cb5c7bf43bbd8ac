"""BCD trees (:mod:`skat.research.bcd`) as games of :mod:`skat.research.games`, so that the
kit of the Kermit thesis's chapter 5 applies to them: the sequence form, CFR+ and exact best
responses. Two uses:

- a cross-check of two independent implementations: the vectorised BCD code's R0 policy and
  exploitability against :func:`skat.research.solvers.pimc` and
  :func:`skat.research.games.exploitability` on the same tree (the BCD exploitability
  ``2 (u1 + u2)`` is twice the sequence form's sum of best-response gains, because it
  counts each seat's gain in units of a whole ±1 game rather than the mean over the seats);
- the payoff of PIMC and its recursions against an equilibrium (chapter 5's measure, which
  chapter 9 does not report): :func:`versus_equilibrium`.

Layout of the game made by :func:`as_game`: the root deals world pair ``(w1, w2)`` (child
``w1 * W + w2``, probability ``1 / W**2``); below it the nodes of each depth are ordered by
world pair, then by parent, then by action, and :func:`histories` gives each position's BCD
history index (action ``a`` at depth ``d`` adds ``a * 2**d``). Player 0 of the game is the
BCD tree's first player (the maximiser, moving at even depths). An information set is labelled
by its depth, history, mover's own world, block exponent and block.

>>> import numpy as np
>>> from skat.research.bcd import random_trees
>>> trees = random_trees(1, 0.5, 0.5, 0.3, np.random.default_rng(4), worlds=2, height=3)
>>> g = as_game(trees, 0)
>>> len(g.kind), int((g.kind == -1).sum())  # root, 4 pairs x (1 + 2 + 4) inner, 4 x 8 leaves
(61, 32)
"""

from __future__ import annotations

import numpy as np

from skat.research.bcd import BcdTrees, policies
from skat.research.games import CHANCE, TERMINAL, FloatArray, Game, GameError, value
from skat.research.solvers import Solution, cfr_plus


def histories(height: int) -> list[np.ndarray]:
    """Per depth ``0..height``, the BCD history index of each node position under one world
    pair, in the game's order (by parent, then action).

    >>> [h.tolist() for h in histories(2)]
    [[0], [0, 1], [0, 2, 1, 3]]
    """
    out = [np.zeros(1, dtype=np.int64)]
    for d in range(height):
        h = out[-1]
        out.append(np.stack([h, h + (1 << d)], axis=1).reshape(-1))
    return out


def as_game(trees: BcdTrees, t: int) -> Game:
    """Tree ``t`` of ``trees`` as a :class:`~skat.research.games.Game` (layout in the module
    text)."""
    if not 0 <= t < trees.count:
        raise GameError(f"tree index {t} outside 0..{trees.count - 1}")
    w, height = trees.worlds, trees.height
    pairs = w * w
    w1 = np.repeat(np.arange(w), w)
    w2 = np.tile(np.arange(w), w)
    hist = histories(height)
    kind = [np.array([CHANCE])]
    parent = [np.array([-1])]
    action = [np.array([0])]
    prob = [np.array([1.0])]
    label = [np.array([-1])]
    payoff = [np.array([0.0])]
    first = 0  # index of the first node of the previous level
    for d in range(height + 1):
        n_hist = 1 << d
        c = np.repeat(np.arange(pairs), n_hist)
        j = np.tile(np.arange(n_hist), pairs)
        h = hist[d][j]
        n = pairs * n_hist
        if d == 0:
            parent.append(np.zeros(n, dtype=np.int64))
            action.append(np.arange(n))
            prob.append(np.full(n, 1.0 / pairs))
        else:
            parent.append(first + np.repeat(np.arange(n // 2), 2))
            action.append(np.tile([0, 1], n // 2))
            prob.append(np.ones(n))
        first += len(kind[-1])
        if d == height:
            kind.append(np.full(n, TERMINAL))
            label.append(np.full(n, -1, dtype=np.int64))
            payoff.append(trees.leaves[t, w1[c], w2[c], h].astype(np.float64))
            continue
        p = d % 2
        own, opp = (w1[c], w2[c]) if p == 0 else (w2[c], w1[c])
        e = trees.blocks[d][t, w1[c], w2[c], h].astype(np.int64)
        key = ((d << height) + h) * w + own
        key = (key * (trees.world_bits + 1) + e) * w + (opp >> e)
        kind.append(np.full(n, p))
        label.append(key)
        payoff.append(np.zeros(n))
    return Game(
        np.concatenate(kind),
        np.concatenate(parent),
        np.concatenate(action),
        np.concatenate(prob),
        np.concatenate(label),
        np.concatenate(payoff),
    )


def strategies(
    game: Game, trees: BcdTrees, policy: list[np.ndarray], t: int
) -> tuple[FloatArray, FloatArray]:
    """Both players' behavioural strategies in ``game`` (made by :func:`as_game` from tree
    ``t``) for a BCD ``policy`` (per depth, the probability of the left action at every node).
    Raises :class:`GameError` if the policy differs within an information set."""
    w, height = trees.worlds, trees.height
    hist = histories(height)
    beh = [np.full(game.seqs[p].count, np.nan) for p in (0, 1)]
    for b in beh:
        b[0] = 1.0
    lo = 1  # the first decision node: the root's children
    for d in range(height):
        n_hist = 1 << d
        n = w * w * n_hist
        nodes = np.arange(lo, lo + n)
        c = np.repeat(np.arange(w * w), n_hist)
        h = hist[d][np.tile(np.arange(n_hist), w * w)]
        left = policy[d][t, c // w, c % w, h].astype(np.float64)
        p = d % 2
        seq = game.seqs[p].start[game.infoset[nodes]]
        beh[p][seq] = left
        beh[p][seq + 1] = 1.0 - left
        if np.any(beh[p][seq] != left):  # some set got two different values
            raise GameError("the policy is not constant on an information set")
        lo += n
    if np.isnan(beh[0]).any() or np.isnan(beh[1]).any():
        raise GameError("the policy leaves an information set without a move")
    return beh[0], beh[1]


def versus_equilibrium(
    trees: BcdTrees, levels: int, tolerance: float = 1e-3
) -> tuple[np.ndarray, list[Solution]]:
    """Per level (R0 .. R``levels``) and tree, the policy's payoff against CFR+'s equilibrium
    (to exploitability ``tolerance``), the mean of the policy in the first seat and in the
    second: at most about 0, 0 for an equilibrium strategy. Also returns each tree's CFR+
    solution."""
    levels_policies = policies(trees, levels)
    out = np.zeros((levels + 1, trees.count))
    solutions = []
    for t in range(trees.count):
        game = as_game(trees, t)
        sol = cfr_plus(game, tolerance=tolerance)
        solutions.append(sol)
        eq0, eq1 = sol.beh
        for k, policy in enumerate(levels_policies):
            s0, s1 = strategies(game, trees, policy, t)
            out[k, t] = 0.5 * (value(game, s0, eq1) - value(game, eq0, s1))
    return out, solutions


__all__ = ["as_game", "histories", "strategies", "versus_equilibrium"]
