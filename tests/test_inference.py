"""Card inference: features, learned tables, world weights, the sampler and the players."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skat import Cards, Deal, Game, GameType, Phase, SkatError
from skat._core import auction_outcomes, hand_features
from skat.bidding import default_model
from skat.inference import (
    FEATURE_VALUES,
    OFFSETS,
    OUTCOMES,
    InferenceError,
    InferenceTables,
    count_hands,
    default_tables,
    make_inference,
    outcome_name,
    world_weights,
)
from skat.inference.report import inference_report, views_of_game
from skat.match import play
from skat.players import make_player

World = tuple[tuple[Cards, Cards, Cards], Cards]


def hypergeom(k: int, good: int, total: int = 32, draws: int = 10) -> float:
    return math.comb(good, k) * math.comb(total - good, draws - k) / math.comb(total, draws)


# ----- features and outcomes ----------------------------------------------------------------


def test_features_of_a_hand() -> None:
    # lengths D H S C (no jacks), jack bits (D=1 H=2 S=4 C=8), aces, aces+tens, K+Q, 7-8-9
    assert hand_features("CJ HJ CA CT C7 SA SK SQ H9 D8") == [1, 1, 3, 3, 10, 2, 3, 2, 3]
    assert hand_features("DJ HJ SJ CJ DA DT DK DQ D9 D8") == [6, 0, 0, 0, 15, 1, 2, 2, 2]


def test_outcomes_name_the_auction() -> None:
    g = Game(Deal.random(1))
    for t in ["18", "y", "20", "p", "p"]:
        g.apply(t)
    o = [x for x in auction_outcomes(g.view(0)) if x is not None]
    assert len(o) == 3
    # middlehand bids 18 and 20, forehand holds 18 and refuses 20, rearhand refuses 22
    assert outcome_name(o[0]) == "forehand passed at 20 after bidding"
    assert outcome_name(o[1]) == "middlehand won at 20"
    assert outcome_name(o[2]) == "rearhand passed at 22-24 without bidding"


# ----- learned tables -----------------------------------------------------------------------


def random_hands(n: int, seed: int) -> list[Cards]:
    return [Deal.random(seed * 100_003 + i).hands[i % 3] for i in range(n)]


def test_tables_reproduce_known_frequencies_on_synthetic_data() -> None:
    """Outcome 0 for hands with at most one ace, 1 for the rest, 2 at random: the learned
    conditional frequencies must match the hypergeometric ones."""
    hands = random_hands(24_000, 5)
    rng = random.Random(2)
    outcomes = []
    for h in hands:
        aces = hand_features(h)[5]
        outcomes.append(2 if rng.random() < 0.3 else (0 if aces <= 1 else 1))
    counts, totals = count_hands(hands, outcomes)
    t = InferenceTables(counts, totals, smoothing=1.0)
    cond = t.conditional()
    p_aces = [hypergeom(k, 4) for k in range(5)]
    low = sum(p_aces[:2])
    ace = OFFSETS[5]
    for k in range(5):
        want0 = p_aces[k] / low if k <= 1 else 0.0
        want1 = p_aces[k] / (1 - low) if k >= 2 else 0.0
        assert cond[0, ace + k] == pytest.approx(want0, abs=0.015)
        assert cond[1, ace + k] == pytest.approx(want1, abs=0.015)
        # the random outcome carries no information about aces
        assert cond[2, ace + k] == pytest.approx(p_aces[k], abs=0.015)
    # non-jack clubs: 7 of the 32 cards
    clubs = OFFSETS[3]
    for k in range(8):
        assert cond[2, clubs + k] == pytest.approx(hypergeom(k, 7), abs=0.015)
        assert t.marginal()[clubs + k] == pytest.approx(hypergeom(k, 7), abs=0.01)
    # log ratios are the logs of conditional over marginal
    lr = t.log_ratio
    assert lr.shape == (OUTCOMES, FEATURE_VALUES)
    np.testing.assert_allclose(lr[1], np.log(cond[1] / t.marginal()), rtol=1e-5, atol=1e-5)
    # an outcome never seen carries no information
    assert np.allclose(lr[40], 0.0, atol=1e-6)


def test_tables_save_and_load(tmp_path: pytest.TempPathFactory) -> None:
    counts, totals = count_hands(random_hands(50, 1), [3] * 50)
    t = InferenceTables(counts, totals, {"note": "x"}, smoothing=7.0)
    path = f"{tmp_path}/t.npz"
    t.save(path)
    u = InferenceTables.load(path)
    assert u.meta == {"note": "x"} and u.smoothing == 7.0
    np.testing.assert_array_equal(u.log_ratio, t.log_ratio)
    with pytest.raises(InferenceError):
        InferenceTables.load(f"{tmp_path}/missing.npz")
    with pytest.raises(InferenceError):
        InferenceTables(counts[:3], totals)
    with pytest.raises(InferenceError):
        count_hands(["CJ SJ HJ DJ CA CT CK CQ C9 C8"], [OUTCOMES])


def test_packaged_tables_say_what_bidding_means() -> None:
    t = default_tables()
    assert t.meta.get("deals", 0) >= 10_000
    cond = t.conditional()
    jack_count = np.array([bin(p).count("1") for p in range(16)])
    jacks = OFFSETS[4]

    def mean_jacks(o: int) -> float:
        return float((cond[o, jacks : jacks + 16] * jack_count).sum())

    # middlehand who bid and passed above 27 holds more jacks than one who passed at 18
    assert mean_jacks(21 + 7 + 3) > mean_jacks(21 + 0) + 0.3


# ----- weights ------------------------------------------------------------------------------


def declared_game(seed: int, tokens: list[str] | None = None) -> Game:
    """A game in card play: three kermit bidders declare (or the given tokens)."""
    s = seed
    while True:
        deal = Deal.random(s)
        if tokens is not None:
            g = Game(deal)
            for t in tokens:
                g.apply(t)
            return g
        players = [make_player("kermit:worlds=1,threads=1") for _ in range(3)]
        g = play(players, deal, seed=s, until=Phase.PLAY)
        if not g.is_over:
            return g
        s += 1000


def advance(g: Game, steps: int, seed: int) -> Game:
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    return g


def random_world(g: Game, seat: int, rng: random.Random) -> World:
    """The cards the seat does not see, dealt at random to the right sizes (no constraints)."""
    view = g.view(seat)
    played = Cards(g.played)
    known = view.hand | played
    fixed = {seat: view.hand}
    if view.open_hand is not None and seat != g.declarer:
        fixed[g.declarer] = view.open_hand  # type: ignore[index]
        known = known | view.open_hand
    skat_known = seat == g.declarer and g.picked_up
    if skat_known:
        known = known | g.skat
    rest = [c for c in Cards.all() if c not in known]
    rng.shuffle(rest)
    hands: list[Cards] = []
    for s in range(3):
        if s in fixed:
            hands.append(fixed[s])
        else:
            n = len(g.hands[s])
            hands.append(Cards(rest[:n]))
            rest = rest[n:]
    skat = g.skat if skat_known else Cards(rest[:2])
    return (hands[0], hands[1], hands[2]), skat


def consistent(g: Game, seat: int, world: World) -> bool:
    """Slow reference: no seat holds a card of a group it failed to follow."""
    contract = g.contract
    assert contract is not None
    gt = contract.game_type
    hands, _ = world
    tricks = [(leader, list(cards)) for leader, cards, _ in g.tricks]
    if g.trick:
        tricks.append((g.leader, list(g.trick)))
    for leader, cards in tricks:
        led = _group(gt, cards[0])
        for i in range(1, len(cards)):
            s = (leader + i) % 3
            if _group(gt, cards[i]) != led and any(_group(gt, c) == led for c in hands[s]):
                return False
    return True


def _group(gt: GameType, card: object) -> str:
    c = str(card)
    if gt != GameType.NULL and (c[1] == "J" or (gt.letter in "DHSC" and c[0] == gt.letter)):
        return "trump"
    return c[0]


def declarer_win(g: Game, world: World) -> float:
    """The 10+2 value of the declared contract for the world's declarer cards (0 if it
    cannot reach the bid)."""
    d = g.declarer
    assert d is not None and g.contract is not None
    hands, skat = world
    played = Cards([c for s, c in g.view(d).plays if s == d])
    r = default_model().tables.expected_score(hands[d] | played, skat, g.contract, d, g.bid)
    return 0.0 if r is None else r[1]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 20))
def test_weights_are_zero_exactly_for_worlds_the_history_rules_out(seed: int, steps: int) -> None:
    g = advance(declared_game(seed), steps, seed)
    if g.is_over:
        return
    rng = random.Random(seed)
    inf = make_inference("SD")
    for seat in range(3):
        view = g.view(seat)
        worlds = [random_world(g, seat, rng) for _ in range(30)]
        worlds.append(((g.hands[0], g.hands[1], g.hands[2]), g.skat))  # the truth
        weights = inf.weights(view, worlds)
        for w, world in zip(weights, worlds, strict=True):
            ok = consistent(g, seat, world)
            if ok and seat != g.declarer:
                ok = declarer_win(g, world) >= 0.5
            assert (w > 0) == ok, (seed, steps, seat, w, world)
            assert math.isfinite(w) and w >= 0


def test_weights_are_uniform_without_information() -> None:
    g = advance(declared_game(11), 4, 11)
    rng = random.Random(1)
    for seat in range(3):
        view = g.view(seat)
        worlds = [random_world(g, seat, rng) for _ in range(40)]
        keep = [w for w in worlds if consistent(g, seat, w)]
        assert keep
        assert world_weights(view, keep, sides="NI") == [1.0] * len(keep)
    # tables without counts carry no information: the declarer's weights are all one
    empty = InferenceTables(np.zeros((OUTCOMES, FEATURE_VALUES)), np.zeros(OUTCOMES))
    inf = empty.compile("S")
    d = g.declarer
    assert d is not None
    view = g.view(d)
    keep = [w for w in (random_world(g, d, rng) for _ in range(40)) if consistent(g, d, w)]
    assert inf.weights(view, keep) == [1.0] * len(keep)


def test_declarer_weights_follow_the_bids() -> None:
    """A defender who bid high is more likely to hold the jacks the declarer lacks."""
    rng = random.Random(4)
    inf = make_inference("S")
    checked = 0
    for seed in range(200):
        g = declared_game(seed)
        d = g.declarer
        assert d is not None
        if g.contract is None or g.contract.game_type == GameType.NULL:
            continue
        view = g.view(d)
        outs = auction_outcomes(view)
        bidders = [s for s in range(3) if s != d and (outs[s] or 0) % 21 >= 7]
        if len(bidders) != 1:
            continue
        b = bidders[0]
        worlds = [random_world(g, d, rng) for _ in range(400)]
        w = np.asarray(inf.weights(view, worlds), dtype=np.float64)
        jacks = np.array([sum(1 for c in h[0][b] if str(c)[1] == "J") for h in worlds])
        uniform_mean = jacks.mean()
        weighted_mean = float((w * jacks).sum() / w.sum())
        assert weighted_mean >= uniform_mean - 0.05
        checked += 1
        if checked >= 8:
            break
    assert checked >= 3


# ----- the sampler --------------------------------------------------------------------------


def test_sampler_draws_the_requested_worlds_and_reports() -> None:
    g = declared_game(21)
    d = g.declarer
    assert d is not None
    for seat in range(3):
        worlds, stats = make_inference("SD", 500).sample(g.view(seat), 40, 3)
        assert sum(w for _, w in worlds) == 40.0
        assert stats["candidates"] == 500 and stats["distinct"] == len(worlds)
        assert 0 < stats["effective"] <= 500 and not stats["fallback"]
        again, _ = make_inference("SD", 500).sample(g.view(seat), 40, 3)
        assert again == worlds


def test_counts_beyond_the_limits_are_refused() -> None:
    # 2**40 worlds or candidates had the process abort on a failed allocation
    view = declared_game(21).view(0)
    inference = make_inference("SD", 50)
    with pytest.raises(SkatError, match="at most"):
        inference.sample(view, 2**40, 1)
    with pytest.raises(SkatError, match="at most"):
        inference.holder_odds(view, 2**40, 1)
    with pytest.raises(SkatError, match="at most"):
        make_inference("SD", 2**40).sample(view, 2, 1)


def test_sampler_falls_back_to_uniform_when_every_world_is_ruled_out() -> None:
    # diamonds declared after bidding 264 can never reach the bid: every world weighs 0
    g = Game(Deal.random(8))
    for t in ["264", "p", "p", "s"]:
        g.apply(t)
    g.apply(g.legal_actions()[0])
    g.apply("D")
    assert g.declarer == 1
    worlds, stats = make_inference("SD", 300).sample(g.view(0), 20, 1)
    assert stats["fallback"] and stats["nonzero"] == 0
    assert sum(w for _, w in worlds) == 20.0
    # the declarer herself still infers from the bids
    _, stats = make_inference("SD", 300).sample(g.view(1), 20, 1)
    assert not stats["fallback"]


# ----- players and report -------------------------------------------------------------------


def test_kermit_inference_option_and_decision_statistics() -> None:
    g = declared_game(31)
    seat = g.to_move
    assert seat is not None
    sd = make_player("kermit:worlds=6,threads=1,points=false,candidates=300")
    sd.new_game(seat, 1)  # type: ignore[attr-defined]
    decision = sd.decide(g.view(seat))  # type: ignore[attr-defined]
    assert decision.inference is not None and decision.inference["candidates"] == 300
    ni = make_player("kermit:worlds=6,threads=1,points=false,inference=NI")
    ni.new_game(seat, 1)  # type: ignore[attr-defined]
    assert ni.decide(g.view(seat)).inference is None  # type: ignore[attr-defined]
    for bad in ("kermit:inference=X", "kermit:candidates=0"):
        with pytest.raises(SkatError):
            make_player(bad)


def test_kermit_with_inference_plays_legal_games() -> None:
    players = [
        make_player(f"kermit:worlds=4,threads=1,points=false,inference={s}")
        for s in ("SD", "S", "D")
    ]
    for seed in range(3):
        g = play(players, Deal.random(seed), seed=seed)
        assert g.is_over


def test_report_puts_more_weight_on_the_truth_for_defenders() -> None:
    games = []
    for seed in range(6):
        players = [make_player("kermit:worlds=3,threads=1,points=false") for _ in range(3)]
        g = play(players, Deal.random(500 + seed), seed=seed)
        if g.contract is not None and g.played:
            games.append(g)
    assert games
    rows = views_of_game(games[0])
    assert {r.trick for r in rows} >= {1}
    report = inference_report(games, make_inference("SD"), candidates=300, seed=1)
    assert report["views"] > 0
    for r in report["totals"]:
        assert 0 < r["uniform"] < 1 and 0 < r["weighted"] <= 1
