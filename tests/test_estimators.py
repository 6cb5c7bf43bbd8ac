"""The card-point estimators (``skat train estimators``) and ProbCut (``pcut``)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import skat
from skat._core import (
    Solver,
    check_estimators,
    estimator_estimates,
    estimator_layout,
    estimator_samples,
    probcut_benchmark,
    probcut_grid,
)
from skat.cli import main
from skat.training import estimator_net as net
from skat.training import estimators as est


def test_samples_are_reproducible_and_within_their_bounds() -> None:
    a = estimator_samples(5, 30, "grand", 7)
    assert a == estimator_samples(5, 30, "grand", 7)
    value = np.frombuffer(a["value"], "<i4")
    lo, hi = np.frombuffer(a["lo"], "<i4"), np.frombuffer(a["hi"], "<i4")
    assert len(value) == 30 and (lo <= value).all() and (value <= hi).all()
    feats = np.frombuffer(a["features"], "<u4").reshape(30, a["width"])
    assert feats.max() < estimator_layout()["grand_dim"]
    with pytest.raises(skat.SkatError):
        estimator_samples(5, 3, "null", 7)
    with pytest.raises(skat.SkatError):
        estimator_samples(5, 3, "suit", 11)


def test_generation_does_not_depend_on_the_worker_count() -> None:
    one = est.generate(40, 3, workers=1)
    two = est.generate(40, 3, workers=2)
    assert one.keys() == two.keys()
    for key in one:
        assert np.array_equal(one[key].features, two[key].features)
        assert np.array_equal(one[key].value, two[key].value)
        assert np.array_equal(one[key].test, two[key].test)
    # with one chunk per class and hand size, its last tenth is held out
    assert sum(len(d.value) for d in one.values()) == 12 * 40
    assert sum(int(d.test.sum()) for d in one.values()) == 12 * 4


def test_fitting_learns_a_linear_target_exactly() -> None:
    """On a target that is linear in the features the fit reaches a small error."""
    rng = np.random.default_rng(1)
    dim, n = 50, 4000
    feats = np.stack([rng.integers(0, 25, n), 25 + rng.integers(0, 25, n)], axis=1)
    w = rng.normal(0, 3, dim)
    y = 20 + w[feats].sum(axis=1)
    data = est.SlotData(
        features=feats,
        value=y,
        lo=np.full(n, -1e9),
        hi=np.full(n, 1e9),
        test=np.arange(n) >= 3600,
    )
    b, fitted = est.fit_slot(data, dim, cap=None, steps=1500, rate=0.1, l2=0.0)
    mae, _ = est.score(data, b, fitted, clamp=True)
    assert mae < 0.05


def test_the_estimator_file_round_trips(tmp_path: Path) -> None:
    data = est.generate(60, 2, workers=1)
    fits = est.fit_all(data, cap=8.0, steps=5)
    # a slot without held-out positions gets no model
    held = [key for key, d in data.items() if d.test.sum() >= 2]
    assert len(fits) == len(held) > 18
    path = tmp_path / "e.bin"
    est.save(fits, path)
    check_estimators(path.read_bytes())
    with pytest.raises(skat.SkatError):
        check_estimators(path.read_bytes()[:-3])
    rows = est.report(fits)["slots"]
    assert {r["to_move"] for r in rows} == {"soloist", "left defender", "right defender"}
    assert all(set(r["mae"]) == {"LR", "LR+SA", "LRbdd+SA"} for r in rows)


def test_the_networks_learn_and_the_core_computes_what_numpy_does(tmp_path: Path) -> None:
    data = est.generate(100, 4, workers=1)
    lay = estimator_layout()
    fits = net.fit_nets(data, hidden=6, epochs=3, cap=8.0, seed=2)
    assert [f.game_class for f in fits] == ["suit", "grand"]
    assert all(f.hidden == 6 for f in fits)
    again = net.fit_nets(data, hidden=6, epochs=3, cap=8.0, seed=2)
    for a, b in zip(fits, again, strict=True):
        assert np.array_equal(a.w1, b.w1) and a.bias == b.bias
    blob = net.to_bytes(fits)
    check_estimators(blob)
    with pytest.raises(skat.SkatError):
        check_estimators(blob[:-1])
    for f in fits:
        dim = int(lay[f"{f.game_class}_dim"])
        # every slot with held-out positions has a sigma, and its held-out error
        assert (f.sigma > 0).sum() == len(f.mae) > 10
        for (gc, k, role), d in data.items():
            if gc != f.game_class:
                continue
            slot = (k - f.min_cards) * 3 + role
            x = np.concatenate([d.features, np.full((len(d.value), 1), dim + slot)], axis=1)
            want = net.predict(f, x)
            feats = d.features.astype("<u4")
            if f.sigma[slot] == 0:
                with pytest.raises(skat.SkatError):
                    estimator_estimates(blob, gc, k, role, feats.tobytes(), feats.shape[1])
                continue
            got = estimator_estimates(blob, gc, k, role, feats.tobytes(), feats.shape[1])
            assert np.allclose(got, want, atol=1e-3)
    with pytest.raises(skat.SkatError):
        estimator_estimates(blob, "suit", 6, 0, np.array([10**6] * 40, "<u4").tobytes(), 40)
    # without a file: the estimator embedded in the build
    shipped = (
        Path(__file__).resolve().parents[1] / "crates/skat-core/data/estimators.bin"
    ).read_bytes()
    d = data[("suit", 6, 0)]
    feats = d.features.astype("<u4")
    args = ("suit", 6, 0, feats.tobytes(), feats.shape[1])
    assert estimator_estimates(None, *args) == estimator_estimates(shipped, *args)
    # fitting learns something: the held-out error beats always guessing the training mean
    for f in fits:
        ds = [d for (gc, _, _), d in data.items() if gc == f.game_class]
        y = np.concatenate([d.value for d in ds])
        test = np.concatenate([d.test for d in ds])
        assert np.mean(list(f.mae.values())) < np.abs(y[test] - y[~test].mean()).mean() + 1.0


def test_the_samples_file_round_trips(tmp_path: Path) -> None:
    data = est.generate(30, 5, workers=1)
    path = tmp_path / "s.npz"
    est.save_samples(data, path, 30, 5)
    back = est.load_samples(path, 30, 5)
    assert back.keys() == data.keys()
    for key, d in data.items():
        for name in ("features", "value", "lo", "hi", "test"):
            assert np.array_equal(getattr(back[key], name), getattr(d, name))
    with pytest.raises(ValueError, match="seed 5, not 30 of seed 6"):
        est.load_samples(path, 30, 6)
    big = 2**64 - 1  # any seed the command takes is kept exactly
    est.save_samples({}, path, 30, big)
    est.check_samples(path, 30, big)
    assert est.load_samples(path, 30, big) == {}
    path.write_bytes(b"no npz")
    with pytest.raises(ValueError, match="no labelled positions"):
        est.check_samples(path, 30, big)


def test_train_estimators_command(tmp_path: Path) -> None:
    out, report = tmp_path / "e.bin", tmp_path / "e.json"
    args = ["train", "estimators", "--positions", "60", "--steps", "3", "--workers", "1"]
    assert main([*args, "--hidden", "0", "--out", str(out), "--json", str(report)]) == 0
    assert out.read_bytes()[:4] == b"SKE1"
    check_estimators(out.read_bytes())
    assert 18 < len(json.loads(report.read_text())["slots"]) <= 36
    # the networks, labelled once and fitted again from the kept positions
    samples = tmp_path / "s.npz"
    nets = [*args, "--hidden", "4", "--epochs", "1", "--samples", str(samples)]
    assert main([*nets, "--out", str(out), "--json", str(report)]) == 0
    first = out.read_bytes()
    assert first[:4] == b"SKE2" and samples.exists()
    rows = json.loads(report.read_text())["slots"]
    for r in rows:
        assert r["sigma"] == pytest.approx(max(r["sd"]["net+SA"], 0.5))
    assert main([*nets, "--out", str(out)]) == 0
    assert out.read_bytes() == first
    # the learning rate's decay between passes is an option of its own
    two = [*nets, "--epochs", "2", "--out", str(out)]
    assert main([*two, "--decay", "0.3", "--json", str(report)]) == 0
    assert json.loads(report.read_text())["decay"] == 0.3
    slow = out.read_bytes()
    assert main(two) == 0
    assert out.read_bytes() != slow
    assert main([*nets, "--seed", "9", "--out", str(out)]) == 2


def test_probcut_option_and_its_bounds() -> None:
    with pytest.raises(skat.SkatError):
        Solver(pcut=1.5)
    deal = skat.Deal.random(4)
    pos = skat.Position(deal.hands, "S", declarer=0, leader=0, declarer_points=deal.skat.points)
    exact = Solver().analyze(pos)
    cut = Solver(pcut=0.5).analyze(pos)
    assert exact.keys() == cut.keys()
    in_play = 120 - deal.skat.points
    assert all(deal.skat.points <= v <= deal.skat.points + in_play for v in cut.values())
    # pcut 0 is the exact solver, whose probes keep zero windows whatever pcut_window says
    assert Solver(pcut=0.0).analyze(pos) == exact
    assert Solver(pcut_window=9).analyze(pos) == exact
    wide = Solver(pcut=0.5, pcut_window=9).analyze(pos)
    assert wide.keys() == exact.keys()
    assert all(deal.skat.points <= v <= deal.skat.points + in_play for v in wide.values())
    for bad in (0, 121):
        with pytest.raises(skat.SkatError):
            Solver(pcut=0.5, pcut_window=bad)


def test_bench_solver_pcut(tmp_path: Path) -> None:
    if not estimator_layout()["builtin_slots"]:
        pytest.skip("this build embeds no estimators")
    out = tmp_path / "p.json"
    args = ["bench", "solver", "--positions", "6", "--pcut", "0.5", "--repeat", "2"]
    assert main([*args, "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["pcut"] == 0.5 and data["repeat"] == 2
    assert sum(r["positions"] for r in data["classes"]) == 6
    for r in data["classes"]:
        assert {"worlds_per_sec", "decision_agreement", "decision_loss", "mean_abs_error"} <= set(r)
        assert 0.0 <= r["decision_agreement"] <= 1.0
        # a disagreement gives up at least one card point (or one trick's time in null)
        if r["positions"]:
            assert r["decision_loss"] >= 1.0 - r["decision_agreement"] - 1e-9


def test_bench_solver_pcut_with_a_simulated_exact_estimator(tmp_path: Path) -> None:
    # error scale 0: the simulated estimate is the exact value and ProbCut cuts only nodes
    # whose exact value lies outside the window, so every value stays exact
    if not estimator_layout()["builtin_slots"]:
        pytest.skip("this build embeds no estimators")
    out = tmp_path / "p.json"
    args = ["bench", "solver", "--positions", "8", "--pcut", "0.5", "--pcut-error", "0"]
    # also with wide probe windows: a value inside a window is then an exact value
    for window in ([], ["--pcut-window", "7"]):
        assert main([*args, *window, "--repeat", "1", "--json", str(out)]) == 0
        data = json.loads(out.read_text())
        assert data["pcut_error"] == 0.0
        assert data["pcut_window"] == (7 if window else None)
        cut = [r for r in data["classes"] if r["class"] != "null" and r["positions"]]
        assert cut
        for r in cut:
            assert r["mean_abs_error"] == 0.0 and r["decision_agreement"] == 1.0
            assert r["nodes"] < r["exact_nodes"]


def test_research_pcut_error(tmp_path: Path) -> None:
    if not estimator_layout()["builtin_slots"]:
        pytest.skip("this build embeds no estimators")
    out, png = tmp_path / "e.json", tmp_path / "e.png"
    args = ["research", "pcut-error", "--pcuts", "0.3,0.5", "--errors", "1,0", "--positions", "8"]
    assert main([*args, "--seed", "3", "--json", str(out), "--plot", str(png)]) == 0
    data = json.loads(out.read_text())
    assert [(c["pcut"], c["error_scale"]) for c in data["configs"]] == [
        (0.3, 1.0),
        (0.3, 0.0),
        (0.5, 1.0),
        (0.5, 0.0),
    ]
    for c in data["configs"]:
        assert set(c["meets_target"]) == {r["class"] for r in c["classes"]} <= {"suit", "grand"}
        for r in c["classes"]:
            if c["error_scale"] == 0.0 and r["positions"]:
                # the exact estimate cuts only what the exact search would not need
                assert r["decision_agreement"] == 1.0 and r["mean_abs_error"] == 0.0
    # the shipped estimator's rows are the plain ProbCut benchmark's
    plain_json = tmp_path / "plain.json"
    bench = ["bench", "solver", "--positions", "8", "--seed", "3", "--pcut", "0.3"]
    assert main([*bench, "--json", str(plain_json)]) == 0
    plain = json.loads(plain_json.read_text())
    for mine, theirs in zip(
        data["configs"][0]["classes"],
        [r for r in plain["classes"] if r["class"] != "null"],
        strict=True,
    ):
        assert mine["nodes"] == theirs["nodes"]
        assert mine["decision_agreement"] == theirs["decision_agreement"]
    assert png.stat().st_size > 0


def test_probcut_benchmark_refuses_an_error_scale_outside_0_1() -> None:
    from skat._core import probcut_benchmark

    with pytest.raises(skat.SkatError):
        probcut_benchmark(2, 1, 0.5, 4, 1.5)


def test_players_take_pcut() -> None:
    from skat.players import make_player
    from skat.players.base import PlayerSpecError

    make_player("pimc:worlds=4,threads=1,pcut=0.5")
    make_player("kermit:worlds=4,threads=1,pcut=0.5")
    make_player("kermit:worlds=4,threads=1,pcut=0.3,pcut_window=20")
    with pytest.raises(PlayerSpecError):
        make_player("pimc:pcut=1.5")
    with pytest.raises(PlayerSpecError):
        make_player("pimc:pcut=0.5,pcut_window=0")


def test_probcut_grid_checks_its_input_and_stops_when_progress_raises() -> None:
    for kwargs in (
        {"pcuts": [0.0]},
        {"pcuts": [0.5], "error_scales": [1.5]},
        {"pcuts": [0.5], "repeat": 0},
    ):
        with pytest.raises(skat.PositionError):
            probcut_grid(4, 1, **kwargs)
    seen: list[int] = []

    def stop(done: int) -> None:
        seen.append(done)
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        probcut_grid(6, 1, [0.5], None, progress=stop)
    assert seen == [1, 2]
    # without a simulated estimator the grid's one point is the plain benchmark
    [[rows]] = probcut_grid(5, 2, [0.4], tt_mb=8)
    plain = probcut_benchmark(5, 2, 0.4, tt_mb=8)
    assert [(r["nodes"], r["decision_agreement"]) for r in rows] == [
        (r["nodes"], r["decision_agreement"]) for r in plain
    ]
