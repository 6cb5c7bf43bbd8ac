"""The game state machine through the Python API: phases, actions, views, errors."""

from __future__ import annotations

import copy

import pytest

import skat
from skat import Action, Card, Cards, Phase
from tests.conftest import play


def declared_game(seed: int = 11, declaration: str = "G") -> skat.Game:
    g = play(skat.Game(skat.Deal.random(seed)), "18 p p s")
    g.apply(g.legal_actions()[0])
    g.apply(declaration)
    return g


def test_phases_in_order() -> None:
    g = skat.Game(skat.Deal.random(1))
    seen = [g.phase]
    for t in ["18", "p", "p", "s"]:
        g.apply(t)
        seen.append(g.phase)
    g.apply(g.legal_actions()[0])
    seen.append(g.phase)
    g.apply("C")
    seen.append(g.phase)
    assert seen == [
        Phase.BIDDING,
        Phase.BIDDING,
        Phase.BIDDING,
        Phase.SKAT,
        Phase.DISCARD,
        Phase.DECLARE,
        Phase.PLAY,
    ]
    assert g.to_move == 0 and g.leader == 0 and len(g.legal_actions()) == 10


def test_pick_up_puts_the_skat_in_hand_and_discard_counts() -> None:
    deal = skat.Deal.random(2)
    g = play(skat.Game(deal), "18 p p s")
    assert len(g.hands[1]) == 12 and deal.skat.issubset(g.hands[1])
    assert len(g.legal_actions()) == 66
    discard = Cards(list(deal.hands[1])[:2])
    g.apply(Action(".".join(str(c) for c in discard)))
    assert g.skat == discard and len(g.hands[1]) == 10
    g.apply("H")
    assert g.declarer_points == discard.points


def test_combined_discard_and_declaration_token() -> None:
    deal = skat.Deal.random(3)
    g = play(skat.Game(deal), "18 p p s")
    d = list(deal.skat)
    g.apply(f"D.{d[0]}.{d[1]}")
    assert g.phase == Phase.PLAY and str(g.contract) == "D" and g.skat == deal.skat
    assert " 1 D." in g.to_iss()


def test_card_play_and_trick_winner() -> None:
    g = declared_game()
    lead = g.legal_actions()[0]
    g.apply(lead)
    assert g.trick == [lead.card] and g.to_move == 1
    g.apply(g.legal_actions()[0])
    g.apply(g.legal_actions()[0])
    assert len(g.tricks) == 1 and g.trick == []
    leader, cards, winner = g.tricks[0]
    assert leader == 0 and len(cards) == 3 and g.to_move == winner == g.leader
    assert skat.trick_winner(skat.GameType.GRAND, cards) == (winner - leader) % 3


def test_illegal_actions_change_nothing_and_say_why() -> None:
    g = skat.Game(skat.Deal.random(4))
    before = g.to_iss()
    with pytest.raises(skat.IllegalActionError) as e:
        g.apply("CJ")  # a card in the auction
    msg = str(e.value)
    assert "CJ" in msg and "bidding" in msg and "18" in msg
    with pytest.raises(skat.IllegalActionError):
        g.apply("y")  # nothing to hold yet
    with pytest.raises(skat.IllegalActionError):
        g.apply("RE", seat=2)  # resigning belongs to card play
    with pytest.raises(skat.ParseError):
        g.apply("xyz")
    with pytest.raises(TypeError):
        g.apply(3.5)  # type: ignore[arg-type]
    assert g.to_iss() == before and g.phase == Phase.BIDDING and g.to_move == 1


def test_out_of_turn_and_not_following_suit() -> None:
    g = declared_game(5)
    hand0 = g.hands[0]
    lead = g.legal_actions()[0].card
    assert lead is not None
    g.apply(lead)
    hand1 = g.hands[1]
    legal = g.legal_cards()
    illegal = hand1 - legal
    before = g.to_iss()
    for c in illegal:
        with pytest.raises(skat.IllegalActionError, match="play"):
            g.apply(c)
    other = next(iter(hand0 - Cards([lead])))
    with pytest.raises(skat.IllegalActionError):
        g.apply(other)  # forehand's card while middlehand is to move
    assert g.to_iss() == before


