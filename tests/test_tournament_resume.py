"""Resuming a tournament from its record file gives the uninterrupted run's results and file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skat.cli import main
from skat.tournament import run
from skat.tournament_results import Mode
from skat.tournament_resume import ResumeError

GRUMPY = "tests.test_tournament:Grumpy"


def lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


def deal_of(line: str) -> int:
    return int(line.split("ID[", 1)[1].split("]", 1)[0].rsplit("-", 2)[1])


@pytest.mark.parametrize(
    ("mode", "a", "variants"),
    [("full", "rules", ""), ("cardplay", "rules", ""), ("full", "rules", "kontra")],
)
def test_resume_after_a_cut_equals_the_whole_run(
    tmp_path: Path, mode: Mode, a: str, variants: str
) -> None:
    whole_path, path = tmp_path / "whole.iss", tmp_path / "cut.iss"
    whole = run(a, "random", mode=mode, deals=4, seed=8, records=whole_path, variants=variants)
    games = lines(whole_path)
    per_deal = len(games) // 4
    # deal 0 whole, deal 1 cut in the middle of its games
    path.write_text("\n".join(games[: per_deal + 1]) + "\n")
    again = run(
        a, "random", mode=mode, deals=4, seed=8, records=path, variants=variants, resume=True
    )
    assert again.resumed_deals == 1 and again.complete
    assert again.to_json(wall_clock=False) == whole.to_json(wall_clock=False)
    assert lines(path) == games


def test_a_gap_is_filled_and_the_file_ends_in_deal_order(tmp_path: Path) -> None:
    whole_path, path = tmp_path / "whole.iss", tmp_path / "gap.iss"
    whole = run("rules", "random", mode="full", deals=4, seed=3, records=whole_path, workers=2)
    games = lines(whole_path)
    # as an interrupted run may leave it: deals 0 and 2 finished, 1 and 3 not
    path.write_text("\n".join(g for g in games if deal_of(g) in (2, 0)) + "\n")
    again = run("rules", "random", mode="full", deals=4, seed=3, records=path, resume=True)
    assert again.resumed_deals == 2
    assert again.to_json(wall_clock=False) == whole.to_json(wall_clock=False)
    assert lines(path) == games


def test_a_record_cut_off_at_the_end_is_dropped(tmp_path: Path) -> None:
    whole_path, path = tmp_path / "whole.iss", tmp_path / "cut.iss"
    whole = run("rules", "random", mode="full", deals=2, seed=9, records=whole_path)
    games = lines(whole_path)
    path.write_text("\n".join(games[:7]) + "\n" + games[7][:40])  # killed while writing
    again = run("rules", "random", mode="full", deals=2, seed=9, records=path, resume=True)
    assert again.resumed_deals == 1 and lines(path) == games
    assert again.to_json(wall_clock=False) == whole.to_json(wall_clock=False)
    # the same cut line followed by a newline, or in the middle of the file, is an error
    path.write_text("\n".join(games[:7]) + "\n" + games[7][:40] + "\n")
    with pytest.raises(ResumeError, match=":8:"):
        run("rules", "random", mode="full", deals=2, seed=9, records=path, resume=True)


def test_failed_games_are_played_again(tmp_path: Path) -> None:
    path = tmp_path / "g.iss"
    first = run(GRUMPY, "random", deals=6, seed=2, records=path)
    assert first.excluded_deals
    again = run(GRUMPY, "random", deals=6, seed=2, records=path, resume=True)
    assert again.resumed_deals == 6 - len(first.excluded_deals)
    assert again.excluded_deals == first.excluded_deals
    assert again.to_json(wall_clock=False) == first.to_json(wall_clock=False)


def test_a_finished_file_plays_nothing_and_a_missing_file_starts_afresh(tmp_path: Path) -> None:
    path = tmp_path / "t.iss"
    first = run("rules", "random", mode="full", deals=2, seed=1, records=path, resume=True)
    assert first.resumed_deals == 0 and len(lines(path)) == 12
    again = run("rules", "random", mode="full", deals=2, seed=1, records=path, resume=True)
    assert again.resumed_deals == 2 and again.games_played == 12
    assert again.to_json(wall_clock=False) == first.to_json(wall_clock=False)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seed": 2}, "seed 1, not 2"),
        ({"b": "random:seed=4"}, "players"),
        ({"deals": 1}, "deal 1, but the tournament has 1"),
        ({"mode": "cardplay"}, "seating|other cards|not one of"),
    ],
)
def test_another_tournaments_file_is_refused_and_kept(
    tmp_path: Path, kwargs: dict[str, object], message: str
) -> None:
    path = tmp_path / "t.iss"
    run("rules", "random", mode="full", deals=2, seed=1, records=path)
    before = path.read_text()
    args: dict[str, object] = {"a": "rules", "b": "random", "mode": "full", "deals": 2, "seed": 1}
    args.update(kwargs)
    with pytest.raises(ResumeError, match=message):
        run(records=path, resume=True, **args)  # type: ignore[arg-type]
    assert path.read_text() == before


def test_resume_needs_records() -> None:
    with pytest.raises(ValueError, match="record file"):
        run("rules", "random", deals=1, resume=True)


def test_cli_resume(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, out = tmp_path / "t.iss", tmp_path / "t.json"
    base = ["tournament", "rules", "random", "--mode", "full", "--deals", "3"]
    assert main([*base, "--seed", "6", "--records", str(path), "--json", str(out)]) == 0
    whole = json.loads(out.read_text())
    path.write_text("\n".join(lines(path)[:6]) + "\n")
    capsys.readouterr()
    assert main([*base, "--seed", "6", "--records", str(path), "--json", str(out), "--resume"]) == 0
    assert "1 deals resumed" in capsys.readouterr().out
    again = json.loads(out.read_text())
    assert again["resumed_deals"] == 1 and whole["resumed_deals"] == 0
    for key in ("seconds", "workers", "resumed_deals"):
        del whole[key], again[key]
    assert again == whole
    for extra, words in (
        (["--seed", "6"], "--resume: needs --records"),
        (["--records", str(path)], "--resume: needs the --seed"),
    ):
        assert main([*base, *extra, "--resume"]) == 2
        err = capsys.readouterr().err
        assert words in err and "Traceback" not in err
    assert main([*base, "--seed", "7", "--records", str(path), "--resume"]) == 2
    err = capsys.readouterr().err
    assert "seed 6, not 7" in err and len(err.strip().splitlines()) == 1
