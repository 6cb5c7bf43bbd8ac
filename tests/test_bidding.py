"""The 10+2 bidding evaluation, the bidding tree, fitting and the kermit player."""

from __future__ import annotations

import itertools
import math
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skat._core import Card, Cards, Contract, Deal, Game, GameType, Phase, matadors
from skat.bidding import (
    KINDS,
    ModelError,
    default_model,
    evaluate,
    evaluate_bids,
    win_probabilities,
    win_probability,
)
from skat.bidding.model import BiddingModel
from skat.defaults import KERMIT_THRESHOLD, KERMIT_UNOPPOSED
from skat.match import play
from skat.players import PlayerSpecError, make_player
from skat.players.kermit import KermitPlayer
from skat.records import read_records
from skat.training.fit import logistic_fit, sample_from_game, samples_from_records
from skat.training.generate import choose_contract, contract_actions

ISS = str(Path(__file__).resolve().parent / "data" / "iss" / "iss-sample.sgf")
ALL = sorted(Card.all())


def _hand_and_skat(seed: int) -> tuple[Cards, Cards, Cards]:
    rng = random.Random(seed)
    cards = rng.sample(ALL, 12)
    return Cards(cards[:10]), Cards(cards[10:]), Cards(cards)


def test_packaged_model_loads_with_its_note() -> None:
    m = default_model()
    assert m.meta["samples"] > 1000
    assert set(m.meta["fit"]) == {"suit", "grand", "null", "null_ouvert"}
    assert "command" in m.meta


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 6), st.integers(0, 2))
def test_probabilities_stay_in_unit_interval(seed: int, kind: int, seat: int) -> None:
    hand, skat, _ = _hand_and_skat(seed)
    p = win_probability(hand, skat, kind, seat)
    assert 0.0 <= p <= 1.0
    w, s, z = default_model().probabilities(hand, skat, kind, seat)
    assert 0.0 <= z <= s <= w <= 1.0 and w == pytest.approx(p)


def test_vectorised_form_equals_single_calls() -> None:
    hands, discards, kinds, seats = [], [], [], []
    for i in range(50):
        h, s, _ = _hand_and_skat(i)
        hands.append(h)
        discards.append(s)
        kinds.append(i % 7)
        seats.append(i % 3)
    v = win_probabilities(hands, discards, kinds, seats)
    single = [
        win_probability(h, s, k, p)
        for h, s, k, p in zip(hands, discards, kinds, seats, strict=True)
    ]
    assert np.allclose(v, single)


def test_kind_names_and_errors() -> None:
    h, s, _ = _hand_and_skat(3)
    assert win_probability(h, s, "NO", 0) == win_probability(h, s, 6, 0)
    assert win_probability(h, s, GameType.GRAND, 1) == win_probability(h, s, "G", 1)
    assert win_probability(h, s, Contract(GameType.NULL, ouvert=True), 2) == win_probability(
        h, s, "NO", 2
    )
    with pytest.raises(ModelError):
        win_probability(h, s, "X", 0)
    with pytest.raises(ValueError):
        win_probability(h, h, "G", 0)  # not ten plus two other cards
    with pytest.raises(ValueError):
        win_probability(h, s, "G", 3)


def test_strong_hands_beat_weak_ones() -> None:
    strong = win_probability("CJ SJ HJ DJ CA CT CK SA ST HA", "D7 D8", "G", 0)
    weak = win_probability("C7 C8 S7 S8 H7 H8 D7 D9 DQ HQ", "DK DT", "G", 0)
    assert strong > 0.9 > 0.1 > weak
    assert evaluate("CJ SJ HJ DJ CA CT CK SA ST HA", 0, 18) > 0.9
    # a low hand is a good null and nothing else: playable while a null game (up to null
    # ouvert hand, 59) reaches the bid, hopeless above
    low = "C7 C8 S7 S8 H7 H8 D7 D8 D9 H9"
    assert evaluate(low, 1, 18) > 0.5 > 0.1 > evaluate(low, 1, 60)
    assert evaluate(low, 1, 18) >= evaluate(low, 1, 48)


