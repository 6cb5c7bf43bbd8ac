"""Opponent modelling: the tracker's and the count's models and thresholds, the clones
tournament mode (seatings, hooks, names, order, determinism) and the table of cells."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skat import Deal, Game
from skat.analysis import MistakeTally
from skat.cli import main
from skat.match import play
from skat.players import make_player
from skat.players.modelling import CountPlayer, TrackerPlayer, count_offset
from skat.tournament import run
from skat.tournament_clones import clone_names
from skat.tournament_table import run_table

FAST = "worlds=2,threads=1,points=false"
HERE = "tests.test_modelling"


def finished_games(count: int, seed: int = 1) -> list[Game]:
    out: list[Game] = []
    s = seed * 100
    while len(out) < count:
        s += 1
        g = play([make_player("rules") for _ in range(3)], Deal.random(s), seed=s)
        if g.result is not None and g.result.declarer is not None:
            out.append(g)
    return out


def test_count_offset_is_eq_7_2() -> None:
    assert count_offset(0.0) == pytest.approx(0.1)
    assert count_offset(0.1) == pytest.approx(0.0)
    assert count_offset(0.1 + 1e-9) == pytest.approx(0.0, abs=1e-8)  # continuous at 0.1
    assert count_offset(0.25) == pytest.approx(-0.075)


def test_tracker_moves_by_its_declarer_errors_per_opponent_set() -> None:
    t = make_player(f"tracker:{FAST}")
    assert isinstance(t, TrackerPlayer)
    games = finished_games(4)
    names = ("x", "y", "z")
    expected: list[float] = []
    for g in games:
        assert g.result is not None
        seat = g.result.declarer
        assert seat is not None
        t.meet(seat, names)
        t._pwin = 0.7  # as if its hand's 10+2 chance at the final bid was 0.7
        t.game_over(g, seat, names)
        expected.append(float(g.result.won) - 0.7)
    # against the opponents of the last game: the mean error of games with the same pair
    last = games[-1].result
    assert last is not None and last.declarer is not None
    seat = last.declarer
    pair = tuple(sorted(n for s, n in enumerate(names) if s != seat))
    same = [
        e
        for g, e in zip(games, expected, strict=True)
        if tuple(sorted(n for s, n in enumerate(names) if s != g.result.declarer)) == pair  # type: ignore[union-attr]
    ]
    assert t.offset() == pytest.approx(-sum(same) / len(same))
    t.new_game(seat, 1)
    assert t.threshold == pytest.approx(min(0.75, max(0.0, 0.6 - sum(same) / len(same))))
    # a defender's game teaches it nothing
    before = dict(t.errors)
    g = games[0]
    defender = (g.result.declarer + 1) % 3  # type: ignore[union-attr,operator]
    t._pwin = 0.7
    t.game_over(g, defender, names)
    assert t.errors == before


def test_tracker_threshold_is_capped() -> None:
    t = make_player(f"tracker:{FAST}")
    assert isinstance(t, TrackerPlayer)
    t.meet(0, ("me", "a", "b"))
    t.errors[("a", "b")] = (-3.0, 3)  # lost every game it was sure to win
    t.new_game(0, 1)
    assert t.threshold == 0.75
    # the unopposed value moves by the same (capped) amount; none stays none
    assert t.base_unopposed is not None
    assert t.unopposed == pytest.approx(t.base_unopposed + 0.75 - t.base_threshold)
    plain = make_player(f"tracker:unopposed=none,{FAST}")
    assert isinstance(plain, TrackerPlayer)
    plain.meet(0, ("me", "a", "b"))
    plain.errors[("a", "b")] = (-3.0, 3)
    plain.new_game(0, 1)
    assert (plain.threshold, plain.unopposed) == (0.75, None)


def test_count_learns_mistake_rates_and_sets_its_threshold() -> None:
    c = make_player(f"count:min_opportunities=1,{FAST}")
    assert isinstance(c, CountPlayer)
    names = ("me", "a", "b")
    reference = MistakeTally()
    for g in finished_games(6, seed=2):
        c.game_over(g, 0, names)
        reference.add_game(g, names)
    assert c.tally.as_dict() == reference.as_dict()
    c.meet(0, names)
    rates = [reference.rate(n) for n in ("a", "b")]
    known = [r for r in rates if r is not None]
    m = sum(known) / len(known) if known else None
    assert c.opponent_rate() == m
    c.new_game(0, 5)
    assert c.threshold == pytest.approx(0.6 + (count_offset(m) if m is not None else 0.0))
    # unknown opponents: no offset
    c.meet(0, ("me", "new1", "new2"))
    c.new_game(0, 6)
    assert c.threshold == pytest.approx(0.6)


@pytest.mark.parametrize("spec", ["count", "tracker"])
def test_rm36_forgets_every_36_games(spec: str) -> None:
    p = make_player(f"{spec}:rm36=true,{FAST}")
    g = finished_games(1)[0]
    assert g.result is not None
    seat = g.result.declarer
    assert seat is not None
    names = ("me", "a", "b")
    for k in range(1, 37):
        if isinstance(p, TrackerPlayer):
            p._pwin = 0.5
        p.game_over(g, seat, names)  # type: ignore[attr-defined]
        model = p.errors if isinstance(p, TrackerPlayer) else p.tally.players  # type: ignore[attr-defined]
        assert bool(model) == (k < 36)


class Recorder:
    """A rules player that writes down the hooks' calls."""

    def __init__(self) -> None:
        self.rules = make_player("rules")
        self.calls: list[tuple[Any, ...]] = []

    def meet(self, seat: int, names: tuple[str, str, str]) -> None:
        self.calls.append(("meet", seat, names))

    def new_game(self, seat: int, seed: int) -> None:
        self.calls.append(("new_game", seat))
        self.rules.new_game(seat, seed)  # type: ignore[attr-defined]

    def game_over(self, game: Game, seat: int, names: tuple[str, str, str]) -> None:
        assert game.is_over
        self.calls.append(("game_over", seat, names))

    def act(self, view: Any) -> Any:
        return self.rules.act(view)


