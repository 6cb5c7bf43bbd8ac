"""Post-game analysis: the open-handed solver's verdict on every card of a finished game.

For each card played, the game is replayed from its deal up to that card, the position is
given to the solver with every hand open, and each legal card is valued (the declarer's final
card points under best play from then on; null: the trick the declarer is forced to take).
The played card is compared with the best card for the player's side:

- a **flip**: with best play the player's side would have won the game, after the played card
  it loses (or, for null, the declarer is caught / gets away);
- **card points lost** (suit and grand): how many card points the played card gave away to the
  other side compared with the best card, still with every card known.

"Won" is the declarer reaching the points she needs: 61, 90 with schneider announced (or when
only the schneider level reaches the bid), 120 with schwarz announced or ouvert (all card
points stand in for all tricks, as in the Monte Carlo players), exactly as the ``pimc`` player
counts it. Open-handed verdicts are hindsight: a card can be the right choice with what the
player knew and still lose against the actual cards. Forced cards (a single legal card) are not
searched.

Hints and the analysis judge differently: a hint is the Monte Carlo search over the deals the
player could not tell apart (win chance, then card points), the analysis the solver on the one
true deal, so the hint's card can lose points in hindsight. The invariant between them: a card
played where a hint named it is marked ``hinted`` and is never costly; its line says it
followed the hint and shows the open-handed best cards without blaming it.

>>> from skat.players import make_player
>>> from skat.match import play
>>> from skat._core import Deal
>>> game = play([make_player("rules") for _ in range(3)], Deal.random(3), seed=3)
>>> report = analyze_game(game)
>>> len(report.moves) == len(game.played)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from skat._core import Card, Contract, Game, GameType, Phase, Position, Solver, win_threshold
from skat.records import actor_seat
from skat.ui.common import SEAT_NAMES, UiError, card_text, verb

# win_threshold is the core's rule (skat._core.win_threshold), re-exported for callers here
__all__ = ["GameAnalysis", "MoveVerdict", "analyze_game", "win_threshold"]


@dataclass(frozen=True)
class MoveVerdict:
    """The solver's verdict on one card of a finished game."""

    number: int
    """Card number in the game, 1..30."""
    trick: int
    """Trick number, 1..10."""
    seat: int
    """Who played it."""
    declarer_side: bool
    """Whether the player is the declarer."""
    card: Card
    """The card played."""
    values: dict[Card, int]
    """Each legal card's open-handed value (empty when the card was forced): the declarer's
    final card points (null: 0 = she takes no trick, else the trick she is forced to take)."""
    best: tuple[Card, ...]
    """The legal cards with the best value for the player's side (the played card when
    forced)."""
    won_before: bool | None
    """Whether the player's side wins with best play before this card (None when forced)."""
    won_after: bool | None
    """Whether the player's side wins after this card, best play from then on."""
    points_lost: int
    """Card points the played card gives away compared with the best card (suit and grand)."""
    hinted: bool = False
    """The card is the one a hint (the Monte Carlo search over the worlds the player could
    not tell apart) named in this position: never costly, whatever hindsight says."""

    @property
    def forced(self) -> bool:
        """Only one card was legal."""
        return not self.values

    @property
    def flipped(self) -> bool:
        """The card turned a won game (for the player's side) into a lost one."""
        return bool(self.won_before) and self.won_after is False

    @property
    def costly(self) -> bool:
        """A flip or card points lost, with a card that was not the hint's."""
        return (self.flipped or self.points_lost > 0) and not self.hinted

    def describe(self) -> str:
        """One line for people, e.g. ``trick 3: ♥10 turned a won game into a lost one``."""
        head = f"trick {self.trick}: {card_text(self.card)}"
        if self.forced:
            return f"{head} (forced)"
        best = " ".join(card_text(c) for c in self.best)
        if self.hinted and (self.flipped or self.points_lost > 0):
            return f"{head} followed the hint (with every card known: {best})"
        if self.hinted:
            return f"{head} followed the hint: best play"
        if self.flipped:
            return f"{head} turned a won game into a lost one (best: {best})"
        if self.points_lost > 0:
            return f"{head} gave away {self.points_lost} card points (best: {best})"
        return f"{head} is best play"

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {
            "number": self.number,
            "trick": self.trick,
            "seat": self.seat,
            "declarer_side": self.declarer_side,
            "card": str(self.card),
            "values": {str(c): v for c, v in sorted(self.values.items(), key=lambda kv: -kv[1])},
            "best": [str(c) for c in self.best],
            "won_before": self.won_before,
            "won_after": self.won_after,
            "points_lost": self.points_lost,
            "forced": self.forced,
            "flipped": self.flipped,
            "costly": self.costly,
            "hinted": self.hinted,
            "text": self.describe(),
        }


