"""The recursive Monte Carlo players ``iimc`` and ``rk`` and the engine ``Iimc``: legal play from
every seat, reproducibility, thread independence, the inner-spec grammar, and that a decision
depends on the deciding seat's view only (never on the hidden cards of the true deal)."""

from __future__ import annotations

import pytest

import skat
from skat._core import Iimc
from skat.players import PlayerSpecError, make_player
from skat.players.iimc import InnerSpec, parse_inner

SMALL = "iimc:worlds=2,inner=pimc:worlds=2,threads=1"


def play(specs: list[str], seed: int, variants: str = "") -> skat.Game:
    players = [make_player(s) for s in specs]
    g = skat.Game(skat.Deal.random(seed), variants=variants)
    for i, p in enumerate(players):
        p.new_game(seat=i, seed=seed)  # type: ignore[attr-defined]
    while not g.is_over:
        seat = g.to_move
        assert seat is not None
        g.apply(players[seat].act(g.view(seat)))  # an illegal card raises
    return g


def playing_game(seed: int, cards: int) -> skat.Game:
    """A game in card play after ``cards`` cards of the rules player (declared by it)."""
    rules = make_player("rules")
    for s in range(seed, seed + 50):
        g = skat.Game(skat.Deal.random(s))
        while not g.is_over and (g.phase != skat.Phase.PLAY or len(g.view(0).played) < cards):
            seat = g.to_move
            assert seat is not None
            g.apply(rules.act(g.view(seat)))
        if not g.is_over:
            return g
    raise AssertionError("no deal reached card play")


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_iimc_plays_legal_cards_from_every_seat(seat: int) -> None:
    for seed in range(3):
        specs = ["rules", "rules", "rules"]
        specs[seat] = SMALL
        g = play(specs, seed * 3 + seat)
        assert g.result is not None


def test_rk_and_nested_levels_play_whole_games() -> None:
    g = play(["rk:n=2,m=2,threads=1,inner_candidates=20,candidates=50", SMALL, "rules"], 4)
    assert g.result is not None
    nested = "iimc:worlds=2,inner=iimc:worlds=1;inner=pimc:worlds=1,threads=1"
    g = play([nested, "rules", "rules"], 5)
    assert g.result is not None


def test_kontra_and_re_at_a_table_with_doubling() -> None:
    """With thresholds 0 the players double whenever they may (and go on playing from worlds
    rebuilt with the doubling in their history); above 1 never."""
    always = ["rk:n=2,m=2,threads=1,kontra=0,re=0", f"{SMALL},kontra=0,re=0"]
    doubled = 0
    for seed in range(4):
        g = play([always[0], always[1], always[seed % 2]], 20 + seed, variants="kontra")
        assert g.result is not None
        kinds = [a.kind for _, a in g.history]
        if g.result.declarer is not None and g.contract is not None and g.tricks:
            assert "kontra" in kinds and "re" in kinds, g.to_iss()
            assert g.result.kontra == 2
            doubled += 1
    assert doubled >= 2
    never = ["rk:n=2,m=2,threads=1,kontra=1.01,re=1.01", f"{SMALL},kontra=1.01,re=1.01", "rules"]
    g = play(never, 21, variants="kontra")
    kinds = [a.kind for s, a in g.history if s in (0, 1)]
    assert "kontra" not in kinds and "re" not in kinds


def test_games_reproduce_with_a_seed() -> None:
    specs = [SMALL, "rules", "iimc:worlds=2,inner=kermit:worlds=2;candidates=30,threads=1"]
    assert play(specs, 11).to_iss() == play(specs, 11).to_iss()


def test_decisions_do_not_depend_on_threads() -> None:
    g = playing_game(20, 12)
    view = g.view(g.to_move or 0)
    one = Iimc(worlds=3, inner=[2], threads=1).decide(view, seed=5)
    two = Iimc(worlds=3, inner=[2], threads=2).decide(view, seed=5)
    assert [(v.card, v.score, v.win) for v in one.values] == [
        (v.card, v.score, v.win) for v in two.values
    ]
    legal = {a.card for a in view.legal_actions()}
    assert {v.card for v in one.values} == legal
    if len(legal) > 1:
        assert one.worlds == 3 and one.playouts == 3 * len(legal)
        # a score is the declarer's Seeger-Fabian score with the side's sign: never 0 points
        assert all(v.score != 0 or v.win == 0 for v in one.values)