def _leaf(
    m: BiddingModel, hand: Cards, d: Cards, kind: int, seat: int, bid: int, hand_game: bool
) -> float:
    """The bidding tree's leaf rule written out plainly (see bidding.rs)."""
    if kind >= 5:
        values = (35, 59) if hand_game else (23, 46)
        v = values[kind - 5]
        if v < bid or (kind == 6 and values[0] >= bid):
            return 0.0
        return m.probabilities(hand, d, kind, seat)[0]
    gt = GameType.parse(KINDS[kind])
    mats = abs(matadors(gt, hand | d))
    base = gt.base_value * (mats + 1 + int(hand_game))
    steps = [base, base + gt.base_value, base + 2 * gt.base_value]
    for level, value in enumerate(steps):
        if value >= bid:
            return m.probabilities(hand, d, kind, seat)[level]
    return 0.0


@pytest.mark.parametrize(("seed", "bid"), [(1, 18), (2, 18), (3, 36)])
def test_tree_equals_brute_force(seed: int, bid: int) -> None:
    m = default_model()
    hand, _, _ = _hand_and_skat(seed)
    seat = seed % 3
    unseen = sorted(Cards.all() - hand)
    pickup, hand_sum = 0.0, [0.0] * 7
    for a, b in itertools.combinations(unseen, 2):
        skat = Cards([a, b])
        twelve = hand | skat
        best = 0.0
        for x, y in itertools.combinations(sorted(twelve), 2):
            d = Cards([x, y])
            for kind in range(7):
                best = max(best, _leaf(m, twelve - d, d, kind, seat, bid, False))
        pickup += best
        for kind in range(7):
            hand_sum[kind] += _leaf(m, hand, skat, kind, seat, bid, True)
    n = math.comb(22, 2)
    want = max(pickup / n, max(hand_sum) / n)
    got, leaves = m.tables.evaluate(hand, seat, [bid])
    assert got[0] == pytest.approx(want, abs=1e-6)
    assert leaves <= 92_862


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_declaration_is_the_best_over_all_discards_and_contracts(seed: int) -> None:
    m = default_model()
    _, _, twelve = _hand_and_skat(seed)
    seat, bid = seed % 3, 18
    discard, contract, ev, _ = m.tables.best_pickup(twelve, seat, bid)
    assert discard is not None and len(discard) == 2
    contracts = [Contract(GameType.parse(k)) for k in "DHSCGN"] + [
        Contract(GameType.NULL, ouvert=True)
    ]
    best = max(
        scored[0]
        for x, y in itertools.combinations(sorted(twelve), 2)
        for k in contracts
        if (scored := m.tables.expected_score(twelve - Cards([x, y]), Cards([x, y]), k, seat, bid))
    )
    assert ev == pytest.approx(best)
    got = m.tables.expected_score(twelve - discard, discard, contract, seat, bid)
    assert got is not None and got[0] == pytest.approx(ev)


def test_evaluate_bids_is_non_increasing_for_suit_hands() -> None:
    values = evaluate_bids("CJ SJ CA CT CK CQ C9 SA HA D7", 0, [18, 24, 36, 48, 60, 72, 96])
    assert values == sorted(values, reverse=True)
    assert values[0] > 0.6 and values[-1] < values[0]


def test_logistic_fit_recovers_known_weights() -> None:
    rng = np.random.default_rng(7)
    x = rng.normal(size=(20000, 2))
    w_true = np.array([0.5, 1.5, -2.0])
    p = 1 / (1 + np.exp(-(w_true[0] + x @ w_true[1:])))
    y = (rng.random(20000) < p).astype(np.float64)
    w = logistic_fit(x, y, ridge=1e-6)
    assert np.allclose(w, w_true, atol=0.1)


def test_samples_from_human_records() -> None:
    samples = samples_from_records(read_records([ISS]))
    assert len(samples) >= 40
    for s in samples:
        assert bin(s.hand).count("1") == 10 and bin(s.discard).count("1") == 2
        assert s.hand & s.discard == 0
        if s.kind < 5 and s.played_out:
            assert sum(s.tricks.values()) in range(-10, 11, 2)
            # every card point of the deal is in a trick: net points + 120 is even... and bounded
            assert -120 <= sum(s.points.values()) <= 120


