"""``skat research iimc``: decision times, soloist tournaments and their plot, on tiny runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skat.analysis.records import analyze_files
from skat.cli import main
from skat.research.error_profile import error_profile
from skat.research.iimc import soloist, speed
from skat.tournament import run

CHEAP = "pimc:worlds=2,points=false,threads=1"


def test_soloist_scores_are_the_tournaments_declarer_scores() -> None:
    r = soloist(CHEAP, "rules", deals=3, seed=4, bidder="rules")
    t = run(CHEAP, "rules", mode="cardplay", deals=3, seed=4, bidder="rules")
    sa = []
    for d in t.outcomes:
        for g in d.games:
            assert g.scores is not None and g.declarer is not None
            if g.seating[g.declarer] == "A":
                sa.append(g.scores[g.declarer])
    assert r["a_scores"] == sa and r["deals"] == 3
    assert r["difference"] == pytest.approx(
        sum(a - b for a, b in zip(r["a_scores"], r["b_scores"], strict=True)) / 3
    )
    assert soloist(CHEAP, "rules", deals=3, seed=4, bidder="rules", workers=2)["a_scores"] == sa


def test_speed_times_the_first_trick_and_the_declarers_cards() -> None:
    r = speed(CHEAP, games=1, seed=2, defenders="rules", bidder="rules")
    assert r["games"] == 1 and len(r["per_game"]) == 1
    assert r["first_trick_decisions"] >= 1 and r["seconds_first_trick"] >= 0


def test_cli_soloist_plot_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = []
    for worlds in (1, 2):
        out = tmp_path / f"s{worlds}.json"
        spec = f"pimc:worlds={worlds},points=false"
        args = ["research", "iimc", "soloist", spec, "rules", "--deals", "2", "--bidder", "rules"]
        assert main([*args, "--workers", "1", "--json", str(out)]) == 0
        assert json.loads(out.read_text())["a"] == spec
        files.append(str(out))
    png = tmp_path / "p.png"
    assert main(["research", "iimc", "plot", *files, "--out", str(png)]) == 0
    assert png.stat().st_size > 5_000
    assert main(["research", "iimc", "speed", CHEAP, "--bidder", "rules"]) == 0
    (tmp_path / "bad.json").write_text("{}")
    for bad in (
        ["soloist", "nobody", "rules"],
        ["speed", CHEAP, "--games", "0"],
        ["plot", str(tmp_path / "bad.json"), "--out", str(png)],
    ):
        capsys.readouterr()
        assert main(["research", "iimc", *bad]) == 2, bad
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_error_profile_splits_the_pipma_tally_by_soloist_and_side(tmp_path: Path) -> None:
    records = tmp_path / "games.sgf"
    a, b = CHEAP, "rules"
    soloist(a, b, deals=6, seed=5, bidder="rules", records=str(records))
    profile = error_profile([records], workers=1)
    assert profile == error_profile([records], workers=2)
    lineups = profile["lineups"]
    assert sum(e["games"] for e in lineups.values()) == 12  # each deal once per soloist
    tally = analyze_files([records]).tally
    # in a card-play tournament the defenders of A's games are both B, and the other way round
    for me, other in ((a, b), (b, a)):
        mine = tally.players[me]
        errors = [
            s + d
            for s, d in zip(
                lineups[me]["soloist"]["errors"], lineups[other]["defenders"]["errors"], strict=True
            )
        ]
        chances = [
            s + d
            for s, d in zip(
                lineups[me]["soloist"]["opportunities"],
                lineups[other]["defenders"]["opportunities"],
                strict=True,
            )
        ]
        assert errors == mine.mistakes_by_trick and chances == mine.opportunities_by_trick
    png, out = tmp_path / "p.png", tmp_path / "p.json"
    args = ["research", "iimc", "profile", str(records), "--workers", "1"]
    assert main([*args, "--json", str(out), "--plot", str(png)]) == 0
    assert json.loads(out.read_text())["lineups"] == lineups and png.stat().st_size > 5_000
    assert main(["research", "iimc", "profile", str(out)]) == 2  # not records