def test_actions_compare_with_tokens() -> None:
    a = Action.parse("D.ST.H8")
    assert a == "D.ST.H8" and str(a) == "D.ST.H8" and a.kind == "declare"
    assert a.cards == Cards("ST H8") and a.contract == skat.Contract(skat.GameType.DIAMONDS)
    assert Action("18").bid == 18 and Action("CJ").card == Card("CJ")
    assert hash(Action("p")) == hash("p") and {Action("p"): 1}.get("p") == 1  # type: ignore[call-overload]
    assert Action("TI.2").seat == 2 and Action("RE").kind == "resign"
    with pytest.raises(skat.ParseError):
        Action("19")


def test_deal_validation() -> None:
    d = skat.Deal.random(6)
    assert skat.Deal.parse(d.to_iss()) == d
    with pytest.raises(skat.InvalidCardsError, match="twice"):
        skat.Deal((d.hands[0], d.hands[0], d.hands[2]), d.skat)
    with pytest.raises(skat.InvalidCardsError, match="10"):
        skat.Deal((d.hands[0] | d.skat, d.hands[1], d.hands[2]), "")
    with pytest.raises(skat.SkatError):
        skat.Deal.parse("CJ.SJ")


def test_views_hide_other_hands_and_the_skat() -> None:
    deal = skat.Deal.random(7)
    g = play(skat.Game(deal), "18 p p")
    for seat in range(3):
        v = g.view(seat)
        assert v.hand == deal.hands[seat] and v.skat is None
        assert v.legal_actions() == (g.legal_actions() if seat == 1 else [])
    play(g, "s")
    assert g.view(1).skat == deal.skat and g.view(0).skat is None
    discard = g.legal_actions()[5]
    g.apply(discard)
    g.apply("S")
    for seat in (0, 2):
        v = g.view(seat)
        assert v.discard is None and all(a.kind != "discard" for _, a in v.history)
        assert v.declarer_points is None
    assert g.view(1).discard == discard.cards
    assert g.view(1).contract == skat.Contract(skat.GameType.SPADES)


def test_ouvert_declarer_hand_is_public() -> None:
    g = play(skat.Game(skat.Deal.random(9)), "18 p p")
    g.apply("GO")
    assert g.view(0).open_hand == g.hands[1] and g.view(2).open_hand == g.hands[1]


def test_copy_is_independent() -> None:
    g = declared_game(10)
    h = g.copy()
    h.apply(h.legal_actions()[0])
    assert len(h.trick) == 1 and g.trick == []
    assert copy.deepcopy(g).to_iss() == g.to_iss()


def test_claim_and_concessions() -> None:
    g = declared_game(12)
    g.apply("SC", seat=1)
    assert not g.is_over
    g.apply("RE", seat=0)
    assert not g.is_over
    g.apply("RE", seat=2)
    r = g.result
    assert (
        r is not None
        and r.end == "conceded"
        and r.declarer_tricks == 10
        and r.declarer_points == 120
    )
    with pytest.raises(skat.IllegalActionError, match="over"):
        g.apply("RE", seat=1)
    g = declared_game(12)
    with pytest.raises(skat.IllegalActionError, match="declarer"):
        g.apply("SC", seat=0)


def test_null_stops_when_the_declarer_takes_a_trick() -> None:
    for seed in range(40):
        g = play(skat.Game(skat.Deal.random(seed)), "18 p p")
        g.apply("NH")
        while not g.is_over:
            g.apply(g.legal_actions()[-1])
        r = g.result
        assert r is not None
        assert r.won == (r.declarer_tricks == 0)
        if not r.won:
            assert r.declarer_tricks == 1 and r.value == -70
            last = g.tricks[-1]
            assert last[2] == 1
