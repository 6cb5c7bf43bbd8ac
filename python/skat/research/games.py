"""Two-player zero-sum games in extensive form, with chance and information sets, evaluated
exactly in the sequence form.

A :class:`Game` is a tree held in flat numpy arrays, its nodes in level order: the root is node
0, every node's parent comes before it, the nodes of one depth are contiguous and a node's
children are contiguous, in the order of their actions. A node is a terminal
(:data:`TERMINAL`), a chance node (:data:`CHANCE`, its children carry their probabilities) or a
decision of player 0 or 1 in one of that player's information sets. Payoffs are player 0's;
player 1 receives their negation. The game must have perfect recall: all nodes of an
information set have the same number of actions and were reached by the same own actions of
their player. The constructor checks all of this and raises :class:`GameError`.

Player ``p``'s *sequences* are the empty one (index 0) and one per (information set, action).
Information sets are numbered by their own depth (how many own moves come before them), so that
the sequences of one depth are contiguous and the sequences of set ``I`` are
``iset_start[p][I] .. iset_start[p][I] + iset_actions[p][I] - 1``. A *behavioural strategy* of
``p`` is a float array over ``p``'s sequences: the probability of the sequence's action in its
information set (1 at index 0); its *realisation plan* multiplies these along the path.

Everything here is exact (up to float rounding): the expected payoff of a strategy pair is a
sum over terminals of chance probability times both realisation probabilities times payoff
(:func:`value`); a best response maximises counterfactual values bottom-up over information sets
(:func:`best_response`); :func:`exploitability` adds both players' best-response gains.

>>> g = from_tree(("P", 0, "root", [("T", 1.0), ("T", -1.0)]))
>>> best_response(g, 0, uniform(g, 1))[0]
1.0
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from skat._core import SkatError

TERMINAL = -1
"""The kind of a terminal node."""

CHANCE = 2
"""The kind of a chance node."""

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


class GameError(SkatError):
    """A game tree that breaks the framework's invariants (order, recall, probabilities)."""


@dataclass(frozen=True)
class Span:
    """The sequences of one own depth: ``lo .. hi - 1``, each one's parent sequence
    (``parent``) and the offsets of its sets' first sequences from ``lo`` (``offsets``)."""

    lo: int
    hi: int
    sets: tuple[int, int]
    parent: IntArray
    offsets: IntArray


@dataclass(frozen=True)
class Seqs:
    """One player's sequence form: information sets ordered by own depth and their actions.

    ``parent[I]`` is the sequence leading to set ``I`` (0: none), ``start[I]`` its first
    sequence, ``actions[I]`` its action count, ``levels`` the ``(first, end)`` set ranges of
    each own depth, ``owner[s]`` the set of sequence ``s`` (-1 for the empty sequence);
    ``spans`` the same levels as sequence ranges, ``uniform`` the uniform strategy.
    """

    parent: IntArray
    start: IntArray
    actions: IntArray
    levels: list[tuple[int, int]]
    owner: IntArray

    @property
    def count(self) -> int:
        """The number of sequences, the empty one included."""
        return len(self.owner)

    @cached_property
    def spans(self) -> list[Span]:
        """Per own depth, its sequences (see :class:`Span`)."""
        out = []
        for a, b in self.levels:
            lo, hi = int(self.start[a]), int(self.start[b - 1] + self.actions[b - 1])
            par = self.parent[self.owner[lo:hi]]
            out.append(Span(lo, hi, (a, b), par, self.start[a:b] - lo))
        return out

    @cached_property
    def uniform(self) -> FloatArray:
        """The uniformly random behavioural strategy."""
        beh = np.ones(self.count)
        beh[1:] = 1.0 / self.actions[self.owner[1:]]
        return beh


