"""The breakdown of a player's points by role adds up to what the tournament reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skat.tournament import run
from skat.tournament_breakdown import ROLES, breakdown
from skat.tournament_results import Mode


@pytest.mark.parametrize("mode", ["full", "cardplay"])
def test_parts_add_up_to_the_tournaments_points_and_declarer_counts(
    tmp_path: Path, mode: Mode
) -> None:
    path = tmp_path / "t.sgf"
    result = run("rules", "random:seed=3", mode=mode, deals=6, seed=11, records=path)
    players = breakdown(path)["players"]
    for stats in result.players.values():
        mine = players[stats.player]
        parts = mine["parts"]
        assert mine["points_per_list"] == pytest.approx(stats.points_per_list)
        assert sum(p["points_per_list"] for p in parts) == pytest.approx(stats.points_per_list)
        declared = [p for p in parts if p["role"].startswith("declarer")]
        assert sum(p["seats"] for p in declared) == stats.declarer_games
        assert sum(p["won"] for p in declared) == stats.declarer_wins
        assert all(p["role"] in ROLES for p in parts)
        assert all(p["won"] is None and p["hand"] is None for p in parts if p not in declared)
        # every game seats the player once or twice; each seat lands in exactly one part
        assert mine["games"] <= sum(p["seats"] for p in parts) <= 2 * mine["games"]


def test_a_lost_game_pays_each_defender_forty(tmp_path: Path) -> None:
    path = tmp_path / "t.sgf"
    run("random", "random:seed=1", mode="full", deals=8, seed=5, records=path)
    for player in breakdown(path)["players"].values():
        for part in player["parts"]:
            if part["role"] == "passed out":
                assert part["points_per_list"] == 0
            if part["role"].startswith("defender"):
                assert part["points_per_list"] >= 0


def test_cli_prints_the_tables_and_writes_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from skat.cli import main

    path, out = tmp_path / "t.sgf", tmp_path / "b.json"
    run("rules", "random", mode="full", deals=2, seed=4, records=path)
    assert main(["tournament-breakdown", str(path), "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "points per list" in printed and "defender" in printed
    assert set(json.loads(out.read_text())["players"]) == {"rules", "random"}
    png = tmp_path / "b.png"
    args = ["tournament-breakdown", str(path), "--player", "random", "--json", str(out)]
    assert main([*args, "--plot", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert set(json.loads(out.read_text())["players"]) == {"random"}
    capsys.readouterr()
    assert main(["tournament-breakdown", str(path), "--player", "nobody"]) == 2
    assert "--player" in capsys.readouterr().err


@pytest.mark.parametrize("content", ["", "(;GM[Skat]MV[w nonsense]R[d:0 win] ;)\n"])
def test_cli_answers_a_bad_file_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    from skat.cli import main

    path = tmp_path / "bad.sgf"
    path.write_text(content)
    assert main(["tournament-breakdown", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "RECORDS" in err
    assert main(["tournament-breakdown", str(tmp_path / "missing.sgf")]) == 2
