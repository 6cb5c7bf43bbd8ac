"""The helper scripts under ``benchmarks/`` that are not part of the package."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_solver_ab_reads_the_probe_totals() -> None:
    ab = load("solver_ab")
    out = (
        "  3 suit  v= 40 ...\n"
        "total: solve 1617317 nodes 107024 us; analyze 3849920 nodes 237153 us\n"
    )
    t = ab.parse_totals(out)
    assert (t.solve_nodes, t.solve_us, t.analyze_nodes, t.analyze_us) == (
        1617317,
        107024,
        3849920,
        237153,
    )
    with pytest.raises(ValueError, match="totals"):
        ab.parse_totals("the probe crashed")


def test_crosscheck_plays_every_variant_set_against_the_reference() -> None:
    cc = load("crosscheck")
    lines: list[str] = []
    assert cc.run(15, 3, False, lines.append)
    assert len(lines) == len(cc.VARIANT_SETS) and all("15 games agree" in x for x in lines)
    lines = []
    assert cc.run(15, 4, True, lines.append) and lines[0].startswith("announced: 15 games agree")
    assert cc.main(["--games", "2", "--seed", "5"]) == 0


def test_opening_leads_finds_decisive_kermit_leads(tmp_path: Path) -> None:
    from skat.tournament import run

    ol = load("opening_leads")
    records = tmp_path / "t.iss"
    run("kermit:worlds=4", "rules", mode="full", deals=6, seed=3, workers=1, records=str(records))
    leads = ol.decisive_leads(str(records))
    for replay, seat, d in leads:
        assert replay.to_move == seat and d.trick == 1 and d.seat == seat
        assert d.winning and d.losing
    out = ol.good_lead_shares(str(records), ["kermit:worlds=4"], seeds=1)
    assert out["positions"] == len(leads)
    assert all(0.0 <= v <= 1.0 for v in out["good_lead_share"].values())


def test_pcut_deviation_ridge_matches_a_dense_solve() -> None:
    pd = load("pcut_deviation")
    rng = np.random.default_rng(3)
    feats = rng.integers(0, 12, size=(40, 3))
    gap = rng.random(40)
    y = rng.random(40) * 5
    x = pd._Design(feats, gap, 12)
    dense = np.zeros((40, 14))
    for i, row in enumerate(feats):
        for f in row:
            dense[i, f] += 1.0
    dense[:, 12], dense[:, 13] = gap, 1.0
    want = np.linalg.solve(dense.T @ dense + 2.0 * np.eye(14), dense.T @ y)
    assert np.allclose(pd.ridge(x, y, 2.0), want, atol=1e-6)


def test_pcut_deviation_finds_an_error_that_its_inputs_predict() -> None:
    from skat.training.estimators import SlotData

    pd = load("pcut_deviation")
    rng = np.random.default_rng(5)
    n = 4000
    feats = rng.integers(0, 2, size=(n, 1))  # feature 0: calm, feature 1: wild
    scale = np.where(feats[:, 0] == 1, 8.0, 1.0)
    estimate = np.full(n, 60.0)
    value = estimate + scale * rng.standard_normal(n)
    data = SlotData(feats, value, np.zeros(n), np.full(n, 120.0), np.zeros(n, dtype=bool))
    out = pd.slot_study(data, estimate, 2)
    assert out["correlation"] > 0.4
    for q in pd.COVERAGES:
        c = out[f"coverage_{q:g}"]
        same = c["equal_coverage"]
        assert abs(same["coverage"] - q) < 0.05 and abs(c["constant_coverage"] - q) < 0.05
        fair = c["equal_excess"]
        assert fair["width_ratio"] < 0.8  # narrower than one width for all, erring as much
        assert abs(fair["excess"] - c["constant_excess"]) < 0.1 * c["constant_excess"]
    # at equal coverage a constant width wins here: it covers the calm, gives up the wild
    assert out["coverage_0.5"]["equal_coverage"]["width_ratio"] > 1.0
    calm = SlotData(feats, estimate + rng.standard_normal(n), data.lo, data.hi, data.test)
    assert pd.slot_study(calm, estimate, 2)["correlation"] < 0.1  # nothing to predict


def test_estimator_curve_subset_keeps_the_held_out_rows_and_a_share_of_training() -> None:
    from skat.training.estimators import SlotData

    ec = load("estimator_curve")
    rng = np.random.default_rng(1)

    def slot(rows: int, tests: int) -> SlotData:
        test = np.zeros(rows, dtype=bool)
        test[-tests:] = True
        return SlotData(np.arange(rows)[:, None], rng.random(rows), test * 0.0, test + 1.0, test)

    data = {("suit", 4, 0): slot(60, 6), ("suit", 4, 1): slot(30, 3), ("grand", 4, 0): slot(40, 4)}
    out = ec.subset(data, 27)  # suit: 81 training rows, a third kept; grand: 36, 27 kept
    for key, d in data.items():
        o = out[key]
        assert o.test.sum() == d.test.sum()
        assert np.array_equal(o.features[o.test], d.features[d.test])
        kept = o.features[~o.test][:, 0]
        assert np.array_equal(kept, np.arange(len(kept)))  # the first training rows
    assert [int((~out[k].test).sum()) for k in data] == [18, 9, 27]
    with pytest.raises(ValueError, match="grand at 4 cards has 36 training positions"):
        ec.subset(data, 40)


def test_estimator_curve_schedule_keeps_steps_and_total_decay() -> None:
    ec = load("estimator_curve")
    epochs, decay_per_pass = ec.REFERENCE_EPOCHS, ec.REFERENCE_DECAY
    for n in (5_000, 45_000, 90_000, 360_000, 720_000):
        for stretch in (1, 2):
            passes, decay = ec.schedule(n, stretch=stretch)
            steps = passes * n
            assert steps >= min(ec.MAX_EPOCHS * n, stretch * epochs * ec.REFERENCE)
            assert passes <= ec.MAX_EPOCHS and passes >= epochs
            assert decay**passes == pytest.approx(decay_per_pass**epochs)
    assert ec.REFERENCE == 360_000
    assert ec.schedule(ec.REFERENCE) == (epochs, decay_per_pass)


def test_estimator_curve_power_law_recovers_a_planted_curve() -> None:
    ec = load("estimator_curve")
    ns = [22_500.0, 45_000, 90_000, 180_000, 360_000, 720_000]
    ks = [0.4 + 30.0 * n**-0.5 for n in ns]
    law = ec.power_fit(ns, ks)
    assert law["a"] == pytest.approx(0.4, abs=1e-3) and law["c"] == pytest.approx(0.5, abs=0.01)
    need = ec.positions_needed(law, 0.45)
    assert need == pytest.approx((30.0 / 0.05) ** 2, rel=0.05)
    assert ec.positions_needed(law, 0.35) is None  # below the floor
    flat = ec.power_fit(ns, [1.0] * len(ns))
    assert ec.positions_needed(flat, 0.5) is None


def test_estimator_curve_k_is_the_mean_deviation_ratio_to_the_reference() -> None:
    ec = load("estimator_curve")

    def fit(n: int, stretch: int, sds: tuple[float, float, float]) -> dict[str, object]:
        slots = [
            {"class": gc, "cards": 4, "role": r, "mae": sd * 0.8, "sd": sd}
            for gc in ("suit", "grand")
            for r, sd in enumerate(sds)
        ]
        return {"n": n, "epochs": 8, "stretch": stretch, "slots": slots}

    fits = [fit(10, 1, (2.0, 4.0, 4.0)), fit(20, 1, (1.0, 2.0, 4.0)), fit(20, 2, (1.0, 1.0, 1.0))]
    out = ec.summarise(fits, reference=20)
    rows = out["suit"]["sizes"]
    assert [(r["n"], r["stretch"]) for r in rows] == [(10, 1), (20, 1), (20, 2)]
    assert [r["k"] for r in rows] == pytest.approx([5 / 3, 1.0, 7 / 12])
    assert rows[0]["sd"] == pytest.approx(10 / 3) and rows[0]["mae"] == pytest.approx(8 / 3)
    assert out["suit"]["power_law"] is None  # two sizes: no curve to fit
    wider = ec.summarise([fit(20, 1, (2.0, 4.0, 8.0))], ref=ec.reference_fit(fits, 20))
    assert wider["grand"]["sizes"][0]["k"] == pytest.approx(2.0)  # against another run's fit
    with pytest.raises(ValueError, match="no fit of 30 positions"):
        ec.reference_fit(fits, 30)


@pytest.mark.parametrize(
    "args",
    [["--positions", "0"], ["--hidden", "0"], ["--sizes", "0", "360000"], ["--workers", "0"]],
)
def test_estimator_curve_refuses_bad_options_in_one_line(args: list[str]) -> None:
    import subprocess

    run = subprocess.run(
        [sys.executable, str(BENCHMARKS / "estimator_curve.py"), *args],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.strip().splitlines()[-1].startswith("estimator_curve.py: error: --")


@pytest.fixture(scope="module")
def kermit_records(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, int, int]:
    """A small full-game tournament's records, kermit against rules, with the number of games
    kermit declared and won."""
    from skat.tournament import run

    records = str(tmp_path_factory.mktemp("records") / "t.iss")
    result = run(
        "kermit:worlds=2,points=false", "rules", mode="full", deals=6, seed=3, records=records
    )
    stats = result.players[result.a]
    return records, stats.declarer_games, stats.declarer_wins


def test_unopposed_calibration_counts_every_contract_of_the_player(
    kermit_records: tuple[str, int, int],
) -> None:
    uc = load("unopposed_calibration")
    records, declared, won = kermit_records
    rows = uc.contracts(records, "kermit")
    assert len(rows) == declared
    assert sum(w for _, _, w in rows) == won
    assert all(0.0 <= p <= 1.0 for _, p, _ in rows)
    out = uc.calibration(records, "kermit", (0.0, 1.01))
    assert out["unopposed"]["contracts"] + out["opposed"]["contracts"] == len(rows)
    for name in ("unopposed", "opposed"):
        assert out[name]["band"]["contracts"] == out[name]["contracts"]


def test_logit_offset_maximises_the_likelihood() -> None:
    bo = load("bidding_offsets")
    rng = np.random.default_rng(5)
    p = rng.uniform(0.05, 0.95, 400)
    logit = np.log(p / (1 - p))
    y = (rng.uniform(size=400) < 1 / (1 + np.exp(-(logit + 0.7)))).astype(np.float64)
    b, se = bo.logit_offset(p, y)

    def loglik(shift: float) -> float:
        s = 1 / (1 + np.exp(-(logit + shift)))
        return float(np.sum(y * np.log(s) + (1 - y) * np.log(1 - s)))

    grid = np.linspace(-1.0, 2.0, 3001)
    assert abs(b - grid[np.argmax([loglik(g) for g in grid])]) <= 0.001
    assert abs(b - 0.7) < 3 * se  # the true shift, within the stated error
    assert bo.logit_offset(p, (rng.uniform(size=400) < p).astype(np.float64))[0] != b


def test_bidding_offsets_count_every_contract_of_the_player(
    kermit_records: tuple[str, int, int],
) -> None:
    bo = load("bidding_offsets")
    records, declared, won = kermit_records
    rows = bo.contracts(records, "kermit")
    assert len(rows) == declared
    assert sum(w for *_, w in rows) == won
    out = bo.offsets(records, "kermit")
    families = out["families"].values()
    assert sum(f["contracts"] for f in families) == len(rows)
    for f in families:
        assert sum(b["n"] for b in f["pick_up_bins"]) == f["pick_ups"]


def test_shifted_model_raises_each_family_win_logit_by_its_shift() -> None:
    import skat
    from skat.bidding import default_model

    bo = load("bidding_offsets")
    base = default_model()
    shifted = bo.shifted_model(base, 0.5, 0.25, 0.6)
    want = {"D": 0.5, "C": 0.5, "G": 0.25, "N": 0.6, "NO": 0.6}
    for seed in range(20):
        deal = skat.Deal.random(seed)
        hand, skat_cards, seat = deal.hands[seed % 3], deal.skat, seed % 3
        for kind, shift in want.items():
            p = base.win_probability(hand, skat_cards, kind, seat)
            q = shifted.win_probability(hand, skat_cards, kind, seat)
            got = np.log(q / (1 - q)) - np.log(p / (1 - p))
            assert abs(got - shift) < 1e-3, (seed, kind)
            assert (
                shifted.probabilities(hand, skat_cards, kind, seat)[1:]
                == (base.probabilities(hand, skat_cards, kind, seat)[1:])
            )


def test_pcut_window_grid_reports_what_the_benchmark_gives(tmp_path: Path) -> None:
    from skat._core import estimator_layout, probcut_benchmark

    if not estimator_layout()["builtin_slots"]:
        pytest.skip("this build embeds no estimators")
    pw = load("pcut_window")
    out, png = tmp_path / "w.json", tmp_path / "w.png"
    args = ["--positions", "12", "--seed", "3", "--repeat", "1", "--pcuts", "0.3,0.5"]
    assert pw.main([*args, "--windows", "1,8", "--json", str(out), "--plot", str(png)]) == 0
    rows = json.loads(out.read_text())["rows"]
    assert {(r["pcut"], r["window"]) for r in rows} == {(p, w) for p in (0.3, 0.5) for w in (1, 8)}
    assert png.stat().st_size > 0
    for r in rows:
        # the deterministic figures are the benchmark's own for that configuration
        alone = probcut_benchmark(12, 3, r["pcut"], pcut_window=r["window"])
        mine = next(c for c in alone if c["class"] == r["class"])
        assert (r["positions"], r["nodes"], r["decision_agreement"]) == (
            mine["positions"],
            mine["nodes"],
            mine["decision_agreement"],
        )


def test_merge_memory_joins_shards_into_the_bytes_of_one_shard(tmp_path: Path) -> None:
    """The joined file of 600 grand-3 rows cut into shards of 250 is the file one shard of the
    same rows gives (the join is by key, whatever the cut), and its figures are reported."""
    from skat._core import lookup_build_range

    mm = load("merge_memory")
    r = mm.measure("grand", 3, 600, 250, workers=1)
    whole, _ = lookup_build_range("grand", 3, 0, 600)
    assert (r["rows"], r["shards"], r["file_bytes"]) == (600, 3, len(whole))
    assert r["sha256"] == hashlib.sha256(whole).hexdigest()
    assert r["peak_rise_bytes"] >= 0 and r["seconds"] >= 0
