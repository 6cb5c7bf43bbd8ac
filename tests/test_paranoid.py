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
