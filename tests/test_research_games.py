"""The extensive-form framework and its solvers against known answers: Kuhn poker's value
-1/18 and its equilibrium family, a biased matching-pennies game solved by hand, best
responses and payoffs against brute force (every pure strategy, a direct tree walk), CFR+
against the sequence-form LP, PIMC's Kuhn strategy derived by hand, Table 5.1's cells."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from skat.research.games import (
    CHANCE,
    TERMINAL,
    Game,
    GameError,
    best_response,
    exploitability,
    from_tree,
    uniform,
    value,
)
from skat.research.kuhn import THESIS_TABLE, kuhn_poker, nash, strategy, table
from skat.research.solvers import cfr_plus, minimax, pimc, sequence_form_lp

# P0 picks heads/tails, P1 picks without seeing it: (H,H) 2, (T,T) 1, mismatches -1.
# Indifference: P0 heads with p: 2p - (1-p) = -p + (1-p) -> p = 2/5; value 2*2/5 - 3/5 = 1/5;
# P1 heads with q: 2q - (1-q) = -q + (1-q) -> q = 2/5.
PENNIES = (
    "P",
    0,
    "me",
    [
        ("P", 1, "you", [("T", 2.0), ("T", -1.0)]),
        ("P", 1, "you", [("T", -1.0), ("T", 1.0)]),
    ],
)


def walk(game: Game, beh0: np.ndarray, beh1: np.ndarray, node: int = 0) -> float:
    """Player 0's expected payoff by a direct recursive walk of the tree."""
    kind = int(game.kind[node])
    if kind == TERMINAL:
        return float(game.payoff[node])
    first, n = int(game.first_child[node]), int(game.n_children[node])
    kids = range(first, first + n)
    if kind == CHANCE:
        return sum(float(game.prob[c]) * walk(game, beh0, beh1, c) for c in kids)
    beh = (beh0, beh1)[kind]
    start = int(game.seqs[kind].start[game.infoset[node]])
    return sum(float(beh[start + a]) * walk(game, beh0, beh1, c) for a, c in enumerate(kids))


def pure_strategies(game: Game, p: int) -> list[np.ndarray]:
    s = game.seqs[p]
    out = []
    for choice in itertools.product(*(range(int(k)) for k in s.actions)):
        beh = np.zeros(s.count)
        beh[0] = 1.0
        beh[s.start + np.array(choice)] = 1.0
        out.append(beh)
    return out


def test_value_matches_a_tree_walk_for_random_strategies() -> None:
    g = kuhn_poker()
    rng = np.random.default_rng(3)
    for _ in range(5):
        behs = []
        for p in (0, 1):
            q = rng.random(6)
            behs.append(strategy(g, p, dict(zip(g.set_keys[p], q, strict=True))))  # type: ignore[arg-type]
        assert value(g, *behs) == pytest.approx(walk(g, behs[0], behs[1]), abs=1e-12)


def test_best_response_is_the_best_pure_strategy() -> None:
    g = kuhn_poker()
    rng = np.random.default_rng(5)
    for p in (0, 1):
        q = rng.random(6)
        opp = strategy(g, 1 - p, dict(zip(g.set_keys[1 - p], q, strict=True)))  # type: ignore[arg-type]
        sign = 1.0 if p == 0 else -1.0
        best = max(
            sign * (value(g, s, opp) if p == 0 else value(g, opp, s)) for s in pure_strategies(g, p)
        )
        got, beh = best_response(g, p, opp)
        assert got == pytest.approx(best, abs=1e-12)
        assert sign * (value(g, beh, opp) if p == 0 else value(g, opp, beh)) == pytest.approx(got)


def test_kuhn_equilibrium_family_has_value_minus_one_eighteenth() -> None:
    g = kuhn_poker()
    for alpha in (0.0, 0.1, 1 / 3):
        eq = nash(g, alpha)
        assert value(g, *eq) == pytest.approx(-1 / 18, abs=1e-12)
        assert exploitability(g, *eq) == pytest.approx(0.0, abs=1e-12)
    # off the family, player 0 is exploitable
    bad = strategy(g, 0, {k: 0.5 for k in g.set_keys[0]})  # type: ignore[misc]
    assert exploitability(g, bad, nash(g)[1]) > 0.01


def test_cfr_plus_solves_kuhn() -> None:
    g = kuhn_poker()
    sol = cfr_plus(g, tolerance=1e-3)
    assert sol.exploitability <= 1e-3
    assert sol.value == pytest.approx(-1 / 18, abs=1e-3)
    assert sol.exploitability == pytest.approx(exploitability(g, *sol.beh))