@dataclass
class GameAnalysis:
    """The open-handed verdict on every card of a finished game."""

    contract: Contract | None
    declarer: int | None
    threshold: int
    """Card points the declarer needs (0 for null, see :func:`win_threshold`)."""
    start_value: int | None
    """The open-handed value before the first card (declarer's points; null: forced trick)."""
    start_won: bool | None
    """Whether the declarer wins with best open-handed play from the first card."""
    moves: list[MoveVerdict] = field(default_factory=list)

    def costly(self, seats: Iterable[int] | None = None) -> list[MoveVerdict]:
        """The costly moves (flips and card points lost), of ``seats`` only when given."""
        wanted = set(range(3) if seats is None else seats)
        return [m for m in self.moves if m.costly and m.seat in wanted]

    def summary(self, seat: int | None = None, names: Sequence[str] | None = None) -> list[str]:
        """Lines for people: the verdict at the first card, then the costly moves of ``seat``
        (every seat's when None). ``names`` name the seats (default: forehand, ...)."""
        if self.contract is None or self.declarer is None:
            return ["no card play to analyse"]
        label = list(names) if names is not None else ["the declarer"] * 3
        who = f"{label[self.declarer]} ({SEAT_NAMES[self.declarer]})"
        # the person (``seat``, or the seat named "You") is "you", with the verb to match
        you = names is not None and (
            self.declarer == seat if seat is not None else label[self.declarer] == "You"
        )
        if you:
            who = "you"
        lines: list[str] = []
        if self.start_value is not None:
            if self.contract.game_type == GameType.NULL:
                if self.start_value == 0:
                    how = f"{verb('take', you)} no trick"
                else:
                    how = f"{verb('be', you)} forced to take trick {self.start_value}"
                lines.append(f"With every card known, {who} {how} under best play.")
            else:
                verdict = verb("win" if self.start_won else "lose", you)
                lines.append(
                    f"With every card known, {who} {verdict} under best play from the first card"
                    f" ({self.start_value} card points; {self.threshold} needed)."
                )
        costly = self.costly(None if seat is None else [seat])
        if not costly:
            whose = "Your" if seat is not None else "All"
            lines.append(f"{whose} moves: no card cost the game or card points.")
        else:
            lines.append("Your costly moves:" if seat is not None else "Costly moves:")
            for m in costly:
                by = (
                    ""
                    if seat is not None
                    else f"{label[m.seat] if names else SEAT_NAMES[m.seat]}, "
                )
                lines.append(f"  {by}{m.describe()}")
        return lines

    def as_dict(
        self, seat: int | None = None, names: Sequence[str] | None = None
    ) -> dict[str, object]:
        """A JSON-ready dict; ``seat`` picks whose costly moves the summary lists."""
        return {
            "contract": None if self.contract is None else str(self.contract),
            "declarer": self.declarer,
            "threshold": self.threshold,
            "start_value": self.start_value,
            "start_won": self.start_won,
            "moves": [m.as_dict() for m in self.moves],
            "summary": self.summary(seat, names),
        }


def _declarer_score(contract: Contract, value: int) -> int:
    # a scale on which the declarer maximises: null 0 (no trick) is the best, 11
    if contract.game_type == GameType.NULL:
        return 11 if value == 0 else value
    return value


def analyze_game(
    game: Game, solver: Solver | None = None, hinted: Mapping[int, Card] | None = None
) -> GameAnalysis:
    """The open-handed verdict on every card played in ``game`` (finished or not).

    ``solver`` is reused when given (its table stays warm); otherwise one is made. ``hinted``
    maps card numbers (1..30) to the card a hint named there: playing that card is never
    costly (the hint judged with what the player knew; hindsight is shown, not blamed).
    """
    hints = dict(hinted or {})
    contract = game.contract
    declarer = game.declarer
    if contract is None or declarer is None or not game.played:
        return GameAnalysis(contract, declarer, 0, None, None)
    deal = game.deal
    threshold = win_threshold(contract, game.bid, deal.hands[declarer] | deal.skat)
    is_null = contract.game_type == GameType.NULL
    solver = solver if solver is not None else Solver(tt_mb=16)

    def declarer_wins(value: int) -> bool:
        return value == 0 if is_null else value >= threshold

    replay = Game(deal, variants=game.variants)
    report = GameAnalysis(contract, declarer, threshold, None, None)
    number = 0
    for actor, action in game.history:
        if action.kind == "play" and action.card is not None and replay.phase == Phase.PLAY:
            number += 1
            seat = replay.to_move
            if seat is None:
                raise UiError("the game's history does not replay")
            legal = replay.legal_cards()
            side = seat == declarer
            card = action.card
            if len(legal) <= 1:
                verdict = MoveVerdict(
                    number,
                    len(replay.tricks) + 1,
                    seat,
                    side,
                    card,
                    {},
                    (card,),
                    None,
                    None,
                    0,
                    hints.get(number) == card,
                )
                report.moves.append(verdict)
            else:
                values = solver.analyze(Position.from_game(replay))
                scores = {c: _declarer_score(contract, v) for c, v in values.items()}
                pick = max if side else min
                best_score = pick(scores.values())
                best = tuple(c for c in legal.sorted(contract.game_type) if scores[c] == best_score)
                best_value = values[best[0]]
                played_value = values[card]
                if report.start_value is None:
                    report.start_value = best_value
                    report.start_won = declarer_wins(best_value)
                won_before = declarer_wins(best_value) == side
                won_after = declarer_wins(played_value) == side
                lost = 0 if is_null else abs(best_value - played_value)
                report.moves.append(
                    MoveVerdict(
                        number,
                        len(replay.tricks) + 1,
                        seat,
                        side,
                        card,
                        dict(values),
                        best,
                        won_before,
                        won_after,
                        lost,
                        hints.get(number) == card,
                    )
                )
        replay.apply(action, actor_seat(actor))
    return report
