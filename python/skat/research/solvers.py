"""Strategies for :class:`~skat.research.games.Game`: equilibria (CFR+ and, where scipy is
installed, the sequence-form linear program) and perfect information Monte Carlo (PIMC).

:func:`cfr_plus` runs CFR+ (regret matching with regrets floored at zero, alternating updates,
the average strategy weighted by iteration number) in the sequence form, one numpy pass per own
depth, until the pair's exploitability (:func:`~skat.research.games.exploitability`, the sum of
both players' best-response gains) is at most ``tolerance``. Its average strategies are the
equilibrium player of the experiments, as CFR was the thesis's. :func:`sequence_form_lp`
solves the same game exactly as a linear program (scipy's HiGHS); the two agree on the game
value, though not necessarily on the strategies (an equilibrium is not unique).

:func:`pimc` is the strategy of PIMC search with every consistent world: at each information
set, each action's perfect-information (minimax) value is averaged over the set's nodes,
weighted by their chance probability only (the opponent's past moves are not used to weigh
worlds: no inference), and the best actions are played, ties split uniformly (``ties="uniform"``)
or given to the first or last action (``"first"``, ``"last"``). With ``rule="vote"`` an
action's score is instead the weight of the worlds in which it is a best action.

>>> from skat.research.games import from_tree, value
>>> g = from_tree(("P", 0, "a", [("T", 1.0), ("T", -1.0)]))
>>> float(round(cfr_plus(g).value, 3))
1.0
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from skat.research.games import (
    TERMINAL,
    FloatArray,
    Game,
    GameError,
    backup,
    behavioural,
    exploitability,
    realization,
    regret_matching,
    uniform,
    utilities,
    value,
)

TIE_RULES = ("uniform", "first", "last")
"""How :func:`pimc` splits ties between equally good actions."""

PIMC_RULES = ("average", "vote")
"""How :func:`pimc` scores an action over the worlds: its average perfect-information value,
or the number of worlds in which it is a best action (a world's vote is shared by its tied
best actions)."""


@dataclass
class Solution:
    """A strategy pair with player 0's value and the pair's exploitability (0 at an exact
    equilibrium); ``iterations`` is CFR+'s count (0 for the linear program)."""

    beh: tuple[FloatArray, FloatArray]
    value: float
    exploitability: float
    iterations: int


def cfr_plus(
    game: Game, tolerance: float = 1e-6, max_iterations: int = 100_000, check_every: int = 10
) -> Solution:
    """CFR+ until the average strategies' exploitability is at most ``tolerance`` (checked
    every ``check_every`` iterations) or ``max_iterations`` are done.

    >>> from skat.research.kuhn import kuhn_poker
    >>> abs(cfr_plus(kuhn_poker(), tolerance=1e-4).value + 1 / 18) < 1e-3
    True
    """
    if tolerance < 0 or max_iterations < 1 or check_every < 1:
        raise GameError("cfr_plus needs tolerance >= 0, max_iterations >= 1, check_every >= 1")
    regrets = [np.zeros(game.seqs[p].count) for p in (0, 1)]
    current = [uniform(game, 0), uniform(game, 1)]
    plans = [np.zeros(game.seqs[p].count) for p in (0, 1)]
    avg = [current[0], current[1]]
    gap = exploitability(game, *avg)
    t = 0
    while gap > tolerance and t < max_iterations:
        t += 1
        for p in (0, 1):
            s = game.seqs[p]
            plans[p] += t * realization(game, p, current[p])
            back = backup(game, p, utilities(game, p, current[1 - p]), current[p])
            if len(s.start):
                regrets[p][1:] = np.maximum(regrets[p][1:] + back.cf[1:] - back.v[s.owner[1:]], 0)
            current[p] = regret_matching(game, p, regrets[p])
        if t % check_every == 0 or t == max_iterations:
            avg = [behavioural(game, p, plans[p]) for p in (0, 1)]
            gap = exploitability(game, *avg)
    return Solution((avg[0], avg[1]), value(game, *avg), gap, t)


def sequence_form_lp(game: Game) -> Solution:
    """An exact equilibrium from the sequence-form linear programs (one per player), solved by
    scipy's HiGHS. Raises :class:`ImportError` without scipy.

    >>> from skat.research.kuhn import kuhn_poker
    >>> round(sequence_form_lp(kuhn_poker()).value * 18, 6)
    -1.0
    """
    plans = []
    for p in (0, 1):
        plan, _ = _lp_plan(game, p)
        plans.append(plan)
    beh = (behavioural(game, 0, plans[0]), behavioural(game, 1, plans[1]))
    return Solution(beh, value(game, *beh), exploitability(game, *beh), 0)


def _constraints(game: Game, p: int) -> tuple[list[int], list[int], list[float]]:
    """The rows, columns and entries of ``p``'s sequence constraints: the empty sequence is
    played with probability 1, each set's actions share its parent sequence's probability."""
    s = game.seqs[p]
    rows, cols, vals = [0], [0], [1.0]
    for i, (par, a, k) in enumerate(zip(s.parent, s.start, s.actions, strict=True)):
        rows += [1 + i] * (k + 1)
        cols += [int(par), *range(int(a), int(a + k))]
        vals += [-1.0] + [1.0] * int(k)
    return rows, cols, vals


