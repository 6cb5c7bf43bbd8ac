"""Perfect-information post-mortem analysis (PIPMA): mistake opportunities and mistakes.

Once a game is over every card is known, and each card decision of each player can be judged
with all hands open. For every position where a player had more than one legal card, every
legal card is classed as **winning** or **losing** for the player's side: whether, after that
card and best open-handed play by everyone from then on, the declarer reaches what she needs
(:func:`skat.win_threshold` card points: 61, 90 or 120; null: no trick at all) and the player
sits on the declarer's side, or she does not and the player defends. Only this win/loss
counts, never card points. The decision is a **mistake opportunity** when both a winning and a
losing card exist, and a **mistake** when the card played was a losing one. A player's mistake
rate is mistakes / opportunities; the counts are also kept per trick (1..10).

Invariants: a forced card (one legal card) is never looked at; a mistake is always an
opportunity; the per-trick counts add up to the totals; each legal card's class comes from one
threshold search of the solver (``Solver.reaches``) on the position after it, so the verdicts
agree with a full solve (``Solver.solve``) of the same positions. Schwarz contracts count
"all tricks" as all 120 card points, as the Monte Carlo players do.

The same classification is what the ``mistake`` player uses at the table (it is told the true
deal): :func:`card_outcomes`.

>>> from skat._core import Deal
>>> from skat.match import play
>>> from skat.players import make_player
>>> game = play([make_player("rules") for _ in range(3)], Deal.random(5), seed=5)
>>> tally = MistakeTally()
>>> found = tally.add_game(game, names=("ann", "bob", "cid"))
>>> sorted(tally.players) == ["ann", "bob", "cid"]
True
>>> all(p.mistakes <= p.opportunities for p in tally.players.values())
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from skat._core import Card, Game, GameType, Phase, Position, Solver, win_threshold
from skat.defaults import PIPMA_TT_MB

__all__ = [
    "TRICKS",
    "Decision",
    "MistakeTally",
    "PlayerMistakes",
    "card_outcomes",
    "decisions",
    "game_names",
    "iter_decisions",
    "target_of",
]

TRICKS = 10
"""Tricks in a game: the per-trick counts have this many entries (trick 1 first)."""

NULL_TARGET = 11
"""``Solver.reaches`` target for null: on its survival scale 11 means no trick taken."""


def target_of(game: Game) -> int:
    """What ``Solver.reaches`` must reach for the declarer of ``game`` to win: her
    :func:`skat.win_threshold` in card points, or 11 (no trick at all) for null.

    >>> from skat._core import Game, Deal
    >>> target_of(Game(Deal.random(1)))  # no contract yet
    Traceback (most recent call last):
    ...
    ValueError: the game has no contract
    """
    contract = game.contract
    declarer = game.declarer
    if contract is None or declarer is None:
        raise ValueError("the game has no contract")
    if contract.game_type == GameType.NULL:
        return NULL_TARGET
    deal = game.deal
    return win_threshold(contract, game.bid, deal.hands[declarer] | deal.skat)


def card_outcomes(position: Position, target: int, solver: Solver) -> dict[Card, bool]:
    """Each legal card of the player to move: does her side win after it, with every card
    known and best play from then on? ``target`` as :func:`target_of` gives it.

    >>> from skat._core import Position, Solver
    >>> p = Position(("CJ SJ", "CA CT", "SA ST"), "G", declarer=0, leader=0)
    >>> card_outcomes(p, 61, Solver(tt_mb=1))  # the declarer's jacks win both tricks: 46
    {Card("CJ"): False, Card("SJ"): False}
    """
    declarer_side = position.to_move == position.declarer
    return {
        card: solver.reaches(position.play(card), target) == declarer_side
        for card in position.legal_cards().sorted(position.contract.game_type)
    }


@dataclass(frozen=True)
class Decision:
    """One card decision with more than one legal card, judged open-handed."""

    number: int
    """Card number in the game, 1..30."""
    trick: int
    """Trick number, 1..10."""
    seat: int
    """The player's seat."""
    card: Card
    """The card played."""
    winning: tuple[Card, ...]
    """The legal cards after which the player's side wins."""
    losing: tuple[Card, ...]
    """The legal cards after which it loses."""

    @property
    def opportunity(self) -> bool:
        """Both winning and losing cards existed."""
        return bool(self.winning) and bool(self.losing)

    @property
    def mistake(self) -> bool:
        """An opportunity where the card played was a losing one."""
        return self.opportunity and self.card in self.losing


SPECIAL = frozenset({"claim", "resign", "timeout", "leave"})
"""Action kinds that record who made them: replayed with that seat."""


