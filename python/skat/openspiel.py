"""Full Skat as an OpenSpiel game, ``pyspiel.load_game("python_skat")``, registered on import.

Importing this module registers the game with ``pyspiel`` (OpenSpiel is an optional
dependency: ``pip install "skat[openspiel]"``; without it the import raises ``ImportError``
with that hint). The game is sequential, imperfect information, general sum (Seeger-Fabian
scores, ``game.result.scores``, paid at the end), with explicit chance:

- chance deals 30 cards one at a time (outcome = ``Card.index``, uniform over the cards not yet
  dealt): ten to forehand (seat 0), ten to middlehand, ten to rearhand; the two left are the skat;
- players' actions are the fixed indices of :mod:`skat.encoding` (623 distinct actions: cards,
  bids, hold, pass, pick-up, declarations, discard pairs), ``action_to_string`` gives the ISS
  token;
- ``information_state_string`` is the seat's whole visible history (perfect recall,
  :func:`skat.encoding.information_state`); ``observation_string`` and ``observation_tensor``
  are :func:`skat.encoding.describe` and :func:`skat.encoding.observation` (512 numbers);
- ``resample_from_infostate(player, sampler)`` draws a state the player cannot tell from this
  one (:func:`skat.encoding.indistinguishable_deal`), so OpenSpiel's information-set Monte
  Carlo tree search (``open_spiel.python.algorithms.ismcts.ISMCTSBot``) runs on it; the number
  drawn from ``sampler`` seeds the draw;
- states clone, serialize (``state.serialize()``, ``pyspiel.serialize_game_and_state``) and
  pickle, as OpenSpiel's own game checks (``pyspiel.random_sim_test``) ask: OpenSpiel copies a
  Python state's attributes with ``copy.deepcopy`` and serializes them with ``pickle``, and the
  engine's game, which does not pickle, travels as its dealt cards and action indices.

Sampling tabular methods (outcome-sampling MCCFR) run on it; methods that walk the whole
tree (vanilla CFR, exploitability) are out of reach for full Skat and need a smaller game.
:func:`play_bots` plays OpenSpiel's uniform random bots and ISMCTS bots against each other.

>>> import pyspiel
>>> game = pyspiel.load_game("python_skat")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 32)
>>> for card in "CJ SJ HJ DJ CA CT SA ST HA HT".split():      # forehand's ten cards
...     state.apply_action(Card(card).index)
>>> state.information_state_string(0)
'seat 0 dealt CJ SJ HJ DJ CA CT SA ST HA HT'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

try:
    import pyspiel
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        f"skat.openspiel needs OpenSpiel: pip install 'skat[openspiel]' (or open-spiel): {e}"
    ) from e

from skat._core import Card, Cards, Deal, Game, View
from skat.encoding import (
    MAX_GAME_LENGTH,
    MAX_SCORE,
    MIN_SCORE,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    action_index,
    action_of,
    describe,
    indistinguishable_deal,
    information_state,
    legal_indices,
    observation,
    replay,
)
from skat.seeds import derive_seed

SHORT_NAME = "python_skat"
DEALT = 30
"""Cards dealt by chance; the two left over are the skat."""

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Skat (skat package)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=3,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification={},
)
_GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=NUM_ACTIONS,
    max_chance_outcomes=32,
    num_players=3,
    min_utility=float(MIN_SCORE),
    max_utility=float(MAX_SCORE),
    utility_sum=None,
    max_game_length=MAX_GAME_LENGTH + DEALT,
)


class SkatGame(pyspiel.Game):  # type: ignore[misc, unused-ignore]
    """The game object ``pyspiel.load_game("python_skat")`` returns."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(_GAME_TYPE, _GAME_INFO, params or {})

    def new_initial_state(self) -> SkatState:
        """A state before the deal."""
        return SkatState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SkatObserver:
        """The observer behind the information-state and observation strings and tensors."""
        return SkatObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class _Engine:
    """The engine's game inside a state, in a form OpenSpiel can copy and serialize: a deep copy
    is the game's own copy, a pickle is the dealt cards and the action indices that replay it."""

    __slots__ = ("game",)

    def __init__(self, game: Game) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(self.game.copy())

    def __reduce__(
        self,
    ) -> tuple[Callable[[list[int], list[int]], _Engine], tuple[list[int], list[int]]]:
        dealt = [card.index for hand in self.game.deal.hands for card in hand]
        return _replayed, (dealt, [action_index(action) for _, action in self.game.history])


