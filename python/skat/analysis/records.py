"""PIPMA over files of ISS records: the mistake tally per player name, in worker processes,
the per-trick plot (the thesis's Fig. 7.3) and, on request, each name's bidding-threshold
estimate (:mod:`skat.analysis.thresholds`, Fig. 8.2) and declarer calibration
(:mod:`skat.analysis.calibration`, Fig. 7.4).

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

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from skat._core import Game, RecordError, Solver
from skat.analysis.calibration import DeclarerCalibration, declarer_errors
from skat.analysis.pipma import TRICKS, MistakeTally, game_names
from skat.analysis.thresholds import ThresholdEstimate, bidding_points
from skat.defaults import PIPMA_TT_MB
from skat.parallel import map_tasks
from skat.records import iter_record_lines

__all__ = ["CHUNK", "FileAnalysis", "analyze_files", "plot_by_trick", "plot_thresholds"]

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
    thresholds: dict[str, ThresholdEstimate] | None = None
    """Per name, the bidding inequalities (when asked for)."""
    calibration: dict[str, DeclarerCalibration] | None = None
    """Per name, its declarer games' won - predicted (when asked for)."""

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
        if self.thresholds is not None:
            out["thresholds"] = {n: self.thresholds[n].as_dict() for n in sorted(self.thresholds)}
        if self.calibration is not None:
            out["calibration"] = {
                n: self.calibration[n].as_dict() for n in sorted(self.calibration)
            }
        return out


_Chunk = tuple[
    MistakeTally,
    list[tuple[str, str]],
    dict[str, ThresholdEstimate] | None,
    dict[str, DeclarerCalibration] | None,
]


def _analyze_chunk(job: tuple[list[tuple[str, str]], bool, bool]) -> _Chunk:
    """Tallies one chunk of (where, line) pairs; returns the tally, the skipped lines and
    (when asked for) the bidding inequalities and the declarer calibration per name."""
    chunk, thresholds, calibration = job
    tally = MistakeTally()
    skipped: list[tuple[str, str]] = []
    solver = Solver(tt_mb=PIPMA_TT_MB)
    estimates: dict[str, ThresholdEstimate] | None = {} if thresholds else None
    calibrations: dict[str, DeclarerCalibration] | None = {} if calibration else None
    for where, line in chunk:
        try:
            game = Game.from_iss(line)
        except RecordError as e:
            skipped.append((where, str(e)))
            continue
        solver.clear()
        tally.add_game(game, solver=solver)
        if estimates is not None:
            names = game_names(game)
            for seat, bid, p in bidding_points(game):
                estimates.setdefault(names[seat], ThresholdEstimate()).add(bid, p)
        if calibrations is not None:
            found = declarer_errors(game)
            if found is not None:
                calibrations.setdefault(found[0], DeclarerCalibration()).add(found[1], found[2])
    return tally, skipped, estimates, calibrations


def analyze_files(
    paths: Sequence[str | os.PathLike[str]],
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
    thresholds: bool = False,
    calibration: bool = False,
) -> FileAnalysis:
    """PIPMA over every record of ``paths``; ``workers`` processes (1: this one);
    ``progress(done, total)`` is called with record counts as chunks finish; ``thresholds``
    also collects each name's bidding inequalities, ``calibration`` its declarer calibration."""
    if workers < 1:
        raise ValueError("workers must be at least 1")
    started = time.perf_counter()
    lines = [
        (f"{os.fspath(path)}:{number}", text)
        for path in paths
        for number, text in iter_record_lines(path)
    ]
    chunks = [(lines[i : i + CHUNK], thresholds, calibration) for i in range(0, len(lines), CHUNK)]
    report = FileAnalysis(records=len(lines), workers=workers)
    done = 0
    if progress is not None:
        progress(0, len(lines))
    results: list[_Chunk] = []
    mapped = map_tasks(_analyze_chunk, chunks, workers=workers if len(chunks) > 1 else 1)
    for chunk, result in zip(chunks, mapped, strict=True):
        results.append(result)
        done += len(chunk[0])
        if progress is not None:
            progress(done, len(lines))
    if thresholds:
        report.thresholds = {}
    if calibration:
        report.calibration = {}
    for tally, skipped, estimates, calibrations in results:
        report.tally.merge(tally)
        report.skipped.extend(skipped)
        for name, est in (estimates or {}).items():
            into = report.thresholds.setdefault(name, ThresholdEstimate())  # type: ignore[union-attr]
            into.bids.extend(est.bids)
            into.passes.extend(est.passes)
        for name, cal in (calibrations or {}).items():
            mine = report.calibration.setdefault(name, DeclarerCalibration())  # type: ignore[union-attr]
            mine.errors.extend(cal.errors)
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


def plot_thresholds(
    estimates: dict[str, ThresholdEstimate], path: str | os.PathLike[str], title: str = ""
) -> None:
    """Writes a PNG of each name's hinge loss (per inequality) against the threshold."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name in sorted(estimates):
        est = estimates[name]
        n = len(est.bids) + len(est.passes)
        t = est.estimate()
        if not n or t is None:
            continue
        curve = est.curve()
        ax.plot(
            [c[0] for c in curve],
            [c[1] / n for c in curve],
            label=f"{name} (T = {t:.3f}, {n} inequalities)",
        )
    ax.set_xlabel("threshold T")
    ax.set_ylabel("hinge loss per inequality")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.set_title(title or "bidding-threshold estimate")
    if ax.lines:
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
