"""Training games for the bidding evaluation: contracts forced or chosen, played out by PIMC.

Kermit learned its 10+2 evaluation from 22 million human games. We have none at that scale,
so we make our own: for each training deal a declarer seat and a contract are chosen (not only
the contracts a bidder would pick, so that losing contracts are seen too), the auction is
settled at 18 so that the outcome depends on the card play alone, and the game is played out
by three ``pimc`` players (imperfect-information card play; a small world count keeps it
affordable). Every game is kept as an ISS record, the same format as real server games, so
that fitting reads generated and human games alike.

How a contract is chosen (seeded, reproducible):

- **declarer**: with probability 0.7 the seat whose hand looks strongest to the rule-based
  strength heuristic, otherwise a uniformly random seat;
- **hand game** with probability 0.1, otherwise the skat is picked up;
- **round 0** (no model yet): for each of the seven contract types the discard that maximises
  the rule-based strength; the type is the strongest one with probability 0.6, otherwise
  uniform over the seven (null ouvert included);
- **later rounds** (``model`` given): the fitted evaluation values every (discard, type); the
  type is drawn with weight ``0.05 + exp(-((p - 0.65) / 0.25)^2)`` on its best discard's win
  probability ``p``, which concentrates the data where bidding decisions are made while still
  showing hopeless and certain contracts.
"""

from __future__ import annotations

import itertools
import math
import os
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from skat._core import Action, Cards, Contract, Deal, Game, GameType
from skat.defaults import TRAIN_WORLDS
from skat.parallel import run_tasks
from skat.seeds import derive_seed

if TYPE_CHECKING:
    from skat.bidding.model import BiddingModel

SUITS = (GameType.DIAMONDS, GameType.HEARTS, GameType.SPADES, GameType.CLUBS)
TRUMP_TYPES = (*SUITS, GameType.GRAND)
#: the seven contract types of the 10+2 evaluation, in index order (null ouvert last)
CONTRACT_TYPES: tuple[Contract, ...] = (
    *(Contract(g) for g in TRUMP_TYPES),
    Contract(GameType.NULL),
    Contract(GameType.NULL, ouvert=True),
)

# auctions that make seat 0, 1 or 2 the declarer at 18
_AUCTIONS = {0: ("p", "p", "18"), 1: ("18", "p", "p"), 2: ("p", "18", "p")}


@dataclass(frozen=True)
class TrainingContract:
    """What one training game declares."""

    declarer: int
    hand_game: bool
    discard: Cards | None
    contract: Contract


def _rules_strength(cards: Cards, contract: Contract) -> float:
    from skat.players.rules import null_strength, strength

    gt = contract.game_type
    if gt == GameType.NULL:
        s = null_strength(cards)
        return s - 8.0 - (1.5 if contract.ouvert else 0.0)
    return strength(cards, gt) - (8.0 if gt == GameType.GRAND else 7.5)


def best_rules_discard(twelve: Cards, contract: Contract) -> tuple[float, Cards]:
    """The two cards of ``twelve`` whose discard leaves the strongest hand for ``contract``
    (rule-based strength; ties: more card points pushed, null: higher cards), and that
    strength."""
    best: tuple[float, int, str] | None = None
    best_cards = Cards()
    for a, b in itertools.combinations(sorted(twelve), 2):
        pair = Cards([a, b])
        s = _rules_strength(twelve - pair, contract)
        pushed = (
            a.points + b.points
            if contract.game_type != GameType.NULL
            else int(a.rank) + int(b.rank)
        )
        key = (s, pushed, f"{a}{b}")
        if best is None or key > best:
            best, best_cards = key, pair
    assert best is not None
    return best[0], best_cards


