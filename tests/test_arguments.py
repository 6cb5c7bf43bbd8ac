"""Integer arguments of the core out of their range raise skat.ArgumentError (a SkatError),
never OverflowError, and change nothing; non-integers still raise TypeError."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import skat
from skat.bidding import default_model


def _game() -> skat.Game:
    return skat.Game(skat.Deal.random(seed=3))


def _tables() -> Any:
    return default_model().tables


def _hand() -> skat.Cards:
    return skat.Deal.random(seed=5).hands[0]


def _position() -> skat.Position:
    deal = skat.Deal.random(seed=4)
    return skat.Position(deal.hands, "G", declarer=0, leader=0)


CALLS: list[tuple[str, Callable[[], Any]]] = [
    ("negative seed", lambda: skat.Deal.random(-1)),
    ("seed beyond 64 bits", lambda: skat.Deal.random(2**64)),
    ("huge seed", lambda: skat.Deal.random(2**200)),
    ("negative seat", lambda: _game().view(-1)),
    ("seat beyond u8", lambda: _game().view(300)),
    ("negative card index", lambda: skat.Card.from_index(-1)),
    ("negative table size", lambda: skat.Solver(tt_mb=-1)),
    ("negative worlds", lambda: skat.Pimc(worlds=-1)),
    ("negative declarer", lambda: skat.Position(skat.Deal.random(4).hands, "G", -1, 0)),
    ("negative card points", lambda: skat.Position(skat.Deal.random(4).hands, "G", 0, 0, (), -5)),
    ("target beyond i32", lambda: skat.reaches(_position(), 2**40)),
    ("negative sample count", lambda: skat.sample_worlds(_game().view(0), -1, seed=1)),
    ("negative bid", lambda: skat.Contract.parse("G").overbid_value(-18)),
    ("matadors beyond i32", lambda: skat.Contract.parse("G").value(2**33)),
    ("negative bid in a list", lambda: _tables().evaluate(_hand(), 0, [18, -1])),
    (
        "negative kind in a list",
        lambda: default_model().tables.win_probabilities([0], [0], [-1], [0]),
    ),
    ("more than 11 matadors", lambda: skat.Contract.parse("G").value(12)),
    ("without more than 11", lambda: skat.Contract.parse("C").value(-12)),
]


@pytest.mark.parametrize(("what", "call"), CALLS, ids=[w for w, _ in CALLS])
def test_out_of_range_integers_raise_argument_error(what: str, call: Callable[[], Any]) -> None:
    with pytest.raises(skat.ArgumentError, match="is not an integer in"):
        call()


def test_argument_error_is_a_skat_error_and_a_value_error() -> None:
    assert issubclass(skat.ArgumentError, skat.SkatError)
    assert issubclass(skat.ArgumentError, ValueError)


def test_a_refused_seat_changes_nothing() -> None:
    game = _game()
    before = game.to_iss()
    with pytest.raises(skat.ArgumentError):
        game.apply("18", seat=-1)
    assert game.to_iss() == before
    game.apply("18", seat=None)  # None still means "whoever is to move"
    assert game.to_iss() != before


def test_non_integers_still_raise_type_error() -> None:
    with pytest.raises(TypeError):
        skat.Deal.random(1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        _game().view("0")  # type: ignore[arg-type]


def test_integer_like_values_are_accepted() -> None:
    np = pytest.importorskip("numpy")
    assert skat.Deal.random(np.int64(3)) == skat.Deal.random(3)
    assert skat.Deal.random(True) == skat.Deal.random(1)
