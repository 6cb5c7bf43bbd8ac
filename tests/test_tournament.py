"""Duplicate-deal tournaments: seeds, seatings, workers, records, errors, statistics, CLI."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

import skat
from skat.cli import main
from skat.match import PlayerFailure, play
from skat.players import PlayerSpecError, make_player
from skat.records import replay_file
from skat.tournament import (
    FULL_SEATINGS,
    DealOutcome,
    GameError,
    GameOutcome,
    deal_seed,
    derive_seed,
    game_score,
    run,
    summarize,
)

HERE = "tests.test_tournament"


class Grumpy:
    """Plays randomly, but fails at its fourth card while holding the club jack: raises, or
    (``illegal=true``) answers with a pass."""

    def __init__(self, illegal: bool = False) -> None:
        self.illegal = illegal
        self.inner = make_player("random")

    def new_game(self, seat: int, seed: int) -> None:
        self.inner.new_game(seat, seed)  # type: ignore[attr-defined]

    def act(self, view: skat.View) -> skat.Action | str:
        if view.phase == skat.Phase.PLAY and len(view.hand) == 7 and "CJ" in view.hand:
            if self.illegal:
                return "p"
            raise RuntimeError("grumpy does not play with the club jack")
        return self.inner.act(view)


class Interrupter:
    """Stops the run like Ctrl-C when it starts the game with seed ``at``."""

    def __init__(self, at: int = -1) -> None:
        self.at = at

    def new_game(self, seat: int, seed: int) -> None:
        if seed == self.at:
            raise KeyboardInterrupt

    def act(self, view: skat.View) -> skat.Action:
        return view.legal_actions()[0]


class ThreadsProbe:
    """Fails at once, telling the SKAT_THREADS it was built with."""

    def __init__(self) -> None:
        self.threads = os.environ.get("SKAT_THREADS")

    def act(self, view: skat.View) -> skat.Action:
        raise RuntimeError(f"SKAT_THREADS={self.threads}")


def records_of(path: Path) -> list[str]:
    return [line for line in path.read_text().splitlines() if line.strip()]


# ----- match.play with a prefix ---------------------------------------------------------------


def test_play_with_prefix_and_until() -> None:
    deal = skat.Deal.random(1)
    bidders = [make_player("rules") for _ in range(3)]
    head = play(bidders, deal, seed=1, until=skat.Phase.PLAY)
    assert head.phase == skat.Phase.PLAY and head.contract is not None
    prefix = [a for _, a in head.history]
    seen: list[str] = []
    game = play(
        [make_player(f"random:seed={s}") for s in range(3)],
        deal,
        prefix=[str(a) for a in prefix],
        on_action=lambda g, seat, a: seen.append(str(a)),
    )
    assert game.is_over and [a for _, a in game.history][: len(prefix)] == prefix
    assert seen[: len(prefix)] == [str(a) for a in prefix]
    assert game.contract == head.contract and game.declarer == head.declarer
    with pytest.raises(skat.SkatError):
        play(bidders, deal, prefix=["CJ"])  # no card play during the auction


def test_failing_new_game_hook_is_a_player_failure() -> None:
    class Broken:
        def new_game(self, seat: int, seed: int) -> None:
            raise OSError("no table")

        def act(self, view: skat.View) -> str:
            return "p"

    players = [make_player("rules"), Broken(), make_player("rules")]
    with pytest.raises(PlayerFailure, match="no table") as info:
        play(players, skat.Deal.random(2))
    assert info.value.seat == 1


# ----- statistics -------------------------------------------------------------------------------


def test_statistics_on_a_hand_made_example() -> None:
    deals = [
        DealOutcome(
            0,
            0,
            (
                GameOutcome("ABB", (80, 0, 0), 0, True),  # A declares and wins
                GameOutcome("BAA", (-94, 40, 40), 0, False),  # B declares and loses
            ),
        ),
        DealOutcome(
            1,
            3,
            (
                GameOutcome("BAB", (40, -118, 40), 1, False),  # A declares and loses
                GameOutcome("ABA", (0, 74, 0), 1, True),  # B declares and wins
            ),
        ),
        DealOutcome(  # a player failed: left out
            2,
            4,
            (GameOutcome("ABB", (1000, 0, 0), 0, True), GameOutcome("BAA", None)),
            (GameError(2, "BAA", 1, "x", "boom"),),
        ),
    ]
    a, b, diff = summarize(deals, "alice", "bob")
    # A's game scores 80, 40, -118, 0: mean 0.5 per game; per deal 36 x 60 and 36 x -59
    assert a.player == "alice" and a.points_per_list == pytest.approx(18.0)
    assert a.stderr == pytest.approx((2160 + 2124) / 2)  # |x1 - x2| / sqrt(2) / sqrt(2)
    assert a.games == 4 and a.declarer_games == 2 and a.declarer_win_rate == 0.5
    # B's game scores 0, -94, 40, 74: mean 5 per game; per deal 36 x -47 and 36 x 57
    assert b.points_per_list == pytest.approx(180.0)
    assert b.stderr == pytest.approx((1692 + 2052) / 2)
    assert b.games == 4 and b.declarer_games == 2 and b.declarer_win_rate == 0.5
    # per deal 36 x (60 + 47) = 3852 and 36 x (-59 - 57) = -4176
    assert diff.deals == 2 and diff.mean == pytest.approx(-162.0)
    assert diff.stderr == pytest.approx((3852 + 4176) / 2)
    assert diff.ci95 == pytest.approx((-162 - 1.96 * 4014, -162 + 1.96 * 4014))
    # a player's score is the mean of its seats; one deal has no standard error
    g = GameOutcome("AAB", (40, -94, 40), 1, False)
    assert game_score(g, "A") == -27 and game_score(g, "B") == 40
    a1, _, d1 = summarize(deals[:1])
    assert a1.stderr is None and d1.ci95 is None and d1.mean == pytest.approx(3852)
    none = summarize([deals[2]])
    assert none[0].points_per_list is None and none[0].declarer_win_rate is None


def test_seeds_are_mixed_and_fit_a_deal() -> None:
    seeds = {deal_seed(s, j) for s in (0, 1, -1, 2**63 + 5) for j in range(50)}
    assert len(seeds) == 200 and all(0 <= x < 2**64 for x in seeds)
    assert deal_seed(7, 3) == deal_seed(7, 3) != derive_seed(7, 3, 1)
    assert deal_seed(2**64 + 1, 4) == deal_seed(1, 4)  # seeds are taken modulo 2**64
    skat.Deal.random(deal_seed(-5, 0))


# ----- tournaments ------------------------------------------------------------------------------


def test_cardplay_is_reproducible_and_independent_of_workers(tmp_path: Path) -> None:
    one = run("rules", "random", deals=6, seed=11, records=tmp_path / "one.sgf")
    two = run("rules", "random", deals=6, seed=11, workers=2, records=tmp_path / "two.sgf")
    again = run("rules", "random", deals=6, seed=11)
    assert one.complete and one.deals_played == 6 and one.errors == []
    assert one.to_json(wall_clock=False) == two.to_json(wall_clock=False)
    assert one.to_json(wall_clock=False) == again.to_json(wall_clock=False)
    assert (tmp_path / "one.sgf").read_text() == (tmp_path / "two.sgf").read_text()
    other = run("rules", "random", deals=6, seed=12)
    assert other.to_json(wall_clock=False) != one.to_json(wall_clock=False)
    wall_clock = {"seconds", "workers", "resumed_deals"}
    assert set(one.to_json()) - set(one.to_json(wall_clock=False)) == wall_clock


def test_full_mode_is_independent_of_workers_and_plays_six_seatings(tmp_path: Path) -> None:
    one = run("rules", "random", mode="full", deals=3, seed=5, records=tmp_path / "one.sgf")
    two = run(
        "rules", "random", mode="full", deals=3, seed=5, workers=2, records=tmp_path / "two.sgf"
    )
    assert one.to_json(wall_clock=False) == two.to_json(wall_clock=False)
    lines = records_of(tmp_path / "one.sgf")
    assert lines == records_of(tmp_path / "two.sgf") and len(lines) == 18
    assert one.players["rules"].games == one.players["random"].games == 18
    for i, d in enumerate(one.outcomes):
        assert [g.seating for g in d.games] == list(FULL_SEATINGS)
        deal = skat.Deal.random(deal_seed(5, i))
        for g, line in zip(d.games, lines[6 * i : 6 * i + 6], strict=True):
            game = skat.Game.from_iss(line)
            assert game.deal == deal and g.record == ""  # records go to the file
            assert game.result is not None and list(g.scores or ()) == game.result.scores
            names = dict(game.header)
            assert [names[f"P{s}"] for s in range(3)] == [
                "rules" if c == "A" else "random" for c in g.seating
            ]


def test_ray_plays_the_same_tournament(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="Ray is an optional extra (pip install 'skat[ray]')")
    one = run("rules", "random", mode="full", deals=2, seed=5, records=tmp_path / "one.sgf")
    two = run(
        "rules",
        "random",
        mode="full",
        deals=2,
        seed=5,
        workers=None,
        ray="local",
        records=tmp_path / "two.sgf",
    )
    assert two.workers is None  # as many deals at once as the cluster has CPUs
    assert one.to_json(wall_clock=False) == two.to_json(wall_clock=False)
    assert records_of(tmp_path / "one.sgf") == records_of(tmp_path / "two.sgf")


def test_records_replay_and_pairs_share_the_pre_play(tmp_path: Path) -> None:
    path = tmp_path / "games.sgf"
    result = run("random:seed=1", "rules", deals=5, seed=3, records=path)
    lines = records_of(path)
    assert len(lines) == 2 * 5 == result.games_played
    summary = replay_file(path)
    assert summary.ok and summary.complete == 10 and summary.mismatches == []
    assert main(["replay", str(path)]) == 0
    for d, pair in zip(result.outcomes, zip(lines[::2], lines[1::2], strict=True), strict=True):
        first, second = (skat.Game.from_iss(line) for line in pair)
        assert first.deal == second.deal == skat.Deal.random(deal_seed(3, d.candidate))
        assert first.contract is not None and first.contract == second.contract
        declarer = first.declarer
        assert declarer is not None and declarer == second.declarer
        assert first.view(declarer).discard == second.view(declarer).discard
        before = [a for _, a in first.history if a.kind != "play"]
        assert before == [a for _, a in second.history if a.kind != "play"]
        # A ("random:seed=1") declares in the first game, B ("rules") in the second
        assert d.games[0].seating[declarer] == "A" and d.games[1].seating[declarer] == "B"
        assert dict(first.header)[f"P{declarer}"] == "random:seed=1"
        assert dict(second.header)[f"P{declarer}"] == "rules"
        for g, game in zip(d.games, (first, second), strict=True):
            r = game.result
            assert r is not None and r.declarer is not None and list(g.scores or ()) == r.scores
            # Seeger-Fabian, as in rules.md
            value = abs(r.value)
            expect = [40 * int(not r.won)] * 3
            expect[r.declarer] = value + 50 if r.won else -value - 50
            assert r.scores == expect
    assert result.players["random:seed=1"].declarer_games == 5
    assert result.players["rules"].declarer_games == 5


def test_same_spec_on_both_sides_is_told_apart(tmp_path: Path) -> None:
    result = run("rules", "rules", deals=2, seed=1, records=tmp_path / "r.sgf")
    data = result.to_json()
    assert list(data["players"]) == ["A: rules", "B: rules"]
    assert data["a"] == "A: rules" and data["players"]["B: rules"]["spec"] == "rules"
    # the same player both ways: the paired difference of each deal is exactly 0
    assert data["paired_difference"]["mean"] == 0
    header = dict(skat.Game.from_iss(records_of(tmp_path / "r.sgf")[0]).header)
    assert {header["P0"], header["P1"], header["P2"]} == {"A: rules", "B: rules"}


@pytest.mark.parametrize("illegal", [False, True])
def test_a_failing_player_is_recorded_and_the_tournament_goes_on(
    tmp_path: Path, illegal: bool
) -> None:
    spec = f"{HERE}:Grumpy" + (":illegal=true" if illegal else "")
    path = tmp_path / "games.sgf"
    result = run(spec, "random", deals=8, seed=2, records=path)
    assert result.complete and result.deals_played == 8
    assert result.errors and 0 < len(result.excluded_deals) < 8
    assert {e.deal for e in result.errors} == set(result.excluded_deals)
    for e in result.errors:
        assert e.player == spec and e.seat is not None and e.seating[e.seat] == "A"
        assert ("chose p" if illegal else "club jack") in e.message
        assert "record so far" in e.message
    scored = 8 - len(result.excluded_deals)
    assert result.paired_difference.deals == scored
    assert result.players[spec].games == result.players["random"].games == 2 * scored
    # every game has its record, the failed ones up to the failure
    assert len(records_of(path)) == 16
    summary = replay_file(path)
    assert summary.ok and summary.in_progress == len(result.errors)
    data = result.to_json()
    assert data["errors"][0].keys() == {"deal", "seating", "seat", "player", "message"}
    assert data["excluded_deals"] == result.excluded_deals


def test_unknown_players_fail_before_any_game(tmp_path: Path) -> None:
    path = tmp_path / "games.sgf"
    with pytest.raises(PlayerSpecError, match=r"available: .*random.*rules"):
        run("rules", "nobody", deals=2, records=path)
    with pytest.raises(PlayerSpecError, match="options: seed"):
        run("random:worlds=3", "rules", deals=2, records=path)
    with pytest.raises(PlayerSpecError, match="available"):
        run("rules", "random", deals=2, bidder="nobody", records=path)
    assert not path.exists()
    with pytest.raises(ValueError, match="mode"):
        run("rules", "random", mode="half")  # type: ignore[arg-type]


def test_threads_environment() -> None:
    before = os.environ.get("SKAT_THREADS")
    cpus = os.cpu_count() or 1
    for workers in (1, 2):
        result = run(f"{HERE}:ThreadsProbe", "rules", deals=2, seed=1, workers=workers)
        found = {re.search(r"SKAT_THREADS=(\w+)", e.message) for e in result.errors}
        assert {m.group(1) for m in found if m} == {str(max(1, cpus // workers))}
    assert os.environ.get("SKAT_THREADS") == before


def test_interrupt_keeps_the_finished_deals(tmp_path: Path) -> None:
    at = derive_seed(4, 2, 2)  # the play seed of full-mode deal 2
    result = run(f"{HERE}:Interrupter:at={at}", "random", mode="full", deals=5, seed=4)
    assert not result.complete and result.deals_played == 2
    assert result.paired_difference.deals == 2 and result.to_json()["complete"] is False
    out = tmp_path / "t.json"
    args = [
        "tournament",
        f"{HERE}:Interrupter:at={at}",
        "random",
        "--mode",
        "full",
        "--workers",
        "1",
    ]
    assert main([*args, "--deals", "5", "--seed", "4", "--json", str(out)]) == 130
    data = json.loads(out.read_text())
    assert data["complete"] is False and data["deals_played"] == 2


# ----- JSON and the command line ----------------------------------------------------------------

KEYS = {
    "mode",
    "seed",
    "deals",
    "bidder",
    "a",
    "b",
    "players",
    "paired_difference",
    "errors",
    "complete",
    "deals_played",
    "deals_scored",
    "excluded_deals",
    "games_played",
    "candidates",
    "passed_out",
    "seconds",
    "workers",
    "resumed_deals",
}


def test_json_layout() -> None:
    data = run("rules", "random:seed=2", deals=3, seed=9).to_json()
    assert set(data) == KEYS
    assert data["mode"] == "cardplay" and data["seed"] == 9 and data["deals"] == 3
    assert data["bidder"] == "rules" and data["complete"] is True and data["deals_played"] == 3
    assert data["candidates"] == 3 + data["passed_out"]
    assert list(data["players"]) == ["rules", "random:seed=2"]
    for stats in data["players"].values():
        assert stats.keys() == {
            "spec",
            "points_per_list",
            "stderr",
            "games",
            "declarer_games",
            "declarer_win_rate",
        }
        assert stats["games"] == 6
    pd = data["paired_difference"]
    assert pd.keys() == {"mean", "stderr", "ci95", "deals"}
    low, high = pd["ci95"]
    assert low <= pd["mean"] <= high
    assert json.loads(json.dumps(data)) == data
    full = run("rules", "random", mode="full", deals=1, seed=9).to_json()
    assert set(full) == KEYS - {"bidder", "candidates", "passed_out"}


def test_cli_help_describes_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["tournament", "--help"])
    assert info.value.code == 0
    text = capsys.readouterr().out
    for word in ("--mode", "cardplay", "full", "--deals", "--seed", "--workers", "--bidder"):
        assert word in text
    for word in ("--json", "--records", "SKAT_THREADS", "Seeger-Fabian", "exit status"):
        assert word in text


def test_cli_tiny_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, rec = tmp_path / "t.json", tmp_path / "t.sgf"
    args = ["tournament", "rules", "random", "--deals", "3", "--seed", "1"]
    assert main([*args, "--json", str(out), "--records", str(rec), "--workers", "2"]) == 0
    text = capsys.readouterr().out
    assert "points/list" in text and "paired difference" in text and "interval" in text
    data = json.loads(out.read_text())
    assert data["seed"] == 1 and data["complete"] is True and data["workers"] == 2
    assert data == {**run("rules", "random", deals=3, seed=1).to_json(), **_clock(data)}
    assert len(records_of(rec)) == 6
    assert main(["tournament", "rules", "nobody", "--deals", "1"]) == 2
    assert "available" in capsys.readouterr().err
    bad = ["tournament", f"{HERE}:Grumpy", "random", "--deals", "4", "--seed", "2"]
    assert main(bad) == 1
    text = capsys.readouterr().out
    assert "left out of the statistics" in text and "club jack" in text


def _clock(data: dict[str, object]) -> dict[str, object]:
    return {"seconds": data["seconds"], "workers": data["workers"]}


def test_tournaments_on_the_same_deals_compare_deal_by_deal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from skat.cli import main
    from skat.tournament_records import compare, deal_margins, deal_points

    a, b = tmp_path / "a.sgf", tmp_path / "b.sgf"
    first = run("rules", "random", mode="clones", deals=4, seed=9, records=a)
    run("random:seed=2", "random", mode="clones", deals=4, seed=9, records=b)
    points = deal_points(a, "rules")
    assert sorted(points) == [0, 1, 2, 3]
    # the per-deal points average to the tournament's points per list
    stats = first.players[first.a]
    assert sum(points.values()) / 4 == pytest.approx(stats.points_per_list)
    r = compare(a, "rules", b, "random:seed=2")
    other = deal_points(b, "random:seed=2")
    assert r["deals"] == 4
    assert r["mean"] == pytest.approx(sum(points[k] - other[k] for k in range(4)) / 4)
    out = tmp_path / "c.json"
    args = ["tournament-compare", str(a), str(b), "--a", "rules", "--b", "random:seed=2"]
    assert main([*args, "--json", str(out)]) == 0
    assert json.loads(out.read_text())["deals"] == 4
    assert main([*args[:3], "--a", "nobody", "--b", "random:seed=2"]) == 2
    # margins: a player's lead over its opponent, deal by deal, averages to the paired
    # difference of its tournament
    lead = deal_margins(a, "rules")
    assert sum(lead.values()) / 4 == pytest.approx(first.paired_difference.mean)
    assert lead[0] == pytest.approx(points[0] - deal_points(a, "random")[0])
    m = compare(a, "rules", b, "random:seed=2", margin=True)
    assert m["measure"] == "margin" and m["deals"] == 4
    assert m["mean"] == pytest.approx(
        sum(lead[k] - deal_margins(b, "random:seed=2")[k] for k in range(4)) / 4
    )
    assert main([*args, "--margin"]) == 0
    assert "leads over the opponents" in capsys.readouterr().out
    with pytest.raises(ValueError, match="one opponent"):
        deal_margins(a, "nobody")
    assert (
        main(["tournament-compare", str(tmp_path / "none.sgf"), str(b), "--a", "x", "--b", "y"])
        == 2
    )
    # a file cut short inside a deal: that deal is left out, not averaged over some seatings
    cut = tmp_path / "cut.sgf"
    lines = a.read_text().splitlines(keepends=True)
    cut.write_text("".join(lines[:-1]))
    assert sorted(deal_points(cut, "rules")) == [0, 1, 2]
    assert compare(cut, "rules", b, "random:seed=2")["deals"] == 3
    assert deal_margins(cut, "rules") == {k: lead[k] for k in range(3)}
