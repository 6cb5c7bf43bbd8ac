"""The bidding-threshold sweep (``skat research thresholds``) on a tiny run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skat.cli import main
from skat.research.thresholds import sweep, with_threshold
from skat.tournament import run


def test_with_threshold_replaces_or_adds_the_option() -> None:
    assert with_threshold("kermit:worlds=3,threshold=0.6", 0.55) == "kermit:worlds=3,threshold=0.55"
    assert with_threshold("kermit:worlds=3", 0.7) == "kermit:worlds=3,threshold=0.7"


def test_sweep_rows_are_the_tournaments_of_each_threshold() -> None:
    result = sweep("kermit:worlds=1", ["rules"], [0.5, 0.75], deals=2, seed=3)
    assert [(r["opponent"], r["threshold"]) for r in result["rows"]] == [
        ("rules", 0.5),
        ("rules", 0.75),
    ]
    for row in result["rows"]:
        direct = run(row["spec"], "rules", mode="full", deals=2, seed=3)
        assert row["difference"] == direct.paired_difference.to_json()
        assert row["player"] == direct.players[direct.a].to_json()
        games = direct.players[direct.a].games
        assert row["declared_share"] == direct.players[direct.a].declarer_games / games


def test_cli_writes_table_json_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    js, png = tmp_path / "s.json", tmp_path / "s.png"
    args = ["research", "thresholds", "--player", "kermit:worlds=1", "--against", "rules"]
    args += ["--thresholds", "0.5,0.7", "--deals", "2", "--seed", "1", "--workers", "1"]
    assert main([*args, "--json", str(js), "--plot", str(png)]) == 0
    data = json.loads(js.read_text())
    assert [r["threshold"] for r in data["rows"]] == [0.5, 0.7]
    assert png.stat().st_size > 10_000
    assert "threshold sweep" in capsys.readouterr().out
    for bad in (["--player", "rules"], ["--thresholds", "0.5,1.5"], ["--against", "nobody"]):
        code = main(["research", "thresholds", "--deals", "1", *bad])
        assert code == 2, bad
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_threshold_estimate_study_finds_known_thresholds(tmp_path: Path) -> None:
    import random as stdlib_random

    from skat.analysis.thresholds import ThresholdEstimate
    from skat.research.threshold_estimate import checkpoints_for, estimate, study

    # the vectorised estimate is the analysis module's
    rng = stdlib_random.Random(3)
    for _ in range(20):
        bids = [rng.random() for _ in range(rng.randrange(0, 6))]
        passes = [rng.random() for _ in range(rng.randrange(1, 6))]
        assert estimate(bids, passes) == ThresholdEstimate(bids, passes).estimate()
    assert checkpoints_for(120) == [10, 20, 50, 100, 120]
    specs = [
        "kermit:threshold=0.5,worlds=1",
        "kermit:threshold=0.7,unopposed=none,worlds=1",
        "rules",
    ]
    r = study(specs, auctions=60, seed=4)
    truths = {p["spec"]: p["truth"] for p in r["players"]}
    assert truths == {specs[0]: 0.5, specs[1]: 0.7, "rules": None}
    # a kermit opening on another value than its threshold has no single threshold
    opener = study(["kermit:threshold=0.7,worlds=1", *specs[:2]], auctions=1, seed=4)
    assert [p["truth"] for p in opener["players"]] == [None, 0.5, 0.7]
    # nor one whose threshold follows its opponent model, however it starts
    tracked = study(["tracker:threshold=0.6,unopposed=none,worlds=1", *specs[:2]], 1, seed=4)
    assert [p["truth"] for p in tracked["players"]] == [None, 0.5, 0.7]
    for p in r["players"][:2]:
        last = p["checkpoints"][-1]
        # a threshold bidder's inequalities all hold at its threshold: the estimate (the
        # lowest point of zero loss) is at or below it
        assert last["estimate"] is not None and last["estimate"] <= p["truth"] + 1e-9
        assert last["bids"] + last["passes"] > 0
    out, png = tmp_path / "t.json", tmp_path / "t.png"
    args = ["research", "threshold-estimate", "--players", *specs, "--auctions", "20"]
    assert main([*args, "--seed", "2", "--json", str(out), "--plot", str(png)]) == 0
    assert json.loads(out.read_text())["auctions"] == 20 and png.stat().st_size > 0
    assert main([*args[:-2], "--players", "rules", "rules", "random"]) == 2