def test_training_game_contract_is_applied() -> None:
    from skat._core import Game

    rng = random.Random(5)
    for i in range(20):
        deal = Deal.random(i)
        choice = choose_contract(deal, rng)
        game = Game(deal)
        contract_actions(game, choice)
        assert game.phase == Phase.PLAY
        assert game.declarer == choice.declarer and game.contract == choice.contract
        assert game.bid == 18


def test_kermit_plays_legal_games_and_follows_its_threshold() -> None:
    for seed in range(4):
        players = [make_player("kermit:worlds=4,points=false,threads=1"), make_player("rules")]
        game = play([players[0], players[1], make_player("rules")], Deal.random(seed), seed=seed)
        assert game.is_over
        s = sample_from_game(game)
        if s is not None and game.result is not None and game.result.declarer == 0:
            assert game.contract is not None
    cautious = make_player("kermit:threshold=0.99,unopposed=none,worlds=4,threads=1")
    bold = make_player("kermit:threshold=0.01,unopposed=none,worlds=4,threads=1")
    deal = Deal.random(11)
    g1 = play(
        [cautious, make_player("rules"), make_player("rules")], deal, seed=1, until=Phase.SKAT
    )
    g2 = play([bold, make_player("rules"), make_player("rules")], deal, seed=1, until=Phase.SKAT)
    # the bold player bids at least as high as the cautious one
    assert (g2.declarer == 0) >= (g1.declarer == 0)


def test_bad_model_files_raise() -> None:
    with pytest.raises(ModelError):
        BiddingModel.load("/nonexistent/model.npz")
    arrays = dict(default_model().arrays)
    arrays["null_cal"] = arrays["null_cal"][:3]
    with pytest.raises(ModelError):
        BiddingModel(arrays)


def _game_with_hand_between(
    seat: int, low: float, high: float, players: list[KermitPlayer]
) -> Game:
    """The first random deal whose ``seat`` holds a hand the tree values in [low, high) at 18,
    with every player reset for it."""
    for seed in range(300):
        game = Game(Deal.random(seed))
        for player in players:
            player.new_game(seat, seed)
        if low <= players[0].bid_value(game.view(seat), 18) < high:
            return game
    pytest.fail(f"no hand in [{low}, {high}) at 18 for seat {seat} in 300 deals")


def test_kermit_unopposed_threshold_applies_only_before_an_opponent_bids() -> None:
    plain, bold = (
        KermitPlayer(unopposed=None, worlds=4, threads=1),
        KermitPlayer(unopposed=0.3, worlds=4, threads=1),
    )
    # middlehand opens the auction: the unopposed player bids 18, the plain one passes
    game = _game_with_hand_between(1, 0.3, 0.6, [plain, bold])
    assert str(plain.act(game.view(1))) == "p"
    assert str(bold.act(game.view(1))) == "18"
    # forehand after middlehand's 18: both need the plain threshold to hold
    game = _game_with_hand_between(0, 0.3, 0.6, [plain, bold])
    game.apply("18")
    assert str(plain.act(game.view(0))) == "p"
    assert str(bold.act(game.view(0))) == "p"
    with pytest.raises(PlayerSpecError):
        make_player("kermit:unopposed=1.5")


def test_default_kermit_opens_at_its_unopposed_value() -> None:
    default = KermitPlayer(worlds=4, threads=1)
    plain = KermitPlayer(unopposed=None, worlds=4, threads=1)
    assert KERMIT_UNOPPOSED is not None and KERMIT_UNOPPOSED < KERMIT_THRESHOLD
    assert (default.unopposed, default.threshold) == (KERMIT_UNOPPOSED, KERMIT_THRESHOLD)
    # a middlehand hand between the two values: opened by default, passed by the threshold
    game = _game_with_hand_between(1, KERMIT_UNOPPOSED, KERMIT_THRESHOLD, [default, plain])
    assert str(default.act(game.view(1))) == "18"
    assert str(plain.act(game.view(1))) == "p"