def _swap_hidden(g: skat.Game, seat: int) -> skat.Game | None:
    """The same game from a deal in which two unplayed cards of the same follow group change
    hands between the two other seats: every action stays legal and ``seat`` sees the same."""
    a, b = [s for s in range(3) if s != seat]
    contract = g.contract
    assert contract is not None
    gt = contract.game_type
    dealt = g.deal.hands
    for ca in g.hands[a] & dealt[a]:
        for cb in g.hands[b] & dealt[b]:
            if len(skat.legal_cards(gt, [ca, cb], ca)) == 2:  # the same follow group
                hands = list(g.deal.hands)
                hands[a] = hands[a] - [ca] | [cb]
                hands[b] = hands[b] - [cb] | [ca]
                other = skat.Game(skat.Deal((hands[0], hands[1], hands[2]), g.deal.skat))
                for _, action in g.history:
                    other.apply(action)
                return other
    return None


def test_a_decision_depends_on_the_view_only() -> None:
    checked = 0
    for seed in range(30, 40):
        g = playing_game(seed, 7)
        seat = g.to_move
        assert seat is not None
        other = _swap_hidden(g, seat)
        if other is None:
            continue
        assert other.hands != g.hands
        view, view2 = g.view(seat), other.view(seat)
        assert view.hand == view2.hand and view.played == view2.played
        engine = Iimc(worlds=3, inner=[2], threads=1)
        d1, d2 = engine.decide(view, seed=1), engine.decide(view2, seed=1)
        assert [(v.card, v.score) for v in d1.values] == [(v.card, v.score) for v in d2.values]
        checked += 1
    assert checked >= 3
    with pytest.raises(TypeError):
        Iimc(worlds=1, inner=[1]).decide(g, seed=1)  # type: ignore[arg-type]


def test_bad_counts_and_a_hidden_card_raise_skat_errors() -> None:
    # 2**40 worlds at any level had the process abort on a failed allocation
    for kw in ({"worlds": 2**40}, {"inner": [2**40]}, {"inner": [2, 2**40]}):
        with pytest.raises(skat.ArgumentError, match="at most"):
            Iimc(**kw)
    # a record's hidden card ("??") leaves the seat to move no card: a panic before
    g = playing_game(3, 4)
    seat = g.to_move
    assert seat is not None
    g.apply("??", seat=seat)
    with pytest.raises(skat.PositionError, match="no card"):
        Iimc(worlds=2, inner=[1]).decide(g.view(seat))
    # a time budget beyond what the clock can hold panicked; it never runs out
    late = playing_game(3, 21)
    seat = late.to_move
    assert seat is not None
    assert Iimc(worlds=2, inner=[1], seconds=1e300).decide(late.view(seat)).worlds >= 1


def test_inner_specs() -> None:
    assert parse_inner("pimc:worlds=10") == InnerSpec(levels=(10,))
    assert parse_inner("kermit:worlds=5;points=true;candidates=40") == InnerSpec(
        levels=(5,), points=True, inference=True, candidates=40
    )
    r3 = parse_inner("iimc:worlds=4;inner=iimc:worlds=3;;inner=pimc:worlds=2")
    assert r3.levels == (4, 3, 2)
    for bad in ("nobody:worlds=3", "pimc:worlds=0", "pimc:inner=x", "pimc", "pimc:points=maybe"):
        with pytest.raises(PlayerSpecError):
            parse_inner(bad)
    with pytest.raises(PlayerSpecError):
        make_player("iimc:worlds=0")
    with pytest.raises(PlayerSpecError):
        make_player("rk:n=0")
    with pytest.raises(skat.SkatError):
        Iimc(worlds=2, inner=[])


def test_a_time_budget_plays_whole_worlds() -> None:
    g = playing_game(60, 3)
    view = g.view(g.to_move or 0)
    legal = view.legal_actions()
    d = Iimc(worlds=50, inner=[2], seconds=1e-6).decide(view, seed=2)
    assert d.best in {a.card for a in legal}
    if len(legal) > 1:
        assert 1 <= d.worlds <= 50 and d.playouts == d.worlds * len(legal)
