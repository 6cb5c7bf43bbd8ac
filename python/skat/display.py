"""Rendering cards, hands and results for the terminal (rich markup).

The one home of the seat names (:data:`SEAT_NAMES`, seat 0 forehand) and of the suit symbols
and the plain card text (:func:`card_text`, ``♥10``); the front ends in :mod:`skat.ui` and
:mod:`skat.web` and the commands all take them from here, so a card or a seat reads the same
everywhere. Nothing here reads input or changes a game.
"""

from __future__ import annotations

import json
import os
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from skat._core import Card, Cards, GameResult, GameType, Suit

SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦"}
COLOURS = {Suit.CLUBS: "bold", Suit.SPADES: "green", Suit.HEARTS: "red", Suit.DIAMONDS: "yellow"}
SEAT_NAMES = ("forehand", "middlehand", "rearhand")
"""Seat 0, 1, 2 in words (seat 2, rearhand, deals)."""


def card_text(card: Card) -> str:
    """A card for people: suit symbol and rank, ``10`` for the ten (``♥10``, ``♣J``)."""
    rank = card.rank.letter
    return f"{SUIT_SYMBOLS[card.suit]}{'10' if rank == 'T' else rank}"


def card_markup(card: Card) -> str:
    """A card as rich markup, e.g. ``[red]♥A[/]``."""
    return f"[{COLOURS[card.suit]}]{card_text(card)}[/]"


def hand_markup(cards: Cards, game_type: GameType | None = None) -> str:
    """A hand sorted for the game type, grouped: trumps first, then suits."""
    ordered = cards.sorted(game_type)
    trumps = game_type.trumps() if game_type is not None else Cards.parse("CJ SJ HJ DJ")
    groups: list[list[Card]] = []
    last: object = None
    for c in ordered:
        key: object = "trump" if c in trumps else c.suit
        if key != last:
            groups.append([])
            last = key
        groups[-1].append(c)
    return "  ".join(" ".join(card_markup(c) for c in g) for g in groups)


def result_line(result: GameResult) -> str:
    """One line describing a result, e.g. ``seat 1 wins G with 1: 48 (87 points, 7 tricks)``."""
    if result.passed:
        return "passed in: nobody plays"
    if result.declarer is None:
        return f"ended before play ({result.end}); penalty for seat {result.penalty}"
    assert result.contract is not None
    verdict = "wins" if result.won else "loses"
    mats = (
        ""
        if result.contract.game_type == GameType.NULL
        else (f" with {result.matadors}" if result.matadors > 0 else f" without {-result.matadors}")
    )
    extras = [
        name
        for name, on in (
            ("schneider", result.schneider),
            ("schwarz", result.schwarz),
            ("overbid", result.overbid),
        )
        if on
    ]
    extra = f", {', '.join(extras)}" if extras else ""
    return (
        f"seat {result.declarer} {verdict} {result.contract}{mats}: {result.value:+d}"
        f" ({result.declarer_points} points, {result.declarer_tricks} tricks{extra};"
        f" bid {result.bid})"
    )


def progress_bar(console: Console) -> Progress:
    """The progress bar of long commands: description, bar, done/total, elapsed, remaining."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )


def save_json(path: str | os.PathLike[str] | None, data: Any) -> None:
    """Writes ``data`` as indented JSON to ``path`` (nothing when ``path`` is empty): the
    ``--json FILE`` option of the commands."""
    if path:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=2)
