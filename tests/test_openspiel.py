"""The OpenSpiel game ``python_skat``: loading, chance, strings and tensors, resampling,
serializing and pickling states, OpenSpiel's own checks for a game, and OpenSpiel's random and
ISMCTS bots playing to the end.

Skips with one line when OpenSpiel is not installed (``pip install 'skat[openspiel]'``). The
hundred games of the acceptance run are ``python -m skat.openspiel --games 100`` (see
docs/environments.md); here a few games each.
"""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest

import skat
from skat import encoding as enc

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel not installed (pip install 'skat[openspiel]')"
)
skat_openspiel = pytest.importorskip("skat.openspiel")

DEALT_AND_FIVE = skat_openspiel.DEALT + 5
"""A point in the auction: the whole deal and five bids or answers."""


def _game() -> Any:
    return pyspiel.load_game("python_skat")


def _dealt(seed: int) -> Any:
    """A state after the deal, chance drawn from ``seed``."""
    state = _game().new_initial_state()
    rng = np.random.RandomState(seed)
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    return state


def test_loads_with_its_sizes() -> None:
    game = _game()
    assert game.num_players() == 3
    assert game.num_distinct_actions() == enc.NUM_ACTIONS == 623
    assert game.max_chance_outcomes() == 32
    assert game.observation_tensor_size() == enc.OBSERVATION_SIZE
    assert game.min_utility() == enc.MIN_SCORE and game.max_utility() == enc.MAX_SCORE
    info = game.get_type()
    assert info.short_name == "python_skat"
    assert info.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


def test_the_deal_is_chance_and_matches_the_engine() -> None:
    state = _game().new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 32
    assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
    deal = skat.Deal.random(seed=7)
    for hand in deal.hands:
        for card in hand:
            state.apply_action(card.index)
    assert not state.is_chance_node() and state.current_player() == 1
    assert state.skat_game.deal == deal
    engine = skat.Game(deal)
    assert state.legal_actions() == enc.legal_indices(engine)
    assert state.information_state_string(1) == enc.information_state(engine.view(1))
    assert state.observation_string(2) == enc.describe(engine.view(2))
    assert np.array_equal(np.array(state.observation_tensor(0)), enc.observation(engine.view(0)))


def test_resampled_states_look_the_same_to_the_player() -> None:
    sampler = pyspiel.UniformProbabilitySampler(5, 0.0, 1.0)
    rng = np.random.RandomState(3)
    checked = 0
    for seed in range(6):
        state = _dealt(seed)
        while not state.is_terminal():
            player = state.current_player()
            other = state.resample_from_infostate(player, sampler)
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.legal_actions() == state.legal_actions()
            checked += other.skat_game.deal != state.skat_game.deal
            state.apply_action(int(rng.choice(state.legal_actions())))
        assert state.returns() == [float(s) for s in state.skat_game.result.scores]
    assert checked > 50


def test_clone_is_independent() -> None:
    state = _dealt(1)
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert state.history() != copy.history()
    assert len(state.skat_game.history) == 0


def _copies(game: Any, state: Any) -> list[Any]:
    """``state`` stored and loaded in each of OpenSpiel's ways: with its game
    (``pyspiel.serialize_game_and_state``), alone (``state.serialize()``) and pickled."""
    _, loaded = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    return [loaded, game.deserialize_state(state.serialize()), pickle.loads(pickle.dumps(state))]


def test_states_serialize_and_pickle_at_every_step() -> None:
    """OpenSpiel stores a Python state's attributes with pickle; every state, from the deal to
    the end, comes back the same, and a copy made during play plays on to the same end."""
    game = _game()
    rng = np.random.RandomState(6)
    state = game.new_initial_state()
    resumed: list[Any] = []
    while True:
        for copy in _copies(game, state):
            assert type(copy) is type(state)
            assert str(copy) == str(state) and copy.history() == state.history()
            assert copy.current_player() == state.current_player()
            assert copy.returns() == state.returns()
            if not (state.is_chance_node() or state.is_terminal()):
                assert copy.legal_actions() == state.legal_actions()
                seen = [copy.information_state_string(p) for p in range(3)]
                assert seen == [state.information_state_string(p) for p in range(3)]
        if len(state.history()) == DEALT_AND_FIVE:
            resumed = _copies(game, state)
        if state.is_terminal():
            break
        if state.is_chance_node():
            action = int(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            action = int(rng.choice(state.legal_actions()))
        for copy in resumed:
            copy.apply_action(action)
        state.apply_action(action)
    scores = [float(s) for s in state.skat_game.result.scores]
    assert len(resumed) == 3 and state.returns() == scores
    for copy in resumed:
        assert copy.is_terminal() and str(copy) == str(state) and copy.returns() == scores


def test_openspiel_random_simulation_check_passes() -> None:
    """OpenSpiel's check for a new game: random games with cloning, serialization and returns
    checked at every step."""
    pyspiel.random_sim_test(_game(), num_sims=20, serialize=True, verbose=False)


def test_openspiel_simulation_test_suite_passes() -> None:
    """The simulation test OpenSpiel runs on each of its own games: game, game type and state
    pickles, serialization and clones along random games."""
    sim = pytest.importorskip("open_spiel.python.tests.games_sim_test")
    np.random.seed(3)  # the test draws from numpy's global generator
    for _ in range(10):
        sim.GamesSimTest().sim_game(_game())


def test_random_bots_play_to_the_end() -> None:
    game = _game()
    for g in range(20):
        bots = [pyspiel.make_uniform_random_bot(p, 10 * g + p) for p in range(3)]
        returns = skat_openspiel.play_game(game, bots, np.random.RandomState(g))
        assert len(returns) == 3 and all(enc.MIN_SCORE <= r <= enc.MAX_SCORE for r in returns)


def test_ismcts_bot_plays_to_the_end() -> None:
    results = skat_openspiel.play_bots(games=3, simulations=8, seed=4)
    assert len(results) == 3
    for returns in results:
        assert all(enc.MIN_SCORE <= r <= enc.MAX_SCORE for r in returns)
    assert skat_openspiel.play_bots(games=3, simulations=8, seed=4) == results


def test_the_command_checks_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        skat_openspiel.main(["--games", "0"])
    assert "expected at least 1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        skat_openspiel.main(["--games", "1", "--json", "/nonexistent-dir/x.json"])
    assert "--json: no directory" in capsys.readouterr().err
    assert skat_openspiel.main(["--games", "1", "--simulations", "2"]) == 0
    assert '"finished": 1' in capsys.readouterr().out


def test_outcome_sampling_mccfr_runs_on_the_full_game() -> None:
    """A sampling CFR (tabular over information-state strings) iterates on full Skat; its
    average policy is a distribution over the legal actions."""
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    np.random.seed(2)  # OpenSpiel's solver draws from numpy's global generator
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(_game())
    for _ in range(5):
        solver.iteration()
    state = _dealt(2)
    probs = solver.average_policy().action_probabilities(state)
    assert sorted(probs) == state.legal_actions()
    assert sum(probs.values()) == pytest.approx(1.0)
