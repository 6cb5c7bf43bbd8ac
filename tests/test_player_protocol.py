"""The player protocol of docs/player-protocol.md: the example bot plugs into tournaments.

The example ``examples/mybot.py`` is run the way the page says, through the ``skat``
command, and played in every phase (``--mode full`` and games of three copies) with every
answer checked legal by the match loop.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import skat
from skat.match import play
from skat.players import Player, make_player

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = "examples/mybot.py:MyBot"


def test_the_documented_command_runs(tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    args = ["tournament", EXAMPLE, "rules", "--deals", "4", "--seed", "1", "--json", str(out)]
    done = subprocess.run(
        [sys.executable, "-m", "skat.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text())
    assert result["errors"] == [] and result["deals_played"] == 4
    assert sorted(result["players"]) == [EXAMPLE, "rules"]


def test_the_example_answers_every_phase_legally() -> None:
    bot = make_player(f"{ROOT / 'examples' / 'mybot.py'}:MyBot:limit=40")
    assert isinstance(bot, Player)
    kinds: set[str] = set()
    declared = 0
    for seed in range(30):
        players = [make_player(f"{ROOT / 'examples' / 'mybot.py'}:MyBot") for _ in range(3)]
        game = play(players, skat.Deal.random(seed), seed=seed)  # PlayerFailure if illegal
        assert game.is_over
        kinds |= {a.kind for _, a in game.history}
        declared += game.result is not None and game.result.declarer is not None
    assert {"bid", "pass", "pickup", "discard", "declare", "play"} <= kinds
    assert declared > 5
