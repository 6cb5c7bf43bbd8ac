"""Paranoid search from the declarer's view: never above the open-handed value of the true
deal, its null-window test agrees with its value, and it refuses views it cannot use (the
Rust tests check it exactly against a brute force over all consistent worlds)."""

from __future__ import annotations

import json
from pathlib import Path

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


def test_sure_hand_games() -> None:
    from skat.bidding.paranoid import sure_hand_game

    g = skat.GameType
    # a null whose every suit is safe: from middlehand a sure null ouvert hand
    null = skat.Cards.parse("C7 C9 CJ S7 S9 SJ H7 H9 D7 D9")
    sure = sure_hand_game(null, seat=1, bid=18)
    assert sure is not None and (str(sure.contract), sure.value, sure.score) == ("NOH", 59, 109.0)
    assert sure_hand_game(null, seat=1, bid=60) is None  # no null reaches 60
    # top trumps drawing the missing jacks, then top cards only: schwarz and ouvert from forehand
    grand = skat.Cards.parse("CJ SJ HA HT HK HQ H9 SA ST DA")
    assert skat.paranoid_all_tricks(grand, g.GRAND)
    assert not skat.paranoid_all_tricks(grand, g.HEARTS)
    sure = sure_hand_game(grand, seat=0, bid=18, game_types=(g.GRAND,))
    assert sure is not None and sure.contract.ouvert and sure.contract.schwarz
    # with 2, and the skat may hold a third jack: the least value is with 2 (9 x 24)
    assert sure.value == 216 and sure.score > sure.value + 50
    # the four jacks and the top cards: a sure win (and schneider) from every seat
    strong = skat.Cards.parse("CJ SJ HJ DJ CA CT CK SA ST HA")
    for seat in range(3):
        assert skat.paranoid_hand(strong, g.GRAND, seat, 61)
    # a weak hand: nothing is sure; a search over its budget claims nothing
    weak = skat.Cards.parse("C8 C9 S7 SK H8 HQ HA D7 DT DA")
    assert sure_hand_game(weak, seat=2, bid=18, game_types=(g.GRAND,)) is None
    assert skat.paranoid_hand(weak, g.NULL, 2, 1) is False
    assert skat.paranoid_hand(strong, g.CLUBS, 1, 90, budget=1) is None
    with pytest.raises(skat.SkatError):
        skat.paranoid_hand(skat.Cards.parse("CJ SJ"), g.GRAND, 0, 61)


def _declared(deal: skat.Deal, spec: str) -> tuple[int | None, str]:
    from skat.players import make_player
    from skat.players.kermit import KermitPlayer

    players = [make_player(spec) for _ in range(3)]
    g = skat.Game(deal)
    for i, p in enumerate(players):
        assert isinstance(p, KermitPlayer)
        p.new_game(seat=i, seed=1)
    while g.contract is None and not g.is_over:
        seat = g.to_move
        assert seat is not None
        g.apply(players[seat].act(g.view(seat)))
    return g.declarer, str(g.contract)


def test_kermit_declares_sure_hand_games() -> None:
    spec = "kermit:worlds=4,threads=1,paranoid_bid="
    # middlehand holds the sure null, the others ordinary hands: null ouvert hand
    null = skat.Cards.parse("C7 C9 CJ S7 S9 SJ H7 H9 D7 D9")
    fore = skat.Cards.parse("HJ C8 CT S8 ST H8 HT D8 DT SQ")
    rear = skat.Cards.parse("DJ CQ CK SK SA HQ HK HA DQ DK")
    deal = skat.Deal((fore, null, rear), skat.Cards.parse("CA DA"))
    assert _declared(deal, spec + "100000") == (1, "NOH")
    # forehand's sure schwarz: the learned evaluation alone does not announce it
    grand = skat.Cards.parse("CJ SJ HA HT HK HQ H9 SA ST DA")
    rest = list(skat.Cards.all() - grand)
    deal = skat.Deal((grand, skat.Cards(rest[:10]), skat.Cards(rest[10:20])), skat.Cards(rest[20:]))
    assert _declared(deal, spec + "100000") == (0, "GO")
    assert _declared(deal, spec + "0") != (0, "GO")


def test_sure_games_survey_command(tmp_path: Path) -> None:
    from skat.cli import main

    out = tmp_path / "s.json"
    assert main(["research", "sure-games", "--deals", "2", "--seed", "1", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["hands"] == 6 and data["budget"] == 100_000
    assert 0 <= data["seconds"]["median"] <= data["seconds"]["max"]
    assert main(["research", "sure-games", "--deals", "0"]) == 2
