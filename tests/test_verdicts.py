"""The open-handed verdict at the first card: agrees with a full solve, and its counts add up."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skat._core import Deal, GameType, Phase, Position, Solver
from skat.analysis.pipma import target_of
from skat.analysis.verdicts import (
    FIELDS,
    VERDICT_ROLES,
    first_card_position,
    start_verdict,
    verdicts,
)
from skat.match import play
from skat.players import make_player
from skat.tournament import run

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


def test_counts_add_up_to_the_tournaments_declared_games(tmp_path: Path) -> None:
    path = tmp_path / "t.sgf"
    result = run("rules", "random:seed=2", mode="full", deals=5, seed=9, records=path)
    judged = verdicts(path)
    for stats in result.players.values():
        roles = judged["players"][stats.player]["roles"]
        names = [r["role"] for r in roles]
        assert names == [r for r in VERDICT_ROLES if r in names]
        for r in roles:
            assert set(r) == {"role", *FIELDS}
            assert r["open_won"] + r["open_lost"] == r["games"]
            assert r["open_won_declarer_won"] <= r["open_won"]
            assert r["open_lost_declarer_won"] <= r["open_lost"]
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


def test_human_records_are_judged_too() -> None:
    judged = verdicts(ISS_SAMPLE)
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
    assert all("open_hand" in p for p in players.values())
    assert main(["tournament-breakdown", str(path), "--json", str(out)]) == 0
    assert not any("open_hand" in p for p in json.loads(out.read_text())["players"].values())
