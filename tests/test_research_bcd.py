"""BCD trees, R0..Rk and exploitability (skat.research.bcd, bcd_grid, ``skat research bcd``).

The vectorised code is checked against a hand-computed tree, against plain recursive
references written here (PIMC and IIMC by their definitions, best responses by enumerating
every pure strategy of the responder), and against invariants: information sets are blocks
that only shrink, perfect-information trees are played at equilibrium, exploitability lies in
0..4, results are fixed by the seed.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from skat.cli import main
from skat.research import bcd
from skat.research.bcd import BcdError, BcdTrees
from skat.research.bcd_games import as_game, strategies, versus_equilibrium
from skat.research.bcd_grid import grid, run_grid
from skat.research.games import GameError
from skat.research.games import exploitability as seq_exploitability
from skat.research.solvers import pimc

# ----- a tree computed by hand --------------------------------------------------------------


def hand_tree() -> BcdTrees:
    """W = 2, height 2, no disambiguation (every information set holds both opponent worlds).

    Leaf index h = a0 + 2 a1. Left of the root (a0 = 0) the second player's right move
    depends on w1 only: +1/-1 for w1 = 0, -1/+1 for w1 = 1. Right of the root (a0 = 1) its
    left move loses (+1) and its right move wins (-1) in every world.
    """
    leaves = np.zeros((1, 2, 2, 4), np.float32)
    for w1 in range(2):
        for w2 in range(2):
            sign = 1.0 if w1 == 0 else -1.0
            leaves[0, w1, w2] = [sign, 1.0, -sign, -1.0]  # (a0, a1) = 00, 10, 01, 11
    blocks = (np.ones((1, 2, 2, 1), np.int8), np.ones((1, 2, 2, 2), np.int8))
    return BcdTrees(leaves, blocks)


def test_hand_tree_policies_and_exploitability() -> None:
    trees = hand_tree()
    r0, r1 = bcd.policies(trees, 1)
    # the second player (depth 1): left of the root both moves sum to 0 over w1 (tie), right
    # of the root the right move (-1 in both worlds) is played, by R0 and R1 alike
    for policy in (r0, r1):
        assert policy[1][0, :, :, 0].tolist() == [[0.5, 0.5], [0.5, 0.5]]
        assert policy[1][0, :, :, 1].tolist() == [[0.0, 0.0], [0.0, 0.0]]
    # R0 at the root: both moves have minimax value -1 in every world: a tie
    assert r0[0].ravel().tolist() == [0.5] * 4
    # R1 at the root: left is worth 0 under R0's play, right -1: left
    assert r1[0].ravel().tolist() == [1.0] * 4
    # R0: a best-responding second player wins on the right (half the time): u2 = 1/2; the
    # first player's best response goes left (0): u1 = 0; exploitability 2 (u1 + u2) = 1
    assert bcd.best_response_payoff(trees, r0, 1).tolist() == [0.5]
    assert bcd.best_response_payoff(trees, r0, 0).tolist() == [0.0]
    assert bcd.exploitability(trees, r0).tolist() == [1.0]
    # R1 plays the equilibrium: nothing to exploit
    assert bcd.exploitability(trees, r1).tolist() == [0.0]


# ----- recursive references -----------------------------------------------------------------


def info_set(trees: BcdTrees, t: int, d: int, w1: int, w2: int, h: int) -> list[tuple[int, int]]:
    """The world pairs of node (w1, w2, h)'s information set, from its block exponent."""
    e = int(trees.blocks[d][t, w1, w2, h])
    if d % 2 == 0:
        return [(w1, o) for o in range(trees.worlds) if o >> e == w2 >> e]
    return [(o, w2) for o in range(trees.worlds) if o >> e == w1 >> e]


def child(d: int, h: int, a: int) -> int:
    return h + (a << d)