def test_clone_names() -> None:
    told, recorded = clone_names("ABB", ("c", "b"))
    assert told == ["c", "b (1)", "b (2)"] and recorded == ["c", "b", "b"]
    told, _ = clone_names("BBA", ("c", "b"))
    assert told == ["b (1)", "b (2)", "c"]


def test_clones_mode_keeps_players_and_calls_the_hooks(tmp_path: Path) -> None:
    records = tmp_path / "r.sgf"
    spec = f"{HERE}:Recorder"
    result = run(spec, "rules", mode="clones", deals=2, seed=4, records=records)
    assert result.complete and result.deals_played == 2 and result.games_played == 6
    assert [g.seating for d in result.outcomes for g in d.games] == ["ABB", "BAB", "BBA"] * 2
    lines = records.read_text().splitlines()
    assert len(lines) == 6 and all("P1[" in line for line in lines)
    assert "P0[rules]P1[tests.test_modelling:Recorder]P2[rules]" in lines[1]
    # the same deal in every seating of one deal index
    games = [Game.from_iss(line) for line in lines]
    assert games[0].deal == games[1].deal == games[2].deal != games[3].deal


def test_clones_mode_hook_order_and_names() -> None:
    calls: list[tuple[Any, ...]] = []

    class Spy(Recorder):
        def __init__(self) -> None:
            super().__init__()
            self.calls = calls

    import sys

    module = sys.modules[__name__]
    setattr(module, "Spy", Spy)  # noqa: B010
    try:
        run(f"{HERE}:Spy", "rules", mode="clones", deals=1, seed=5)
    finally:
        delattr(module, "Spy")
    seats = [0, 1, 2]
    assert [c[0] for c in calls] == ["meet", "new_game", "game_over"] * 3
    for k, seat in enumerate(seats):
        meet, new, over = calls[3 * k : 3 * k + 3]
        assert meet[1] == seat == new[1] == over[1]
        names = meet[2]
        assert names[seat] == f"{HERE}:Spy"
        assert sorted(n for s, n in enumerate(names) if s != seat) == ["rules (1)", "rules (2)"]
        assert over[2] == names


