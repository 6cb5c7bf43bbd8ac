"""The open-handed verdict at the first card: agrees with a full solve, and its counts add up."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from skat._core import Deal, Game, GameType, Phase, Position, Solver
from skat.analysis.pipma import target_of
from skat.analysis.verdicts import (
    FIELDS,
    VERDICT_ROLES,
    Judged,
    first_card_position,
    first_losing_defence_card,
    judge,
    start_verdict,
    verdicts,
)
from skat.match import play
from skat.players import make_player
from skat.tournament import run
from skat.tournament_breakdown import corrected_scores, headroom

ISS_SAMPLE = Path(__file__).resolve().parent / "data" / "iss" / "iss-sample.sgf"


def test_the_verdict_is_a_full_solve_of_the_first_card() -> None:
    solver = Solver(tt_mb=8)
    judged = 0
    for seed in range(24):
        game = play([make_player("rules") for _ in range(3)], Deal.random(seed), seed=seed)
        verdict = start_verdict(game, solver)
        if game.contract is None or game.result is None or game.result.passed:
            assert verdict is None
            continue
        # the position by hand: the game replayed up to its first card
        replay = type(game)(game.deal, variants=game.variants)
        for _, action in game.history:
            if replay.phase == Phase.PLAY:
                break
            replay.apply(action)
        position = Position.from_game(replay)
        assert repr(first_card_position(game)) == repr(position)
        value = Solver(tt_mb=8).solve(position)
        null = game.contract.game_type == GameType.NULL
        assert verdict == (value == 0 if null else value >= target_of(game))
        judged += 1
    assert judged >= 10


def _declarer_wins_open_handed(game: Game, solver: Solver) -> bool:
    """Does the declarer of this (replayed, possibly finished) game win with best play from
    here? A full solve, not the threshold search the module uses."""
    if game.phase != Phase.PLAY:
        assert game.result is not None
        return bool(game.result.won)
    value = solver.solve(Position.from_game(game))
    assert game.contract is not None
    return value == 0 if game.contract.game_type == GameType.NULL else value >= target_of(game)


def test_the_first_losing_card_is_where_the_open_handed_verdict_turns() -> None:
    solver = Solver(tt_mb=8)
    turns = 0
    for seed in range(60):
        game = play([make_player("rules") for _ in range(3)], Deal.random(seed), seed=seed)
        result, declarer = game.result, game.declarer
        if result is None or result.passed or declarer is None or start_verdict(game, solver):
            continue
        # replay card by card, solving after each: the first card after which the declarer
        # wins is a defender's, and it is the one named
        replay = type(game)(game.deal, variants=game.variants)
        turned, number = None, 0
        for _, action in game.history:
            mover = replay.to_move
            replay.apply(action)
            number += action.kind == "play"
            if action.kind == "play" and _declarer_wins_open_handed(replay, solver):
                turned = (mover, number, action.card)
                break
        assert turned is None or turned[0] != declarer
        found = first_losing_defence_card(game, solver)
        assert (found and (found.seat, found.number, found.card)) == turned
        if result.won:
            assert turned is not None  # no claims here: a game let go turned at some card
        turns += turned is not None
    assert turns >= 3


def test_counts_add_up_to_the_tournaments_declared_games(tmp_path: Path) -> None:
    path = tmp_path / "t.sgf"
    result = run("rules", "random:seed=2", mode="full", deals=5, seed=9, records=path)
    judged = verdicts(judge(path))
    for stats in result.players.values():
        roles = judged["players"][stats.player]["roles"]
        names = [r["role"] for r in roles]
        assert names == [r for r in VERDICT_ROLES if r in names]
        for r in roles:
            assert set(r) == {"role", *FIELDS, "first_losing_by_card"}
            assert sum(r["first_losing_by_card"]) == r["first_losing_card"]
            assert r["open_won"] + r["open_lost"] == r["games"]
            assert r["open_won_declarer_won"] <= r["open_won"]
            assert r["open_lost_declarer_won"] <= r["open_lost"]
            assert r["first_losing_card"] <= r["open_lost_declarer_won"]
            if r["role"].startswith("declarer"):
                assert r["first_losing_card"] == 0
        declared = [r for r in roles if r["role"].startswith("declarer")]
        # every declared game is judged (random and rules always play a card)
        assert sum(r["games"] for r in declared) == stats.declarer_games
        won = sum(r["open_won_declarer_won"] + r["open_lost_declarer_won"] for r in declared)
        assert won == stats.declarer_wins
    # a game counts once per player and role: each declared game has one declarer
    declarers = sum(
        r["games"]
        for p in judged["players"].values()
        for r in p["roles"]
        if r["role"].startswith("declarer")
    )
    assert declarers == judged["games"]
    # every game the defence let go has exactly one first losing card, on a defender's seat
    let_go = sum(
        r["open_lost_declarer_won"]
        for p in judged["players"].values()
        for r in p["roles"]
        if r["role"].startswith("declarer")
    )
    blamed = sum(j.first_losing is not None for j in judge(path))
    assert blamed == let_go
    named = sum(r["first_losing_card"] for p in judged["players"].values() for r in p["roles"])
    assert blamed <= named <= 2 * blamed  # a game counts once per player and role
    # and each is counted once, at its number in the game, in its player's role
    numbers = Counter(j.first_losing_number for j in judge(path) if j.first_losing is not None)
    per_card = [
        sum(
            r["first_losing_by_card"][n - 1] for p in judged["players"].values() for r in p["roles"]
        )
        for n in range(1, 31)
    ]
    assert per_card == [numbers.get(n, 0) for n in range(1, 31)] and sum(per_card) == blamed


def test_human_records_are_judged_too() -> None:
    judged = verdicts(judge(ISS_SAMPLE))
    assert judged["games"] > 0
    assert all(
        r["open_won"] + r["open_lost"] == r["games"]
        for p in judged["players"].values()
        for r in p["roles"]
    )


def test_nothing_to_judge_is_an_error() -> None:
    with pytest.raises(ValueError, match="no declared game"):
        verdicts([])


def test_cli_open_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from skat.cli import main

    path, out = tmp_path / "t.sgf", tmp_path / "b.json"
    run("rules", "random", mode="full", deals=3, seed=4, records=path)
    assert main(["tournament-breakdown", str(path), "--open-hand", "--json", str(out)]) == 0
    assert "open-handed at the first card" in capsys.readouterr().out
    players = json.loads(out.read_text())["players"]
    assert set(players) == {"rules", "random"}
    assert all("open_hand" in p and "open_hand_headroom" in p for p in players.values())
    assert main(["tournament-breakdown", str(path), "--json", str(out)]) == 0
    assert not any("open_hand" in p for p in json.loads(out.read_text())["players"].values())


def test_headroom_corrects_only_the_players_shortfalls(tmp_path: Path) -> None:
    path = tmp_path / "t.sgf"
    result = run("rules", "random:seed=1", mode="full", deals=6, seed=2, records=path)
    judged = list(judge(path))
    corrected = 0
    played = {s.player: float(s.points_per_list or 0.0) for s in result.players.values()}
    first, second = sorted(played)
    # without any correction the scores are the tournament's
    assert headroom([replace(j, verdict=None) for j in judged], first) == pytest.approx(played)
    for player, other in ((first, second), (second, first)):
        better = headroom(judged, player)
        assert better[player] >= played[player] - 1e-9
        assert better[other] <= played[other] + 1e-9
        fixed = [
            j
            for j in judged
            if j.verdict is not None
            and not j.overbid
            and j.verdict != j.won
            and (j.labels[j.declarer] == player) != j.won
            and player in j.labels
        ]
        assert (better != pytest.approx(played)) == bool(fixed)
        corrected += len(fixed)
    assert corrected > 0  # the random player loses games it could win open-handed


def test_corrected_scores_follow_seeger_fabian() -> None:
    won = Judged(("a", "b", "c"), (80, 0, 0), verdict=False, declarer=0, won=True, value=30)
    assert corrected_scores(won) == (-110, 40, 40)
    lost = Judged(("a", "b", "c"), (40, -110, 40), verdict=True, declarer=1, won=False, value=-60)
    assert corrected_scores(lost) == (0, 80, 0)
    assert corrected_scores(replace(lost, overbid=True)) == lost.scores


def test_cli_open_hand_without_a_declared_game_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from skat.cli import main

    passed = next(
        g
        for g in (
            play([make_player("rules") for _ in range(3)], Deal.random(s), seed=s)
            for s in range(500)
        )
        if g.result is not None and g.result.passed
    )
    path = tmp_path / "passed.sgf"
    path.write_text(passed.to_iss() + "\n")
    assert main(["tournament-breakdown", str(path)]) == 0
    capsys.readouterr()
    assert main(["tournament-breakdown", str(path), "--open-hand"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--open-hand" in err
