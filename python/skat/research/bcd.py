"""BCD synthetic trees (Long et al.'s bias / correlation / disambiguation model) and the exact
policies and exploitability of PIMC and its recursions R1, R2, ... (IIMC) on them.

**The trees.** Two players, zero-sum, payoffs +1 (the first player, the maximiser, wins) or -1.
A chance node at the root deals one of ``W`` private worlds to each player (``W x W`` world
pairs, uniformly); below it every world pair has its own binary tree of ``height`` plies in
which the players alternate, the first player at even depths. Moves are public. A node is a
world pair ``(w1, w2)`` and a history index ``h``: action ``a`` (0 left, 1 right) of node ``h``
at depth ``d`` leads to node ``h + a * 2**d`` at depth ``d + 1``.

- *Leaf parents* (depth ``height - 1``): with probability ``corr`` both leaves have the same
  value, +1 with probability ``bias`` and -1 otherwise; else the two leaves are (+1, -1) or
  (-1, +1), uniformly.
- *Information sets*: at a node of the first player's, its information set holds the nodes
  of the same history and the same ``w1`` whose ``w2`` lies in one aligned dyadic block of
  the opponent's worlds (of size ``2**e``), and symmetrically for the second player. At the
  start every block is all ``W`` worlds; each time a player is to move, each of its blocks is
  split in half with probability ``dis``, recursively (the halves may split again in the same
  move). Blocks never merge, so the players have perfect recall: ``dis = 0`` keeps the
  information sets at full size, ``dis = 1`` makes the game one of perfect information.

:class:`BcdTrees` holds a batch of trees as arrays (``leaves`` and, per depth, ``blocks``: the
exponent ``e`` of every node's information set), so that everything below is vectorised over
trees, worlds and histories.

**The policies** (computed exactly, every consistent world weighted equally; a policy is the
probability of the left action at every node, equal at all nodes of an information set):

- R0 (PIMC) values a move by the sum over the information set's worlds of the move's
  perfect-information (minimax) value;
- Rk (k >= 1, IIMC with Rk-1 as the playout module) values a move by the sum over the worlds
  of the expected result when both players finish the game with Rk-1 from there;
- the higher value for the player to move is played; equal values share the probability.

Every value, reach probability and sum is a dyadic rational with a small denominator, exact in
float32 for the sizes accepted (``height <= 12``, ``W <= 16``), so ties are recognised
exactly. Rk and Rk-1 agree in the last ``k`` plies (each recursion level changes one more ply
from the bottom), so Rk is recomputed only above them.

**Exploitability** of a policy is computed with an exact best response (expectimax over the
responder's information sets, with the policy's reach probabilities) in both seats: the sum over
the seats of the responder's payoff minus the policy's payoff, ``2 (u1 + u2)``, between 0 (the
policy is an equilibrium strategy in both seats) and 4.

>>> rng = np.random.default_rng(1)
>>> trees = random_trees(3, corr=0.5, bias=0.5, dis=0.6, rng=rng, worlds=4, height=4)
>>> trees.leaves.shape, [b.shape for b in trees.blocks][:2]
((3, 4, 4, 16), [(3, 4, 4, 1), (3, 4, 4, 2)])
>>> e = exploitability(trees, policies(trees, levels=2)[0])
>>> bool(((0 <= e) & (e <= 4)).all())
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from skat._core import SkatError

Array = NDArray[np.float32]
"""Values, probabilities and sums (exact dyadic rationals in float32)."""

Exponents = NDArray[np.int8]
"""Information set size exponents: the set of a node holds ``2**e`` nodes."""

HEIGHT_MAX = 12
WORLDS_MAX = 16


class BcdError(SkatError):
    """Parameters a BCD tree cannot have (a probability outside 0..1, worlds not a power of
    two, a height outside 1..12)."""


@dataclass(frozen=True)
class BcdTrees:
    """A batch of BCD trees of one shape.

    ``leaves[t, w1, w2, h]`` is the payoff to the first player at leaf ``h`` of world pair
    ``(w1, w2)`` of tree ``t``; ``blocks[d][t, w1, w2, h]`` is the exponent ``e`` of the
    information set of node ``h`` at depth ``d``: the aligned block of ``2**e`` opponent worlds
    (``w2`` for the first player, at even depths; ``w1`` for the second) holding the node's.
    """

    leaves: Array
    blocks: tuple[Exponents, ...]
    _masks: dict[int, tuple[list[Array], bool]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        shape = self.leaves.shape
        if self.leaves.ndim != 4 or shape[1] != shape[2]:
            raise BcdError(f"leaves must have shape (trees, W, W, 2**height), not {shape}")
        worlds, n = shape[1], shape[3]
        if worlds & (worlds - 1) or worlds > WORLDS_MAX or n < 2 or n & (n - 1):
            raise BcdError(f"worlds (1..{WORLDS_MAX}) and leaves must be powers of two")
        if self.height > HEIGHT_MAX:
            raise BcdError(f"height must be at most {HEIGHT_MAX}, got {self.height}")
        if len(self.blocks) != self.height:
            raise BcdError(f"{self.height} block arrays expected, got {len(self.blocks)}")
        for d, b in enumerate(self.blocks):
            if b.shape != (*shape[:3], 1 << d):
                raise BcdError(f"blocks[{d}] has shape {b.shape}")
            if b.size and (b.min() < 0 or b.max() > self.world_bits):
                raise BcdError(f"blocks[{d}] has exponents outside 0..{self.world_bits}")

    @property
    def count(self) -> int:
        """The number of trees."""
        return int(self.leaves.shape[0])

    @property
    def worlds(self) -> int:
        """Worlds per player, ``W``."""
        return int(self.leaves.shape[1])

    @property
    def world_bits(self) -> int:
        """``log2(W)``: the largest information set exponent."""
        return self.worlds.bit_length() - 1

    @property
    def height(self) -> int:
        """Plies below the chance node."""
        return int(self.leaves.shape[3]).bit_length() - 1

    def masks(self, depth: int) -> tuple[list[Array], bool]:
        """``[e >= 1, e >= 2, ...]`` at ``depth`` as 0/1 arrays shaped for a pair of children
        (trees, W, W, 1, histories), without the trailing levels no node reaches, and whether
        every node's set is all ``W`` opponent worlds; computed once."""
        if depth not in self._masks:
            e = self.blocks[depth][:, :, :, None, :]
            masks = []
            for level in range(1, self.world_bits + 1):
                if not (e >= level).any():
                    break
                masks.append((e >= level).astype(np.float32))
            self._masks[depth] = (masks, bool((e == self.world_bits).all()))
        return self._masks[depth]


