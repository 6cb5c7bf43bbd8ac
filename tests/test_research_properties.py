"""Game-tree properties of real Skat (Fig. 5.8): pre-terminal walks end where every move ends
the game, consistent-world counts never grow, the df conversion's known values, ISS records
replayed to the start of card play, and ``skat research properties`` on the sample records."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import skat
from skat.cli import main
from skat.records import read_records
from skat.research.properties import (
    _collapse,
    choose_games,
    df_of_ratios,
    disambiguation_ratios,
    game_kind,
    measure_game,
    pre_terminal_sample,
    record_games,
    start_of_play,
)

ISS = Path(__file__).parent / "data" / "iss" / "iss-sample.sgf"


def human_starts(n: int) -> list[skat.Game]:
    starts = [start_of_play(g) for g in skat.read_iss(ISS)]
    return [g for g in starts if g is not None][:n]


def test_start_of_play_keeps_the_contract() -> None:
    games = list(skat.read_iss(ISS))
    starts = [(g, start_of_play(g)) for g in games]
    declared = [(g, s) for g, s in starts if s is not None]
    assert len(declared) == sum(1 for g in games if g.contract is not None) > 0
    for g, s in declared:
        assert s.phase == skat.Phase.PLAY and s.contract == g.contract and s.played == []


def test_a_ramsch_has_no_start_of_play_to_measure() -> None:
    g = skat.Game(skat.Deal.random(2), variants="ramsch")
    for token in ["p", "p", "p"]:
        g.apply(token)
    assert g.phase == skat.Phase.PLAY and g.contract is None  # a Ramsch: no declared game
    assert start_of_play(g) is None
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    assert start_of_play(skat.Game.from_iss(g.to_iss())) is None


def test_pre_terminal_nodes_end_the_game_on_every_move() -> None:
    rng = random.Random(2)
    for start in human_starts(3):
        for _ in range(5):
            values = pre_terminal_sample(start, rng)
            assert len(values) >= 2


def test_collapse_stops_at_a_choice() -> None:
    g = human_starts(1)[0].copy()
    _collapse(g)
    assert g.is_over or len(g.legal_actions()) > 1


def test_consistent_worlds_never_grow() -> None:
    rng = random.Random(3)
    seen = 0
    for start in human_starts(5):
        ratios = disambiguation_ratios(start, rng)  # empty if the game ends in trick 1 (null)
        assert all(0 < r <= 1 for r in ratios)
        seen += len(ratios)
    assert seen > 0


def test_df_conversion() -> None:
    assert df_of_ratios([1.0]) == 0.0
    assert df_of_ratios([0.25]) == pytest.approx(2 / 3)  # two halvings: df / (1 - df) = 2
    assert df_of_ratios([]) is None


def test_measure_game_ranges() -> None:
    m = measure_game(human_starts(1)[0], samples=10, rollouts=1, seed=5)
    assert m["type"] in ("suit", "grand", "null")
    assert 0 <= m["lc"] <= 1 and (m["b"] is None or 0 <= m["b"] <= 1)
    assert m == measure_game(human_starts(1)[0], samples=10, rollouts=1, seed=5)


def test_chosen_games_come_in_deal_order_with_their_type() -> None:
    chosen = choose_games(1, seed=3, bidder="kermit:worlds=1,threads=1", max_deals=3)
    for kind, games in chosen.items():
        assert len(games) <= 1
        for j, record in games:
            g = start_of_play(skat.Game.from_iss(record))
            assert g is not None and game_kind(g) == kind and 0 <= j < 3
    assert sum(len(v) for v in chosen.values()) >= 1


def test_properties_command(tmp_path: Path) -> None:
    out, png = tmp_path / "p.json", tmp_path / "p.png"
    args = ["research", "properties", "--games", "0", "--iss", str(ISS), "--samples", "3"]
    args += ["--rollouts", "1", "--workers", "1", "--json", str(out), "--plot", str(png)]
    assert main(args) == 0
    data = json.loads(out.read_text())
    games = data["iss"]["games"]
    assert len(games) == sum(data["iss"]["summary"][t]["games"] for t in ("suit", "grand", "null"))
    assert png.stat().st_size > 0


def test_record_games_take_the_first_of_each_type_in_file_order() -> None:
    lines = read_records([ISS])
    every = record_games(lines)
    some = record_games(lines, games=2)
    for kind in ("suit", "grand", "null"):
        assert some[kind] == every[kind][:2]
        for k, record in every[kind]:
            g = start_of_play(skat.Game.from_iss(record))
            assert g is not None and game_kind(g) == kind
            assert g.deal == skat.Game.from_iss(lines[k]).deal
    declared = sum(1 for line in lines if skat.Game.from_iss(line).contract is not None)
    assert sum(len(v) for v in every.values()) == declared


def test_properties_command_reads_self_play_records(tmp_path: Path) -> None:
    out = tmp_path / "p.json"
    args = ["research", "properties", "--games", "2", "--records", str(ISS), "--samples", "3"]
    args += ["--rollouts", "1", "--workers", "1", "--json", str(out)]
    assert main(args) == 0
    data = json.loads(out.read_text())
    assert data["records"] == [str(ISS)] and data["bidder"] is None
    summary = data["self-play"]["summary"]
    assert [summary[t]["games"] for t in ("suit", "grand", "null")] == [2, 2, 2]
    assert "iss" not in data
