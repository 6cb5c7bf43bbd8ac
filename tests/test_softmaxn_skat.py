"""The ``softmaxn`` Skat player: soft-max^n in PIMC's worlds for the endgame."""

from __future__ import annotations

import pytest

from skat import Deal, Game, SkatError
from skat._core import GameType, Phase, View, softmaxn_decide
from skat.match import play
from skat.players import SoftmaxnPlayer, make_player
from skat.research.softmaxn import study, true_kinds
from skat.tournament import run
from tests.reference_softmaxn import card_values

FAST = "worlds=4,points=false,candidates=50,threads=1,soft_worlds=3,endgame=3"


def endgame_views(per_hand: int, games: int) -> list[View]:
    """Views of the seat to move in suit and grand games once hands hold ``per_hand`` cards."""
    views = []
    for seed in range(games):
        players = [make_player("rules") for _ in range(3)]
        game = play(players, Deal.random(seed), seed=seed, until=Phase.PLAY)
        if game.is_over or game.contract is None or game.contract.game_type == GameType.NULL:
            continue
        while not game.is_over and 10 - len(game.tricks) > per_hand:
            game.apply(game.legal_cards().sorted()[0])
        if not game.is_over:
            views.append(game.view(game.to_move or 0))
    return views


def test_values_match_the_pure_python_reference() -> None:
    checked = 0
    for view in endgame_views(3, 30):
        assert view.declarer is not None
        declarer = view.seat == view.declarer
        for kind in ("win", "points") if declarer else ("team", "min", "greedy"):
            d = softmaxn_decide(view, 3, seed=11, endgame=3, kind=kind, infer=False)
            models = {
                s: ("win", "points") if s == view.declarer else ("min", "greedy")
                for s in range(3)
                if s != view.seat
            }
            ref = card_values(view, 3, 11, kind, models)
            zero_sum = {
                s: ("points",) if s == view.declarer else ("min",)
                for s in range(3)
                if s != view.seat
            }
            control = softmaxn_decide(view, 3, seed=11, endgame=3, kind=kind, generic=False)
            for card, value in card_values(view, 3, 11, kind, zero_sum).items():
                assert dict(control["values"])[card] == pytest.approx(value, abs=1e-9)
            got = dict(d["values"])
            assert got.keys() == ref.keys()
            for card, value in ref.items():
                assert got[card] == pytest.approx(value, abs=1e-9)
            best = max(got.values())
            assert got[d["best"]] == best
            checked += 1
    assert checked >= 20


def test_refuses_what_it_does_not_search() -> None:
    view = endgame_views(3, 10)[0]
    with pytest.raises(SkatError):
        softmaxn_decide(view, 3, endgame=2)
    with pytest.raises(SkatError):
        softmaxn_decide(view, 3, kind="nice")
    wrong = "greedy" if view.seat == view.declarer else "points"
    with pytest.raises(SkatError):
        softmaxn_decide(view, 3, kind=wrong)
    with pytest.raises(SkatError):
        softmaxn_decide(view, 0)
    with pytest.raises(SkatError, match="at most"):
        softmaxn_decide(view, 2**40)  # a failed allocation aborted the process
    game = Game(Deal.random(1))
    with pytest.raises(SkatError):
        softmaxn_decide(game.view(0), 3)


def test_player_options_are_checked() -> None:
    bad_options = ("endgame=0", "endgame=11", "declarer=greedy", "defender=win", "soft_worlds=0")
    for bad in (*bad_options, "models=paranoid"):
        with pytest.raises(SkatError):
            make_player(f"softmaxn:{bad}")
    p = make_player(f"softmaxn:{FAST},declarer=points,defender=greedy,infer=false")
    assert isinstance(p, SoftmaxnPlayer)
    assert (p.endgame, p.declarer, p.defender, p.infer) == (3, "points", "greedy", False)


def test_plays_legal_full_games_in_a_tournament_reproducibly() -> None:
    a, b = f"softmaxn:{FAST}", f"kermit:{FAST.rsplit(',', 2)[0]}"
    first = run(a, b, mode="full", deals=3, seed=5, workers=1)
    again = run(a, b, mode="full", deals=3, seed=5, workers=1)
    assert first.errors == [] and len(first.outcomes) == 3
    assert [o.games for o in first.outcomes] == [o.games for o in again.outcomes]


def test_the_inference_study_counts_each_opponent_game() -> None:
    opp = f"softmaxn:{FAST},defender=greedy,declarer=points,infer=false"
    r = study(f"softmaxn:{FAST}", [opp], 3, seed=2, workers=1)
    (lineup,) = r["lineups"]
    assert lineup["true"] == {"declarer": "points", "defender": "greedy"}
    for role, c in lineup["counts"].items():
        assert c["true_kind"] == lineup["true"][role]
        for n in c["ruled_out"].values():
            assert 0 <= n <= c["opponent_games"]
    with pytest.raises(ValueError):
        true_kinds("kermit")
    with pytest.raises(ValueError):
        true_kinds(f"softmaxn:{FAST}")
