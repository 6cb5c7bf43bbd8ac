"""Plots of the three-player Spades experiments (``skat research spades --plot PNG``).

Tables 2 and 4: per row, the first player's win rate and average score with their standard
errors, next to the paper's; the inference experiment: how often each opponent kind was ruled
out, next to the paper's counts, per pair of opponent kinds.
"""

from __future__ import annotations

from typing import Any


def plot_spades(result: dict[str, Any], path: str) -> None:
    """Saves the plot of a ``skat research spades`` result as PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    if result["table"] == "inference":
        fig, ax = plt.subplots(figsize=(6, 4))
        paper = result["paper"]["ruled_out"]  # the paper's section 4.3, kept in the result
        kinds = list(paper)
        xs = np.arange(len(kinds))
        ax.bar(xs - 0.2, [result["ruled_out"][k] for k in kinds], 0.4, label="ours")
        ax.bar(
            xs + 0.2,
            [paper[k] for k in kinds],
            0.4,
            label=f"paper ({result['paper']['hands']} hands)",
        )
        ax.set_xticks(xs, kinds)
        ax.set_ylabel(f"times ruled out in {result['hands']} hands")
        ax.set_title(f"model inference: {result['inferences']} inferences, {result['wrong']} wrong")
        ax.legend()
    else:
        rows = result["rows"]
        names = [f"{r}: {' v. '.join(rows[r]['players'])}" for r in rows]
        fig, (ax, bx) = plt.subplots(1, 2, figsize=(12, 0.6 * len(rows) + 2.5))
        ys = np.arange(len(rows))
        for axis, key, label in ((ax, "win", "win rate %"), (bx, "score", "average score")):
            ours = [rows[r][f"a_{key}"] for r in rows]
            err = [rows[r][f"a_{key}_se"] for r in rows]
            paper = [rows[r]["paper"][f"a_{key}"] for r in rows]
            axis.barh(ys + 0.2, ours, 0.4, xerr=err, label="ours (± 1 SE)", capsize=3)
            axis.barh(ys - 0.2, paper, 0.4, label="paper")
            axis.set_yticks(ys, names if axis is ax else [""] * len(rows))
            axis.invert_yaxis()
            axis.set_xlabel(f"first player's {label}")
            axis.legend(fontsize=8)
            axis.grid(alpha=0.3, axis="x")
        if result["table"] == 2 or result["table"] == "2":
            ax.axvline(50, color="grey", lw=1)
        fig.suptitle(f"Table {result['table']}: {next(iter(rows.values()))['games']} games a row")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


__all__ = ["plot_spades"]
