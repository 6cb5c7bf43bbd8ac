"""PIPMA over files of ISS records: the mistake tally per player name, in worker processes,
and the per-trick plot (the thesis's Fig. 7.3).

Every record line is replayed (``Game.from_iss``) and judged by :mod:`skat.analysis.pipma`;
players are named by the record's ``P0..P2``. A line that does not replay is counted as
skipped with its file and line, and the analysis goes on. Lines are cut into chunks in file
order and each chunk is tallied on its own; the tallies are merged, so the result is the same
for any number of workers.

>>> import os, tempfile, skat
>>> path = os.path.join(tempfile.mkdtemp(), "games.sgf")
>>> _ = open(path, "w").write("\\n".join(skat.random_game(s).to_iss() for s in range(3)))
>>> report = analyze_files([path])
>>> report.records, report.skipped
(3, [])
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from skat._core import Game, RecordError, Solver
from skat.analysis.pipma import TRICKS, MistakeTally
from skat.defaults import PIPMA_TT_MB
from skat.records import iter_record_lines

__all__ = ["CHUNK", "FileAnalysis", "analyze_files", "plot_by_trick"]

CHUNK = 20
"""Record lines per unit of work handed to a worker."""


@dataclass
class FileAnalysis:
    """What :func:`analyze_files` found."""

    tally: MistakeTally = field(default_factory=MistakeTally)
    records: int = 0
    """Record lines read."""
    skipped: list[tuple[str, str]] = field(default_factory=list)
    """(file:line, message) of the lines that could not be replayed."""
    seconds: float = 0.0
    """Wall-clock time of the analysis."""
    workers: int = 1

    @property
    def seconds_per_game(self) -> float | None:
        """Wall-clock seconds per game with card play (None without any)."""
        return self.seconds / self.tally.games if self.tally.games else None

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict: the tally (games, players) with records, skipped, seconds,
        seconds_per_game and workers."""
        out = self.tally.as_dict()
        out.update(
            records=self.records,
            skipped=[{"where": w, "message": m} for w, m in self.skipped],
            seconds=self.seconds,
            seconds_per_game=self.seconds_per_game,
            workers=self.workers,
        )
        return out


def _analyze_chunk(chunk: list[tuple[str, str]]) -> tuple[MistakeTally, list[tuple[str, str]]]:
    """Tallies one chunk of (where, line) pairs; returns the tally and the skipped lines."""
    tally = MistakeTally()
    skipped: list[tuple[str, str]] = []
    solver = Solver(tt_mb=PIPMA_TT_MB)
    for where, line in chunk:
        try:
            game = Game.from_iss(line)
        except RecordError as e:
            skipped.append((where, str(e)))
            continue
        solver.clear()
        tally.add_game(game, solver=solver)
    return tally, skipped


def analyze_files(
    paths: Sequence[str | os.PathLike[str]],
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> FileAnalysis:
    """PIPMA over every record of ``paths``; ``workers`` processes (1: this one);
    ``progress(done, total)`` is called with record counts as chunks finish."""
    if workers < 1:
        raise ValueError("workers must be at least 1")
    started = time.perf_counter()
    lines = [
        (f"{os.fspath(path)}:{number}", text)
        for path in paths
        for number, text in iter_record_lines(path)
    ]
    chunks = [lines[i : i + CHUNK] for i in range(0, len(lines), CHUNK)]
    report = FileAnalysis(records=len(lines), workers=workers)
    done = 0
    if progress is not None:
        progress(0, len(lines))
    results: list[tuple[MistakeTally, list[tuple[str, str]]]] = []
    if workers == 1 or len(chunks) <= 1:
        mapped = map(_analyze_chunk, chunks)
        for chunk, result in zip(chunks, mapped, strict=True):
            results.append(result)
            done += len(chunk)
            if progress is not None:
                progress(done, len(lines))
    else:
        context = multiprocessing.get_context("spawn")
        with context.Pool(workers) as pool:
            for chunk, result in zip(chunks, pool.imap(_analyze_chunk, chunks), strict=True):
                results.append(result)
                done += len(chunk)
                if progress is not None:
                    progress(done, len(lines))
    for tally, skipped in results:
        report.tally.merge(tally)
        report.skipped.extend(skipped)
    report.seconds = time.perf_counter() - started
    return report


def plot_by_trick(tally: MistakeTally, path: str | os.PathLike[str], title: str = "") -> None:
    """Writes a PNG of each player's mistake rate per trick (players with opportunities)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    tricks = list(range(1, TRICKS + 1))
    for name in sorted(tally.players):
        p = tally.players[name]
        if not p.opportunities:
            continue
        rates = p.rate_by_trick()
        xs = [t for t, r in zip(tricks, rates, strict=True) if r is not None]
        ys = [r for r in rates if r is not None]
        ax.plot(xs, ys, marker="o", label=f"{name} ({p.rate:.3f} over {p.opportunities})")
    ax.set_xlabel("trick")
    ax.set_ylabel("mistake rate (mistakes / opportunities)")
    ax.set_xticks(tricks)
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.set_title(title or "PIPMA mistake rate per trick")
    if ax.lines:
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
