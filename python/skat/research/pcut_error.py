"""How good must ProbCut's estimator be? ProbCut with simulated better estimators.

ProbCut (solver thesis ch. 7) trades exactness for speed; how much speed it buys at a given
decision agreement depends on its estimator. This experiment replaces the shipped estimate by
that of a simulated model whose error is ``scale`` times the shipped one's (the shipped
estimate moved toward the exact value as a calibrated second measurement would: see the
core's ``estimator_sim``), and runs the ProbCut benchmark of ``skat bench solver --pcut`` for
every confidence and scale: per class the speed-up over the exact all-move analysis, the
decision agreement, the decision loss and the mean absolute error, on the same random
30-card positions. Scale 1 is the shipped estimator.

The comparisons run one after the other in this process: they are timings, and two of them
side by side on a small machine would disturb each other. The positions are the outer loop:
each is compared under every confidence, scale and repeat in turn, so the exact values its
simulations need are found once for all of them. Node counts, agreements and errors are
deterministic (the same as ``skat bench solver --pcut P --pcut-error K`` gives for each
point); the speed-ups are medians over ``repeat`` runs.

>>> r = run([0.5], [1.0, 0.0], positions=3, seed=2, repeat=1)
>>> [(c["pcut"], c["error_scale"]) for c in r["configs"]]
[(0.5, 1.0), (0.5, 0.0)]
>>> exact = [row for row in r["configs"][1]["classes"] if row["class"] != "null"]
>>> all(row["mean_abs_error"] == 0.0 for row in exact)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from skat._core import probcut_grid
from skat.bench import combine_probcut_runs

TARGET_SPEEDUP = 3.5
"""The solver thesis's ProbCut speed-up at pcut 0.5 (68 -> 237 worlds/s), our target."""

TARGET_AGREEMENT = 0.95
"""The decision agreement the target asks for at that speed-up."""

CLASSES = ("suit", "grand")
"""The classes ProbCut cuts (null is never cut)."""


def meets_target(row: dict[str, Any]) -> bool:
    """Whether a class row reaches the target speed-up at the target agreement.

    >>> meets_target({"speedup": 3.6, "decision_agreement": 0.951})
    True
    >>> meets_target({"speedup": 3.6, "decision_agreement": 0.94})
    False
    """
    return bool(row["speedup"] >= TARGET_SPEEDUP and row["decision_agreement"] >= TARGET_AGREEMENT)


def run(
    pcuts: Sequence[float],
    scales: Sequence[float],
    positions: int,
    seed: int,
    repeat: int = 1,
    tt_mb: int = 32,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """The ProbCut benchmark for every (pcut, error scale): ``configs`` in that order, each
    with its classes' rows (as ``skat bench solver --pcut --json``) and ``meets_target`` per
    class; ``progress(done)`` with the number of positions done after each position."""
    grid = probcut_grid(positions, seed, list(pcuts), list(scales), repeat, tt_mb, progress)
    configs: list[dict[str, Any]] = []
    points = [(pcut, scale) for pcut in pcuts for scale in scales]
    for (pcut, scale), runs in zip(points, grid, strict=True):
        out = combine_probcut_runs(runs)
        rows = [r for r in out["classes"] if r["class"] in CLASSES]
        configs.append(
            {
                "pcut": pcut,
                "error_scale": scale,
                "classes": rows,
                "meets_target": {r["class"]: meets_target(r) for r in rows},
            }
        )
    return {
        "meta": {
            "positions": positions,
            "seed": seed,
            "repeat": repeat,
            "tt_mb": tt_mb,
            "target": {"speedup": TARGET_SPEEDUP, "decision_agreement": TARGET_AGREEMENT},
        },
        "configs": configs,
    }


def plot(result: dict[str, Any], path: str) -> None:
    """Decision agreement against speed-up, one panel per class and one line per error
    scale through its confidences; the target's corner shaded."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    configs = result["configs"]
    scales = sorted({c["error_scale"] for c in configs}, reverse=True)
    fig, axes = plt.subplots(1, len(CLASSES), figsize=(11, 4.6), sharey=True)
    for ax, cls in zip(axes, CLASSES, strict=True):
        top = TARGET_SPEEDUP
        for i, scale in enumerate(scales):
            pts = sorted(
                (c["pcut"], row["speedup"], row["decision_agreement"])
                for c in configs
                if c["error_scale"] == scale
                for row in c["classes"]
                if row["class"] == cls and row["positions"]
            )
            if not pts:
                continue
            xs = [p[1] for p in pts]
            top = max(top, *xs)
            label = "shipped estimator" if scale == 1.0 else f"{scale:g} x its error"
            ax.plot(xs, [p[2] for p in pts], "-o", color=f"C{i}", label=label)
            for pcut, x, y in pts:
                ax.annotate(
                    f"{pcut:g}",
                    (x, y),
                    textcoords="offset points",
                    xytext=(4, -10),
                    fontsize=7,
                    color=f"C{i}",
                )
        corner = [TARGET_SPEEDUP, top * 1.05]
        ax.fill_between(corner, TARGET_AGREEMENT, 1.005, color="0.9", zorder=0)
        ax.axvline(TARGET_SPEEDUP, color="0.5", ls="--", lw=1)
        ax.axhline(TARGET_AGREEMENT, color="0.5", ls="--", lw=1)
        ax.set_xlabel("speed-up over the exact all-move analysis (worlds/s)")
        n = next((r["positions"] for r in configs[0]["classes"] if r["class"] == cls), 0)
        ax.set_title(f"{cls} ({n} positions)")
        ax.set_ylim(top=1.005)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("decision agreement with the exact best card")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=8)
    fig.suptitle(
        "ProbCut with simulated better estimators (labels: pcut); target: the shaded corner,"
        f" {TARGET_SPEEDUP}x or more at agreement {TARGET_AGREEMENT} or more"
    )
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)