def _check_probability(name: str, value: float) -> None:
    if not 0.0 <= value <= 1.0:
        raise BcdError(f"{name} must be in 0..1, got {value}")


def random_trees(
    count: int,
    corr: float,
    bias: float,
    dis: float,
    rng: np.random.Generator,
    worlds: int = 8,
    height: int = 8,
) -> BcdTrees:
    """``count`` trees drawn from the BCD model with ``rng`` (see the module docstring).

    >>> t = random_trees(2, 1.0, 1.0, 0.0, np.random.default_rng(0), worlds=2, height=2)
    >>> float(t.leaves.min()), int(t.blocks[1].max())
    (1.0, 1)
    """
    for name, value in (("corr", corr), ("bias", bias), ("dis", dis)):
        _check_probability(name, value)
    if worlds < 1 or worlds & (worlds - 1) or worlds > WORLDS_MAX:
        raise BcdError(f"worlds must be a power of two in 1..{WORLDS_MAX}, got {worlds}")
    if not 1 <= height <= HEIGHT_MAX:
        raise BcdError(f"height must be in 1..{HEIGHT_MAX}, got {height}")
    if count < 0:
        raise BcdError(f"count must be at least 0, got {count}")
    shape = (count, worlds, worlds, 1 << (height - 1))
    correlated = rng.random(shape) < corr
    same = np.where(rng.random(shape) < bias, 1.0, -1.0)
    coin = np.where(rng.random(shape) < 0.5, 1.0, -1.0)
    left = np.where(correlated, same, coin)
    right = np.where(correlated, same, -coin)
    leaves = np.concatenate((left, right), axis=3).astype(np.float32)
    blocks: list[Exponents] = [np.empty(0, np.int8)] * height
    for player in (0, 1):
        for d, e in _split_blocks(count, worlds, height, player, dis, rng):
            blocks[d] = e
    return BcdTrees(leaves, tuple(blocks))