class Game:
    """A finite two-player zero-sum game tree with its sequence form (see the module text).

    ``kind[n]`` is :data:`TERMINAL`, :data:`CHANCE` or the player to move; ``parent[n]`` the
    parent (-1 for the root); ``action[n]`` the index of the move leading to ``n``; ``prob[n]``
    the probability of that move if the parent is a chance node; ``infoset[n]`` the node's
    information set among its player's (any non-negative labels, -1 elsewhere); ``payoff[n]``
    player 0's payoff at terminals. After construction ``infoset[n]`` is the set's index in
    the sequence form and ``set_label[p][I]`` the label it was given (``set_keys[p][I]`` the
    key, for games made by :func:`from_tree`).

    >>> g = from_tree(("C", [(0.5, ("T", 2.0)), (0.5, ("T", 0.0))]))
    >>> value(g, uniform(g, 0), uniform(g, 1))
    1.0
    """

    def __init__(
        self,
        kind: npt.ArrayLike,
        parent: npt.ArrayLike,
        action: npt.ArrayLike,
        prob: npt.ArrayLike,
        infoset: npt.ArrayLike,
        payoff: npt.ArrayLike,
    ) -> None:
        self.kind = np.asarray(kind, dtype=np.int64)
        self.parent = np.asarray(parent, dtype=np.int64)
        self.action = np.asarray(action, dtype=np.int64)
        self.prob = np.asarray(prob, dtype=np.float64)
        self.payoff = np.asarray(payoff, dtype=np.float64)
        labels = np.asarray(infoset, dtype=np.int64)
        n = len(self.kind)
        if n == 0 or any(
            len(a) != n for a in (self.parent, self.action, self.prob, labels, self.payoff)
        ):
            raise GameError("a game needs one or more nodes and arrays of equal length")
        self._check_order()
        self._levels = self._level_bounds()
        self._check_children()
        self.reach = self._chance_reach()
        self.infoset = np.full(n, -1, dtype=np.int64)
        self.set_label: list[IntArray] = [np.zeros(0, np.int64), np.zeros(0, np.int64)]
        self.set_keys: list[list[Hashable]] = [[], []]
        self.seqs: list[Seqs] = [self._sequence_form(p, labels) for p in (0, 1)]
        self.node_seq = [self._node_sequences(p) for p in (0, 1)]
        leaves = np.flatnonzero(self.kind == TERMINAL)
        self.leaf_weight = self.reach[leaves] * self.payoff[leaves]
        self.leaf_seq = [self.node_seq[p][leaves] for p in (0, 1)]

    # ----- construction checks --------------------------------------------------------------

    def _check_order(self) -> None:
        n = len(self.kind)
        if self.parent[0] != -1 or (n > 1 and np.any(self.parent[1:] >= np.arange(1, n))):
            raise GameError("nodes must be in level order: the root first, parents before children")
        if n > 1 and (np.any(self.parent[1:] < 0) or np.any(np.diff(self.parent[1:]) < 0)):
            raise GameError("children must be contiguous, in their parents' order")
        if not np.all(np.isin(self.kind, (TERMINAL, 0, 1, CHANCE))):
            raise GameError("node kinds are TERMINAL, 0, 1 or CHANCE")

    def _level_bounds(self) -> list[tuple[int, int]]:
        n = len(self.kind)
        depth = np.zeros(n, dtype=np.int64)
        for _ in range(n):
            new = depth.copy()
            new[1:] = depth[self.parent[1:]] + 1
            if np.array_equal(new, depth):
                break
            depth = new
        if np.any(np.diff(depth) < 0):
            raise GameError("nodes must be in level order (depth never decreases)")
        self.depth = depth
        cuts = np.flatnonzero(np.diff(depth)) + 1
        bounds = np.concatenate(([0], cuts, [n]))
        return [(int(a), int(b)) for a, b in itertools.pairwise(bounds)]

    def _check_children(self) -> None:
        n = len(self.kind)
        counts = np.bincount(self.parent[1:], minlength=n) if n > 1 else np.zeros(n, np.int64)
        inner = self.kind != TERMINAL
        if np.any(counts[inner] == 0) or np.any(counts[~inner] != 0):
            raise GameError("terminals have no children, every other node has some")
        self.first_child = np.zeros(n, dtype=np.int64)
        if n > 1:
            starts = np.flatnonzero(np.diff(self.parent[1:], prepend=-1)) + 1
            self.first_child[self.parent[starts]] = starts
            expect = np.arange(1, n) - self.first_child[self.parent[1:]]
            if not np.array_equal(self.action[1:], expect):
                raise GameError("a node's action must be its index among its siblings")
            chance = self.kind[self.parent[1:]] == CHANCE
            sums = np.bincount(self.parent[1:][chance], self.prob[1:][chance], minlength=n)
            if np.any(self.prob[1:][chance] < 0) or not np.allclose(sums[self.kind == CHANCE], 1.0):
                raise GameError("chance probabilities must be >= 0 and sum to 1 at each node")
        self.n_children = counts

    def _chance_reach(self) -> FloatArray:
        reach = np.ones(len(self.kind))
        for a, b in self._levels[1:]:
            par = self.parent[a:b]
            edge = np.where(self.kind[par] == CHANCE, self.prob[a:b], 1.0)
            reach[a:b] = reach[par] * edge
        return reach

    def _own_moves_before(self, p: int) -> IntArray:
        count = np.zeros(len(self.kind), dtype=np.int64)
        for a, b in self._levels[1:]:
            par = self.parent[a:b]
            count[a:b] = count[par] + (self.kind[par] == p)
        return count

    def _sequence_form(self, p: int, labels: IntArray) -> Seqs:
        nodes = np.flatnonzero(self.kind == p)
        if len(nodes) == 0:
            none = np.zeros(0, dtype=np.int64)
            return Seqs(none, none, none, [], np.array([-1], dtype=np.int64))
        if np.any(labels[nodes] < 0):
            raise GameError(f"every node of player {p} needs an information set label")
        own = self._own_moves_before(p)[nodes]
        uniq, local = np.unique(labels[nodes], return_inverse=True)
        k = len(uniq)
        lo_depth = np.full(k, np.iinfo(np.int64).max)
        np.minimum.at(lo_depth, local, own)
        hi_depth = np.full(k, -1)
        np.maximum.at(hi_depth, local, own)
        acts_lo = np.full(k, np.iinfo(np.int64).max)
        np.minimum.at(acts_lo, local, self.n_children[nodes])
        acts_hi = np.zeros(k, dtype=np.int64)
        np.maximum.at(acts_hi, local, self.n_children[nodes])
        if np.any(lo_depth != hi_depth) or np.any(acts_lo != acts_hi):
            raise GameError(f"player {p}: an information set mixes depths or action counts")
        order = np.lexsort((np.arange(k), lo_depth))
        rank = np.empty(k, dtype=np.int64)
        rank[order] = np.arange(k)
        self.infoset[nodes] = rank[local]
        self.set_label[p] = uniq[order]
        actions = acts_lo[order]
        start = 1 + np.concatenate(([0], np.cumsum(actions)[:-1]))
        owner = np.concatenate(([-1], np.repeat(np.arange(k), actions)))
        depth_sorted = lo_depth[order]
        cuts = np.flatnonzero(np.diff(depth_sorted)) + 1
        bounds = np.concatenate(([0], cuts, [k]))
        levels = [(int(a), int(b)) for a, b in itertools.pairwise(bounds)]
        seqs = Seqs(np.zeros(k, np.int64), start, actions, levels, owner)
        # the parent sequences need the node sequences, which need ``start``: fill in place
        node_seq = self._node_sequences_with(p, start)
        first = np.full(k, -1)
        first[rank[local]] = node_seq[nodes]
        check = node_seq[nodes] == first[rank[local]]
        if not np.all(check):
            raise GameError(f"player {p}: imperfect recall (a set's nodes differ in own moves)")
        seqs.parent[:] = first
        return seqs

    def _node_sequences_with(self, p: int, start: IntArray) -> IntArray:
        seq = np.zeros(len(self.kind), dtype=np.int64)
        for a, b in self._levels[1:]:
            par = self.parent[a:b]
            mine = self.kind[par] == p
            here = seq[par].copy()
            here[mine] = start[self.infoset[par[mine]]] + self.action[a:b][mine]
            seq[a:b] = here
        return seq

    def _node_sequences(self, p: int) -> IntArray:
        if self.seqs[p].count == 1:
            return np.zeros(len(self.kind), dtype=np.int64)
        return self._node_sequences_with(p, self.seqs[p].start)

    def level_bounds(self) -> list[tuple[int, int]]:
        """The ``(first, end)`` node ranges of each depth, root first."""
        return list(self._levels)


