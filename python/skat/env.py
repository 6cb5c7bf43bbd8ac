"""A PettingZoo AEC environment for full Skat: auction, skat, discard, declaration, ten tricks.

``env()`` returns the environment wrapped in PettingZoo's order-enforcing wrapper, as
PettingZoo's own environments do; ``raw_env`` is the class. Three agents, ``player_0`` ..
``player_2``, sit in the engine's seats (0 forehand, 1 middlehand, 2 rearhand); the agent to
act is the seat the engine asks. Spaces and encodings come from :mod:`skat.encoding` and are
documented in ``docs/environments.md``:

- action space ``Discrete(623)``: every action of the game has a fixed index;
- observation: ``{"observation": float32[512], "action_mask": int8[623]}``, what the agent's
  seat may know (``game.view(seat)``) and its legal actions (all zero when it is not to act);
- rewards: zero until the game ends, then each agent's Seeger-Fabian score
  (``game.result.scores``; all zero when everyone passes). Every agent terminates together.

Deals are ``Deal.random(derive_seed(seed, k))`` for the k-th reset since ``reset(seed=seed)``
(``seed`` defaults to :data:`skat.defaults.ENV_SEED`; a seed is an integer in ``0 .. 2**64 -
1``, anything else raises :class:`skat.ArgumentError`), so a seeded run repeats exactly. An
action that is not legal, or not an integer index (a float is not truncated), raises
:class:`skat.IllegalActionError` and changes nothing.

PettingZoo is an optional dependency (``pip install "skat[env]"``); importing this module
without it raises ``ImportError`` with that hint.

>>> from skat.env import env
>>> e = env()
>>> e.reset(seed=3)
>>> obs, reward, terminated, truncated, info = e.last()
>>> e.agent_selection, obs["observation"].shape, int(obs["action_mask"].sum())
('player_1', (512,), 64)
>>> e.step(96)                                     # pass
>>> e.agent_selection
'player_2'
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
import numpy.typing as npt

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        f"skat.env needs PettingZoo: pip install 'skat[env]' (or pettingzoo): {e}"
    ) from e

from skat._core import ArgumentError, Deal, Game, IllegalActionError
from skat.defaults import ENV_SEED
from skat.encoding import NUM_ACTIONS, OBSERVATION_SIZE, action_mask, action_of, observation
from skat.seeds import SEED_MAX, derive_seed

AGENTS = ("player_0", "player_1", "player_2")


def _integer(value: Any) -> int | None:
    """``value`` as a Python int when it is an integer (``int``, a NumPy integer or a 0-d
    integer array; not ``bool``, not a float, however whole), else ``None``."""
    if isinstance(value, bool | np.bool_):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def _seed(seed: Any) -> int:
    """A reset seed checked as the core checks seeds: an integer in ``0 .. SEED_MAX``."""
    value = _integer(seed)
    if value is None or not 0 <= value <= SEED_MAX:
        raise ArgumentError(f"seed must be an integer in 0..{SEED_MAX} or None, got {seed!r}")
    return value


class raw_env(AECEnv):  # type: ignore[misc, unused-ignore]
    """Full Skat for three agents (see the module documentation)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads it from the class)
        "render_modes": ["ansi", "human"],
        "name": "skat_v0",
        "is_parallelizable": False,
    }

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__()
        modes = self.metadata["render_modes"]
        if render_mode is not None and not (isinstance(render_mode, str) and render_mode in modes):
            raise ArgumentError(
                f"render_mode must be one of {', '.join(modes)} or None, got {render_mode!r}"
            )
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        box = spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), dtype=np.float32)
        mask = spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": box, "action_mask": mask}) for a in AGENTS
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in AGENTS}
        self._seed = ENV_SEED
        self._resets = 0
        self.game = Game(Deal.random(derive_seed(self._seed, 0)))
        self._start()  # a consistent state before the first reset (which deals this game)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[self._agent(agent)]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[self._agent(agent)]

    @staticmethod
    def _agent(agent: Any) -> str:
        """``agent`` if it is one of :data:`AGENTS`, else :class:`skat.ArgumentError`."""
        if not isinstance(agent, str) or agent not in AGENTS:
            raise ArgumentError(f"unknown agent {agent!r}; agents: {', '.join(AGENTS)}")
        return agent

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deals the next game: the first of a new stream when ``seed`` is given (an integer
        in ``0 .. 2**64 - 1``; anything else raises :class:`skat.ArgumentError` and changes
        nothing). ``options`` are not used."""
        if seed is not None:
            self._seed = _seed(seed)
            self._resets = 0
        self.game = Game(Deal.random(derive_seed(self._seed, self._resets)))
        self._resets += 1
        self._start()

    def _start(self) -> None:
        """The bookkeeping of a new game (``self.game``): every agent in, nothing scored."""
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        seat = self.game.to_move
        self.agent_selection = AGENTS[seat if seat is not None else 0]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        seat = AGENTS.index(self._agent(agent))
        view = self.game.view(seat)
        if self.game.to_move == seat:
            mask = action_mask(self.game)
        else:
            mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": observation(view), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Applies ``action`` (an index in ``0 .. 622``) for :attr:`agent_selection`, or
        ``None`` for a terminated agent. Anything else raises
        :class:`skat.IllegalActionError` and changes nothing."""
        agent = self.agent_selection
        if not self.agents:
            raise IllegalActionError("the game is over and every agent has left: reset() first")
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise IllegalActionError(
                    f"{agent} has terminated: its only action is None, got {action!r}"
                )
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} is to act: None is only for a terminated agent")
        index = _integer(action)
        if index is None:
            raise IllegalActionError(
                f"an action is an integer index in 0..{NUM_ACTIONS - 1}, got {action!r}"
            )
        self.game.apply(action_of(index))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.game.is_over:
            result = self.game.result
            assert result is not None
            for seat, name in enumerate(AGENTS):
                self.rewards[name] = float(result.scores[seat])
                self.terminations[name] = True
            self.agent_selection = AGENTS[(AGENTS.index(agent) + 1) % 3]
        else:
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The game so far as an ISS record (``ansi``: returned; ``human``: printed)."""
        text = self.game.to_iss()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def env(render_mode: str | None = None) -> Any:
    """The Skat environment, wrapped as PettingZoo's environments are (order enforcing)."""
    return wrappers.OrderEnforcingWrapper(raw_env(render_mode=render_mode))
