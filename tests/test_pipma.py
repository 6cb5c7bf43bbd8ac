"""PIPMA (skat.analysis): card verdicts against the reference minimax and a full solve, the
counting of opportunities and mistakes, record files, workers and the ``skat analyze`` CLI."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import skat
from skat import Card, Deal, Game, Phase, Position, Solver
from skat.analysis import Decision, MistakeTally, card_outcomes, decisions, target_of
from skat.analysis.records import analyze_files
from skat.cli import main
from skat.match import play
from skat.players import make_player
from skat.records import named_record
from tests import reference as ref
from tests.policies import sensible_random_action


def random_games(count: int, seed: int) -> list[Game]:
    """Finished games with card play, played by the sensible random policy."""
    rng = random.Random(seed)
    out: list[Game] = []
    s = seed * 1000
    while len(out) < count:
        s += 1
        g = Game(Deal.random(s))
        while not g.is_over:
            g.apply(sensible_random_action(g, rng))
        if g.contract is not None and g.played:
            out.append(g)
    return out


def reference_wins(g: Game, card: Card, target: int) -> bool:
    """Brute force: after ``card``, does the mover's side win (tests/reference/ minimax)?"""
    assert g.contract is not None and g.declarer is not None
    after = g.copy()
    seat = after.to_move
    after.apply(f"{card}")
    hands = [[str(c) for c in h] for h in after.hands]
    gt = g.contract.game_type.letter
    if after.is_over:
        done = after.declarer_points
        declarer_wins = after.declarer_tricks == 0 if gt == "N" else done >= target
    else:
        value = ref.minimax(
            hands,
            gt,
            g.declarer,
            after.leader,
            [str(c) for c in after.trick],
            after.declarer_points,
            len(after.tricks),
        )
        declarer_wins = value == 0 if gt == "N" else value >= target
    return declarer_wins == (seat == g.declarer)


def test_card_outcomes_match_the_reference_minimax_in_endgames() -> None:
    solver = Solver(tt_mb=4)
    checked = 0
    kinds: set[bool] = set()
    for g in random_games(40, seed=1):
        target = target_of(g)
        replay = Game(g.deal)
        for _, action in g.history:
            if replay.phase == Phase.PLAY and 10 - len(replay.tricks) <= 3:
                outcome = card_outcomes(Position.from_game(replay), target, solver)
                assert set(outcome) == set(replay.legal_cards())
                for card, wins in outcome.items():
                    assert wins == reference_wins(replay, card, target), (g.to_iss(), card)
                    kinds.add(wins)
                    checked += 1
            replay.apply(action)
    assert checked > 300 and kinds == {True, False}


def rules_games(count: int, seed: int) -> list[Game]:
    """Finished games with card play between three ``rules`` players."""
    out: list[Game] = []
    s = seed * 1000
    while len(out) < count:
        s += 1
        g = play([make_player("rules") for _ in range(3)], Deal.random(s), seed=s)
        if g.contract is not None and g.played:
            out.append(g)
    return out


def test_decisions_agree_with_a_full_solve_of_every_card() -> None:
    solver = Solver(tt_mb=8)
    opportunities = mistakes = 0
    for g in rules_games(12, seed=2):
        assert g.contract is not None
        null = g.contract.game_type == skat.GameType.NULL
        target = target_of(g)
        found = {d.number: d for d in decisions(g)}
        replay = Game(g.deal)
        number = 0
        for _, action in g.history:
            if action.kind == "play" and replay.phase == Phase.PLAY:
                number += 1
                legal = replay.legal_cards()
                if len(legal) == 1:
                    assert number not in found
                else:
                    d = found[number]
                    assert d.card == action.card and d.seat == replay.to_move
                    assert d.trick == len(replay.tricks) + 1
                    p = Position.from_game(replay)
                    side = p.to_move == p.declarer
                    wins = {}
                    for c in legal:
                        v = solver.solve(p.play(c))
                        wins[c] = (v == 0 if null else v >= target) == side
                    assert set(d.winning) == {c for c in legal if wins[c]}
                    assert set(d.losing) == {c for c in legal if not wins[c]}
                    opportunities += d.opportunity
                    mistakes += d.mistake
            replay.apply(action)
    assert opportunities > mistakes > 0  # the rules player makes mistakes, not always


