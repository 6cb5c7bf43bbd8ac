"""Invariants over random games (hypothesis): checked at every state of every game, in the
spirit of OpenSpiel's shared randomised game test."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import skat
from skat import Cards
from tests.policies import sensible_random_action

seeds = st.integers(min_value=0, max_value=2**63 - 1)


def check_state(g: skat.Game) -> None:
    hands = g.hands
    in_tricks = Cards([c for _, cards, _ in g.tricks for c in cards])
    in_trick = Cards(g.trick)
    parts = [*hands, in_tricks, in_trick, g.skat]
    total = Cards()
    for p in parts:
        assert total.isdisjoint(p)
        total = total | p
    assert total == Cards.all()
    if not g.is_over:
        assert g.legal_actions(), g.to_iss()
        assert g.to_move in (0, 1, 2)
    for seat in range(3):
        v = g.view(seat)
        assert v.hand == hands[seat]
        visible = v.hand | Cards(v.played)
        if v.skat is not None:
            assert seat == g.declarer and g.picked_up
            visible = visible | v.skat
        if v.open_hand is not None:
            assert g.contract is not None and g.contract.ouvert
            visible = visible | v.open_hand
        # everything a view shows is the seat's own, public, or legitimately revealed
        others = Cards([c for s in range(3) if s != seat for c in hands[s]])
        leaked = (v.hand | (v.skat or Cards()) | (v.discard or Cards())) & others
        assert not leaked
        if v.open_hand is None:
            assert not (visible & others)
        if seat != g.declarer and not g.is_over:
            assert v.discard is None and v.declarer_points is None


def play_and_check(seed: int, uniform: bool) -> skat.Game:
    rng = random.Random(seed)
    g = skat.Game(skat.Deal.random(seed))
    check_state(g)
    while not g.is_over:
        a = rng.choice(g.legal_actions()) if uniform else sensible_random_action(g, rng)
        g.apply(a)
        check_state(g)
    return g


@settings(max_examples=150, deadline=None)
@given(seed=seeds, uniform=st.booleans())
def test_every_state_is_consistent(seed: int, uniform: bool) -> None:
    play_and_check(seed, uniform)


@settings(max_examples=300, deadline=None)
@given(seed=seeds, uniform=st.booleans())
def test_points_add_up_to_120(seed: int, uniform: bool) -> None:
    g = play_and_check(seed, uniform)
    r = g.result
    assert r is not None
    if r.passed:
        return
    d = g.declarer
    assert d is not None
    won_by_declarer = sum(sum(c.points for c in cards) for _, cards, w in g.tricks if w == d)
    won_by_defenders = sum(sum(c.points for c in cards) for _, cards, w in g.tricks if w != d)
    in_hands = sum(h.points for h in g.hands) + sum(c.points for c in g.trick)
    assert r.declarer_points == g.skat.points + won_by_declarer
    assert r.declarer_points + won_by_defenders + in_hands == 120
    if len(g.tricks) == 10:
        assert in_hands == 0 and r.declarer_points + won_by_defenders == 120


@settings(max_examples=200, deadline=None)
@given(seed=seeds, uniform=st.booleans(), stop=st.integers(min_value=0, max_value=45))
def test_record_round_trip(seed: int, uniform: bool, stop: int) -> None:
    rng = random.Random(seed)
    g = skat.Game(skat.Deal.random(seed))
    for _ in range(stop):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()) if uniform else sensible_random_action(g, rng))
    line = g.to_iss()
    h = skat.Game.from_iss(line)
    assert h.history == g.history
    assert h.result == g.result and h.phase == g.phase and h.to_move == g.to_move
    assert h.hands == g.hands and h.to_iss() == line
    if not g.is_over:
        assert h.legal_actions() == g.legal_actions()


@settings(max_examples=100, deadline=None)
@given(seed=seeds)
def test_uniform_random_game_in_rust_is_reproducible(seed: int) -> None:
    a = skat.random_game(seed)
    b = skat.random_game(seed)
    assert a.to_iss() == b.to_iss()
    assert a.result is not None and a.is_over