def iter_decisions(game: Game, solver: Solver | None = None) -> Iterator[Decision]:
    """Every card decision of ``game`` (finished or not) with more than one legal card, in the
    order played, each judged only when the iteration reaches it. ``solver`` is reused when
    given (a table kept warm within a game speeds it up); the answers do not depend on it."""
    if game.contract is None or game.declarer is None or not game.played:
        return
    target = target_of(game)
    solver = solver if solver is not None else Solver(tt_mb=PIPMA_TT_MB)
    replay = Game(game.deal, variants=game.variants)
    number = 0
    for who, action in game.history:
        if action.kind == "play" and action.card is not None and replay.phase == Phase.PLAY:
            number += 1
            seat = replay.to_move
            if seat is None:  # cannot happen for a game that replays
                raise ValueError("the game's history does not replay")
            if len(replay.legal_cards()) > 1:
                outcome = card_outcomes(Position.from_game(replay), target, solver)
                yield Decision(
                    number,
                    len(replay.tricks) + 1,
                    seat,
                    action.card,
                    tuple(c for c, w in outcome.items() if w),
                    tuple(c for c, w in outcome.items() if not w),
                )
        # a claim, resignation, time-out or leaving names who made it (not always the mover)
        replay.apply(action, seat=who if isinstance(who, int) and action.kind in SPECIAL else None)


def decisions(game: Game, solver: Solver | None = None) -> list[Decision]:
    """Every card decision of ``game`` (finished or not) with more than one legal card, in the
    order played (:func:`iter_decisions`)."""
    return list(iter_decisions(game, solver))


def game_names(game: Game) -> tuple[str, str, str]:
    """The players' names from the record header (``P0..P2``), the seat numbers where none.

    >>> import skat
    >>> game_names(skat.random_game(1))
    ('0', '1', '2')
    """
    header = dict(game.header)
    names = [header.get(f"P{seat}", str(seat)) for seat in range(3)]
    return names[0], names[1], names[2]


def _zeros() -> list[int]:
    return [0] * TRICKS


@dataclass
class PlayerMistakes:
    """One player's mistake opportunities and mistakes, in total and per trick."""

    opportunities: int = 0
    mistakes: int = 0
    decisions: int = 0
    """Card decisions with more than one legal card."""
    games: int = 0
    """Games with at least one card decision looked at."""
    opportunities_by_trick: list[int] = field(default_factory=_zeros)
    mistakes_by_trick: list[int] = field(default_factory=_zeros)

    @property
    def rate(self) -> float | None:
        """Mistakes / opportunities (None without opportunities)."""
        return self.mistakes / self.opportunities if self.opportunities else None

    def rate_by_trick(self) -> list[float | None]:
        """The mistake rate in each trick (None where there was no opportunity)."""
        return [
            m / o if o else None
            for m, o in zip(self.mistakes_by_trick, self.opportunities_by_trick, strict=True)
        ]

    def add(self, decision: Decision) -> None:
        """Counts one decision of this player."""
        self.decisions += 1
        if decision.opportunity:
            self.opportunities += 1
            self.opportunities_by_trick[decision.trick - 1] += 1
            if decision.mistake:
                self.mistakes += 1
                self.mistakes_by_trick[decision.trick - 1] += 1

    def merge(self, other: PlayerMistakes) -> None:
        """Adds another tally of the same player."""
        self.opportunities += other.opportunities
        self.mistakes += other.mistakes
        self.decisions += other.decisions
        self.games += other.games
        for t in range(TRICKS):
            self.opportunities_by_trick[t] += other.opportunities_by_trick[t]
            self.mistakes_by_trick[t] += other.mistakes_by_trick[t]

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {
            "opportunities": self.opportunities,
            "mistakes": self.mistakes,
            "rate": self.rate,
            "decisions": self.decisions,
            "games": self.games,
            "opportunities_by_trick": list(self.opportunities_by_trick),
            "mistakes_by_trick": list(self.mistakes_by_trick),
            "rate_by_trick": self.rate_by_trick(),
        }


@dataclass
class MistakeTally:
    """Mistake counts per player name over any number of games (PIPMA)."""

    players: dict[str, PlayerMistakes] = field(default_factory=dict)
    games: int = 0
    """Games added that had card play to judge."""

    def player(self, name: str) -> PlayerMistakes:
        """The tally of ``name`` (created empty when new)."""
        return self.players.setdefault(name, PlayerMistakes())

    def add_decisions(self, found: Iterable[Decision], names: Sequence[str]) -> None:
        """Counts the decisions of one game; ``names[seat]`` names each seat's player."""
        seen: set[str] = set()
        any_decision = False
        for d in found:
            any_decision = True
            self.player(names[d.seat]).add(d)
            seen.add(names[d.seat])
        for name in seen:
            self.players[name].games += 1
        if any_decision:
            self.games += 1

    def add_game(
        self, game: Game, names: Sequence[str] | None = None, solver: Solver | None = None
    ) -> list[Decision]:
        """Judges one game and counts it; returns its decisions. ``names`` default to the
        record's (:func:`game_names`)."""
        found = decisions(game, solver)
        self.add_decisions(found, names if names is not None else game_names(game))
        return found

    def merge(self, other: MistakeTally) -> None:
        """Adds another tally (for example one worker's)."""
        self.games += other.games
        for name, p in other.players.items():
            self.player(name).merge(p)

    def rate(self, name: str) -> float | None:
        """The mistake rate of ``name`` (None when unknown or without opportunities)."""
        p = self.players.get(name)
        return None if p is None else p.rate

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict: games and, per player name, :meth:`PlayerMistakes.as_dict`."""
        return {
            "games": self.games,
            "players": {n: self.players[n].as_dict() for n in sorted(self.players)},
        }
