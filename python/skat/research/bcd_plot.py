"""Heatmaps of a BCD grid (:func:`skat.research.bcd_grid.run_grid`) in the manner of the
thesis's Fig. 9.1: one column per ``dis``, rows R0, R1 and R1 - R0, correlation on the x axis
and bias on the y axis, each cell labelled with its value. Needs a full ``corr x bias`` grid
per ``dis``; the colour scale of the exploitability rows is shared (0 .. the largest value).

>>> import os, tempfile
>>> from skat.research.bcd_grid import grid, run_grid
>>> r = run_grid(grid([0, 1], [0, 1], [0.0]), trees=2, seed=1, levels=1, worlds=2, height=2)
>>> path = os.path.join(tempfile.mkdtemp(), "bcd.png")
>>> plot_heatmaps(r, path)
>>> os.path.getsize(path) > 0
True
"""

from __future__ import annotations

from typing import Any

import numpy as np


def _matrix(cells: list[dict[str, Any]], corrs: list[float], biases: list[float], key: str) -> Any:
    """(bias, corr) values of ``key`` (a level index, or ``diff`` for R1 - R0)."""
    m = np.full((len(biases), len(corrs)), np.nan)
    for c in cells:
        value = c["r1_minus_r0"] if key == "diff" else c["exploitability"][int(key)]
        m[biases.index(c["bias"]), corrs.index(c["corr"])] = value
    return m


def plot_heatmaps(result: dict[str, Any], path: str) -> None:
    """Writes the PNG heatmaps of ``result`` to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cells = result["cells"]
    dises = sorted({c["dis"] for c in cells})
    corrs = sorted({c["corr"] for c in cells})
    biases = sorted({c["bias"] for c in cells})
    rows = (
        [("0", "R0"), ("1", "R1"), ("diff", "R1 - R0")]
        if result["meta"]["levels"]
        else [("0", "R0")]
    )
    top = max(max(c["exploitability"][:2]) for c in cells) or 1.0
    span = max((abs(c.get("r1_minus_r0", 0.0)) for c in cells), default=0.0) or 1.0
    fig, axes = plt.subplots(
        len(rows), len(dises), figsize=(3.2 * len(dises), 3.0 * len(rows)), squeeze=False
    )
    step_c = (corrs[-1] - corrs[0]) / max(1, len(corrs) - 1) or 1.0
    step_b = (biases[-1] - biases[0]) / max(1, len(biases) - 1) or 1.0
    extent = (
        corrs[0] - step_c / 2,
        corrs[-1] + step_c / 2,
        biases[0] - step_b / 2,
        biases[-1] + step_b / 2,
    )
    for j, dis in enumerate(dises):
        group = [c for c in cells if c["dis"] == dis]
        for i, (key, name) in enumerate(rows):
            ax = axes[i][j]
            m = _matrix(group, corrs, biases, key)
            diverging = key == "diff"
            image = ax.imshow(
                m,
                origin="lower",
                extent=extent,
                aspect="auto",
                cmap="RdBu_r" if diverging else "viridis",
                vmin=-span if diverging else 0.0,
                vmax=span if diverging else top,
            )
            for bi, b in enumerate(biases):
                for ci, c in enumerate(corrs):
                    if not np.isnan(m[bi, ci]):
                        ax.text(c, b, f"{m[bi, ci]:.2f}", ha="center", va="center", fontsize=6)
            ax.set_title(f"{name}, dis={dis:g}", fontsize=9)
            ax.set_xlabel("corr")
            ax.set_ylabel("bias")
            fig.colorbar(image, ax=ax, shrink=0.8)
    meta = result["meta"]
    fig.suptitle(
        f"BCD trees: exploitability (0..4), {meta['trees']} trees per cell,"
        f" height {meta['height']}, {meta['worlds']}x{meta['worlds']} worlds"
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
