"""The open-handed solver through the Python API, cross-checked against the pure-Python
minimax of tests/reference/ on small positions taken from real-looking games."""

from __future__ import annotations

import random

import pytest

import skat
from skat import Cards, Contract, GameType, Position, Solver
from tests import reference as ref
from tests.policies import sensible_random_action

SWITCHES = [
    "transposition_table",
    "payoff_similarity",
    "move_ordering",
    "fastest_cut_first",
    "collapse_equivalent",
    "static_bounds",
    "trump_bounds",
    "endgame_tables",
    "partition_search",
    "endgame_cache",
]


def survival(v: int) -> int:
    return 11 if v == 0 else v


def positions(
    count: int, max_cards: int, seed: int, declaration: str | None = None
) -> list[tuple[skat.Game, Position]]:
    """Positions from games played with the sensible random policy until at most
    ``max_cards`` cards per hand remain (half of them mid-trick); with ``declaration``
    middlehand plays that hand contract."""
    rng = random.Random(seed)
    out: list[tuple[skat.Game, Position]] = []
    s = seed * 1000
    while len(out) < count:
        s += 1
        g = skat.Game(skat.Deal.random(s))
        if declaration is not None:
            for t in ["18", "p", "p", declaration]:
                g.apply(t)
        stop_mid = rng.random() < 0.5
        while not g.is_over:
            near_end = g.phase == skat.Phase.PLAY and 10 - len(g.tricks) <= max_cards
            if near_end and (not stop_mid or len(g.trick) == 1 + rng.randrange(2)):
                break
            g.apply(sensible_random_action(g, rng))
        if g.is_over or g.phase != skat.Phase.PLAY:
            continue
        out.append((g, Position.from_game(g)))
    return out


def minimax_of(g: skat.Game) -> int:
    assert g.contract is not None and g.declarer is not None
    hands = [[str(c) for c in h] for h in g.hands]
    return ref.minimax(
        hands,
        g.contract.game_type.letter,
        g.declarer,
        g.leader,
        [str(c) for c in g.trick],
        g.declarer_points,
        len(g.tricks),
    )


def test_solve_matches_the_reference_minimax() -> None:
    kinds: set[str] = set()
    cases = positions(160, 4, seed=1) + positions(40, 4, seed=11, declaration="NH")
    for g, p in cases:
        assert g.contract is not None
        kinds.add(g.contract.game_type.letter)
        assert skat.solve(p) == minimax_of(g), repr(p)
    assert kinds >= {"G", "N"} and len(kinds) >= 4


def test_analyze_reaches_and_solve_agree() -> None:
    solver = Solver(tt_mb=4)
    for _, p in positions(100, 5, seed=2) + positions(30, 5, seed=12, declaration="NOH"):
        v = solver.solve(p)
        moves = solver.analyze(p)
        assert set(moves) == set(p.legal_cards())
        null = p.contract.game_type == GameType.NULL
        scores = [survival(x) for x in moves.values()] if null else list(moves.values())
        best = max(scores) if p.to_move == p.declarer else min(scores)
        assert best == (survival(v) if null else v)
        targets = (1, 3, 6, 11) if null else (31, 61, 90, 120)
        for t in targets:
            assert solver.reaches(p, t) == ((survival(v) if null else v) >= t)
        stats = solver.last_stats
        assert stats is not None and stats.nodes >= 0 and stats.time >= 0


@pytest.mark.parametrize("switch", SWITCHES)
def test_each_enhancement_switched_gives_the_same_values(switch: str) -> None:
    on = Solver(tt_mb=4)
    flipped = not on.options[switch]  # each switch flipped from its default
    off = Solver(tt_mb=4, **{switch: flipped})
    assert off.options[switch] == int(flipped)
    for _, p in positions(40, 5, seed=3):
        assert off.solve(p) == on.solve(p)
        assert off.analyze(p) == on.analyze(p)


def test_solve_many_matches_and_does_not_depend_on_threads() -> None:
    ps = [p for _, p in positions(30, 5, seed=4)]
    solver = Solver(tt_mb=4)
    one = solver.solve_many(ps, threads=1)
    nodes_one = [s.nodes for s in solver.last_batch_stats]
    two = solver.solve_many(ps, threads=2)
    nodes_two = [s.nodes for s in solver.last_batch_stats]
    assert one == two == [skat.solve(p) for p in ps]
    assert nodes_one == nodes_two


def test_position_from_a_start_of_play_game() -> None:
    g = skat.Game(skat.Deal.random(5))
    for t in ["18", "p", "p", "s"]:
        g.apply(t)
    g.apply(g.legal_actions()[0])
    g.apply("G")
    p = Position.from_game(g)
    assert p.to_move == 0 and p.declarer == 1 and len(p.hands[0]) == 10
    assert p.declarer_points == g.skat.points
    assert p.contract == Contract(GameType.GRAND)
    q = p.play(next(iter(p.legal_cards())))
    assert q.to_move == 1 and len(q.trick) == 1


def test_invalid_positions() -> None:
    h0, h1, h2 = Cards("CA CT"), Cards("SA ST"), Cards("HA HT")
    ok = Position((h0, h1, h2), "G", 0, 0)
    assert skat.solve(ok) >= 0
    with pytest.raises(skat.PositionError):
        Position((h0, h0, h2), "G", 0, 0)  # a card twice
    with pytest.raises(skat.PositionError):
        Position((Cards("CA"), h1, h2), "G", 0, 0)  # hand sizes do not fit
    with pytest.raises(skat.PositionError):
        Position((Cards("CT C9"), h1, h2), "G", 0, 0, trick=["CA"])  # the leader played one
    with pytest.raises(skat.PositionError):
        Position((Cards("C7"), Cards("CK"), h2), "G", 2, 0, trick=["CA", "SA"])  # revoke
    with pytest.raises(skat.PositionError):
        Position((h0, h1, h2), "G", 3, 0)
    for points in (2**32 - 1, 2**32 - 30):  # wrapped around the 120 check and were accepted
        with pytest.raises(skat.PositionError, match="exceed 120"):
            Position((h0, h1, h2), "G", 0, 0, declarer_points=points)
    with pytest.raises(skat.ParseError):
        Position((h0, h1, h2), "X", 0, 0)
    with pytest.raises(skat.PositionError):
        Position.from_game(skat.Game(skat.Deal.random(1)))  # still bidding
    assert issubclass(skat.PositionError, skat.SkatError)
    with pytest.raises(TypeError, match="unknown solver option"):
        Solver(fast=True)
