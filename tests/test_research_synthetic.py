"""Synthetic trees (section 5.4.1) and their experiment: the generator's invariants (leaf pairs,
information sets by world and history, df at its extremes), PIMC exact under perfect
information, no challenger beating the equilibrium, CFR+ against the LP, the grid's
independence of the worker count, and the ``skat research kuhn``/``synthetic`` commands."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from skat.cli import main
from skat.research.games import TERMINAL, Game, GameError
from skat.research.solvers import cfr_plus, sequence_form_lp
from skat.research.synthetic import evaluate, run_grid, synthetic_tree, triples


def leaves(g: Game) -> np.ndarray:
    out: np.ndarray = g.payoff[g.kind == TERMINAL]
    return out


def test_leaf_pairs_follow_lc_and_b() -> None:
    w, d = 3, 4
    assert len(leaves(synthetic_tree(d, w, 0.3, 0.5, 0.5, seed=1))) == w * w * 2**d
    assert set(leaves(synthetic_tree(d, w, 1.0, 1.0, 0.5, seed=2))) == {1.0}
    assert set(leaves(synthetic_tree(d, w, 1.0, 0.0, 0.5, seed=3))) == {-1.0}
    pairs = leaves(synthetic_tree(d, w, 0.0, 0.9, 0.5, seed=4)).reshape(-1, 2)
    assert np.all(pairs.sum(axis=1) == 0)
    pairs = leaves(synthetic_tree(6, 4, 0.5, 0.5, 0.5, seed=5)).reshape(-1, 2)
    share = np.mean(pairs[:, 0] == pairs[:, 1])
    assert 0.45 < share < 0.55  # 512 pairs, sd of the share about 0.022


def node_facts(g: Game, w: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per node below the chance node: its chance outcome, its history and its depth."""
    outcome = np.full(len(g.kind), -1)
    hist = np.zeros(len(g.kind), dtype=np.int64)
    for a, b in g.level_bounds()[1:]:
        for n in range(a, b):
            par = g.parent[n]
            outcome[n] = outcome[par] if par else g.action[n]
            hist[n] = hist[par] * 2 + g.action[n] if par else 0
    return outcome, hist, g.depth


@pytest.mark.parametrize("df", [0.0, 0.5, 1.0])
def test_information_sets_know_own_world_and_history(df: float) -> None:
    w = 4
    g = synthetic_tree(4, w, 0.5, 0.5, df, seed=11)
    outcome, hist, depth = node_facts(g, w)
    for p in (0, 1):
        nodes = np.flatnonzero(g.kind == p)
        own = outcome[nodes] // w if p == 0 else outcome[nodes] % w
        for s in range(len(g.seqs[p].start)):
            members = g.infoset[nodes] == s
            assert len(set(own[members])) == 1
            assert len(set(hist[nodes][members])) == 1
            assert len(set(depth[nodes][members])) == 1
            size = int(members.sum())
            if df == 0.0:
                assert size == w
            if df == 1.0:
                assert size == 1


def test_pimc_is_exact_under_perfect_information() -> None:
    for seed in range(3):
        r = evaluate(synthetic_tree(4, 3, 0.3, 0.6, 1.0, seed=seed), tolerance=1e-4)
        assert abs(r.pimc) <= 1e-4
        assert r.random < 0 or r.random == pytest.approx(0.0, abs=1e-4)


def test_no_challenger_beats_the_equilibrium() -> None:
    for seed in range(4):
        tol = 1e-4
        r = evaluate(synthetic_tree(4, 3, 0.5, 0.7, 0.3, seed=seed), tolerance=tol)
        # a challenger gains at most the equilibrium's exploitability over the value
        assert r.pimc <= tol and r.random <= tol
        assert r.exploitability <= tol


def test_cfr_plus_value_matches_the_linear_program() -> None:
    pytest.importorskip("scipy")
    g = synthetic_tree(4, 3, 0.4, 0.6, 0.4, seed=21)
    assert cfr_plus(g, tolerance=1e-5).value == pytest.approx(sequence_form_lp(g).value, abs=1e-5)


def test_linear_program_equilibrium_player() -> None:
    pytest.importorskip("scipy")
    g = synthetic_tree(4, 3, 0.5, 0.7, 0.3, seed=8)
    lp, cfr = evaluate(g, equilibrium="lp"), evaluate(g, tolerance=1e-4)
    assert lp.game_value == pytest.approx(cfr.game_value, abs=1e-4)
    assert lp.exploitability <= 1e-9 and lp.iterations == 0
    assert lp.pimc <= 1e-9 and lp.random <= 1e-9
    with pytest.raises(GameError):
        evaluate(g, equilibrium="oracle")


def test_same_seed_same_tree() -> None:
    a = synthetic_tree(3, 3, 0.5, 0.5, 0.5, seed=9)
    b = synthetic_tree(3, 3, 0.5, 0.5, 0.5, seed=9)
    assert np.array_equal(a.payoff, b.payoff) and np.array_equal(a.infoset, b.infoset)


def test_grid_does_not_depend_on_workers() -> None:
    one = run_grid(2, 2, seed=4, depth=2, worlds=2, workers=1, panels="b")
    two = run_grid(2, 2, seed=4, depth=2, worlds=2, workers=2, panels="b")
    assert one["triples"] == two["triples"]
    assert len(triples(2, "b")) == len(one["triples"]) == 4


def test_kuhn_command_writes_the_table(tmp_path: Path) -> None:
    out = tmp_path / "kuhn.json"
    assert main(["research", "kuhn", "--equilibrium", "alpha=0.1", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    for key in ("random_p1", "random_p2", "pimc_p1", "pimc_p2"):
        assert set(data[key]) == {"nash", "best_response"}
    assert data["pimc_p1"]["nash"] == pytest.approx(-1 / 18)


def test_synthetic_command(tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    args = ["research", "synthetic", "--depth", "2", "--worlds", "2", "--trees", "2"]
    args += ["--steps", "2", "--workers", "1", "--json", str(out), "--plot", str(tmp_path)]
    assert main(args) == 0
    data = json.loads(out.read_text())
    assert set(data["panels"]) == {"a", "b", "c"}
    assert sorted(p.name for p in tmp_path.glob("*.png")) == [
        "synthetic-fig5-5.png",
        "synthetic-fig5-6.png",
        "synthetic-fig5-7.png",
    ]


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["synthetic", "--panels", "ax"], "--panels"),
        (["synthetic", "--plot", "/no/such/dir"], "--plot"),
        (["synthetic", "--trees", "1"], "--trees"),
        (["kuhn", "--equilibrium", "alpha=0.9"], "--equilibrium"),
        (["kuhn", "--ties", "coin"], "--ties"),
    ],
)
def test_bad_options(args: list[str], option: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["research", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert option in err and len(err.splitlines()) == 1