def _replayed(dealt: list[int], actions: list[int]) -> _Engine:
    game = Game(deal_of(dealt))
    for index in actions:
        game.apply(action_of(index))
    return _Engine(game)


class SkatState(pyspiel.State):  # type: ignore[misc, unused-ignore]
    """A deal in progress (chance) or a ``skat.Game`` (the players' turns)."""

    def __init__(self, game: SkatGame) -> None:
        super().__init__(game)
        self.dealt: list[int] = []
        self._engine: _Engine | None = None
        self._resamples = 0

    @property
    def skat_game(self) -> Game | None:
        """The engine's game once the cards are dealt, ``None`` while dealing."""
        return None if self._engine is None else self._engine.game

    # ----- the OpenSpiel state protocol -----

    def current_player(self) -> int:
        """The seat to act, ``PlayerId.CHANCE`` while dealing, ``PlayerId.TERMINAL`` at the end."""
        game = self.skat_game
        if game is None:
            return int(pyspiel.PlayerId.CHANCE)
        if game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        seat = game.to_move
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        game = self.skat_game
        assert game is not None
        return legal_indices(game)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not yet dealt, each equally likely."""
        left = sorted(set(range(32)) - set(self.dealt))
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        game = self.skat_game
        if game is None:
            self.dealt.append(int(action))
            if len(self.dealt) == DEALT:
                self._engine = _Engine(Game(deal_of(self.dealt)))
        else:
            game.apply(action_of(int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {Card.from_index(int(action))}"
        return str(action_of(int(action)))

    def is_terminal(self) -> bool:
        game = self.skat_game
        return game is not None and game.is_over

    def returns(self) -> list[float]:
        """Seeger-Fabian scores at the end, zero before."""
        game = self.skat_game
        if game is None or game.result is None:
            return [0.0, 0.0, 0.0]
        return [float(s) for s in game.result.scores]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SkatState:
        """A state ``player_id`` cannot tell from this one, drawn with a seed mixed from the
        sampler's number and how many draws this state has made."""
        game = self.skat_game
        if game is None:
            raise pyspiel.SpielError("resample_from_infostate during the deal")
        self._resamples += 1
        seed = derive_seed(int(float(probability_sampler()) * 2**53), self._resamples)
        view = game.view(player_id)
        deal, discard = indistinguishable_deal(view, seed)
        return state_of(self.get_game(), replay(view, deal, discard))

    def __str__(self) -> str:
        game = self.skat_game
        if game is None:
            return "dealt " + " ".join(str(Card.from_index(c)) for c in self.dealt)
        return game.to_iss()

    # ----- for the observer -----

    def view(self, player: int) -> View | None:
        """What ``player`` may know (``None`` while dealing)."""
        game = self.skat_game
        return None if game is None else game.view(player)


def deal_of(dealt: list[int]) -> Deal:
    """The deal of 30 dealt card indices: ten per seat in seat order, the rest is the skat."""
    cards = [Card.from_index(i) for i in dealt]
    rest = Cards([c for c in Card.all() if c not in cards])
    return Deal((Cards(cards[0:10]), Cards(cards[10:20]), Cards(cards[20:30])), rest)


def state_of(game: Any, skat_game: Game) -> SkatState:
    """The OpenSpiel state of ``skat_game``'s deal and actions (the deal in seat order)."""
    state: SkatState = game.new_initial_state()
    for hand in skat_game.deal.hands:
        for card in hand:
            state.apply_action(card.index)
    for _, action in skat_game.history:
        state.apply_action(action_index(action))
    return state


