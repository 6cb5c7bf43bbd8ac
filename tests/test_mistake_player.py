"""The ``mistake`` player: D(m), its choices against the post-mortem verdicts, replays."""

from __future__ import annotations

import pytest

from skat import Deal, Game
from skat.analysis import MistakeTally, decisions
from skat.match import play
from skat.players import PlayerSpecError, make_player
from skat.players.mistake import mistake_probability

FAST = "worlds=2,threads=1,points=false"


def games(rate: float, count: int, seed: int = 1) -> list[Game]:
    out = []
    for i in range(count):
        players = [make_player(f"mistake:rate={rate},{FAST}") for _ in range(3)]
        g = play(players, Deal.random(seed * 100 + i), seed=seed * 100 + i)
        out.append(g)
    return out


def test_d_of_m() -> None:
    assert mistake_probability(0.1, 1) == pytest.approx(0.17)
    assert mistake_probability(0.1, 2) == pytest.approx(0.09)
    assert mistake_probability(0.03, 5) == 0.0
    assert mistake_probability(1.0, 1) == 1.0


def test_rate_zero_never_errs_and_rate_one_always_errs_first() -> None:
    zero = MistakeTally()
    for g in games(0.0, 6):
        zero.add_game(g)
    assert sum(p.opportunities for p in zero.players.values()) > 0
    assert sum(p.mistakes for p in zero.players.values()) == 0
    ones = [d for g in games(1.0, 6) for d in decisions(g) if d.opportunity]
    first = [d for d in ones if d.trick == 1]
    assert ones and all(d.mistake for d in first)
    # with D(1) = 1 - 0.01 (trick - 1) nearly every opportunity is taken as a mistake
    assert sum(d.mistake for d in ones) >= 0.8 * len(ones)


def test_a_game_replays_from_its_seed() -> None:
    a, b = games(0.25, 2, seed=5), games(0.25, 2, seed=5)
    assert [g.to_iss() for g in a] == [g.to_iss() for g in b]


def test_bad_rate_is_refused() -> None:
    with pytest.raises(PlayerSpecError):
        make_player("mistake:rate=1.5")
    with pytest.raises(PlayerSpecError):
        make_player("mistake:rate=abc")


def test_calibrated_rate_hits_the_mean_over_the_shares() -> None:
    from skat.defaults import MISTAKE_TRICK_SHARES
    from skat.players.mistake import calibrated_rate

    total = sum(MISTAKE_TRICK_SHARES)
    for m in (0.03, 0.1, 0.25):
        x = calibrated_rate(m)
        mean = sum(w * mistake_probability(x, t + 1) for t, w in enumerate(MISTAKE_TRICK_SHARES))
        assert mean / total == pytest.approx(m, abs=1e-9) and x > m
    # with even shares over trick 2 only, D(x, 2) = x - 0.01 must be m
    assert calibrated_rate(0.2, (0, 1)) == pytest.approx(0.21)
    assert calibrated_rate(1.0) == 1.0
    plain = make_player("mistake:rate=0.1,calibrated=false,worlds=1")
    tuned = make_player("mistake:rate=0.1,worlds=1")
    assert plain.d_rate == 0.1 and tuned.d_rate == pytest.approx(calibrated_rate(0.1))  # type: ignore[attr-defined]