def reference_policies(trees: BcdTrees, t: int, levels: int) -> list[dict[tuple[int, ...], float]]:
    """R0..R``levels`` by their definitions: {(d, w1, w2, h): probability of the left move}."""
    height, worlds = trees.height, trees.worlds

    def minimax(w1: int, w2: int, d: int, h: int) -> float:
        if d == height:
            return float(trees.leaves[t, w1, w2, h])
        vals = [minimax(w1, w2, d + 1, child(d, h, a)) for a in (0, 1)]
        return max(vals) if d % 2 == 0 else min(vals)

    def value(policy: dict[tuple[int, ...], float], w1: int, w2: int, d: int, h: int) -> float:
        if d == height:
            return float(trees.leaves[t, w1, w2, h])
        p = policy[(d, w1, w2, h)]
        left = value(policy, w1, w2, d + 1, child(d, h, 0))
        right = value(policy, w1, w2, d + 1, child(d, h, 1))
        return p * left + (1 - p) * right

    def choose(q: list[float], d: int) -> float:
        if q[0] == q[1]:
            return 0.5
        better_left = q[0] > q[1] if d % 2 == 0 else q[0] < q[1]
        return 1.0 if better_left else 0.0

    out: list[dict[tuple[int, ...], float]] = []
    for k in range(levels + 1):
        policy: dict[tuple[int, ...], float] = {}
        for d in range(height):
            for w1, w2, h in itertools.product(range(worlds), range(worlds), range(1 << d)):
                q = [0.0, 0.0]
                for x1, x2 in info_set(trees, t, d, w1, w2, h):
                    for a in (0, 1):
                        c = child(d, h, a)
                        if k == 0:
                            q[a] += minimax(x1, x2, d + 1, c)
                        else:
                            q[a] += value(out[-1], x1, x2, d + 1, c)
                policy[(d, w1, w2, h)] = choose(q, d)
        out.append(policy)
    return out


def enumerated_best_response(
    trees: BcdTrees, t: int, policy: list[np.ndarray], responder: int
) -> float:
    """The responder's best payoff over every pure strategy (one move per information set)."""
    height, worlds = trees.height, trees.worlds
    keys: dict[tuple[int, ...], int] = {}
    for d in range(responder, height, 2):
        for w1, w2, h in itertools.product(range(worlds), range(worlds), range(1 << d)):
            members = tuple(sorted(info_set(trees, t, d, w1, w2, h)))
            keys[(d, w1, w2, h)] = hash((d, h, members))
    sets = sorted(set(keys.values()))
    best = -2.0
    for moves in itertools.product((0, 1), repeat=len(sets)):
        move = dict(zip(sets, moves, strict=True))

        def play(w1: int, w2: int, d: int, h: int, move: dict[int, int] = move) -> float:
            if d == height:
                return float(trees.leaves[t, w1, w2, h])
            if d % 2 == responder:
                return play(w1, w2, d + 1, child(d, h, move[keys[(d, w1, w2, h)]]))
            p = float(policy[d][t, w1, w2, h])
            return p * play(w1, w2, d + 1, child(d, h, 0)) + (1 - p) * play(
                w1, w2, d + 1, child(d, h, 1)
            )

        total = sum(play(w1, w2, 0, 0) for w1 in range(worlds) for w2 in range(worlds))
        payoff = total / worlds**2 * (1 if responder == 0 else -1)
        best = max(best, payoff)
    return best


@pytest.mark.parametrize("dis", [0.0, 0.4, 0.8])
def test_policies_match_the_recursive_definitions(dis: float) -> None:
    rng = np.random.default_rng(11)
    trees = bcd.random_trees(4, 0.4, 0.6, dis, rng, worlds=4, height=4)
    fast = bcd.policies(trees, 4)
    for t in range(trees.count):
        ref = reference_policies(trees, t, 4)
        for k in range(5):
            for (d, w1, w2, h), p in ref[k].items():
                assert fast[k][d][t, w1, w2, h] == p, (k, d, w1, w2, h)


@pytest.mark.parametrize(("height", "responder"), [(2, 0), (2, 1), (3, 1)])
def test_best_response_matches_enumeration(height: int, responder: int) -> None:
    rng = np.random.default_rng(height * 10 + responder)
    for dis in (0.0, 0.5):
        trees = bcd.random_trees(3, 0.3, 0.5, dis, rng, worlds=2, height=height)
        for level, policy in enumerate(bcd.policies(trees, 2)):
            fast = bcd.best_response_payoff(trees, policy, responder)
            for t in range(trees.count):
                ref = enumerated_best_response(trees, t, policy, responder)
                assert fast[t] == pytest.approx(ref, abs=1e-6), (dis, level, t)


# ----- invariants ---------------------------------------------------------------------------


