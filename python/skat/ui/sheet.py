"""The Seeger-Fabian score sheet of a list: one row per finished game, totals per chair.

Chairs, not seats: the person keeps her chair for the whole list while the deal passes round
the table, so game ``i`` puts chair ``c`` at seat ``(c - i) % 3`` and every row's scores are
moved from seats to chairs that way. A row's ``totals`` are the running sums up to it; a game
passed in scores 0 for everyone and has no declarer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from skat._core import Game
from skat.defaults import LANG
from skat.ui import words

__all__ = ["ScoreSheet", "SheetRow", "score_sheet"]


@dataclass(frozen=True)
class SheetRow:
    """One game on the score sheet; chairs index ``scores`` and ``totals``."""

    number: int
    declarer: int | None
    """The declarer's chair (None when passed in)."""
    contract: str
    won: bool | None
    value: int
    """The signed game value (0 when passed in)."""
    scores: tuple[int, int, int]
    totals: tuple[int, int, int]

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {
            "number": self.number,
            "declarer": self.declarer,
            "contract": self.contract,
            "won": self.won,
            "value": self.value,
            "scores": list(self.scores),
            "totals": list(self.totals),
        }


@dataclass(frozen=True)
class ScoreSheet:
    """The Seeger-Fabian list so far: one row per finished game, per chair totals."""

    names: tuple[str, str, str]
    rows: tuple[SheetRow, ...]
    games: int
    """The length of the list."""

    @property
    def totals(self) -> tuple[int, int, int]:
        """Each chair's Seeger-Fabian points so far."""
        return self.rows[-1].totals if self.rows else (0, 0, 0)

    def tally(self, chair: int) -> tuple[int, int]:
        """Games won and lost as declarer by ``chair``."""
        won = sum(1 for r in self.rows if r.declarer == chair and r.won)
        lost = sum(1 for r in self.rows if r.declarer == chair and r.won is False)
        return won, lost

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {
            "names": list(self.names),
            "rows": [r.as_dict() for r in self.rows],
            "totals": list(self.totals),
            "tally": [list(self.tally(c)) for c in range(3)],
            "games": self.games,
        }


def score_sheet(
    names: tuple[str, str, str], finished: Sequence[Game], games: int, lang: str = LANG
) -> ScoreSheet:
    """The sheet of the ``finished`` games of a list of ``games`` (game ``i`` puts chair ``c``
    at seat ``(c - i) % 3``)."""
    rows: list[SheetRow] = []
    totals = [0, 0, 0]
    for i, g in enumerate(finished):
        r = g.result
        assert r is not None
        scores = [0, 0, 0]
        for seat in range(3):
            scores[(seat + i) % 3] = r.scores[seat]
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        declarer = None if r.declarer is None else (r.declarer + i) % 3
        if r.ramsch is not None:
            contract = "Ramsch"
        elif r.contract is None:
            passed = "eingepasst" if lang == "de" else "passed in"
            contract = passed if r.passed else r.end
        else:
            contract = words.contract_text(r.contract, lang)
        rows.append(
            SheetRow(
                i + 1,
                declarer,
                contract,
                None if r.contract is None else r.won,
                r.value,
                (scores[0], scores[1], scores[2]),
                (totals[0], totals[1], totals[2]),
            )
        )
    return ScoreSheet(names, tuple(rows), games)
