"""Self-play runs (``skat train selfplay``), the task runner under them, and the learning curve.

The shards of a run must not depend on how it was played: one process or several, Ray or
not, in one go or resumed. The learning curve is checked on training contracts played with
one-world PIMC (cheap, and every contract family is present).
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from skat import Cards, Game
from skat.bidding.model import BiddingModel, default_model
from skat.cli import main
from skat.defaults import THREADS_ENV, threads_per_worker
from skat.parallel import ParallelError, map_tasks, run_tasks
from skat.records import read_records, record_files
from skat.training.curve import curve_sizes, learning_curve, score_model
from skat.training.fit import samples_from_records, split
from skat.training.selfplay import (
    SelfplayConfig,
    SelfplayError,
    packaged_models,
    read_manifest,
    selfplay,
    shard_name,
)

CHEAP = ("rules", "rules", "kermit:worlds=2,points=false")


def _shards(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.glob("shard-*.iss.gz"))}


def _boom(x: int) -> int:
    if x == 3:
        raise ValueError("task 3 fails")
    return x


def _die_once(marker: str) -> int:
    if not os.path.exists(marker):
        with open(marker, "w") as f:
            f.write("died")
        os._exit(3)
    return 7


# ----- the task runner --------------------------------------------------------------------


def test_run_tasks_gives_every_result_once_for_any_workers() -> None:
    for workers in (1, 2):
        got = dict(run_tasks(abs, list(range(-5, 5)), workers=workers))
        assert got == {i: abs(x) for i, x in enumerate(range(-5, 5))}


def test_map_tasks_keeps_the_order_for_any_workers_and_chunks() -> None:
    tasks = list(range(-7, 6))
    want = [abs(x) for x in tasks]
    for workers in (1, 2):
        for chunksize in (1, 3, 20):
            assert list(map_tasks(abs, tasks, workers=workers, chunksize=chunksize)) == want
    assert list(map_tasks(abs, [], workers=2)) == []
    with pytest.raises(ParallelError):
        list(map_tasks(abs, [1], chunksize=0))
    with pytest.raises(ValueError, match="task 3 fails"):
        list(map_tasks(_boom, [1, 2, 3, 4], workers=2, chunksize=2))


def test_run_tasks_passes_task_errors_and_refuses_zero_workers() -> None:
    with pytest.raises(ValueError, match="task 3 fails"):
        list(run_tasks(_boom, [1, 2, 3, 4], workers=2))
    with pytest.raises(ParallelError):
        list(run_tasks(abs, [1], workers=0))


def _solver_threads(_: int) -> str | None:
    return os.environ.get(THREADS_ENV)


def _set_threads(n: int) -> None:
    os.environ[THREADS_ENV] = str(n)


def test_local_workers_share_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(THREADS_ENV, raising=False)  # spawned workers inherit the environment
    share = str(threads_per_worker(2))
    assert list(map_tasks(_solver_threads, [1, 2, 3], workers=2)) == [share] * 3
    got = run_tasks(_solver_threads, [1, 2], workers=2, initializer=_set_threads, initargs=(5,))
    assert sorted(got) == [(0, "5"), (1, "5")]  # an initializer's count is kept
    monkeypatch.setenv(THREADS_ENV, "3")  # and so is the caller's
    assert list(map_tasks(_solver_threads, [1, 2], workers=2)) == ["3", "3"]


def test_a_ray_task_searches_with_one_solver_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("ray", reason="Ray is an optional extra (pip install 'skat[ray]')")
    monkeypatch.delenv(THREADS_ENV, raising=False)  # the private instance inherits this
    assert list(map_tasks(_solver_threads, [1, 2, 3], ray="local")) == ["1", "1", "1"]


def test_run_tasks_restarts_a_pool_whose_worker_died(tmp_path: Path) -> None:
    marker = str(tmp_path / "marker")
    assert list(run_tasks(_die_once, [marker], workers=2)) == [(0, 7)]
    assert os.path.exists(marker)


_ORPHANS = """
import os, sys, time
from skat.parallel import run_tasks

