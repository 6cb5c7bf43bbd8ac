"""The fast Rust core against the slow pure-Python reference (tests/reference/), written
independently from rules.md: legal actions at every step, results, and perft counts."""

from __future__ import annotations

import copy
import random

import pytest

import skat
from tests import reference as ref
from tests.policies import sensible_random_action

ANNOUNCED_DECLARATIONS = ["CHS", "CHZ", "GHZ", "SHZ", "GO", "DO", "NOH", "GHS"]
"""Hand games with schneider or schwarz announced and ouvert games, as ISS declarations."""


def ref_game(deal: skat.Deal, variants: str = "") -> ref.RefGame:
    """The reference game of ``deal`` at a table with ``variants`` (the core's variant words)."""
    return ref.RefGame(
        deal.to_iss().split("."),
        kontra="kontra" in variants,
        bock="bock" in variants,
        ramsch="ramsch" in variants,
        schieberamsch="schieberamsch" in variants,
    )


def check_same_position(core: skat.Game, slow: ref.RefGame) -> list[skat.Action]:
    """Asserts that the core and the reference have the same seat to move and the same legal
    actions; returns the core's legal actions."""
    assert core.to_move == slow.to_move, core.to_iss()
    legal = core.legal_actions()
    assert set(legal) == {skat.Action(t) for t in slow.legal_tokens()}, core.to_iss()
    return legal


def compare_results(core: skat.GameResult, r: dict[str, object]) -> None:
    if r.get("passed"):
        assert core.passed
        return
    if r.get("ramsch"):
        o = core.ramsch
        assert o is not None and core.declarer is None
        assert core.value == r["value"] and core.scores == r["scores"]
        for key in ("points", "tricks", "losers", "jungfrau", "durchmarsch", "pushes"):
            assert o[key] == r[key], key
        return
    assert core.declarer == r["declarer"]
    assert core.won == r["won"]
    assert core.value == r["value"]
    assert core.matadors == r["matadors"]
    assert core.schneider == r["schneider"]
    assert core.schwarz == r["schwarz"]
    assert core.overbid == r["overbid"]
    assert core.declarer_points == r["declarer_points"]
    assert core.declarer_tricks == r["declarer_tricks"]
    d = core.declarer
    assert d is not None
    assert core.scores[d] == r["scores"][0]  # type: ignore[index]
    assert sorted(s for i, s in enumerate(core.scores) if i != d) == sorted(r["scores"][1:])  # type: ignore[index]


@pytest.mark.parametrize("policy", ["sensible", "uniform"])
def test_legal_actions_and_results_agree(policy: str) -> None:
    rng = random.Random(2024 if policy == "sensible" else 7)
    for seed in range(300):
        deal = skat.Deal.random(10_000 + seed)
        core = skat.Game(deal)
        slow = ref_game(deal)
        while not core.is_over:
            legal = check_same_position(core, slow)
            a = sensible_random_action(core, rng) if policy == "sensible" else rng.choice(legal)
            core.apply(a)
            slow.apply(str(a))
        assert slow.is_over
        assert core.result is not None and slow.result is not None
        compare_results(core.result, slow.result)


def test_announced_contracts_agree_with_the_reference() -> None:
    """Hand games with schneider or schwarz announced and ouvert games, where play may stop
    early (or end with the tenth trick): the same legal actions and results."""
    rng = random.Random(31)
    last_trick_only = 0
    for seed in range(600):
        deal = skat.Deal.random(40_000 + seed)
        core = skat.Game(deal)
        slow = ref_game(deal)
        declaration = rng.choice(ANNOUNCED_DECLARATIONS)
        for token in ["18", "p", "p", declaration]:
            core.apply(token)
            slow.apply(token)
        while not core.is_over:
            legal = check_same_position(core, slow)
            # the declarer leads high, the defenders play low: she often takes nine tricks
            cards = sorted(legal, key=lambda a: a.card.points if a.card else 0)
            a = cards[-1] if core.to_move == core.declarer else cards[0]
            if rng.random() < 0.3:
                a = rng.choice(legal)
            core.apply(a)
            slow.apply(str(a))
        assert slow.is_over and core.result is not None and slow.result is not None
        compare_results(core.result, slow.result)
        last_trick_only += core.result.declarer_tricks == 9 and len(core.tricks) == 10
    assert last_trick_only > 0  # the case where play is not stopped early


def test_perft_three_ways() -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(200):
        deal = skat.Deal.random(seed)
        core = skat.Game(deal)
        slow = ref_game(deal)
        tricks_left = 2 + seed % 3
        while not core.is_over and not (
            core.phase == skat.Phase.PLAY
            and 10 - len(core.tricks) <= tricks_left
            and not core.trick
        ):
            a = sensible_random_action(core, rng)
            core.apply(a)
            slow.apply(str(a))
        if core.is_over:
            continue
        # also test mid-trick positions
        if seed % 2:
            a = rng.choice(core.legal_actions())
            core.apply(a)
            slow.apply(str(a))
        fast = skat.perft(core)
        assert fast == skat.perft(core, fast=False) == ref.count_play_sequences(slow)
        checked += 1
    assert checked > 100


