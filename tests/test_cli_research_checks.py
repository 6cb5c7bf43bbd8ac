"""Research, training and benchmark options checked before any work: bad input files and
option values end in one line and exit status 2, never a traceback or an empty result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skat.cli import main


def _refused(capsys: pytest.CaptureFixture[str], argv: list[str], words: str) -> None:
    capsys.readouterr()
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


SPADES4 = ["research", "spades", "--table", "4", "--games", "2", "--cards", "1", "--target", "10"]


@pytest.mark.parametrize(
    "reference",
    [
        [1],
        {"table": 2, "rows": {"a": "oops"}},
        {"table": 2, "rows": {"a": {}}},
        {"table": 2, "rows": {"z": {"a_win": 1.0, "b_win": 2.0}}},
        {"table": 2, "rows": [1]},
    ],
)
def test_spades_reference_is_checked_before_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], reference: object
) -> None:
    path = tmp_path / "ref.json"
    path.write_text(json.dumps(reference))
    _refused(capsys, [*SPADES4, "--workers", "1", "--reference", str(path)], "--reference")


def test_spades_rows_must_be_distinct(capsys: pytest.CaptureFixture[str]) -> None:
    _refused(capsys, ["research", "spades", "--table", "2", "--rows", "a,a"], "distinct")


def test_iimc_plot_needs_worlds_in_a_spec(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    solo = {"a": "random", "b": "random", "a_soloist": 1.0, "a_soloist_se": 0.5}
    path = tmp_path / "solo.json"
    path.write_text(json.dumps(solo))
    argv = ["research", "iimc", "plot", str(path), "--out", str(tmp_path / "p.png")]
    _refused(capsys, argv, "worlds")
    path.write_text(json.dumps({**solo, "a": "pimc:worlds=4", "a_soloist": None}))
    _refused(capsys, argv, "a_soloist")
    assert not (tmp_path / "p.png").exists()


def test_iimc_plot_draws_a_one_deal_result_without_an_error_bar(tmp_path: Path) -> None:
    """A one-deal soloist run has no standard error (null in its JSON): it is still plotted."""
    solo = {"a": "pimc:worlds=4", "b": "random", "a_soloist": 1.0, "a_soloist_se": None}
    path = tmp_path / "solo.json"
    path.write_text(json.dumps(solo))
    out = tmp_path / "p.png"
    assert main(["research", "iimc", "plot", str(path), "--out", str(out)]) == 0
    assert out.stat().st_size > 0


@pytest.mark.parametrize("player", ["random", "rules"])
def test_kontra_player_needs_doubling_thresholds(
    capsys: pytest.CaptureFixture[str], player: str
) -> None:
    argv = ["research", "kontra", "--player", player, "--games", "1", "--workers", "1"]
    _refused(capsys, argv, "--player")


def test_prefix_trees_min_depth_follows_depth(tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    argv = ["research", "prefix-trees", "--trees", "1", "--depth", "2", "--workers", "1"]
    assert main([*argv, "--json", str(out)]) == 0
    assert sorted(json.loads(out.read_text())["depths"]) == ["2"]


def test_inference_smoothing_must_be_positive(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "i.npz"
    argv = ["train", "inference", "--deals", "1", "--smoothing", "0", "--out", str(out)]
    _refused(capsys, argv, "--smoothing")
    assert not out.exists()


def test_estimators_without_a_model_write_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "e.bin"
    argv = ["train", "estimators", "--positions", "10", "--hidden", "0", "--steps", "1"]
    _refused(capsys, [*argv, "--workers", "1", "--seed", "1", "--out", str(out)], "--positions")
    assert not out.exists()


def test_bench_solver_needs_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "solver", "--tables", str(tmp_path), "--positions", "1"]
    _refused(capsys, argv, "--tables")


def test_properties_records_must_hold_readable_declared_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty, garbage = tmp_path / "empty.iss", tmp_path / "garbage.iss"
    empty.write_text("")
    garbage.write_text("garbage\n")
    argv = ["research", "properties", "--games", "1", "--records"]
    _refused(capsys, [*argv, str(empty)], "no declared game")
    _refused(capsys, [*argv, str(tmp_path / "empty.iss"), str(garbage)], "garbage.iss:1")
    (tmp_path / "dir").mkdir()
    _refused(capsys, [*argv, str(tmp_path / "dir")], "no declared game")


def test_random_games_prints_the_seeds_played(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["random-games", "2", "--seed", str(2**64 - 1)]) == 0
    out = " ".join(capsys.readouterr().out.split())  # the title may wrap
    assert f"seeds {2**64 - 1}..0)" in out
