"""PIMC card play: the engine's values, weights, determinism, errors; pimc and cheater players."""

from __future__ import annotations

import pytest

import skat
from skat import Phase, Pimc, Position, sample_worlds
from skat._core import ramsch_decide
from skat.inference import make_inference
from skat.match import play
from skat.players import PimcPlayer, make_player
from tests.test_players import play_game


def declared_game(seed: int, cards: int = 0) -> skat.Game:
    """A deal bid and declared by rules players, stopped after ``cards`` cards of play."""
    j = seed
    while True:
        players = [make_player("rules") for _ in range(3)]
        g = play(players, skat.Deal.random(j), seed=j, until=Phase.PLAY)
        if not g.is_over:
            for _ in range(cards):
                seat = g.to_move
                assert seat is not None
                g.apply(players[seat].act(g.view(seat)))
            return g
        j += 10_000


def late_game(seed: int) -> skat.Game:
    return declared_game(seed, cards=18)


def test_decisions_do_not_depend_on_threads_or_on_passing_the_worlds() -> None:
    for seed in range(4):
        g = late_game(seed)
        view = g.view(g.to_move or 0)
        one = Pimc(worlds=12, threads=1).decide(view, seed=seed)
        two = Pimc(worlds=12, threads=2).decide(view, seed=seed)
        given = Pimc(worlds=1).decide(view, worlds=sample_worlds(view, 12, seed=seed))
        for d in (two, given):
            assert d.best == one.best
            assert [(v.card, v.win, v.schneider, v.points) for v in d.values] == [
                (v.card, v.win, v.schneider, v.points) for v in one.values
            ]
        assert one.worlds == 12 and one.weight == 12.0
        legal = {a.card for a in view.legal_actions()}
        assert {v.card for v in one.values} == legal and one.best in legal


def test_weights_scale_worlds() -> None:
    g = late_game(11)
    view = g.view(g.to_move or 0)
    worlds = sample_worlds(view, 3, seed=5)
    engine = Pimc(worlds=1)
    doubled = engine.decide(view, worlds=[worlds[0], worlds[0], worlds[1]])
    weighted = engine.decide(view, worlds=[(*worlds[0], 2.0), (*worlds[1], 1.0)])
    ignored = engine.decide(view, worlds=[(*worlds[0], 2.0), (*worlds[1], 1.0), (*worlds[2], 0.0)])
    for d in (weighted, ignored):
        assert [v.card for v in d.values] == [v.card for v in doubled.values]
        got = [x for v in d.values for x in (v.win, v.schneider, v.points)]
        want = [x for v in doubled.values for x in (v.win, v.schneider, v.points)]
        assert got == pytest.approx(want)
    assert weighted.weight == 3.0 and ignored.worlds == 3


def test_one_true_world_gives_the_solver_values() -> None:
    """With the true world only, each card's points are the exact open-handed values."""
    for seed in range(6):
        g = late_game(20 + seed)
        seat = g.to_move
        assert seat is not None and g.contract is not None and g.declarer is not None
        view = g.view(seat)
        d = Pimc(worlds=1).decide(view, worlds=[(g.hands, g.skat)])
        exact = skat.analyze(Position.from_game(g))
        null = g.contract.game_type == skat.GameType.NULL
        decl = seat == g.declarer
        for v in d.values:
            e = exact[v.card]
            if null:
                survival = 11 if e == 0 else e
                assert v.points == survival
                assert v.win == float((survival == 11) == decl)
            else:
                assert v.points == e
                # the declarer needs at least 61 (more if announced or to reach the bid)
                declarer_wins = v.win == 1.0 if decl else v.win == 0.0
                assert v.win in (0.0, 1.0)
                assert not declarer_wins or e >= 61
                if g.bid <= 18 and not g.contract.hand:
                    assert declarer_wins == (e >= 61)
        # the best card is best for the seat's side on (win, schneider, points)
        sign = 1 if decl else -1
        top = max(d.values, key=lambda v: (v.win, v.schneider, sign * v.points))
        assert (d.values[0].win, d.values[0].schneider, sign * d.values[0].points) == (
            top.win,
            top.schneider,
            sign * top.points,
        )


