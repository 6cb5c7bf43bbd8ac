"""Integer arguments of the core out of their range raise skat.ArgumentError (a SkatError),
never OverflowError, and change nothing; non-integers still raise TypeError. Text with a lone
surrogate, tuples of the wrong length and malformed data raise a SkatError too, never
UnicodeEncodeError or a bare ValueError."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import skat
from skat._core import BiddingTables, Inference, inference_layout
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
    ("ProbCut window beyond i64", lambda: skat.Solver(pcut_window=2**70)),
    ("negative ProbCut window beyond i64", lambda: skat.Solver(pcut_window=-(2**70))),
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


# ----- text, tuples and data ------------------------------------------------------------------

SURROGATE = "\ud800"  # a str that UTF-8 cannot encode (as surrogateescape leaves bad bytes)

TEXT_CALLS: list[tuple[str, Callable[[], Any]]] = [
    ("Card", lambda: skat.Card(SURROGATE)),
    ("Card.parse", lambda: skat.Card.parse("C" + SURROGATE)),
    ("Cards", lambda: skat.Cards("CJ " + SURROGATE)),
    ("Cards.parse", lambda: skat.Cards.parse(SURROGATE)),
    ("a card in a list", lambda: skat.Cards(["CJ", SURROGATE])),
    ("Action", lambda: skat.Action(SURROGATE)),
    ("Contract.parse", lambda: skat.Contract.parse("G" + SURROGATE)),
    ("GameType.parse", lambda: skat.GameType.parse(SURROGATE)),
    ("Deal.parse", lambda: skat.Deal.parse(SURROGATE)),
    ("variants", lambda: skat.Game(skat.Deal.random(1), "kontra " + SURROGATE)),
    ("a record", lambda: skat.Game.from_iss("(;GM[Skat]P0[" + SURROGATE + "];)")),
    ("a position's contract", lambda: skat.Position(_position().hands, SURROGATE, 0, 0)),
    ("legal_cards", lambda: skat.legal_cards(skat.GameType.GRAND, SURROGATE)),
]


@pytest.mark.parametrize(("what", "call"), TEXT_CALLS, ids=[w for w, _ in TEXT_CALLS])
def test_text_with_a_lone_surrogate_is_a_parse_error(what: str, call: Callable[[], Any]) -> None:
    with pytest.raises(skat.ParseError, match="lone surrogate"):
        call()


def test_a_refused_surrogate_action_changes_nothing() -> None:
    game = _game()
    before = game.to_iss()
    with pytest.raises(skat.ParseError):
        game.apply(SURROGATE)
    assert game.to_iss() == before


def test_a_tables_directory_that_is_no_file_name_is_a_tables_error() -> None:
    # PyO3's own path conversion panicked on it (pyo3_runtime.PanicException)
    with pytest.raises(skat.TablesError, match="not a valid file name"):
        skat.Solver(tables=SURROGATE)


DATA_CALLS: list[tuple[str, type[skat.SkatError], Callable[[], Any]]] = [
    ("a deal of two hands", skat.InvalidCardsError, lambda: skat.Deal(("CJ", "SJ"), "")),  # type: ignore[arg-type]
    (
        "a position of four hands",
        skat.InvalidCardsError,
        lambda: skat.Position(("CJ", "SJ", "HJ", "DJ"), "G", 0, 0),  # type: ignore[arg-type]
    ),
    ("bidding model bytes", skat.InvalidCardsError, lambda: BiddingTables({"x": b"\0\0\0"})),
    (
        "lists of different lengths",
        skat.ArgumentError,
        lambda: _tables().win_probabilities([0], [0, 1], [0], [0]),
    ),
    ("inference bytes", skat.InvalidCardsError, lambda: Inference(b"\0\0\0")),
    (
        "no inference candidates",
        skat.ArgumentError,
        lambda: Inference(bytes(4 * _inference_values()), candidates=0),
    ),
    (
        "inference candidates beyond the limit",
        skat.ArgumentError,
        lambda: Inference(bytes(4 * _inference_values()), candidates=2**40),
    ),
]


def _inference_values() -> int:
    layout = inference_layout()
    return int(layout["outcomes"]) * int(layout["feature_values"])


@pytest.mark.parametrize(("what", "error", "call"), DATA_CALLS, ids=[w for w, _, _ in DATA_CALLS])
def test_bad_data_raises_a_skat_error_not_a_bare_value_error(
    what: str, error: type[skat.SkatError], call: Callable[[], Any]
) -> None:
    with pytest.raises(error):
        call()
