"""Choosing the pick-up declaration by open-handed search over sampled defenders' hands.

After picking up the skat the declarer knows twelve cards; the learned 10+2 tables
(:mod:`skat.bidding`) score every discard and contract by a win probability learned from
games. :func:`search_declaration` takes the tables' ``candidates`` best (discard, contract)
pairs and scores each again over ``worlds`` sampled splits of the twenty unseen cards between
the two defenders, solved open-handed from the first card (the same worlds for every
candidate, so that the comparison is paired), and returns the candidate with the best mean
Seeger-Fabian score. It is Perfect Information Monte Carlo applied to the declaration.

Scoring of one world, as the tables' expected score counts it (a loss costs the declarer
``2 x value + 50`` and gives each defender 40, so ``-2 x value - 90`` against the table):

- suit and grand: the solver's final card points (skat included) against the game's
  :func:`skat.win_threshold` at the bid; a won game is worth its value with the matadors of
  the twelve cards and schneider when the points reach 90 (schwarz is not scored); a lost game
  costs the plain value, or the overbid value when the plain value is below the bid;
- null and null ouvert: won when the declarer takes no trick (the solver's survival scale).

Invariants: the worlds depend only on ``seed`` and the twelve cards; the result is always one
of the tables' candidates (ties: the tables' order); the defenders' hands are drawn uniformly,
not from their bids.

>>> from skat._core import Cards, Solver
>>> from skat.bidding import default_model
>>> twelve = Cards("CJ SJ HJ CA CT CK SA ST HA HT D7 D8")
>>> choice = search_declaration(
...     default_model().tables, twelve, seat=0, bid=18, candidates=3, worlds=4, seed=1,
...     solver=Solver(tt_mb=1),
... )
>>> choice.discard.issubset(twelve) and len(choice.discard) == 2, choice.contract.game_type.letter
(True, 'G')
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from skat._core import (
    BiddingTables,
    Cards,
    Contract,
    GameType,
    Position,
    Solver,
    matadors,
    win_threshold,
)
from skat.analysis.pipma import NULL_TARGET

__all__ = [
    "PICKUP_CONTRACTS",
    "Choice",
    "sample_worlds",
    "search_declaration",
    "table_candidates",
    "world_score",
]

PICKUP_CONTRACTS = (
    *(Contract(GameType.parse(t)) for t in "DHSCG"),
    Contract(GameType.NULL),
    Contract(GameType.NULL, ouvert=True),
)
"""The contracts a declarer weighs after picking up: plain suit and grand games, null, null
ouvert (the tables' pick-up contracts)."""


@dataclass(frozen=True)
class Choice:
    """A candidate declaration with its scores."""

    discard: Cards
    contract: Contract
    table_score: float
    """The tables' expected Seeger-Fabian score."""
    search_score: float | None = None
    """The mean score over the solved worlds (``None``: not searched)."""


def table_candidates(
    tables: BiddingTables, twelve: Cards, seat: int, bid: int, count: int, null: bool = True
) -> list[Choice]:
    """The ``count`` best (discard, contract) pairs of ``twelve`` cards at ``bid`` by the
    tables' expected score, best first (contracts that cannot reach the bid left out;
    ``null=False``: suit and grand only)."""
    scored = [
        Choice(discard, contract, score)
        for discard, contract, score, _ in tables.pickup_declarations(twelve, seat, bid)
        if discard is not None and (null or contract.game_type != GameType.NULL)
    ]
    scored.sort(key=lambda c: -c.table_score)
    return scored[:count]


def world_score(contract: Contract, twelve: Cards, bid: int, value: int) -> float:
    """The declarer's score against the table in one solved world (``value``: the solver's
    result, card points or, for null, the survival scale)."""
    if contract.game_type == GameType.NULL:
        v = contract.base_value
        return v + 50 if value >= NULL_TARGET else -2 * v - 90
    mats = matadors(contract.game_type, twelve)
    plain = contract.value(mats)
    if value >= win_threshold(contract, bid, twelve):
        return contract.value(mats, schneider=value >= 90) + 50
    lose = plain if plain >= bid else contract.overbid_value(bid)
    return -2 * lose - 90


def sample_worlds(twelve: Cards, count: int, seed: int) -> list[tuple[Cards, Cards]]:
    """``count`` uniform splits of the twenty cards outside ``twelve`` into two hands."""
    rng = random.Random(seed)
    unseen = list(Cards.all() - twelve)
    out = []
    for _ in range(count):
        rng.shuffle(unseen)
        out.append((Cards(unseen[:10]), Cards(unseen[10:])))
    return out


def search_declaration(
    tables: BiddingTables,
    twelve: Cards,
    seat: int,
    bid: int,
    candidates: int,
    worlds: int,
    seed: int,
    solver: Solver,
    threads: int = 1,
    null: bool = True,
) -> Choice:
    """The best of the tables' ``candidates`` declarations by mean score over ``worlds``
    sampled defenders' hands solved open-handed (the module's scoring); forehand leads.
    ``null=False`` leaves null and null ouvert out of the candidates (open-handed defenders
    beat nearly every null game, so the search all but never prefers one)."""
    shortlist = table_candidates(tables, twelve, seat, bid, candidates, null)
    if not shortlist:
        raise ValueError(f"no pick-up declaration reaches the bid {bid}")
    if len(shortlist) == 1 or worlds < 1:
        return shortlist[0]
    splits = sample_worlds(twelve, worlds, seed)
    positions = []
    for c in shortlist:
        hand = twelve - c.discard
        for left, right in splits:
            hands = [Cards(), Cards(), Cards()]
            hands[seat] = hand
            hands[(seat + 1) % 3] = left
            hands[(seat + 2) % 3] = right
            positions.append(
                Position(
                    (hands[0], hands[1], hands[2]),
                    c.contract,
                    declarer=seat,
                    leader=0,
                    declarer_points=c.discard.points,
                )
            )
    values = solver.solve_many(positions, threads=threads)
    best = shortlist[0]
    best_score = float("-inf")
    for i, c in enumerate(shortlist):
        chunk = values[i * worlds : (i + 1) * worlds]
        score = sum(world_score(c.contract, twelve, bid, v) for v in chunk) / worlds
        if score > best_score:
            best, best_score = Choice(c.discard, c.contract, c.table_score, score), score
    return best
