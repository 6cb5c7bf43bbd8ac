"""A table of clones tournaments (the Kermit thesis's Table 7.1): every candidate against two
clones of every benchmark, all on the same deals.

Each cell is one :func:`skat.tournament.run` in ``mode="clones"`` with the table's seed, so
every cell plays the same deals in the same order, and a cell is one sequential run (its
modelling players learn deal by deal). Cells are independent and run side by side in
``workers`` processes or as Ray tasks (:func:`skat.parallel.run_tasks`, the path self-play
takes); the results do not depend on how many or where. A cell reports, as the thesis
does, the row (benchmark) player's points per list, the column (candidate) player's, and
row - column, each with its standard error over deals. Because every cell plays the same
deals, the candidates are also compared deal by deal: for each benchmark, every candidate's
points per list minus the first candidate's, over the deals both cells scored
(:meth:`TableResult.paired`).

>>> table = run_table(["rules"], ["random"], deals=1, seed=2)
>>> cell = table.cells[0]
>>> (cell.candidate, cell.benchmark, round(cell.row_minus_col, 6) == round(cell.row - cell.col, 6))
('rules', 'random', True)
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from skat.parallel import local_workers, run_tasks
from skat.players.base import make_player
from skat.tournament import run
from skat.tournament_results import LIST_GAMES, game_score, mean_interval

__all__ = ["Cell", "TableResult", "run_table"]


@dataclass(frozen=True)
class Cell:
    """One candidate against two clones of one benchmark."""

    candidate: str
    benchmark: str
    row: float
    """The benchmark's points per list."""
    row_se: float | None
    col: float
    """The candidate's points per list."""
    col_se: float | None
    row_minus_col: float
    """Mean over deals of row - column points per list."""
    row_minus_col_se: float | None
    deals: int
    """Deals in the statistics."""
    tournament: dict[str, Any] = field(repr=False)
    """The cell's tournament report (``TournamentResult.to_json``)."""
    col_by_deal: dict[int, float] = field(default_factory=dict, repr=False)
    """The candidate's points per list in each scored deal (36 x its mean score), by deal."""

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "candidate": self.candidate,
            "benchmark": self.benchmark,
            "row": self.row,
            "row_se": self.row_se,
            "col": self.col,
            "col_se": self.col_se,
            "row_minus_col": self.row_minus_col,
            "row_minus_col_se": self.row_minus_col_se,
            "deals": self.deals,
            "tournament": self.tournament,
            "col_by_deal": {str(k): v for k, v in sorted(self.col_by_deal.items())},
        }


@dataclass
class TableResult:
    """Every cell of a table, candidates by benchmarks."""

    candidates: list[str]
    benchmarks: list[str]
    deals: int
    seed: int
    cells: list[Cell]
    seconds: float = 0.0
    workers: int | None = 1
    """Worker processes, or on Ray the most cells at once (``None``: every CPU of the cluster)."""

    def cell(self, candidate: str, benchmark: str) -> Cell:
        """The cell of ``candidate`` against ``benchmark``."""
        return next(c for c in self.cells if c.candidate == candidate and c.benchmark == benchmark)

    def paired(self) -> list[dict[str, Any]]:
        """For each benchmark and each candidate after the first: the candidate's points per
        list minus the first candidate's, deal by deal over the deals both scored (mean,
        standard error, 95% interval, deals)."""
        out = []
        base = self.candidates[0]
        for bench in self.benchmarks:
            first = self.cell(base, bench).col_by_deal
            for cand in self.candidates[1:]:
                other = self.cell(cand, bench).col_by_deal
                diffs = [other[k] - first[k] for k in sorted(first) if k in other]
                mean, se, ci = mean_interval(diffs)
                out.append(
                    {
                        "benchmark": bench,
                        "candidate": cand,
                        "against": base,
                        "mean": mean,
                        "stderr": se,
                        "ci95": ci,
                        "deals": len(diffs),
                    }
                )
        return out

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "candidates": self.candidates,
            "benchmarks": self.benchmarks,
            "deals": self.deals,
            "seed": self.seed,
            "cells": [c.as_dict() for c in self.cells],
            "paired": self.paired(),
            "seconds": self.seconds,
            "workers": self.workers,
        }


def _cell(job: tuple[str, str, int, int, str | None]) -> Cell:
    candidate, benchmark, deals, seed, records = job
    result = run(candidate, benchmark, mode="clones", deals=deals, seed=seed, records=records)
    a, b = result.players[result.a], result.players[result.b]
    paired = result.paired_difference
    assert a.points_per_list is not None and b.points_per_list is not None
    assert paired.mean is not None
    by_deal = {
        d.index: LIST_GAMES * statistics.fmean(game_score(g, "A") for g in d.games)
        for d in result.outcomes
        if d.ok
    }
    return Cell(
        candidate,
        benchmark,
        b.points_per_list,
        b.stderr,
        a.points_per_list,
        a.stderr,
        -paired.mean,
        paired.stderr,
        paired.deals,
        result.to_json(),
        by_deal,
    )


def run_table(
    candidates: Sequence[str],
    benchmarks: Sequence[str],
    deals: int,
    seed: int,
    workers: int | None = None,
    records_dir: str | os.PathLike[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    ray: str | None = None,
) -> TableResult:
    """Plays every candidate against two clones of every benchmark on ``deals`` deals from
    ``seed``, in ``workers`` processes (default: every local core); ``records_dir`` gets one
    record file per cell (``cell-I-J.sgf``, candidate I, benchmark J; on Ray a directory every
    node can write); ``progress(done, total)`` counts finished cells; ``ray``: run the cells as
    Ray tasks (:func:`skat.parallel.run_tasks`), at most ``workers`` at once (default: every
    CPU of the cluster), each with one solver thread."""
    if deals < 1:
        raise ValueError("deals must be at least 1")
    if workers is not None and workers < 1:
        raise ValueError("workers must be at least 1")
    n = local_workers(workers)
    for spec in (*candidates, *benchmarks):
        make_player(spec)  # raises PlayerSpecError before any game
    started = time.perf_counter()
    jobs = []
    for i, cand in enumerate(candidates):
        for j, bench in enumerate(benchmarks):
            path = None if records_dir is None else os.path.join(records_dir, f"cell-{i}-{j}.sgf")
            jobs.append((cand, bench, deals, seed, path))
    found: dict[int, Cell] = {}
    if progress is not None:
        progress(0, len(jobs))
    for index, cell in run_tasks(
        _cell,
        jobs,
        workers=n if ray is None else workers,
        ray=ray,
    ):
        found[index] = cell
        if progress is not None:
            progress(len(found), len(jobs))
    cells = [found[i] for i in range(len(jobs))]
    return TableResult(
        list(candidates),
        list(benchmarks),
        deals,
        seed,
        cells,
        time.perf_counter() - started,
        n if ray is None else workers,
    )
