"""Hand-computed known answers that check the pure-Python reference itself."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests import reference as ref

ISS_SAMPLE = Path(__file__).resolve().parent / "data" / "iss" / "iss-sample.sgf"


def twelve(*cards: str) -> list[str]:
    """Pad ``cards`` to 12 distinct cards with low cards that are no trumps in D/H/S/C/G."""
    fillers = ["C7", "C8", "C9", "S7", "S8", "S9", "H7", "H8", "H9", "CA", "SA", "HA"]
    result = list(cards)
    for card in fillers:
        if len(result) == 12:
            break
        if card not in result:
            result.append(card)
    assert len(result) == 12
    return result


# -- cards ------------------------------------------------------------------


def test_deck_and_points() -> None:
    assert len(ref.ALL_CARDS) == 32 and len(set(ref.ALL_CARDS)) == 32
    assert sum(ref.points(c) for c in ref.ALL_CARDS) == 120
    assert [ref.points(c) for c in ["CA", "ST", "HK", "DQ", "CJ", "S9", "H8", "D7"]] == [
        11, 10, 4, 3, 2, 0, 0, 0,
    ]  # fmt: skip


def test_legal_bids_are_the_reachable_values() -> None:
    values: set[int] = set()
    for base in (9, 10, 11, 12):
        values |= {base * m for m in range(2, 19)}  # with/without 1..11, up to 6 extras + game
    values |= {24 * m for m in range(2, 12)}  # grand: at most 4 matadors
    values |= {23, 35, 46, 59}
    assert sorted(v for v in values if 18 <= v <= 264) == ref.LEGAL_BIDS
    assert len(ref.LEGAL_BIDS) == 63


# -- tricks -----------------------------------------------------------------


def test_trick_winners_suit_games() -> None:
    assert ref.trick_winner("D", ["DA", "CJ", "D7"]) == 1  # jack is trump
    assert ref.trick_winner("H", ["HA", "DJ", "HT"]) == 1  # any jack beats the trump ace
    assert ref.trick_winner("S", ["SJ", "CJ", "HJ"]) == 1  # CJ > SJ > HJ
    assert ref.trick_winner("C", ["HK", "HT", "H9"]) == 1  # T above K
    assert ref.trick_winner("C", ["HK", "HT", "HA"]) == 2
    assert ref.trick_winner("C", ["HA", "C7", "HT"]) == 1  # lowest trump beats the led ace
    assert ref.trick_winner("D", ["S7", "HA", "CA"]) == 0  # off-suit cards never win
    assert ref.trick_winner("H", ["DJ", "H7", "HA"]) == 0  # DJ above the trump ace


def test_trick_winners_grand() -> None:
    assert ref.trick_winner("G", ["SA", "DJ", "ST"]) == 1
    assert ref.trick_winner("G", ["DJ", "HJ", "CA"]) == 1
    assert ref.trick_winner("G", ["CK", "CT", "CA"]) == 2
    assert ref.trick_winner("G", ["CK", "CT", "C9"]) == 1
    assert ref.trick_winner("G", ["C7", "HA", "SA"]) == 0


def test_trick_winners_null() -> None:
    assert ref.trick_winner("N", ["HK", "HT", "H9"]) == 0  # K above T in null
    assert ref.trick_winner("N", ["HT", "HJ", "H9"]) == 1  # J above T, jacks are plain cards
    assert ref.trick_winner("N", ["HJ", "CJ", "HQ"]) == 2  # CJ is a club, not a trump
    assert ref.trick_winner("N", ["D7", "DA", "D8"]) == 1


def test_follow_suit() -> None:
    assert ref.follow_suit_of("G", "CJ") == "T"
    assert ref.follow_suit_of("N", "CJ") == "C"
    assert ref.follow_suit_of("H", "H7") == "T"
    assert ref.follow_suit_of("H", "D7") == "D"
    assert ref.legal_plays("G", ["CJ", "C7", "HA"], ["CA"]) == ["C7"]
    assert ref.legal_plays("G", ["CJ", "HA"], ["CA"]) == ["CJ", "HA"]
    assert ref.legal_plays("N", ["CJ", "HA"], ["CA"]) == ["CJ"]
    assert ref.legal_plays("S", ["SA", "HJ", "C7"], ["CJ"]) == ["SA", "HJ"]
    assert ref.legal_plays("S", ["SA", "HJ", "C7"], []) == ["SA", "HJ", "C7"]


# -- game value -------------------------------------------------------------


def test_matadors() -> None:
    assert ref.matadors("D", twelve("CJ")) == 1
    assert ref.matadors("D", twelve("SJ")) == -1
    assert ref.matadors("C", twelve("CJ", "SJ", "HJ")) == 3
    assert ref.matadors("H", twelve("DJ", "HA")) == -3
    assert ref.matadors("G", [*ref.JACKS, "DA", "DT", "DK", "DQ", "D9", "D8", "D7", "HA"]) == 4
    all_clubs = [*ref.JACKS, "CA", "CT", "CK", "CQ", "C9", "C8", "C7", "HA"]
    assert ref.matadors("C", all_clubs) == 11
    assert ref.matadors("D", all_clubs) == 4
    assert ref.matadors("N", all_clubs) == 0


def test_checked_example_overbid() -> None:
    # Bid 36, diamonds with 1, game 2 = 18: overbid, charged 36, scores -72.
    res = ref.game_value("D", False, False, False, False, 36, twelve("CJ"), 70, 6, 4)
    assert res["won"] is False
    assert res["overbid"] is True
    assert res["value"] == -72
    assert res["matadors"] == 1
    assert res["scores"] == (-122, 40, 40)


def test_checked_example_grand_ouvert() -> None:
    res = ref.game_value("G", False, False, False, True, 18, twelve("CJ"), 120, 10, 0)
    assert res["won"] is True and res["value"] == 192
    assert res["schneider"] is True and res["schwarz"] is True
    assert res["scores"] == (242, 0, 0)


def test_checked_example_clubs_hand_schwarz() -> None:
    res = ref.game_value("C", True, False, True, False, 18, twelve("CJ", "SJ", "HJ"), 120, 10, 0)
    assert res["won"] is True and res["value"] == 108 and res["matadors"] == 3


def test_game_value_plain_cases() -> None:
    # Diamonds with 2, schneider reached: (2 + 1 + 1) * 9 = 36.
    res = ref.game_value("D", False, False, False, False, 18, twelve("CJ", "SJ"), 95, 8, 2)
    assert (res["won"], res["value"], res["schneider"], res["schwarz"]) == (True, 36, True, False)
    # Grand without 2, lost with 60: (2 + 1) * 24 = 72, minus twice.
    res = ref.game_value("G", False, False, False, False, 18, twelve("HJ"), 60, 5, 5)
    assert (res["won"], res["value"], res["matadors"]) == (False, -144, -2)
    assert res["scores"] == (-194, 40, 40)
    # Defenders schneidered the declarer: spades with 1, 25 points: (1+1+1) * 11 = 33, lost.
    res = ref.game_value("S", False, False, False, False, 18, twelve("CJ"), 25, 2, 8)
    assert (res["won"], res["value"], res["schneider"]) == (False, -66, True)
    # Schneider announced but only 85 points: lost, (1+1+1+1+1) * 12 = 60.
    res = ref.game_value("C", True, True, False, False, 18, twelve("CJ"), 85, 7, 3)
    assert (res["won"], res["value"], res["schneider"]) == (False, -120, False)


def test_game_value_stopped_early() -> None:
    # Clubs ouvert with 1 lost in the first trick: reached levels not counted, announced ones are.
    cards = twelve("CJ")
    res = ref.game_value("C", False, False, False, True, 18, cards, 13, 0, 1, stopped_early=True)
    assert (res["won"], res["value"]) == (False, -192)
    assert (res["schneider"], res["schwarz"]) == (False, False)


def test_null_values() -> None:
    cards = twelve()
    assert ref.game_value("N", False, False, False, False, 18, cards, 0, 0, 10)["value"] == 23
    assert ref.game_value("N", True, False, False, False, 18, cards, 0, 0, 10)["value"] == 35
    assert ref.game_value("N", False, False, False, True, 18, cards, 0, 0, 10)["value"] == 46
    res = ref.game_value("N", True, False, False, True, 18, cards, 10, 1, 0, stopped_early=True)
    assert (res["won"], res["value"], res["matadors"], res["schneider"]) == (False, -118, 0, False)
    with pytest.raises(ValueError):
        ref.game_value("N", False, False, False, False, 24, cards, 0, 0, 10)


# -- the referee ----------------------------------------------------------------


def play_first_legal(game: ref.RefGame, count: int) -> None:
    """Apply the first legal token ``count`` times."""
    for _ in range(count):
        game.apply(game.legal_tokens()[0])


def test_all_pass() -> None:
    game = ref.RefGame(ref.ALL_CARDS)
    assert game.to_move == 1
    game.apply("p")
    assert game.to_move == 2
    game.apply("p")
    assert game.to_move == 0 and game.legal_tokens() == ["18", "p"]
    game.apply("p")
    assert game.is_over and game.result == {"passed": True} and game.to_move is None


def test_forehand_plays_at_18() -> None:
    game = ref.RefGame(ref.ALL_CARDS)
    for token in ["p", "p", "18"]:
        game.apply(token)
    assert game.phase == "skat" and game.declarer == 0 and game.bid == 18
    assert game.legal_tokens()[0] == "s"
    assert "NH" in game.legal_tokens() and "GO" in game.legal_tokens()


def test_auction_sequence() -> None:
    game = ref.RefGame(ref.ALL_CARDS)
    assert game.legal_tokens()[:3] == ["18", "20", "22"] and game.legal_tokens()[-1] == "p"
    for seat, token in [(1, "18"), (0, "y"), (1, "20"), (0, "p"), (2, "22"), (1, "y"), (2, "p")]:
        assert game.to_move == seat
        game.apply(token)
    assert game.declarer == 1 and game.bid == 22 and game.phase == "skat"
    with pytest.raises(ValueError):
        ref.RefGame(ref.ALL_CARDS).apply("19")


def test_null_under_bid_is_illegal() -> None:
    game = ref.RefGame(ref.ALL_CARDS)
    for token in ["24", "p", "p"]:
        game.apply(token)
    assert game.declarer == 1 and game.bid == 24
    assert "NH" in game.legal_tokens()
    game.apply("s")
    assert game.phase == "discard" and len(game.legal_tokens()) == 66
    with pytest.raises(ValueError):
        game.apply("N.SK.SQ")  # null 23 < bid 24
    game.apply("SQ.SK")
    assert game.phase == "declare"
    assert "N" not in game.legal_tokens() and "NO" in game.legal_tokens()
    with pytest.raises(ValueError):
        game.apply("N")
    with pytest.raises(ValueError):
        game.apply("GH")  # no hand declaration after a pick-up
    game.apply("G")
    assert game.phase == "play" and game.to_move == 0


def test_perft_last_trick_is_one() -> None:
    game = ref.RefGame(ref.ALL_CARDS)
    for token in ["p", "p", "18", "GH"]:
        game.apply(token)
    play_first_legal(game, 27)
    assert game.phase == "play" and all(len(h) == 1 for h in game.hands)
    assert ref.count_play_sequences(game) == 1
    game.apply(game.legal_tokens()[0])
    assert ref.count_play_sequences(game) == 1


def test_full_game_grand_hand_schwarz() -> None:
    forehand = ["CJ", "SJ", "HJ", "DJ", "CA", "CT", "CK", "CQ", "C9", "C8"]
    middlehand = ["SA", "ST", "SK", "SQ", "S9", "S8", "S7", "C7", "HA", "HT"]
    rearhand = ["HK", "HQ", "H9", "H8", "H7", "DA", "DT", "DK", "DQ", "D9"]
    game = ref.RefGame(forehand + middlehand + rearhand + ["D8", "D7"])
    for token in ["p", "p", "18", "GH"]:
        game.apply(token)
    while not game.is_over:
        game.apply(game.legal_tokens()[0])
    res = game.result
    assert res is not None
    # Forehand cannot lose a trick: the only other club (C7) falls to her first club lead.
    assert res["declarer_tricks"] == 10 and res["declarer_points"] == 120
    # Grand with 4, hand, schneider, schwarz: (4 + 1 + 1 + 1 + 1) * 24 = 192.
    assert (res["won"], res["value"], res["matadors"], res["schwarz"]) == (True, 192, 4, True)
    assert res["scores"] == (242, 0, 0)


def test_minimax_by_hand() -> None:
    # Grand, declarer 0 leads. Leading SA first yields 31 (the defender throws CT);
    # leading C7 first yields 32 (CA CT C7 to the defenders, then ST HA SA to her).
    hands = [["SA", "C7"], ["ST", "CA"], ["HA", "CT"]]
    assert ref.minimax(hands, "G", 0, 0, [], 0) == 32
    assert ref.minimax([["CA"], ["C7"], ["CT"]], "G", 0, 0, [], 5) == 26
    # Null, declarer 0 leads at trick 9: H7 first lets her delay the trick to number 10.
    assert ref.minimax([["H7", "SA"], ["H8", "S7"], ["H9", "S8"]], "N", 0, 0, [], 0, 8) == 10
    # Null, defender 1 leads at trick 9: leading HT forces the declarer (seat 2) into HK.
    assert ref.minimax([["H7", "S9"], ["HT", "S7"], ["HK", "S8"]], "N", 2, 1, [], 0, 8) == 9
    # Null that the declarer survives.
    assert ref.minimax([["H7"], ["H8"], ["H9"]], "N", 0, 0, [], 0, 9) == 0


# -- real ISS records -------------------------------------------------------

SPECIAL = re.compile(r"^(SC|RE|TI\.\d+|LE\.\d+)$")


def iss_games() -> list[tuple[list[str], str]]:
    """Return (MV tokens, R text) of the sample records without special moves."""
    games = []
    for line in ISS_SAMPLE.read_text().splitlines():
        mv = re.search(r"MV\[([^\]]*)\]", line)
        result = re.search(r"\]R\[([^\]]*)\]", line)
        if mv is None or result is None:
            continue
        tokens = mv.group(1).split()
        if any(SPECIAL.match(t) for t in tokens[1::2]):
            continue
        games.append((tokens, result.group(1)))
    return games


def test_iss_records_replay() -> None:
    games = iss_games()
    assert len(games) >= 20
    for tokens, result_text in games:
        pairs = list(zip(tokens[0::2], tokens[1::2], strict=True))
        assert pairs[0][0] == "w"
        game = ref.RefGame(pairs[0][1].split("."))
        for who, move in pairs[1:]:
            if who == "w":
                assert sorted(move.split(".")) == sorted(game.skat)
                continue
            assert game.to_move == int(who), (result_text, who, move)
            game.apply(move)
        assert game.is_over, result_text
        res = game.result
        assert res is not None
        if result_text.strip() == "passed":
            assert res == {"passed": True}
            continue
        fields = dict(f.split(":", 1) for f in result_text.split() if ":" in f)
        assert res["declarer"] == int(fields["d"]), result_text
        assert res["value"] == int(fields["v"]), result_text
        assert res["matadors"] == int(fields["m"]), result_text
        assert res["declarer_points"] == int(fields["p"]), result_text
        assert res["declarer_tricks"] == int(fields["t"]), result_text
        assert res["schneider"] == (fields["s"] == "1"), result_text
        assert res["schwarz"] == (fields["z"] == "1"), result_text
        assert res["overbid"] == ("overbid" in result_text.split()), result_text
        assert res["won"] == ("win" in result_text.split()), result_text
