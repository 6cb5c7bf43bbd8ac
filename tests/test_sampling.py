"""World sampling: every sampled world is consistent with the seat's knowledge, the count of
worlds matches a brute-force enumeration done independently here, and sampling is uniform
(chi-square test on small constrained cases)."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest

import skat
from skat import Cards, GameType
from tests.policies import sensible_random_action


def game_near_end(seed: int, tricks_left: int) -> skat.Game | None:
    rng = random.Random(seed)
    g = skat.Game(skat.Deal.random(seed))
    while not g.is_over:
        near_end = g.phase == skat.Phase.PLAY and 10 - len(g.tricks) <= tricks_left
        if near_end and (len(g.trick) == seed % 3 or rng.random() < 0.3):
            return g
        g.apply(sensible_random_action(g, rng))
    return None


def follow_group(gt: GameType, card: skat.Card) -> Cards:
    trumps = gt.trumps()
    return trumps if card in trumps else card.suit.cards() - trumps


def brute_force_worlds(g: skat.Game, seat: int) -> list[tuple[Cards, ...]]:
    """All consistent assignments, derived here without the engine's sampler."""
    v = g.view(seat)
    assert v.contract is not None and v.declarer is not None
    gt = v.contract.game_type
    played = Cards(v.played)
    void: dict[int, Cards] = {0: Cards(), 1: Cards(), 2: Cards()}
    tricks = [(t[0], t[1]) for t in v.tricks] + ([(v.leader, v.trick)] if v.trick else [])
    counts: Counter[int] = Counter()
    for leader, cards in tricks:
        led = follow_group(gt, cards[0])
        for i, c in enumerate(cards):
            s = (leader + i) % 3
            counts[s] += 1
            if i and c not in led:
                void[s] = void[s] | led
    known = v.hand | played
    fixed_skat = v.discard if (seat == v.declarer and v.picked_up) else None
    if fixed_skat is not None:
        known = known | fixed_skat
    open_seat = v.declarer if (v.open_hand is not None and seat != v.declarer) else None
    if open_seat is not None and v.open_hand is not None:
        known = known | v.open_hand
    unknown = sorted(Cards.all() - known)
    others = [s for s in range(3) if s != seat and s != open_seat]
    needs = [10 - counts[s] for s in others]
    worlds: list[tuple[Cards, ...]] = []
    first = others[0]
    for a in itertools.combinations(unknown, needs[0]):
        a_set = Cards(a)
        if not a_set.isdisjoint(void[first]):
            continue
        rest = [c for c in unknown if c not in a_set]
        if len(others) == 2:
            for b in itertools.combinations(rest, needs[1]):
                b_set = Cards(b)
                if b_set.isdisjoint(void[others[1]]):
                    skat_part = Cards(rest) - b_set
                    worlds.append((a_set, b_set) if fixed_skat else (a_set, b_set, skat_part))
        else:
            worlds.append((a_set,) if fixed_skat else (a_set, Cards(rest)))
    return worlds


def world_key(
    g: skat.Game, seat: int, w: tuple[tuple[Cards, Cards, Cards], Cards]
) -> tuple[Cards, ...]:
    v = g.view(seat)
    open_seat = v.declarer if (v.open_hand is not None and seat != v.declarer) else None
    others = [s for s in range(3) if s != seat and s != open_seat]
    hands, skat_cards = w
    skat_known = seat == v.declarer and v.picked_up
    return tuple(hands[s] for s in others) + (() if skat_known else (skat_cards,))


def chi_square_critical(df: int) -> float:
    """The 1 - 1e-5 quantile of chi-square (Wilson-Hilferty): dozens of cases are tested, so
    each gets a Bonferroni-style share of a 0.1% false-alarm budget."""
    z = 4.265
    return float(df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3)


def test_counts_match_brute_force_and_sampling_is_uniform() -> None:
    tested = 0
    for seed in range(400):
        g = game_near_end(seed, 2)
        if g is None:
            continue
        for seat in range(3):
            worlds = brute_force_worlds(g, seat)
            v = g.view(seat)
            expected = set(worlds)
            assert skat.count_worlds(v) == len(worlds)
            if not 3 <= len(worlds) <= 60:
                continue
            n = 200 * len(worlds)
            sample = Counter(world_key(g, seat, w) for w in skat.sample_worlds(v, n, seed=seed))
            assert set(sample) <= expected
            chi2 = sum((sample.get(w, 0) - 200) ** 2 / 200 for w in expected)
            assert chi2 < chi_square_critical(len(expected) - 1), (seed, seat, len(expected), chi2)
            tested += 1
    assert tested >= 20


def test_worlds_agree_with_the_view() -> None:
    for seed in range(60):
        g = game_near_end(seed, 7)
        if g is None:
            continue
        for seat in range(3):
            v = g.view(seat)
            for hands, skat_cards in skat.sample_worlds(v, 10, seed=seed):
                assert hands[seat] == g.hands[seat]
                assert [len(h) for h in hands] == [len(h) for h in g.hands]
                assert len(skat_cards) == 2
                everything = hands[0] | hands[1] | hands[2] | skat_cards | Cards(g.played)
                assert everything == Cards.all()
                if v.open_hand is not None:
                    assert hands[g.declarer or 0] == v.open_hand


def test_sampling_is_reproducible_and_needs_card_play() -> None:
    g = next(x for x in (game_near_end(s, 5) for s in range(20)) if x is not None)
    v = g.view(0)
    assert skat.sample_worlds(v, 5, seed=1) == skat.sample_worlds(v, 5, seed=1)
    with pytest.raises(skat.PositionError):
        skat.sample_worlds(skat.Game(skat.Deal.random(1)).view(0), 3)
    assert skat.sample_worlds(v, 0) == []
    # 2**40 worlds had the process abort on a failed allocation, 2**62 panic
    for n in (2**40, 2**62):
        with pytest.raises(skat.ArgumentError, match="at most"):
            skat.sample_worlds(v, n)