def test_information_sets_are_blocks_that_only_shrink() -> None:
    rng = np.random.default_rng(3)
    trees = bcd.random_trees(5, 0.5, 0.5, 0.5, rng, worlds=8, height=6)
    for d in range(trees.height):
        for t, w1, w2, h in itertools.product(range(5), range(8), range(8), range(1 << d)):
            members = info_set(trees, t, d, w1, w2, h)
            e = trees.blocks[d][t, w1, w2, h]
            assert all(trees.blocks[d][t, x1, x2, h] == e for x1, x2 in members)
            if d >= 2:  # the same player's set two plies up holds this one (perfect recall)
                above = set(info_set(trees, t, d - 2, w1, w2, h % (1 << (d - 2))))
                assert set(members) <= above


def test_disambiguation_extremes() -> None:
    rng = np.random.default_rng(4)
    none = bcd.random_trees(3, 0.5, 0.5, 0.0, rng)
    full = bcd.random_trees(3, 0.5, 0.5, 1.0, rng)
    assert all((b == 3).all() for b in none.blocks)
    assert all((b == 0).all() for b in full.blocks)


def test_perfect_information_is_played_at_equilibrium() -> None:
    rng = np.random.default_rng(5)
    for trees in (
        bcd.random_trees(20, 0.5, 0.5, 1.0, rng),
        bcd.random_trees(20, 0.3, 0.7, 0.0, rng, worlds=1, height=6),
    ):
        assert (bcd.level_exploitability(trees, 3) == 0).all()


def test_leaf_model_frequencies() -> None:
    rng = np.random.default_rng(6)
    trees = bcd.random_trees(50, 0.7, 0.8, 0.5, rng)
    left, right = bcd._children(trees.leaves)[:, :, :, 0], bcd._children(trees.leaves)[:, :, :, 1]
    same = left == right
    assert set(np.unique(trees.leaves).tolist()) == {-1.0, 1.0}
    assert same.mean() == pytest.approx(0.7, abs=0.01)
    assert (left[same] == 1).mean() == pytest.approx(0.8, abs=0.01)
    assert (left[~same] == 1).mean() == pytest.approx(0.5, abs=0.01)


def test_exploitability_bounds() -> None:
    rng = np.random.default_rng(7)
    for corr, bias, dis in itertools.product((0.0, 0.5, 1.0), (0.0, 0.7), (0.0, 0.3, 0.9)):
        e = bcd.level_exploitability(bcd.random_trees(6, corr, bias, dis, rng), 3)
        assert (e >= 0).all() and (e <= 4).all()
    # a policy that always loses: the first player always moves into a -1 leaf pair
    leaves = np.full((1, 1, 1, 4), -1.0, np.float32)
    leaves[0, 0, 0, 2:] = 1.0  # right of the root wins for the first player
    trees = BcdTrees(leaves, (np.zeros((1, 1, 1, 1), np.int8), np.zeros((1, 1, 1, 2), np.int8)))
    worst = [np.zeros((1, 1, 1, 1), np.float32), np.full((1, 1, 1, 2), 0.5, np.float32)]
    worst[0][:] = 1.0  # always left, into the losing pair
    assert bcd.best_response_payoff(trees, worst, 1).tolist() == [1.0]


def test_invalid_parameters() -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(BcdError):
        bcd.random_trees(1, 1.5, 0.5, 0.5, rng)
    with pytest.raises(BcdError):
        bcd.random_trees(1, 0.5, 0.5, 0.5, rng, worlds=3)
    with pytest.raises(BcdError):
        bcd.random_trees(1, 0.5, 0.5, 0.5, rng, height=0)
    with pytest.raises(BcdError):
        bcd.policies(hand_tree(), -1)


# ----- the grid -----------------------------------------------------------------------------


def test_grid_is_fixed_by_the_seed_and_cells_are_independent() -> None:
    cells = grid([0.0, 0.5], [0.5], [0.0, 0.6])

    def cells_of(cells: list[tuple[float, float, float]], seed: int, workers: int = 1) -> object:
        return run_grid(cells, 30, seed, levels=2, worlds=4, height=4, workers=workers)["cells"]

    a = cells_of(cells, 3)
    assert cells_of(cells, 3) == a
    assert cells_of(cells, 4) != a
    assert isinstance(a, list) and cells_of(cells[3:], 3) == a[3:]
    assert cells_of(cells, 3, workers=2) == a


def test_grid_shows_the_thesis_pattern_at_its_extremes() -> None:
    """R1 above R0 without disambiguation, below it at dis 0.8 (100 trees, corr = bias = 0.5)."""
    r = run_grid(grid([0.5], [0.5], [0.0, 0.8]), trees=100, seed=1, levels=1)
    low, high = r["cells"]
    assert low["r1_minus_r0"] > 4 * low["r1_minus_r0_se"]
    assert high["r1_minus_r0"] < -4 * high["r1_minus_r0_se"]


