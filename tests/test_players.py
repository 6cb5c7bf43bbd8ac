"""Player specs, the registry, bringing your own player class, and the random player."""

from __future__ import annotations

from pathlib import Path

import pytest

import skat
from skat.players import PlayerSpecError, RandomPlayer, available_players, make_player


def play_game(players: list[skat.players.Player], seed: int) -> skat.Game:
    g = skat.Game(skat.Deal.random(seed))
    for i, p in enumerate(players):
        hook = getattr(p, "new_game", None)
        if hook is not None:
            hook(seat=i, seed=seed)
    while not g.is_over:
        seat = g.to_move
        assert seat is not None
        g.apply(players[seat].act(g.view(seat)))
    return g


def test_registered_players_and_options() -> None:
    assert "random" in available_players()
    p = make_player("random:seed=3")
    assert isinstance(p, RandomPlayer) and p.seed == 3
    with pytest.raises(PlayerSpecError, match=r"available: .*random"):
        make_player("nobody")
    with pytest.raises(PlayerSpecError, match="options: seed"):
        make_player("random:worlds=10")
    with pytest.raises(PlayerSpecError, match="key=value"):
        make_player("random:seed")
    assert issubclass(PlayerSpecError, skat.SkatError)


@pytest.mark.parametrize("name", ["kermit", "mistake", "softmaxn", "tracker", "count"])
def test_the_kermit_family_shares_the_unopposed_option(name: str) -> None:
    from skat.defaults import KERMIT_UNOPPOSED
    from skat.players.kermit import KermitPlayer

    def unopposed(options: str) -> float | None:
        player = make_player(f"{name}:{options}worlds=2,threads=1")
        assert isinstance(player, KermitPlayer)
        return player.unopposed

    assert unopposed("") == KERMIT_UNOPPOSED
    assert unopposed("unopposed=none,") is None
    assert unopposed("unopposed=0.45,") == 0.45
    for bad in ("unopposed=2,", "unopposed=often,"):
        with pytest.raises(PlayerSpecError):
            unopposed(bad)
    # an option no class of the family takes is named with the whole family's options
    with pytest.raises(PlayerSpecError, match=r"unknown option\(s\) often; options: .*worlds"):
        unopposed("often=1,")


def test_recursive_kermit_passes_unopposed_to_its_bidder() -> None:
    from skat.defaults import KERMIT_UNOPPOSED
    from skat.players.iimc import RecursiveKermitPlayer

    for options, expected in (("", KERMIT_UNOPPOSED), (",unopposed=none", None)):
        player = make_player(f"rk:n=2,m=2,threads=1{options}")
        assert isinstance(player, RecursiveKermitPlayer)
        assert player.kermit.unopposed == expected


def test_player_classes_from_modules_and_files(tmp_path: Path) -> None:
    p = make_player("skat.players.random_player:RandomPlayer:seed=5")
    assert isinstance(p, RandomPlayer) and p.seed == 5
    f = tmp_path / "mine.py"
    f.write_text(
        "class FirstLegal:\n"
        "    def __init__(self, greedy=False):\n"
        "        self.greedy = greedy\n"
        "    def act(self, view):\n"
        "        return view.legal_actions()[-1 if self.greedy else 0]\n"
    )
    mine = make_player(f"{f}:FirstLegal:greedy=true")
    assert getattr(mine, "greedy", None) is True
    g = play_game([mine, make_player("random"), make_player(f"{f}:FirstLegal")], seed=4)
    assert g.is_over
    with pytest.raises(PlayerSpecError, match="no class"):
        make_player(f"{f}:Missing")
    with pytest.raises(PlayerSpecError, match="cannot import"):
        make_player("no_such_package.mod:Thing")
    with pytest.raises(PlayerSpecError, match="no file"):
        make_player("missing/file.py:Thing")


def test_random_players_only_play_legal_moves_and_reproduce() -> None:
    for seed in range(300):
        players = [make_player(f"random:seed={s}") for s in range(3)]
        g = play_game(players, seed)  # an illegal move would raise IllegalActionError
        assert g.result is not None
        again = play_game([make_player(f"random:seed={s}") for s in range(3)], seed)
        assert again.to_iss() == g.to_iss()


def test_rules_player_plays_legal_moves_in_every_phase() -> None:
    contracts: set[str] = set()
    for seed in range(1000):
        specs = (
            ["rules", "rules", "rules"] if seed % 2 else ["rules", f"random:seed={seed}", "rules"]
        )
        g = play_game([make_player(s) for s in specs], seed)
        assert g.result is not None
        if g.contract is not None:
            contracts.add(g.contract.game_type.letter)
    assert {"C", "S", "H", "D", "G"} <= contracts


def test_rules_player_wins_most_of_its_own_games() -> None:
    won = played = 0
    for seed in range(300):
        g = play_game([make_player("rules") for _ in range(3)], seed)
        r = g.result
        assert r is not None
        if r.declarer is not None:
            played += 1
            won += int(r.won)
    assert played > 200 and won / played > 0.6
