"""Kuhn poker against OpenSpiel's ``kuhn_poker`` (skipped without the ``open_spiel`` package):
our CFR+ equilibrium, carried into an OpenSpiel policy, has OpenSpiel's value -1/18 and the
same NashConv as ours; OpenSpiel's CFR+ average policy, carried back, has our value and
exploitability as OpenSpiel measures them."""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import pytest

from skat.research.games import Game, exploitability, value
from skat.research.kuhn import kuhn_poker
from skat.research.solvers import cfr_plus

pyspiel = pytest.importorskip("pyspiel")
policy_lib = pytest.importorskip("open_spiel.python.policy")
os_cfr = pytest.importorskip("open_spiel.python.algorithms.cfr")
os_expl = pytest.importorskip("open_spiel.python.algorithms.exploitability")
os_score = pytest.importorskip("open_spiel.python.algorithms.expected_game_score")

# our moves -> OpenSpiel's: check and fold are its "p" (pass, action 0), bet and call "b" (1)
MOVE = {"c": "p", "f": "p", "b": "b", "k": "b"}


def state_key(card: int, history: str) -> str:
    """OpenSpiel's information state string of a Kuhn set: card, then the moves."""
    return f"{card}" + "".join(MOVE[m] for m in history)


def to_openspiel(game: Game, beh: tuple[np.ndarray, np.ndarray], os_game: Any) -> Any:
    tab = policy_lib.TabularPolicy(os_game)
    for p in (0, 1):
        for i, key in enumerate(game.set_keys[p]):
            card, history = cast(tuple[int, str], key)
            row = tab.state_lookup[state_key(card, history)]
            a = game.seqs[p].start[i]
            tab.action_probability_array[row] = [beh[p][a], beh[p][a + 1]]
    return tab


def from_openspiel(game: Game, tab: Any) -> tuple[np.ndarray, np.ndarray]:
    out = []
    for p in (0, 1):
        beh = np.ones(game.seqs[p].count)
        for i, key in enumerate(game.set_keys[p]):
            card, history = cast(tuple[int, str], key)
            probs = tab.action_probability_array[tab.state_lookup[state_key(card, history)]]
            a = game.seqs[p].start[i]
            beh[a], beh[a + 1] = probs[0], probs[1]
        out.append(beh)
    return out[0], out[1]


def test_our_equilibrium_in_openspiel() -> None:
    g = kuhn_poker()
    os_game = pyspiel.load_game("kuhn_poker")
    sol = cfr_plus(g, tolerance=1e-4)
    tab = to_openspiel(g, sol.beh, os_game)
    values = os_score.policy_value(os_game.new_initial_state(), [tab, tab])
    assert values[0] == pytest.approx(sol.value, abs=1e-9)
    assert values[0] == pytest.approx(-1 / 18, abs=1e-3)
    assert os_expl.nash_conv(os_game, tab) == pytest.approx(sol.exploitability, abs=1e-9)


def test_openspiel_cfr_in_our_framework() -> None:
    g = kuhn_poker()
    os_game = pyspiel.load_game("kuhn_poker")
    solver = os_cfr.CFRPlusSolver(os_game)
    for _ in range(300):
        solver.evaluate_and_update_policy()
    avg = solver.average_policy()
    beh = from_openspiel(g, avg)
    assert value(g, *beh) == pytest.approx(
        os_score.policy_value(os_game.new_initial_state(), [avg, avg])[0], abs=1e-9
    )
    assert exploitability(g, *beh) == pytest.approx(os_expl.nash_conv(os_game, avg), abs=1e-9)
    assert value(g, *beh) == pytest.approx(-1 / 18, abs=1e-2)
