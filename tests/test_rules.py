"""One test (at least) for each rule of docs/rules.md, through the Python API.

Valuation arithmetic is also unit-tested in Rust (crates/skat-core/src/result.rs); here the
rules are exercised through whole games: scripted auctions, and real ISS records whose
recorded results are the known answers.
"""

from __future__ import annotations

import pytest

import skat
from skat import Card, Cards, Contract, GameType, Phase
from tests.conftest import iss_files, play

GT = GameType


def test_trick_winners_in_every_game_type() -> None:
    w = skat.trick_winner
    assert w(GT.CLUBS, ["HA", "HT", "HJ"]) == 2  # jack trumps
    assert w(GT.GRAND, ["HA", "HT", "HJ"]) == 2
    assert w(GT.NULL, ["HA", "HT", "HJ"]) == 0  # null: A > J > T? (A highest)
    assert w(GT.NULL, ["HT", "HJ", "H9"]) == 1  # null order A K Q J T 9 8 7
    assert w(GT.HEARTS, ["HK", "HT", "H7"]) == 1  # T above K in suit games
    assert w(GT.NULL, ["HK", "HT", "H7"]) == 0  # K above T in null
    assert w(GT.DIAMONDS, ["HK", "HT", "D7"]) == 2  # trump seven
    assert w(GT.SPADES, ["CA", "SJ", "S7"]) == 1  # jacks above the trump suit
    assert w(GT.SPADES, ["CA", "S7", "SA"]) == 2
    assert w(GT.GRAND, ["DJ", "CJ", "SJ"]) == 1  # CJ > SJ > HJ > DJ
    assert w(GT.GRAND, ["SA", "CA", "HA"]) == 0  # off-suit cards never win
    assert w(GT.CLUBS, ["DJ", "CA", "HJ"]) == 2
    assert w(GT.NULL, ["DJ", "CA", "HJ"]) == 0  # null: jacks are plain cards


def test_following_suit_with_jacks() -> None:
    hand = Cards("CJ C7 HA S9")
    assert skat.legal_cards(GT.HEARTS, hand, "CA") == Cards("C7")  # CJ is a trump, not a club
    assert skat.legal_cards(GT.HEARTS, hand, "DJ") == Cards("CJ HA")  # trump led
    assert skat.legal_cards(GT.NULL, hand, "CA") == Cards("CJ C7")  # null: CJ is a club
    assert skat.legal_cards(GT.GRAND, hand, "SJ") == Cards("CJ")
    assert skat.legal_cards(GT.GRAND, hand, "DA") == hand  # void: any card
    assert skat.legal_cards(GT.CLUBS, hand, None) == hand


def test_the_63_bids() -> None:
    b = skat.bids()
    assert len(b) == 63 and b[0] == 18 and b[-1] == 264 and b == sorted(b)
    assert 19 not in b and 59 in b and 23 in b


def test_contract_implications() -> None:
    go = Contract(GT.GRAND, ouvert=True)
    assert go.hand and go.schneider and go.schwarz and str(go) == "GO"
    assert Contract(GT.CLUBS, hand=True, schwarz=True).schneider
    assert str(Contract(GT.CLUBS, hand=True, schwarz=True)) == "CHZ"
    assert str(Contract(GT.NULL, hand=True, ouvert=True)) == "NOH"
    assert Contract(GT.NULL, ouvert=True).base_value == 46
    assert Contract.parse("NHO") == Contract(GT.NULL, hand=True, ouvert=True)
    with pytest.raises(skat.ContractError):
        Contract(GT.HEARTS, schneider=True)  # announcements need a hand game
    with pytest.raises(skat.ContractError):
        Contract(GT.NULL, hand=True, schneider=True)


def test_all_pass() -> None:
    g = play(skat.Game(skat.Deal.random(1)), "p p p")
    assert g.is_over and g.phase == Phase.OVER
    r = g.result
    assert r is not None and r.passed and r.declarer is None and r.value == 0
    assert r.scores == [0, 0, 0]