def test_clones_mode_replays_and_refuses_workers() -> None:
    a = run(f"count:{FAST}", "random", mode="clones", deals=3, seed=6)
    b = run(f"count:{FAST}", "random", mode="clones", deals=3, seed=6)
    assert a.to_json(wall_clock=False) == b.to_json(wall_clock=False)
    assert a.to_json()["mode"] == "clones"
    with pytest.raises(ValueError, match="workers"):
        run("rules", "random", mode="clones", deals=1, workers=2)
    assert main(["tournament", "rules", "random", "--mode", "clones", "--workers", "2"]) == 2


def test_table_command_makes_its_records_directory(tmp_path: Path) -> None:
    out = tmp_path / "cells"
    argv = ["tournament-table", "--deals", "1", "--seed", "8", "--workers", "1"]
    argv += ["--candidates", "random", "--benchmarks", "rules", "--records-dir", str(out)]
    assert main(argv) == 0
    assert sorted(p.name for p in out.iterdir()) == ["cell-0-0.sgf"]
    assert main([*argv[:-1], str(tmp_path / "no" / "cells")]) == 2  # its parent must exist


def test_table_cells_are_the_clones_tournaments(tmp_path: Path) -> None:
    table = run_table(["rules", "random"], ["rules"], deals=2, seed=8, records_dir=tmp_path)
    assert [(c.candidate, c.benchmark) for c in table.cells] == [
        ("rules", "rules"),
        ("random", "rules"),
    ]
    for cell in table.cells:
        single = run(cell.candidate, cell.benchmark, mode="clones", deals=2, seed=8)
        stats = single.players
        assert cell.col == stats[single.a].points_per_list
        assert cell.row == stats[single.b].points_per_list
        assert cell.row_minus_col == pytest.approx(cell.row - cell.col)
    # rules against its own clones: duplicate seatings cancel exactly
    assert table.cells[0].row_minus_col == pytest.approx(0.0)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cell-0-0.sgf", "cell-1-0.sgf"]
    two = run_table(["rules", "random"], ["rules"], deals=2, seed=8, workers=2)
    assert [c.as_dict()["row"] for c in two.cells] == [c.as_dict()["row"] for c in table.cells]
    # the candidates compared deal by deal: the per-deal points average to the cell's column
    for cell in table.cells:
        assert sorted(cell.col_by_deal) == [0, 1]
        assert sum(cell.col_by_deal.values()) / 2 == pytest.approx(cell.col)
    (paired,) = table.paired()
    first, second = table.cells[0].col_by_deal, table.cells[1].col_by_deal
    diffs = [second[k] - first[k] for k in (0, 1)]
    assert (paired["candidate"], paired["against"], paired["deals"]) == ("random", "rules", 2)
    assert paired["mean"] == pytest.approx(sum(diffs) / 2)
    assert table.as_dict()["paired"] == table.paired()


def test_table_cli(tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    args = ["tournament-table", "--deals", "1", "--seed", "3", "--json", str(out)]
    assert main([*args, "--candidates", "rules", "--benchmarks", "random"]) == 0
    data = json.loads(out.read_text())
    assert data["cells"][0]["candidate"] == "rules" and data["deals"] == 1
    assert main([*args, "--candidates", "nobody", "--benchmarks", "random"]) == 2


def test_a_play_session_tells_its_ai_players_names_and_results() -> None:
    from skat.ui.session import Session

    s = Session(seat=0, opponents=[f"{HERE}:Recorder", "rules"], seed=3, games=2)
    for i in range(2):
        if i:
            s.next_game()
        while not s.game.is_over:
            s.advance()
            if s.waiting_for_human:
                s.act(s.legal_actions()[-1])
    recorder = next(slot.player for slot in s._slots.values() if isinstance(slot.player, Recorder))
    kinds = [c[0] for c in recorder.calls]
    assert kinds == ["meet", "new_game", "game_over"] * 2
    for call in recorder.calls:
        if call[0] != "new_game":
            assert sorted(call[2]) == sorted(s.names)


def test_table_cells_on_ray_are_the_same(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="Ray is an optional extra (pip install 'skat[ray]')")
    local = run_table(["rules", "random"], ["rules"], deals=2, seed=8, workers=1)
    on_ray = run_table(["rules", "random"], ["rules"], deals=2, seed=8, workers=2, ray="local")
    assert [c.as_dict() | {"tournament": None} for c in on_ray.cells] == [
        c.as_dict() | {"tournament": None} for c in local.cells
    ]
