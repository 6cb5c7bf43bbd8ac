"""Lost at the deal or lost in the play: the open-handed verdict at the first card.

A declared game is judged once, at its first card (after the auction, the skat and the
declaration, before any card is played): with every card known and best play by all three
seats from there, does the declarer reach what she needs (:func:`skat.analysis.target_of`:
61, 90 or 120 card points; null: no trick)? Set against the real outcome this separates what
card play could change from what it could not:

- *open-hand won, declarer lost*: the declarer's side threw away a game it could win, or the
  defenders outplayed a declarer who could not see their cards;
- *open-hand lost, declarer won*: the defenders, who cannot see each other's cards, let a game
  go that best defence would have won. Such a game turns at the defence's *first losing
  card*: the first card of a defender after which, open-handed, the declarer wins
  (:func:`first_losing_defence_card`; a declarer's card can never turn it). It names which of
  the two defenders let the game go first.

Games without a contract (passed out, Ramsch) or without a card played are not judged.

Invariants: each game is judged by exactly one threshold search of the solver
(``Solver.reaches``) on the position of its first card, so the verdict agrees with a full
solve of that position; the first losing card is PIPMA's first defender mistake
(:func:`skat.analysis.pipma.iter_decisions`, judged only up to it; a game decided by a claim,
resignation or time-out may have none); the counts of a player's role are of games, not
seats (a player holding both defenders' seats counts the game once), and each judged game
counts once for every role a player held in it. :func:`seat_role` names the roles, for
:mod:`skat.tournament_breakdown` too (which splits the declarers' further into hand and
pick-up games).

>>> from skat._core import Deal, Solver
>>> from skat.match import play
>>> from skat.players import make_player
>>> game = play([make_player("rules") for _ in range(3)], Deal.random(3), seed=3)
>>> isinstance(start_verdict(game, Solver(tt_mb=1)), bool) or game.contract is None
True
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from skat._core import Game, Phase, Position, Solver
from skat.analysis.pipma import Decision, game_names, iter_decisions, target_of
from skat.defaults import PIPMA_TT_MB
from skat.records import read_iss, replay_until_play

__all__ = [
    "FIELDS",
    "VERDICT_ROLES",
    "Judged",
    "first_card_position",
    "first_losing_defence_card",
    "game_at_first_card",
    "judge",
    "seat_role",
    "start_verdict",
    "verdicts",
]

VERDICT_ROLES = (
    "declarer grand",
    "declarer suit",
    "declarer null",
    "defender",
    "defender against itself",
)
"""The roles verdicts are counted under, in the order they are reported."""

FIELDS = (
    "games",
    "open_won",
    "open_won_declarer_won",
    "open_lost",
    "open_lost_declarer_won",
    "first_losing_card",
)
"""The counts of a role, in the order :func:`verdicts` keeps them."""

CARDS = 30
"""Cards in a game: ``first_losing_by_card`` counts the first losing cards by number."""


def game_at_first_card(game: Game) -> Game | None:
    """``game`` replayed up to its first card, the card not yet played (``None`` when no card
    was played)."""
    if game.contract is None or game.declarer is None or not game.played:
        return None
    replay = replay_until_play(game)
    return replay if replay.phase == Phase.PLAY else None


def first_card_position(game: Game) -> Position | None:
    """The position of ``game`` at its first card (``None`` when no card was played)."""
    replay = game_at_first_card(game)
    return None if replay is None else Position.from_game(replay)


def start_verdict(game: Game, solver: Solver | None = None) -> bool | None:
    """Could the declarer of ``game`` win it open-handed from its first card? ``None`` for a
    game without a contract or without a card played. ``solver`` is reused when given; the
    answer does not depend on it."""
    position = first_card_position(game)
    if position is None:
        return None
    solver = solver if solver is not None else Solver(tt_mb=PIPMA_TT_MB)
    return bool(solver.reaches(position, target_of(game)))


def first_losing_defence_card(game: Game, solver: Solver | None = None) -> Decision | None:
    """For a game the declarer could not win open-handed at its first card
    (:func:`start_verdict` false): the defender's card that first let her win open-handed
    (PIPMA's first defender mistake: until then every declarer card is a losing one for her,
    so only a defender can turn the game), or ``None`` when no card did (the defence held on,
    or a claim or resignation decided the game). ``solver`` is reused when given; the answer
    does not depend on it."""
    declarer = game.declarer
    return next((d for d in iter_decisions(game, solver) if d.seat != declarer and d.mistake), None)


@dataclass(frozen=True)
class Judged:
    """One scored game with its open-handed verdict at the first card, where it has one."""

    labels: tuple[str, str, str]
    """The players' names by seat (:func:`skat.analysis.game_names`)."""
    scores: tuple[int, int, int]
    """The seats' Seeger-Fabian scores."""
    verdict: bool | None = None
    """The declarer could win open-handed from the first card; ``None``: not judged (passed
    out, Ramsch, no card played)."""
    declarer: int = 0
    """The declarer's seat (judged games only)."""
    class_name: str = ""
    """The contract's class, ``suit``, ``grand`` or ``null`` (judged games only)."""
    won: bool = False
    overbid: bool = False
    value: int = 0
    """The game's value as scored (ISS sign: a lost game's is negative and doubled)."""
    first_losing: int | None = None
    """For a game lost open-handed that the declarer won: the seat of the defence's first
    losing card (:func:`first_losing_defence_card`); else ``None``."""
    first_losing_number: int | None = None
    """That card's number in the game, 1..30 (trick ``(n - 1) // 3 + 1``, place in the trick
    ``(n - 1) % 3``: 0 leading); ``None`` with ``first_losing``."""


