"""The ``skat`` command line, run in-process and as the installed entry point."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import skat
from skat.cli import build_parser, main
from skat.ui.common import contract_name
from tests.conftest import iss_files


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "skat.cli", *args], capture_output=True, text=True, check=False
    )


def test_version_and_help_on_every_command() -> None:
    out = run("--version")
    assert out.returncode == 0 and "skat" in out.stdout
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name in sub.choices:  # type: ignore[union-attr]
        r = run(name, "--help")
        assert r.returncode == 0 and "usage" in r.stdout, name


def test_deal_is_reproducible() -> None:
    a = run("deal", "--seed", "5")
    b = run("deal", "--seed", "5")
    assert a.returncode == 0 and a.stdout == b.stdout and "forehand" in a.stdout


def test_replay_real_records(tmp_path: Path) -> None:
    files = [str(f) for f in iss_files()]
    out = tmp_path / "summary.json"
    assert main(["replay", *files, "--json", str(out)]) == 0
    s = json.loads(out.read_text())
    assert s["records"] == s["complete"] >= 55 and s["mismatches"] == [] and s["errors"] == []


def test_replay_reports_mismatches_with_exit_1(tmp_path: Path) -> None:
    line = next(iter(iss_files())).read_text().splitlines()[1]
    assert "v:-96" in line
    bad = tmp_path / "bad.sgf"
    bad.write_text(line.replace("v:-96", "v:-48") + "\n")
    r = run("replay", str(bad))
    assert r.returncode == 1 and "mismatch" in r.stdout and "value" in r.stdout
    assert run("replay", str(tmp_path / "missing.sgf")).returncode == 2


def test_random_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["random-games", "200", "--seed", "3", "--show"]) == 0
    text = capsys.readouterr().out
    assert "200 random games" in text and "(;GM[Skat]PC[skat]P0[0]" in text


def test_bench_rules_small(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    assert main(["bench", "rules", "--games", "20", "--repeat", "1", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["rust"]["median"] > 0 and data["python_api"]["median"] > 0
    # the PettingZoo loop (a test dependency) plays a twentieth of the Python API's games
    assert data["pettingzoo"]["games"] == 1 and data["pettingzoo"]["actions_median"] > 0


def test_env_random_games_play_whole_games() -> None:
    from skat.bench import env_random_games

    # every game of the loop ends: as many resets as games, each game at least three passes
    actions = env_random_games(5, 11)
    assert actions is not None and actions >= 15
    # the same seed plays the same games
    assert env_random_games(5, 11) == actions


def test_play_watch_prints_a_whole_game(tmp_path: Path) -> None:
    rec = tmp_path / "watched.iss"
    r = run(
        "play", "--watch", "--players", "cheater,rules,random", "--seed", "3", "--records", str(rec)
    )
    assert r.returncode == 0, r.stderr
    assert "Result:" in r.stdout and "(;GM[Skat]PC[skat]" in r.stdout
    game = skat.Game.from_iss(rec.read_text().strip())
    if game.contract is not None:  # the contract in words, not a Python repr
        named = contract_name(game.contract)
        assert f"declares {game.contract} ({named})" in r.stdout and "Contract(" not in r.stdout
    # the record written is the game printed, and it replays to its result
    (line,) = rec.read_text().splitlines()
    assert line in r.stdout.replace("\n", "")
    assert skat.Game.from_iss(line).result is not None
    bad = run("play", "--watch", "--players", "nobody")
    assert bad.returncode == 2 and "available" in bad.stderr and "--players" in bad.stderr


def test_bench_pimc_small(tmp_path: Path) -> None:
    out = tmp_path / "pimc.json"
    args = ["bench", "pimc", "--deals", "2", "--worlds", "3", "--full-games", "1"]
    assert main([*args, "--no-points", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["worlds"] == 3 and data["points"] is False
    assert [s["n"] for s in data["trick1_seconds"]] == [2, 2, 2]
    assert data["game_seconds"]["n"] == 1
    # whole games of another player, auction included
    other = ["--game-player", "kermit:worlds=2,threads=1", "--json", str(out)]
    assert main([*args[:-2], "--full-games", "2", *other]) == 0
    data = json.loads(out.read_text())
    assert data["player"] == "kermit:worlds=2,threads=1" and data["game_seconds"]["n"] == 2


def test_bench_solver_repeats(tmp_path: Path) -> None:
    from skat._core import solver_signature

    out = tmp_path / "solver.json"
    args = ["bench", "solver", "--positions", "6", "--ablation-positions", "2"]
    assert main([*args, "--repeat", "3", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["repeat"] == 3 and data["positions"] == 6
    assert data["signature"] == solver_signature()
    assert isinstance(data["machine"], str) and data["machine"]
    for row in data["classes"]:
        runs = row["worlds_per_sec_runs"]
        assert len(runs) == 3
        assert row["worlds_per_sec"] == sorted(runs)[1]
    # ablations are measured once, in the first run
    assert {a["switched_off"] for a in data["ablations"]} >= {"all on", "payoff-similarity"}
    assert len(data["ablations"]) == len(
        {(a["switched_off"], a["class"]) for a in data["ablations"]}
    )


def test_combine_solver_runs_checks_its_input() -> None:
    from skat.bench import combine_solver_runs

    def run(rate: float, signature: int = 7) -> dict[str, object]:
        return {"classes": [{"class": "suit", "worlds_per_sec": rate}], "signature": signature}

    combined = combine_solver_runs([run(90.0), run(80.0)])
    assert combined["classes"][0]["worlds_per_sec"] == 85.0
    assert combined["classes"][0]["worlds_per_sec_runs"] == [90.0, 80.0]
    with pytest.raises(ValueError):
        combine_solver_runs([])
    with pytest.raises(RuntimeError, match="signature"):
        combine_solver_runs([run(90.0), run(80.0, signature=8)])


def test_deal_and_play_start_from_the_same_deal(capsys: pytest.CaptureFixture[str]) -> None:
    """``skat deal --seed S`` shows game 1 of ``skat play --seed S`` (and of ``--watch``)."""
    from skat._core import Deal
    from skat.seeds import deal_seed
    from skat.ui.session import Session

    for seed in (3, 11):
        assert main(["deal", "--seed", str(seed)]) == 0
        shown = capsys.readouterr().out.split("ISS: ")[1].split()[0]
        listed = Session(seat=0, opponents=["rules"], seed=seed, games=2)
        assert shown == listed.game.deal.to_iss()
        assert shown == Deal.random(deal_seed(seed, 0)).to_iss()
        assert main(["play", "--watch", "--players", "rules", "--seed", str(seed)]) == 0
        assert f"MV[w {shown} " in capsys.readouterr().out.replace("\n", "")
    assert Deal.random(deal_seed(3, 0)).to_iss() != Deal.random(deal_seed(11, 0)).to_iss()


def test_bench_help_lists_only_its_own_options() -> None:
    solver = run("bench", "solver", "--help").stdout
    pimc = run("bench", "pimc", "--help").stdout
    assert "--tt-mb" in solver and "--worlds" not in solver and "--hands" not in solver
    assert "--worlds" in pimc and "--tt-mb" not in pimc and "--candidates" not in pimc
    inference = run("train", "inference", "--help").stdout
    assert "auction" in inference and "10+2" not in inference and "--guide" not in inference