def test_errors_are_specific_and_change_nothing() -> None:
    g = late_game(3)
    seat = g.to_move
    assert seat is not None
    other = (seat + 1) % 3
    engine = Pimc(worlds=4)
    with pytest.raises(skat.SkatError, match="seat to move"):
        engine.decide(g.view(other))
    with pytest.raises(skat.SkatError, match="own hand"):
        hands = list(g.hands)
        hands[seat], hands[other] = hands[other], hands[seat]
        engine.decide(g.view(seat), worlds=[((hands[0], hands[1], hands[2]), g.skat)])
    with pytest.raises(skat.SkatError, match="weight"):
        engine.decide(g.view(seat), worlds=[(g.hands, g.skat, -1.0)])
    with pytest.raises(skat.SkatError, match="no worlds"):
        engine.decide(g.view(seat), worlds=[])
    with pytest.raises(ValueError, match="worlds"):
        Pimc(worlds=0)
    with pytest.raises(ValueError, match="seconds"):
        Pimc(seconds=-1.0)
    with pytest.raises(skat.SkatError, match="card play"):
        engine.decide(skat.Game(skat.Deal.random(1)).view(1))
    assert g.to_move == seat  # nothing changed


def test_bad_given_worlds_and_counts_raise_skat_errors() -> None:
    g = late_game(3)
    seat = g.to_move
    assert seat is not None
    view, engine = g.view(seat), Pimc(worlds=2)
    # PyO3's tuple extraction raised a bare ValueError, an int weight beyond a float one too
    with pytest.raises(skat.InvalidCardsError, match="a world"):
        engine.decide(view, worlds=[(g.hands,)])  # type: ignore[list-item]
    with pytest.raises(skat.InvalidCardsError, match="three hands"):
        engine.decide(view, worlds=[((g.hands[0], g.hands[1]), g.skat)])  # type: ignore[list-item]
    with pytest.raises(skat.PositionError, match="weight"):
        engine.decide(view, worlds=[(g.hands, g.skat, 2**2000)])
    with pytest.raises(skat.ArgumentError, match="not both"):
        engine.decide(view, worlds=[(g.hands, g.skat)], inference=make_inference("SD"))
    assert engine.decide(view, worlds=[(g.hands, g.skat, None)]).worlds == 1
    # 2**40 worlds had the process abort on a failed allocation, 2**62 panic
    for worlds in (2**40, 2**62):
        with pytest.raises(skat.ArgumentError, match="at most"):
            Pimc(worlds=worlds)
    # a time budget beyond what the clock can hold panicked; it never runs out
    for seconds in (1e19, 1e300):
        assert Pimc(worlds=2, seconds=seconds).decide(view).worlds == 2


def test_a_ramsch_with_given_worlds_is_refused_not_a_panic() -> None:
    g = skat.Game(skat.Deal.random(3), "ramsch")
    for token in ["p", "p", "p"]:
        g.apply(token)
    while g.phase != Phase.PLAY:
        g.apply(g.legal_actions()[0])
    seat = g.to_move
    assert seat is not None and g.ramsch
    with pytest.raises(skat.PositionError, match="Ramsch"):
        Pimc(worlds=2).decide(g.view(seat), worlds=[(g.hands, g.skat)])
    with pytest.raises(skat.ArgumentError, match="at most"):
        ramsch_decide(g.view(seat), 2**40)  # ran 2**40 searches


def test_time_budget_bounds_the_worlds() -> None:
    g = declared_game(5)
    view = g.view(g.to_move or 0)
    d = Pimc(worlds=400, seconds=0.05).decide(view, seed=1)
    assert 1 <= d.worlds <= 400


def test_pimc_and_cheater_players_play_legal_games() -> None:
    specs = ["pimc:worlds=6,threads=1", "cheater", "pimc:worlds=4,points=false,threads=2"]
    for seed in range(6):
        # an illegal action would raise PlayerFailure
        g = play([make_player(s) for s in specs], skat.Deal.random(seed), seed=seed)
        assert g.result is not None


def test_pimc_player_reproduces_and_reports_its_decision() -> None:
    first = play_game([make_player("pimc:worlds=5,threads=1") for _ in range(3)], 8)
    again = play_game([make_player("pimc:worlds=5,threads=2") for _ in range(3)], 8)
    assert first.to_iss() == again.to_iss()
    p = make_player("pimc:worlds=5,seed=2")
    assert isinstance(p, PimcPlayer) and p.engine.worlds == 5
