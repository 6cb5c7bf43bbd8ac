"""The shared action and observation encoding, and the PettingZoo environment built on it.

The encoding tests need nothing optional. The environment tests skip with one line when
PettingZoo is not installed (``pip install 'skat[env]'``); they run PettingZoo's own
``api_test`` and ``seed_test`` and play random full games through the action masks.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import skat
from skat import encoding as enc

PETTINGZOO_MISSING = "pettingzoo not installed (pip install 'skat[env]')"


def _pettingzoo() -> Any:
    return pytest.importorskip("pettingzoo", reason=PETTINGZOO_MISSING)


def _random_games(n: int, seed: int) -> list[list[skat.Action]]:
    """Action sequences of ``n`` random games that get past the auction more often than not
    (a pass is redrawn once)."""
    rng = random.Random(seed)
    games = []
    for i in range(n):
        game = skat.Game(skat.Deal.random(seed * 1000 + i))
        while not game.is_over:
            legal = game.legal_actions()
            action = rng.choice(legal)
            if action.kind == "pass":
                action = rng.choice(legal)
            game.apply(action)
        games.append([a for _, a in game.history])
    return games


def _positions(n: int, seed: int) -> list[skat.Game]:
    """Every position before the end of ``n`` random games."""
    out = []
    for i, actions in enumerate(_random_games(n, seed)):
        game = skat.Game(skat.Deal.random(seed * 1000 + i))
        for action in actions:
            out.append(game.copy())
            game.apply(action)
    return out


# ----- the encoding ----------------------------------------------------------------------------


def test_action_indices_are_a_bijection() -> None:
    tokens = [str(enc.action_of(i)) for i in range(enc.NUM_ACTIONS)]
    assert len(set(tokens)) == enc.NUM_ACTIONS == 32 + 63 + 3 + 29 + 496
    assert all(enc.action_index(enc.action_of(i)) == i for i in range(enc.NUM_ACTIONS))
    assert enc.action_index(skat.Action("SJ.CA")) == enc.action_index(skat.Action("CA.SJ"))
    for bad in (-1, enc.NUM_ACTIONS):
        with pytest.raises(skat.IllegalActionError):
            enc.action_of(bad)
    with pytest.raises(skat.IllegalActionError):
        enc.action_index(skat.Action("G.CK.CQ"))  # declares and lays away at once


def test_every_legal_action_of_random_games_has_its_index() -> None:
    kinds: set[str] = set()
    for game in _positions(40, seed=1):
        legal = game.legal_actions()
        indices = enc.legal_indices(game)
        assert len(set(indices)) == len(legal)
        assert {str(enc.action_of(i)) for i in indices} == {str(a) for a in legal}
        mask = enc.action_mask(game)
        assert mask.dtype == np.int8 and list(np.flatnonzero(mask)) == indices
        kinds |= {a.kind for a in legal}
    assert kinds == {"bid", "hold", "pass", "pickup", "discard", "declare", "play"}


def test_observation_never_leaks_hidden_cards() -> None:
    """A deal the seat cannot tell apart (other hands, skat and discard redrawn) encodes the
    same for that seat; the redrawn deals do differ in the hidden cards."""
    rng = random.Random(5)
    differ = 0
    positions = _positions(12, seed=2)
    for game in positions:
        for seat in range(3):
            view = game.view(seat)
            deal, discard = enc.indistinguishable_deal(view, seed=rng.randrange(1 << 30))
            other = enc.replay(view, deal, discard)
            twin = other.view(seat)
            assert view.hand.issubset(deal.hands[seat] | (view.skat or skat.Cards()))
            assert np.array_equal(enc.observation(view), enc.observation(twin))
            assert enc.information_state(view) == enc.information_state(twin)
            assert enc.describe(view) == enc.describe(twin)
            if seat == game.to_move:
                assert enc.legal_indices(view) == enc.legal_indices(twin)
            others = [s for s in range(3) if s != seat]
            differ += any(game.hands[s] != other.hands[s] for s in others)
    assert differ > 0.9 * 3 * len(positions)


def test_observation_shows_what_the_seat_knows() -> None:
    game = skat.Game(skat.Deal.random(seed=7))
    for token in ["18", "y", "p", "p", "s", "CA.SK", "G", "D7", "DK"]:
        game.apply(token)
    declarer, defender = game.view(0), game.view(1)
    od, of = enc.observation(declarer), enc.observation(defender)
    assert od.shape == (enc.OBSERVATION_SIZE,) and od.dtype == np.float32
    assert set(np.unique(od[enc.segment("hand")])) <= {0.0, 1.0}
    assert of[enc.segment("hand")].sum() == 9 and od[enc.segment("hand")].sum() == 9
    assert od[enc.segment("skat")].sum() == 2 and of[enc.segment("skat")].sum() == 0
    assert od[enc.segment("discard")].sum() == 2 and of[enc.segment("discard")].sum() == 0
    played = of[enc.segment("played")].reshape(3, 32)
    assert played[0, skat.Card("D7").index] == 1 and played[1, skat.Card("DK").index] == 1
    # the observations of two seats of one game differ: the hands are theirs
    assert not np.array_equal(od[enc.segment("hand")], of[enc.segment("hand")])
    assert enc.information_state(declarer) != enc.information_state(defender)


def test_resampling_after_the_game_is_refused() -> None:
    game = skat.Game(skat.Deal.random(seed=1))
    for token in ["p", "p", "p"]:
        game.apply(token)
    with pytest.raises(skat.PositionError):
        enc.indistinguishable_deal(game.view(0), seed=1)


# ----- the PettingZoo environment ----------------------------------------------------------------


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
def test_pettingzoo_api_test() -> None:
    _pettingzoo()
    from pettingzoo.test import api_test, seed_test

    from skat.env import env

    api_test(env(), num_cycles=1000)
    seed_test(env, num_cycles=200)


def test_random_full_games_through_the_masks() -> None:
    _pettingzoo()
    from skat.env import env

    e = env()
    rng = np.random.default_rng(3)
    played = 0
    for k in range(20):
        e.reset(seed=100 + k)
        game = e.unwrapped.game
        totals = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            totals[agent] += reward
            if terminated or truncated:
                e.step(None)
                continue
            mask = obs["action_mask"]
            assert agent == f"player_{game.to_move}"
            assert list(np.flatnonzero(mask)) == enc.legal_indices(game)
            legal = np.flatnonzero(mask)
            action = int(rng.choice(legal))
            if action == enc.PASS and rng.random() < 0.5:
                action = int(rng.choice(legal))
            e.step(action)
        assert game.is_over and not e.agents
        result = game.result
        assert result is not None
        assert [totals[a] for a in e.possible_agents] == [float(s) for s in result.scores]
        played += result.declarer is not None
    assert played > 5


def test_illegal_actions_raise_and_change_nothing() -> None:
    _pettingzoo()
    from skat.env import env

    e = env()
    e.reset(seed=1)
    before = e.unwrapped.game.to_iss()
    with pytest.raises(skat.IllegalActionError):
        e.step(enc.HOLD)  # nothing to hold yet
    with pytest.raises(skat.IllegalActionError):
        e.step(enc.NUM_ACTIONS)
    assert e.unwrapped.game.to_iss() == before
    e.reset(seed=1)
    assert e.unwrapped.game.deal == skat.Game.from_iss(before).deal


def _state(e: Any) -> tuple[Any, ...]:
    u = e.unwrapped
    return (
        u.game.to_iss(),
        u.agent_selection,
        list(u.agents),
        dict(u.rewards),
        dict(u._cumulative_rewards),
        dict(u.terminations),
        u._seed,
        u._resets,
    )


def test_actions_of_the_wrong_type_raise_and_change_nothing() -> None:
    """Only integers are actions: a float is not truncated to a card (1.5 was D8), a string,
    a bool or None for the agent to act is refused like an illegal index."""
    _pettingzoo()
    from skat.env import env

    e = env()
    e.reset(seed=3)  # player_1 to bid; D8 (index 1) is not legal, a pass (96) is
    before = _state(e)
    bad = [1.5, 96.0, np.float64(96.0), float("nan"), float("inf"), "96", True, None, [96]]
    bad += [np.array([96]), skat.Action("p"), -1, 2**70]
    for action in bad:
        with pytest.raises(skat.IllegalActionError) as info:
            e.step(action)
        assert "\n" not in str(info.value)
        assert _state(e) == before, action
    for action in (np.int64(enc.PASS), np.array(enc.PASS, dtype=np.uint16)):
        e.reset(seed=3)
        e.step(action)  # NumPy integers are integers
        assert e.agent_selection == "player_2"


def test_stepping_finished_agents_and_games() -> None:
    _pettingzoo()
    from skat.env import env, raw_env

    e = env()
    e.reset(seed=2)
    for _ in range(3):
        e.step(enc.PASS)  # everybody passes: the game is over, the agents still listed
    assert all(e.terminations.values()) and e.agents
    before = _state(e)
    with pytest.raises(skat.IllegalActionError, match="only action is None"):
        e.step(enc.PASS)
    assert _state(e) == before
    raw = e.unwrapped
    while raw.agents:
        raw.step(None)
    with pytest.raises(skat.IllegalActionError, match="reset"):
        raw.step(None)
    # a raw environment is consistent before its first reset, on the deal that reset deals
    fresh = raw_env()
    fresh.step(enc.PASS)
    fresh.reset()
    assert fresh.game.deal == raw_env().game.deal


def test_bad_seeds_agents_and_render_modes_raise_argument_errors() -> None:
    _pettingzoo()
    from skat.env import env

    e = env()
    e.reset(seed=4)
    e.step(enc.PASS)
    before = _state(e)
    for seed in (-1, 2**64, 1.5, "7", True):
        with pytest.raises(skat.ArgumentError, match=r"seed must be an integer in 0\.\."):
            e.reset(seed=seed)
        assert _state(e) == before
    e.reset(seed=np.int64(5))  # raised OverflowError in the seed mixing
    deal = e.unwrapped.game.deal
    e.reset(seed=5)
    assert e.unwrapped.game.deal == deal
    e.reset(seed=2**64 - 1)
    for agent in ("player_3", 0, None):
        with pytest.raises(skat.ArgumentError, match="unknown agent"):
            e.observe(agent)
        with pytest.raises(skat.ArgumentError, match="unknown agent"):
            e.action_space(agent)
    modes: list[Any] = ["rgb_array", 3]
    for mode in modes:
        with pytest.raises(skat.ArgumentError, match="render_mode must be one of ansi, human"):
            env(render_mode=mode)