def _split_blocks(
    count: int, worlds: int, height: int, player: int, dis: float, rng: np.random.Generator
) -> list[tuple[int, Exponents]]:
    """The exponents at ``player``'s depths: the blocks of each (own world, history) are the
    leaves of a heap-ordered binary tree over the opponent's worlds whose split nodes are
    flagged; each move splits each unsplit node whose parent is split with probability ``dis``,
    in heap order (so the halves of a new split may split at once)."""
    bits = worlds.bit_length() - 1
    inner = worlds - 1
    flags = np.zeros((count, worlds, 1 << player, inner), dtype=bool)
    last = player
    out: list[tuple[int, Exponents]] = []
    opp = np.arange(worlds)
    for d in range(player, height, 2):
        flags = np.tile(flags, (1, 1, 1 << (d - last), 1))  # history h + 2**last * ...
        for node in range(inner):
            todo = ~flags[..., node]
            if node:
                todo &= flags[..., (node - 1) // 2]
            flags[..., node] |= todo & (rng.random(todo.shape) < dis)
        last = d
        split = np.zeros((count, worlds, 1 << d, worlds), dtype=np.int8)
        for level in range(bits):
            split += flags[..., (1 << level) - 1 + (opp >> (bits - level))]
        e = (bits - split).astype(np.int8)  # (trees, own, history, opponent)
        axes = (0, 1, 3, 2) if player == 0 else (0, 3, 1, 2)
        out.append((d, np.ascontiguousarray(e.transpose(axes))))
    return out


def info_sums(children: Array, masks: list[Array], player: int, full: bool = False) -> Array:
    """Each node's sum of ``children`` (trees, W, W, 2, histories: one value per action) over
    its information set, given the node's ``masks`` and whether every set is ``full``
    (:meth:`BcdTrees.masks`); the sets of ``player`` 0 run over ``w2`` (axis 2), those of
    player 1 over ``w1`` (axis 1).

    The sum over a block of ``2**e`` worlds is built level by level: where ``e >= l``, the
    sum of the other half of the node's block of level ``l`` is added.

    >>> v = np.arange(8, dtype=np.float32).reshape(1, 2, 2, 2, 1)
    >>> info_sums(v, [np.ones((1, 2, 2, 1, 1), np.float32)], 0)[0, :, :, 0, 0].tolist()
    [[2.0, 2.0], [10.0, 10.0]]
    """
    axis = 2 - player
    worlds = children.shape[axis]
    head, tail = children.shape[:axis], children.shape[axis + 1 :]
    if full:
        total = children.sum(axis=axis, keepdims=True)
        return np.broadcast_to(total, children.shape)
    out = children
    finer = children
    size = 1
    for mask in masks:
        size *= 2
        pairs = finer.reshape(*head, worlds // size, 2, *tail)
        other = np.flip(pairs, axis=axis + 1)  # per half: the other half's sum
        spread = out.reshape(*head, worlds // size, 2, size // 2, *tail)
        m = mask.reshape(*mask.shape[:axis], worlds // size, 2, size // 2, *mask.shape[axis + 1 :])
        out = (spread + m * np.expand_dims(other, axis + 2)).reshape(children.shape)
        finer = pairs.sum(axis=axis + 1)
    return out


def _children(x: Array) -> Array:
    """(trees, W, W, 2H) -> (trees, W, W, 2, H): the two children of every node."""
    return x.reshape(*x.shape[:3], 2, -1)


def _choose(q: Array, player: int) -> Array:
    """The probability of the left action from summed values ``q`` (trees, W, W, 2, H): the
    better one for ``player`` (higher for player 0, lower for player 1), one half on a tie."""
    left, right = q[:, :, :, 0], q[:, :, :, 1]
    if player:
        left, right = right, left
    half = np.float32(0.5)
    return np.where(left > right, np.float32(1), np.where(left < right, np.float32(0), half))


def minimax_values(trees: BcdTrees) -> list[Array]:
    """Perfect-information values of every node, per depth (``height + 1`` arrays)."""
    values = [trees.leaves]
    for d in reversed(range(trees.height)):
        c = _children(values[0])
        values.insert(0, c.max(axis=3) if d % 2 == 0 else c.min(axis=3))
    return values


def _mix(p: Array, c: Array) -> Array:
    """The expected child value under left-probability ``p``."""
    right = c[:, :, :, 1]
    result: Array = right + p * (c[:, :, :, 0] - right)
    return result


def policy_values(
    trees: BcdTrees, policy: list[Array], below: list[Array] | None = None
) -> list[Array]:
    """Expected payoff (to the first player) of every node, per depth, when both players
    follow ``policy`` from there. ``below``, if given, holds the values already known at the
    deepest depths (``top .. height``); only the depths above them are computed."""
    values = list(below) if below is not None else [trees.leaves]
    for d in reversed(range(trees.height - len(values) + 1)):
        values.insert(0, _mix(policy[d], _children(values[0])))
    return values


def policy_from_values(trees: BcdTrees, values: list[Array], top: int | None = None) -> list[Array]:
    """The policy at depths ``0 .. top - 1`` (all by default) choosing at every node the
    action whose child's value, summed over the information set, is best for the player to
    move (ties shared)."""
    stop = trees.height if top is None else top
    out = []
    for d in range(stop):
        masks, full = trees.masks(d)
        out.append(_choose(info_sums(_children(values[d + 1]), masks, d % 2, full), d % 2))
    return out


def policies(trees: BcdTrees, levels: int) -> list[list[Array]]:
    """R0 (PIMC) .. R``levels``: per level, per depth, the probability of the left action.

    >>> t = random_trees(1, 0.0, 0.5, 1.0, np.random.default_rng(2), worlds=2, height=3)
    >>> r = policies(t, 2)
    >>> len(r), [p.shape[-1] for p in r[0]]
    (3, [1, 2, 4])
    """
    if levels < 0:
        raise BcdError(f"levels must be at least 0, got {levels}")
    out = [policy_from_values(trees, minimax_values(trees))]
    values = policy_values(trees, out[0])
    for k in range(1, levels + 1):
        top = max(0, trees.height - k)
        policy = policy_from_values(trees, values, top) + out[-1][top:]
        out.append(policy)
        if k < levels:
            values = policy_values(trees, policy, values[top:])
    return out


def best_response_payoff(
    trees: BcdTrees, policy: list[Array], responder: int
) -> NDArray[np.float64]:
    """Per tree, the expected payoff of a best response in seat ``responder`` (0 or 1)
    against ``policy`` in the other seat: expectimax over the responder's information sets,
    each node weighted by the chance that the policy's own moves reach it."""
    reach = [np.ones((*trees.leaves.shape[:3], 1), np.float32)]
    for d in range(trees.height - 1):
        r = reach[d]
        if d % 2 == responder:
            reach.append(np.concatenate((r, r), axis=3))
        else:
            p = policy[d]
            reach.append(np.concatenate((r * p, r - r * p), axis=3))
    value = trees.leaves if responder == 0 else -trees.leaves
    for d in reversed(range(trees.height)):
        c = _children(value)
        if d % 2 == responder:
            masks, full = trees.masks(d)
            cf = info_sums(c * reach[d][:, :, :, None, :], masks, responder, full)
            value = np.where(cf[:, :, :, 0] >= cf[:, :, :, 1], c[:, :, :, 0], c[:, :, :, 1])
        else:
            value = _mix(policy[d], c)
    result: NDArray[np.float64] = value.mean(axis=(1, 2, 3), dtype=np.float64)
    return result


def exploitability(trees: BcdTrees, policy: list[Array]) -> NDArray[np.float64]:
    """Per tree, ``2 (u1 + u2)``: the best responses' gains over ``policy`` in both seats
    (0 for an equilibrium strategy, at most 4)."""
    total: NDArray[np.float64] = 2 * (
        best_response_payoff(trees, policy, 0) + best_response_payoff(trees, policy, 1)
    )
    return total


def level_exploitability(trees: BcdTrees, levels: int) -> NDArray[np.float64]:
    """Exploitability of R0 .. R``levels`` on every tree: shape (levels + 1, trees)."""
    return np.stack([exploitability(trees, p) for p in policies(trees, levels)])