def test_forehand_plays_at_18_after_two_passes() -> None:
    g = play(skat.Game(skat.Deal.random(2)), "p p")
    assert g.to_move == 0 and [str(a) for a in g.legal_actions()] == ["18", "p"]
    with pytest.raises(skat.IllegalActionError):
        g.apply("20")
    play(g, "18")
    assert g.declarer == 0 and g.bid == 18 and g.phase == Phase.SKAT


@pytest.mark.parametrize(
    ("tokens", "declarer", "bid"),
    [
        ("18 p p", 1, 18),  # middlehand wins, rearhand passes
        ("18 y p p", 0, 18),  # forehand holds, middlehand gives up, rearhand passes
        ("p 18 p", 2, 18),  # rearhand bids to forehand, forehand passes
        ("18 y 20 p 22 y 23 y p", 1, 23),  # middlehand beats forehand, then holds against rearhand
        ("18 y 20 p 22 y 23 p", 2, 23),  # rearhand outbids middlehand
        ("18 p 20 y 22 p", 2, 22),
    ],
)
def test_auction_survivors(tokens: str, declarer: int, bid: int) -> None:
    g = play(skat.Game(skat.Deal.random(3)), tokens)
    if g.phase == Phase.BIDDING:
        play(g, "p")
    assert (g.declarer, g.bid, g.phase) == (declarer, bid, Phase.SKAT)


def test_bids_must_rise_and_be_legal_values() -> None:
    g = play(skat.Game(skat.Deal.random(4)), "20 y")
    before = g.to_iss()
    for bad in ("18", "20", "21"):
        with pytest.raises(skat.SkatError):
            g.apply(bad)
    assert g.to_iss() == before


def test_null_under_the_bid_is_not_declarable() -> None:
    g = play(skat.Game(skat.Deal.random(5)), "24 p p")
    hand_decls = {str(a) for a in g.legal_actions() if a.kind == "declare"}
    assert "NH" in hand_decls and "NOH" in hand_decls
    play(g, "s")
    play(g, str(g.legal_actions()[0]))  # some discard
    decls = {str(a) for a in g.legal_actions()}
    assert "N" not in decls and "NO" in decls and "G" in decls
    with pytest.raises(skat.IllegalActionError, match="declare"):
        g.apply("N")
    g = play(skat.Game(skat.Deal.random(5)), "36 p p")
    assert "NH" not in {str(a) for a in g.legal_actions()}
    with pytest.raises(skat.IllegalActionError):
        g.apply("NH")


def test_announcements_only_in_hand_games() -> None:
    g = play(skat.Game(skat.Deal.random(6)), "18 p p s")
    play(g, str(g.legal_actions()[0]))
    assert {str(a) for a in g.legal_actions()} == {"D", "H", "S", "C", "G", "N", "NO"}
    with pytest.raises(skat.IllegalActionError):
        g.apply("GHS")


def _resign_at_once(deal: skat.Deal, declaration: str) -> skat.GameResult:
    g = play(skat.Game(deal), f"18 p p {declaration}")
    g.apply("RE", seat=1)
    assert g.result is not None
    return g.result


def test_matadors_count_the_skat() -> None:
    # middlehand holds SJ HJ, the skat holds CJ: with 3 (CJ SJ HJ) in clubs hand
    deal = skat.Deal(
        (
            "DJ CA CT CK CQ C9 C8 C7 SA ST",
            "SJ HJ SK SQ S9 S8 S7 HA HT HK",
            "HQ H9 H8 H7 DA DT DK DQ D9 D8",
        ),
        "CJ D7",
    )
    r = _resign_at_once(deal, "CH")
    assert r.matadors == 3
    # without: the skat's CJ missing from forehand's view does not matter, matadors are
    # counted over the declarer's twelve cards: middlehand without CJ would be "without 1"
    deal2 = skat.Deal(
        (deal.hands[0] - Cards("DJ") | Cards("CJ"), deal.hands[1], deal.hands[2]), "DJ D7"
    )
    r2 = _resign_at_once(deal2, "CH")
    assert r2.matadors == -1


