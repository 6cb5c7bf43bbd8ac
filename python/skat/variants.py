"""Table variants of a list: Kontra and Re, Ramsch or Schieberamsch in every game, Bock
rounds after Bock events.

A list's variants are written as in a record's ``VA[...]`` field: ``""`` (the International
Skat Order), or any of ``kontra``, ``bock``, ``ramsch``, ``schieberamsch`` (space or comma
separated; ``schieberamsch`` includes ``ramsch``). The rules are in
``docs/rules.md`` ("Table variants"); the engine applies them to one game
(``Game(deal, variants=...)``), this module decides which games of a list are Bock games.

Bock: every Bock event of a finished game (:meth:`GameResult.bock_events`: a game lost at
60:60, a game with Re, a game worth at least 100) adds a round of :data:`BOCK_ROUND` Bock
games; rounds queue up, and every game dealt while a round is open (passed ones too) uses one
of its games. The schedule is a pure function of the finished games, so a list resumed from
its records, or a game taken back, gets the same Bock games.

>>> from skat._core import Deal, Game
>>> check_variants("bock, kontra")
'kontra bock'
>>> game_variants("kontra bock", [])
'kontra'
>>> lost = Game.from_iss(
...     "(;GM[Skat]MV[w CJ.SJ.HJ.DJ.CA.CT.CK.CQ.C9.C8.SA.ST.SK.SQ.S9.S8.S7.HA.HT.HK"
...     ".HQ.H9.H8.H7.DA.DT.DK.DQ.D9.D8.C7.D7 1 p 2 p 0 18 0 GH 0 RE ]R[] ;)")
>>> lost.result.value, lost.result.bock_events()  # resigned at once: 8 x 24, lost
(-384, ['value'])
>>> game_variants("kontra bock", [lost]), bock_pending([lost])
('kontra bock', 3)
"""

from __future__ import annotations

from collections.abc import Sequence

from skat._core import Deal, Game, SkatError

BOCK_ROUND = 3
"""Bock games per Bock event: one round, every player dealing once."""

__all__ = ["BOCK_ROUND", "VariantsError", "bock_pending", "check_variants", "game_variants"]


class VariantsError(SkatError):
    """Variants other than ``kontra``, ``bock``, ``ramsch`` and ``schieberamsch``."""


def check_variants(text: str) -> str:
    """The variants in their canonical form (``"kontra bock"``); :class:`VariantsError` for
    anything else."""
    try:
        return Game(Deal.random(0), variants=text).variants
    except SkatError as e:
        raise VariantsError(
            f"variants: kontra, bock, ramsch or schieberamsch, not {text!r} ({e})"
        ) from e


def bock_pending(finished: Sequence[Game]) -> int:
    """Bock games still owed after ``finished`` (the list's games so far, in order)."""
    pending = 0
    for game in finished:
        if pending:
            pending -= 1
        if game.result is not None:
            pending += BOCK_ROUND * len(game.result.bock_events())
    return pending


def game_variants(list_variants: str, finished: Sequence[Game]) -> str:
    """The variants of the next game of a list played with ``list_variants`` after
    ``finished``: the list's own, with Bock only while a Bock round is open."""
    words = check_variants(list_variants).split()
    if "bock" in words and bock_pending(finished) == 0:
        words.remove("bock")
    return " ".join(words)
