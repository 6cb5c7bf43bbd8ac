"""The solver thesis's chapter 3 experiment: fastest-cut-first ordering on synthetic trees.

Prefix-value trees (section 3.7; generated lazily in the compiled core) have their exact
negamax value at every node by construction: branching uniform in 4..12, edge values in -6..0
with one zero edge per node, evaluation errors in -4..4 above the leaves. Each tree is searched
by NegaScout and by MTD(f), both with iterative deepening to the tree's depth, with and without
fastest-cut-first ordering, and its minimum minimax proof-tree size (Fig. 3.2) is computed;
every search is checked to return the exact value. Nodes are cumulative over the passes.

Tree ``i`` of a run uses seed ``seed + i``, so results do not depend on the worker count.

>>> r = run(trees=2, seed=1, depths=[4], workers=1)
>>> sorted(r["depths"]["4"]["mean_over_min_proof"])
['mtdf', 'mtdf_fcf', 'negascout', 'negascout_fcf']
>>> r["depths"]["4"]["trees"][0]["min_proof"] <= r["depths"]["4"]["trees"][0]["negascout"]
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from skat._core import fcf_solver_ablation, prefix_tree_figures
from skat.parallel import map_tasks

SEARCHES = ("negascout", "negascout_fcf", "mtdf", "mtdf_fcf")
"""The four searches' keys in each tree's figures."""

THESIS_REDUCTION = {"negascout": 0.35, "mtdf": 0.39}
"""The thesis's node reductions by fastest-cut-first at depth 10 (section 3.8)."""


def _tree(job: tuple[int, int]) -> dict[str, int]:
    seed, depth = job
    return dict(prefix_tree_figures(seed, depth=depth))


def summarise(trees: Sequence[dict[str, int]]) -> dict[str, Any]:
    """Means, ratios to the minimum proof and FCF reductions of one depth's trees.

    ``reduction[algo]`` is ``1 - sum(nodes with FCF) / sum(nodes without)`` over the trees;
    ``mean_over_min_proof[search]`` the mean over trees of nodes / minimum proof size.

    >>> s = summarise([{"min_proof": 10, "negascout": 40, "negascout_fcf": 30,
    ...                 "mtdf": 20, "mtdf_fcf": 20}])
    >>> s["reduction"], s["mean_over_min_proof"]["negascout"]
    ({'negascout': 0.25, 'mtdf': 0.0}, 4.0)
    """
    n = len(trees)
    total = {k: sum(t[k] for t in trees) for k in ("min_proof", *SEARCHES)}
    return {
        "trees": list(trees),
        "count": n,
        "mean_nodes": {k: v / n for k, v in total.items()},
        "mean_over_min_proof": {k: sum(t[k] / t["min_proof"] for t in trees) / n for k in SEARCHES},
        "reduction": {a: 1 - total[f"{a}_fcf"] / total[a] for a in ("negascout", "mtdf")},
    }


def run(
    trees: int,
    seed: int,
    depths: Sequence[int],
    workers: int | None,
    ray: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """``trees`` trees at each depth of ``depths`` (tree ``i``: seed ``seed + i``), searched
    four ways: ``{"depths": {str(depth): summarise(...)}, "meta": {...}}``."""
    jobs = [((seed + i) % 2**64, d) for d in depths for i in range(trees)]
    results: list[dict[str, int]] = []
    for r in map_tasks(_tree, jobs, workers=workers, ray=ray):
        results.append(r)
        if progress:
            progress(1)
    out: dict[str, Any] = {"depths": {}}
    for j, d in enumerate(depths):
        out["depths"][str(d)] = summarise(results[j * trees : (j + 1) * trees])
    out["meta"] = {
        "trees": trees,
        "seed": seed,
        "depths": list(depths),
        "branching": [4, 12],
        "edge_values": [-6, 0],
        "errors": [-4, 4],
        "thesis_reduction_depth_10": THESIS_REDUCTION,
    }
    return out


SOLVER_CHUNK = 50
"""Positions per job of :func:`fcf_solver` (job ``i`` uses seed ``seed + i``)."""


def _solver_chunk(job: tuple[int, int]) -> dict[str, dict[str, int]]:
    n, seed = job
    return dict(fcf_solver_ablation(n, seed))


def fcf_solver(
    positions: int,
    seed: int,
    workers: int | None,
    ray: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """The Skat solver's ``solve`` nodes with the fastest-cut-first term on and off, per game
    class, on random 30-card positions (as ``skat bench solver``; in chunks of
    :data:`SOLVER_CHUNK`, chunk ``i`` drawn from seed ``seed + i``).

    >>> r = fcf_solver(3, seed=1, workers=1)
    >>> sum(c["positions"] for c in r.values())
    3
    """
    jobs = []
    for i in range(0, positions, SOLVER_CHUNK):
        jobs.append((min(SOLVER_CHUNK, positions - i), (seed + i // SOLVER_CHUNK) % 2**64))
    totals = {c: {"positions": 0, "nodes_on": 0, "nodes_off": 0} for c in ("suit", "grand", "null")}

    def add(r: dict[str, dict[str, int]], n: int) -> None:
        for c, row in r.items():
            for k, v in row.items():
                totals[c][k] += v
        if progress:
            progress(n)

    for job, r in zip(jobs, map_tasks(_solver_chunk, jobs, workers=workers, ray=ray), strict=True):
        add(r, job[0])
    out: dict[str, Any] = {}
    for c, t in totals.items():
        red = 1 - t["nodes_on"] / t["nodes_off"] if t["nodes_off"] else 0.0
        out[c] = {**t, "reduction": red}
    return out


def plot(result: dict[str, Any], path: str) -> None:
    """Nodes / minimum proof size against depth, one line per search (thesis Fig. 3.5)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    depths = sorted(int(d) for d in result["depths"])
    fig, ax = plt.subplots(figsize=(7, 4.5))
    styles = {
        "negascout": ("NegaScout", "C0", "--"),
        "negascout_fcf": ("NegaScout + FCF", "C0", "-"),
        "mtdf": ("MTD(f)", "C1", "--"),
        "mtdf_fcf": ("MTD(f) + FCF", "C1", "-"),
    }
    for key, (label, color, line) in styles.items():
        ys = [result["depths"][str(d)]["mean_over_min_proof"][key] for d in depths]
        ax.plot(depths, ys, line, color=color, marker="o", label=label)
    ax.set_xlabel("tree depth (iterative deepening to the leaves)")
    ax.set_ylabel("nodes / minimum proof-tree size")
    ax.set_title(f"Prefix-value trees, {result['meta']['trees']} per depth")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