def test_declarer_resigning_loses_with_schneider_and_schwarz_against_her() -> None:
    deal = skat.Deal.random(8)
    r = _resign_at_once(deal, "GH")
    # grand hand, declarer took nothing: schneider and schwarz reached against her
    mats = abs(r.matadors)
    assert not r.won and r.schneider and r.schwarz and r.declarer_tricks == 0
    assert r.value == -2 * 24 * (mats + 1 + 1 + 1 + 1)
    assert r.scores[1] == r.value - 50 and r.scores[0] == r.scores[2] == 40


def _record(record_id: str) -> skat.Game:
    for f in iss_files():
        for line in f.read_text().splitlines():
            if f"ID[{record_id}]" in line:
                return skat.Game.from_iss(line)
    raise AssertionError(f"record {record_id} not found")


@pytest.mark.parametrize(
    ("record_id", "contract", "value", "what"),
    [
        ("9", "CH", -96, "clubs hand lost: with 2, game, hand = 4 x 12, doubled"),
        ("26496", "CHZ", 108, "clubs hand schwarz announced with 3 = 9 x 12"),
        ("727", "GO", 192, "grand ouvert with 1 = 8 x 24"),
        ("13577", "CO", -192, "clubs ouvert lost after the first trick, play stops"),
        ("25", "NOH", -118, "null ouvert hand lost: 2 x 59"),
        ("1390253", "NO", 46, "null ouvert after pick-up, defenders resign"),
        ("105991", "N", 23, "null won"),
        ("596891", "D", -72, "overbid: charged the smallest multiple of 9 reaching the bid"),
        ("10327743", "G", -144, "grand lost, declarer schneidered (12 points): schneider counts"),
        ("18358", "G", 96, "grand won schwarz after a defender left: schwarz by tricks"),
        ("105984", "C", -72, "declarer timed out: the rest goes to the defenders"),
    ],
)
def test_known_results_from_real_records(
    record_id: str, contract: str, value: int, what: str
) -> None:
    g = _record(record_id)
    assert g.result is not None and g.contract is not None
    assert str(g.contract) == contract, what
    assert g.result.value == value, what
    assert g.check_record() == [], what


def test_overbid_record_details() -> None:
    g = _record("596891")
    r = g.result
    assert r is not None and r.overbid and not r.won
    assert r.value == -2 * 36 and r.bid > 27


def test_schneider_by_points_not_tricks_and_schwarz_by_tricks() -> None:
    r = _record("10327743").result
    assert r is not None and r.schneider and not r.schwarz and r.declarer_tricks == 1
    r = _record("18358").result
    assert r is not None and r.schwarz and r.declarer_tricks == 10


def test_schwarz_announced_and_lost_in_the_last_trick_is_played_to_the_end() -> None:
    # clubs ouvert: the defenders take only the tenth trick, so play was not stopped early
    # and schneider (the defenders end with 11 card points) is reached
    g = skat.Game.from_iss(
        "(;GM[Skat]PC[skat]P0[0]P1[1]P2[2]MV[w CA.CK.CJ.CT.C9.SK.HK.HJ.DT.D7.CQ.C7.SA.ST.S9.S8"
        ".S7.H9.DK.DJ.C8.SQ.HA.HT.H8.H7.DA.DQ.D9.D8.SJ.HQ 1 p 2 p 0 18 0 CO 0 CK 1 CQ 2 C8 0 HJ"
        " 1 DJ 2 SQ 0 SK 1 S7 2 DA 0 CA 1 C7 2 HT 0 CJ 1 S9 2 H8 0 DT 1 DK 2 D8 0 CT 1 S8 2 HA"
        " 0 HK 1 H9 2 H7 0 C9 1 ST 2 DQ 0 D7 1 SA 2 D9 ] ;)"
    )
    r = g.result
    assert r is not None and len(g.tricks) == 10
    assert not r.won and r.declarer_tricks == 9 and r.declarer_points == 109
    assert r.schneider and not r.schwarz
    # with 3, game, hand, schneider, schneider announced, schwarz, schwarz announced, ouvert
    assert r.value == -2 * 12 * (3 + 1 + 6)


def test_card_points_in_results_include_the_skat() -> None:
    g = _record("105991")  # null, discards HA CA: 22 points, no trick
    assert g.result is not None and g.result.declarer_points == 22 and g.result.declarer_tricks == 0
    assert Card("HA") in g.skat and Card("CA") in g.skat