def test_cli_writes_json_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, png = tmp_path / "bcd.json", tmp_path / "bcd.png"
    argv = ["research", "bcd", "--trees", "3", "--worlds", "2", "--height", "3", "--levels", "2"]
    argv += ["--corr", "0,1", "--bias", "0.5", "--dis", "0,0.6", "--workers", "1"]
    assert main([*argv, "--json", str(out), "--plot", str(png)]) == 0
    data = json.loads(out.read_text())
    assert [(c["corr"], c["dis"]) for c in data["cells"]] == [(0, 0), (1, 0), (0, 0.6), (1, 0.6)]
    assert all(len(c["exploitability"]) == 3 for c in data["cells"])
    assert [row["dis"] for row in data["by_dis"]] == [0.0, 0.6]
    assert png.stat().st_size > 0
    assert "R2" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["--worlds", "3"], "--worlds"),
        (["--dis", "0,1.5"], "--dis"),
        (["--corr", "0.5,0.5"], "--corr"),
        (["--trees", "0"], "--trees"),
        (["--height", "13"], "--height"),
        (["--json", "/nonexistent-skat-dir/x.json"], "--json"),
    ],
)
def test_cli_rejects_bad_options(
    argv: list[str], option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["research", "bcd", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert option in err and "\n" not in err


# ----- the chapter 5 kit on BCD trees --------------------------------------------------------


@pytest.mark.parametrize("dis", [0.0, 0.3, 0.6, 1.0])
def test_the_sequence_form_kit_agrees_with_the_bcd_code(dis: float) -> None:
    trees = bcd.random_trees(4, 0.5, 0.6, dis, np.random.default_rng(11), worlds=4, height=5)
    levels = bcd.policies(trees, 3)
    for t in range(trees.count):
        game = as_game(trees, t)
        r0 = strategies(game, trees, levels[0], t)
        assert np.allclose(r0[0], pimc(game, 0)) and np.allclose(r0[1], pimc(game, 1))
        for policy in levels:
            s0, s1 = strategies(game, trees, policy, t)
            assert bcd.exploitability(trees, policy)[t] == pytest.approx(
                2 * seq_exploitability(game, s0, s1), abs=1e-9
            )


def test_versus_equilibrium_is_at_most_zero_and_zero_with_perfect_information() -> None:
    rng = np.random.default_rng(12)
    trees = bcd.random_trees(3, 0.5, 0.5, 0.3, rng, worlds=4, height=4)
    v, sols = versus_equilibrium(trees, 2, tolerance=1e-4)
    assert v.shape == (3, 3) and (v <= 1e-4).all()
    assert all(s.exploitability <= 1e-4 for s in sols)
    open_trees = bcd.random_trees(3, 0.5, 0.5, 1.0, rng, worlds=4, height=4)
    assert np.abs(versus_equilibrium(open_trees, 1, tolerance=1e-4)[0]).max() <= 1e-4


def test_a_policy_mixing_within_an_information_set_is_refused() -> None:
    trees = bcd.random_trees(1, 0.5, 0.5, 0.0, np.random.default_rng(13), worlds=2, height=2)
    policy = [p.copy() for p in bcd.policies(trees, 0)[0]]
    policy[0][0, 0, 0, 0], policy[0][0, 0, 1, 0] = 1.0, 0.0  # two worlds of one set
    with pytest.raises(GameError):
        strategies(as_game(trees, 0), trees, policy, 0)


def test_grid_with_equilibrium_adds_the_payoffs() -> None:
    cells = grid([0.5], [0.5], [0.0, 1.0])
    plain = run_grid(cells, trees=3, seed=2, levels=1, worlds=2, height=4)
    both = run_grid(cells, trees=3, seed=2, levels=1, worlds=2, height=4, equilibrium=True)
    for p, b in zip(plain["cells"], both["cells"], strict=True):
        assert p["exploitability"] == b["exploitability"] and "versus_equilibrium" not in p
        assert len(b["versus_equilibrium"]) == 2 and max(b["versus_equilibrium"]) <= 1e-3
    assert both["cells"][1]["versus_equilibrium"] == pytest.approx([0.0, 0.0], abs=1e-3)
    assert "versus_equilibrium" in both["by_dis"][0]