def judge(games: Iterable[Game] | str | os.PathLike[str]) -> Iterator[Judged]:
    """Every scored game of ``games`` (a record file's path or the games), in order, with its
    verdict (:func:`start_verdict`). Raises ``RecordError`` for a bad record."""
    source = read_iss(games) if isinstance(games, (str, os.PathLike)) else games
    solver = Solver(tt_mb=PIPMA_TT_MB)
    for game in source:
        result = game.result
        if result is None:
            continue
        labels = game_names(game)
        s0, s1, s2 = result.scores
        verdict = None if result.passed else start_verdict(game, solver)
        contract, declarer = game.contract, game.declarer
        if verdict is None or contract is None or declarer is None:
            yield Judged(labels, (s0, s1, s2))
            continue
        turn = first_losing_defence_card(game, solver) if not verdict and result.won else None
        yield Judged(
            labels,
            (s0, s1, s2),
            verdict=verdict,
            declarer=declarer,
            class_name=contract.game_type.class_name,
            won=result.won,
            overbid=result.overbid,
            value=result.value,
            first_losing=None if turn is None else turn.seat,
            first_losing_number=None if turn is None else turn.number,
        )


def seat_role(labels: Sequence[str], declarer: int, class_name: str, seat: int) -> str:
    """The role (:data:`VERDICT_ROLES`) of ``seat``'s player in a declared game: the
    declarer of its class, a defender against another player, or a defender against a seat of
    its own (``labels``: the players' names by seat)."""
    if seat == declarer:
        return "declarer " + class_name
    if labels[declarer] == labels[seat]:
        return "defender against itself"
    return "defender"


def verdicts(judged_games: Iterable[Judged]) -> dict[str, Any]:
    """Per player (the record headers' names ``P0..P2``) and role (:data:`VERDICT_ROLES`):
    ``games`` judged, ``open_won`` (the declarer could win open-handed at the first card),
    ``open_won_declarer_won`` (of those, the declarer did win), ``open_lost``,
    ``open_lost_declarer_won`` and ``first_losing_card`` (of those, the games in which one of
    the player's seats played the defence's first losing card), and ``first_losing_by_card``
    (those cards counted by their number in the game, 30 counts: index 0 is the opening lead,
    index ``3 t + p`` the card of place ``p`` in trick ``t + 1``, place 0 leading), from what
    :func:`judge` made of the games. Raises ``ValueError`` when no game was judged.

    >>> from skat._core import Deal
    >>> from skat.match import play
    >>> from skat.players import make_player
    >>> games = [play([make_player("rules") for _ in range(3)], Deal.random(s), seed=s)
    ...          for s in range(4)]
    >>> v = verdicts(judge(games))
    >>> sum(r["games"] for r in v["players"]["0"]["roles"]) <= 4
    True
    """
    counts: dict[str, dict[str, list[int]]] = defaultdict(
        lambda: defaultdict(lambda: [0] * len(FIELDS))
    )
    by_card: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0] * CARDS))
    judged = 0
    for item in judged_games:
        if item.verdict is None:
            continue
        judged += 1
        roles = {
            (label, seat_role(item.labels, item.declarer, item.class_name, s))
            for s, label in enumerate(item.labels)
        }
        for label, role in roles:
            row = counts[label][role]
            row[0] += 1
            if item.verdict:
                row[1] += 1
                row[2] += item.won
            else:
                row[3] += 1
                row[4] += item.won
        if item.first_losing is not None:
            label = item.labels[item.first_losing]
            role = seat_role(item.labels, item.declarer, item.class_name, item.first_losing)
            counts[label][role][5] += 1
            if item.first_losing_number is not None:
                by_card[label][role][item.first_losing_number - 1] += 1
    if not judged:
        raise ValueError("no declared game with a card played")
    players: dict[str, Any] = {}
    for label in sorted(counts):
        players[label] = {
            "roles": [
                {
                    "role": role,
                    **dict(zip(FIELDS, counts[label][role], strict=True)),
                    "first_losing_by_card": list(by_card[label][role]),
                }
                for role in VERDICT_ROLES
                if role in counts[label]
            ]
        }
    return {"games": judged, "players": players}