def test_hand_built_pennies_equilibrium() -> None:
    g = from_tree(PENNIES)
    sol = cfr_plus(g, tolerance=1e-5)
    assert sol.value == pytest.approx(0.2, abs=1e-4)
    assert sol.beh[0][1] == pytest.approx(0.4, abs=1e-3)
    assert sol.beh[1][1] == pytest.approx(0.4, abs=1e-3)


def test_linear_program_agrees_with_cfr_plus() -> None:
    pytest.importorskip("scipy")
    for tree in (PENNIES, None):
        g = from_tree(tree) if tree else kuhn_poker()
        lp = sequence_form_lp(g)
        assert lp.exploitability == pytest.approx(0.0, abs=1e-9)
        assert lp.value == pytest.approx(cfr_plus(g, tolerance=1e-4).value, abs=1e-4)
    assert sequence_form_lp(from_tree(PENNIES)).beh[0][1] == pytest.approx(0.4, abs=1e-9)


def test_pimc_kuhn_strategy_by_hand() -> None:
    g = kuhn_poker()

    def probs(p: int, ties: str) -> dict[Any, float]:
        beh = pimc(g, p, ties=ties)
        return {k: float(beh[s + 1]) for k, s in zip(g.set_keys[p], g.seqs[p].start, strict=True)}

    # player 0: J never bets and folds; Q checks (vs K checking loses 1, betting 2) and calls
    # (average 0 against folding's -1); K wins 1 either way in both worlds: a tie
    assert probs(0, "uniform") == {
        (0, ""): 0.0,
        (1, ""): 0.0,
        (2, ""): 0.5,
        (0, "cb"): 0.0,
        (1, "cb"): 1.0,
        (2, "cb"): 1.0,
    }
    assert probs(0, "first")[(2, "")] == 0.0
    assert probs(0, "last")[(2, "")] == 1.0
    with pytest.raises(GameError):
        pimc(g, 0, ties="coin")


def test_minimax_of_kuhn_deals() -> None:
    g = kuhn_poker()
    mm = minimax(g)
    # with both cards known the higher card wins the ante: +1 for player 0 holding it
    deals = [(i, j) for i in range(3) for j in range(3) if i != j]
    for k, (i, j) in enumerate(deals):
        assert mm[g.first_child[0] + k] == (1.0 if i > j else -1.0)
    assert mm[0] == pytest.approx(0.0)


def test_kuhn_table_against_the_thesis() -> None:
    g = kuhn_poker()
    for alpha in (0.0, 0.2):
        got = table(g, nash(g, alpha))
        # player 2's equilibrium strategy is unique: random player 1's payoff is fixed
        assert got["random_p1"]["nash"] == pytest.approx(table(g, nash(g))["random_p1"]["nash"])
        for key in ("random_p1", "random_p2", "pimc_p2"):
            assert got[key]["best_response"] == pytest.approx(
                THESIS_TABLE[key]["best_response"], abs=0.001
            )
        assert got["pimc_p1"]["nash"] == pytest.approx(-1 / 18)
    # the thesis's PIMC p1 best-response cell is PIMC voting over worlds
    assert table(g, nash(g), rule="vote")["pimc_p1"]["best_response"] == pytest.approx(
        THESIS_TABLE["pimc_p1"]["best_response"], abs=0.001
    )


@pytest.mark.parametrize(
    "tree",
    [
        ("P", 0, "a", [("P", 0, "a", [("T", 1.0)]), ("T", 0.0)]),  # a set mixing depths
        ("C", [(0.5, ("T", 1.0)), (0.4, ("T", 0.0))]),  # chance not summing to 1
        ("X", 1),
    ],
)
def test_bad_trees_raise(tree: Any) -> None:
    with pytest.raises(GameError):
        from_tree(tree)


def test_imperfect_recall_raises() -> None:
    # player 0 forgets his own first move
    tree = (
        "P",
        0,
        "a",
        [
            ("P", 1, "x", [("P", 0, "b", [("T", 1.0), ("T", 0.0)])]),
            ("P", 1, "y", [("P", 0, "b", [("T", 0.0), ("T", 1.0)])]),
        ],
    )
    with pytest.raises(GameError, match="recall"):
        from_tree(tree)


def test_uniform_is_a_strategy() -> None:
    g = kuhn_poker()
    assert value(g, uniform(g, 0), uniform(g, 1)) == pytest.approx(
        walk(g, uniform(g, 0), uniform(g, 1))
    )
