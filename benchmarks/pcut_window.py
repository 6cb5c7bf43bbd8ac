"""ProbCut with wider MTD(f) probe windows: speed-up against agreement, per window width.

With zero-window probes a ProbCut cut returns the probe's threshold, so ProbCut's values stick
to the thresholds (the thesis saw them "snap" to the probe boundaries): in the all-move
analysis a card is mostly valued at the value of the card searched before it, and many cards
tie. A probe window ``W`` card points wide (``Solver(pcut=P, pcut_window=W)``, ``skat bench
solver --pcut P --pcut-window W``) lets a probe return a value inside it. This script runs the
ProbCut benchmark (``probcut_benchmark``: the same random 30-card positions analysed exactly and
with ProbCut) for every pair of ``--pcuts`` and ``--windows``, ``--repeat`` times each (worlds/s:
medians; agreements and errors are deterministic), and writes per class the speed-up, decision
agreement and mean absolute error as JSON, and with ``--plot`` speed-up against agreement, one
line per window, beside the issue's target (3.5x at 0.95).

    python benchmarks/pcut_window.py --positions 1000 --seed 1 --repeat 3 --json F --plot P
"""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.table import Table

from skat._core import probcut_benchmark
from skat.bench import combine_probcut_runs, machine_description
from skat.display import save_json

PCUTS = (0.1, 0.2, 0.3, 0.5, 0.7)
"""The ProbCut confidences compared by default."""
WINDOWS = (1, 6, 20)
"""The probe window widths (card points) compared by default; 1 is the zero-window search."""
TARGET = (0.95, 3.5)
"""The target: decision agreement and speed-up at 30 cards."""
CUT_CLASSES = ("suit", "grand")
"""The classes ProbCut cuts (null is never cut)."""


def grid(
    positions: int, seed: int, pcuts: list[float], windows: list[int], repeat: int
) -> list[dict[str, Any]]:
    """One row per (pcut, window, class) with the benchmark's figures for it."""
    rows = []
    for pcut in pcuts:
        for window in windows:
            runs = [
                probcut_benchmark(positions, seed, pcut, pcut_window=window) for _ in range(repeat)
            ]
            for c in combine_probcut_runs(runs)["classes"]:
                if c["class"] in CUT_CLASSES and c["positions"]:
                    rows.append(
                        {
                            "pcut": pcut,
                            "window": window,
                            "class": c["class"],
                            "positions": c["positions"],
                            "speedup": c["speedup"],
                            "decision_agreement": c["decision_agreement"],
                            "mean_abs_error": c["mean_abs_error"],
                            "nodes": c["nodes"],
                            "exact_nodes": c["exact_nodes"],
                        }
                    )
    return rows


def plot(rows: list[dict[str, Any]], path: str) -> None:
    """Speed-up against agreement per class, one line per window through the pcuts."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(CUT_CLASSES), figsize=(10, 4.2), sharey=True)
    for ax, cls in zip(axes, CUT_CLASSES, strict=True):
        for window in sorted({r["window"] for r in rows}):
            line = sorted(
                (r for r in rows if r["class"] == cls and r["window"] == window),
                key=lambda r: r["pcut"],
            )
            xs = [r["decision_agreement"] for r in line]
            ys = [r["speedup"] for r in line]
            label = "zero windows" if window == 1 else f"{window}-point windows"
            ax.plot(xs, ys, marker="o", label=label)
            for r in line:
                ax.annotate(f"{r['pcut']:g}", (r["decision_agreement"], r["speedup"]), fontsize=7)
        ax.plot([TARGET[0]], [TARGET[1]], marker="*", markersize=12, color="black", ls="none")
        ax.annotate("target", TARGET, textcoords="offset points", xytext=(5, 5))
        ax.set_title(cls)
        ax.set_xlabel("decision agreement")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("speed-up over the exact analysis")
    axes[0].legend()
    fig.suptitle("ProbCut at 30 cards by probe window (labels: pcut)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _floats(text: str) -> list[float]:
    return [float(x) for x in text.split(",")]


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",")]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--pcuts", type=_floats, default=list(PCUTS), metavar="P,P,...")
    ap.add_argument("--windows", type=_ints, default=list(WINDOWS), metavar="W,W,...")
    ap.add_argument("--json", metavar="F")
    ap.add_argument("--plot", metavar="P")
    args = ap.parse_args(argv)
    pcuts, windows = args.pcuts, args.windows
    if args.positions < 1 or args.repeat < 1:
        ap.error("--positions and --repeat must be at least 1")
    if not all(0.0 < p < 1.0 for p in pcuts) or not all(1 <= w <= 120 for w in windows):
        ap.error("--pcuts lie in (0, 1), --windows in 1..120")
    rows = grid(args.positions, args.seed, pcuts, windows, args.repeat)
    table = Table(title=f"ProbCut by probe window, {args.positions} positions, seed {args.seed}")
    for col in ("pcut", "window", "class", "speed-up", "agreement", "abs. error"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(
            f"{r['pcut']:g}",
            str(r["window"]),
            r["class"],
            f"{r['speedup']:.2f}x",
            f"{r['decision_agreement']:.3f}",
            f"{r['mean_abs_error']:.2f}",
        )
    Console().print(table)
    out = {
        "positions": args.positions,
        "seed": args.seed,
        "repeat": args.repeat,
        "machine": machine_description(),
        "rows": rows,
    }
    if args.json:
        save_json(args.json, out)
    if args.plot:
        plot(rows, args.plot)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