def _sure_schwarz() -> Game:
    """A grand hand where middlehand holds all four jacks and the aces and tens of three suits:
    she takes every trick whatever anyone plays, so nobody has a mistake opportunity."""
    declarer = "CJ SJ HJ DJ CA CT SA ST HA HT"
    rest = [c for c in (str(x) for x in Card.all()) if c not in declarer.split()]
    deal = Deal.parse(".".join([*rest[:10], *declarer.split(), *rest[10:]]))
    g = Game(deal)
    for token in ["18", "p", "p", "GH"]:
        g.apply(token)
    rng = random.Random(3)
    while not g.is_over:
        g.apply(sensible_random_action(g, rng))
    return g


def test_a_sure_win_has_no_opportunities() -> None:
    g = _sure_schwarz()
    assert g.declarer == 1 and g.result is not None and g.result.won
    found = decisions(g)
    assert found and all(d.losing == () for d in found if d.seat == 1)
    assert all(d.winning == () for d in found if d.seat != 1)
    tally = MistakeTally()
    tally.add_decisions(found, ["a", "b", "c"])
    assert {n: p.opportunities for n, p in tally.players.items()} == {"a": 0, "b": 0, "c": 0}
    assert tally.rate("b") is None and tally.players["b"].decisions == 9


def test_counting_known_decisions() -> None:
    c = [Card(x) for x in ("CA", "CT", "CK")]
    found = [
        Decision(1, 1, 0, c[0], (c[0],), (c[1],)),  # opportunity, right card
        Decision(2, 1, 1, c[1], (c[0],), (c[1],)),  # opportunity, mistake
        Decision(3, 1, 2, c[2], (c[0], c[2]), ()),  # no opportunity
        Decision(4, 2, 1, c[1], (c[0],), (c[1], c[2])),  # mistake in trick 2
        Decision(5, 2, 0, c[0], (), (c[0], c[1])),  # no opportunity
    ]
    tally = MistakeTally()
    tally.add_decisions(found, ["x", "y", "z"])
    tally.add_decisions(found[:2], ["y", "x", "z"])  # another game, seats swapped
    x, y, z = (tally.players[n] for n in "xyz")
    assert (x.opportunities, x.mistakes, x.decisions, x.games) == (2, 1, 3, 2)
    assert (y.opportunities, y.mistakes, y.decisions, y.games) == (3, 2, 3, 2)
    assert (z.opportunities, z.mistakes, z.decisions, z.games) == (0, 0, 1, 1)
    assert y.opportunities_by_trick[:2] == [2, 1] and y.mistakes_by_trick[:2] == [1, 1]
    assert y.rate == pytest.approx(2 / 3) and z.rate is None
    assert y.rate_by_trick()[:3] == [0.5, 1.0, None]
    assert tally.games == 2
    other = MistakeTally()
    other.merge(tally)
    other.merge(tally)
    assert other.players["y"].mistakes_by_trick[:2] == [2, 2] and other.games == 4


def _records(tmp_path: Path, count: int) -> Path:
    path = tmp_path / "games.sgf"
    lines = []
    for i, g in enumerate(random_games(count, seed=4)):
        names = ["ann", "bob", "cid"][i % 3 :] + ["ann", "bob", "cid"][: i % 3]
        lines.append(named_record(g.to_iss(), "test", str(i), names))
    path.write_text("\n".join(lines) + "\n")
    return path


def test_files_and_workers_give_the_same_tally(tmp_path: Path) -> None:
    path = _records(tmp_path, 45)
    one = analyze_files([path])
    two = analyze_files([path, path], workers=2)
    assert one.records == 45 and two.records == 90 and not one.skipped
    direct = MistakeTally()
    for g in skat.read_iss(path):
        direct.add_game(g)
    assert one.tally.as_dict() == direct.as_dict()
    for name, p in one.tally.players.items():
        q = two.tally.players[name]
        assert (q.opportunities, q.mistakes) == (2 * p.opportunities, 2 * p.mistakes)


def test_analyze_cli_json_plot_and_skipped_lines(tmp_path: Path) -> None:
    path = _records(tmp_path, 6)
    with path.open("a") as f:
        f.write("(;GM[Skat]PC[x]MV[w nonsense];)\n")
    out, png = tmp_path / "a.json", tmp_path / "a.png"
    status = main(["analyze", str(path), "--json", str(out), "--plot", str(png)])
    assert status == 1  # one record skipped
    data = json.loads(out.read_text())
    assert data["records"] == 7 and len(data["skipped"]) == 1
    assert set(data["players"]) == {"ann", "bob", "cid"}
    for p in data["players"].values():
        assert sum(p["opportunities_by_trick"]) == p["opportunities"]
        assert sum(p["mistakes_by_trick"]) == p["mistakes"] <= p["opportunities"]
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert main(["analyze", str(tmp_path / "missing.sgf")]) == 2
    assert main(["analyze", str(path), "--workers", "0"]) == 2