def task(i):
    open(os.path.join(sys.argv[1], f"{os.getpid()}.pid"), "w").close()
    time.sleep(120)
    return i

if __name__ == "__main__":
    list(run_tasks(task, [0, 1], workers=2))
"""


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc")
def test_workers_exit_when_their_caller_is_killed(tmp_path: Path) -> None:
    script = tmp_path / "orphans.py"
    script.write_text(_ORPHANS)
    caller = subprocess.Popen([sys.executable, str(script), str(tmp_path)])
    deadline = time.time() + 120
    while len(list(tmp_path.glob("*.pid"))) < 2 and time.time() < deadline:
        time.sleep(0.1)
    workers = [int(p.stem) for p in tmp_path.glob("*.pid")]
    assert len(workers) == 2 and all(_running(w) for w in workers)
    caller.kill()
    caller.wait()
    deadline = time.time() + 30
    while any(_running(w) for w in workers) and time.time() < deadline:
        time.sleep(0.1)
    assert not any(_running(w) for w in workers)


# ----- self-play runs ---------------------------------------------------------------------


def test_shards_do_not_depend_on_workers_or_resuming(tmp_path: Path) -> None:
    config = SelfplayConfig(seed=9, players=CHEAP, shard_games=4)
    one = selfplay(tmp_path / "one", 10, config, workers=1, chunk_games=3)
    assert one.games == one.played == 10
    assert sorted(one.shards) == [shard_name(k) for k in range(3)]
    selfplay(tmp_path / "two", 6, config, workers=2, chunk_games=2)
    resumed = selfplay(tmp_path / "two", 10, config, workers=2, chunk_games=2)
    assert resumed.played == 4  # games 6..9 only: shard 1 topped up, shard 2 new
    assert _shards(tmp_path / "one") == _shards(tmp_path / "two")
    again = selfplay(tmp_path / "two", 10, config, workers=2)
    assert again.played == 0 and again.games == 10


def test_shards_hold_replayable_named_records_in_index_order(tmp_path: Path) -> None:
    config = SelfplayConfig(seed=4, players=CHEAP, shard_games=5)
    summary = selfplay(tmp_path, 5, config, workers=1)
    with gzip.open(tmp_path / shard_name(0), "rt", encoding="utf-8") as f:
        lines = [line.strip() for line in f]
    assert len(lines) == 5
    assert all(f"ID[4-{i}]" in line for i, line in enumerate(lines))
    assert all("P2[kermit]" in line for line in lines)
    games = [Game.from_iss(line) for line in lines]
    declared = [g for g in games if g.result is not None and not g.result.passed]
    assert summary.declared == len(declared)
    assert summary.won == sum(bool(g.result.won) for g in declared if g.result is not None)
    assert read_records([tmp_path]) == lines
    assert record_files([tmp_path]) == [str(tmp_path / shard_name(0))]
    manifest = read_manifest(tmp_path)
    assert manifest is not None
    assert manifest["config"]["players"] == list(CHEAP)
    assert manifest["shards"][shard_name(0)]["games"] == 5


def test_a_directory_of_another_configuration_is_refused(tmp_path: Path) -> None:
    selfplay(tmp_path, 2, SelfplayConfig(seed=1, players=CHEAP), workers=1)
    before = _shards(tmp_path)
    with pytest.raises(SelfplayError, match="another configuration"):
        selfplay(tmp_path, 4, SelfplayConfig(seed=2, players=CHEAP), workers=1)
    assert _shards(tmp_path) == before


def test_training_contracts_mode(tmp_path: Path) -> None:
    config = SelfplayConfig(seed=3, contracts=True, worlds=1, shard_games=10)
    summary = selfplay(tmp_path, 6, config, workers=1)
    assert summary.declared == 6
    samples = samples_from_records(read_records([tmp_path]))
    assert len(samples) == 6
    assert read_manifest(tmp_path)["config"]["contracts"] == {  # type: ignore[index]
        "worlds": 1,
        "guide_sha256": None,
    }


def test_ray_gives_the_same_shards(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="Ray is an optional extra (pip install 'skat[ray]')")
    config = SelfplayConfig(seed=9, players=CHEAP, shard_games=4)
    selfplay(tmp_path / "local", 6, config, workers=2)
    selfplay(tmp_path / "ray", 6, config, workers=2, ray="local")
    assert _shards(tmp_path / "local") == _shards(tmp_path / "ray")


def test_cli_selfplay_checks_options_before_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    assert (
        main(
            [
                "train",
                "selfplay",
                "--games",
                "3",
                "--out",
                str(out),
                "--workers",
                "1",
                "--players",
                "rules",
            ]
        )
        == 0
    )
    assert len(read_records([out])) == 3
    bad = [
        ["--players", "rules,rules"],
        ["--players", "nosuchplayer"],
        ["--guide", str(out / "manifest.json")],
        ["--players", "rules", "--seed", "5"],  # another configuration in the same directory
        ["--players", "rules", "--ray", " "],
    ]
    for extra in bad:
        capsys.readouterr()
        code = main(["train", "selfplay", "--games", "6", "--out", str(out), *extra])
        err = capsys.readouterr().err
        assert code == 2, extra
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert len(read_records([out])) == 3


# ----- the learning curve -----------------------------------------------------------------


@pytest.fixture(scope="module")
def contract_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """1000 training contracts played by one-world PIMC (every contract family present)."""
    directory = tmp_path_factory.mktemp("contracts")
    selfplay(directory, 1000, SelfplayConfig(seed=3, contracts=True, worlds=1), workers=2)
    return directory


def test_curve_sizes() -> None:
    assert curve_sizes([100, 50, 50, 900], available=300) == [50, 100, 300]
    assert curve_sizes([10, 20], available=300) == [10, 20]
    assert curve_sizes([500], available=0) == []


def test_score_model_matches_single_predictions(contract_games: Path) -> None:
    samples = samples_from_records(read_records([contract_games]))[:200]
    model = default_model()
    scores = score_model(model, samples)
    p = np.array(
        [
            model.win_probability(
                Cards.from_bits(s.hand), Cards.from_bits(s.discard), s.kind, s.seat
            )
            for s in samples
        ]
    )
    y = np.array([s.won for s in samples], dtype=np.float64)
    assert scores["games"] == 200
    assert scores["brier"] == pytest.approx(float(np.mean((p - y) ** 2)))
    q = np.clip(p, 1e-6, 1 - 1e-6)
    assert scores["log_loss"] == pytest.approx(
        float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q)))
    )
    assert sum(f["n"] for f in scores["families"].values()) == 200


def test_learning_curve_fits_prefixes_and_scores_references(contract_games: Path) -> None:
    samples = samples_from_records(read_records([contract_games]))
    train, test = split(samples, 0.2, 1)
    curve = learning_curve(train, test, [700, 10**6], {"packaged": default_model()})
    assert [pt["training_games"] for pt in curve["points"]] == [700, len(train)]
    assert curve["test_games"] == len(test)
    y = np.array([s.won for s in test], dtype=np.float64)
    base_brier = float(y.mean() * (1 - y.mean()))
    for pt in [*curve["points"], curve["references"]["packaged"]]:
        assert pt["games"] == len(test)
        assert sum(f["n"] for f in pt["families"].values()) == len(test)
        # every model knows more than the test set's base rate
        assert 0.0 < pt["brier"] < base_brier
        assert pt["log_loss"] > 0.0


def test_cli_curve_and_training_from_a_selfplay_directory(
    contract_games: Path, tmp_path: Path
) -> None:
    js = tmp_path / "curve.json"
    png = tmp_path / "curve.png"
    assert (
        main(
            [
                "train",
                "curve",
                "--data",
                str(contract_games),
                "--sizes",
                "700,5000",
                "--held-out",
                "0.2",
                "--max-games",
                "900",
                "--json",
                str(js),
                "--plot",
                str(png),
            ]
        )
        == 0
    )
    curve = json.loads(js.read_text())
    assert curve["pool_games"] + curve["test_games"] == 900  # every training contract declared
    assert curve["points"][0]["training_games"] == 700
    assert png.stat().st_size > 10_000
    model = tmp_path / "m.npz"
    assert (
        main(
            [
                "train",
                "bidding",
                "--data",
                str(contract_games),
                "--held-out",
                "0.2",
                "--held-out-records",
                str(tmp_path / "held.iss"),
                "--out",
                str(model),
            ]
        )
        == 0
    )
    report = tmp_path / "report.json"
    assert (
        main(
            [
                "report",
                "bidding",
                "--model",
                str(model),
                "--data",
                str(tmp_path / "held.iss"),
                "--solver-games",
                "5",
                "--pimc-games",
                "4",
                "--pimc-worlds",
                "3",
                "--json",
                str(report),
            ]
        )
        == 0
    )
    data = json.loads(report.read_text())
    families = data["sections"]["held_out"]["families"].values()
    assert sum(f["solver"]["n"] for f in families if "solver" in f) == 5
    assert sum(f["pimc"]["n"] for f in families if "pimc" in f) == 4
    assert all(0.0 <= f["pimc"]["pimc_rate"] <= 1.0 for f in families if "pimc" in f)
    assert (
        data["training_games"]
        == sum(1 for _ in samples_from_records(read_records([contract_games])))
        - data["held_out"]["games"]
    )
    assert data["held_out"]["log_loss"] > 0 and data["held_out"]["brier"] > 0


def test_train_bidding_learns_from_iss_archives_too(contract_games: Path, tmp_path: Path) -> None:
    """Human ISS records (the format 'skat replay' reads) join the training games."""
    sample = Path(__file__).parent / "data" / "iss" / "iss-sample.sgf"
    human = len(samples_from_records(read_records([sample])))
    mine = len(samples_from_records(read_records([contract_games])))
    counts = []
    for extra in ([], ["--iss", str(sample)]):
        out = tmp_path / f"m{len(extra)}.npz"
        args = ["train", "bidding", "--data", str(contract_games), "--held-out", "0"]
        assert main([*args, *extra, "--out", str(out)]) == 0
        meta = BiddingModel.load(out).meta
        counts.append(meta["training_games"])
        assert ("iss-sample.sgf" in meta["sources"]) == bool(extra)
    assert counts == [mine, mine + human] and human > 40


def test_report_checks_do_not_depend_on_workers(contract_games: Path) -> None:
    from skat.training.bidding_report import ReportChecks, bidding_report

    files = [str(p) for p in sorted(contract_games.glob("*.gz"))]
    reports = [
        bidding_report(
            default_model(),
            files,
            [],
            ReportChecks(solver_games=40, pimc_games=30, pimc_worlds=3, seed=2, workers=w),
        )
        for w in (1, 2)
    ]
    assert reports[0] == reports[1]
    fams = reports[0]["sections"]["held_out"]["families"].values()
    assert sum(f["solver"]["n"] for f in fams if "solver" in f) == 40
    assert sum(f["pimc"]["n"] for f in fams if "pimc" in f) == 30


def test_a_run_made_with_other_packaged_models_is_not_resumed(tmp_path: Path) -> None:
    config = SelfplayConfig(seed=2, players=CHEAP, shard_games=2)
    selfplay(tmp_path, 2, config, workers=1)
    manifest = read_manifest(tmp_path)
    assert manifest is not None
    assert manifest["config"]["packaged_models"] == packaged_models()
    assert all(manifest["config"]["packaged_models"].values())
    manifest["config"]["packaged_models"]["bidding.npz"] = "0" * 64  # as if made by another
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(SelfplayError, match="another configuration"):
        selfplay(tmp_path, 4, config, workers=1)


def test_research_commands_take_ray_and_answer_in_one_line_without_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    have_ray = importlib.util.find_spec("ray") is not None
    args = ["research", "prefix-trees", "--trees", "2", "--depth", "4", "--min-depth", "4"]
    assert main([*args, "--workers", "2"]) == 0
    assert "Prefix-value trees" in capsys.readouterr().out
    code = main([*args, "--ray", "local"])
    err = capsys.readouterr().err
    if have_ray:
        assert code == 0
    else:
        assert code != 0 and "Traceback" not in err
        assert len(err.strip().splitlines()) == 1 and "Ray" in err