def _lp_plan(game: Game, p: int) -> tuple[FloatArray, float]:
    from scipy.optimize import linprog
    from scipy.sparse import coo_matrix, hstack

    o = 1 - p
    n, m = game.seqs[p].count, game.seqs[o].count
    sign = 1.0 if p == 0 else -1.0
    # payoff to p: x^T A y over (own sequence, opponent sequence)
    a = coo_matrix(
        (sign * game.leaf_weight, (game.leaf_seq[p], game.leaf_seq[o])), shape=(n, m)
    ).tocsr()
    er, ec, ev = _constraints(game, p)
    e = coo_matrix((ev, (er, ec)), shape=(1 + len(game.seqs[p].start), n))
    fr, fc, fv = _constraints(game, o)
    f = coo_matrix((fv, (fr, fc)), shape=(1 + len(game.seqs[o].start), m))
    nq = f.shape[0]
    # variables: x (n, >= 0), q (nq, free); maximise q_0 subject to F^T q - A^T x <= 0, E x = e
    cost = np.zeros(n + nq)
    cost[n] = -1.0
    a_ub = hstack([-a.T, f.T]).tocsr()
    a_eq = hstack([e, coo_matrix((e.shape[0], nq))]).tocsr()
    b_eq = np.zeros(e.shape[0])
    b_eq[0] = 1.0
    bounds = [(0.0, None)] * n + [(None, None)] * nq
    res = linprog(cost, A_ub=a_ub, b_ub=np.zeros(m), A_eq=a_eq, b_eq=b_eq, bounds=bounds)
    if res.status != 0:
        raise GameError(f"the sequence-form program failed: {res.message}")
    return np.maximum(np.asarray(res.x[:n], dtype=np.float64), 0.0), float(-res.fun)


def minimax(game: Game) -> FloatArray:
    """Every node's perfect-information value for player 0 (both players see everything from
    that node on; chance nodes average their children).

    >>> from skat.research.games import from_tree
    >>> float(minimax(from_tree(("P", 1, "a", [("T", 2.0), ("T", -1.0)])))[0])
    -1.0
    """
    val = np.where(game.kind == TERMINAL, game.payoff, 0.0)
    levels = game.level_bounds()
    for d in range(len(levels) - 2, -1, -1):
        a, b = levels[d]
        c0, c1 = levels[d + 1]
        inner = np.flatnonzero(game.kind[a:b] != TERMINAL) + a
        offsets = game.first_child[inner] - c0
        child = val[c0:c1]
        kinds = game.kind[inner]
        hi = np.maximum.reduceat(child, offsets)
        lo = np.minimum.reduceat(child, offsets)
        avg = np.add.reduceat(child * game.prob[c0:c1], offsets)
        val[inner] = np.where(kinds == 0, hi, np.where(kinds == 1, lo, avg))
    return val


def pimc(game: Game, p: int, ties: str = "uniform", rule: str = "average") -> FloatArray:
    """The behavioural strategy of PIMC search for player ``p`` with every consistent world
    (see the module text).

    >>> from skat.research.kuhn import kuhn_poker
    >>> g = kuhn_poker()
    >>> pimc(g, 1).round(3).tolist() == pimc(g, 1).round(3).tolist()
    True
    """
    if ties not in TIE_RULES:
        raise GameError(f"ties must be one of {', '.join(TIE_RULES)}, got {ties!r}")
    if rule not in PIMC_RULES:
        raise GameError(f"rule must be one of {', '.join(PIMC_RULES)}, got {rule!r}")
    s = game.seqs[p]
    beh = uniform(game, p)
    if not len(s.start):
        return beh
    mm = minimax(game) * (1.0 if p == 0 else -1.0)
    children = np.arange(1, len(game.kind))
    par = game.parent[1:]
    mine = game.kind[par] == p
    c, pa = children[mine], par[mine]
    seq = s.start[game.infoset[pa]] + game.action[c]
    score = mm[c]
    if rule == "vote":
        # each world's best actions share its vote: 1 / (number of tied best actions)
        order = np.argsort(pa, kind="stable")
        offsets = np.flatnonzero(np.diff(pa[order], prepend=-1))
        top = np.maximum.reduceat(score[order], offsets)
        sizes = np.diff(np.append(offsets, len(order)))
        best = np.abs(score[order] - np.repeat(top, sizes)) <= 1e-9
        shares = np.add.reduceat(best.astype(np.float64), offsets)
        voted = np.zeros(len(order))
        voted[order] = best / np.repeat(shares, sizes)
        score = voted
    q = np.bincount(seq, weights=game.reach[pa] * score, minlength=s.count)
    weight = np.bincount(game.infoset[pa], weights=game.reach[pa], minlength=len(s.start))
    best = np.maximum.reduceat(q[1:], s.start - 1)[s.owner[1:]]
    scale = np.maximum(weight[s.owner[1:]], 1e-300)
    top = (best - q[1:]) / scale <= 1e-9
    if ties != "uniform":
        pick = np.zeros_like(top)
        for a, k in zip(s.start - 1, s.actions, strict=True):
            span = top[a : a + k] if ties == "first" else top[a : a + k][::-1]
            i = int(np.argmax(span))
            pick[a + (i if ties == "first" else k - 1 - i)] = True
        top = pick
    count = np.add.reduceat(top.astype(np.float64), s.start - 1)[s.owner[1:]]
    beh[1:] = top / count
    return beh