def test_a_played_game_names_seats_from_the_record() -> None:
    g = play([make_player("rules") for _ in range(3)], Deal.random(7), seed=7)
    named = Game.from_iss(named_record(g.to_iss(), "t", "1", ["p", "q", "r"]))
    tally = MistakeTally()
    tally.add_game(named)
    assert set(tally.players) <= {"p", "q", "r"}
    assert [d.card for d in decisions(named)] == [d.card for d in decisions(g)]


def test_threshold_estimate_finds_a_threshold_players_threshold(tmp_path: Path) -> None:
    from skat.analysis.thresholds import ThresholdEstimate, estimate_thresholds

    lines = []
    for s in range(10):
        specs = ["kermit:threshold=0.45", "kermit:threshold=0.7", "kermit:threshold=0.45"]
        players = [make_player(f"{x},unopposed=none,worlds=1,threads=1") for x in specs]
        g = play(players, Deal.random(s), seed=s, until=Phase.PLAY)
        lines.append(named_record(g.to_iss(), "t", str(s), ["low", "high", "low"]))
    found = estimate_thresholds([Game.from_iss(line) for line in lines])
    for name, true in (("low", 0.45), ("high", 0.7)):
        est = found[name]
        assert est.bids or est.passes
        assert est.loss(true) == 0.0  # every inequality holds at the true threshold
        zero = [t for t, loss in est.curve() if loss == 0.0]
        assert est.estimate() == zero[0] and zero[0] <= true <= zero[-1]
    toy = ThresholdEstimate([0.8, 0.3], [0.5])
    assert toy.loss(0.4) == pytest.approx(0.1 + 0.1) and toy.loss(0.5) == pytest.approx(0.2)
    path = tmp_path / "b.sgf"
    path.write_text("\n".join(lines) + "\n")
    out = tmp_path / "b.json"
    assert main(["analyze", str(path), "--thresholds", "--json", str(out)]) == 0
    data = json.loads(out.read_text())["thresholds"]
    assert data["low"]["threshold"] == found["low"].estimate()


def test_real_records_with_claims_and_resignations_replay() -> None:
    """The ISS sample has claims, resignations, time-outs and players leaving, some made by a
    seat not to move: every record replays and every game with card play is judged."""
    path = Path(__file__).resolve().parent / "data" / "iss" / "iss-sample.sgf"
    result = analyze_files([path])
    games = [g for g in skat.read_iss(path) if g.contract is not None and g.played]
    assert result.records == 55 and not result.skipped
    special = [g for g in games if any(a.kind in {"claim", "resign"} for _, a in g.history)]
    assert special, "the sample has claimed or resigned games"
    direct = MistakeTally()
    for g in games:
        direct.add_game(g)
    assert result.tally.as_dict() == direct.as_dict()
    assert sum(p.opportunities for p in result.tally.players.values()) > 0


def test_declarer_calibration_is_won_minus_the_bid_value(tmp_path: Path) -> None:
    from skat.analysis.calibration import declarer_errors
    from skat.bidding.model import default_model

    lines: list[str] = []
    expected: dict[str, list[float]] = {}
    for s in range(12):
        players = [make_player("kermit:worlds=1,threads=1,points=false") for _ in range(3)]
        g = play(players, Deal.random(s), seed=s)
        line = named_record(g.to_iss(), "t", str(s), ["a", "b", "c"])
        lines.append(line)
        if g.declarer is None or g.result is None:
            assert declarer_errors(Game.from_iss(line)) is None
            continue
        # the tracker's pWin: the 10+2 value of the initial hand at the final bid
        values, _ = default_model().tables.evaluate(g.deal.hands[g.declarer], g.declarer, [g.bid])
        name = "abc"[g.declarer]
        expected.setdefault(name, []).append(float(g.result.won) - float(values[0]))
    assert expected
    path = tmp_path / "c.sgf"
    path.write_text("\n".join(lines) + "\n")
    report = analyze_files([path], calibration=True)
    assert report.calibration is not None
    assert sorted(report.calibration) == sorted(expected)
    for name, errors in expected.items():
        assert report.calibration[name].errors == pytest.approx(errors)
    out = tmp_path / "c.json"
    assert main(["analyze", str(path), "--calibration", "--json", str(out)]) == 0
    data = json.loads(out.read_text())["calibration"]
    assert data[sorted(expected)[0]]["games"] == len(expected[sorted(expected)[0]])