def from_tree(tree: Any) -> Game:
    """A :class:`Game` from nested tuples: ``("T", payoff)``, ``("C", [(prob, child), ...])``
    or ``("P", player, infoset_key, [child, ...])`` (keys: any hashables, per player).

    >>> from_tree(("P", 1, "x", [("T", 0.0), ("T", 3.0)])).seqs[1].count
    3
    """
    kind: list[int] = []
    parent: list[int] = []
    action: list[int] = []
    prob: list[float] = []
    labels: list[int] = []
    payoff: list[float] = []
    keys: list[dict[Hashable, int]] = [{}, {}]
    frontier: list[tuple[Any, int, int, float]] = [(tree, -1, 0, 1.0)]
    while frontier:
        nxt: list[tuple[Any, int, int, float]] = []
        for node, par, act, pr in frontier:
            me = len(kind)
            parent.append(par)
            action.append(act)
            prob.append(pr)
            tag = node[0]
            if tag == "T":
                kind.append(TERMINAL)
                labels.append(-1)
                payoff.append(float(node[1]))
            elif tag == "C":
                kind.append(CHANCE)
                labels.append(-1)
                payoff.append(0.0)
                nxt += [(c, me, a, float(q)) for a, (q, c) in enumerate(node[1])]
            elif tag == "P" and node[1] in (0, 1):
                kind.append(int(node[1]))
                labels.append(keys[node[1]].setdefault(node[2], len(keys[node[1]])))
                payoff.append(0.0)
                nxt += [(c, me, a, 1.0) for a, c in enumerate(node[3])]
            else:
                raise GameError(f"unknown tree node {node!r:.40}")
        frontier = nxt
    game = Game(kind, parent, action, prob, labels, payoff)
    for p in (0, 1):
        by_label = {v: k for k, v in keys[p].items()}
        game.set_keys[p] = [by_label[int(label)] for label in game.set_label[p]]
    return game