# Fixed positions with counts worked out by hand.
def test_perft_known_small_positions() -> None:
    g = skat.Game.from_iss(
        "(;GM[Skat]PC[test]MV[w CA.CT.CK.CQ.C9.C8.C7.SA.ST.SK.HA.HT.HK.HQ.H9.H8.H7.DA.DT.DK"
        ".SQ.S9.S8.S7.DQ.D9.D8.D7.SJ.HJ.CJ.DJ 1 18 0 p 2 p 1 GH ]R[] ;)"
    )
    # grand hand; forehand leads from seven clubs and three spades, middlehand is void in
    # clubs and spades, rearhand is void in clubs: the first trick has 10 * 10 * (4 + ...)
    assert g.phase == skat.Phase.PLAY
    lead_clubs = 7 * 10 * 10  # clubs led: middlehand and rearhand can play anything
    lead_spades = 3 * 10 * 4  # spades led: middlehand any card, rearhand one of 4 spades
    # count only the first trick by hand and check the engine's first-trick branching
    first = 0
    for a in g.legal_actions():
        h = g.copy()
        h.apply(a)
        for b in h.legal_actions():
            k = h.copy()
            k.apply(b)
            first += len(k.legal_actions())
    assert first == lead_clubs + lead_spades


@pytest.mark.parametrize(
    "variants", ["kontra", "kontra bock", "bock", "ramsch", "schieberamsch bock"]
)
def test_variants_agree_with_the_reference(variants: str) -> None:
    """Kontra, Re, Bock, Ramsch and Schieberamsch: the same legal actions at every step and
    the same results; announcements are taken often, so that every window is exercised, and
    the auctions pass more often than at a real table, so that Ramsch comes up."""
    rng = random.Random(len(variants))
    kontra, bock, ramsch = "kontra" in variants, "bock" in variants, "ramsch" in variants
    ramsches = 0
    levels = set()
    for seed in range(200):
        deal = skat.Deal.random(20_000 + seed)
        core = skat.Game(deal, variants=variants)
        slow = ref_game(deal, variants)
        while not core.is_over:
            legal = check_same_position(core, slow)
            doubles = [a for a in legal if a.kind in ("kontra", "re")]
            take = doubles and rng.random() < 0.5
            a = doubles[0] if take else sensible_random_action(core, rng)
            if core.phase == skat.Phase.BIDDING and rng.random() < 0.5:
                a = next((x for x in legal if x.kind == "pass"), a)
            core.apply(a)
            slow.apply(str(a))
        assert slow.is_over
        assert core.result is not None and slow.result is not None
        compare_results(core.result, slow.result)
        assert core.result.bock == (bock and not core.result.passed)
        levels.add(core.result.kontra)
        ramsches += core.ramsch
        again = skat.Game.from_iss(core.to_iss())
        assert again.result == core.result and again.variants == core.variants
    assert levels == ({0, 1, 2} if kontra else {0})
    assert (ramsches > 20) == ramsch


def _first_trick_sequences(game: skat.Game) -> int:
    """Action sequences (cards, Kontra, Re) until the first trick is complete."""
    if game.is_over or len(game.tricks) == 1:
        return 1
    total = 0
    for a in game.legal_actions():
        child = game.copy()
        child.apply(a)
        total += _first_trick_sequences(child)
    return total


def _ref_first_trick_sequences(game: ref.RefGame) -> int:
    if game.is_over or game.tricks_played == 1:
        return 1
    total = 0
    for token in game.legal_tokens():
        child = copy.deepcopy(game)
        child.apply(token)
        total += _ref_first_trick_sequences(child)
    return total


def test_first_trick_counts_with_kontra() -> None:
    """Perft-like counts of the first trick with Kontra and Re, core against reference,
    for each seat as declarer."""
    for seed, auction in ((1, ["p", "p", "18"]), (2, ["18", "p", "p"]), (3, ["p", "18", "p"])):
        deal = skat.Deal.random(seed)
        core = skat.Game(deal, variants="kontra")
        slow = ref.RefGame(deal.to_iss().split("."), kontra=True)
        for t in [*auction, "GH"]:
            core.apply(t)
            slow.apply(t)
        with_kontra = _first_trick_sequences(core)
        assert with_kontra == _ref_first_trick_sequences(slow)
        plain = skat.Game(deal)
        for t in [*auction, "GH"]:
            plain.apply(t)
        assert with_kontra > _first_trick_sequences(plain)


def test_perft_of_ramsch_endgames() -> None:
    """Play sequences of Ramsch endgames (grand order, no declarer, nothing ends early):
    the fast and slow core counts and the reference agree."""
    rng = random.Random(9)
    for seed in range(40):
        deal = skat.Deal.random(30_000 + seed)
        core = skat.Game(deal, variants="ramsch")
        slow = ref.RefGame(deal.to_iss().split("."), ramsch=True)
        for t in ("p", "p", "p"):
            core.apply(t)
            slow.apply(t)
        tricks_left = 2 + seed % 3
        while len(core.tricks) < 10 - tricks_left or core.trick:
            a = rng.choice(core.legal_actions())
            core.apply(a)
            slow.apply(str(a))
        fast = skat.perft(core)
        assert fast == skat.perft(core, fast=False) == ref.count_play_sequences(slow)
