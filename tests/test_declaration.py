"""The pick-up declaration chosen by open-handed search over sampled defenders' hands."""

from __future__ import annotations

import pytest

from skat._core import Cards, Contract, Deal, GameType, Position, Solver, matadors
from skat.bidding import default_model
from skat.match import play
from skat.players import PlayerSpecError, make_player
from skat.players.declaration import (
    PICKUP_CONTRACTS,
    sample_worlds,
    search_declaration,
    table_candidates,
    world_score,
)

TABLES = default_model().tables


def test_candidates_are_the_tables_best_in_order() -> None:
    twelve = Deal.random(4).hands[1] | Deal.random(4).skat
    best = table_candidates(TABLES, twelve, 1, 18, 10)
    assert len(best) == 10
    assert [c.table_score for c in best] == sorted((c.table_score for c in best), reverse=True)
    for c in best:
        assert c.discard.issubset(twelve) and len(c.discard) == 2 and c.contract in PICKUP_CONTRACTS
        score = TABLES.expected_score(twelve - c.discard, c.discard, c.contract, 1, 18)
        assert score is not None and score[0] == c.table_score
    _, _, ev, _ = TABLES.best_pickup(twelve, 1, 18)
    assert best[0].table_score == pytest.approx(ev)
    suits = table_candidates(TABLES, twelve, 1, 18, 500, null=False)
    assert suits and all(c.contract.game_type != GameType.NULL for c in suits)
    assert len(table_candidates(TABLES, twelve, 1, 18, 10_000)) > len(suits)


def test_world_scores_follow_the_seeger_fabian_count() -> None:
    twelve = Cards("CJ SJ CA CT CK SA ST HA HT D7 D8 D9")  # clubs: with 2, game 3
    clubs = Contract(GameType.parse("C"))
    assert world_score(clubs, twelve, 18, 61) == 36 + 50
    assert world_score(clubs, twelve, 18, 90) == 48 + 50  # schneider
    assert world_score(clubs, twelve, 18, 60) == -2 * 36 - 90
    # at 48 only schneider reaches the bid: 89 points lose the overbid game's 48
    assert world_score(clubs, twelve, 48, 89) == -2 * 48 - 90
    assert world_score(clubs, twelve, 48, 90) == 48 + 50
    null = Contract(GameType.NULL)
    assert world_score(null, twelve, 18, 11) == 23 + 50
    assert world_score(null, twelve, 18, 10) == -2 * 23 - 90
    assert clubs.overbid_value(50) == 60 and matadors(GameType.parse("C"), twelve) == 2


def test_a_cold_grand_is_kept_and_scored_as_won_in_every_world() -> None:
    twelve = Cards("CJ SJ HJ DJ CA CT CK CQ C9 C8 SA ST")
    choice = search_declaration(TABLES, twelve, 0, 18, 4, 8, seed=3, solver=Solver(tt_mb=4))
    grand = Contract(GameType.GRAND)
    # every pick-up game wins with these cards, and grand with four is worth the most
    assert choice.contract == grand
    # won in every world: at least grand with four, game five (120), and 50
    assert choice.search_score is not None and choice.search_score >= 24 * 5 + 50


def test_the_search_is_the_mean_over_the_solvedsample_worlds() -> None:
    deal = Deal.random(11)
    twelve = deal.hands[0] | deal.skat
    shortlist = table_candidates(TABLES, twelve, 0, 18, 3, null=False)
    solver = Solver(tt_mb=4)
    choice = search_declaration(TABLES, twelve, 0, 18, 3, 6, seed=5, solver=solver, null=False)
    assert (choice.discard, choice.contract) in [(c.discard, c.contract) for c in shortlist]
    again = search_declaration(TABLES, twelve, 0, 18, 3, 6, seed=5, solver=solver, null=False)
    assert again == choice
    # the slow way: the same six worlds, each candidate solved one position at a time

    means = []
    for c in shortlist:
        total = 0.0
        for left, right in sample_worlds(twelve, 6, 5):
            pos = Position(
                (twelve - c.discard, left, right),
                c.contract,
                declarer=0,
                leader=0,
                declarer_points=c.discard.points,
            )
            total += world_score(c.contract, twelve, 18, Solver(tt_mb=1).solve(pos))
        means.append(total / 6)
    assert choice.search_score == pytest.approx(max(means))
    assert shortlist[means.index(max(means))].contract == choice.contract


def test_kermit_declares_by_search_when_asked() -> None:
    spec = "kermit:worlds=4,points=false,threads=1,declare=4,declare_worlds=6"
    for seed in range(6):
        game = play(
            [make_player(spec), make_player("rules"), make_player("rules")],
            Deal.random(seed),
            seed=seed,
        )
        assert game.is_over
    with pytest.raises(PlayerSpecError, match="declare"):
        make_player("kermit:declare=-1")
    with pytest.raises(PlayerSpecError, match="declare_worlds"):
        make_player("kermit:declare_worlds=0")