def uniform(game: Game, p: int) -> FloatArray:
    """Player ``p``'s uniformly random behavioural strategy."""
    return game.seqs[p].uniform.copy()


def realization(game: Game, p: int, beh: FloatArray) -> FloatArray:
    """The realisation plan of behavioural strategy ``beh`` of player ``p``."""
    r = np.array(beh, dtype=np.float64)
    r[0] = 1.0
    for sp in game.seqs[p].spans:
        r[sp.lo : sp.hi] = r[sp.parent] * beh[sp.lo : sp.hi]
    return r


def behavioural(game: Game, p: int, plan: FloatArray) -> FloatArray:
    """The behavioural strategy of realisation plan ``plan`` (uniform where it never plays)."""
    s = game.seqs[p]
    beh = uniform(game, p)
    reach = plan[s.parent[s.owner[1:]]]
    ok = reach > 1e-300
    beh[1:][ok] = plan[1:][ok] / reach[ok]
    return beh


def value(game: Game, beh0: FloatArray, beh1: FloatArray) -> float:
    """Player 0's exact expected payoff when the players follow ``beh0`` and ``beh1``."""
    r0 = realization(game, 0, beh0)
    r1 = realization(game, 1, beh1)
    return float(np.sum(game.leaf_weight * r0[game.leaf_seq[0]] * r1[game.leaf_seq[1]]))


