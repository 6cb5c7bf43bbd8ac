"""Player specs, the registry, bringing your own player class, and the random player."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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


def test_an_option_given_twice_is_refused() -> None:
    for spec in ("pimc:worlds=4,worlds=5", "rules:aggression=0.5, aggression =1"):
        with pytest.raises(PlayerSpecError, match=r"option (worlds|aggression) is given twice"):
            make_player(spec)
    with pytest.raises(PlayerSpecError, match="option worlds is given twice"):
        make_player("iimc:inner=pimc:worlds=4;worlds=5,threads=1")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("pimc:threads=257", "option threads must be in 1..256, got 257"),
        ("iimc:threads=300", "option threads must be in 1..256, got 300"),
        ("pimc:seconds=0", "option seconds must be more than 0.0, got 0.0"),
        ("kermit:seconds=-1,threads=1", "option seconds must be more than 0.0, got -1.0"),
        ("kermit:declare_worlds=100000000000", "option declare_worlds must be in 1..100000"),
        ("kermit:declare=-1", "option declare must be at least 0, got -1"),
        ("softmaxn:soft_worlds=0", "option soft_worlds must be in 1..100000, got 0"),
        ("rk:n=0", "option n must be in 1..100000, got 0"),
        ("rk:m=100001", "option m must be in 1..100000, got 100001"),
        ("rk:inner_candidates=0", "option inner_candidates must be in 1..10000000, got 0"),
        ("rules:aggression=-5", "option aggression must be in -1.0..10.0, got -5"),
        ("rules:aggression=1e308", "option aggression must be in -1.0..10.0, got 1e+308"),
    ],
)
def test_out_of_range_options_are_named_as_written(spec: str, message: str) -> None:
    """The spec layer knows the engines' limits, so the message names the option the user
    wrote and what it accepts (not another option, not an engine's 'invalid position')."""
    with pytest.raises(PlayerSpecError) as info:
        make_player(spec)
    text = str(info.value)
    assert message in text and "\n" not in text and "invalid position" not in text


def test_the_default_thread_count_fits_the_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SKAT_THREADS", "500")  # as a tournament sets it on a big machine
    for spec in ("pimc:worlds=2", "iimc:worlds=2", "rk:n=2,m=2"):
        player = make_player(spec)
        assert player.engine.threads == 256  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("source", "why"),
    [
        ("class Bot(\n", "SyntaxError: '(' was never closed (line 1)"),
        ("raise RuntimeError('boom')\n", "RuntimeError: boom"),
        ("import no_such_module_for_skat\n", "No module named 'no_such_module_for_skat'"),
        ("import sys\nsys.exit(3)\n", "SystemExit: 3"),
    ],
)
def test_a_player_file_that_fails_to_load(tmp_path: Path, source: str, why: str) -> None:
    f = tmp_path / "bot.py"
    f.write_text(source)
    with pytest.raises(PlayerSpecError) as info:
        make_player(f"{f}:Bot")
    assert str(info.value) == f"player spec '{f}:Bot': cannot load {f}: {why}"
    # nothing half-loaded stays behind: the repaired file loads
    f.write_text("class Bot:\n    def act(self, view):\n        return view.legal_actions()[0]\n")
    assert type(make_player(f"{f}:Bot")).__name__ == "Bot"


def test_odd_spec_shapes() -> None:
    for spec in (".:Thing", ".relative:Thing"):
        with pytest.raises(PlayerSpecError, match="cannot import"):
            make_player(spec)
    not_text: list[Any] = [None, 3, ["rules"]]
    for thing in not_text:
        with pytest.raises(PlayerSpecError, match="a player spec is text"):
            make_player(thing)
    # blanks around the name, the class and the options are ignored, as around the spec
    assert type(make_player(" rules : aggression = 0.5 ")).__name__ == "RulesPlayer"
    mybot = Path(__file__).resolve().parents[1] / "examples" / "mybot.py"
    assert type(make_player(f"{mybot} : MyBot")).__name__ == "MyBot"
