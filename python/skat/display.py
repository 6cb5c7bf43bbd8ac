"""Rendering cards, hands, results and the progress of long commands for the terminal.

The one home of the seat names (:data:`SEAT_NAMES`, seat 0 forehand) and of the suit symbols
and the plain card text (:func:`card_text`, ``♥10``); the front ends in :mod:`skat.ui` and
:mod:`skat.web` and the commands all take them from here, so a card or a seat reads the same
everywhere. The progress of long commands is a rich bar in a terminal and plain lines on
stderr in a log (:func:`progress_bar`, :func:`progress_task`); their ``--json`` and ``--plot``
files are written by :func:`save_json` and :func:`save_outputs`. Nothing here reads input or
changes a game.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from skat._core import Card, Cards, GameResult, GameType, Suit

SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦"}
COLOURS = {Suit.CLUBS: "bold", Suit.SPADES: "green", Suit.HEARTS: "red", Suit.DIAMONDS: "yellow"}
SEAT_NAMES = ("forehand", "middlehand", "rearhand")
"""Seat 0, 1, 2 in words (seat 2, rearhand, deals)."""


def error_text(e: BaseException) -> str:
    """An exception's message on one line, or its class name when it has none (a reader of
    damaged files meets errors of numpy, zipfile, zlib and json alike).

    >>> error_text(EOFError()), error_text(ValueError("bad\\nfile"))
    ('EOFError', 'bad file')
    """
    return " ".join(str(e).split()) or type(e).__name__


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


PROGRESS_LINE_GAP = 30.0
"""Seconds at least between two plain progress lines (consoles that are not terminals)."""


def progress_bar(console: Console) -> Progress:
    """The progress bar of long commands: description, bar, done/total, elapsed, remaining.

    On a console that is not a terminal (output redirected to a log) rich draws no bar, so
    the returned object writes plain progress lines to stderr instead (:class:`PlainProgress`).
    """
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    if console.is_terminal:
        return Progress(*columns, console=console, transient=True)
    return PlainProgress(*columns, console=console, transient=True)


class Progressed(Protocol):
    """The callback of :func:`progress_task`: ``done`` so far, and the ``total`` when the work
    reports it as it runs."""

    def __call__(self, done: float, total: float | None = None) -> None: ...


@contextmanager
def progress_task(
    console: Console, description: str, total: float | None = None
) -> Iterator[Progressed]:
    """:func:`progress_bar` with one task, for work that reports how much of it is done: yields
    the callback that sets the task's completed count (and its total, when given; ``None``
    leaves it as it is).

    >>> import io
    >>> with progress_task(Console(file=io.StringIO()), "deals", 4) as progress:
    ...     progress(1)
    ...     progress(3, 6)
    """
    with progress_bar(console) as bar:
        task = bar.add_task(description, total=total)

        def progress(done: float, total: float | None = None) -> None:
            bar.update(task, completed=done, total=total)

        yield progress


def _clock_text(seconds: float) -> str:
    """``h:mm:ss`` of a duration."""
    whole = max(0, round(seconds))
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


def _count(x: float) -> str:
    """A count as people write it: whole numbers without a decimal point or exponent."""
    return str(int(x)) if x == int(x) else f"{x:g}"


def _step(completed: float, total: float | None) -> int:
    """Which reporting step ``completed`` has reached: tenths of a known total, otherwise
    1, 2, 5, 10, 20, 50, ... units done (0 before the first)."""
    if total:
        return min(10, int(10 * completed / total))
    step, mark = 0, 1
    while completed >= mark:
        step += 1
        mark = mark * 5 // 2 if step % 3 == 2 else mark * 2
    return step


class PlainProgress(Progress):
    """A progress bar that also reports in plain lines, for logs.

    Invariants: a line goes to ``sys.stderr`` (never to the results console) only when a task
    reaches a new step (a tenth of its total, or 1, 2, 5, 10, ... done when the total is
    unknown) and at least ``gap`` seconds of ``clock`` have passed since the bar began or the
    last line, so work shorter than ``gap`` prints nothing; times are from the task's start;
    rich's live display never starts (it draws nothing on such a console, and would leave an
    empty line on it when it stops).

    >>> import contextlib, io
    >>> ticks = iter(range(0, 1000, 20))  # a clock 20 seconds further at each look
    >>> bar = PlainProgress(console=Console(file=io.StringIO()), clock=lambda: next(ticks))
    >>> task = bar.add_task("deals", total=4)
    >>> with contextlib.redirect_stderr(sys.stdout):
    ...     bar.advance(task)
    deals: 1/4 (25%), 0:00:20 elapsed, about 0:01:00 left
    """

    def __init__(
        self,
        *columns: Any,
        gap: float = PROGRESS_LINE_GAP,
        clock: Callable[[], float] = time.monotonic,
        **kwargs: Any,
    ) -> None:
        super().__init__(*columns, **kwargs)
        self._gap = gap
        self._clock = clock
        self._last = clock()
        self._steps: dict[TaskID, int] = {}
        self._started: dict[TaskID, float] = {}

    def start(self) -> None:
        """Nothing to draw: rich's live display, on a console that is not a terminal, would
        only leave an empty line among the results when it stops."""

    def stop(self) -> None:
        """See :meth:`start`."""

    def add_task(self, *args: Any, **kwargs: Any) -> TaskID:
        task = super().add_task(*args, **kwargs)
        self._started[task] = self._clock()
        return task

    def update(self, task_id: TaskID, **kwargs: Any) -> None:
        super().update(task_id, **kwargs)
        self._report(task_id)

    def advance(self, task_id: TaskID, advance: float = 1) -> None:
        super().advance(task_id, advance)
        self._report(task_id)

    def _report(self, task_id: TaskID) -> None:
        task = next(t for t in self.tasks if t.id == task_id)
        step = _step(task.completed, task.total)
        if step <= self._steps.get(task_id, 0):
            return
        now = self._clock()
        if now - self._last < self._gap:
            return
        self._steps[task_id] = step
        self._last = now
        elapsed = now - self._started[task_id]
        line = f"{task.description}: {_count(task.completed)}"
        if task.total:
            line += f"/{_count(task.total)} ({100 * task.completed / task.total:.0f}%)"
        line += f", {_clock_text(elapsed)} elapsed"
        if task.total and 0 < task.completed < task.total:
            left = elapsed * (task.total - task.completed) / task.completed
            line += f", about {_clock_text(left)} left"
        print(line, file=sys.stderr, flush=True)


def json_ready(data: Any) -> Any:
    """``data`` with every float that is not finite (NaN, infinity) replaced by ``None``, in
    dicts, lists and tuples at any depth, so that it is written as valid JSON (``null``).

    >>> json_ready({"mean": float("nan"), "rates": (0.5, float("inf"))})
    {'mean': None, 'rates': [0.5, None]}
    """
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {key: json_ready(value) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [json_ready(value) for value in data]
    return data


def save_json(path: str | os.PathLike[str] | None, data: Any) -> None:
    """Writes ``data`` as indented, valid JSON to ``path`` (nothing when ``path`` is empty),
    a number that is not finite as ``null`` (:func:`json_ready`): the ``--json FILE`` option
    of the commands."""
    if path:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(json_ready(data), f, indent=2, allow_nan=False)


def save_outputs(
    console: Console,
    data: Any,
    json_path: str | None,
    plot_path: str | None = None,
    plot: Callable[[Any, str], object] | None = None,
    label: str = "plot",
) -> None:
    """The ``--json FILE`` and ``--plot FILE`` options of a command: ``data`` as JSON to
    ``json_path`` (:func:`save_json`), then ``plot(data, plot_path)`` and the line ``LABEL:
    PATH`` on ``console``; an empty path writes nothing."""
    save_json(json_path, data)
    if plot_path and plot is not None:
        plot(data, plot_path)
        console.print(f"{label}: {escape(plot_path)}")