def choose_contract(
    deal: Deal, rng: random.Random, model: BiddingModel | None = None
) -> TrainingContract:
    """The declarer, hand/pick-up, discard and contract of one training game."""
    if rng.random() < 0.7:
        scores = [max(_rules_strength(h, k) for k in CONTRACT_TYPES) for h in deal.hands]
        declarer = max(range(3), key=lambda s: (scores[s], -s))
    else:
        declarer = rng.randrange(3)
    hand = deal.hands[declarer]
    hand_game = rng.random() < 0.1
    options: list[tuple[float, Cards | None, Contract]] = []
    if model is None:
        for k in CONTRACT_TYPES:
            if hand_game:
                options.append((_rules_strength(hand, k), None, k))
            else:
                s, d = best_rules_discard(hand | deal.skat, k)
                options.append((s, d, k))
        if rng.random() < 0.6:
            top = max(o[0] for o in options)
            pick = rng.choice([o for o in options if o[0] == top])
        else:
            pick = rng.choice(options)
    else:
        for i, k in enumerate(CONTRACT_TYPES):
            if hand_game:
                p = model.win_probability(hand, deal.skat, i, declarer)
                options.append((p, None, k))
            else:
                p, d = model.best_discard(hand | deal.skat, i, declarer)
                options.append((p, d, k))
        weights = [0.05 + math.exp(-(((p - 0.65) / 0.25) ** 2)) for p, _, _ in options]
        pick = rng.choices(options, weights)[0]
    _, discard, k = pick
    contract = Contract(k.game_type, hand=hand_game, ouvert=k.ouvert)
    return TrainingContract(declarer, hand_game, discard, contract)


def contract_actions(game: Game, choice: TrainingContract) -> list[Action]:
    """Applies the auction, skat and declaration of ``choice`` to a fresh game; returns them."""
    actions: list[Action] = []

    def push(pred: Callable[[Action], bool]) -> None:
        action = next(a for a in game.legal_actions() if pred(a))
        game.apply(action)
        actions.append(action)

    for token in _AUCTIONS[choice.declarer]:
        push(lambda a, t=token: str(a) == t)  # type: ignore[misc]
    if not choice.hand_game:
        push(lambda a: a.kind == "pickup")
        assert choice.discard is not None
        push(lambda a: a.kind == "discard" and a.cards == choice.discard)
    push(lambda a: a.kind == "declare" and a.contract == choice.contract)
    return actions


def training_game(index: int, seed: int, worlds: int, model: BiddingModel | None) -> str:
    """Plays training game ``index`` of the run ``seed``; returns its ISS record."""
    from skat.match import play
    from skat.players import make_player

    game_seed = derive_seed(seed, index)
    deal = Deal.random(game_seed)
    rng = random.Random(derive_seed(seed, index, 1))
    choice = choose_contract(deal, rng, model)
    prefix = contract_actions(Game(deal), choice)
    players = [
        make_player(f"pimc:worlds={worlds},points=false,threads=1,seed={s}") for s in range(3)
    ]
    game = play(players, deal, seed=game_seed, prefix=prefix)
    return game.to_iss()


_GUIDE: BiddingModel | None = None


def load_guide(model_path: str | None) -> None:
    """Loads the guiding model of this process's training games (once per worker process)."""
    global _GUIDE
    if model_path is not None:
        from skat.bidding.model import BiddingModel

        _GUIDE = BiddingModel.load(model_path)


def guide() -> BiddingModel | None:
    """The guiding model :func:`load_guide` loaded in this process, if any."""
    return _GUIDE


def _chunk(args: tuple[int, int, int, int]) -> list[str]:
    first, count, seed, worlds = args
    return [training_game(i, seed, worlds, _GUIDE) for i in range(first, first + count)]


def generate(
    games: int,
    seed: int,
    *,
    start: int = 0,
    worlds: int = TRAIN_WORLDS,
    workers: int | None = 1,
    model_path: str | os.PathLike[str] | None = None,
    progress: Callable[[int], None] | None = None,
    chunk: int = 25,
    ray: str | None = None,
) -> Iterator[str]:
    """Yields the ISS records of training games ``start .. start+games`` in index order.

    Games are played in chunks by :func:`skat.parallel.run_tasks` (``workers`` local
    processes, or Ray); every game depends only on ``seed`` and its index, so the records are
    the same however they were played.
    """
    path = None if model_path is None else str(model_path)
    chunks = [
        (first, min(chunk, start + games - first), seed, worlds)
        for first in range(start, start + games, chunk)
    ]
    done: dict[int, list[str]] = {}
    nxt = 0
    for i, records in run_tasks(
        _chunk, chunks, workers=workers, ray=ray, initializer=load_guide, initargs=(path,)
    ):
        done[i] = records
        if progress:
            progress(len(records))
        while nxt in done:
            yield from done.pop(nxt)
            nxt += 1
