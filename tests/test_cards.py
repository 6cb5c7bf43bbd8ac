"""Cards, card sets, suits, ranks, game types: the value types of the API."""

from __future__ import annotations

import pickle

import pytest

import skat
from skat import Card, Cards, GameType, Rank, Suit


def test_card_parse_str_and_attributes() -> None:
    c = Card.parse("CJ")
    assert str(c) == "CJ"
    assert repr(c) == 'Card("CJ")'
    assert c.suit == Suit.CLUBS and c.rank == Rank.JACK and c.points == 2
    assert Card("HA").points == 11 and Card("DT").points == 10 and Card("S7").points == 0
    assert Card("CJ") == Card.parse("CJ") and hash(Card("CJ")) == hash(Card.parse("CJ"))
    assert len(Card.all()) == 32 and sum(c.points for c in Card.all()) == 120
    assert pickle.loads(pickle.dumps(c)) == c


@pytest.mark.parametrize("bad", ["", "C", "CJJ", "XJ", "C1", "cj", "10H"])
def test_unknown_cards_raise_parse_error(bad: str) -> None:
    with pytest.raises(skat.ParseError, match="card"):
        Card.parse(bad)
    assert issubclass(skat.ParseError, skat.SkatError)
    assert issubclass(skat.SkatError, ValueError)


def test_cards_set_operations() -> None:
    a = Cards.parse("CJ SJ HA")
    b = Cards("HA D7")
    assert len(a) == 3 and "CJ" in a and Card("SJ") in a and "D7" not in a
    assert a | b == Cards("CJ SJ HA D7")
    assert a & b == Cards("HA")
    assert a - b == Cards("CJ SJ")
    assert a ^ b == Cards("CJ SJ D7")
    assert list(a) == [Card("CJ"), Card("SJ"), Card("HA")]
    assert str(a) == "CJ SJ HA" and repr(a) == 'Cards("CJ SJ HA")'
    assert eval(repr(a), {"Cards": Cards}) == a
    assert Cards() == Cards([]) and not Cards()
    assert Cards(["CJ", Card("SJ")]) == Cards("SJ CJ")
    assert Cards.all().points == 120 and len(Cards.all()) == 32
    assert a.issubset(a | b) and a.isdisjoint("D7 D8")
    assert hash(a) == hash(Cards("HA SJ CJ"))
    assert pickle.loads(pickle.dumps(a)) == a


def test_cards_iteration_order_is_fixed() -> None:
    shuffled = Cards("D7 CA HJ ST C7 HA")
    assert [str(c) for c in shuffled] == ["CA", "C7", "ST", "HA", "HJ", "D7"]


def test_duplicate_cards_are_rejected() -> None:
    with pytest.raises(skat.InvalidCardsError, match="twice"):
        Cards.parse("CJ SJ CJ")
    with pytest.raises(skat.InvalidCardsError):
        Cards(["CJ", "CJ"])
    with pytest.raises(TypeError):
        Cards(5)  # type: ignore[arg-type]


def test_sorted_for_a_game_type() -> None:
    hand = Cards("HA HJ CT C7 D7 SJ")
    assert [str(c) for c in hand.sorted(GameType.HEARTS)] == ["SJ", "HJ", "HA", "CT", "C7", "D7"]
    assert [str(c) for c in hand.sorted(GameType.NULL)] == ["CT", "C7", "SJ", "HA", "HJ", "D7"]


def test_game_types() -> None:
    assert GameType.GRAND.base_value == 24 and GameType.CLUBS.base_value == 12
    assert GameType.parse("N") == GameType.NULL
    assert len(GameType.CLUBS.trumps()) == 11 and len(GameType.GRAND.trumps()) == 4
    assert len(GameType.NULL.trumps()) == 0
    with pytest.raises(skat.ParseError):
        GameType.parse("X")