class SkatObserver:
    """OpenSpiel's Python observer: strings and a 512-number tensor for one player."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"python_skat observers take no parameters, got {params}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("python_skat observes for a single player (its own cards)")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor: npt.NDArray[np.float32] = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SkatState, player: int) -> None:
        """Fills :attr:`tensor` with what ``player`` knows in ``state``."""
        view = state.view(player)
        self.tensor[:] = 0.0 if view is None else observation(view)

    def string_from(self, state: SkatState, player: int) -> str:
        """The information state (perfect recall) or the observation, as text."""
        view = state.view(player)
        if view is None:
            mine = state.dealt[10 * player : 10 * player + 10]
            return f"seat {player} dealt " + " ".join(str(Card.from_index(c)) for c in mine)
        return information_state(view) if self.perfect_recall else describe(view)


pyspiel.register_game(_GAME_TYPE, SkatGame)


def ismcts_bot(game: Any, simulations: int, seed: int) -> Any:
    """OpenSpiel's ISMCTS bot (random roll-outs) with every random choice seeded."""
    from open_spiel.python.algorithms import ismcts, mcts

    rng = np.random.RandomState(seed % 2**32)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=simulations, random_state=rng
    )
    sampler = pyspiel.UniformProbabilitySampler(seed % 2**31, 0.0, 1.0)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    return bot


def play_game(game: Any, bots: list[Any], rng: np.random.RandomState) -> list[float]:
    """Plays one game between OpenSpiel bots (chance drawn from ``rng``); the returns."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(bots[state.current_player()].step(state)))
    return [float(r) for r in state.returns()]


def play_bots(
    games: int,
    simulations: int,
    seed: int,
    on_game: Callable[[int, list[float]], None] | None = None,
) -> list[list[float]]:
    """Plays ``games`` games of ``python_skat``: an ISMCTS bot (``simulations`` per decision)
    in seat ``g % 3`` of game ``g`` against two uniform random bots; the returns of each game.
    ``on_game(g, returns)`` is called after each game."""
    game = pyspiel.load_game(SHORT_NAME)
    out = []
    for g in range(games):
        rng = np.random.RandomState(derive_seed(seed, g) % 2**32)
        bots = [
            pyspiel.make_uniform_random_bot(p, derive_seed(seed, g, p) % 2**31) for p in range(3)
        ]
        bots[g % 3] = ismcts_bot(game, simulations, derive_seed(seed, g, 3))
        returns = play_game(game, bots, rng)
        out.append(returns)
        if on_game is not None:
            on_game(g, returns)
    return out


def _positive(text: str) -> int:
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {value}")
    return value


def main(argv: list[str] | None = None) -> int:
    """``python -m skat.openspiel``: ISMCTS against two random bots, with a summary."""
    import argparse
    import json
    import os
    import time

    from rich.progress import Progress

    from skat.defaults import OPENSPIEL_GAMES, OPENSPIEL_SEED, OPENSPIEL_SIMULATIONS

    parser = argparse.ArgumentParser(
        prog="python -m skat.openspiel",
        description="Plays python_skat with OpenSpiel's ISMCTS bot (seat g mod 3 of game g)"
        " against two uniform random bots and prints the ISMCTS seat's mean return.",
    )
    parser.add_argument(
        "--games", type=_positive, default=OPENSPIEL_GAMES, help="games (default %(default)s)"
    )
    parser.add_argument(
        "--simulations",
        type=_positive,
        default=OPENSPIEL_SIMULATIONS,
        help="ISMCTS simulations per decision (default %(default)s)",
    )
    parser.add_argument(
        "--seed", type=int, default=OPENSPIEL_SEED, help="run seed (default %(default)s)"
    )
    parser.add_argument("--json", metavar="FILE", help="write the summary as JSON")
    args = parser.parse_args(argv)
    if args.json and not os.path.isdir(os.path.dirname(os.path.abspath(args.json))):
        parser.error(f"--json: no directory for {args.json}")
    start = time.perf_counter()
    with Progress(transient=True) as progress:
        task = progress.add_task("games", total=args.games)
        results = play_bots(
            args.games, args.simulations, args.seed, lambda g, r: progress.advance(task)
        )
    seconds = time.perf_counter() - start
    ismcts = [r[g % 3] for g, r in enumerate(results)]
    others = [x for g, r in enumerate(results) for p, x in enumerate(r) if p != g % 3]
    summary = {
        "game": SHORT_NAME,
        "games": args.games,
        "simulations": args.simulations,
        "seed": args.seed,
        "finished": len(results),
        "ismcts_mean_return": float(np.mean(ismcts)),
        "random_mean_return": float(np.mean(others)),
        "seconds": round(seconds, 1),
    }
    print(json.dumps(summary, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(summary, f, indent=2)
            f.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
