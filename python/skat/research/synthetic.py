"""The synthetic game trees of the thesis's section 5.4.1, and how PIMC and random play fare on
them against an equilibrium (Figs. 5.5-5.7).

A tree: one chance node at the root deals each player one of ``worlds`` private worlds
(``worlds**2`` equally likely outcomes, the players' information disjoint); then ``depth``
binary moves alternate, player 0 first, every move public; the leaves pay +1 (player 0 wins) or
-1. Sibling leaves form pairs: with probability ``lc`` a pair is correlated, both +1 with
probability ``b`` (else both -1); otherwise one leaf of the pair, chosen at random, is +1 and
the other -1. Each player's information set starts as all the opponent's worlds; each time the
player is to move, every one of his sets is split in half with probability ``df``, and each
half again with probability ``df``, recursively (a set of one world stays whole). The split
happens before the move, so that ``df = 1`` gives perfect information at every decision. The
opponent's worlds are numbered and sets are intervals, halved at their middle.

Per tree :func:`evaluate` computes, exactly, the payoff of PIMC and of uniformly random play
against CFR+'s equilibrium, averaged over the two seats (so that an equilibrium challenger
scores 0 and any challenger at most about 0, up to CFR+'s tolerance).

>>> t = synthetic_tree(2, 2, lc=1.0, b=1.0, df=0.5, seed=1)
>>> sorted(set(t.payoff[t.kind == -1].tolist()))
[1.0]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from skat.parallel import local_workers, map_tasks
from skat.research.games import CHANCE, TERMINAL, Game, GameError, uniform, value
from skat.research.solvers import cfr_plus, pimc, sequence_form_lp
from skat.seeds import derive_seed

PANELS = {
    "a": ("lc", "b", "df"),
    "b": ("lc", "df", "b"),
    "c": ("b", "df", "lc"),
}
"""Each panel of Figs. 5.5-5.7: its x axis, y axis and the parameter held fixed."""

FIXED = {"df": 0.3, "b": 0.75, "lc": 0.5}
"""The fixed parameter of panels a, b, c (Figs. 5.5 and 5.6; Fig. 5.7's caption names b = 0.5
and lc = 0.75 instead, which we take for a slip: its panels are the difference of the other
two figures' panels)."""

EQUILIBRIA = ("cfr", "lp")
"""The equilibrium players :func:`evaluate` offers: CFR+'s average strategy or the
sequence-form linear program's (a vertex of the equilibrium polytope)."""

AXES = {"lc": (0.0, 1.0), "b": (0.5, 1.0), "df": (0.0, 1.0)}
"""The range of each parameter on the figures' axes (bias b and 1 - b are the same game with
the players' payoffs' signs swapped, and the seats are swapped anyway)."""


def _split(lo: int, hi: int, df: float, rng: np.random.Generator, out: list[int]) -> None:
    """Appends the starts of the blocks of ``lo .. hi - 1`` after recursive halving."""
    if hi - lo > 1 and rng.random() < df:
        mid = (lo + hi) // 2
        _split(lo, mid, df, rng, out)
        _split(mid, hi, df, rng, out)
    else:
        out.append(lo)


def _refine(labels: np.ndarray, df: float, rng: np.random.Generator) -> np.ndarray:
    """A partition (each opponent world labelled by its block's first world) after every
    block is split recursively with probability ``df``."""
    starts = np.flatnonzero(np.diff(labels, prepend=-1))
    ends = np.append(starts[1:], len(labels))
    new: list[int] = []
    for lo, hi in zip(starts, ends, strict=True):
        _split(int(lo), int(hi), df, rng, new)
    bounds = np.append(new, len(labels))
    return np.repeat(np.asarray(new, dtype=np.int64), np.diff(bounds))


def synthetic_tree(depth: int, worlds: int, lc: float, b: float, df: float, seed: int) -> Game:
    """One random tree (see the module text), drawn from ``seed``.

    >>> t = synthetic_tree(4, 3, lc=0.5, b=0.5, df=0.0, seed=7)
    >>> len(t.seqs[0].start), len(t.seqs[1].start)  # 3 worlds x (1 + 4) and x (2 + 8)
    (15, 30)
    """
    if depth < 1 or worlds < 1:
        raise GameError("a synthetic tree needs depth >= 1 and worlds >= 1")
    if not all(0.0 <= x <= 1.0 for x in (lc, b, df)):
        raise GameError("lc, b and df are probabilities, in 0..1")
    rng = np.random.default_rng(seed)
    w2 = worlds * worlds
    kind = [np.array([CHANCE]), np.full(w2, 0 if depth else TERMINAL)]
    parent = [np.array([-1]), np.zeros(w2, dtype=np.int64)]
    action = [np.array([0]), np.arange(w2)]
    infoset = [np.array([-1]), np.zeros(w2, dtype=np.int64)]
    first = 1  # index of the first node of the current level
    # partitions[p]: per (history, own world) the labels of the opponent's worlds
    partitions = [np.zeros((1, worlds, worlds), dtype=np.int64) for _ in (0, 1)]
    own_of = [np.arange(w2) // worlds, np.arange(w2) % worlds]
    opp_of = [own_of[1], own_of[0]]
    label_base = 0
    for d in range(depth + 1):
        n_hist = 1 << d
        if d < depth:
            p = d % 2
            prev = partitions[p]
            # the parent history of the player's previous decision (two moves up), if any
            parents = np.arange(n_hist) >> 2 if d >= 2 else np.zeros(n_hist, dtype=np.int64)
            new = np.empty((n_hist, worlds, worlds), dtype=np.int64)
            for h in range(n_hist):
                for i in range(worlds):
                    new[h, i] = _refine(prev[parents[h], i], df, rng)
            partitions[p] = new
            hist = np.tile(np.arange(n_hist), w2)
            c = np.repeat(np.arange(w2), n_hist)
            block = new[hist, own_of[p][c], opp_of[p][c]]
            labels = (hist * worlds + own_of[p][c]) * worlds + block
            infoset[-1] = label_base + labels
            label_base += n_hist * w2
            kind[-1] = np.full(n_hist * w2, p)
            n_kids = 2 * n_hist * w2
            kind.append(np.full(n_kids, (1 - p) if d + 1 < depth else TERMINAL))
            parent.append(first + np.repeat(np.arange(n_hist * w2), 2))
            action.append(np.tile([0, 1], n_hist * w2))
            infoset.append(np.full(n_kids, -1, dtype=np.int64))
            first += n_hist * w2
    n_leaf = w2 << depth
    corr = rng.random(n_leaf // 2) < lc
    high = rng.random(n_leaf // 2) < b
    left_wins = rng.random(n_leaf // 2) < 0.5
    left = np.where(corr, np.where(high, 1.0, -1.0), np.where(left_wins, 1.0, -1.0))
    right = np.where(corr, left, -left)
    leaves = np.stack([left, right], axis=1).reshape(-1)
    k = np.concatenate(kind)
    pay = np.zeros(len(k))
    pay[k == TERMINAL] = leaves
    prob = np.ones(len(k))
    prob[1 : 1 + w2] = 1.0 / w2
    return Game(
        k,
        np.concatenate(parent),
        np.concatenate(action),
        prob,
        np.concatenate(infoset),
        pay,
    )


@dataclass(frozen=True)
class TreeResult:
    """One tree's exact results: the challengers' seat-averaged payoffs against the
    equilibrium, the game value for player 0 and CFR+'s exploitability and iterations."""

    pimc: float
    random: float
    game_value: float
    exploitability: float
    iterations: int


def evaluate(
    game: Game,
    tolerance: float = 1e-4,
    max_iterations: int = 20_000,
    ties: str = "uniform",
    rule: str = "average",
    equilibrium: str = "cfr",
) -> TreeResult:
    """PIMC's and random play's payoffs against an equilibrium, each the mean of the
    challenger as player 0 and as player 1. The equilibrium is CFR+'s average strategy
    (``equilibrium="cfr"``) or the sequence-form linear program's (``"lp"``, needs scipy;
    about ten times slower at depth 8, W 8).

    >>> r = evaluate(synthetic_tree(2, 2, lc=0.0, b=0.5, df=1.0, seed=3))
    >>> abs(r.pimc) < 1e-3  # perfect information: PIMC plays an equilibrium
    True
    """
    if equilibrium not in EQUILIBRIA:
        raise GameError(f"equilibrium must be one of {', '.join(EQUILIBRIA)}, got {equilibrium!r}")
    if equilibrium == "lp":
        sol = sequence_form_lp(game)
    else:
        sol = cfr_plus(game, tolerance=tolerance, max_iterations=max_iterations)
    eq0, eq1 = sol.beh

    def score(c0: np.ndarray, c1: np.ndarray) -> float:
        return 0.5 * (value(game, c0, eq1) - value(game, eq0, c1))

    return TreeResult(
        pimc=score(pimc(game, 0, ties, rule), pimc(game, 1, ties, rule)),
        random=score(uniform(game, 0), uniform(game, 1)),
        game_value=sol.value,
        exploitability=sol.exploitability,
        iterations=sol.iterations,
    )


def grid_points(steps: int, axis: str) -> list[float]:
    """The ``steps`` evenly spaced values of parameter ``axis`` over its range (:data:`AXES`).

    >>> grid_points(3, "b")
    [0.5, 0.75, 1.0]
    """
    lo, hi = AXES[axis]
    if steps == 1:
        return [lo]
    return [round(lo + (hi - lo) * i / (steps - 1), 6) for i in range(steps)]


def triples(steps: int, panels: Sequence[str] = tuple(PANELS)) -> list[dict[str, float]]:
    """Every (lc, b, df) the chosen panels need, each once, in a fixed order."""
    seen: dict[tuple[float, float, float], None] = {}
    for panel in panels:
        x, y, z = PANELS[panel]
        for yv in grid_points(steps, y):
            for xv in grid_points(steps, x):
                t = {x: xv, y: yv, z: FIXED[z]}
                seen[(t["lc"], t["b"], t["df"])] = None
    return [{"lc": lc, "b": b, "df": df} for lc, b, df in seen]


def _task(args: tuple[dict[str, float], int, int, int, int, dict[str, Any]]) -> TreeResult:
    params, depth, worlds, seed, _, options = args
    tree = synthetic_tree(depth, worlds, params["lc"], params["b"], params["df"], seed)
    return evaluate(tree, **options)


def run_grid(
    steps: int,
    trees: int,
    seed: int,
    depth: int = 8,
    worlds: int = 8,
    workers: int | None = 1,
    ray: str | None = None,
    panels: Sequence[str] = tuple(PANELS),
    options: dict[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Every triple of the panels' grids with ``trees`` trees each; tree ``k`` of triple
    ``t`` is drawn from ``derive_seed(seed, t, k)``, so that the result does not depend on
    ``workers`` or ``ray`` (:func:`skat.parallel.map_tasks`). Returns the per-triple means
    (and standard errors) and the panels.

    >>> r = run_grid(2, 1, seed=1, depth=2, worlds=2, panels="a")
    >>> len(r["triples"]), sorted(r["panels"]["a"])
    (4, ['fixed', 'pimc', 'random', 'x', 'y'])
    """
    opts = dict(options or {})
    cells = triples(steps, panels)
    jobs = [
        (cell, depth, worlds, derive_seed(seed, t, k), k, opts)
        for t, cell in enumerate(cells)
        for k in range(trees)
    ]
    results: list[TreeResult] = []
    chunk = max(1, len(jobs) // (local_workers(workers) * 8))
    for r in map_tasks(_task, jobs, workers=workers, ray=ray, chunksize=chunk):
        results.append(r)
        if progress:
            progress(1)
    rows = []
    for t, cell in enumerate(cells):
        mine = results[t * trees : (t + 1) * trees]
        row: dict[str, Any] = dict(cell)
        for key in ("pimc", "random"):
            xs = np.array([getattr(r, key) for r in mine])
            row[key] = float(xs.mean())
            row[f"{key}_se"] = float(xs.std(ddof=1) / np.sqrt(len(xs))) if len(xs) > 1 else 0.0
        gains = np.array([r.pimc - r.random for r in mine])
        row["gain"] = float(gains.mean())
        row["max_exploitability"] = max(r.exploitability for r in mine)
        row["mean_iterations"] = float(np.mean([r.iterations for r in mine]))
        rows.append(row)
    return {
        "depth": depth,
        "worlds": worlds,
        "trees": trees,
        "steps": steps,
        "seed": seed,
        "options": opts,
        "triples": rows,
        "panels": {p: _panel(rows, p, steps) for p in panels},
    }


def _panel(rows: list[dict[str, Any]], panel: str, steps: int) -> dict[str, Any]:
    """The grids of one panel: ``pimc`` and ``random`` as lists of rows (y) of columns (x)."""
    x, y, z = PANELS[panel]
    index = {(r["lc"], r["b"], r["df"]): r for r in rows}
    out: dict[str, Any] = {"x": x, "y": y, "fixed": {z: FIXED[z]}}
    for key in ("pimc", "random"):
        grid = []
        for yv in grid_points(steps, y):
            line = []
            for xv in grid_points(steps, x):
                t = {x: xv, y: yv, z: FIXED[z]}
                line.append(index[(t["lc"], t["b"], t["df"])][key])
            grid.append(line)
        out[key] = grid
    return out


FIGURES = {
    "5.5": ("pimc", "PIMC's payoff against equilibrium"),
    "5.6": ("random", "random play's payoff against equilibrium"),
    "5.7": ("gain", "PIMC's gain over random play"),
}
"""Figs. 5.5-5.7: the quantity each shows and its title."""


def plot(result: dict[str, Any], folder: str) -> list[str]:
    """Writes one PNG per figure (three panels each) into ``folder``; returns the paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths = []
    panels = result["panels"]
    for fig_id, (key, title) in FIGURES.items():
        grids = {
            name: np.array(panel["pimc"]) - np.array(panel["random"])
            if key == "gain"
            else np.array(panel[key])
            for name, panel in panels.items()
        }
        # one scale per figure; darker is worse for the challenger (a loss, or a small gain)
        top = max(float(g.max()) for g in grids.values())
        bottom = min(float(g.min()) for g in grids.values())
        lo, hi = (0.0, max(0.05, top)) if key == "gain" else (min(-0.05, bottom), 0.0)
        fig, axes = plt.subplots(
            1, len(panels), figsize=(4.4 * len(panels), 3.8), squeeze=False, layout="constrained"
        )
        for ax, (name, panel) in zip(axes[0], panels.items(), strict=True):
            grid = grids[name]
            xs = grid_points(result["steps"], panel["x"])
            ys = grid_points(result["steps"], panel["y"])
            dx = (xs[1] - xs[0]) / 2 if len(xs) > 1 else 0.5
            dy = (ys[1] - ys[0]) / 2 if len(ys) > 1 else 0.5
            im = ax.imshow(
                grid,
                origin="lower",
                extent=(xs[0] - dx, xs[-1] + dx, ys[0] - dy, ys[-1] + dy),
                aspect="auto",
                cmap="Greys_r",
                vmin=lo,
                vmax=hi,
                interpolation="nearest",
            )
            for j, yv in enumerate(ys):
                for i, xv in enumerate(xs):
                    dark = (grid[j][i] - lo) / (hi - lo) < 0.5
                    ax.text(
                        xv,
                        yv,
                        f"{grid[j][i]:.2f}",
                        ha="center",
                        va="center",
                        fontsize=6,
                        color="white" if dark else "black",
                    )
            ((z, zv),) = panel["fixed"].items()
            ax.set_title(f"({name}) {z} = {zv}")
            ax.set_xlabel(panel["x"])
            ax.set_ylabel(panel["y"])
        fig.colorbar(im, ax=axes[0].tolist(), shrink=0.8)
        fig.suptitle(
            f"Fig. {fig_id}: {title} (depth {result['depth']}, W = {result['worlds']},"
            f" {result['trees']} trees per point; darker = worse)"
        )
        path = os.path.join(folder, f"synthetic-fig{fig_id.replace('.', '-')}.png")
        fig.savefig(path, dpi=110)
        plt.close(fig)
        paths.append(path)
    return paths