def utilities(game: Game, p: int, beh_opp: FloatArray) -> FloatArray:
    """Per sequence of ``p``: the payoff to ``p`` of the terminals ending in that sequence,
    weighted by chance and the opponent's realisation (``p``'s own moves not counted)."""
    o = 1 - p
    ro = realization(game, o, beh_opp)
    w = game.leaf_weight * ro[game.leaf_seq[o]] * (1.0 if p == 0 else -1.0)
    u = np.bincount(game.leaf_seq[p], weights=w, minlength=game.seqs[p].count)
    return np.asarray(u, dtype=np.float64)


@dataclass
class Backup:
    """Counterfactual values of one player: ``cf[s]`` per sequence (the value of playing to
    ``s`` and on), ``v[I]`` per information set, ``root`` the player's expected payoff."""

    cf: FloatArray
    v: FloatArray
    root: float


def backup(game: Game, p: int, u: FloatArray, beh: FloatArray | None = None) -> Backup:
    """Counterfactual values bottom-up from utilities ``u``: each set's value is the
    ``beh``-weighted sum of its actions' values, or their maximum when ``beh`` is None."""
    s = game.seqs[p]
    below = np.zeros(s.count)
    cf = u.copy()
    v = np.zeros(len(s.start))
    for sp in reversed(s.spans):
        lo, hi = sp.lo, sp.hi
        a, b = sp.sets
        cf[lo:hi] = u[lo:hi] + below[lo:hi]
        if beh is None:
            v[a:b] = np.maximum.reduceat(cf[lo:hi], sp.offsets)
        else:
            v[a:b] = np.add.reduceat(cf[lo:hi] * beh[lo:hi], sp.offsets)
        below += np.bincount(s.parent[a:b], weights=v[a:b], minlength=s.count)
    cf[0] = u[0] + below[0]
    return Backup(cf, v, float(cf[0]))


def best_response(game: Game, p: int, beh_opp: FloatArray) -> tuple[float, FloatArray]:
    """Player ``p``'s best-response value against ``beh_opp`` and a pure strategy reaching it
    (ties to the first action)."""
    back = backup(game, p, utilities(game, p, beh_opp))
    s = game.seqs[p]
    beh = np.zeros(s.count)
    beh[0] = 1.0
    if len(s.start):
        top = np.maximum.reduceat(back.cf[1:], s.start - 1)[s.owner[1:]]
        where = np.arange(1, s.count)
        candidates = np.where(back.cf[1:] >= top, where, s.count)
        beh[np.minimum.reduceat(candidates, s.start - 1)] = 1.0
    return back.root, beh


def exploitability(game: Game, beh0: FloatArray, beh1: FloatArray) -> float:
    """The sum of both players' best-response gains over the pair ``(beh0, beh1)`` (zero
    exactly at an equilibrium; the "NashConv" of the literature)."""
    v = value(game, beh0, beh1)
    return best_response(game, 0, beh1)[0] - v + best_response(game, 1, beh0)[0] + v


def regret_matching(game: Game, p: int, regrets: FloatArray) -> FloatArray:
    """The behavioural strategy proportional to the positive ``regrets`` of each set
    (uniform where none is positive)."""
    s = game.seqs[p]
    beh = uniform(game, p)
    if not len(s.start):
        return beh
    pos = np.maximum(regrets[1:], 0.0)
    total = np.add.reduceat(pos, s.start - 1)[s.owner[1:]]
    ok = total > 0
    beh[1:][ok] = pos[ok] / total[ok]
    return beh


def check_strategy(game: Game, p: int, beh: Sequence[float] | FloatArray) -> FloatArray:
    """``beh`` as a float array, checked to be a behavioural strategy of ``p``."""
    arr = np.asarray(beh, dtype=np.float64)
    s = game.seqs[p]
    if arr.shape != (s.count,) or np.any(arr < -1e-12):
        raise GameError(f"a strategy of player {p} has {s.count} non-negative entries")
    if len(s.start) and not np.allclose(np.add.reduceat(arr[1:], s.start - 1), 1.0):
        raise GameError(f"player {p}'s action probabilities must sum to 1 in each set")
    return arr
