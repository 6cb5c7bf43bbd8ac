"""The Fig. 9.1 experiment: exploitability of R0 (PIMC) .. Rk over a grid of BCD parameters.

Each cell ``(corr, bias, dis)`` draws its trees in chunks of :data:`CHUNK`; chunk ``j`` of a
cell uses ``numpy.random.default_rng(derive_seed(seed, corr', bias', dis', j))`` (the
parameters in thousandths), so a cell's result depends only on the seed, its parameters and
its number of trees, never on the other cells or on the number of worker processes. Every
per-tree exploitability is a dyadic rational summed exactly in float64, so the order in which
chunks finish does not matter either.

The result is plain data (:func:`run_grid`), written as JSON by ``skat research bcd``:
``{"cells": [{"corr", "bias", "dis", "exploitability": [R0, R1, ...], "se": [...],
"r1_minus_r0", "r1_minus_r0_se"}, ...], "by_dis": [...], "meta": {...}}``. With
``equilibrium=True`` every tree is also solved by CFR+ (:mod:`skat.research.bcd_games`) and
each cell gets ``versus_equilibrium`` (the seat-averaged payoff of R0, R1, ... against the
equilibrium, at most about 0) and ``versus_equilibrium_se``; CFR+ to exploitability
``tolerance`` makes the payoffs exact to about that much.

>>> r = run_grid(grid([0.5], [0.5], [0.0, 0.8]), trees=4, seed=1, levels=1, worlds=4, height=4)
>>> [(c["dis"], len(c["exploitability"])) for c in r["cells"]]
[(0.0, 2), (0.8, 2)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from skat.defaults import SYNTHETIC_TOLERANCE
from skat.parallel import map_tasks
from skat.research.bcd import BcdError, level_exploitability, random_trees
from skat.research.bcd_games import versus_equilibrium
from skat.seeds import derive_seed

CHUNK = 25
"""Trees drawn and evaluated together (one worker task)."""

Cell = tuple[float, float, float]
"""A grid cell: ``(corr, bias, dis)``."""

Job = tuple[Cell, int, int, int, int, int, int, float]
"""One chunk: cell, seed, chunk index, trees, levels, worlds, height, and the CFR+ tolerance
of the payoffs against an equilibrium (0: not computed)."""


def grid(corrs: Sequence[float], biases: Sequence[float], dises: Sequence[float]) -> list[Cell]:
    """Every ``(corr, bias, dis)``, ``dis`` outermost, then ``corr``, then ``bias``.

    >>> grid([0, 1], [0.5], [0.3])
    [(0, 0.5, 0.3), (1, 0.5, 0.3)]
    """
    return [(c, b, d) for d in dises for c in corrs for b in biases]


def _thousandths(x: float) -> int:
    return round(x * 1000)


def _chunk(job: Job) -> np.ndarray:
    """Sums over one chunk's trees: per level the exploitability and its square, then the
    R1 - R0 difference and its square (zeros when there is no R1), then per level the payoff
    against an equilibrium and its square (zeros when not asked for)."""
    (corr, bias, dis), seed, index, count, levels, worlds, height, tolerance = job
    path = (_thousandths(corr), _thousandths(bias), _thousandths(dis), index)
    rng = np.random.default_rng(derive_seed(seed, *path))
    trees = random_trees(count, corr, bias, dis, rng, worlds, height)
    e = level_exploitability(trees, levels)
    diff = e[1] - e[0] if levels else np.zeros(count)
    v = versus_equilibrium(trees, levels, tolerance)[0] if tolerance else np.zeros_like(e)
    sums = [e.sum(axis=1), (e * e).sum(axis=1), [diff.sum(), (diff * diff).sum()]]
    return np.concatenate([*sums, v.sum(axis=1), (v * v).sum(axis=1)])


def _jobs(
    cells: Sequence[Cell],
    trees: int,
    seed: int,
    levels: int,
    worlds: int,
    height: int,
    tolerance: float,
) -> Iterator[tuple[int, Job]]:
    for i, cell in enumerate(cells):
        for j, lo in enumerate(range(0, trees, CHUNK)):
            yield i, (cell, seed, j, min(CHUNK, trees - lo), levels, worlds, height, tolerance)


def _mean_se(total: float, squares: float, n: int) -> tuple[float, float]:
    mean = total / n
    var = max(0.0, squares / n - mean * mean) * n / (n - 1) if n > 1 else 0.0
    return mean, (var / n) ** 0.5


def run_grid(
    cells: Sequence[Cell],
    trees: int,
    seed: int,
    levels: int = 5,
    worlds: int = 8,
    height: int = 8,
    workers: int | None = 1,
    ray: str | None = None,
    progress: Callable[[int], None] | None = None,
    equilibrium: bool = False,
    tolerance: float = SYNTHETIC_TOLERANCE,
) -> dict[str, Any]:
    """Mean exploitability of R0 .. R``levels`` over ``trees`` trees in every cell, with
    standard errors, the per-``dis`` means over the cells and the run's parameters (and with
    ``equilibrium`` each level's payoff against CFR+'s equilibrium); ``progress(n)`` is called
    with the number of trees done after each chunk. The chunks run on ``workers`` processes
    or on Ray (``ray``, :func:`skat.parallel.map_tasks`); the result depends on neither."""
    if equilibrium and tolerance <= 0:
        raise BcdError("the CFR+ tolerance must be positive")
    indexed = list(
        _jobs(cells, trees, seed, levels, worlds, height, tolerance if equilibrium else 0.0)
    )
    jobs = [job for _, job in indexed]
    totals = np.zeros((len(cells), 4 * (levels + 1) + 2))
    done = 0
    for (i, job), sums in zip(
        indexed, map_tasks(_chunk, jobs, workers=workers, ray=ray), strict=True
    ):
        totals[i] += sums
        done += job[3]
        if progress is not None:
            progress(done)
    out_cells = []
    for (corr, bias, dis), row in zip(cells, totals, strict=True):
        stats = [
            _mean_se(float(row[k]), float(row[levels + 1 + k]), trees) for k in range(levels + 1)
        ]
        base = 2 * (levels + 1)
        diff = _mean_se(float(row[base]), float(row[base + 1]), trees)
        cell: dict[str, Any] = {
            "corr": corr,
            "bias": bias,
            "dis": dis,
            "exploitability": [round(m, 6) for m, _ in stats],
            "se": [round(s, 6) for _, s in stats],
        }
        if levels:
            cell["r1_minus_r0"] = round(diff[0], 6)
            cell["r1_minus_r0_se"] = round(diff[1], 6)
        if equilibrium:
            lo, n = base + 2, levels + 1
            versus = [_mean_se(float(row[lo + k]), float(row[lo + n + k]), trees) for k in range(n)]
            cell["versus_equilibrium"] = [round(m, 6) for m, _ in versus]
            cell["versus_equilibrium_se"] = [round(s, 6) for _, s in versus]
        out_cells.append(cell)
    return {
        "cells": out_cells,
        "by_dis": by_dis(out_cells),
        "meta": {
            "trees": trees,
            "seed": seed,
            "levels": levels,
            "worlds": worlds,
            "height": height,
            "chunk": CHUNK,
            "exploitability": "2 (u1 + u2): both seats' best-response gains, 0..4",
            "equilibrium_tolerance": tolerance if equilibrium else None,
        },
    }


def by_dis(cells: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per ``dis``: the mean exploitability of each level over the cells, and in how many
    cells R1 is more exploitable than R0 by more than two standard errors (and less).

    >>> by_dis([{"dis": 0.0, "exploitability": [1.0, 2.0], "r1_minus_r0": 1.0,
    ...          "r1_minus_r0_se": 0.1}])
    [{'dis': 0.0, 'cells': 1, 'exploitability': [1.0, 2.0], 'r1_above_r0': 1, 'r1_below_r0': 0}]
    """
    out = []
    for dis in sorted({c["dis"] for c in cells}):
        group = [c for c in cells if c["dis"] == dis]
        means = np.mean([c["exploitability"] for c in group], axis=0)
        row: dict[str, Any] = {
            "dis": dis,
            "cells": len(group),
            "exploitability": [round(float(m), 6) for m in means],
        }
        if "versus_equilibrium" in group[0]:
            versus = np.mean([c["versus_equilibrium"] for c in group], axis=0)
            row["versus_equilibrium"] = [round(float(m), 6) for m in versus]
        if "r1_minus_r0" in group[0]:
            row["r1_above_r0"] = sum(int(c["r1_minus_r0"] > 2 * c["r1_minus_r0_se"]) for c in group)
            row["r1_below_r0"] = sum(
                int(c["r1_minus_r0"] < -2 * c["r1_minus_r0_se"]) for c in group
            )
        out.append(row)
    return out
