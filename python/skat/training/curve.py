"""The learning curve of the 10+2 evaluation: held-out scores against training games.

The declared games of the given records are split once (seeded, :func:`skat.training.fit.split`)
into a training pool and a test set. For each size ``n`` the evaluation is fitted on the first
``n`` games of the pool (record order: for self-play shards, game index order, so that every
size's games are a prefix of the next size's) and scored on the whole test set: log-loss and
Brier score per game family and overall, mean predicted against actual win rate (calibration).
Reference models (the packaged one, say) are scored on the same test set, so that a curve and
a shipped model are compared on the same games.

>>> from skat.training.curve import curve_sizes
>>> curve_sizes([7000, 25000, 50000], available=30000)
[7000, 25000, 30000]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from skat.bidding.model import BiddingModel
from skat.training.bidding_report import FAMILIES, family_of, probability_scores
from skat.training.fit import Sample, fit


def curve_sizes(sizes: Sequence[int], available: int) -> list[int]:
    """The sizes that can be fitted: those up to ``available``, then ``available`` itself
    when a larger size was asked for (sorted, without repeats)."""
    out = sorted({n for n in sizes if 0 < n <= available})
    if any(n > available for n in sizes) and available > 0 and available not in out:
        out.append(available)
    return out


def score_model(model: BiddingModel, test: Sequence[Sample]) -> dict[str, Any]:
    """Held-out scores of ``model`` on ``test``: overall and per family."""
    p = model.win_probabilities(
        [s.hand for s in test],
        [s.discard for s in test],
        [s.kind for s in test],
        [s.seat for s in test],
    )
    y = np.array([s.won for s in test], dtype=np.float64)
    fams = np.array([family_of(s.kind) for s in test])
    out: dict[str, Any] = {"games": len(test), **probability_scores(p, y), "families": {}}
    for fam in FAMILIES:
        m = fams == fam
        if m.any():
            out["families"][fam] = {
                "n": int(m.sum()),
                "actual": float(y[m].mean()),
                "predicted": float(p[m].mean()),
                **probability_scores(p[m], y[m]),
            }
    return out


def learning_curve(
    train: Sequence[Sample],
    test: Sequence[Sample],
    sizes: Sequence[int],
    references: dict[str, BiddingModel] | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Fits a model on each prefix size of ``train`` and scores it on ``test`` (see the module
    documentation); ``progress(n)`` is called after each fit."""
    points = []
    for n in curve_sizes(sizes, len(train)):
        model = fit(train[:n], {"training_games": n})
        points.append({"training_games": n, **score_model(model, test)})
        if progress:
            progress(n)
    refs = {name: score_model(m, test) for name, m in (references or {}).items()}
    return {"test_games": len(test), "pool_games": len(train), "points": points, "references": refs}


def plot_curve(curve: dict[str, Any], path: str) -> None:
    """Log-loss and Brier score against training games (log scale), overall and per family,
    with each reference model as a dashed line; saved as PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colors = {
        "all": "black",
        "suit": "tab:blue",
        "grand": "tab:red",
        "null": "tab:green",
        "null ouvert": "tab:purple",
    }
    fig, axes = plt.subplots(1, 2, figsize=(12, 5))
    xs = [pt["training_games"] for pt in curve["points"]]
    for ax, key, label in ((axes[0], "log_loss", "log-loss"), (axes[1], "brier", "Brier score")):
        ax.plot(xs, [pt[key] for pt in curve["points"]], "-o", color="black", label="all", lw=2)
        for fam in FAMILIES:
            ys = [pt["families"].get(fam, {}).get(key) for pt in curve["points"]]
            if all(y is not None for y in ys):
                ax.plot(xs, ys, "-o", ms=3, color=colors[fam], label=fam)
        for name, ref in curve["references"].items():
            ax.axhline(ref[key], color="grey", ls="--", lw=1)
            ax.annotate(f"{name}: {ref[key]:.3f}", (xs[0] if xs else 1, ref[key]), fontsize=8)
        ax.set_xscale("log")
        ax.set_xlabel("training games (declared)")
        ax.set_ylabel(f"held-out {label} (lower is better)")
        ax.set_title(f"{label} on {curve['test_games']} held-out games")
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


__all__ = ["curve_sizes", "learning_curve", "plot_curve", "score_model"]
