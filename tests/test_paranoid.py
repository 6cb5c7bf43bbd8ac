"""Paranoid search from the declarer's view: never above the open-handed value of the true
deal, its null-window test agrees with its value, and it refuses views it cannot use (the
Rust tests check it exactly against a brute force over all consistent worlds)."""

from __future__ import annotations

import pytest

import skat
from skat import Position
from tests.test_pimc import declared_game


def test_paranoid_is_at_most_the_open_handed_value_and_agrees_with_its_test() -> None:
    checked = 0
    for seed in range(40):
        g = declared_game(seed, cards=21)
        if g.is_over or g.declarer is None or g.contract is None:
            continue
        # advance to the declarer's turn
        while g.to_move != g.declarer and not g.is_over:
            seat = g.to_move
            assert seat is not None
            g.apply(next(iter(g.legal_cards())))
        if g.is_over:
            continue
        view = g.view(g.declarer)
        v = skat.paranoid(view)
        assert skat.paranoid_wins(view, v) and not skat.paranoid_wins(view, v + 1)
        exact = skat.solve(Position.from_game(g))
        if g.contract.game_type == skat.GameType.NULL:
            assert v in (0, 1)
            assert v == 0 or exact == 0  # a sure null win is an open-handed win
        else:
            assert g.declarer_points <= v <= exact
        checked += 1
    assert checked >= 10


def test_views_it_cannot_use_raise() -> None:
    g = declared_game(1, cards=3)
    assert g.declarer is not None
    other = (g.declarer + 1) % 3
    with pytest.raises(skat.SkatError):
        skat.paranoid(g.view(other))


def test_the_move_filter_keeps_a_guaranteed_win_whatever_the_defenders_play() -> None:
    import random

    from skat.players import make_player
    from skat.players.pimc import paranoid_filter, paranoid_target

    guaranteed = 0
    for seed in range(60):
        g = declared_game(seed, cards=12)
        if g.is_over or g.declarer is None or g.contract is None or g.contract.hand:
            continue
        rng = random.Random(seed)
        declarer = make_player("pimc:worlds=2,points=false,threads=1,paranoid=10")
        declarer.new_game(seat=g.declarer, seed=seed)  # type: ignore[attr-defined]
        held = False
        while not g.is_over:
            seat = g.to_move
            assert seat is not None
            view = g.view(seat)
            if seat != g.declarer:
                g.apply(rng.choice(sorted(g.legal_cards())))  # any defence at all
                continue
            keep = skat.paranoid_keeping_cards(view, paranoid_target(view))
            held = held or keep is not None
            if held:
                assert keep is not None  # a guarantee, once there, is never given up
            action = declarer.act(view)
            assert isinstance(action, skat.Action) and action.card is not None
            if keep is not None:
                assert action.card in keep
                if len(view.legal_actions()) > 1:
                    decision = declarer.last_decision  # type: ignore[attr-defined]
                    assert action.card == paranoid_filter(view, decision)
            g.apply(action)
        if held:
            guaranteed += 1
            assert g.result is not None and g.result.won, seed
    assert guaranteed >= 5
